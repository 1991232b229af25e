// Module 20's given parts (framework/src/20_capstone/olympics.cpp): the events' names and ranking
// direction, system_info, and submission_json / save_submission (the schema's shape; tito's
// `olympics validate` checks the same text against curriculum/20_capstone/submission.schema.json in
// tests/e2e/olympics_capstone.sh).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <random>
#include <fstream>
#include <sstream>
#include <string>

#include <tinytorch/olympics.h>

#include "test_helpers.h"

namespace olympics = torch::olympics;

TEST_CASE("olympics: event names round-trip, an unknown name lists the four", "[olympics]") {
  CHECK(olympics::all_events().size() == 4);
  for (olympics::Event event : olympics::all_events()) CHECK(olympics::event_from_name(olympics::event_name(event)) == event);
  CHECK(olympics::event_name(olympics::Event::kAllRound) == "all_round");
  CHECK_THROWS_WITH(olympics::event_from_name("speed"),
                    Catch::Contains("there is no event \"speed\"") && Catch::Contains("latency, memory, accuracy and all_round"));
  CHECK(olympics::lower_is_better(olympics::Event::kMemory));
  CHECK_FALSE(olympics::lower_is_better(olympics::Event::kAccuracy));
}

TEST_CASE("olympics: system_info describes the machine", "[olympics]") {
  const olympics::SystemInfo info = olympics::system_info();
  CHECK_FALSE(info.cpu.empty());
  CHECK_FALSE(info.compiler.empty());
  CHECK_FALSE(info.os.empty());
  CHECK(info.threads >= 1);
}

TEST_CASE("olympics: submission_json writes every field, escaped, and save_submission names a bad path", "[olympics]") {
  olympics::Submission s;
  s.learner = "a \"quoted\" name";
  s.model_description = "MLP\nint8";
  s.techniques = {"quantization", "pruning"};
  s.baseline.accuracy = 0.5;
  s.baseline.latency_ms_median = 2;
  s.baseline.memory_bytes = 40000;
  s.optimized.accuracy = 0.25;
  s.optimized.memory_bytes = 10000;
  s.improvements.speedup = 4;
  s.events = {"memory"};
  s.system = olympics::system_info();
  s.timestamp = "2026-12-04T14:23:41Z";
  const std::string json = olympics::submission_json(s);
  for (const char* field : {"\"olympics_version\": \"1.0\"", "\"submission_type\": \"torch_olympics\"",
                            "\"learner\": \"a \\\"quoted\\\" name\"", "\"description\": \"MLP\\nint8\"",
                            "\"techniques\": [\"quantization\", \"pruning\"]", "\"events\": [\"memory\"]",
                            "\"accuracy\": 0.25", "\"memory_bytes\": 40000", "\"speedup\": 4", "\"threads\": "})
    CHECK_THAT(json, Catch::Contains(field));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("olympics_submission_" + std::to_string(std::random_device{}()) + ".json")).string();
  olympics::save_submission(s, path);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == json);
  std::remove(path.c_str());
  CHECK_THROWS_WITH(olympics::save_submission(s, "/nonexistent-folder/submission.json"),
                    Catch::Contains("/nonexistent-folder/submission.json") && Catch::Contains("folder exists"));
}
