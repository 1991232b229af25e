#include "build/captured_command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace tito {

std::string find_executable(const std::string& name) {
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path_env = std::getenv("PATH");
  std::istringstream dirs(path_env ? path_env : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::size_t LineSplitter::feed(const char* data, std::size_t count) {
  for (std::size_t at = 0; at < count;) {
    if (full()) return at;
    const char* newline = static_cast<const char*>(std::memchr(data + at, '\n', count - at));
    const std::size_t end = newline ? static_cast<std::size_t>(newline - data) : count;
    const std::size_t room = kMaxLineChars > pending_.size() ? kMaxLineChars - pending_.size() : 0;
    pending_.append(data + at, std::min(room, end - at));
    cut_ = cut_ || end - at > room;
    if (!newline) return count;
    handed_out_ += pending_.size() + 1;
    if (sink_) sink_(cut_ ? pending_ + " [...]" : pending_);
    pending_.clear();
    cut_ = false;
    at = end + 1;
  }
  return count;
}

void LineSplitter::finish() {
  if ((!pending_.empty() || cut_) && sink_) sink_(cut_ ? pending_ + " [...]" : pending_);
  pending_.clear();
  cut_ = false;
}

CommandOutcome run_captured(const std::vector<std::string>& argv, const std::filesystem::path& working_dir,
                            const std::function<void(const std::string& line)>& on_line) {
  CommandOutcome outcome;
  std::vector<std::string> args = argv;
  std::vector<char*> raw;
  for (auto& arg : args) raw.push_back(arg.data());
  raw.push_back(nullptr);
  std::string dir = working_dir.string();

  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    outcome.error = std::string("pipe failed: ") + std::strerror(errno);
    return outcome;
  }
  pid_t pid = fork();
  if (pid < 0) {
    outcome.error = std::string("fork failed: ") + std::strerror(errno);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return outcome;
  }
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    if (!dir.empty() && chdir(dir.c_str()) != 0) _exit(126);
    execv(raw[0], raw.data());
    _exit(127);
  }
  close(pipe_fds[1]);

  LineSplitter lines(on_line);
  char buffer[4096];
  while (true) {
    ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    lines.feed(buffer, static_cast<std::size_t>(got));
  }
  lines.finish();
  close(pipe_fds[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (outcome.exit_code == 127) outcome.error = "could not execute " + argv[0];
  return outcome;
}

}  // namespace tito
