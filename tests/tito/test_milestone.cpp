// Milestones: the milestone.json schema, alias resolution, TITO_RESULT parsing, gate evaluation,
// tito's verdict per part, the results record in .tito/milestones.json, and run_program (build a
// program against the framework, stream its output, survive its crash).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>

#include "core/errors.h"
#include "core/files.h"
#include "core/milestone.h"
#include "core/milestone_knockout.h"
#include "core/milestone_record.h"
#include "run/module_test_runner.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace tito;
using tito_test::ScratchDir;

namespace {

const char* kTwoParts = R"({
  "id": "07", "year": 1999, "slug": "demo", "title": "Demo", "aliases": ["dem", "showcase"],
  "required_modules": ["01", "02", "04"],
  "parts": [
    {"number": 2, "title": "Second", "program": "b.cpp", "required": false, "required_modules": ["01", "04"],
     "gate": {"metric": "loss", "comparison": "<=", "value": 1.2},
     "arguments": ["--steps N", "--verbose", "DIR"]},
    {"number": 1, "title": "First", "program": ["a.cpp", "a2.cpp"], "required_modules": ["01", "02"],
     "gate": {"metric": "accuracy", "comparison": ">=", "value": 0.9}, "limits": {"time_s": 20, "memory_mb": 300}}
  ]})";

MilestoneGate gate(const std::string& comparison, double value) { return {"accuracy", comparison, value}; }

ProgressState completed(std::initializer_list<const char*> modules) {
  ProgressState progress;
  for (const char* module : modules) {
    progress.modules[module].started_at = "2026-01-01T00:00:00Z";
    progress.modules[module].completed_at = "2026-01-01T00:00:00Z";
  }
  return progress;
}

PartRecord run_result(bool passed, double value, const std::string& at) {
  PartRecord record;
  record.passed = passed;
  record.value = value;
  record.metric = "accuracy";
  record.gate = "accuracy >= 0.9";
  record.seconds = 1.5;
  record.at = at;
  record.message = passed ? "" : "too low";
  return record;
}

}  // namespace

TEST_CASE("gates compare the measured value as milestone.json says", "[milestone]") {
  CHECK(gate_passes(gate(">=", 0.95), 0.95));
  CHECK(gate_passes(gate(">=", 0.95), 0.97));
  CHECK_FALSE(gate_passes(gate(">=", 0.95), 0.9499));
  CHECK(gate_passes(gate(">", 0.5), 0.51));
  CHECK_FALSE(gate_passes(gate(">", 0.5), 0.5));
  CHECK(gate_passes(gate("<=", 1.2), 1.2));
  CHECK_FALSE(gate_passes(gate("<", 1.2), 1.2));
  // "==" is exact up to round-off: 0.75 passes, 1.0 (impossible for one layer on XOR) and 0.5 fail.
  CHECK(gate_passes(gate("==", 0.75), 3.0 / 4));
  CHECK(gate_passes(gate("==", 0.75), 0.75 + 1e-12));
  CHECK_FALSE(gate_passes(gate("==", 0.75), 1.0));
  CHECK_FALSE(gate_passes(gate("==", 0.75), 0.5));
  CHECK(gate_passes(gate("!=", 0.75), 0.5));
  CHECK_FALSE(gate_passes(gate("!=", 0.75), 0.75));
}

TEST_CASE("measured values print as people read them, not as a float widened to double", "[milestone]") {
  CHECK(format_measured(static_cast<double>(0.955f)) == "0.955");
  CHECK(format_measured(0.75) == "0.75");
  CHECK(format_measured(1.0) == "1");
  CHECK(format_measured(12345.678) == "12345.7");
}

TEST_CASE("a NaN or infinite measurement never passes, and an unknown comparison is an error", "[milestone]") {
  CHECK_FALSE(gate_passes(gate(">=", 0.5), std::numeric_limits<double>::quiet_NaN()));
  CHECK_FALSE(gate_passes(gate("!=", 0.5), std::numeric_limits<double>::quiet_NaN()));
  CHECK_FALSE(gate_passes(gate(">=", 0.5), std::numeric_limits<double>::infinity()));
  CHECK_THROWS_AS(gate_passes(gate("=>", 0.5), 1.0), std::invalid_argument);
  CHECK(gate(">=", 0.95).describe() == "accuracy >= 0.95");
}

TEST_CASE("result lines are read from the program's output", "[milestone]") {
  auto result = parse_result_line(R"(TITO_RESULT {"part":1,"metric":"accuracy","value":0.97})");
  REQUIRE(result);
  CHECK(result->part == 1);
  CHECK(result->metric == "accuracy");
  CHECK(result->value == 0.97);
  auto integral = parse_result_line("TITO_RESULT {\"metric\": \"accuracy\", \"value\": 1, \"part\": 2}\r");
  REQUIRE(integral);
  CHECK(integral->value == 1.0);
  CHECK(integral->part == 2);

  CHECK_FALSE(parse_result_line("epoch 3: accuracy 0.97"));
  CHECK_FALSE(parse_result_line("  TITO_RESULT {\"part\":1}"));  // only at the start of a line
  CHECK_FALSE(parse_result_line("passed"));
  CHECK_THROWS_AS(parse_result_line("TITO_RESULT {part:1}"), std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":1,"metric":"accuracy"})"), std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":1,"metric":"accuracy","value":"0.97"})"),
                  std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":1.5,"metric":"accuracy","value":0.9})"),
                  std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line("TITO_RESULT [1, 2]"), std::invalid_argument);
}

