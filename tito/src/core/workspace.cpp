#include "core/workspace.h"

#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/clock.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/i18n.h"
#include "core/progress_store.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// The README.md `tito init` writes, in the learner's language (commands and paths stay as they are).
std::string workspace_readme() {
  return tr(
      "# My TinyTorch C++ workspace\n"
      "\n"
      "This folder holds *your* code for TinyTorch C++, the course in which you build a deep-learning\n"
      "framework in C++, one module at a time.\n"
      "\n"
      "- `modules/NN_name/` - the files you edit. `tito module start NN` creates them.\n"
      "- `.tito/` - tito's bookkeeping (progress, build scratch space, backups, logs). Leave it alone;\n"
      "  tito repairs it if it gets damaged.\n"
      "\n"
      "Useful commands (run them anywhere inside this folder):\n"
      "\n"
      "    tito module list          see every module and which ones you can start\n"
      "    tito module start 01      get the starter files for module 01\n"
      "    tito module view 01       read the lesson\n"
      "    tito module test 01       build and check your code\n"
      "    tito module hint 01       help for a failing test, one level at a time\n"
      "    tito module complete 01   record the module as done once every test passes\n"
      "    tito module status        see your progress\n");
}

}  // namespace

bool Workspace::is_workspace(const fs::path& dir) { return fs::is_regular_file(dir / ".tito" / "workspace.json"); }

std::optional<fs::path> Workspace::discover(const fs::path& start) {
  std::error_code error;
  fs::path dir = fs::weakly_canonical(fs::absolute(start), error);
  if (error) dir = fs::absolute(start);
  while (true) {
    if (is_workspace(dir)) return dir;
    if (!dir.has_parent_path() || dir.parent_path() == dir) return std::nullopt;
    dir = dir.parent_path();
  }
}

Workspace Workspace::locate(const std::string& explicit_dir, const fs::path& start) {
  std::string chosen = explicit_dir;
  const char* from_env = std::getenv("TITO_WORKSPACE");
  std::string source = "--workspace";
  if (chosen.empty() && from_env && *from_env) {
    chosen = from_env;
    source = "TITO_WORKSPACE";
  }
  if (!chosen.empty()) {
    fs::path dir = fs::absolute(chosen).lexically_normal();
    if (!is_workspace(dir)) {
      throw UserError(trf("{} ({}) is not a TinyTorch workspace", dir.string(), source),
                      fmt::format("tito init {}", dir.string()));
    }
    return Workspace(dir);
  }
  if (auto found = discover(start)) return Workspace(*found);
  throw UserError(trf("no TinyTorch workspace in {} or any folder above it", fs::absolute(start).string()),
                  tr("tito init workspace && cd workspace   (or pass --workspace DIR)"));
}

Workspace::InitOutcome Workspace::init(const fs::path& requested) {
  fs::path dir = fs::absolute(requested).lexically_normal();
  if (is_workspace(dir)) return InitOutcome::AlreadyThere;
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw UserError(trf("{} exists and is a file, not a folder", dir.string()), tr("tito init <another folder>"));
  }
  if (fs::is_directory(dir) && !fs::is_empty(dir)) {
    throw UserError(trf("{} already exists and is not empty; tito will not mix its files with yours", dir.string()),
                    fmt::format("tito init {}", (dir.parent_path() / "tinytorch-workspace").string()));
  }
  Workspace workspace(dir);
  fs::create_directories(workspace.logs_dir());
  fs::create_directories(workspace.modules_dir());
  fs::create_directories(workspace.backups_dir());
  ProgressStore::initialise(workspace.tito_dir());
  write_file_atomically(dir / "README.md", workspace_readme());
  nlohmann::json marker = {{"version", 1}, {"created_at", iso8601_now()}, {"tito_version", TITO_VERSION}};
  // Written last: a half-initialised folder is not mistaken for a workspace.
  write_file_atomically(workspace.tito_dir() / "workspace.json", marker.dump(2) + "\n");
  return InitOutcome::Created;
}

}  // namespace tito
