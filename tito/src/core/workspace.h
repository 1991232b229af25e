#pragma once
// A learner's workspace: the folder `tito init` creates, marked by .tito/workspace.json.
//   <ws>/modules/NN_slug/   the learner's files     <ws>/.tito/progress.json, history.jsonl
//   <ws>/.tito/build/NN/    scratch builds          <ws>/.tito/backups/, <ws>/.tito/logs/
#include <filesystem>
#include <optional>
#include <string>

#include "core/curriculum.h"

namespace tito {

class Workspace {
 public:
  explicit Workspace(std::filesystem::path root) : root_(std::move(root)) {}

  // --workspace DIR (explicit), else $TITO_WORKSPACE, else the nearest folder upward from `start`
  // holding .tito/workspace.json. Throws UserError with the fix when there is none.
  static Workspace locate(const std::string& explicit_dir, const std::filesystem::path& start);
  static std::optional<std::filesystem::path> discover(const std::filesystem::path& start);
  static bool is_workspace(const std::filesystem::path& dir);

  enum class InitOutcome { Created, AlreadyThere };
  // Refuses (UserError) a folder that exists, is not empty and is not a workspace.
  static InitOutcome init(const std::filesystem::path& dir);

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path tito_dir() const { return root_ / ".tito"; }
  std::filesystem::path logs_dir() const { return tito_dir() / "logs"; }
  std::filesystem::path backups_dir() const { return tito_dir() / "backups"; }
  std::filesystem::path build_dir(const std::string& number) const { return tito_dir() / "build" / number; }
  // The learner's compiled files, shared by every module test and milestone build.
  std::filesystem::path learner_objects_dir() const { return tito_dir() / "build" / "objects"; }
  std::filesystem::path modules_dir() const { return root_ / "modules"; }
  std::filesystem::path module_dir(const ModuleInfo& module) const { return modules_dir() / module.folder(); }

 private:
  std::filesystem::path root_;
};

}  // namespace tito
