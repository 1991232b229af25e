// `tito module status --journal [NN]`: the learner's own learning journal (learning_journal.h), as a
// table of every module worked on, or one module in detail. It reads .tito/history.jsonl only.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/learning_journal.h"
#include "core/terminal.h"

namespace tito {
namespace {

using nlohmann::json;

std::string quiz_text(const std::optional<QuizTaken>& taken) {
  return taken ? fmt::format("{}/{}", taken->score, taken->total) : "-";
}

// "3 cases, to level 2".
std::string hints_text(const ModuleRecord& record) {
  if (record.hint_levels.empty()) return "-";
  int deepest = 0;
  for (const auto& entry : record.hint_levels) deepest = std::max(deepest, entry.second);
  // TRANSLATORS: hints revealed: for how many test cases, and the deepest level reached; a table cell, keep it short
  return trnf("{} case, to level {}", "{} cases, to level {}", record.hint_levels.size(), record.hint_levels.size(), deepest);
}

std::string to_pass_text(const ModuleRecord& record) {
  if (!record.started || !record.first_pass) return "-";
  const double wall = std::chrono::duration<double>(*record.first_pass - *record.started).count();
  // TRANSLATORS: the time from starting a module to its first full pass, then the part of it spent working ("12 min")
  return trf("{} ({} active)", describe_seconds(wall), describe_seconds(record.active_seconds_to_pass));
}

std::string failures_trend(const std::vector<int>& runs) {
  std::string text;
  constexpr std::size_t kShown = 12;
  const std::size_t from = runs.size() > kShown ? runs.size() - kShown : 0;
  // TRANSLATORS: how many earlier runs the list leaves out
  if (from > 0) text = trf("({} earlier)", from) + " ";
  for (std::size_t i = from; i < runs.size(); ++i)
    // TRANSLATORS: in the list of failing cases per test run: a run whose code did not compile
    text += (i > from ? " -> " : "") + (runs[i] < 0 ? std::string(tr("build failed")) : std::to_string(runs[i]));
  return text;
}

json time_or_null(const std::optional<TimePoint>& when) { return when ? json(format_local_time(*when)) : json(nullptr); }

json record_json(const ModuleRecord& record) {
  auto quiz = [](const std::optional<QuizTaken>& taken) {
    return taken ? json{{"score", taken->score}, {"total", taken->total}, {"at", format_local_time(taken->at)}} : json(nullptr);
  };
  return {{"started", time_or_null(record.started)},
          {"first_full_pass", time_or_null(record.first_pass)},
          {"completed", time_or_null(record.completed)},
          {"origin", record.origin.empty() ? json(nullptr) : json(record.origin)},
          {"test_runs", record.test_runs},
          {"active_seconds", std::lround(record.active_seconds)},
          {"active_seconds_to_first_pass", record.first_pass ? json(std::lround(record.active_seconds_to_pass)) : json(nullptr)},
          {"first_failures", record.first_failures},
          {"failures_per_full_run", record.failures_per_run},
          {"hint_levels", record.hint_levels},
          {"quiz_pre", quiz(record.pre)},
          {"quiz_post", quiz(record.post)}};
}

// How many characters a terminal shows for UTF-8 text: its code points (translations have accents).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// `text` padded with spaces to `width` shown characters (fmt's {:<N} counts bytes, not what a terminal shows).
std::string pad(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

// `text` right-aligned in `width` shown characters.
std::string pad_left(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return shown >= width ? text : std::string(width - shown, ' ') + text;
}

void print_module_detail(const ModuleInfo& module, const ModuleRecord& record) {
  const Terminal& out = terminal();
  std::cout << out.bold(trf("Module {} ({})", module.number, tr_curriculum(module.title))) << "\n";
  // TRANSLATORS: the labels of one module's learning journal, printed one above the other with their values lined up
  const std::vector<std::string> labels = {tr("started"),   tr("first full pass"), tr("start to first pass"),
                                           tr("completed"), tr("time on task"),    tr("test runs"),
                                           tr("failing cases per run"), tr("concept checks")};
  std::size_t width = 22;
  for (const auto& label : labels) width = std::max(width, display_width(label) + 1);
  auto line = [width](const std::string& label, const std::string& value) {
    std::cout << "  " << pad(label, width) << value << "\n";
  };
  line(labels[0], record.started ? format_local_time(*record.started) : "-");
  // TRANSLATORS: a module's first full pass has not happened yet
  line(labels[1], record.first_pass ? format_local_time(*record.first_pass) : std::string(tr("not yet")));
  line(labels[2], to_pass_text(record));
  line(labels[3], record.completed ? format_local_time(*record.completed) +
                                         (record.origin == "reference"
                                              ? " " + std::string(tr("(on the reference solution, not your code)"))
                                              : std::string())
                                   : "-");
  // TRANSLATORS: {} is a duration, e.g. "2 h 05 min"
  line(labels[4], trf("{} (pauses over 30 min not counted)", describe_seconds(record.active_seconds)));
  line(labels[5], std::to_string(record.test_runs));
  line(labels[6], record.failures_per_run.empty() ? "-" : failures_trend(record.failures_per_run));
  // TRANSLATORS: the concept checks' scores before and after the module, e.g. "before 2/5, after 5/5" ("-": not taken)
  line(labels[7], trf("before {}, after {}", quiz_text(record.pre), quiz_text(record.post)));
  if (!record.first_failures.empty()) {
    std::cout << "  " << tr("the cases that first gave a wrong answer:") << "\n";
    for (const auto& name : record.first_failures) std::cout << "    " << out.bullet() << " " << name << "\n";
  }
  if (!record.hint_levels.empty()) {
    std::cout << "  " << tr("hints you revealed (deepest level):") << "\n";
    for (const auto& [name, level] : record.hint_levels) std::cout << fmt::format("    {}  {}\n", level, name);
  }
}

}  // namespace

int run_learning_journal(const Session& session, const std::string& requested, bool as_json) {
  const LearningJournal journal = read_learning_journal_file(session.progress->journal_path());
  const JournalSummary summary = summarize_learning_journal(journal);
  const Terminal& out = terminal();
  const ModuleInfo* only = requested.empty() ? nullptr : &session.curriculum.resolve(requested);

  if (as_json) {
    json modules = json::object();
    for (const auto& [number, record] : summary.modules)
      if (!only || only->number == number) modules[number] = record_json(record);
    json milestones = json::object();
    for (const auto& [id, attempts] : summary.milestones) {
      json best_values = json::object();
      for (const auto& [part, value] : attempts.best_value) best_values[std::to_string(part)] = value;
      milestones[id] = {{"part_runs", attempts.runs},
                        {"passed_runs", attempts.passed},
                        {"first_pass", time_or_null(attempts.first_pass)},
                        {"best_values", best_values}};
    }
    json skipped = json::array();
    for (const auto& bad : journal.skipped) skipped.push_back({{"line", bad.line}, {"why", bad.why}});
    std::cout << json{{"journal", session.progress->journal_path().string()},
                      {"modules", modules},
                      {"milestones", milestones},
                      {"skipped_lines", skipped},
                      {"truncated", journal.truncated}}
                     .dump(2)
              << "\n";
    return 0;
  }

  std::cout << out.bold(tr("Your learning journal")) << "  "
            // TRANSLATORS: the journal's file, then how many events it holds
            << out.dim(trnf("({}, {} event; it stays on this machine unless you submit your workspace)",
                            "({}, {} events; it stays on this machine unless you submit your workspace)",
                            journal.events.size(), session.progress->journal_path().string(), journal.events.size()))
            << "\n";
  for (const auto& bad : journal.skipped)
    // TRANSLATORS: a line number of the journal file, then why it could not be read (in English)
    out.warning(trf("line {} of the journal was skipped: {} (the line is kept as it is)", bad.line, bad.why));
  if (journal.truncated) out.warning(tr("the journal is very long; only its beginning was read"));

  if (only) {
    auto found = summary.modules.find(only->number);
    std::cout << "\n";
    print_module_detail(*only, found == summary.modules.end() ? ModuleRecord{} : found->second);
    std::cout << "\n";
    out.next_step(std::string("tito module status --journal   ") + tr("(every module)"));
    return 0;
  }
  if (summary.modules.empty()) {
    std::cout << "\n" << tr("Nothing recorded yet: start a module and test it.") << "\n";
    out.next_step("tito module list");
    return 0;
  }
  // The table's columns: each as wide as its heading in the learner's language, at least as the English.
  // TRANSLATORS: the headings of the learning journal's table, one column each; keep them short
  const std::vector<std::string> headings = {"##",           tr("Module"),              tr("Time on task"),
                                             tr("Test runs"), tr("Start to first pass"), tr("Hints"),
                                             tr("Checks before/after")};
  const std::vector<std::size_t> minimum = {3, 22, 12, 9, 26, 22, 0};
  std::vector<std::size_t> width(headings.size());
  for (std::size_t i = 0; i < headings.size(); ++i) width[i] = std::max(minimum[i], display_width(headings[i]));
  auto row = [&width](const std::vector<std::string>& cells) {
    return pad(cells[0], width[0]) + " " + pad(cells[1], width[1]) + " " + pad_left(cells[2], width[2]) + " " +
           pad_left(cells[3], width[3]) + "  " + pad(cells[4], width[4]) + " " + pad(cells[5], width[5]) + " " + cells[6];
  };
  std::cout << "\n" << out.bold(row(headings)) << "\n";
  for (const auto& module : session.curriculum.modules()) {
    auto found = summary.modules.find(module.number);
    if (found == summary.modules.end()) continue;
    const ModuleRecord& record = found->second;
    // The title cut to the column's width in shown characters, never inside a UTF-8 sequence.
    const std::string full_title = tr_curriculum(module.title);
    std::string title;
    std::size_t shown = 0;
    for (char c : full_title) {
      const bool starts_character = (c & 0xC0) != 0x80;
      if (starts_character && ++shown > width[1]) break;
      title += c;
    }
    std::cout << row({module.number, title, describe_seconds(record.active_seconds), std::to_string(record.test_runs),
                      to_pass_text(record), hints_text(record),
                      fmt::format("{} / {}", quiz_text(record.pre), quiz_text(record.post))})
              << "\n";
  }
  for (const auto& [id, attempts] : summary.milestones) {
    std::string values;
    for (const auto& [part, value] : attempts.best_value) {
      auto metric = attempts.metric.find(part);
      const std::string measured =
          format_significant(value, 4) + (metric == attempts.metric.end() ? "" : " " + metric->second);
      // TRANSLATORS: a milestone part's best value in the journal, e.g. "; part 1: 0.97 accuracy (passed)"
      values += attempts.part_passed.count(part) && attempts.part_passed.at(part) ? trf("; part {}: {} (passed)", part, measured)
                                                                                  : trf("; part {}: {}", part, measured);
    }
    // TRANSLATORS: the date and time of a milestone's first pass, after its runs in the journal
    const std::string first = attempts.first_pass ? trf(", first pass {}", format_local_time(*attempts.first_pass)) : "";
    // TRANSLATORS: a milestone's line in the journal: its number, how many part runs and how many passed, then the
    // first pass (", first pass DATE" or nothing) and the best value of each part ("; part 1: 0.97 accuracy")
    std::cout << trnf("Milestone {}: {} part run, {} passed{}{}", "Milestone {}: {} part runs, {} passed{}{}",
                      static_cast<unsigned long>(attempts.runs), id, attempts.runs, attempts.passed, first, values)
              << "\n";
  }
  std::cout << "\n"
            << out.dim(tr("Time on task counts the time between your tito commands, leaving out pauses over 30 minutes: "
                          "reading and thinking without running anything is not seen, so it is a lower bound."))
            << "\n";
  out.next_step(std::string("tito module status --journal NN   ") + tr("(one module in detail)"));
  return 0;
}

}  // namespace tito
