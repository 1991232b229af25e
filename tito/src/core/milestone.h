#pragma once
// The milestones as data: milestones/NN_YEAR_slug/milestone.json, read in full (parts, programs,
// gates, aliases, story), and the two rules tito applies to a milestone program's output: how a
// `TITO_RESULT {...}` line is read and how a measured value is judged against a part's gate.
// tito decides pass or fail itself; a program never reports "passed".
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/progress_store.h"

namespace tito {

// A part passes when `measured <comparison> value`, e.g. accuracy >= 0.95.
struct MilestoneGate {
  std::string metric;      // "accuracy"
  std::string comparison;  // one of >= > == <= < !=
  double value = 0;

  std::string describe() const;  // "accuracy >= 0.95"
  std::string describe_for_people() const;  // the same with the message language's numbers: "accuracy >= 0,95"
};

// A measured value as people read it: 6 significant digits, so a float accuracy of
// 0.9549999833106995 prints as 0.955 (the gate still compares the exact value).
std::string format_measured(double value);
// The same for people, in the message language's convention: 0,953125 and 3,70407e-06 in Spanish
// (format_measured is what records keep).
std::string format_measured_for_people(double value);

// Throws std::invalid_argument for an unknown comparison. NaN and infinities never pass.
// "==" and "!=" allow a relative slack of 1e-9, so 3.0/4 printed and read back equals 0.75.
bool gate_passes(const MilestoneGate& gate, double measured);

struct MilestonePart {
  int number = 1;
  std::string title;
  std::vector<std::string> programs;           // .cpp files in the milestone's folder
  bool required = true;
  std::vector<std::string> required_modules;   // every module whose code the part runs
  // "gate" in milestone.json, or the first of "gates": the headline measurement, recorded as the
  // part's value. The other "gates" must hold as well, e.g. accuracy >= 0.9 and, so that a model
  // cannot pass on its last layer alone, min_conv_weight_change >= 0.25.
  MilestoneGate gate;
  std::vector<MilestoneGate> further_gates;
  std::string describe_gates() const;          // "accuracy >= 0.9 and min_conv_weight_change >= 0.25"
  std::string gates_for_people() const;        // the same in the message language: "accuracy >= 0,9 y ..."
  double time_limit_s = 600;                   // generous: training on a 2-core laptop
  // "expected_minutes" in milestone.json: how long the part takes on a 2-core laptop with the code a
  // learner runs it on (measured: scripts/time-milestone-on-plain-loops), said before an optional part
  // starts and when `tito milestone run NN` leaves it out. 0: under a minute, nothing to say.
  double expected_minutes = 0;
  std::size_t memory_limit_mb = 2048;
  // "arguments" in milestone.json: what the part's program accepts after `--`, as its usage writes it
  // ("--steps N" an option with a value, "DIR" a positional argument). None: it takes no arguments.
  std::vector<std::string> arguments;
  // "languages" in milestone.json: the languages the part's dataset is written in, English first, each
  // with the gates that language is judged by (set from measured reference runs: a Chinese character
  // carries more than an English one, so the margins differ). tito passes "--lang LANG" to the program.
  // Empty: the part has one language and takes no --lang.
  std::vector<std::string> languages;
  std::map<std::string, std::vector<MilestoneGate>> gates_by_language;  // every language's gates, English's too

  bool speaks(const std::string& language) const;
  // This part as it runs in `language`: gate and further_gates are that language's. Throws UserError
  // (with the languages it has) for one it does not speak.
  MilestonePart in_language(const std::string& language) const;
};

struct Milestone {
  std::string id;    // "01"
  int year = 0;
  std::string slug;  // "perceptron"
  std::string title;
  std::string summary;
  std::string story;
  std::vector<std::string> aliases;
  std::vector<MilestonePart> parts;              // sorted by number
  std::vector<std::string> required_modules;     // the union of the parts', sorted
  std::filesystem::path dir;                     // milestones/01_1958_perceptron