TEST_CASE("milestone.json: parts sorted, programs, limits, required flags and the union of modules", "[milestone]") {
  Milestone m = milestone_from_json_text(kTwoParts, "/nowhere/07_1999_demo");
  CHECK(m.label() == "07 (Demo, 1999)");
  CHECK(m.output_folder() == "07_demo");
  REQUIRE(m.parts.size() == 2);
  CHECK(m.parts[0].number == 1);
  CHECK(m.parts[0].programs == std::vector<std::string>{"a.cpp", "a2.cpp"});
  CHECK(m.parts[0].required);
  CHECK(m.parts[0].time_limit_s == 20);
  CHECK(m.parts[0].memory_limit_mb == 300);
  CHECK(m.parts[0].gate.describe() == "accuracy >= 0.9");
  CHECK(m.parts[1].programs == std::vector<std::string>{"b.cpp"});
  CHECK_FALSE(m.parts[1].required);
  CHECK(m.parts[1].time_limit_s == 600);  // the generous default
  CHECK(m.required_modules == std::vector<std::string>{"01", "02", "04"});
  CHECK(m.part(2) == &m.parts[1]);
  CHECK(m.part(3) == nullptr);
  CHECK_FALSE(m.implemented());  // its programs do not exist
}

TEST_CASE("milestone.json mistakes are caught when it is read", "[milestone]") {
  // A top-level list that is not the union of the parts'.
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"01","required_modules":["01"],"parts":[{"number":1,"program":"a.cpp","required_modules":["01","02"],
         "gate":{"metric":"accuracy","comparison":">=","value":0.9}}]})",
      "/x"));
  // A part without a gate, with a bad comparison, or without a program.
  CHECK_THROWS(milestone_from_json_text(R"({"id":"01","parts":[{"number":1,"program":"a.cpp","required_modules":[]}]})", "/x"));
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"01","parts":[{"number":1,"program":"a.cpp","required_modules":[],
         "gate":{"metric":"accuracy","comparison":"=>","value":0.9}}]})",
      "/x"));
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"01","parts":[{"number":1,"program":[],"required_modules":[],
         "gate":{"metric":"accuracy","comparison":">=","value":0.9}}]})",
      "/x"));
  // Without parts (not written yet) the declared list stands.
  Milestone planned = milestone_from_json_text(R"({"id":"05","required_modules":["02","01"]})", "/x");
  CHECK(planned.required_modules == std::vector<std::string>{"01", "02"});
  CHECK_FALSE(planned.implemented());
}

TEST_CASE("the repository's milestones resolve by number, name and alias", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  REQUIRE(milestones.size() >= 6);
  CHECK(resolve_milestone(milestones, "1").id == "01");
  CHECK(resolve_milestone(milestones, "01").id == "01");
  CHECK(resolve_milestone(milestones, "perceptron").id == "01");
  CHECK(resolve_milestone(milestones, "Perceptron").id == "01");
  CHECK(resolve_milestone(milestones, "01_1958_perceptron").id == "01");
  CHECK(resolve_milestone(milestones, "xor").id == "02");
  CHECK(resolve_milestone(milestones, " XOR ").id == "02");
  CHECK(resolve_milestone(milestones, "mlp").id == "03");
  CHECK(resolve_milestone(milestones, "cnn").id == "04");
  CHECK(resolve_milestone(milestones, "transformer").id == "05");
  CHECK(resolve_milestone(milestones, "mlperf").id == "06");
  CHECK(resolve_milestone(milestones, "kernels").id == "07");
  try {
    resolve_milestone(milestones, "lstm");
    FAIL("an unknown milestone was accepted");
  } catch (const UserError& error) {
    CHECK(error.exit_code() == kExitUsage);
    CHECK(error.problem().find("01 perceptron") != std::string::npos);
    CHECK(error.fix() == "tito milestone list");
  }
  CHECK_THROWS_AS(resolve_milestone(milestones, "99"), UserError);
}

TEST_CASE("milestones 01 and 02 are written, with their gates", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& perceptron = resolve_milestone(milestones, "perceptron");
  const Milestone& xor_crisis = resolve_milestone(milestones, "xor");
  for (const Milestone* m : {&perceptron, &xor_crisis}) {
    CHECK(m->implemented());
    CHECK(m->required_modules == std::vector<std::string>{"01", "02", "03"});
    REQUIRE(m->parts.size() == 1);
    CHECK(m->parts[0].required);
    CHECK_FALSE(m->story.empty());
  }
  // Accuracy alone passed a broken Linear or sigmoid (the knockout study): a probe of the forward pass gates too.
  CHECK(perceptron.parts[0].describe_gates() ==
        "accuracy >= 0.95 and forward_max_error <= 1e-05 and init_bound_error <= 0.05");
  CHECK(xor_crisis.parts[0].describe_gates() == "accuracy == 0.75 and forward_max_error <= 1e-05");
}

TEST_CASE("milestone 03 is written: XOR and TinyDigits required, Fashion-MNIST optional", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& mlp = resolve_milestone(milestones, "backprop");
  CHECK(mlp.id == "03");
  CHECK(mlp.implemented());
  CHECK(mlp.required_modules == std::vector<std::string>{"01", "02", "03", "04", "05", "06", "07", "08"});
  REQUIRE(mlp.parts.size() == 3);
  CHECK(mlp.parts[0].required);
  CHECK(mlp.parts[0].gate.describe() == "accuracy >= 0.95");
  // Backpropagation solves XOR from a bias left at zero too: part 1 probes the initialisation.
  CHECK(mlp.parts[0].describe_gates() == "accuracy >= 0.95 and init_bound_error <= 0.05");
  CHECK(mlp.parts[1].required);
  CHECK(mlp.parts[1].gate.describe() == "accuracy >= 0.85");
  // A trained MLP reaches its accuracy on a Linear without bias, a wrong Adam or schedule: part 2 probes them.
  CHECK(mlp.parts[1].describe_gates() ==
        "accuracy >= 0.85 and linear_forward_error <= 1e-05 and init_bound_error <= 0.05 and "
        "log_softmax_error <= 1e-05 and cross_entropy_error <= 1e-05 and adam_step_error <= 1e-05 and "
        "lr_schedule_error <= 1e-06 and "
        "clip_grad_norm_error <= 1e-06 and sampler_reshuffles == 1 and trainer_update_error <= 1e-05");
  CHECK_FALSE(mlp.parts[2].required);
  CHECK(mlp.parts[2].gate.describe() == "accuracy >= 0.84");
}

