#pragma once
// The one error type a command throws at the learner: what went wrong and the exact command that fixes it.
// main() prints it as "error: <problem>" and "fix: <fix>" and exits with exit_code.
#include <stdexcept>
#include <string>

namespace tito {

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2, kExitInterrupted = 130 };

class UserError : public std::runtime_error {
 public:
  UserError(std::string problem, std::string fix, int exit_code = kExitFailure)
      : std::runtime_error(problem), problem_(std::move(problem)), fix_(std::move(fix)), exit_code_(exit_code) {}
  const std::string& problem() const { return problem_; }
  const std::string& fix() const { return fix_; }
  int exit_code() const { return exit_code_; }

 private:
  std::string problem_;
  std::string fix_;
  int exit_code_;
};

}  // namespace tito
