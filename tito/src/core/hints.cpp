#include "core/hints.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/i18n.h"
#include "core/text.h"

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
  auto add_entry = [&](const std::string& name, const std::string& check, const ordered_json& value) {
    auto levels = levels_of(value);
    if (levels.empty()) return;
    CaseHints entry{name, std::move(levels), check, {}};
    if (value.is_object() && value.contains("exercises") && value["exercises"].is_array())
      for (const auto& item : value["exercises"])
        if (item.is_string()) entry.exercises.push_back(item.get<std::string>());
    hints.push_back(std::move(entry));
  };
  auto add = [&](const std::string& name, const ordered_json& value) {
    add_entry(name, "", value);
    if (!value.is_object() || !value.contains("checks") || !value["checks"].is_object()) return;
    for (const auto& [check, check_value] : value["checks"].items()) add_entry(name, check, check_value);
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
    if (entry.key() == query) return {&entry};
    if (lowercase(entry.key()).find(wanted) != std::string::npos) found.push_back(&entry);
  }
  // Part of a case's name matches its check hints too ("case / check"): the case's own entry is meant.
  const bool one_case = !found.empty() && std::all_of(found.begin(), found.end(), [&](const CaseHints* entry) {
    return entry->test_case == found.front()->test_case;
  });
  if (one_case && found.size() > 1 && found.front()->check.empty()) return {found.front()};
  return found;
}

const CaseHints* ModuleHints::find(const std::string& test_case, const std::string& check) const {
  for (const auto& entry : entries)
    if (entry.test_case == test_case && entry.check == check) return &entry;
  return nullptr;
}

std::string ModuleHints::first_level(const std::string& test_case, const std::string& check) const {
  const CaseHints* entry = check.empty() ? nullptr : find(test_case, check);
  if (!entry) entry = find(test_case);
  if (!entry) return "";
  // The learner's language: the hint from the curriculum's catalog, the pointer to the next levels from tito's.
  if (entry->levels.size() == 1) return tr_curriculum(entry->levels.front());
  // TRANSLATORS: a test case's first hint, then the command that shows its next, more detailed hints
  return trf("{} (more help, one step at a time: tito module hint {} \"{}\")", tr_curriculum(entry->levels.front()),
             module_number, entry->key());
}

const std::vector<std::string>& ModuleHints::exercises(const std::string& test_case, const std::string& check) const {
  static const std::vector<std::string> none;
  const CaseHints* entry = find(test_case, check);
  return entry ? entry->exercises : none;
}

}  // namespace tito
