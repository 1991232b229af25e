#include "run/test_events.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace tito {

std::vector<ListedCase> parse_case_list(const std::string& program_output) {
  // Learner code may print during static initialisation, so look for our line among others.
  std::istringstream lines(program_output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("{\"cases\"", 0) != 0) continue;
    auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) continue;
    std::vector<ListedCase> cases;
    for (const auto& item : json.at("cases")) {
      ListedCase listed{item.value("name", ""), item.value("points", 0), item.value("hidden", false), ""};
      // Catch2 lists the tags without brackets; tito writes them as the sources do: "[points=4][measure]".
      if (item.contains("tags") && item["tags"].is_array())
        for (const auto& tag : item["tags"])
          if (tag.is_string()) listed.tags += "[" + tag.get<std::string>() + "]";
      cases.push_back(listed);
    }
    return cases;
  }
  throw std::runtime_error("the test program did not list its test cases (--tito-list)");
}

RunEvents read_events_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_events_text(text.str());
}

RunEvents parse_events_text(const std::string& text) {
  RunEvents run;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object()) continue;
    std::string event = json.value("event", "");
    if (event == "case_start") {
      CaseEvents c;
      c.name = json.value("name", "");
      c.points = json.value("points", 0);
      c.output_offset = json.value("output_offset", -1L);
      run.cases.push_back(c);
    } else if (event == "assertion_failed" && !run.cases.empty()) {
      FailureEvent f;
      f.kind = json.value("kind", "assertion");
      f.failure.file = json.value("file", "");
      f.failure.line = json.value("line", 0);
      f.failure.expression = json.value("expression", "");
      f.failure.actual = json.value("actual", "");
      f.failure.expected = json.value("expected", "");
      f.failure.expanded = json.value("expanded", "");
      f.failure.message = json.value("message", "");
      f.failure.check = json.value("check", "");
      run.cases.back().failures.push_back(f);
    } else if (event == "observed" && !run.cases.empty() && !run.cases.back().ended) {
      run.cases.back().observations.push_back(observation_from_json(json));
    } else if (event == "case_end" && !run.cases.empty()) {
      run.cases.back().ended = true;
      run.cases.back().passed = json.value("passed", false);
      run.cases.back().duration_ms = json.value("duration_ms", 0.0);
      run.cases.back().output_end = json.value("output_end", -1L);
    } else if (event == "run_end") {
      run.run_ended = true;
    }
  }
  return run;
}

}  // namespace tito
