// `tito milestone list`, `tito milestone info NN` and `tito milestone status`: reading, never writing.
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/i18n.h"
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

// A milestone's state as the learner reads it.
std::string plain_state(MilestoneState state) {
  switch (state) {
    // TRANSLATORS: a milestone's state in `tito milestone list` and `tito milestone status`: every required part passed
    case MilestoneState::Achieved: return trc("milestone", "passed");
    // TRANSLATORS: a milestone's state: every module it needs is completed, it can be run
    case MilestoneState::Ready: return trc("milestone", "ready");
    // TRANSLATORS: a milestone's state: its programs are not written yet
    case MilestoneState::Unavailable: return trc("milestone", "not yet available");
    case MilestoneState::Locked: break;
  }
  // TRANSLATORS: a milestone's state: a module it needs is not completed yet
  return trc("milestone", "locked");
}

std::string state_text(const MilestoneView& view) {
  const Terminal& out = terminal();
  const std::string text = plain_state(view.state);
  switch (view.state) {
    case MilestoneState::Achieved: return out.green(text);
    case MilestoneState::Ready: return out.cyan(text);
    case MilestoneState::Unavailable:
    case MilestoneState::Locked: break;
  }
  return out.dim(text);
}

// How many characters a terminal shows for UTF-8 text: its code points (translations have accents).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

// Breaks a paragraph into lines of at most `width` characters, at spaces.
std::string wrapped(const std::string& text, std::size_t width = 96) {
  std::string result, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      result += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return result + line;
}

// TRANSLATORS: a part's measured value when its program reported none
std::string format_value(const std::optional<double>& value) {
  return value ? format_measured_for_people(*value) : std::string(tr("none"));
}

// "01 (Perceptron, 1958)": Milestone::label() with the title in the learner's language.
std::string milestone_label(const Milestone& milestone) {
  return fmt::format("{} ({}, {})", milestone.id, tr_curriculum(milestone.title), milestone.year);
}

// A part's title, with "(optional)" after it unless it is required or the title already says so.
std::string part_title(const MilestonePart& part) {
  if (part.required || part.title.find("optional") != std::string::npos) return tr_curriculum(part.title);
  // TRANSLATORS: a milestone part's title, marked as a part that does not count towards passing the milestone
  return trf("{} (optional)", tr_curriculum(part.title));
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
    std::cout << tr("This installation has no milestones.") << "\n";
    return 0;
  }
  // TRANSLATORS: the two {} are years, e.g. 1958 and 2018
  std::cout << out.bold(trf("Milestones: machine-learning history from {} to {}, rebuilt on your own code",
                            loaded.milestones.front().year, loaded.milestones.back().year))
            << "\n\n";
  std::string next;
  std::size_t title_width = 26;  // as wide as the longest title in the learner's language
  for (const auto& m : loaded.milestones) title_width = std::max(title_width, display_width(tr_curriculum(m.title)));
  for (const auto& view : view_all(loaded.milestones, loaded.progress, loaded.store.get())) {
    const Milestone& m = *view.milestone;
    const std::size_t state_width = display_width(plain_state(view.state));
    std::cout << fmt::format("  {}  {}  {} ", m.id, m.year, pad(tr_curriculum(m.title), title_width)) << state_text(view)
              << std::string(state_width < 18 ? 18 - state_width : 1, ' ') << out.dim(tr_curriculum(m.summary)) << "\n";
    if (next.empty() && view.state == MilestoneState::Ready) next = "tito milestone run " + m.id;
  }
  std::cout << "\n";
  if (!loaded.session.workspace) out.next_step(std::string("tito init   ") + tr("(milestones run in a workspace)"));
  else if (!next.empty()) out.next_step(next);
  else out.next_step("tito milestone status");
  return 0;
}

