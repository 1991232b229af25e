#pragma once
// The result of building and running one module's tests: what `tito module test`, `module complete`
// and (later) grading display and record. Produced by run_module_tests (module_test_runner.h).
#include <string>
#include <vector>

#include "core/hints.h"
#include "core/i18n.h"
#include "run/transcript.h"

namespace tito {

enum class CaseStatus {
  Passed,
  Failed,          // an assertion failed
  NotImplemented,  // a starter stub threw tinytorch::NotImplemented
  Errored,         // an unexpected exception escaped the test
  Crashed,         // the process died on a signal while this case ran (detail names the signal)
  TimedOut,        // the time limit ran out while this case ran
  OutOfMemory,     // the memory limit was hit while this case ran
  NotRun,          // never reached (e.g. the build failed)
};

const char* to_string(CaseStatus status);  // "passed", "failed", "not implemented", ...

struct AssertionFailure {
  std::string file;
  int line = 0;
  std::string expression;  // as written, e.g. CHECK_THAT( a + b, Equals(expected) )
  std::string actual;      // the value the learner's code produced, when known
  std::string expected;    // the value the test wanted, when known
  std::string expanded;    // Catch2's reconstructed expression, when actual/expected could not be split
  std::string message;     // exception text or explicit FAIL() message
  std::string check;       // the test's LABEL_CHECKS label in effect, "" when none: chooses the hint
};

struct CaseResult {
  std::string name;
  int points = 0;              // from the [points=N] tag
  std::string tags;            // "[tensor][points=5]", when read from the test sources
  CaseStatus status = CaseStatus::NotRun;
  std::vector<AssertionFailure> failures;
  std::string detail;          // signal / limit / exception message for Crashed, TimedOut, OutOfMemory, Errored, NotImplemented
  // Crashed or TimedOut: what went wrong and where in the learner's code, in one line, e.g.
  // "heap-buffer-overflow, write of 4 bytes, elementwise.cpp:57 in tinytorch::native::add".
  std::string diagnosis;
  // detail and diagnosis stay English: --json, grades and tito itself read them. What tito wrote of
  // them is also kept in the message language, for the report a person reads (shown_detail()); empty
  // where it is the English text (a test's own exception message).
  std::string detail_shown;
  std::string diagnosis_shown;
  void set_detail(const Bilingual& text) {
    detail = text.english;
    detail_shown = text.shown == text.english ? std::string() : text.shown;
  }
  void set_diagnosis(const Bilingual& text) {
    diagnosis = text.english;
    diagnosis_shown = text.shown == text.english ? std::string() : text.shown;
  }
  Bilingual detail_both() const { return {detail, shown_detail()}; }
  Bilingual diagnosis_both() const { return {diagnosis, shown_diagnosis()}; }
  const std::string& shown_detail() const { return detail_shown.empty() ? detail : detail_shown; }
  const std::string& shown_diagnosis() const { return diagnosis_shown.empty() ? diagnosis : diagnosis_shown; }
  std::string output;          // what the program printed during this case (its last part)
  std::string hint;            // from the module's hints.json: the failed check's, else the case's
  // Set on a failed case that a more specific failed case most likely explains (hints.json "exercises"):
  // that case's name. The report shows that one first and this one in a line.
  std::string same_cause_as;
  // What the case depends on (hints.json), empty when undeclared; after a failure, that of the failed
  // check that depends on least, when its entry says.
  std::vector<std::string> exercises;
  double duration_ms = 0;
  std::vector<Observation> observations;  // what the code under test produced (transcript.h)
  bool passed() const { return status == CaseStatus::Passed; }
};

// Gives each case that did not pass its hint (that of its failed check with a hint of its own, the
// one that depends on least when several have, else the case's) and marks, among the failed cases,
// those a more specific failed case explains: one whose exercises (its chosen check's, when declared)
// are part of the other's.
void explain_failures(std::vector<CaseResult>& cases, const ModuleHints& hints);

struct TestReport {
  std::string module;            // "01"
  bool build_ok = false;
  std::string build_log;         // compiler output when the build failed (and warnings when it did not)
  // The module's tests do not compile even without the learner's code: this compiler cannot build
  // TinyTorch's own code (build_log then holds those errors), and no change to the learner's files helps.
  bool given_code_failed = false;
  // Files the learner's code reached outside the allowed folders (ModuleTestRequest::learner_include_dirs):
  // the build counts as failed and build_log names them without the compiler's messages.
  std::vector<std::string> refused_includes;
  // What the learner's objects define or use that they may not: a definition that could stand in for the
  // harness's, the given code's or the runtime's, a use of the harness, of files, descriptors, the
  // environment or the kernel (build/learner_symbols.h). Checked for graders, before anything runs; like
  // refused_includes, the build counts as failed.
  std::vector<std::string> refused_symbols;
  double build_seconds = 0;
  double run_seconds = 0;
  std::string filter;            // the test spec that chose the cases ("" = all of them)
  std::vector<CaseResult> cases;
  // Set when the test program failed before it ran any case (a static initialiser crashed or exited,
  // an uncaught exception, an abort): why, in words, once for the whole run.
  std::string startup_failure;

  int points_earned() const;
  int points_possible() const;
  int passed_count() const;
  int failed_count() const;      // every case that did not pass
  bool all_passed() const;       // build_ok and every case passed
};

}  // namespace tito
