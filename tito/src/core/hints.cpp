#include "core/hints.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/files.h"

namespace tito {
namespace {

using ordered_json = nlohmann::ordered_json;

std::vector<std::string> levels_of(const ordered_json& value) {
  std::vector<std::string> levels;
  auto add_all = [&](const ordered_json& list) {
    for (const auto& level : list)
      if (level.is_string() && !level.get<std::string>().empty()) levels.push_back(level.get<std::string>());
  };
  if (value.is_string()) {
    if (!value.get<std::string>().empty()) levels.push_back(value.get<std::string>());
  } else if (value.is_array()) {
    add_all(value);
  } else if (value.is_object()) {
    if (value.contains("levels") && value["levels"].is_array()) add_all(value["levels"]);
    else if (value.contains("hint")) return levels_of(value["hint"]);
  }
  return levels;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

std::vector<CaseHints> load_hint_levels(const std::filesystem::path& hints_file) {
  std::vector<CaseHints> hints;
  if (!std::filesystem::is_regular_file(hints_file)) return hints;
  ordered_json data;
  try {
    data = ordered_json::parse(read_file(hints_file));
  } catch (const std::exception&) {
    return hints;
  }
  auto add = [&](const std::string& name, const ordered_json& value) {
    auto levels = levels_of(value);
    if (!levels.empty()) hints.push_back({name, std::move(levels)});
  };
  if (data.is_object() && data.contains("hints")) data = data["hints"];
  if (data.is_object()) {
    for (const auto& [name, value] : data.items()) add(name, value);
  } else if (data.is_array()) {
    for (const auto& item : data) {
      if (!item.is_object()) continue;
      for (const char* key : {"test", "case", "name"}) {
        if (item.contains(key) && item[key].is_string()) {
          add(item[key].get<std::string>(), item);
          break;
        }
      }
    }
  }
  return hints;
}

std::vector<const CaseHints*> match_hint_cases(const std::vector<CaseHints>& hints, const std::string& query) {
  std::vector<const CaseHints*> found;
  const std::string wanted = lowercase(query);
  for (const auto& entry : hints) {
    if (entry.test_case == query) return {&entry};
    if (lowercase(entry.test_case).find(wanted) != std::string::npos) found.push_back(&entry);
  }
  return found;
}

}  // namespace tito
