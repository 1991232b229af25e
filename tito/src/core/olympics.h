#pragma once
// The Torch Olympics (module 20) as tito sees it: a submission's schema check, the rules re-applied
// to what tito measured, the claims checked against those measurements, and a class's ranking.
// Data lives beside the module: curriculum/20_capstone/submission.schema.json (the schema, in the
// subset of JSON Schema that validate_json implements) and olympics_rules.json (the thresholds and
// tolerances). tito believes no figure it did not measure: events and ranks come from measurements.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tito {

// One thing wrong with a document: where ("claimed_metrics.optimized.accuracy"), what, and the fix.
struct SchemaProblem {
  std::string path;
  std::string problem;
  std::string fix;
};

// Checks `document` against `schema`. Keywords: type, required, properties, additionalProperties
// (false), enum, const, minimum, maximum, exclusiveMinimum, minLength, minItems, uniqueItems, items,
// $ref to "#/$defs/NAME", and tito's "x-fix" (the fix printed for that field). Every problem is
// listed, in document order.
std::vector<SchemaProblem> validate_json(const nlohmann::json& document, const nlohmann::json& schema);

// Parses text first: malformed JSON is one problem naming the line and column.
std::vector<SchemaProblem> validate_submission_text(const std::string& text, const nlohmann::json& schema);

struct OlympicsRules {
  double min_accuracy = 0.85;
  double max_latency_ms = 100;
  int64_t max_memory_bytes = int64_t{10} << 20;
  double max_accuracy_drop = 0.01;
  double accuracy_tolerance = 0.005;   // |claimed - measured|
  double latency_factor = 2.0;         // claimed within [measured / f, measured * f]
  double memory_low_factor = 0.8;      // claimed >= low * measured - slack
  double memory_high_factor = 1.25;    // claimed <= high * measured + slack
  double memory_slack_bytes = 4096;
};
OlympicsRules rules_from_json(const nlohmann::json& rules);  // throws std::runtime_error naming a missing key
OlympicsRules load_rules(const std::filesystem::path& source_dir);
nlohmann::json load_schema(const std::filesystem::path& source_dir);

// The capstone's module number: its origin is the entry's.
constexpr const char* kOlympicsModule = "20";

inline const std::vector<std::string>& olympic_events() {
  static const std::vector<std::string> events = {"latency", "memory", "accuracy", "all_round"};
  return events;
}

struct MeasuredModel {
  double accuracy = 0;
  double latency_ms_median = 0;
  double latency_ms_p90 = 0;
  double memory_bytes = 0;  // what the model holds, by the allocator
};

// The events `entry` earns against `baseline` under the rules, in olympic_events() order; `why`
// receives, per event it does not earn, the rule that fails.
std::vector<std::string> earned_events(const OlympicsRules& rules, const MeasuredModel& entry, const MeasuredModel& baseline,
                                       std::map<std::string, std::string>* why = nullptr);
// What an event ranks by: latency ms, bytes, accuracy, or the all-round geometric mean.
double olympic_score(const std::string& event, const MeasuredModel& entry, const MeasuredModel& baseline);
bool olympic_lower_is_better(const std::string& event);

// One claimed figure against tito's measurement.
struct ClaimCheck {
  std::string field;  // "claimed_metrics.optimized.latency_ms_median", "events"
  std::string claimed;
  std::string measured;
  bool ok = true;
  std::string why;    // when not ok: what is wrong and the fix
};

// Every claim of a schema-valid submission against the measurements: accuracy, latency (median,
// p90) and memory of both models within the rules' tolerances, and each claimed event earned.
std::vector<ClaimCheck> check_claims(const OlympicsRules& rules, const nlohmann::json& submission,
                                     const MeasuredModel& baseline, const MeasuredModel& optimized);

// The verified record `submit` writes and `rank` reads.
nlohmann::json verified_record(const nlohmann::json& submission, const MeasuredModel& baseline,
                               const MeasuredModel& optimized, const std::vector<ClaimCheck>& checks,
                               const OlympicsRules& rules);

// Whose code a module in the measured build was, in progress format 2's words: origin "learner" or
// "reference"; for "reference", why: "reference_run" (tito olympics submit --reference),
// "copied_reference_files" (the learner's files are the reference solution, as tito's fingerprint
// check tells) or "not_completed" (the reference library stood in for a module not completed).
struct ModuleOrigin {
  std::string module;  // "03"
  std::string origin;  // "learner" | "reference"
  std::string reason;  // empty for "learner"
};
// Writes the record's "origin" (module 20's: whose entry was measured; "learner" when module 20 is
// not listed) and "modules" ({"03": {"origin": "reference", "reason": "copied_reference_files"}, ...}).
void mark_origins(nlohmann::json& record, const std::vector<ModuleOrigin>& modules);
// What a record says of reference code in its modules other than 20, for the class's ranking:
// "reference code: modules 03 (copied reference files), 18, 19 (not completed)", or "" when none.
std::string reference_code_note(const nlohmann::json& record);

// A class: every record under `dir` (*.verified.json, recursively). Records that are not verified
// or not readable are listed in `skipped` with the reason. Records of reference runs ("origin":
// "reference") are never ranked: they are listed apart, in `reference_runs`, with their scores.
// Records from before the origin field are ranked as the learners' own, with a warning.
struct RankedEntry {
  std::string learner;
  std::string model;
  double score = 0;
  std::string note;  // reference code in the entry's build (reference_code_note); "" when none
};
struct ReferenceRun {
  std::string file;
  std::string learner;
  std::string model;
  std::vector<std::pair<std::string, double>> scores;  // (event, score) per event earned
};
struct Ranking {
  std::map<std::string, std::vector<RankedEntry>> by_event;  // best first; ties by learner name
  std::vector<ReferenceRun> reference_runs;                  // not ranked
  std::vector<std::string> skipped;                          // "path: reason"
  std::vector<std::string> warnings;                         // "path: what is doubtful", ranked all the same
  int verified = 0;                                          // learners' verified records (ranked)
};
Ranking rank_records(const std::filesystem::path& dir, const OlympicsRules& rules);
std::string ranking_markdown(const Ranking& ranking);
std::string ranking_csv(const Ranking& ranking);

}  // namespace tito