  std::string label() const;                     // "01 (Perceptron, 1958)"
  std::string output_folder() const { return id + "_" + slug; }  // "01_perceptron", under <ws>/milestones/
  const MilestonePart* part(int number) const;
  bool implemented() const;                      // every part's programs exist
};

// Reads every milestones/*/milestone.json under source_dir, sorted by id. Throws UserError naming
// the file and the problem (missing key, a part without a gate, a bad comparison...).
// Refuses (UserError, with the accepted arguments and a command that works) program arguments the part
// does not declare, before anything is built: a program that ignored `--steps 40` would train for minutes.
void check_program_arguments(const Milestone& milestone, const MilestonePart& part, const std::vector<std::string>& args);

std::vector<Milestone> load_milestones(const std::filesystem::path& source_dir);
Milestone milestone_from_json_text(const std::string& text, const std::filesystem::path& dir);  // for tests

// "1", "01", "perceptron", "01_perceptron", "Perceptron", or an alias -> the milestone; an unknown
// name is a usage error listing the valid ones.
const Milestone& resolve_milestone(const std::vector<Milestone>& milestones, const std::string& text);

// Modules the milestone needs that the learner has not completed, in order.
std::vector<std::string> missing_modules(const Milestone& milestone, const ProgressState& progress);

// The milestone's modules whose files changed since the learner completed them: the fingerprint
// `fingerprint_now(module)` gives differs from the one recorded at completion. A milestone result then
// stands on code the module tests never passed, so tito warns before it records one.
std::vector<std::string> modules_changed_since_completion(
    const Milestone& milestone, const ProgressState& progress,
    const std::function<std::string(const std::string& module)>& fingerprint_now);

// Milestones that use `just_completed` and need nothing else: the ones completing it made runnable.
std::vector<const Milestone*> milestones_runnable_after(const std::vector<Milestone>& milestones,
                                                        const std::string& just_completed,
                                                        const ProgressState& progress);

// One line a milestone program prints: TITO_RESULT {"part":1,"metric":"accuracy","value":0.97}
// or, when it cannot run an optional part at all (a dataset that is not installed):
//   TITO_RESULT {"part":3,"skipped":true,"reason":"Fashion-MNIST is not installed: sudo apt-get install ..."}
struct ResultLine {
  ResultLine() = default;
  ResultLine(int part, std::string metric, double value) : part(part), metric(std::move(metric)), value(value) {}
  static ResultLine skip(int part, std::string reason) {
    ResultLine line;
    line.part = part;
    line.skipped = true;
    line.reason = std::move(reason);
    return line;
  }

  int part = 0;
  std::string metric;
  double value = 0;
  bool skipped = false;
  std::string reason;  // why it was skipped, with the command that makes it runnable
};
inline constexpr const char* kResultPrefix = "TITO_RESULT ";

// nullopt when the line is not a result line; throws std::invalid_argument when it starts with the
// prefix but its JSON is malformed or lacks part/metric/value (or, for a skip, a reason): the
// program has a bug worth showing.
std::optional<ResultLine> parse_result_line(const std::string& line);

// tito's verdict on one part from what its program did and printed.
struct PartVerdict {
  bool passed = false;
  bool skipped = false;         // an optional part that could not run here: neither passed nor failed
  std::optional<double> value;  // the measured value the (headline) gate was applied to
  std::string measured;         // every gate's measured value, "accuracy = 0.93, min_conv_weight_change = 0.71"
  std::string message;          // why it failed or was skipped: every missed gate, "; "-separated; empty when it passed
  std::string shown_message;    // `message` in the message language, for people (message is what milestones.json keeps)
  std::vector<std::string> failed_gates;  // the metrics of the gates it missed (unmet or not reported), in gate order
};

// `run_failure` is "" when the program exited cleanly, else why not ("it crashed with SIGSEGV ..."), and
// `run_failure_shown` the same in the message language ("" = run_failure).
// The last result line for this part and each gate's metric counts; every gate must hold, and every one that does
// not is named; a crash, a time-out or a
// non-zero exit fails the part even after a good result line. A part that reports no value but a
// skip is skipped when it is optional ("required": false) and fails when it is required.
PartVerdict judge_part(const MilestonePart& part, const std::vector<ResultLine>& results, const std::string& run_failure,
                       const std::string& run_failure_shown = "");

}  // namespace tito
