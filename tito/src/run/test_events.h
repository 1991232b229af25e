#pragma once
// What a module test binary tells tito, in the formats written by curriculum/common:
// `--tito-list` prints {"cases":[{name, tags, points, file, line, hidden}]} on one line, and the
// event listener appends one JSON object per line to $TITO_EVENTS_FILE:
//   {"event":"case_start","name","points","output_offset"}
//   {"event":"assertion_failed","file","line","expression","actual","expected","expanded","message","check",
//    "kind": "assertion" | "not_implemented" | "exception" | "out_of_memory" | "fatal_signal"}
//   {"event":"observed", "text"} or {"event":"observed","dtype","sizes","numel","values","rtol","atol"}
//   {"event":"case_end","name","passed","duration_ms","output_end"}
//   {"event":"run_end"}
#include <filesystem>
#include <string>
#include <vector>

#include "run/test_report.h"

namespace tito {

struct ListedCase {
  std::string name;
  int points = 0;
  bool hidden = false;  // Catch2's [.] tag: not run unless asked for by name
  std::string tags;     // "[points=4][measure]"
};

// Throws std::runtime_error when the output holds no case list.
std::vector<ListedCase> parse_case_list(const std::string& program_output);

struct FailureEvent {
  AssertionFailure failure;
  std::string kind;
};

struct CaseEvents {
  std::string name;
  int points = 0;
  long output_offset = -1;  // where this case's output starts in the run's output file
  long output_end = -1;     // where it ends (case_end); -1: unknown, the rest of the file
  bool ended = false;
  bool passed = false;
  double duration_ms = 0;
  std::vector<FailureEvent> failures;
  std::vector<Observation> observations;  // recorded between its start and its end
};

struct RunEvents {
  std::vector<CaseEvents> cases;  // in the order they started
  bool run_ended = false;         // the binary reached the end of its run
};

// A missing file reads as no events; a line cut short by a crash is skipped.
RunEvents read_events_file(const std::filesystem::path& file);
RunEvents parse_events_text(const std::string& lines);

}  // namespace tito
