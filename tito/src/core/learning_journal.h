#pragma once
// The learning journal: a workspace's .tito/history.jsonl read as the record of how the learner
// worked, module by module. ProgressStore (progress_store.h) is its only writer; this file only
// reads it, for `tito module status --journal` (the learner's own record) and for `tito instructor
// insights` (a class's journals, which are untrusted input). Nothing leaves the machine unless the
// learner submits the workspace.
//
// Format (documented in INSTRUCTOR.md, "The learning journal"): one JSON object per line, appended,
// never rewritten. Every line has "event", "at" (ISO-8601 UTC), "seq", "checksum" (SHA-256 of the line
// without it) and, since format 2, "v": 2. Events:
//   start, complete, reset, hint, snapshot   progress (progress_store.cpp applies them)
//   test       {module, command: test|complete|watch, filter, build_ok, total, passed, earned, points,
//               seconds, failed: [cases that ran and gave a wrong result, crashed or timed out],
//               not_implemented: N}
//   quiz       {module, phase: pre|post, score, total, answers: [{id, given, correct}]}
//   milestone  {milestone, part, passed, skipped, value, metric, gate, seconds}
// A line that is not such an object (cut short, edited, foreign) is skipped and reported, never fatal.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tito {

using TimePoint = std::chrono::system_clock::time_point;

struct JournalEvent {
  std::string kind;       // "test", "hint", ...
  std::string module;     // "" for milestone events
  std::string milestone;  // milestone events only
  TimePoint at;
  long seq = 0;
  nlohmann::json fields;  // the whole line
};

struct SkippedLine {
  int line = 0;  // 1-based
  std::string why;
};

struct LearningJournal {
  std::vector<JournalEvent> events;  // in (at, seq) order
  std::vector<SkippedLine> skipped;
  bool truncated = false;  // past kMaxJournalLines: the rest was not read
};

constexpr int kMaxJournalLines = 200000;
constexpr std::size_t kMaxJournalLineBytes = 64 * 1024;

// Reads a journal's text (any bytes). Never throws for content: bad lines land in `skipped`.
LearningJournal parse_learning_journal(const std::string& text);
// The learner's own journal file: a missing file is an empty journal; past kMaxJournalBytes the rest
// is left unread (truncated).
constexpr std::size_t kMaxJournalBytes = 32u << 20;
LearningJournal read_learning_journal_file(const std::filesystem::path& path);

// A pause between two events longer than this is not counted as time on task.
constexpr std::chrono::minutes kIdleGap{30};

struct QuizTaken {
  TimePoint at;
  int score = 0, total = 0;
  std::map<std::string, bool> correct;  // question id -> right or wrong
};

struct ModuleRecord {
  std::optional<TimePoint> started, first_pass, completed;
  std::string origin;        // of the last completion: "learner" or "reference"; "" when not completed
  int test_runs = 0;         // every run (test, complete, watch), filtered ones too
  int test_runs_to_pass = 0; // runs up to and including the first full pass (0 until it happens)
  double active_seconds = 0; // time on task (kIdleGap): a lower bound, reading without running anything is unseen
  double active_seconds_to_pass = 0;  // the same, up to the first full pass
  // The cases that gave a wrong result (not "not implemented") in the first run that had any: where the
  // learner's mental model first met the tests.
  std::vector<std::string> first_failures;
  std::vector<int> failures_per_run;    // full runs only: cases not passing, in order (how they changed)
  std::map<std::string, int> hint_levels;  // case -> deepest level revealed
  std::optional<QuizTaken> pre, post;     // the first of each
  int quiz_attempts = 0;
};

struct MilestoneAttempts {
  int runs = 0, passed = 0;  // part runs
  std::optional<TimePoint> first_pass;
  std::map<int, double> best_value;  // part -> the best value measured (by pass first, then last)
  std::map<int, std::string> metric;
  std::map<int, bool> part_passed;   // part -> passed at least once
};

struct JournalSummary {
  std::map<std::string, ModuleRecord> modules;  // "01" -> record
  std::map<std::string, MilestoneAttempts> milestones;
  std::optional<TimePoint> first_event, last_event;
};

JournalSummary summarize_learning_journal(const LearningJournal& journal);


}  // namespace tito
