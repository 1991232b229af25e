// `tito module list`, `tito module status` and `tito module view`: reading, never writing.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/learner_files.h"
#include "core/learning_path.h"
#include "core/lesson_pages.h"
#include "core/markdown.h"
#include "core/readable_files.h"
#include "core/terminal.h"

namespace tito {
namespace {

// "01,02,03,05" -> "01..03,05": runs of three or more consecutive modules shown as a range.
std::string compact_module_ranges(const std::vector<std::string>& numbers) {
  std::vector<std::string> parts;
  for (std::size_t start = 0; start < numbers.size();) {
    std::size_t end = start;
    while (end + 1 < numbers.size() && std::stoi(numbers[end + 1]) == std::stoi(numbers[end]) + 1) ++end;
    if (end - start >= 2) {
      parts.push_back(numbers[start] + ".." + numbers[end]);
    } else {
      for (std::size_t i = start; i <= end; ++i) parts.push_back(numbers[i]);
    }
    start = end + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}


using nlohmann::json;

std::string state_label(ModuleState state) {
  const Terminal& out = terminal();
  const std::string text = to_string(state);
  switch (state) {
    case ModuleState::Completed: return out.green(text);
    case ModuleState::Started: return out.yellow(text);
    case ModuleState::Ready: return out.cyan(text);
    default: return out.dim(text);
  }
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Pads by the plain text's width so colour codes do not break the columns.
std::string pad_coloured(const std::string& coloured, const std::string& plain, std::size_t width) {
  return coloured + (plain.size() < width ? std::string(width - plain.size(), ' ') : "");
}

// The tables' Module column: as wide as the longest title ("Parallel Data Loading"), at least 15.
std::size_t title_column_width(const Curriculum& curriculum) {
  std::size_t width = 15;
  for (const auto& module : curriculum.modules()) width = std::max(width, module.title.size());
  return width;
}

ProgressState progress_or_empty(const Session& session) {
  return session.workspace ? session.state() : ProgressState{};
}

int run_list(const GlobalOptions& options, bool as_json) {
  Session session = open_session_if_possible(options);
  const ProgressState progress = progress_or_empty(session);
  if (as_json) {
    json modules = json::array();
    for (const auto& module : session.curriculum.modules()) {
      modules.push_back({{"number", module.number},
                         {"slug", module.slug},
                         {"folder", module.folder()},
                         {"title", module.title},
                         {"subtitle", module.subtitle},
                         {"tier", module.tier},
                         {"prerequisites", module.prerequisites},
                         {"available", module.available()},
                         {"state", to_string(state_of(module, progress))},
                         {"lesson", module.available() ? json(module.lesson.string()) : json(nullptr)},
                         {"points", module.points}});
    }
    std::cout << modules.dump(2) << "\n";
    return 0;
  }
  const Terminal& out = terminal();
  const std::size_t title_width = title_column_width(session.curriculum);
  std::cout << out.bold(fmt::format("{:<3} {:<{}} {:<13} {:<13} {}", "##", "Module", title_width, "Tier", "Needs",
                                    "State"))
            << "\n";
  for (const auto& module : session.curriculum.modules()) {
    const ModuleState state = state_of(module, progress);
    const std::string needs = module.prerequisites.empty() ? "-" : compact_module_ranges(module.prerequisites);
    std::cout << fmt::format("{:<3} {:<{}} {:<13} {:<13} ", module.number, module.title, title_width, module.tier, needs)
              << pad_coloured(state_label(state), to_string(state), 0) << "\n";
  }
  if (!session.workspace) {
    std::cout << "\n(no workspace here, so every module is shown as not started)\n";
    out.next_step("tito init");
  } else {
    std::cout << "\n";
    out.next_step(next_command(session.curriculum, progress));
  }
  return 0;
}

std::string progress_bar(int done, int total) {
  const Terminal& out = terminal();
  std::string bar;
  for (int i = 0; i < total; ++i) bar += i < done ? out.bar_full() : out.bar_empty();
  return bar;
}

std::string latest_activity(const ProgressState& progress, std::string* module) {
  std::string latest;
  for (const auto& [number, entry] : progress.modules) {
    for (const auto& stamp : {entry.started_at, entry.completed_at}) {
      if (stamp && *stamp > latest) {
        latest = *stamp;
        *module = number;
      }
    }
  }
  return latest;
}

int run_status(const GlobalOptions& options, bool as_json, bool journal, const std::string& module) {
  Session session = open_session(options, true);
  if (journal) return run_learning_journal(session, module, as_json);
  if (!module.empty())
    throw UserError("tito module status shows every module; NN goes with --journal",
                    "tito module status --journal " + module, kExitUsage);
  const ProgressState& progress = session.state();
  const int total = static_cast<int>(session.curriculum.modules().size());
  const int done = progress.completed_count();
  const std::string next = next_command(session.curriculum, progress);
  if (as_json) {
    json modules = json::array();
    for (const auto& module : session.curriculum.modules()) {
      auto found = progress.modules.find(module.number);
      const ModuleProgress entry = found == progress.modules.end() ? ModuleProgress{} : found->second;
      modules.push_back({{"number", module.number},
                         {"title", module.title},
                         {"state", to_string(state_of(module, progress))},
                         {"started_at", entry.started_at ? json(*entry.started_at) : json(nullptr)},
                         {"completed_at", entry.completed_at ? json(*entry.completed_at) : json(nullptr)},
                         {"score", entry.score ? json(*entry.score) : json(nullptr)},
                         {"points", entry.points ? json(*entry.points) : json(nullptr)},
                         {"origin", entry.completed() ? json(module_origin(session.installation, module, entry)) : json(nullptr)}});
    }
    json document = {{"workspace", session.ws().root().string()},
                     {"completed", done},
                     {"total", total},
                     {"last_worked", progress.last_worked ? json(*progress.last_worked) : json(nullptr)},
                     {"next", next},
                     {"modules", modules}};
    std::cout << document.dump(2) << "\n";
    return 0;
  }
  const Terminal& out = terminal();
  std::cout << out.bold("Your progress") << "  " << progress_bar(done, total)
            << fmt::format("  {}/{} modules completed\n\n", done, total);
  const std::size_t title_width = title_column_width(session.curriculum);
  std::cout << out.bold(fmt::format("{:<3} {:<{}} {:<18} {:<9} {}", "##", "Module", title_width, "State", "Score",
                                    "Completed"))
            << "\n";
  int on_reference = 0;
  for (const auto& module : session.curriculum.modules()) {
    const ModuleState state = state_of(module, progress);
    auto found = progress.modules.find(module.number);
    std::string score = "-", completed = "-";
    if (found != progress.modules.end() && found->second.completed()) {
      score = fmt::format("{}/{}", found->second.score.value_or(0), found->second.points.value_or(0));
      completed = found->second.completed_at->substr(0, 10);
      if (module_origin(session.installation, module, found->second) == "reference") {
        completed += " on the reference solution, not your code";
        ++on_reference;
      }
    }
    std::cout << fmt::format("{:<3} {:<{}} ", module.number, module.title, title_width)
              << pad_coloured(state_label(state), to_string(state), 18) << " " << pad(score, 9) << " " << completed << "\n";
  }
  std::string last_module;
  const std::string last = latest_activity(progress, &last_module);
  std::cout << "\n";
  if (on_reference > 0)
    std::cout << fmt::format("{} of the {} completed module{} ran the reference solution (tito module start NN --reference); "
                             "tito module reset NN brings back the starter to write it yourself.\n",
                             on_reference, done, done == 1 ? "" : "s");
  if (!last.empty()) {
    const ModuleInfo* module = session.curriculum.find(last_module);
    auto when = parse_iso8601(last);
    std::cout << fmt::format("Last activity: module {} ({}), {}\n", last_module, module ? module->title : "?",
                             when ? describe_age(*when) : last);
  } else {
    std::cout << "No activity yet.\n";
  }
  out.next_step(next);
  return 0;
}

struct ViewRequest {
  std::string number;
  bool path_only = false;
  std::string file;  // --file NAME: a given source or public header instead of the lesson
  bool list_files = false;
  bool html = false;
  std::string out;  // --out FILE with --html
};

int list_readable_files(const Session& session, const ModuleInfo& module) {
  const Terminal& out = terminal();
  std::cout << fmt::format("Given code of module {} ({}), to read with {}:\n", module.number, module.title,
                           out.command("tito module view " + module.number + " --file NAME"));
  const auto given = given_sources(session.installation, module);
  if (given.empty()) std::cout << "  (none: everything in this module is yours to write)\n";
  for (const auto& file : given) std::cout << "  " << out.bullet() << " " << file.name << "\n";
  std::cout << "Public headers too, by include path: e.g. tinytorch/tensor.h, tinytorch/nn/module.h\n";
  std::cout << fmt::format("Your own files are in modules/{}/ of your workspace.\n", module.folder());
  return 0;
}

// The lesson as a standalone HTML page: by default where `tito lessons build` puts it, so that its links
// to other lessons find their pages once those are built too.
int write_lesson_html(const GlobalOptions& options, const Session& session, const ModuleInfo& module, const std::string& out) {
  fs::path page_file = out.empty() ? default_lessons_dir(options.workspace, fs::current_path()) / lesson_page_path(module)
                                   : fs::absolute(out);
  if (!out.empty() && fs::is_directory(page_file)) page_file /= lesson_page_path(module);
  const LessonPage page = render_lesson_page(session.curriculum, module, false);
  // The fix: beside a file tito will not replace, a name nothing has yet (lesson-2.html); else another folder.
  std::string another = "FILE   (in a folder you can write to)";
  if (fs::exists(page_file)) {
    fs::path free_name = page_file;
    for (int n = 2; fs::exists(free_name); ++n)
      free_name.replace_filename(fmt::format("{}-{}{}", page_file.stem().string(), n, page_file.extension().string()));
    another = free_name.string();
  }
  write_page(page_file, page.html, fmt::format("tito module view {} --html --out {}", module.number, another));
  for (const auto& problem : page.problems) terminal().warning(problem);
  std::cout << fmt::format("Wrote the lesson of module {} ({}) as HTML: {}\n", module.number, module.title, page_file.string());
  std::cout << "Open it in a browser: " << file_url(page_file) << "\n";
  return 0;
}

int run_view(const GlobalOptions& options, const ViewRequest& request) {
  Session session = open_session(options, false);
  const ModuleInfo& module = session.curriculum.resolve(request.number);
  if (request.list_files) return list_readable_files(session, module);
  if (!request.file.empty()) {
    const ReadableFile file = find_readable_file(session.installation, module, request.file);
    if (request.path_only) {
      std::cout << file.path.string() << "\n";
      return 0;
    }
    terminal().page(read_readable_file(file));
    return 0;
  }
  if (!module.available()) {
    throw UserError(fmt::format("module {} ({}) is not yet available: its lesson has not been written", module.number, module.title),
                    "tito module list   (to see the modules you can read now)");
  }
  if (request.path_only) {
    std::cout << module.lesson.string() << "\n";
    return 0;
  }
  if (request.html) return write_lesson_html(options, session, module, request.out);
  terminal().page(render_markdown(read_file(module.lesson), terminal()));
  return 0;
}

}  // namespace

void register_module_browse_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* list = group.add_subcommand("list", "All modules with their tier, prerequisites and state");
  auto list_json = std::make_shared<bool>(false);
  list->add_flag("--json", *list_json, "Print a JSON array (for editors and scripts)");
  on_chosen(list, registry, [options, list_json] { return run_list(*options, *list_json); });

  auto* status = group.add_subcommand("status", "Your progress: completed modules, scores and what to do next");
  auto status_json = std::make_shared<bool>(false);
  auto status_journal = std::make_shared<bool>(false);
  auto status_module = std::make_shared<std::string>();
  status->add_flag("--json", *status_json, "Print JSON");
  status->add_flag("--journal", *status_journal,
                   "Your learning journal instead: time on task, test runs, hints and concept checks per module");
  status->add_option("NN", *status_module, "With --journal: one module in detail");
  on_chosen(status, registry, [options, status_json, status_journal, status_module] {
    return run_status(*options, *status_json, *status_journal, *status_module);
  });

  auto* view = group.add_subcommand("view", "Read a module's lesson, or the given code it asks you to read");
  auto request = std::make_shared<ViewRequest>();
  view->add_option("NN", request->number, "Module number or name, e.g. 01 or tensor")->required();
  view->add_flag("--path", request->path_only, "Only print the file's path");
  view->add_option("--file", request->file, "Print a given source of the module (e.g. activation_ops.cpp) or a public header "
                                            "(e.g. tinytorch/tensor.h) instead of the lesson");
  view->add_flag("--files", request->list_files, "List the given files of the module that --file can print");
  auto* html = view->add_flag("--html", request->html,
                              "Write the lesson as a standalone HTML page and print its path and file:// URL: by default "
                              "<workspace>/lessons/NN_slug/lesson.html in a workspace, else "
                              "./tinytorch-lessons/NN_slug/lesson.html (tito lessons build writes them all)");
  html->excludes("--path")->excludes("--file")->excludes("--files");
  view->add_option("--out", request->out, "With --html: write the page to this file (or into this folder)")->needs(html);
  on_chosen(view, registry, [options, request] { return run_view(*options, *request); });
}

}  // namespace tito