TEST_CASE("milestone 05 has an optional part 3: TinyGPT on the framework's C++, judged on measured facts only",
          "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& transformer = resolve_milestone(milestones, "transformer");
  CHECK(transformer.implemented());
  REQUIRE(transformer.parts.size() == 3);
  CHECK(transformer.parts[0].required);
  CHECK(transformer.parts[1].required);
  CHECK_FALSE(transformer.parts[2].required);
  CHECK(transformer.parts[2].describe_gates() == "heldout_margin > 0 and compiler_verdicts == 1");
  CHECK(transformer.parts[2].required_modules == transformer.parts[1].required_modules);
  // Routing is learned even by a softmax over the wrong dimension: part 1 probes the attention too.
  CHECK(transformer.parts[0].describe_gates() ==
        "reversal_accuracy >= 0.95 and copy_accuracy >= 0.95 and mixed_accuracy >= 0.9 and "
        "attention_row_sum_error <= 0.0001 and causality_max_change <= 0.0001 and init_bound_error <= 0.05 and "
        "log_softmax_error <= 1e-05 and cross_entropy_error <= 1e-05 and adam_step_error <= 1e-05 and "
        "sampler_reshuffles == 1 and embedding_backward_error <= 1e-05 and layer_norm_error <= 1e-05");
  // A TinyGPT talks with an attention left unscaled: part 2 probes the whole forward pass.
  CHECK(transformer.parts[1].describe_gates() ==
        "heldout_margin >= 0.35 and causality_max_change <= 0.0001 and attention_entropy <= 0.9 and "
        "greedy_exact_match >= 0.8 and gpt_forward_error <= 0.0001");
}

TEST_CASE("a part written in several languages is judged by the gates of the language it ran in", "[milestone]") {
  const char* kTalks = R"({"id": "05", "parts": [
    {"number": 1, "program": "talk.cpp", "required_modules": ["01"],
     "gates": [{"metric": "margin", "comparison": ">=", "value": 0.35}, {"metric": "exact", "comparison": ">=", "value": 0.8}],
     "languages": {"en": {"gates": [{"metric": "margin", "comparison": ">=", "value": 0.35},
                                    {"metric": "exact", "comparison": ">=", "value": 0.8}]},
                   "zh": {"gates": [{"metric": "margin", "comparison": ">=", "value": 0.25},
                                    {"metric": "exact", "comparison": ">=", "value": 0.9}]}}}]})";
  const Milestone m = milestone_from_json_text(kTalks, "/x");
  const MilestonePart& part = m.parts.front();
  CHECK(part.languages == std::vector<std::string>{"en", "zh"});
  CHECK(part.speaks("zh"));
  CHECK_FALSE(part.speaks("es"));
  CHECK(part.in_language("en").describe_gates() == "margin >= 0.35 and exact >= 0.8");
  CHECK(part.in_language("zh").describe_gates() == "margin >= 0.25 and exact >= 0.9");
  CHECK_THROWS_WITH(part.in_language("es"), Catch::Matchers::Contains("part 1 is not written in 'es': it runs in en, zh"));
  // A part with one language runs as it is in English and refuses any other.
  const Milestone plain = milestone_from_json_text(kTwoParts, "/x");
  CHECK(plain.parts.front().in_language("en").describe_gates() == "accuracy >= 0.9");
  CHECK_THROWS_WITH(plain.parts.front().in_language("zh"), Catch::Matchers::Contains("takes no --lang zh"));

  // English's gates are the part's own (a tito that knows no languages judges English alike), listed first.
  std::string changed = kTalks;
  changed.replace(changed.find("\"value\": 0.8}]},"), 16, "\"value\": 0.7}]},");
  CHECK_THROWS_WITH(milestone_from_json_text(changed, "/x"), Catch::Matchers::Contains("languages.en.gates must equal"));
  std::string no_english = kTalks;
  no_english.replace(no_english.find("\"en\":"), 5, "\"fr\":");
  CHECK_THROWS_WITH(milestone_from_json_text(no_english, "/x"), Catch::Matchers::Contains("must be an object with \"en\""));
}

TEST_CASE("milestone 05 part 2 runs in English, Spanish and Chinese, each with its measured gates", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& transformer = resolve_milestone(milestones, "05");
  const MilestonePart& talks = transformer.parts[1];
  CHECK(talks.languages == std::vector<std::string>{"en", "es", "zh"});
  CHECK(transformer.parts[0].languages.empty());  // sequence routing has no language
  for (const std::string language : {"es", "zh"}) {
    const MilestonePart part = talks.in_language(language);
    // Every language is judged on the same measurements; only the values differ.
    CHECK(part.gate.metric == "heldout_margin");
    REQUIRE(part.further_gates.size() == 4);
    CHECK(part.further_gates[0].describe() == "causality_max_change <= 0.0001");
    CHECK(part.further_gates[3].describe() == "gpt_forward_error <= 0.0001");
    CHECK(part.gate.value > 0);
  }
}

