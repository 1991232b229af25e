// `tito module list`, `tito module status` and `tito module view`: reading, never writing.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/learning_path.h"
#include "core/lesson_pages.h"
#include "core/lesson_translation.h"
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

// How many characters a terminal shows for UTF-8 text: its code points (translations have accents).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A module's state as the learner reads it; to_string(state) is the word --json prints, and stays English.
std::string state_text(ModuleState state) {
  switch (state) {
    // TRANSLATORS: a module's state in the State column of `tito module list` and `tito module status`
    case ModuleState::Completed: return tr("completed");
    // TRANSLATORS: a module's state: its starter files are written, its tests do not all pass yet
    case ModuleState::Started: return tr("started");
    // TRANSLATORS: a module's (or milestone's) state: every prerequisite is done, it can be started
    case ModuleState::Ready: return tr("ready");
    // TRANSLATORS: a module's (or milestone's) state: a prerequisite is not completed yet
    case ModuleState::Locked: return tr("locked");
    // TRANSLATORS: a module's (or milestone's) state: its lesson or programs are not written yet
    case ModuleState::Unavailable: return tr("not yet available");
  }
  return to_string(state);
}

// A module's tier (curriculum.json's five) as the learner reads it; --json prints the tier as it is.
std::string tier_text(const std::string& tier) {
  // TRANSLATORS: the tiers of the curriculum, in the Tier column of `tito module list`
  if (tier == "Foundation") return tr("Foundation");
  if (tier == "Architecture") return tr("Architecture");
  if (tier == "Optimization") return tr("Optimization");
  if (tier == "Scale") return tr("Scale");
  if (tier == "Capstone") return tr("Capstone");
  return tr_curriculum(tier);
}

std::string state_label(ModuleState state) {
  const Terminal& out = terminal();
  const std::string text = state_text(state);
  switch (state) {
    case ModuleState::Completed: return out.green(text);
    case ModuleState::Started: return out.yellow(text);
    case ModuleState::Ready: return out.cyan(text);
    default: return out.dim(text);
  }
}

