// The Torch Olympics (module 20) in tito: the submission schema check with its messages, the rules
// re-applied to measurements, claims against measurements, and a class's ranking.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/olympics.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tito;
using tito_test::ScratchDir;

namespace {

// What olympics::submission_json writes for an honest int8 entry.
json good_submission() {
  const json metrics_base = {{"accuracy", 0.95},     {"latency_ms_median", 0.050}, {"latency_ms_p90", 0.060},
                             {"latency_ms_mean", 0.055}, {"latency_runs", 100},      {"memory_bytes", 38440},
                             {"parameter_count", 9610}};
  json metrics_opt = metrics_base;
  metrics_opt["accuracy"] = 0.945;
  metrics_opt["latency_ms_median"] = 0.040;
  metrics_opt["latency_ms_p90"] = 0.050;
  metrics_opt["memory_bytes"] = 12784;
  return {{"olympics_version", "1.0"},
          {"submission_type", "torch_olympics"},
          {"timestamp", "2026-12-04T14:23:41Z"},
          {"learner", "ada"},
          {"model", {{"description", "64-128-10 MLP, int8"}, {"techniques", {"quantization"}}}},
          {"events", {"latency", "memory", "accuracy", "all_round"}},
          {"claimed_metrics", {{"baseline", metrics_base}, {"optimized", metrics_opt}}},
          {"improvements", {{"speedup", 1.25}, {"compression_ratio", 3.0}, {"accuracy_delta", -0.005}}},
          {"system_info", {{"cpu", "Some CPU"}, {"compiler", "gcc 12.2.0"}, {"os", "Linux 6.1.0 x86_64"}, {"threads", 2}}}};
}

const MeasuredModel kBaseline{0.95, 0.052, 0.061, 38464};

// A verified record for `learner` whose optimized model claims exactly what was measured.
json claimed_record(const OlympicsRules& rules, const std::string& learner, const MeasuredModel& optimized) {
  json s = good_submission();
  s["learner"] = learner;
  s["claimed_metrics"]["optimized"]["accuracy"] = optimized.accuracy;
  s["claimed_metrics"]["optimized"]["latency_ms_median"] = optimized.latency_ms_median;
  s["claimed_metrics"]["optimized"]["latency_ms_p90"] = optimized.latency_ms_p90;
  s["claimed_metrics"]["optimized"]["memory_bytes"] = optimized.memory_bytes;
  return verified_record(s, kBaseline, optimized, check_claims(rules, s, kBaseline, optimized), rules);
}

const MeasuredModel kOptimized{0.945, 0.041, 0.049, 12800};

bool mentions(const std::vector<SchemaProblem>& problems, const std::string& path, const std::string& text) {
  for (const auto& p : problems)
    if (p.path == path && (p.problem + " fix: " + p.fix).find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("olympics: the schema accepts what submission_json writes", "[olympics]") {
  const json schema = load_schema(TITO_SOURCE_DIR);
  CHECK(validate_json(good_submission(), schema).empty());
  CHECK(validate_submission_text(good_submission().dump(2), schema).empty());
}

TEST_CASE("olympics: schema errors name the field, the problem and the fix", "[olympics]") {
  const json schema = load_schema(TITO_SOURCE_DIR);
  json s = good_submission();
  s["claimed_metrics"]["optimized"]["accuracy"] = 93;          // a percentage, not a fraction
  s["claimed_metrics"]["baseline"].erase("memory_bytes");      // missing
  s["events"] = {"latency", "speed"};                            // not an event
  s["system_info"]["threads"] = 1.5;                             // not an integer
  s["modle"] = "typo";                                           // unknown field
  const auto problems = validate_json(s, schema);
  CHECK(mentions(problems, "claimed_metrics.optimized.accuracy", "above the maximum 1"));
  CHECK(mentions(problems, "claimed_metrics.optimized.accuracy", "0.93, not 93"));
  CHECK(mentions(problems, "claimed_metrics.baseline.memory_bytes", "is missing"));
  CHECK(mentions(problems, "events[1]", "\"speed\""));
  CHECK(mentions(problems, "events[1]", "all_round"));
  CHECK(mentions(problems, "system_info.threads", "must be an integer"));
  CHECK(mentions(problems, "modle", "the fields here are"));
  CHECK(problems.size() == 5);  // one per broken field

  const auto malformed = validate_submission_text("{\"learner\": \"ada\",", schema);
  REQUIRE(malformed.size() == 1);
  CHECK(malformed[0].problem.find("not valid JSON") != std::string::npos);

  json twice = good_submission();
  twice["events"] = {"memory", "memory"};
  CHECK(mentions(validate_json(twice, schema), "events", "twice"));
}

TEST_CASE("olympics: the rules file and the events earned at their thresholds", "[olympics]") {
  const OlympicsRules rules = load_rules(TITO_SOURCE_DIR);
  CHECK(rules.min_accuracy == 0.85);
  CHECK(rules.max_latency_ms == 100);
  CHECK(rules.max_memory_bytes == 10485760);
  const MeasuredModel base{0.90, 2.0, 3.0, 40000};
  CHECK(earned_events(rules, {0.85, 1.0, 1.5, 1000}, base) == std::vector<std::string>{"latency", "memory", "accuracy"});
  std::map<std::string, std::string> why;
  CHECK(earned_events(rules, {0.80, 100.0, 150.0, 1000}, base, &why).empty());
  CHECK(why["latency"].find("accuracy 0.8000 is below the minimum 0.8500") != std::string::npos);
  CHECK(why["accuracy"].find("median latency 100 ms is not below 100 ms") != std::string::npos);
  CHECK(earned_events(rules, {0.895, 1.0, 1.5, 1000}, base) ==
        std::vector<std::string>{"latency", "memory", "accuracy", "all_round"});
  CHECK(olympic_score("all_round", {0.90, 0.25, 0.3, 40000}, {0.90, 2.0, 3.0, 40000}) == Approx(2.0));  // cbrt(8)
  CHECK(olympic_lower_is_better("memory"));
  CHECK_FALSE(olympic_lower_is_better("accuracy"));
}

TEST_CASE("olympics: honest claims pass, made-up ones are rejected naming the field", "[olympics]") {
  const OlympicsRules rules = load_rules(TITO_SOURCE_DIR);
  for (const auto& check : check_claims(rules, good_submission(), kBaseline, kOptimized)) {
    INFO(check.field << ": " << check.why);
    CHECK(check.ok);
  }
  auto failing = [&](const json& submission) {
    std::vector<std::string> fields;
    for (const auto& check : check_claims(rules, submission, kBaseline, kOptimized))
      if (!check.ok) fields.push_back(check.field + ": " + check.why);
    return fields;
  };
  json fast = good_submission();
  fast["claimed_metrics"]["optimized"]["latency_ms_median"] = 0.004;  // 10x faster than measured
  auto fields = failing(fast);
  REQUIRE(fields.size() == 1);
  CHECK(fields[0].find("claimed_metrics.optimized.latency_ms_median: claims 0.004 ms, tito measured 0.041 ms") == 0);

  json small = good_submission();
  small["claimed_metrics"]["optimized"]["memory_bytes"] = 3200;  // a quarter of what the model holds
  fields = failing(small);
  REQUIRE(fields.size() == 1);
  CHECK(fields[0].find("claimed_metrics.optimized.memory_bytes") == 0);
  CHECK(fields[0].find("zero_grad") != std::string::npos);

  json accurate = good_submission();
  accurate["claimed_metrics"]["baseline"]["accuracy"] = 0.97;
  CHECK(failing(accurate).size() == 1);

  // An event the measured figures do not earn: the optimised model measured 3 points below the baseline.
  const MeasuredModel worse{0.92, 0.041, 0.049, 12800};
  json claims = good_submission();
  claims["claimed_metrics"]["optimized"]["accuracy"] = 0.92;
  std::vector<std::string> rejected;
  for (const auto& check : check_claims(rules, claims, kBaseline, worse))
    if (!check.ok) rejected.push_back(check.field + " " + check.claimed + ": " + check.why);
  REQUIRE(rejected.size() == 1);
  CHECK(rejected[0].find("events all_round: the all_round event is not earned") == 0);
  const json record = verified_record(claims, kBaseline, worse, check_claims(rules, claims, kBaseline, worse), rules);
  CHECK_FALSE(record["verified"].get<bool>());
  CHECK(record["events_verified"] == json({"latency", "memory", "accuracy"}));
}

TEST_CASE("olympics: rank orders verified records per event and leaves the rest out", "[olympics]") {
  const OlympicsRules rules = load_rules(TITO_SOURCE_DIR);
  ScratchDir scratch;
  auto write = [&](const std::string& name, const json& record) {
    std::ofstream(scratch.root / name) << record.dump(2);
  };
  auto record_of = [&](const std::string& learner, const MeasuredModel& optimized) {
    json record = claimed_record(rules, learner, optimized);
    mark_origins(record, {{"01", "learner", ""}, {"20", "learner", ""}});
    return record;
  };
  write("ada.verified.json", record_of("ada", {0.95, 0.030, 0.040, 12800}));
  write("bob.verified.json", record_of("bob", {0.96, 0.045, 0.050, 9000}));
  fs::create_directories(scratch.root / "late");
  write("late/cy.verified.json", record_of("cy", {0.945, 0.030, 0.035, 20000}));  // ties ada on latency
  json forged = record_of("eve", {0.99, 0.001, 0.002, 10});
  forged["verified"] = false;
  write("eve.verified.json", forged);
  std::ofstream(scratch.root / "notes.verified.json") << "{\"hello\": 1}";
  std::ofstream(scratch.root / "submission.json") << "{}";  // not a record's name: not read

  const Ranking ranking = rank_records(scratch.root, rules);
  CHECK(ranking.verified == 3);
  REQUIRE(ranking.by_event.at("latency").size() == 3);
  CHECK(ranking.by_event.at("latency")[0].learner == "ada");  // tie at 0.030 ms: by name
  CHECK(ranking.by_event.at("latency")[1].learner == "cy");
  CHECK(ranking.by_event.at("memory")[0].learner == "bob");
  CHECK(ranking.by_event.at("accuracy")[0].learner == "bob");
  CHECK(ranking.skipped.size() == 2);
  CHECK(ranking.warnings.empty());
  CHECK(ranking.reference_runs.empty());
  const std::string markdown = ranking_markdown(ranking);
  CHECK(markdown.find("## latency (lowest first)") != std::string::npos);
  CHECK(markdown.find("| 1 | ada | 0.03 ms |") != std::string::npos);
  CHECK(markdown.find("rejected") != std::string::npos);
  const std::string csv = ranking_csv(ranking);
  CHECK(csv.rfind("event,rank,learner,score,model,note\n", 0) == 0);
  CHECK(csv.find("memory,1,\"bob\",9000,") != std::string::npos);
  CHECK(markdown.find("not the learner's code") == std::string::npos);  // no entry ran reference code
}

TEST_CASE("olympics: a reference run is never ranked, a copied module is labelled, an old record warned of", "[olympics]") {
  const OlympicsRules rules = load_rules(TITO_SOURCE_DIR);
  ScratchDir scratch;
  auto write = [&](const std::string& name, const json& record) { std::ofstream(scratch.root / name) << record.dump(2); };
  auto record_of = [&](const std::string& learner, const MeasuredModel& optimized) {
    return claimed_record(rules, learner, optimized);
  };
  // The fastest entry is the reference's: it must not take first place from the learners.
  json reference = record_of("ada", {0.95, 0.010, 0.012, 12800});
  mark_origins(reference, {{"01", "reference", "reference_run"}, {"20", "reference", "reference_run"}});
  CHECK(reference["origin"] == "reference");
  CHECK(reference["modules"]["20"] == json({{"origin", "reference"}, {"reason", "reference_run"}}));
  write("ada.verified.json", reference);
  // A learner whose module 20 is the reference copy: the entry is the reference's, not ranked either.
  json copied_entry = record_of("mo", {0.95, 0.011, 0.012, 12800});
  mark_origins(copied_entry, {{"19", "learner", ""}, {"20", "reference", "copied_reference_files"}});
  write("mo.verified.json", copied_entry);
  // Own module 20, but module 03 copied and 18 not completed: ranked, labelled.
  json bob = record_of("bob", {0.96, 0.045, 0.050, 9000});
  mark_origins(bob, {{"01", "learner", ""},
                     {"03", "reference", "copied_reference_files"},
                     {"18", "reference", "not_completed"},
                     {"20", "learner", ""}});
  CHECK(bob["origin"] == "learner");
  CHECK(reference_code_note(bob) == "reference code in module 03 (copied reference files); module 18 (not completed)");
  write("bob.verified.json", bob);
  json cy = record_of("cy", {0.945, 0.030, 0.035, 20000});
  mark_origins(cy, {{"01", "learner", ""}, {"20", "learner", ""}});
  CHECK(reference_code_note(cy).empty());
  write("cy.verified.json", cy);
  write("old.verified.json", record_of("old", {0.95, 0.040, 0.045, 12800}));  // no origin: from an older tito
  json odd = record_of("odd", {0.95, 0.040, 0.045, 12800});
  odd["origin"] = "borrowed";
  write("odd.verified.json", odd);

  const Ranking ranking = rank_records(scratch.root, rules);
  CHECK(ranking.verified == 3);  // bob, cy, old
  std::vector<std::string> latency;
  for (const auto& entry : ranking.by_event.at("latency")) latency.push_back(entry.learner);
  CHECK(latency == std::vector<std::string>{"cy", "old", "bob"});
  for (const auto& [event, entries] : ranking.by_event)
    for (const auto& entry : entries) {
      INFO(event << ": " << entry.learner);
      CHECK(entry.learner != "ada");
      CHECK(entry.learner != "mo");
    }
  REQUIRE(ranking.reference_runs.size() == 2);
  CHECK(ranking.reference_runs[0].learner == "ada");
  CHECK(ranking.reference_runs[1].learner == "mo");
  CHECK(ranking.reference_runs[0].scores.front() == std::make_pair(std::string("latency"), 0.010));
  REQUIRE(ranking.warnings.size() == 1);
  CHECK(ranking.warnings[0].find("old.verified.json: no \"origin\"") != std::string::npos);
  REQUIRE(ranking.skipped.size() == 1);
  CHECK(ranking.skipped[0].find("odd.verified.json: its \"origin\" is neither") != std::string::npos);

  const std::string markdown = ranking_markdown(ranking);
  CHECK(markdown.find("# Torch Olympics: 3 verified submissions\n\n2 reference runs listed apart below, not ranked.") == 0);
  CHECK(markdown.find("| 1 | cy | 0.03 ms |") != std::string::npos);
  CHECK(markdown.find("| 3 | bob | 0.045 ms | 64-128-10 MLP, int8 | reference code in module 03 (copied reference files); "
                      "module 18 (not completed) |") != std::string::npos);
  const auto reference_section = markdown.find("## Reference runs (not ranked)");
  REQUIRE(reference_section != std::string::npos);
  CHECK(markdown.find("| ada | latency | 0.01 ms |", reference_section) != std::string::npos);
  CHECK(markdown.find("| ada |") > reference_section);  // nowhere in the ranked tables
  CHECK(markdown.find("Warnings (ranked all the same):\n- ") != std::string::npos);

  const std::string csv = ranking_csv(ranking);
  CHECK(csv.find("latency,1,\"cy\",") != std::string::npos);
  CHECK(csv.find("latency,3,\"bob\",0.044999999999999998,\"64-128-10 MLP, int8\",\"reference code in module 03") !=
        std::string::npos);
  CHECK(csv.find("latency,not ranked,\"ada\",0.01,\"64-128-10 MLP, int8\",\"reference run") != std::string::npos);
  CHECK(csv.find(",1,\"ada\"") == std::string::npos);
  CHECK(csv.find(",1,\"mo\"") == std::string::npos);
}