TEST_CASE("locked and newly runnable milestones follow module completion", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& perceptron = resolve_milestone(milestones, "01");
  CHECK(missing_modules(perceptron, completed({"01"})) == std::vector<std::string>{"02", "03"});
  CHECK(missing_modules(perceptron, completed({"01", "02", "03"})).empty());

  const auto after_03 = milestones_runnable_after(milestones, "03", completed({"01", "02", "03"}));
  REQUIRE(after_03.size() == 2);
  CHECK(after_03[0]->id == "01");
  CHECK(after_03[1]->id == "02");
  // Completing 02 while 03 is missing makes nothing runnable; completing an unrelated module neither.
  CHECK(milestones_runnable_after(milestones, "02", completed({"01", "02"})).empty());
  CHECK(milestones_runnable_after(milestones, "05", completed({"01", "02", "03", "05"})).empty());
}

TEST_CASE("a completed module whose files changed since completion is named before a milestone runs", "[milestone]") {
  const Milestone m = milestone_from_json_text(kTwoParts, "/x");  // modules 01, 02, 04
  ProgressState progress = completed({"01", "02", "04"});
  progress.modules["01"].fingerprint = "aaa";
  progress.modules["02"].fingerprint = "bbb";
  progress.modules["04"].fingerprint = "ddd";
  progress.modules["03"].fingerprint = "ccc";  // not the milestone's: never asked about
  std::map<std::string, std::string> now = {{"01", "aaa"}, {"02", "b2"}, {"04", "ddd"}};
  std::vector<std::string> asked;
  auto fingerprint_now = [&](const std::string& module) {
    asked.push_back(module);
    return now[module];
  };
  CHECK(modules_changed_since_completion(m, progress, fingerprint_now) == std::vector<std::string>{"02"});
  CHECK(asked == std::vector<std::string>{"01", "02", "04"});
  now["04"] = "d2";
  CHECK(modules_changed_since_completion(m, progress, fingerprint_now) == std::vector<std::string>{"02", "04"});
  // Not completed, or completed before fingerprints were recorded: nothing to compare with.
  progress.modules["02"].completed_at.reset();
  progress.modules["04"].fingerprint.reset();
  CHECK(modules_changed_since_completion(m, progress, fingerprint_now).empty());
}

TEST_CASE("tito's verdict: the gate decides, and a crash or a missing result line fails", "[milestone]") {
  MilestonePart part;
  part.number = 1;
  part.gate = {"accuracy", ">=", 0.95};

  PartVerdict good = judge_part(part, {{1, "accuracy", 0.97}}, "");
  CHECK(good.passed);
  CHECK(good.value == 0.97);
  CHECK(good.message.empty());

  PartVerdict low = judge_part(part, {{1, "accuracy", 0.6}}, "");
  CHECK_FALSE(low.passed);
  CHECK(low.value == 0.6);
  CHECK(low.message == "accuracy = 0.6 does not meet the gate accuracy >= 0.95");

  // The last value for the gate's metric counts; other metrics and other parts are ignored.
  CHECK_FALSE(judge_part(part, {{1, "accuracy", 0.99}, {1, "accuracy", 0.5}}, "").passed);
  CHECK(judge_part(part, {{1, "untrained_accuracy", 0.5}, {1, "accuracy", 0.96}}, "").passed);
  PartVerdict other_part = judge_part(part, {{2, "accuracy", 0.99}}, "");
  CHECK_FALSE(other_part.passed);
  CHECK(other_part.message.find("printed no result for part 1") != std::string::npos);

  PartVerdict silent = judge_part(part, {}, "");
  CHECK_FALSE(silent.passed);
  CHECK_FALSE(silent.value);
  CHECK(silent.message.find(R"(TITO_RESULT {"part":1,"metric":"accuracy","value":...})") != std::string::npos);
  PartVerdict wrong_metric = judge_part(part, {{1, "loss", 0.1}}, "");
  CHECK(wrong_metric.message.find("it reported only loss") != std::string::npos);

  PartVerdict crashed = judge_part(part, {{1, "accuracy", 0.99}}, "it crashed with SIGSEGV");
  CHECK_FALSE(crashed.passed);
  CHECK(crashed.message == "the program did not finish: it crashed with SIGSEGV (after reporting accuracy = 0.99)");
  CHECK_FALSE(judge_part(part, {}, "it ran past its time limit").passed);
}

