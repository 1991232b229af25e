// `tito milestone list`, `tito milestone info NN` and `tito milestone status`: reading, never writing.
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/milestone.h"
#include "core/milestone_record.h"
#include "core/terminal.h"

namespace tito {
namespace {

enum class MilestoneState { Unavailable, Locked, Ready, Achieved };

struct MilestoneView {
  const Milestone* milestone;
  MilestoneState state;
  std::vector<std::string> missing;  // modules still to complete
  const MilestoneRecord* record;
};

std::vector<MilestoneView> view_all(const std::vector<Milestone>& milestones, const ProgressState& progress,
                                    const MilestoneStore* store) {
  std::vector<MilestoneView> views;
  for (const auto& milestone : milestones) {
    MilestoneView view{&milestone, MilestoneState::Ready, missing_modules(milestone, progress),
                       store ? store->find(milestone.id) : nullptr};
    if (is_achieved(milestone, view.record)) view.state = MilestoneState::Achieved;
    else if (!view.missing.empty()) view.state = MilestoneState::Locked;
    else if (!milestone.implemented()) view.state = MilestoneState::Unavailable;
    views.push_back(view);
  }
  return views;
}

std::string state_text(const MilestoneView& view) {
  const Terminal& out = terminal();
  switch (view.state) {
    case MilestoneState::Achieved: return out.green("passed");
    case MilestoneState::Ready: return out.cyan("ready");
    case MilestoneState::Unavailable: return out.dim("not yet available");
    case MilestoneState::Locked: break;
  }
  return out.dim("locked");
}

std::size_t plain_width(MilestoneState state) {
  switch (state) {
    case MilestoneState::Achieved: return 6;
    case MilestoneState::Ready: return 5;
    case MilestoneState::Unavailable: return 17;
    case MilestoneState::Locked: break;
  }
  return 6;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Breaks a paragraph into lines of at most `width` characters, at spaces.
std::string wrapped(const std::string& text, std::size_t width = 96) {
  std::string result, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      result += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return result + line;
}

std::string format_value(const std::optional<double>& value) { return value ? format_measured(*value) : "none"; }


// " (optional)" after a part's title, unless the title already says so.
std::string optional_mark(const MilestonePart& part) {
  return part.required || part.title.find("optional") != std::string::npos ? "" : " (optional)";
}

// The one command that moves a locked milestone forward.
std::string unlock_command(const Session& session, const std::vector<std::string>& missing) {
  const ProgressState progress = session.workspace ? session.state() : ProgressState{};
  const std::string& first = missing.front();
  return (progress.is_started(first) ? "tito module complete " : "tito module start ") + first;
}

struct Loaded {
  Session session;
  std::vector<Milestone> milestones;
  std::unique_ptr<MilestoneStore> store;  // null without a workspace
  ProgressState progress;
};

Loaded load_everything(const GlobalOptions& options) {
  Loaded loaded{open_session_if_possible(options), {}, nullptr, {}};
  loaded.milestones = load_milestones(loaded.session.installation.source_dir);
  if (loaded.session.workspace) {
    loaded.store = std::make_unique<MilestoneStore>(loaded.session.ws().tito_dir());
    const std::string notice = loaded.store->load();
    if (!notice.empty()) terminal().warning(notice);
    loaded.progress = loaded.session.state();
  }
  return loaded;
}

int run_list(const GlobalOptions& options) {
  Loaded loaded = load_everything(options);
  const Terminal& out = terminal();
  if (loaded.milestones.empty()) {
    std::cout << "This installation has no milestones.\n";
    return 0;
  }
  std::cout << out.bold(fmt::format("Milestones: machine-learning history from {} to {}, rebuilt on your own code",
                                    loaded.milestones.front().year, loaded.milestones.back().year))
            << "\n\n";
  std::string next;
  for (const auto& view : view_all(loaded.milestones, loaded.progress, loaded.store.get())) {
    const Milestone& m = *view.milestone;
    std::cout << fmt::format("  {}  {}  {} ", m.id, m.year, pad(m.title, 26)) << state_text(view)
              << std::string(18 - plain_width(view.state), ' ') << out.dim(m.summary) << "\n";
    if (next.empty() && view.state == MilestoneState::Ready) next = "tito milestone run " + m.id;
  }
  std::cout << "\n";
  if (!loaded.session.workspace) out.next_step("tito init   (milestones run in a workspace)");
  else if (!next.empty()) out.next_step(next);
  else out.next_step("tito milestone status");
  return 0;
}

void print_parts(const Milestone& milestone, const MilestoneRecord* record) {
  const Terminal& out = terminal();
  for (const auto& part : milestone.parts) {
    std::cout << fmt::format("   Part {}: {}{} - gate {}", part.number, part.title, optional_mark(part),
                             part.describe_gates());
    const PartRecord* result = nullptr;
    if (record) {
      auto found = record->parts.find(part.number);
      if (found != record->parts.end()) result = &found->second;
    }
    if (!result) {
      std::cout << ": " << out.dim("not run") << "\n";
      continue;
    }
    if (result->skipped) {
      std::cout << ": " << out.yellow("skipped") << fmt::format(" on {} - {}\n", result->at, result->message);
      continue;
    }
    if (result->passed) {
      std::cout << ": " << out.green("passed") << fmt::format(" with {} = {} ({:.1f} s, {})\n", part.gate.metric,
                                                               format_value(result->value), result->seconds, result->at);
      if (!result->reference_modules.empty())
        std::cout << "     " << out.yellow(code_summary(result->learner_modules, result->reference_modules)) << "\n";
    } else {
      std::cout << ": " << out.red("failed") << fmt::format(" on {} - {}", result->at, result->message);
      if (result->passed_at) std::cout << fmt::format(" (it passed earlier, on {})", *result->passed_at);
      std::cout << "\n";
    }
  }
}

int run_status(const GlobalOptions& options) {
  Loaded loaded = load_everything(options);
  const Terminal& out = terminal();
  if (!loaded.session.workspace) {
    std::cout << "No workspace here, so no milestone results to show.\n";
    out.next_step("tito init");
    return 0;
  }
  const auto views = view_all(loaded.milestones, loaded.progress, loaded.store.get());
  int achieved = 0;
  for (const auto& view : views) achieved += view.state == MilestoneState::Achieved ? 1 : 0;
  std::cout << out.bold(fmt::format("Milestones passed: {}/{}", achieved, views.size())) << "\n\n";
  std::string next;
  for (const auto& view : views) {
    const Milestone& m = *view.milestone;
    std::cout << out.bold(m.label()) << "  " << state_text(view);
    if (view.state == MilestoneState::Locked)
      std::cout << fmt::format(" - needs module{} {}", view.missing.size() == 1 ? "" : "s",
                               module_names(loaded.session, view.missing));
    if (view.state == MilestoneState::Achieved && view.record && view.record->achieved_at)
      std::cout << out.dim(" on " + *view.record->achieved_at);
    std::cout << "\n";
    print_parts(m, view.record);
    if (next.empty() && view.state == MilestoneState::Ready) next = "tito milestone run " + m.id;
  }
  std::cout << "\n";
  if (next.empty()) {
    for (const auto& view : views)
      if (view.state == MilestoneState::Locked) {
        next = unlock_command(loaded.session, view.missing);
        break;
      }
  }
  if (!next.empty()) out.next_step(next);
  return 0;
}

int run_info(const GlobalOptions& options, const std::string& requested) {
  Loaded loaded = load_everything(options);
  const Terminal& out = terminal();
  const Milestone& m = resolve_milestone(loaded.milestones, requested);
  std::cout << out.bold(fmt::format("Milestone {}: {} ({})", m.id, m.title, m.year)) << "\n";
  if (!m.summary.empty()) std::cout << m.summary << "\n";
  if (!m.story.empty()) std::cout << "\n" << wrapped(m.story) << "\n";
  std::cout << "\nModules it runs on: " << module_names(loaded.session, m.required_modules) << "\n";
  if (!m.aliases.empty()) std::cout << "Also called: " << fmt::format("{}", fmt::join(m.aliases, ", ")) << "\n";
  if (m.parts.empty()) {
    std::cout << out.dim("\nIts programs are not written yet.") << "\n";
    return 0;
  }
  std::cout << "\nParts (tito judges each from the value the program measures):\n";
  for (const auto& part : m.parts)
    std::cout << fmt::format("   Part {}: {}{} - {} - gate {}\n", part.number, part.title, optional_mark(part),
                             fmt::join(part.programs, ", "), part.describe_gates());
  std::cout << "Program folder: " << m.dir.string() << "\n\n";
  const auto missing = missing_modules(m, loaded.progress);
  if (!loaded.session.workspace) out.next_step("tito init");
  else if (!missing.empty()) out.next_step(unlock_command(loaded.session, missing));
  else out.next_step("tito milestone run " + m.id);
  return 0;
}

}  // namespace

void register_milestone_browse_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* list = group.add_subcommand("list", "The milestones, their years and which you can run");
  on_chosen(list, registry, [options] { return run_list(*options); });

  auto* status = group.add_subcommand("status", "Each milestone: locked, ready or passed, with your results per part");
  on_chosen(status, registry, [options] { return run_status(*options); });

  auto* info = group.add_subcommand("info", "A milestone's story, parts, gates and required modules");
  auto info_id = std::make_shared<std::string>();
  info->add_option("NN", *info_id, "Milestone number or name (perceptron, xor, mlp, cnn, transformer, mlperf)")->required();
  on_chosen(info, registry, [options, info_id] { return run_info(*options, *info_id); });
}

}  // namespace tito
