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
  // tito's own files for the runs (outputs, events, case lists): a folder the program cannot write, so
  // that nothing tito opens there can have been replaced by the program (a link to another file).
  std::filesystem::path work_dir;
  std::filesystem::path run_dir;   // the program's working folder (writable_dir when confined); empty: work_dir
  double time_limit_s = 30;        // per start of the binary
  // > 0: all starts together may take no longer (cases that hang one after another, each somewhere
  // else, cannot keep a grader busy for cases x time_limit_s); what is left then is not run.
  double total_time_limit_s = 0;
  std::size_t memory_limit_mb = 1024;
  bool sanitized = false;
  std::map<std::string, std::string> extra_env;  // added to the program's environment
  std::filesystem::path writable_dir;            // set: try to make everything else read-only (sandbox.h)
  std::vector<std::filesystem::path> readable_dirs;  // confined: shown read-only besides the binary
  std::string filter;                            // Catch2 test spec for list_cases ("" = every case)
  std::vector<std::filesystem::path> learner_dirs;  // to find the learner's frame in a backtrace
  LiveStatus live_status;
  // Once one case has run out of time, another whose backtrace twice shows it in the same learner
  // function (sampled from this many seconds on) is stopped early: it hangs the same way.
  double same_hang_check_after_s = 2;
};

// The pseudo-case list_cases returns when the program could not even list its cases.
inline constexpr const char* kStartupCaseName = "(test program start-up)";

// Lists the binary's cases (in the sandbox too: static initialisers are learner code).
// On failure returns one Crashed pseudo-case (kStartupCaseName) explaining why.
std::vector<CaseResult> list_cases(const TestSessionSpec& spec);

// Fills in the status of every case in `cases` that is not hidden. A case that crashed or ran out
// of time gets a diagnosis naming where it was (from the backtrace the program writes), or what a
// sanitizer said when the binary is sanitized. Returns "" or, when a start of the program ended before
// its first case, why (exit code, signal, uncaught exception), said once for the whole run.
std::string run_test_session(const TestSessionSpec& spec, std::vector<CaseResult>& cases, const ProgressSink& progress);

}  // namespace tito
