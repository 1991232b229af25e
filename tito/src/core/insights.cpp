#include "core/insights.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/hints.h"
#include "core/quiz.h"
#include "core/starter_generator.h"
#include "core/untrusted_input.h"
#include "tinytorch/utils/benchmark.h"

namespace tito {
namespace fs = std::filesystem;

namespace {

LearnerJournal read_one(const Submission& submission, const fs::path& scratch) {
  LearnerJournal journal;
  journal.id = escape_invalid_utf8(submission.id);
  journal.submission = escape_invalid_utf8(submission.name);
  const FoundWorkspace found = open_submission(submission, scratch / "unpacked");
  if (!found.root) {
    journal.problem = found.problem;
    return journal;
  }
  std::error_code error;
  // .tito itself must be a folder, not a link to somewhere else on the grader's machine.
  const fs::path tito_dir = *found.root / ".tito";
  if (const auto dir_status = fs::symlink_status(tito_dir, error); !fs::is_directory(dir_status) || fs::is_symlink(dir_status)) {
    journal.problem = fs::is_symlink(dir_status) ? ".tito is a symbolic link; links are not followed"
                                                 : "no .tito folder: the workspace has no learning journal";
    return journal;
  }
  std::string problem;
  const auto text = learner_copy(tito_dir / "history.jsonl", problem, kMaxJournalBytes);
  if (!text) {
    journal.problem = problem.empty() ? "no .tito/history.jsonl: the workspace has no learning journal"
                                      : ".tito/history.jsonl " + problem;
    return journal;
  }
  const LearningJournal parsed = parse_learning_journal(*text);
  journal.skipped_lines = static_cast<int>(parsed.skipped.size());
  journal.truncated = parsed.truncated;
  journal.summary = summarize_learning_journal(parsed);
  return journal;
}

// Whether `word` stands in `text` as a whole word (not inside a longer identifier).
bool contains_word(const std::string& text, const std::string& word) {
  auto part_of_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !part_of_name(text[at - 1])) && (end == text.size() || !part_of_name(text[end]))) return true;
  }
  return false;
}

// Which lesson section teaches what a test case checks: the case's "exercises" (hints.json) matched
// to the solution regions (by function name) and their lesson="..."; failing that, a region whose
// function's own name appears in the case's name.
std::map<std::string, std::string> case_sections(const fs::path& source_dir, const ModuleInfo& module) {
  std::vector<SolutionRegion> regions;
  for (const auto& relative : module.learner_files) {
    try {
      const auto found = scan_solution_regions(read_file(source_dir / relative), relative);
      regions.insert(regions.end(), found.begin(), found.end());
    } catch (const std::exception&) {
      // an unreadable or malformed file: `tito instructor validate` reports it; sections stay unknown
    }
  }
  auto short_name = [](std::string name) {
    name = name.substr(0, name.find('('));
    const auto colons = name.rfind("::");
    return colons == std::string::npos ? name : name.substr(colons + 2);
  };
  auto section_of_exercise = [&](std::string exercise) -> std::string {
    exercise = exercise.substr(0, exercise.find('('));
    for (const auto& region : regions) {
      const std::string name = region.name.substr(0, region.name.find('('));
      if (name == exercise || (name.size() > exercise.size() && name.compare(name.size() - exercise.size(), exercise.size(), exercise) == 0 &&
                               name.compare(name.size() - exercise.size() - 2, 2, "::") == 0))
        return region.lesson;
    }
    return "";
  };
  std::map<std::string, std::string> sections;
  for (const auto& entry : load_hint_levels(module.hints)) {
    if (!entry.check.empty()) continue;
    std::string section;
    for (const auto& exercise : entry.exercises)
      if (section.empty()) section = section_of_exercise(exercise);
    if (section.empty()) {
      for (const auto& region : regions) {
        const std::string word = short_name(region.name);
        if (word.size() < 3) continue;
        if (contains_word(entry.test_case, word)) {
          section = region.lesson;
          break;
        }
      }
    }
    sections[entry.test_case] = section;
  }
  return sections;
}

double fraction(const QuizTaken& taken) { return taken.total > 0 ? static_cast<double>(taken.score) / taken.total : 0; }

}  // namespace

std::vector<LearnerJournal> read_class_journals(const std::vector<Submission>& submissions, const fs::path& scratch) {
  std::vector<LearnerJournal> journals;
  std::error_code error;
  for (const auto& submission : submissions) {
    fs::create_directories(scratch, error);
    try {
      journals.push_back(read_one(submission, scratch));
    } catch (const std::exception& failure) {  // an I/O error on one learner must not cost the class its report
      LearnerJournal journal;
      journal.id = escape_invalid_utf8(submission.id);
      journal.submission = escape_invalid_utf8(submission.name);
      journal.problem = escape_invalid_utf8(std::string("could not be read: ") + failure.what());
      journals.push_back(std::move(journal));
    }
    fs::remove_all(scratch, error);
  }
  return journals;
}

