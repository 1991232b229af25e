#pragma once
// The curriculum as data: curriculum/curriculum.json and milestones/*/milestone.json. tito knows no
// module by name; adding a module means adding its entry and files, never changing tito.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/hints.h"

namespace tito {

struct ModuleInfo {
  std::string number;  // "01"
  std::string slug;    // "tensor"
  std::string title;
  std::string subtitle;
  std::string tier;
  std::string hours;
  std::vector<std::string> prerequisites;
  std::vector<std::string> learner_files;  // relative to the source dir: framework/src/01_tensor/matmul.cpp
  std::filesystem::path lesson;            // absolute; by default curriculum/NN_slug/lesson.md
  std::vector<std::filesystem::path> tests;
  std::vector<std::filesystem::path> bench;  // timing programs with main(): `tito module bench NN` (curriculum/NN_slug/bench)
  std::filesystem::path hints;             // absolute; may not exist
  std::filesystem::path variants;          // absolute; known-wrong variants of the reference (variants.h)
  std::filesystem::path quiz;              // absolute; the concept checks (quiz.h), curriculum/NN_slug/quiz.json; may not exist
  int points = 0;
  double time_limit_s = 30;
  std::size_t memory_limit_mb = 1024;

  std::string folder() const { return number + "_" + slug; }  // "01_tensor"
  bool available() const;                                     // its lesson exists
  std::string label() const { return number + " " + title; }  // "01 Tensor"
};

struct MilestoneInfo {
  std::string id;  // "01"
  int year = 0;
  std::string title;
  std::string summary;
  std::vector<std::string> required_modules;
  std::string label() const;  // "01 (Perceptron, 1958)"
};

class Curriculum {
 public:
  // Throws UserError naming the file when curriculum.json is missing or malformed.
  static Curriculum load(const std::filesystem::path& source_dir);

  const std::vector<ModuleInfo>& modules() const { return modules_; }
  const std::vector<MilestoneInfo>& milestones() const { return milestones_; }
  const ModuleInfo* find(const std::string& number) const;

  // "1", "01", "1_tensor", "01_tensor", "tensor", "Tensor" -> "01"; nullopt when nothing matches.
  std::optional<std::string> normalise(const std::string& text) const;
  // Like normalise, but an unknown name is a usage error listing the valid modules.
  const ModuleInfo& resolve(const std::string& text) const;

  // The module's hints.json (no entries when there is none).
  ModuleHints load_hints(const ModuleInfo& module) const;

 private:
  std::vector<ModuleInfo> modules_;
  std::vector<MilestoneInfo> milestones_;
};

}  // namespace tito
