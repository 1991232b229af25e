// `tito module status --journal [NN]`: the learner's own learning journal (learning_journal.h), as a
// table of every module worked on, or one module in detail. It reads .tito/history.jsonl only.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/learning_journal.h"
#include "core/terminal.h"

namespace tito {
namespace {

using nlohmann::json;

std::string quiz_text(const std::optional<QuizTaken>& taken) {
  return taken ? fmt::format("{}/{}", taken->score, taken->total) : "-";
}

// "3 cases (deepest level 2)".
std::string hints_text(const ModuleRecord& record) {
  if (record.hint_levels.empty()) return "-";
  int deepest = 0;
  for (const auto& entry : record.hint_levels) deepest = std::max(deepest, entry.second);
  return fmt::format("{} case{}, to level {}", record.hint_levels.size(), record.hint_levels.size() == 1 ? "" : "s", deepest);
}

std::string to_pass_text(const ModuleRecord& record) {
  if (!record.started || !record.first_pass) return "-";
  const double wall = std::chrono::duration<double>(*record.first_pass - *record.started).count();
  return fmt::format("{} ({} active)", describe_seconds(wall), describe_seconds(record.active_seconds_to_pass));
}

std::string failures_trend(const std::vector<int>& runs) {
  std::string text;
  constexpr std::size_t kShown = 12;
  const std::size_t from = runs.size() > kShown ? runs.size() - kShown : 0;
  if (from > 0) text = fmt::format("({} earlier) ", from);
  for (std::size_t i = from; i < runs.size(); ++i)
    text += (i > from ? " -> " : "") + (runs[i] < 0 ? std::string("build failed") : std::to_string(runs[i]));
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

void print_module_detail(const ModuleInfo& module, const ModuleRecord& record) {
  const Terminal& out = terminal();
  std::cout << out.bold(fmt::format("Module {} ({})", module.number, module.title)) << "\n";
  auto line = [](const std::string& label, const std::string& value) { std::cout << fmt::format("  {:<22}{}\n", label, value); };
  line("started", record.started ? format_local_time(*record.started) : "-");
  line("first full pass", record.first_pass ? format_local_time(*record.first_pass) : "not yet");
  line("start to first pass", to_pass_text(record));
  line("completed", record.completed ? format_local_time(*record.completed) +
                                            (record.origin == "reference" ? " (on the reference solution, not your code)" : "")
                                      : "-");
  line("time on task", describe_seconds(record.active_seconds) + " (pauses over 30 min not counted)");
  line("test runs", std::to_string(record.test_runs));
  line("failing cases per run", record.failures_per_run.empty() ? "-" : failures_trend(record.failures_per_run));
  line("concept checks", fmt::format("before {}, after {}", quiz_text(record.pre), quiz_text(record.post)));
  if (!record.first_failures.empty()) {
    std::cout << "  the cases that first gave a wrong answer:\n";
    for (const auto& name : record.first_failures) std::cout << "    " << out.bullet() << " " << name << "\n";
  }
  if (!record.hint_levels.empty()) {
    std::cout << "  hints you revealed (deepest level):\n";
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

  std::cout << out.bold("Your learning journal") << "  "
            << out.dim(fmt::format("({}, {} events; it stays on this machine unless you submit your workspace)",
                                   session.progress->journal_path().string(), journal.events.size()))
            << "\n";
  for (const auto& bad : journal.skipped)
    out.warning(fmt::format("line {} of the journal was skipped: {} (the line is kept as it is)", bad.line, bad.why));
  if (journal.truncated) out.warning("the journal is very long; only its beginning was read");

  if (only) {
    auto found = summary.modules.find(only->number);
    std::cout << "\n";
    print_module_detail(*only, found == summary.modules.end() ? ModuleRecord{} : found->second);
    std::cout << "\n";
    out.next_step("tito module status --journal   (every module)");
    return 0;
  }
  if (summary.modules.empty()) {
    std::cout << "\nNothing recorded yet: start a module and test it.\n";
    out.next_step("tito module list");
    return 0;
  }
  std::cout << "\n"
            << out.bold(fmt::format("{:<3} {:<22} {:>12} {:>9}  {:<26} {:<22} {}", "##", "Module", "Time on task", "Test runs",
                                    "Start to first pass", "Hints", "Checks before/after"))
            << "\n";
  for (const auto& module : session.curriculum.modules()) {
    auto found = summary.modules.find(module.number);
    if (found == summary.modules.end()) continue;
    const ModuleRecord& record = found->second;
    std::cout << fmt::format("{:<3} {:<22} {:>12} {:>9}  {:<26} {:<22} {} / {}\n", module.number, module.title.substr(0, 22),
                             describe_seconds(record.active_seconds), record.test_runs, to_pass_text(record),
                             hints_text(record), quiz_text(record.pre), quiz_text(record.post));
  }
  for (const auto& [id, attempts] : summary.milestones) {
    std::string values;
    for (const auto& [part, value] : attempts.best_value) {
      auto metric = attempts.metric.find(part);
      values += fmt::format("; part {}: {:.4g}{}{}", part, value, metric == attempts.metric.end() ? "" : " " + metric->second,
                            attempts.part_passed.count(part) && attempts.part_passed.at(part) ? " (passed)" : "");
    }
    std::cout << fmt::format("Milestone {}: {} part run{}, {} passed{}{}\n", id, attempts.runs, attempts.runs == 1 ? "" : "s",
                             attempts.passed, attempts.first_pass ? ", first pass " + format_local_time(*attempts.first_pass) : "",
                             values);
  }
  std::cout << out.dim("\nTime on task counts the time between your tito commands, leaving out pauses over 30 minutes: "
                       "reading and thinking without running anything is not seen, so it is a lower bound.")
            << "\n";
  out.next_step("tito module status --journal NN   (one module in detail)");
  return 0;
}

}  // namespace tito