std::string pad(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

// Pads by the plain text's width so colour codes do not break the columns.
std::string pad_coloured(const std::string& coloured, const std::string& plain, std::size_t width) {
  const std::size_t shown = display_width(plain);
  return coloured + (shown < width ? std::string(width - shown, ' ') : "");
}

// The tables' Module column: as wide as the longest title ("Parallel Data Loading"), at least 15.
std::size_t title_column_width(const Curriculum& curriculum) {
  std::size_t width = 15;
  for (const auto& module : curriculum.modules()) width = std::max(width, display_width(tr_curriculum(module.title)));
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
  std::size_t tier_width = 13;  // as wide as the longest tier in the learner's language
  for (const auto& module : session.curriculum.modules())
    tier_width = std::max(tier_width, display_width(tier_text(module.tier)) + 1);
  // TRANSLATORS: the column headings of `tito module list`: module title, tier (Foundation, Architecture, ...),
  // the modules it needs, its state. Needs should stay within 13 characters.
  std::cout << out.bold(fmt::format("{:<3} {:<{}} {:<{}} {:<13} {}", "##", tr("Module"), title_width, tr("Tier"),
                                    tier_width, tr("Needs"), tr("State")))
            << "\n";
  for (const auto& module : session.curriculum.modules()) {
    const ModuleState state = state_of(module, progress);
    const std::string needs = module.prerequisites.empty() ? "-" : compact_module_ranges(module.prerequisites);
    std::cout << fmt::format("{:<3} {:<{}} {:<{}} {:<13} ", module.number, tr_curriculum(module.title), title_width,
                             tier_text(module.tier), tier_width, needs)
              << pad_coloured(state_label(state), state_text(state), 0) << "\n";
  }
  if (!session.workspace) {
    std::cout << "\n" << tr("(no workspace here, so every module is shown as not started)") << "\n";
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
    throw UserError(tr("tito module status shows every module; NN goes with --journal"),
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
  std::cout << out.bold(tr("Your progress")) << "  " << progress_bar(done, total) << "  "
            << trnf("{}/{} module completed", "{}/{} modules completed", static_cast<unsigned long>(total), done, total)
            << "\n\n";
  const std::size_t title_width = title_column_width(session.curriculum);
  // TRANSLATORS: the column headings of `tito module status`: module title, state, score (e.g. 95/100) and the
  // date it was completed. Score should stay within 9 characters.
  std::cout << out.bold(fmt::format("{:<3} {:<{}} {:<18} {:<9} {}", "##", tr("Module"), title_width, tr("State"),
                                    tr("Score"), tr("Completed")))
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
        // TRANSLATORS: in the Completed column of `tito module status`; {} is the date, e.g. 2024-03-01
        completed = trf("{} on the reference solution, not your code", completed);
        ++on_reference;
      }
    }
    std::cout << fmt::format("{:<3} {:<{}} ", module.number, tr_curriculum(module.title), title_width)
              << pad_coloured(state_label(state), state_text(state), 18) << " " << pad(score, 9) << " " << completed << "\n";
  }
  std::string last_module;
  const std::string last = latest_activity(progress, &last_module);
  std::cout << "\n";
  if (on_reference > 0)
    std::cout << trnf("{} of the {} completed module ran the reference solution (tito module start NN --reference); "
                      "tito module reset NN brings back the starter to write it yourself.",
                      "{} of the {} completed modules ran the reference solution (tito module start NN --reference); "
                      "tito module reset NN brings back the starter to write it yourself.",
                      static_cast<unsigned long>(done), on_reference, done)
              << "\n";
  if (!last.empty()) {
    const ModuleInfo* module = session.curriculum.find(last_module);
    auto when = parse_iso8601(last);
    // TRANSLATORS: {} {} are the module's number and title, then how long ago, e.g. "5 minutes ago"
    std::cout << trf("Last activity: module {} ({}), {}", last_module, module ? tr_curriculum(module->title) : "?",
                     when ? describe_age(*when) : last)
              << "\n";
  } else {
    std::cout << tr("No activity yet.") << "\n";
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
  std::string language;  // --lang: the lesson's language; "" = the learner's (tito config language, LANG)
};

int list_readable_files(const Session& session, const ModuleInfo& module) {
  const Terminal& out = terminal();
  // TRANSLATORS: {} {} are the module's number and title, the last {} the command that prints one file
  std::cout << trf("Given code of module {} ({}), to read with {}:", module.number, tr_curriculum(module.title),
                   out.command("tito module view " + module.number + " --file NAME"))
            << "\n";
  const auto given = given_sources(session.installation, module);
  if (given.empty()) std::cout << "  " << tr("(none: everything in this module is yours to write)") << "\n";
  for (const auto& file : given) std::cout << "  " << out.bullet() << " " << file.name << "\n";
  std::cout << tr("Public headers too, by include path: e.g. tinytorch/tensor.h, tinytorch/nn/module.h") << "\n";
  std::cout << trf("Your own files are in modules/{}/ of your workspace.", module.folder()) << "\n";
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
  // TRANSLATORS: after a command line the learner copies; FILE stands for a file name they choose
  std::string another = std::string("FILE   ") + tr("(in a folder you can write to)");
  if (fs::exists(page_file)) {
    fs::path free_name = page_file;
    for (int n = 2; fs::exists(free_name); ++n)
      free_name.replace_filename(fmt::format("{}-{}{}", page_file.stem().string(), n, page_file.extension().string()));
    another = free_name.string();
  }
  write_page(page_file, page.html, fmt::format("tito module view {} --html --out {}", module.number, another));
  for (const auto& problem : page.problems) terminal().warning(problem);
  std::cout << trf("Wrote the lesson of module {} ({}) as HTML: {}", module.number, tr_curriculum(module.title),
                   page_file.string())
            << "\n";
  std::cout << trf("Open it in a browser: {}", file_url(page_file)) << "\n";
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
    throw UserError(trf("module {} ({}) is not yet available: its lesson has not been written", module.number,
                        tr_curriculum(module.title)),
                    std::string("tito module list   ") + tr("(to see the modules you can read now)"));
  }
  // The lesson in the learner's language where it is translated (lesson.es.md), else the English one,
  // saying so: a learner must never wonder whether a Spanish lesson exists.
  const std::string language = lesson_language(request.language);
  const LessonChoice choice = choose_lesson(module, language);
  ModuleInfo shown = module;
  shown.lesson = choice.file;
  if (choice.fell_back) {
    const auto translated = lesson_translations(module);
    terminal().warning(translated.empty()
                           ? trf("The lesson of module {} has no translation in '{}' yet: showing it in English.",
                                 module.number, language)
                           : trf("The lesson of module {} has no translation in '{}' yet: showing it in English "
                                 "(it is translated into: {}; --lang chooses).", module.number, language,
                                 fmt::join(translated, ", ")));
  }
  if (request.path_only) {
    std::cout << shown.lesson.string() << "\n";
    return 0;
  }
  if (request.html) return write_lesson_html(options, session, shown, request.out);
  terminal().page(render_markdown(read_file(shown.lesson), terminal()));
  return 0;
}

}  // namespace

