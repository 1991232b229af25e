#pragma once
// Shows a TestReport to the learner: one line per case, details for each failure (where, what was
// expected, what came out, the hint), compiler errors with the learner's own files first, and the score.
#include <string>
#include <vector>

#include "core/learner_files.h"
#include "run/test_report.h"

namespace tito {

struct ReportContext {
  std::string module_dir;                 // the learner's folder, to put their compiler errors first
  std::vector<StubLocation> stubs;        // to say where a not-implemented function lives
  int fallback_points = 0;                // the module's points when the report has no cases (build failed)
  bool compact = false;                   // watch mode: only failures
};

void print_report(const TestReport& report, const ReportContext& context);
std::string score_line(const TestReport& report, int fallback_points);  // "Score: 40/100 points, 4 passed, 6 failed"

// Compiler output reordered so that diagnostics about files under `first_dir` come first.
std::string order_build_log(const std::string& log, const std::string& first_dir);

}  // namespace tito