double Distribution::quantile(double q) const {
  if (values.empty()) return 0;
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

PairedTest paired_t_test(const std::vector<double>& pre, const std::vector<double>& post) {
  PairedTest test;
  test.n = static_cast<int>(std::min(pre.size(), post.size()));
  if (test.n == 0) return test;
  std::vector<double> gains;
  for (int i = 0; i < test.n; ++i) {
    test.mean_pre += pre[i] / test.n;
    test.mean_post += post[i] / test.n;
    gains.push_back(post[i] - pre[i]);
  }
  for (double gain : gains) test.mean_gain += gain / test.n;
  if (test.n < 2) return test;
  double squares = 0;
  for (double gain : gains) squares += (gain - test.mean_gain) * (gain - test.mean_gain);
  const double df = test.n - 1;
  const double standard_error = std::sqrt(squares / df) / std::sqrt(static_cast<double>(test.n));
  namespace stats = tinytorch::utils::benchmark;  // module 19's Student's t, the course's own
  if (standard_error == 0) {  // every learner gained exactly the same
    test.ci_low = test.ci_high = test.mean_gain;
    test.t = test.mean_gain == 0 ? 0 : std::copysign(INFINITY, test.mean_gain);
    test.p_value = test.mean_gain == 0 ? 1 : 0;
    return test;
  }
  const double half_width = stats::student_t_quantile(0.975, df) * standard_error;
  test.ci_low = test.mean_gain - half_width;
  test.ci_high = test.mean_gain + half_width;
  test.t = test.mean_gain / standard_error;
  test.p_value = std::min(1.0, 2 * stats::student_t_cdf(-std::abs(test.t), df));
  return test;
}

ClassInsights compute_insights(const fs::path& source_dir, const Curriculum& curriculum,
                               const std::vector<LearnerJournal>& journals, const InsightsOptions& options,
                               const std::string& class_dir) {
  ClassInsights insights;
  insights.class_dir = escape_invalid_utf8(class_dir);
  insights.generated_at = iso8601_now();
  insights.learners = static_cast<int>(journals.size());
  // learner -> (pre, post) fractions over the modules they took both checks of
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> learner_checks;
  std::map<std::string, std::map<std::string, std::string>> known_cases;  // module -> case -> lesson section

  for (const auto& journal : journals) {
    if (!journal.problem.empty()) insights.journal_problems.push_back({journal.id, journal.problem});
    else ++insights.with_journal;
    if (journal.skipped_lines > 0)
      insights.journal_problems.push_back(
          {journal.id, fmt::format("{} damaged line{} of .tito/history.jsonl skipped", journal.skipped_lines,
                                   journal.skipped_lines == 1 ? "" : "s")});
    if (journal.truncated) insights.journal_problems.push_back({journal.id, "the journal is too long; only its beginning was read"});
  }

  for (const auto& module : curriculum.modules()) {
    ModuleInsights result;
    result.number = module.number;
    result.title = module.title;
    const auto& sections = known_cases[module.number] = case_sections(source_dir, module);
    std::optional<Quiz> quiz;
    try {
      if (fs::exists(module.quiz)) quiz = load_quiz(module.quiz);
    } catch (const std::exception&) {
      // `tito instructor validate` names the problem; the report goes on without question texts
    }
    std::map<std::string, int> first_failure_counts;
    std::map<std::string, MissedQuestion> missed;
    std::vector<double> pre, post;
    for (const auto& journal : journals) {
      auto found = journal.summary.modules.find(module.number);
      if (found == journal.summary.modules.end()) continue;
      const ModuleRecord& record = found->second;
      if (!record.started && record.test_runs == 0 && !record.pre) continue;  // a pre-check alone counts below
      if (record.started) ++result.started;
      if (record.first_pass) ++result.passed;
      // A pass on the reference solution says nothing about how long the module takes to learn.
      if (record.first_pass && record.origin != "reference") {
        result.active_minutes_to_pass.values.push_back(record.active_seconds_to_pass / 60);
        if (record.started)
          result.hours_to_pass.values.push_back(std::chrono::duration<double>(*record.first_pass - *record.started).count() / 3600);
        if (record.test_runs_to_pass > 0) result.runs_to_pass.values.push_back(record.test_runs_to_pass);
      }
      if (record.completed) ++(record.origin == "reference" ? result.completed_reference : result.completed_own);
      // Only names the curriculum knows: a journal's text never reaches the report as a case name.
      for (const auto& name : record.first_failures)
        if (sections.count(name)) ++first_failure_counts[name];
      if (!record.hint_levels.empty()) {
        ++result.hint_users;
        int deepest = 0;
        for (const auto& entry : record.hint_levels) deepest = std::max(deepest, std::clamp(entry.second, 0, 9));
        ++result.learners_by_deepest_hint[deepest];
      }
      if (record.pre && record.post && record.pre->total > 0 && record.post->total > 0) {
        pre.push_back(fraction(*record.pre));
        post.push_back(fraction(*record.post));
        learner_checks[journal.id].first.push_back(pre.back());
        learner_checks[journal.id].second.push_back(post.back());
      }
      if (record.post && quiz) {
        for (const auto& [id, correct] : record.post->correct) {
          const QuizQuestion* question = quiz->find(id);
          if (!question) continue;
          MissedQuestion& entry = missed[id];
          entry.id = id;
          entry.concept = question->concept;
          entry.lesson = question->lesson;
          ++entry.asked;
          if (!correct) ++entry.missed;
        }
      }
    }
    if (result.started == 0 && pre.empty()) continue;
    for (auto* distribution : {&result.active_minutes_to_pass, &result.hours_to_pass, &result.runs_to_pass})
      std::sort(distribution->values.begin(), distribution->values.end());
    for (const auto& [name, count] : first_failure_counts) result.first_failures.push_back({name, sections.at(name), count});
    std::stable_sort(result.first_failures.begin(), result.first_failures.end(),
                     [](const MisconceptionCase& a, const MisconceptionCase& b) { return a.learners > b.learners; });
    for (const auto& entry : missed)
      if (entry.second.missed > 0) result.missed_questions.push_back(entry.second);
    std::stable_sort(result.missed_questions.begin(), result.missed_questions.end(),
                     [](const MissedQuestion& a, const MissedQuestion& b) { return a.missed > b.missed; });
    result.concept_checks = paired_t_test(pre, post);
    insights.modules.push_back(std::move(result));
  }

  // Across modules: one pair per learner (their mean pre and mean post), so that a learner who took
  // many checks does not count many times over.
  std::vector<double> mean_pre, mean_post;
  auto mean = [](const std::vector<double>& values) {
    double sum = 0;
    for (double value : values) sum += value;
    return sum / static_cast<double>(values.size());
  };
  for (const auto& [learner, checks] : learner_checks) {
    mean_pre.push_back(mean(checks.first));
    mean_post.push_back(mean(checks.second));
  }
  insights.overall_checks = paired_t_test(mean_pre, mean_post);

  std::map<std::string, MilestoneInsights> milestones;
  for (const auto& journal : journals) {
    for (const auto& [id, attempts] : journal.summary.milestones) {
      static const std::regex kMilestoneId("[0-9]{2}");
      if (!std::regex_match(id, kMilestoneId) || attempts.runs == 0) continue;
      MilestoneInsights& milestone = milestones[id];
      milestone.id = id;
      ++milestone.attempted;
      for (const auto& [part, passed] : attempts.part_passed)
        if (passed && part >= 0 && part < 100) ++milestone.passed_part[part];
      for (const auto& [part, value] : attempts.best_value)
        if (part >= 0 && part < 100) milestone.best_values[part].values.push_back(value);
      for (const auto& [part, metric] : attempts.metric)
        if (part >= 0 && part < 100 && metric.size() < 64) milestone.metric[part] = metric;
    }
  }
  for (auto& [id, milestone] : milestones) {
    for (auto& entry : milestone.best_values) std::sort(entry.second.values.begin(), entry.second.values.end());
    insights.milestones.push_back(milestone);
  }

  for (const auto& journal : journals) {
    for (const auto& [number, record] : journal.summary.modules) {
      if (!record.started || record.first_pass || record.completed || !curriculum.find(number)) continue;
      if (record.test_runs < options.stuck_runs && record.active_seconds < options.stuck_hours * 3600) continue;
      StuckLearner stuck{journal.id, number, record.test_runs, record.active_seconds, journal.summary.last_event, {}};
      for (const auto& name : record.first_failures)
        if (known_cases[number].count(name) && stuck.first_failures.size() < 5) stuck.first_failures.push_back(name);
      insights.stuck.push_back(std::move(stuck));
    }
  }
  return insights;
}

}  // namespace tito
