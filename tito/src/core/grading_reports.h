#pragma once
// What one grading run writes: grades.csv (a gradebook: a row per learner, a column per module),
// grades.json (every test case), an HTML report (class overview with SVG score charts, a page per
// learner) and Gradescope's results.json for a single submission. `tito instructor report` reads
// grades.json back and summarises it per module.
#include <filesystem>
#include <string>
#include <vector>

#include "core/grading.h"

namespace tito {

void write_grades_csv(const GradingRun& run, const std::filesystem::path& file);
void write_grades_json(const GradingRun& run, const std::filesystem::path& file);
// index.html and learners/<id>.html under `dir`.
void write_html_report(const GradingRun& run, const std::filesystem::path& dir);
// Gradescope autograder format for the run's one learner (the first, if there are several).
void write_gradescope_results(const GradingRun& run, const std::filesystem::path& file);

// Reads a grades.json written by write_grades_json. Throws UserError naming the file.
GradingRun read_grades_json(const std::filesystem::path& file);

struct CaseStatistics {
  std::string name;
  int points = 0;
  int attempts = 0;  // graded learners
  int passed = 0;
  double pass_rate() const { return attempts ? double(passed) / attempts : 0; }
};

struct ModuleStatistics {
  std::string number, title;
  int points = 0;
  int learners = 0;  // graded learners
  double mean = 0, median = 0;
  int min = 0, max = 0;
  std::vector<int> histogram;  // 10 bins of 10% of the points each
  std::vector<CaseStatistics> cases;
  std::vector<std::pair<std::string, int>> common_failures;  // message, how many learners; most first
};

// Per-module statistics over the learners that were graded (rejected submissions left out).
std::vector<ModuleStatistics> class_statistics(const GradingRun& run, std::size_t top_failures = 3);

}  // namespace tito