TEST_CASE("a part with several gates passes only when every gate holds", "[milestone]") {
  const Milestone m = milestone_from_json_text(
      R"({"id":"04","parts":[{"number":1,"program":"cnn.cpp","required_modules":["09"],
         "gates":[{"metric":"accuracy","comparison":">=","value":0.9},
                  {"metric":"min_conv_weight_change","comparison":">=","value":0.25}]}]})",
      "/x");
  const MilestonePart& part = m.parts.at(0);
  CHECK(part.gate.describe() == "accuracy >= 0.9");
  REQUIRE(part.further_gates.size() == 1);
  CHECK(part.describe_gates() == "accuracy >= 0.9 and min_conv_weight_change >= 0.25");

  PartVerdict both = judge_part(part, {{1, "accuracy", 0.93}, {1, "min_conv_weight_change", 0.7}}, "");
  CHECK(both.passed);
  CHECK(both.value == 0.93);  // the headline value is the first gate's
  CHECK(both.measured == "accuracy = 0.93, min_conv_weight_change = 0.7");

  // Accurate, but the convolution never learned (a cut graph trains only the last layer).
  PartVerdict frozen = judge_part(part, {{1, "accuracy", 0.93}, {1, "min_conv_weight_change", 0.0}}, "");
  CHECK_FALSE(frozen.passed);
  CHECK(frozen.value == 0.93);
  CHECK(frozen.message ==
        "min_conv_weight_change = 0 does not meet the gate min_conv_weight_change >= 0.25 (accuracy = 0.93 does)");
  PartVerdict inaccurate = judge_part(part, {{1, "accuracy", 0.5}, {1, "min_conv_weight_change", 0.7}}, "");
  CHECK_FALSE(inaccurate.passed);
  CHECK(inaccurate.message == "accuracy = 0.5 does not meet the gate accuracy >= 0.9 (min_conv_weight_change = 0.7 does)");
  CHECK(inaccurate.failed_gates == std::vector<std::string>{"accuracy"});
  // Every missed gate is named, not only the first: the set of misses points at the broken module.
  PartVerdict neither = judge_part(part, {{1, "accuracy", 0.5}, {1, "min_conv_weight_change", 0.0}}, "");
  CHECK_FALSE(neither.passed);
  CHECK(neither.message == "accuracy = 0.5 does not meet the gate accuracy >= 0.9; "
                           "min_conv_weight_change = 0 does not meet the gate min_conv_weight_change >= 0.25");
  CHECK(neither.failed_gates == std::vector<std::string>{"accuracy", "min_conv_weight_change"});
  CHECK(neither.measured == "accuracy = 0.5, min_conv_weight_change = 0");
  PartVerdict unreported = judge_part(part, {{1, "accuracy", 0.95}}, "");
  CHECK_FALSE(unreported.passed);
  CHECK(unreported.message.find(R"("metric":"min_conv_weight_change")") != std::string::npos);
  CHECK(unreported.failed_gates == std::vector<std::string>{"min_conv_weight_change"});

  // "gate" and "gates" together, or an empty list, are mistakes in the file.
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"04","parts":[{"number":1,"program":"a.cpp","required_modules":[],"gates":[]}]})", "/x"));
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"04","parts":[{"number":1,"program":"a.cpp","required_modules":[],
         "gate":{"metric":"accuracy","comparison":">=","value":0.9},
         "gates":[{"metric":"accuracy","comparison":">=","value":0.9}]}]})",
      "/x"));
}

TEST_CASE("an optional part whose program cannot run here is skipped, a required one fails", "[milestone]") {
  const char* line = R"(TITO_RESULT {"part":3,"skipped":true,"reason":"Fashion-MNIST is not installed: apt-get it"})";
  auto skip = parse_result_line(line);
  REQUIRE(skip);
  CHECK(skip->skipped);
  CHECK(skip->part == 3);
  CHECK(skip->reason == "Fashion-MNIST is not installed: apt-get it");
  // "skipped": false is an ordinary result line; a skip without a reason, or a non-boolean flag, is a bug.
  auto measured = parse_result_line(R"(TITO_RESULT {"part":3,"skipped":false,"metric":"accuracy","value":0.9})");
  REQUIRE(measured);
  CHECK_FALSE(measured->skipped);
  CHECK(measured->value == 0.9);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":3,"skipped":true})"), std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":3,"skipped":true,"reason":""})"), std::invalid_argument);
  CHECK_THROWS_AS(parse_result_line(R"(TITO_RESULT {"part":3,"skipped":"yes","reason":"r"})"), std::invalid_argument);

  MilestonePart optional_part;
  optional_part.number = 3;
  optional_part.required = false;
  optional_part.gate = {"accuracy", ">=", 0.84};
  PartVerdict skipped = judge_part(optional_part, {*skip}, "");
  CHECK(skipped.skipped);
  CHECK_FALSE(skipped.passed);
  CHECK_FALSE(skipped.value);
  CHECK(skipped.message == "Fashion-MNIST is not installed: apt-get it");
  // A skip for another part, a crash, or a measured value all take precedence over skipping.
  CHECK_FALSE(judge_part(optional_part, {ResultLine::skip(2, "elsewhere")}, "").skipped);
  PartVerdict crashed = judge_part(optional_part, {*skip}, "it crashed with SIGSEGV");
  CHECK_FALSE(crashed.skipped);
  CHECK_FALSE(crashed.passed);
  PartVerdict ran = judge_part(optional_part, {*skip, {3, "accuracy", 0.86}}, "");
  CHECK(ran.passed);
  CHECK_FALSE(ran.skipped);

  MilestonePart required_part = optional_part;
  required_part.required = true;
  PartVerdict refused = judge_part(required_part, {*skip}, "");
  CHECK_FALSE(refused.skipped);
  CHECK_FALSE(refused.passed);
  CHECK(refused.message == "part 3 is required but the program skipped it: Fashion-MNIST is not installed: apt-get it");
}

TEST_CASE("a skipped optional part is recorded as skipped and does not block achievement", "[milestone]") {
  ScratchDir scratch;
  const Milestone m = milestone_from_json_text(kTwoParts, scratch.root);  // part 2 is optional
  MilestoneStore store(scratch.root);
  CHECK(store.load().empty());
  PartRecord skipped;
  skipped.skipped = true;
  skipped.metric = "loss";
  skipped.gate = "loss <= 1.2";
  skipped.message = "the data set is not installed";
  skipped.at = "2026-01-01T10:00:00Z";
  CHECK_FALSE(store.record_part(m, 2, skipped));
  CHECK(store.record_part(m, 1, run_result(true, 0.95, "2026-01-01T10:01:00Z")));
  MilestoneStore reloaded(scratch.root);
  CHECK(reloaded.load().empty());
  const PartRecord& part2 = reloaded.find("07")->parts.at(2);
  CHECK(part2.skipped);
  CHECK_FALSE(part2.passed);
  CHECK_FALSE(part2.passed_at);
  CHECK(part2.message == "the data set is not installed");
  CHECK(milestone_records_to_json(reloaded.records())["milestones"]["07"]["parts"]["2"]["status"] == "skipped");
  CHECK(is_achieved(m, reloaded.find("07")));
}