void print_parts(const Milestone& milestone, const MilestoneRecord* record) {
  const Terminal& out = terminal();
  for (const auto& part : milestone.parts) {
    // TRANSLATORS: a milestone part: its number, title and gate (e.g. "accuracy >= 0.95"); its result follows
    std::cout << "   " << trf("Part {}: {} - gate {}", part.number, part_title(part), part.gates_for_people());
    const PartRecord* result = nullptr;
    if (record) {
      auto found = record->parts.find(part.number);
      if (found != record->parts.end()) result = &found->second;
    }
    if (!result) {
      // TRANSLATORS: a milestone part's result: it has not been run yet
      std::cout << ": " << out.dim(trc("milestone part", "not run")) << "\n";
      continue;
    }
    if (result->skipped) {
      // TRANSLATORS: a milestone part's result: the program skipped it (an optional part without its dataset)
      const std::string skipped = out.yellow(trc("milestone part", "skipped"));
      // TRANSLATORS: the first {} is "skipped" or "failed", then the date and time, then why
      std::cout << ": " << trf("{} on {} - {}", skipped, result->at, result->message) << "\n";
      continue;
    }
    if (result->passed) {
      // TRANSLATORS: a milestone part's result: its program met every gate
      const std::string passed = out.green(trc("milestone part", "passed"));
      // TRANSLATORS: the first {} is "passed", then the metric = the value it measured, the seconds and the date
      std::cout << ": " << trf("{} with {} = {} ({} s, {})", passed, part.gate.metric, format_value(result->value),
                               format_number(result->seconds, 1), result->at)
                << "\n";
      if (!result->reference_modules.empty())
        std::cout << "     " << out.yellow(code_summary(result->learner_modules, result->reference_modules)) << "\n";
    } else {
      // TRANSLATORS: a milestone part's result: its program missed a gate, or did not finish
      const std::string failed = out.red(trc("milestone part", "failed"));
      std::cout << ": " << trf("{} on {} - {}", failed, result->at, result->message);
      if (result->passed_at) std::cout << " " << trf("(it passed earlier, on {})", *result->passed_at);
      std::cout << "\n";
    }
  }
}