void register_module_browse_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* list = group.add_subcommand("list", tr("All modules with their tier, prerequisites and state"));
  auto list_json = std::make_shared<bool>(false);
  list->add_flag("--json", *list_json, tr("Print a JSON array (for editors and scripts)"));
  on_chosen(list, registry, [options, list_json] { return run_list(*options, *list_json); });

  auto* status = group.add_subcommand("status", tr("Your progress: completed modules, scores and what to do next"));
  auto status_json = std::make_shared<bool>(false);
  auto status_journal = std::make_shared<bool>(false);
  auto status_module = std::make_shared<std::string>();
  status->add_flag("--json", *status_json, tr("Print JSON"));
  status->add_flag("--journal", *status_journal,
                   tr("Your learning journal instead: time on task, test runs, hints and concept checks per module"));
  status->add_option("NN", *status_module, tr("With --journal: one module in detail"));
  on_chosen(status, registry, [options, status_json, status_journal, status_module] {
    return run_status(*options, *status_json, *status_journal, *status_module);
  });

  auto* view = group.add_subcommand("view", tr("Read a module's lesson, or the given code it asks you to read"));
  auto request = std::make_shared<ViewRequest>();
  view->add_option("NN", request->number, tr("Module number or name, e.g. 01 or tensor"))->required();
  view->add_flag("--path", request->path_only, tr("Only print the file's path"));
  view->add_option("--lang", request->language,
                   tr("The lesson's language (en, es, zh) where it is translated; default: yours (tito config language, or LANG)"));
  view->add_option("--file", request->file, tr("Print a given source of the module (e.g. activation_ops.cpp) or a public header "
                                               "(e.g. tinytorch/tensor.h) instead of the lesson"));
  view->add_flag("--files", request->list_files, tr("List the given files of the module that --file can print"));
  auto* html = view->add_flag("--html", request->html,
                              tr("Write the lesson as a standalone HTML page and print its path and file:// URL: by default "
                                 "<workspace>/lessons/NN_slug/lesson.html in a workspace, else "
                                 "./tinytorch-lessons/NN_slug/lesson.html (tito lessons build writes them all)"));
  html->excludes("--path")->excludes("--file")->excludes("--files");
  view->add_option("--out", request->out, tr("With --html: write the page to this file (or into this folder)"))->needs(html);
  on_chosen(view, registry, [options, request] { return run_view(*options, *request); });
}

}  // namespace tito