TEST_CASE("milestone results are recorded per part, and achievement needs every required part", "[milestone]") {
  ScratchDir scratch;
  const Milestone m = milestone_from_json_text(kTwoParts, scratch.root);
  MilestoneStore store(scratch.root);
  CHECK(store.load().empty());
  CHECK(store.find("07") == nullptr);
  CHECK_FALSE(is_achieved(m, store.find("07")));

  // The optional part alone does not achieve it; the required part does.
  CHECK_FALSE(store.record_part(m, 2, run_result(true, 1.0, "2026-01-01T10:00:00Z")));
  CHECK_FALSE(is_achieved(m, store.find("07")));
  CHECK_FALSE(store.record_part(m, 1, run_result(false, 0.5, "2026-01-01T10:05:00Z")));
  CHECK(store.find("07")->parts.at(1).passed_at == std::nullopt);
  CHECK(store.record_part(m, 1, run_result(true, 0.93, "2026-01-01T10:10:00Z")));
  CHECK(is_achieved(m, store.find("07")));
  CHECK(store.find("07")->achieved_at == "2026-01-01T10:10:00Z");

  // A later failure is recorded as the latest run but does not undo the achievement.
  CHECK_FALSE(store.record_part(m, 1, run_result(false, 0.4, "2026-01-02T09:00:00Z")));
  MilestoneStore reloaded(scratch.root);
  CHECK(reloaded.load().empty());
  const MilestoneRecord* record = reloaded.find("07");
  REQUIRE(record != nullptr);
  const PartRecord& part1 = record->parts.at(1);
  CHECK_FALSE(part1.passed);
  CHECK(part1.value == 0.4);
  CHECK(part1.message == "too low");
  CHECK(part1.at == "2026-01-02T09:00:00Z");
  CHECK(part1.passed_at == "2026-01-01T10:10:00Z");
  CHECK(part1.seconds == 1.5);
  CHECK(record->achieved_at == "2026-01-01T10:10:00Z");
  CHECK(is_achieved(m, record));

  // Written atomically: no temporary files are left beside it.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(scratch.root)) files += entry.is_regular_file() ? 1 : 0;
  CHECK(files == 1);
}

TEST_CASE("a part's record keeps whose code each module ran, and says so", "[milestone]") {
  ScratchDir scratch;
  const Milestone m = milestone_from_json_text(kTwoParts, scratch.root);
  {
    MilestoneStore store(scratch.root);
    store.load();
    PartRecord run = run_result(true, 0.93, "2026-01-01T10:10:00Z");
    run.learner_modules = {"01", "02"};
    run.reference_modules = {"03", "04", "05"};
    store.record_part(m, 1, run);
    store.record_part(m, 2, run_result(true, 1.0, "2026-01-01T10:11:00Z"));  // as written before code was kept
  }
  MilestoneStore reloaded(scratch.root);
  CHECK(reloaded.load().empty());
  const PartRecord& part1 = reloaded.find("07")->parts.at(1);
  CHECK(part1.learner_modules == std::vector<std::string>{"01", "02"});
  CHECK(part1.reference_modules == std::vector<std::string>{"03", "04", "05"});
  CHECK(reloaded.find("07")->parts.at(2).reference_modules.empty());

  CHECK(tito::code_summary(part1.learner_modules, part1.reference_modules) ==
        "on your code for modules 01, 02 and the reference solution for modules 03, 04, 05");
  CHECK(tito::code_summary({"01", "02", "03"}, {}) == "on code you wrote yourself (modules 01, 02, 03)");
  CHECK(tito::code_summary({}, {"01"}) == "on the reference solution only (module 01), none of your code");
}

TEST_CASE("a damaged milestones.json is set aside and the record starts empty", "[milestone]") {
  ScratchDir scratch;
  {
    std::ofstream out(scratch.root / "milestones.json");
    out << "{\"version\": 1, \"milestones\": {\"01\": {\"parts\": {\"1\": {\"status\": \"maybe\"";
  }
  MilestoneStore store(scratch.root);
  const std::string notice = store.load();
  CHECK(notice.find("milestones.json is not valid JSON") != std::string::npos);
  CHECK(store.records().milestones.empty());
  CHECK_FALSE(fs::exists(scratch.root / "milestones.json"));
  int aside = 0;
  for (const auto& entry : fs::directory_iterator(scratch.root))
    aside += entry.path().filename().string().rfind("milestones.json.corrupt-", 0) == 0 ? 1 : 0;
  CHECK(aside == 1);

  CHECK_THROWS(milestone_records_from_json(nlohmann::json::parse(
      R"({"version":1,"milestones":{"01":{"parts":{"1":{"status":"maybe","at":"x"}}}}})")));
  CHECK_THROWS(milestone_records_from_json(nlohmann::json::parse(R"({"version":2,"milestones":{}})")));
}

