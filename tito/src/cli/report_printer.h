#pragma once
// Shows a TestReport to the learner: one line per case, details for each failure (where, what was
// expected, what came out, the hint), compiler errors with the learner's own files first, and the score.
#include <filesystem>
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
  // The module's test sources (the installation's copies): a failure in one of them shows its lines.
  std::vector<std::filesystem::path> test_sources;
};

void print_report(const TestReport& report, const ReportContext& context);
// "Score: 40/100 points, 4 passed, 6 failed", always in English: for the log (print_report prints it translated).
std::string score_line(const TestReport& report, int fallback_points);

// For a build whose failure is in TinyTorch's own code (TestReport::given_code_failed): says that it is not
// the learner's, names the compiler, shows its first `max_lines` lines of errors and the command that
// sets TinyTorch up with another compiler. `what` is the translated sentence that names the sources that failed
// ("The module's tests fail to build without any of your code, so the problem is not in your files.").
void print_given_code_failure(const std::string& what, const std::string& log, const std::string& compiler,
                              const std::string& fix, std::size_t max_lines);

// Compiler output reordered so that diagnostics about files under `first_dir` come first.
std::string order_build_log(const std::string& log, const std::string& first_dir);

// The first compiler error that concerns a file under `learner_dir`, as the learner needs it: the
// error with its source line, and of a template's "required from" chain only the learner's lines.
// Without such an error, the first error of all. `error_count` receives how many errors there were.
std::string first_learner_error(const std::string& log, const std::string& learner_dir, int* error_count = nullptr);

// The report as one JSON object: module, filter, build_ok, points, and per case name, points,
// status, failure text and the case whose failure most likely explains it (`tito module test NN --json`).
std::string report_json(const TestReport& report, int fallback_points);

// A failed case's failure in plain text: detail, diagnosis, each failed assertion.
std::string failure_text(const CaseResult& result);

// How a report names a test source: "tests/test_attention.cpp" (the folder it ships in and its name),
// never the installation's absolute path, which is not the learner's to open.
std::string test_source_label(const std::string& file);

// The lines around `line` of a test source, numbered, the failing one marked and the statement that
// starts there shown to its end, e.g. "  > 160 |   CHECK_THAT(out, ...". Empty when unreadable.
std::vector<std::string> source_excerpt(const std::filesystem::path& file, int line);

}  // namespace tito
