#include "run/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

extern char** environ;

namespace tito {
namespace {

// Everything the child needs is built before fork(): after fork in a possibly multi-threaded
// parent only async-signal-safe calls are allowed, so no allocation happens in the child.
struct PreparedExec {
  std::vector<std::string> argv_storage, env_storage;
  std::vector<char*> argv, envp;
  std::string uid_map, gid_map;
};

PreparedExec prepare_exec(const SandboxSpec& spec) {
  PreparedExec exec;
  exec.argv_storage = spec.argv;
  for (auto& arg : exec.argv_storage) exec.argv.push_back(arg.data());
  exec.argv.push_back(nullptr);

  std::map<std::string, std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string text = *entry;
    auto eq = text.find('=');
    if (eq != std::string::npos) env[text.substr(0, eq)] = text.substr(eq + 1);
  }
  for (const auto& [key, value] : spec.extra_env) env[key] = value;
  for (const auto& [key, value] : env) exec.env_storage.push_back(key + "=" + value);
  for (auto& entry : exec.env_storage) exec.envp.push_back(entry.data());
  exec.envp.push_back(nullptr);

  // Keep our own uid/gid inside the new user namespace, so files stay ours.
  exec.uid_map = std::to_string(getuid()) + " " + std::to_string(getuid()) + " 1\n";
  exec.gid_map = std::to_string(getgid()) + " " + std::to_string(getgid()) + " 1\n";
  return exec;
}

void write_proc_file(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t ignored = write(fd, text.data(), text.size());
  (void)ignored;
  close(fd);
}

// Best effort: a fresh network namespace has no interfaces, so learner code cannot reach the
// network. Unprivileged users need a user namespace first; containers often forbid both.
void try_cut_network(const PreparedExec& exec) {
  if (unshare(CLONE_NEWNET) == 0) return;
  if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) return;
  write_proc_file("/proc/self/setgroups", "deny");
  write_proc_file("/proc/self/uid_map", exec.uid_map);
  write_proc_file("/proc/self/gid_map", exec.gid_map);
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  struct rlimit limit {};
  limit.rlim_cur = soft;
  limit.rlim_max = hard;
  setrlimit(resource, &limit);
}

[[noreturn]] void run_child(const SandboxSpec& spec, const PreparedExec& exec, int output_fd) {
  setpgid(0, 0);  // its own process group, so the parent can kill everything it spawns
  int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);

  try_cut_network(exec);
  set_limit(RLIMIT_CORE, 0, 0);
  // CPU time is only a backstop for the parent's wall-clock limit (e.g. if tito itself is stopped).
  auto cpu_seconds = static_cast<rlim_t>(std::ceil(spec.time_limit_s)) + 2;
  set_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds + 1);
  if (spec.limit_address_space && spec.memory_limit_mb > 0) {
    auto bytes = static_cast<rlim_t>(spec.memory_limit_mb) * 1024 * 1024;
    set_limit(RLIMIT_AS, bytes, bytes);
  }
  if (!spec.working_dir.empty() && chdir(spec.working_dir.c_str()) != 0) _exit(126);

  execve(exec.argv[0], exec.argv.data(), exec.envp.data());
  static const char message[] = "tito sandbox: could not execute the test program\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  _exit(127);
}

}  // namespace

std::string describe_signal(int signal_number) {
  switch (signal_number) {
    case SIGSEGV: return "SIGSEGV (segmentation fault: an invalid memory access)";
    case SIGABRT: return "SIGABRT (aborted, e.g. a failed assert or std::terminate)";
    case SIGFPE: return "SIGFPE (arithmetic error, e.g. integer division by zero)";
    case SIGBUS: return "SIGBUS (bus error: a misaligned or unmapped memory access)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGKILL: return "SIGKILL (killed)";
    case SIGXCPU: return "SIGXCPU (CPU time limit exceeded)";
    case SIGTERM: return "SIGTERM (terminated)";
    case SIGPIPE: return "SIGPIPE (broken pipe)";
    default: {
      const char* name = strsignal(signal_number);
      return "signal " + std::to_string(signal_number) + " (" + (name ? name : "unknown") + ")";
    }
  }
}

SandboxResult sandboxed_run(const SandboxSpec& spec) {
  SandboxResult result;
  if (spec.argv.empty()) {
    result.error = "no program to run";
    return result;
  }
  PreparedExec exec = prepare_exec(spec);
  int output_fd = open(spec.output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (output_fd < 0) {
    result.error = "cannot create " + spec.output_file.string() + ": " + std::strerror(errno);
    return result;
  }

  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    result.error = std::string("fork failed: ") + std::strerror(errno);
    close(output_fd);
    return result;
  }
  if (pid == 0) run_child(spec, exec, output_fd);
  setpgid(pid, pid);  // also from the parent, so killpg works even before the child ran
  close(output_fd);
  result.started = true;

  // Poll rather than block: the parent must be able to stop a child that never returns.
  auto deadline = start + std::chrono::duration<double>(spec.time_limit_s);
  int status = 0;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (spec.keep_running && !spec.keep_running()) {
      result.stopped = true;
      killpg(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      killpg(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  killpg(pid, SIGKILL);  // anything the program left running in its group goes with it

  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace tito