int run_status(const GlobalOptions& options) {
  Loaded loaded = load_everything(options);
  const Terminal& out = terminal();
  if (!loaded.session.workspace) {
    std::cout << tr("No workspace here, so no milestone results to show.") << "\n";
    out.next_step("tito init");
    return 0;
  }
  const auto views = view_all(loaded.milestones, loaded.progress, loaded.store.get());
  int achieved = 0;
  for (const auto& view : views) achieved += view.state == MilestoneState::Achieved ? 1 : 0;
  std::cout << out.bold(trf("Milestones passed: {}/{}", achieved, views.size())) << "\n\n";
  std::string next;
  for (const auto& view : views) {
    const Milestone& m = *view.milestone;
    std::cout << out.bold(milestone_label(m)) << "  " << state_text(view);
    if (view.state == MilestoneState::Locked)
      // TRANSLATORS: after a locked milestone's state: the modules to complete first, e.g. "04 Losses and 05 DataLoader"
      std::cout << " " << trnf("- needs module {}", "- needs modules {}", view.missing.size(),
                               module_names(loaded.session, view.missing));
    if (view.state == MilestoneState::Achieved && view.record && view.record->achieved_at)
      // TRANSLATORS: after a passed milestone's state: the date and time it passed
      std::cout << " " << out.dim(trf("on {}", *view.record->achieved_at));
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

// "English, Spanish and Chinese".
std::string join_names(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? tr(" and ") : ", ") + names[i];
  return text;
}

// A part written in several languages (milestone 05 part 2): each language with its own gates, and the
// one `tito milestone run` chooses for this learner (theirs where the part is written in it, else English).
void print_languages_of(const Milestone& m, const MilestonePart& part) {
  const Terminal& out = terminal();
  std::vector<std::string> names;
  for (const auto& language : part.languages) names.push_back(language_name(language));
  // TRANSLATORS: a milestone part: its number, title and program files, then the names of its languages
  std::cout << "   " << trf("Part {}: {} - {} - written in {}, each judged by its own gates:", part.number, part_title(part),
                            fmt::join(part.programs, ", "), join_names(names))
            << "\n";
  const std::string yours = message_language();
  const std::string used = part.speaks(yours) ? yours : "en";
  for (const auto& language : part.languages) {
    const std::string gates = part.in_language(language).gates_for_people();
    std::cout << "     " << fmt::format("{} ({}): {}", language, language_name(language), gates);
    if (language == used)
      // TRANSLATORS: after the gates of the language `tito milestone run` uses for this learner; {} is the milestone
      std::cout << "  " << out.cyan(trf("<- tito milestone run {} uses this one", m.id));
    std::cout << "\n";
  }
  if (used == yours)
    // TRANSLATORS: the first {} is the learner's language ("Spanish"), then the milestone's number
    std::cout << "     " << out.dim(trf("(your language, {}; another: tito milestone run {} --part {} --lang LANG)",
                                       language_name(yours), m.id, part.number))
              << "\n";
  else
    // TRANSLATORS: the learner's language ("Chinese"), which the part is not written in, then the milestone and part
    std::cout << "     " << out.dim(trf("(it is not written in {}, your language, so it runs in English; another: tito "
                                       "milestone run {} --part {} --lang LANG)",
                                       language_name(yours), m.id, part.number))
              << "\n";
}

int run_info(const GlobalOptions& options, const std::string& requested) {
  Loaded loaded = load_everything(options);
  const Terminal& out = terminal();
  const Milestone& m = resolve_milestone(loaded.milestones, requested);
  // TRANSLATORS: the milestone's number, title and year
  std::cout << out.bold(trf("Milestone {}: {} ({})", m.id, tr_curriculum(m.title), m.year)) << "\n";
  if (!m.summary.empty()) std::cout << tr_curriculum(m.summary) << "\n";
  if (!m.story.empty()) std::cout << "\n" << wrapped(tr_curriculum(m.story)) << "\n";
  std::cout << "\n" << trf("Modules it runs on: {}", module_names(loaded.session, m.required_modules)) << "\n";
  // TRANSLATORS: the milestone's other names, which tito milestone run also takes (perceptron, xor, ...)
  if (!m.aliases.empty()) std::cout << trf("Also called: {}", fmt::join(m.aliases, ", ")) << "\n";
  if (m.parts.empty()) {
    std::cout << "\n" << out.dim(tr("Its programs are not written yet.")) << "\n";
    return 0;
  }
  std::cout << "\n" << tr("Parts (tito judges each from the value the program measures):") << "\n";
  for (const auto& part : m.parts) {
    if (part.languages.empty()) {
      // TRANSLATORS: a milestone part: its number, title, program files and gate (e.g. "accuracy >= 0.95")
      std::cout << "   " << trf("Part {}: {} - {} - gate {}", part.number, part_title(part), fmt::join(part.programs, ", "),
                                part.gates_for_people())
                << "\n";
      continue;
    }
    print_languages_of(m, part);
  }
  std::cout << trf("Program folder: {}", m.dir.string()) << "\n\n";
  const auto missing = missing_modules(m, loaded.progress);
  if (!loaded.session.workspace) out.next_step("tito init");
  else if (!missing.empty()) out.next_step(unlock_command(loaded.session, missing));
  else out.next_step("tito milestone run " + m.id);
  return 0;
}

}  // namespace

void register_milestone_browse_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* list = group.add_subcommand("list", tr("The milestones, their years and which you can run"));
  on_chosen(list, registry, [options] { return run_list(*options); });

  auto* status = group.add_subcommand("status", tr("Each milestone: locked, ready or passed, with your results per part"));
  on_chosen(status, registry, [options] { return run_status(*options); });

  auto* info = group.add_subcommand("info", tr("A milestone's story, parts, gates and required modules"));
  auto info_id = std::make_shared<std::string>();
  info->add_option("NN", *info_id, tr("Milestone number or name (perceptron, xor, mlp, cnn, transformer, mlperf)"))->required();
  on_chosen(info, registry, [options, info_id] { return run_info(*options, *info_id); });
}

}  // namespace tito
