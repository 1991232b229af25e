#include "cli/session.h"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/logging.h"
#include "core/terminal.h"

namespace tito {
namespace {

void attach_workspace(Session& session, Workspace workspace) {
  attach_workspace_log(workspace.logs_dir());
  session.progress = std::make_unique<ProgressStore>(workspace.tito_dir());
  ProgressLoad load = session.progress->load();
  if (load.repaired()) terminal().warning(load.notice);
  session.workspace = std::move(workspace);
  spdlog::debug("workspace {}", session.workspace->root().string());
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
    if (i > 0) names += (i + 1 == numbers.size()) ? " and " : ", ";
    names += numbers[i] + (module ? " " + module->title : "");
  }
  return names;
}

}  // namespace tito
