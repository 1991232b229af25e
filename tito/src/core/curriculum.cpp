#include "core/curriculum.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/hints.h"
#include "core/i18n.h"
#include "core/text.h"

namespace tito {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

json parse_json_file(const fs::path& path) {
  try {
    return json::parse(read_file(path));
  } catch (const json::exception& error) {
    throw UserError(trf("{} is not valid JSON ({})", path.string(), error.what()),
                    fmt::format("git checkout -- {}", path.string()));
  }
}


// A module's sources of one kind ("tests", "bench"): the files curriculum.json lists under `key`, else
// the .cpp files of the module folder's subfolder of that name, sorted.
std::vector<fs::path> sources_of(const json& entry, const std::string& key, const fs::path& source_dir,
                                 const fs::path& module_dir) {
  std::vector<fs::path> sources;
  if (entry.contains(key)) {
    for (const auto& file : entry[key]) sources.push_back(source_dir / file.get<std::string>());
    return sources;
  }
  std::error_code missing;
  for (const auto& file : fs::directory_iterator(module_dir / key, missing))
    if (file.path().extension() == ".cpp") sources.push_back(file.path());
  std::sort(sources.begin(), sources.end());
  return sources;
}

ModuleInfo module_from_json(const json& entry, const fs::path& source_dir) {
  ModuleInfo module;
  module.number = entry.at("number").get<std::string>();
  module.slug = entry.at("slug").get<std::string>();
  module.title = entry.value("title", module.slug);
  module.subtitle = entry.value("subtitle", "");
  module.tier = entry.value("tier", "");
  module.hours = entry.value("hours", "");
  module.prerequisites = entry.value("prerequisites", std::vector<std::string>{});
  module.learner_files = entry.value("learner_files", std::vector<std::string>{});
  // Defaults follow the folder convention, so a new module only needs its files in curriculum/NN_slug.
  const fs::path module_dir = source_dir / "curriculum" / module.folder();
  module.lesson = entry.contains("lesson") ? source_dir / entry["lesson"].get<std::string>() : module_dir / "lesson.md";
  module.hints = entry.contains("hints") ? source_dir / entry["hints"].get<std::string>() : module_dir / "hints.json";
  module.quiz = module_dir / "quiz.json";
  module.variants =
      entry.contains("variants") ? source_dir / entry["variants"].get<std::string>() : module_dir / "variants.json";
  module.tests = sources_of(entry, "tests", source_dir, module_dir);
  module.bench = sources_of(entry, "bench", source_dir, module_dir);
  module.points = entry.value("points", 0);
  if (entry.contains("limits")) {
    module.time_limit_s = entry["limits"].value("time_s", module.time_limit_s);
    module.memory_limit_mb = entry["limits"].value("memory_mb", module.memory_limit_mb);
  }
  return module;
}

}  // namespace

bool ModuleInfo::available() const { return fs::is_regular_file(lesson); }

std::string MilestoneInfo::label() const { return fmt::format("{} ({}, {})", id, title, year); }

Curriculum Curriculum::load(const fs::path& source_dir) {
  const fs::path index = source_dir / "curriculum" / "curriculum.json";
  if (!fs::exists(index)) {
    throw UserError(trf("the curriculum index {} is missing", index.string()),
                    "export TITO_HOME=/path/to/your/tinytorch/checkout");
  }
  Curriculum curriculum;
  try {
    const json document = parse_json_file(index);
    for (const auto& entry : document.at("modules")) {
      curriculum.modules_.push_back(module_from_json(entry, source_dir));
    }
  } catch (const json::exception& error) {
    throw UserError(trf("{} has an unexpected shape ({})", index.string(), error.what()),
                    fmt::format("git checkout -- {}", index.string()));
  }
  std::sort(curriculum.modules_.begin(), curriculum.modules_.end(),
            [](const ModuleInfo& a, const ModuleInfo& b) { return a.number < b.number; });

  const fs::path milestones_dir = source_dir / "milestones";
  if (fs::is_directory(milestones_dir)) {
    for (const auto& folder : fs::directory_iterator(milestones_dir)) {
      const fs::path file = folder.path() / "milestone.json";
      if (!fs::is_regular_file(file)) continue;
      try {
        json data = parse_json_file(file);
        MilestoneInfo milestone;
        milestone.id = data.at("id").get<std::string>();
        milestone.year = data.value("year", 0);
        milestone.title = data.value("title", milestone.id);
        milestone.summary = data.value("summary", "");
        milestone.required_modules = data.value("required_modules", std::vector<std::string>{});
        curriculum.milestones_.push_back(milestone);
      } catch (const json::exception& error) {
        throw UserError(trf("{} has an unexpected shape ({})", file.string(), error.what()),
                        fmt::format("git checkout -- {}", file.string()));
      }
    }
  }
  std::sort(curriculum.milestones_.begin(), curriculum.milestones_.end(),
            [](const MilestoneInfo& a, const MilestoneInfo& b) { return a.id < b.id; });
  return curriculum;
}

const ModuleInfo* Curriculum::find(const std::string& number) const {
  for (const auto& module : modules_) {
    if (module.number == number) return &module;
  }
  return nullptr;
}

std::optional<std::string> Curriculum::normalise(const std::string& raw) const {
  std::string text = lowercase(raw);
  text.erase(0, text.find_first_not_of(" \t"));
  text.erase(text.find_last_not_of(" \t") + 1);
  std::string digits = text.substr(0, text.find('_'));
  if (all_digits(digits) && digits.size() <= 3) {
    std::string number = fmt::format("{:02d}", std::stoi(digits));
    const ModuleInfo* module = find(number);
    if (!module) return std::nullopt;
    // "1_tensor" must name the same module as "1"; "1_attention" is a typo we should not guess past.
    if (digits.size() != text.size() && text.substr(digits.size() + 1) != lowercase(module->slug)) return std::nullopt;
    return number;
  }
  for (const auto& module : modules_) {
    // The title in English or in the learner's language ("activations", "activaciones").
    if (text == lowercase(module.slug) || text == lowercase(module.title) || text == lowercase(tr_curriculum(module.title)))
      return module.number;
  }
  return std::nullopt;
}

const ModuleInfo& Curriculum::resolve(const std::string& text) const {
  if (auto number = normalise(text)) return *find(*number);
  std::string valid;
  for (const auto& module : modules_) valid += (valid.empty() ? "" : ", ") + module.number + " " + module.slug;
  throw UserError(trf("there is no module '{}'; the modules are {}", text, valid), "tito module list", kExitUsage);
}

ModuleHints Curriculum::load_hints(const ModuleInfo& module) const {
  return ModuleHints{module.number, load_hint_levels(module.hints)};
}

}  // namespace tito
