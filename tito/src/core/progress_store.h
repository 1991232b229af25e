#pragma once
// The learner's progress: <ws>/.tito/progress.json plus the append-only journal <ws>/.tito/history.jsonl.
// This is the only writer of both files. Every change is appended to the journal first and then the
// whole state is rewritten atomically, so a damaged progress.json can always be rebuilt from the journal.
// The journal is also the learner's learning journal (learning_journal.h reads it; its format is in
// INSTRUCTOR.md): besides the events that change progress it keeps test runs, quiz answers and
// milestone runs, which change nothing here.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tito {

struct ModuleProgress {
  std::optional<std::string> started_at;    // ISO-8601
  std::optional<std::string> completed_at;  // ISO-8601; absent until `tito module complete` passes
  std::optional<int> score;                 // points earned at completion
  std::optional<int> points;                // points possible at completion
  std::optional<std::string> fingerprint;   // sha256 of the learner's files at completion
  std::map<std::string, int> hints_shown;   // test case -> how many of its hint levels were revealed
  // Whose code passed: "learner", or "reference" when the files were the reference solution as
  // `tito module start NN --reference` writes them. Absent in records from before format 2
  // (module_origin() in learner_files.h then tells from the fingerprint).
  std::optional<std::string> origin;

  bool started() const { return started_at.has_value(); }
  bool completed() const { return completed_at.has_value(); }
};

struct ProgressState {
  std::map<std::string, ModuleProgress> modules;  // "01" -> progress
  std::optional<std::string> last_worked;         // module number

  bool is_started(const std::string& module) const;
  bool is_completed(const std::string& module) const;
  int completed_count() const;
};

struct ProgressLoad {
  std::string notice;  // one line for the learner when something had to be repaired; empty otherwise
  bool repaired() const { return !notice.empty(); }
};

class ProgressStore {
 public:
  explicit ProgressStore(std::filesystem::path tito_dir);

  // Writes an empty progress.json and an empty journal (used by `tito init`).
  static void initialise(const std::filesystem::path& tito_dir);

  // Reads progress.json; if it is missing, not JSON, fails its checksum or has the wrong shape, it is
  // moved aside to progress.json.corrupt-<timestamp> and the state is rebuilt from the journal.
  // Never throws for damaged content (only for I/O errors such as an unreadable folder).
  ProgressLoad load();

  const ProgressState& state() const { return state_; }

  void record_started(const std::string& module);
  void record_completed(const std::string& module, int score, int points, const std::string& fingerprint,
                        const std::string& origin);
  void clear_completion(const std::string& module);  // started stays
  // `tito module hint`: levels 1..level of the case's hints have been shown (never decreases).
  void record_hint_shown(const std::string& module, const std::string& test_case, int level);

  // Learning-journal events (progress unchanged): each fields object is stored as given, under
  // "event": "test" | "quiz" | "milestone" (learning_journal.h says what each holds).
  void record_test_run(const std::string& module, nlohmann::json fields);
  void record_quiz(const std::string& module, nlohmann::json fields);
  void record_milestone_run(const std::string& milestone, nlohmann::json fields);

  const std::filesystem::path& progress_path() const { return progress_path_; }
  const std::filesystem::path& journal_path() const { return journal_path_; }

 private:
  void append_event(nlohmann::json event);  // stamps seq, time and checksum, appends, then applies and saves
  void save() const;
  struct Replay {
    ProgressState state;
    int applied = 0;
    int skipped = 0;
  };
  Replay replay_journal();  // also advances next_seq_ past the journal's events

  std::filesystem::path progress_path_;
  std::filesystem::path journal_path_;
  ProgressState state_;
  long next_seq_ = 1;
};

// The pieces of the file format, exposed for tests and for `tito system doctor`.
nlohmann::json progress_to_json(const ProgressState& state);  // with its checksum
// Throws std::runtime_error describing the first problem (bad checksum, wrong type...). Reads the
// current format (2) and format 1 (no "origin"), which is rewritten as format 2 at the next change.
ProgressState progress_from_json(const nlohmann::json& document);
std::string canonical_checksum(nlohmann::json document);       // sha256 of the content without "checksum"

}  // namespace tito