TEST_CASE("run_program builds a program, streams its output and reports how it ended", "[milestone][run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  ScratchDir scratch;
  const fs::path source = scratch.root / "program.cpp";
  write_file_atomically(source, R"(#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tinytorch/torch.h>
int main(int argc, char** argv) {
  torch::Tensor t = torch::ones({2, 2});
  std::printf("sum %g\n", t.sum().item<double>());
  std::printf("out %s\n", std::getenv("TITO_OUTPUT_DIR"));
  std::printf("TITO_RESULT {\"part\":1,\"metric\":\"accuracy\",\"value\":0.5}\n");
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "crash") == 0) std::abort();
  // volatile: an empty endless loop is undefined behaviour, and Clang removes it.
  volatile bool hang = argc > 1 && std::strcmp(argv[1], "hang") == 0;
  while (hang) {}
  std::printf("no newline at the end");
  return 0;
})");
  ProgramRequest request;
  request.sources = {source};
  request.build_dir = scratch.root / "build";
  request.binary_name = "part-1";
  request.env = {{"TITO_OUTPUT_DIR", "/somewhere"}};
  request.time_limit_s = 20;
  std::vector<std::string> lines;
  std::vector<std::string> steps;
  ProgramOutcome outcome = run_program(
      toolchain, request, [&](const std::string& step) { steps.push_back(step); },
      [&](const std::string& line) { lines.push_back(line); });
  INFO(outcome.build_log);
  REQUIRE(outcome.build_ok);
  CHECK(outcome.exited_cleanly());
  CHECK(outcome.failure().empty());
  CHECK_FALSE(steps.empty());
  CHECK(lines == std::vector<std::string>{"sum 4", "out /somewhere", R"(TITO_RESULT {"part":1,"metric":"accuracy","value":0.5})",
                                          "no newline at the end"});

  request.args = {"crash"};
  lines.clear();
  outcome = run_program(toolchain, request, {}, [&](const std::string& line) { lines.push_back(line); });
  CHECK_FALSE(outcome.exited_cleanly());
  CHECK(outcome.failure().find("crashed with SIGABRT") != std::string::npos);
  CHECK(lines.size() == 3);  // what it printed before crashing still arrives

  request.args = {"hang"};
  request.time_limit_s = 1;
  outcome = run_program(toolchain, request);
  CHECK(outcome.timed_out);
  CHECK(outcome.failure().find("time limit") != std::string::npos);

  // A stop request (Ctrl-C) ends it long before its time limit.
  request.time_limit_s = 30;
  outcome = run_program(toolchain, request, {}, {}, [] { return true; });
  CHECK(outcome.stopped);
  CHECK(outcome.run_seconds < 5);
  CHECK(outcome.failure() == "it was interrupted");
}

TEST_CASE("run_program reports a compile error without running anything", "[milestone][run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  ScratchDir scratch;
  write_file_atomically(scratch.root / "broken.cpp", "int main() { return undeclared_name; }\n");
  ProgramRequest request;
  request.sources = {scratch.root / "broken.cpp"};
  request.build_dir = scratch.root / "build";
  ProgramOutcome outcome = run_program(toolchain, request);
  CHECK_FALSE(outcome.build_ok);
  CHECK_FALSE(outcome.started);
  CHECK(outcome.build_log.find("undeclared_name") != std::string::npos);
  CHECK(outcome.failure() == "it did not compile");
}

TEST_CASE("milestone 06 is written: two parts, every gate on a measured value", "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& mlperf = resolve_milestone(milestones, "olympics");
  CHECK(mlperf.id == "06");
  CHECK(mlperf.implemented());
  CHECK_FALSE(mlperf.story.empty());
  REQUIRE(mlperf.parts.size() == 2);
  CHECK(mlperf.parts[0].describe_gates() ==
        "baseline_accuracy >= 0.85 and int8_accuracy_drop <= 0.01 and int8_size_ratio >= 3.5 and "
        "int8_latency_speedup > 1 and int8_welch_p_value < 0.05 and sparsity_deviation <= 0.01 and "
        "matmul_max_difference <= 0.001 and matmul_speedup >= 10 and report_files >= 2 and "
        "quantized_linear_error <= 0.0001 and pruning_rank_overlap <= 0 and linear_forward_error <= 1e-05 and "
        "linear_backward_error <= 1e-05 and peak_roof_error <= 1e-05 and latency_statistics_error <= 1e-06 and "
        "latency_welch_error <= 1e-06 and pareto_frontier_errors <= 0 and init_bound_error <= 0.05 and "
        "log_softmax_error <= 1e-05 and cross_entropy_error <= 1e-05 and adam_step_error <= 1e-05 and "
        "sampler_reshuffles == 1");
  CHECK(mlperf.parts[1].describe_gates() ==
        "max_logit_difference <= 0.0001 and kv_cache_speedup >= 5 and kv_cache_bytes_error <= 0 and "
        "latency_statistics_error <= 1e-06 and gpt_forward_error <= 0.0001 and greedy_tokens_agreeing >= 0.9 and "
        "init_bound_error <= 0.05");
  for (const auto& part : mlperf.parts) CHECK(part.required);
}

TEST_CASE("arguments after -- are checked against the part's declared arguments before anything runs", "[milestone]") {
  const Milestone milestone = milestone_from_json_text(kTwoParts, "/course/milestones/07_1999_demo");
  const MilestonePart& takes_none = milestone.parts[0];  // part 1 declares no arguments
  const MilestonePart& takes_some = milestone.parts[1];  // part 2: --steps N, --verbose, DIR
  REQUIRE(takes_some.arguments == std::vector<std::string>{"--steps N", "--verbose", "DIR"});
  REQUIRE(takes_none.arguments.empty());

  const auto refusal = [&](const MilestonePart& part, std::vector<std::string> args) {
    try {
      check_program_arguments(milestone, part, args);
    } catch (const UserError& error) {
      CHECK(error.exit_code() == kExitUsage);
      return std::string(error.what()) + " | fix: " + error.fix();
    }
    return std::string();
  };
  CHECK(refusal(takes_none, {}).empty());
  CHECK(refusal(takes_some, {"--steps", "40", "--verbose", "/data"}).empty());
  CHECK(refusal(takes_some, {"--steps=40"}).empty());

  // The bug this guards: `--part 2 -- --steps 40` used to run the program's default 1600 steps.
  const std::string ignored = refusal(takes_none, {"--steps", "40"});
  CHECK_THAT(ignored, Catch::Contains("milestone 07 part 1 takes no arguments after --, so '--steps 40' would be ignored"));
  CHECK_THAT(ignored, Catch::Contains("fix: tito milestone run 07 --part 1"));
  const std::string unknown = refusal(takes_some, {"--stepz", "40"});
  CHECK_THAT(unknown, Catch::Contains("has no option '--stepz': it takes --steps N, --verbose, DIR"));
  CHECK_THAT(unknown, Catch::Contains("fix: tito milestone run 07 --part 2 -- --steps N"));
  CHECK_THAT(refusal(takes_some, {"--steps"}), Catch::Contains("--steps needs a value"));
  CHECK_THAT(refusal(takes_some, {"--steps", "--verbose"}), Catch::Contains("--steps needs a value"));
  CHECK_THAT(refusal(takes_some, {"a", "b"}), Catch::Contains("does not take 'b'"));
  CHECK_THAT(refusal(takes_some, {"--verbose=yes"}), Catch::Contains("--verbose takes no value"));
}

