#pragma once
// Runs a trusted tool (ninja, the compiler) and hands back its output line by line as it comes,
// so progress shows while a build runs.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace tito {

struct CommandOutcome {
  int exit_code = -1;  // -1 when it could not start or died on a signal
  std::string error;   // why it could not start
};

CommandOutcome run_captured(const std::vector<std::string>& argv, const std::filesystem::path& working_dir,
                            const std::function<void(const std::string& line)>& on_line);

// An absolute path to an executable: `name` itself when it contains a '/', else found on PATH.
// Empty when there is none.
std::string find_executable(const std::string& name);

}  // namespace tito
