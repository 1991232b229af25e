#include "cli/session.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/i18n.h"
#include "core/logging.h"
#include "core/terminal.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

void attach_workspace(Session& session, Workspace workspace) {
  attach_workspace_log(workspace.logs_dir());
  session.progress = std::make_unique<ProgressStore>(workspace.tito_dir());
  ProgressLoad load = session.progress->load();
  if (load.repaired()) terminal().warning(load.notice);
  session.workspace = std::move(workspace);
  spdlog::debug("workspace {}", session.workspace->root().string());
}

std::string rebuild_fix(const Installation& installation) {
  return fmt::format("cmake -S {} -B {} -G Ninja && cmake --build {} -j2", installation.source_dir.string(),
                     installation.build_dir.string(), installation.build_dir.string());
}

bool executable_exists(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace

Session open_session(const GlobalOptions& options, bool need_workspace) {
  Session session{Installation::locate(), {}, std::nullopt, nullptr};
  session.curriculum = Curriculum::load(session.installation.source_dir);
  if (need_workspace) attach_workspace(session, Workspace::locate(options.workspace, std::filesystem::current_path()));
  return session;
}

Session open_session_if_possible(const GlobalOptions& options) {
  Session session = open_session(options, false);
  try {
    attach_workspace(session, Workspace::locate(options.workspace, std::filesystem::current_path()));
  } catch (const UserError&) {
    if (!options.workspace.empty()) throw;  // an explicit --workspace that is wrong is still an error
    // Otherwise no workspace here: the command works without one.
  }
  return session;
}

std::string module_names(const Session& session, const std::vector<std::string>& numbers) {
  std::string names;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const ModuleInfo* module = session.curriculum.find(numbers[i]);
    // TRANSLATORS: between the last two items of a list, "01 Tensor, 02 Activations and 03 Layers".
    if (i > 0) names += (i + 1 == numbers.size()) ? tr(" and ") : ", ";
    names += numbers[i] + (module ? " " + std::string(tr_curriculum(module->title)) : "");
  }
  return names;
}

Toolchain load_checked_toolchain(const Installation& installation) {
  Toolchain toolchain;
  try {
    toolchain = load_toolchain(installation.build_dir);
  } catch (const std::exception& error) {
    throw UserError(trf("cannot use the framework build in {}: {}", installation.build_dir.string(), error.what()),
                    rebuild_fix(installation));
  }
  if (!executable_exists(toolchain.cxx)) {
    throw UserError(trf("the C++ compiler '{}' named in {} was not found", toolchain.cxx,
                                (installation.build_dir / "tito" / "toolchain.json").string()),
                    install_compiler_command(toolchain) + " && " + rebuild_fix(installation));
  }
  return toolchain;
}

}  // namespace tito
