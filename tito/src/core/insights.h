#pragma once
// `tito instructor insights CLASS_DIR`: a class's learning journals (learning_journal.h) aggregated
// into what an instructor can act on: per module how long learners took to pass and how many test
// runs, the cases that failed first most often (misconceptions, with the lesson section that teaches
// the idea), hint use by level, pre/post concept-check gains with a paired t-test, milestone outcomes,
// and the learners who look stuck. It reads the same submissions folder `tito grade` reads; every
// journal is untrusted input (sizes capped, links refused, bad lines skipped and counted).
//
// What the numbers can claim is in INSTRUCTOR.md ("Learning insights"): there is no control group,
// so a gain is a change, not an effect of the course.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/grading.h"
#include "core/learning_journal.h"

namespace tito {

struct LearnerJournal {
  std::string id;          // as `tito grade` names the learner
  std::string submission;  // the folder or archive
  std::string problem;     // why no journal could be read ("" when one was)
  int skipped_lines = 0;
  bool truncated = false;
  JournalSummary summary;
};

// Reads every submission's .tito/history.jsonl; archives are unpacked (safely) under `scratch`,
// which is removed afterwards. Never throws for a learner's content.
std::vector<LearnerJournal> read_class_journals(const std::vector<Submission>& submissions,
                                                const std::filesystem::path& scratch);

// Five-number summary of a sample (quartiles by linear interpolation, numpy's default).
struct Distribution {
  std::vector<double> values;  // sorted
  double quantile(double q) const;
  double median() const { return quantile(0.5); }
};

// The paired t-test of post - pre (as fractions of the questions right), two-sided.
struct PairedTest {
  int n = 0;
  double mean_pre = 0, mean_post = 0, mean_gain = 0;
  double ci_low = 0, ci_high = 0;  // 95% confidence interval of the mean gain
  double t = 0, p_value = 1;
  bool computed() const { return n >= 2; }
};
PairedTest paired_t_test(const std::vector<double>& pre, const std::vector<double>& post);

struct MisconceptionCase {
  std::string name;     // the test case
  std::string lesson;   // the lesson section that teaches what it checks ("" when unknown)
  int learners = 0;     // learners for whom it was among the first wrong answers
};

struct MissedQuestion {
  std::string id, concept, lesson;
  int asked = 0, missed = 0;  // in post-checks
};

struct ModuleInsights {
  std::string number, title;
  int started = 0, passed = 0, completed_own = 0, completed_reference = 0;
  Distribution active_minutes_to_pass;  // learners who reached a full pass
  Distribution hours_to_pass;           // wall-clock, start to first full pass
  Distribution runs_to_pass;            // test runs up to the first full pass
  std::vector<MisconceptionCase> first_failures;  // most learners first
  int hint_users = 0;
  std::map<int, int> learners_by_deepest_hint;  // deepest level revealed on any case -> learners
  PairedTest concept_checks;
  std::vector<MissedQuestion> missed_questions;  // most missed first
};

struct StuckLearner {
  std::string learner, module;
  int test_runs = 0;
  double active_seconds = 0;
  std::optional<TimePoint> last_activity;
  std::vector<std::string> first_failures;
};

struct MilestoneInsights {
  std::string id;
  int attempted = 0;            // learners with at least one run
  std::map<int, int> passed_part;  // part -> learners who passed it at least once
  std::map<int, Distribution> best_values;
  std::map<int, std::string> metric;
};

struct InsightsOptions {
  int stuck_runs = 15;        // started, no full pass, and at least this many test runs...
  double stuck_hours = 3;     // ...or at least this much time on task
};

struct ClassInsights {
  std::string class_dir;
  std::string generated_at;
  int learners = 0, with_journal = 0;
  std::vector<ModuleInsights> modules;  // curriculum order, modules someone started
  PairedTest overall_checks;            // per learner: the mean gain over the modules they took both checks of
  std::vector<MilestoneInsights> milestones;
  std::vector<StuckLearner> stuck;
  std::vector<std::pair<std::string, std::string>> journal_problems;  // learner -> problem
};

ClassInsights compute_insights(const std::filesystem::path& source_dir, const Curriculum& curriculum,
                               const std::vector<LearnerJournal>& journals, const InsightsOptions& options,
                               const std::string& class_dir);

// insights.md, insights.html (SVG charts inline), insights-modules.csv and insights-learners.csv under
// `dir`, each written atomically (an earlier report stays whole until its replacement is complete).
// Returns the files written.
std::vector<std::filesystem::path> write_insights(const ClassInsights& insights, const std::vector<LearnerJournal>& journals,
                                                  const std::filesystem::path& dir);

}  // namespace tito