TEST_CASE("the knockout table names each variant's failing gates and counts the findings", "[milestone]") {
  // Timings differ between any two runs: they cannot tell whether a variant changed what a part computes.
  CHECK(measures_time("training_seconds"));
  CHECK(measures_time("tokens_per_second"));
  CHECK(measures_time("kv_cache_speedup"));
  CHECK(measures_time("int8_welch_p_value"));
  CHECK(measures_time("cached_ms"));
  CHECK(measures_time("fp32_median_latency_us"));
  CHECK_FALSE(measures_time("accuracy"));
  CHECK_FALSE(measures_time("causality_max_change"));
  CHECK_FALSE(measures_time("max_logit_difference"));

  KnockoutRun reference;
  reference.milestone = "05";
  reference.part = 1;
  reference.outcome = KnockoutOutcome::Reference;
  reference.verdict.passed = true;
  reference.verdict.measured = "reversal_accuracy = 1";
  KnockoutRun caught = reference;
  caught.module = "12";
  caught.variant = "softmax-over-queries";
  caught.outcome = KnockoutOutcome::Caught;
  caught.verdict.passed = false;
  caught.verdict.failed_gates = {"attention_row_sum_error", "causality_max_change"};
  KnockoutRun crashed = caught;
  crashed.variant = "split-heads-interleaved";
  crashed.verdict.failed_gates.clear();
  crashed.problem = "it crashed with SIGSEGV";
  KnockoutRun finding = caught;
  finding.variant = "scores-not-scaled";
  finding.outcome = KnockoutOutcome::NotCaught;
  finding.verdict.passed = true;
  finding.verdict.measured = "reversal_accuracy = 0.99";
  KnockoutRun unused = finding;
  unused.variant = "plain-softmax-gives-nan";
  unused.outcome = KnockoutOutcome::NoEffect;

  CHECK(what_failed(reference) == "passes (reversal_accuracy = 1)");
  CHECK(what_failed(caught) == "attention_row_sum_error, causality_max_change");
  CHECK(what_failed(crashed) == "did not finish: it crashed with SIGSEGV");
  CHECK(what_failed(finding) == "PASSES EVERY GATE (reversal_accuracy = 0.99)");
  CHECK(what_failed(unused) == "no effect: every measurement equals the reference's");
  const std::string table = knockout_table({reference, caught, crashed, finding, unused});
  CHECK_THAT(table, Catch::Contains("05/1   12 softmax-over-queries"));
  CHECK_THAT(table, Catch::Contains("attention_row_sum_error, causality_max_change"));
  CHECK_THAT(table, Catch::Contains("4 variant runs: 2 caught by a gate, 1 pass every gate (findings: add a probe to "
                                    "the gate), 1 without effect on the part"));
}

TEST_CASE("milestone 07 part 1 is written: module 17's kernels against their definitions, errors gated as allclose",
          "[milestone]") {
  const auto milestones = load_milestones(TITO_SOURCE_DIR);
  const Milestone& kernels = resolve_milestone(milestones, "7");
  CHECK(kernels.id == "07");
  CHECK(kernels.year == 2024);
  CHECK(kernels.implemented());
  CHECK_FALSE(kernels.story.empty());
  REQUIRE(kernels.part(1) != nullptr);
  const MilestonePart& part = *kernels.part(1);
  CHECK(part.required);
  CHECK(part.required_modules ==
        std::vector<std::string>{"01", "02", "03", "04", "05", "06", "07", "08", "09", "17"});
  // The errors are allclose's share of its tolerance (<= 1); the GEMM's speed-up is gated as milestone 06 gates it.
  CHECK(part.describe_gates() ==
        "matmul_error <= 1 and gemm_writes_outside_c <= 0 and conv_error <= 1 and conv_backward_error <= 1 and "
        "adjoint_error <= 1e-05 and gelu_error <= 1 and elementwise_error <= 1 and matmul_speedup >= 5");
}

TEST_CASE("optional parts say how long they take; a negative duration is a mistake in the file", "[milestone]") {
  // `tito milestone run NN` leaves optional parts out and names them with this figure; run, they say it first.
  for (const Milestone& m : load_milestones(TITO_SOURCE_DIR))
    for (const MilestonePart& part : m.parts)
      if (!part.required) {
        INFO("milestone " << m.id << " part " << part.number);
        CHECK(part.expected_minutes >= 1);
      }
  const Milestone parsed = milestone_from_json_text(
      R"({"id":"07","parts":[{"number":1,"program":"a.cpp","required":false,"required_modules":[],"expected_minutes":8,
         "gate":{"metric":"accuracy","comparison":">=","value":0.9}}]})",
      "/x");
  CHECK(parsed.parts[0].expected_minutes == 8);
  CHECK_THROWS(milestone_from_json_text(
      R"({"id":"07","parts":[{"number":1,"program":"a.cpp","required_modules":[],"expected_minutes":-1,
         "gate":{"metric":"accuracy","comparison":">=","value":0.9}}]})",
      "/x"));
}
