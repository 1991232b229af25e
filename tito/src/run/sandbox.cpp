#include "run/sandbox.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
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
  // For writable_dir: every mount point with the flags a read-only remount must keep (a user
  // namespace may not drop nosuid/nodev/noexec), and the directory that stays writable.
  std::vector<std::pair<std::string, unsigned long>> mounts;
  std::string writable_dir;
};

// "\040" in /proc/self/mountinfo stands for a space, and so on.
std::string unescape_mount_path(const std::string& text) {
  std::string path;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      path += static_cast<char>(std::stoi(text.substr(i + 1, 3), nullptr, 8));
      i += 3;
    } else {
      path += text[i];
    }
  }
  return path;
}

std::vector<std::pair<std::string, unsigned long>> current_mounts() {
  std::vector<std::pair<std::string, unsigned long>> mounts;
  std::ifstream info("/proc/self/mountinfo");
  for (std::string line; std::getline(info, line);) {
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point;
    if (!(fields >> id >> parent >> device >> root >> mount_point)) continue;
    std::string path = unescape_mount_path(mount_point);
    struct statvfs stats {};
    if (statvfs(path.c_str(), &stats) != 0) continue;
    unsigned long flags = 0;
    if (stats.f_flag & ST_NOSUID) flags |= MS_NOSUID;
    if (stats.f_flag & ST_NODEV) flags |= MS_NODEV;
    if (stats.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
    if (stats.f_flag & ST_NOATIME) flags |= MS_NOATIME;
    if (stats.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (stats.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    mounts.emplace_back(path, flags);
  }
  return mounts;
}

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
  if (!spec.writable_dir.empty()) {
    exec.writable_dir = std::filesystem::absolute(spec.writable_dir).lexically_normal().string();
    exec.mounts = current_mounts();
  }
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

bool path_is_under(const std::string& path, const std::string& dir) {
  return path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

// A private user, mount and network namespace in which the writable dir is a mount of its own and
// every other mount is remounted read-only. False (and nothing changed) when the kernel refuses the
// namespaces; then the caller falls back to cutting the network only.
bool try_confine_writes(const PreparedExec& exec) {
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) != 0) return false;
  write_proc_file("/proc/self/setgroups", "deny");
  write_proc_file("/proc/self/uid_map", exec.uid_map);
  write_proc_file("/proc/self/gid_map", exec.gid_map);
  mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr);  // nothing we do leaks to the host
  if (mount(exec.writable_dir.c_str(), exec.writable_dir.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return true;
  for (const auto& [mount_point, flags] : exec.mounts) {
    if (path_is_under(mount_point, exec.writable_dir)) continue;
    // Failures (e.g. /proc in some containers) leave that one mount as it was.
    mount(nullptr, mount_point.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | flags, nullptr);
  }
  return true;
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

  if (exec.writable_dir.empty() || !try_confine_writes(exec)) try_cut_network(exec);
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

bool write_confinement_works(const std::filesystem::path& scratch_dir) {
  namespace fs = std::filesystem;
  const fs::path inside = scratch_dir / "confinement-probe";
  const fs::path outside = scratch_dir / "confinement-probe-outside";
  std::error_code ignored;
  fs::create_directories(inside, ignored);
  fs::remove(outside, ignored);
  SandboxSpec spec;
  spec.argv = {"/bin/sh", "-c", "echo > \"$0\"", outside.string()};
  spec.output_file = inside / "output.txt";
  spec.working_dir = inside;
  spec.time_limit_s = 10;
  spec.writable_dir = inside;
  SandboxResult run = sandboxed_run(spec);
  const bool confined = run.started && !fs::exists(outside);
  fs::remove_all(inside, ignored);
  fs::remove(outside, ignored);
  return confined;
}

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
  if (spec.on_start) spec.on_start(pid);

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
      if (spec.before_time_out_kill) spec.before_time_out_kill();
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
