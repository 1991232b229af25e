#pragma once

namespace tito {

// Parses the command line, runs the chosen command and returns the process exit code:
// 0 ok, 1 failure, 2 usage error, 130 interrupted.
int run_tito(int argc, char** argv);

}  // namespace tito
