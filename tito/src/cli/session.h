#pragma once
// What a command works with, assembled once per invocation: the installation, the curriculum and,
// for commands that need one, the learner's workspace and progress.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/curriculum.h"
#include "core/installation.h"
#include "core/progress_store.h"
#include "core/workspace.h"
#include "run/module_test_runner.h"

namespace tito {

struct GlobalOptions {
  bool no_color = false;
  bool verbose = false;
  std::string workspace;  // --workspace DIR
};

struct Session {
  Installation installation;
  Curriculum curriculum;
  std::optional<Workspace> workspace;
  std::unique_ptr<ProgressStore> progress;  // set together with workspace

  const Workspace& ws() const { return *workspace; }
  const ProgressState& state() const { return progress->state(); }
};

// Loads the curriculum; with `need_workspace`, also finds the workspace (UserError if none), starts
// its log and loads its progress (telling the learner in one line if it had to be repaired).
Session open_session(const GlobalOptions& options, bool need_workspace);

// Same, but a missing workspace is not an error (for commands that only enrich output with it).
Session open_session_if_possible(const GlobalOptions& options);

// "01 Tensor, 02 Activations and 03 Layers": module numbers with their titles, for messages.
std::string module_names(const Session& session, const std::vector<std::string>& numbers);

// The build's toolchain.json, or a UserError naming the problem (missing build, missing compiler)
// and the command that fixes it. Every command that compiles learner code starts here.
Toolchain load_checked_toolchain(const Installation& installation);

}  // namespace tito
