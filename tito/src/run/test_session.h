#pragma once
// Runs a built module test binary in the sandbox until every test case has a status. When learner
// code crashes, loops or exhausts memory, the case that was running takes the blame and the binary
// is started again on the cases that had not run yet.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "run/module_test_runner.h"
#include "run/test_report.h"

namespace tito {

struct TestSessionSpec {
  std::filesystem::path binary;
  std::filesystem::path work_dir;  // events, outputs and name lists go here
  double time_limit_s = 30;        // per start of the binary
  std::size_t memory_limit_mb = 1024;
  bool sanitized = false;
  std::map<std::string, std::string> extra_env;  // added to the program's environment
  std::filesystem::path writable_dir;            // set: try to make everything else read-only (sandbox.h)
};

// Lists the binary's cases (in the sandbox too: static initialisers are learner code).
// On failure returns one Crashed pseudo-case explaining why.
std::vector<CaseResult> list_cases(const TestSessionSpec& spec);

// Fills in the status of every case in `cases` that is not hidden.
void run_test_session(const TestSessionSpec& spec, std::vector<CaseResult>& cases, const ProgressSink& progress);

}  // namespace tito
