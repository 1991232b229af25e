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
  bool verbose = false;                   // the compiler's and the program's whole output
  std::string learner_root;               // the folder of every learner module, for compiler errors
  std::string module_number;              // for the commands the report suggests
  std::string compiler;                   // describe_compiler(toolchain), for a build that fails in given code
  std::string compiler_fix;               // switch_compiler_command(...), likewise
};

void print_report(const TestReport& report, const ReportContext& context);
std::string score_line(const TestReport& report, int fallback_points);  // "Score: 40/100 points, 4 passed, 6 failed"

// For a build whose failure is in TinyTorch's own code (TestReport::given_code_failed): says that it is not
// the learner's, names the compiler, shows its first `max_lines` lines of errors and the command that
// sets TinyTorch up with another compiler. `what` names the sources that failed ("the module's tests").
void print_given_code_failure(const std::string& what, const std::string& log, const std::string& compiler,
                              const std::string& fix, std::size_t max_lines);

// Compiler output reordered so that diagnostics about files under `first_dir` come first.
std::string order_build_log(const std::string& log, const std::string& first_dir);

// The first compiler error that concerns a file under `learner_dir`, as the learner needs it: the
// error with its source line, and of a template's "required from" chain only the learner's lines.
// Without such an error, the first error of all. `error_count` receives how many errors there were.
std::string first_learner_error(const std::string& log, const std::string& learner_dir, int* error_count = nullptr);

// The report as one JSON object: module, filter, build_ok, points, and per case name, points,
// status and failure text (`tito module test NN --json`).
std::string report_json(const TestReport& report, int fallback_points);

// A failed case's failure in plain text: detail, diagnosis, each failed assertion.
std::string failure_text(const CaseResult& result);

}  // namespace tito
