#include "run/sandbox.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

extern char** environ;

namespace tito {
namespace {
namespace fs = std::filesystem;

constexpr uid_t kNobody = 65534;  // who a fresh-root program runs as when tito runs as root
// Exit codes of the sandbox's own processes, when setting up failed (the message is in the output).
constexpr int kSetupFailed = 125;
constexpr std::size_t kMaxBinds = 64;  // the init opens them all into a fixed array (it may not allocate)

// The system files a program needs to start: the loader, libraries, programs, and little else.
const char* const kSystemPaths[] = {"/usr",           "/bin",           "/sbin",          "/lib",
                                    "/lib32",         "/lib64",         "/libx32",        "/etc/ld.so.cache",
                                    "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/passwd",
                                    "/etc/group",     "/etc/alternatives"};
const char* const kDevices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

// One path shown inside the sandbox. It is opened (O_PATH) before /tmp is covered and bound from
// that descriptor, so a source under /tmp stays reachable.
struct Bind {
  std::string source;
  std::string target;        // where it appears, under the staging root
  bool is_file = false;
  bool writable = false;
  bool required = false;     // failing to show it fails the run (else the path is simply absent)
  unsigned long locked_flags = 0;
};

struct Link {
  std::string target, points_to;
};

// Everything the children need is built before fork(): after fork in a possibly multi-threaded
// parent only async-signal-safe calls are allowed, so no allocation happens in the children.
struct PreparedExec {
  std::vector<std::string> argv_storage, env_storage;
  std::vector<char*> argv, envp;
  std::string uid_map, gid_map;                // the first user namespace (tito not root)
  std::string nested_uid_map, nested_gid_map;  // the program's own user namespace
  bool as_root = false;
  bool confine = false, fresh_root = false, drop_to_nobody = false;
  // A read-only host: every mount point with the flags a read-only remount must keep (a user
  // namespace may not drop nosuid/nodev/noexec), and the directory that stays writable.
  std::vector<std::pair<std::string, unsigned long>> mounts;
  std::string writable_dir;
  // A fresh root: built on a tmpfs at `staging`, then made the root.
  std::string staging = "/tmp";
  std::vector<std::string> dirs_to_create, files_to_create;
  std::vector<Bind> binds;
  std::vector<Link> links;
  std::string tmp_target, run_target, proc_target;
  std::string scratch_options;
  std::string working_dir;
  // RLIMIT_CPU. CPU time counts every thread: a run that keeps all cores busy (the thread pool's
  // workers, which also spin briefly between parallel regions) spends that many CPU seconds per
  // second, and must not be stopped before its wall-clock limit.
  long cpu_seconds = 0;
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

unsigned long flags_to_keep(const struct statvfs& stats) {
  unsigned long flags = 0;
  if (stats.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (stats.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (stats.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (stats.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (stats.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (stats.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
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
    mounts.emplace_back(path, flags_to_keep(stats));
  }
  return mounts;
}

bool path_is_under(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

// Every folder from `root` down to `path` (exclusive of `root`), each once, parents first.
void add_dirs(std::vector<std::string>& dirs, std::set<std::string>& seen, const std::string& root, const fs::path& path) {
  fs::path so_far;
  for (const auto& part : path.relative_path()) {
    so_far /= part;
    std::string dir = root + "/" + so_far.string();
    if (seen.insert(dir).second) dirs.push_back(dir);
  }
}

// Opens `path` for binding (O_PATH: no permission on the file itself is needed) and records where
// it goes. False when it does not exist.
bool add_bind(PreparedExec& exec, std::set<std::string>& seen, const fs::path& path, bool writable, bool required) {
  std::error_code error;
  auto status = fs::status(path, error);
  if (error || !fs::exists(status)) return false;
  Bind bind;
  bind.source = path.string();
  bind.target = exec.staging + path.string();
  bind.is_file = !fs::is_directory(status);
  bind.writable = writable;
  bind.required = required;
  struct statvfs stats {};
  if (statvfs(bind.source.c_str(), &stats) == 0) bind.locked_flags = flags_to_keep(stats);
  if (bind.is_file) {
    add_dirs(exec.dirs_to_create, seen, exec.staging, path.parent_path());
    exec.files_to_create.push_back(bind.target);
  } else {
    add_dirs(exec.dirs_to_create, seen, exec.staging, path);
  }
  exec.binds.push_back(bind);
  return true;
}

void prepare_fresh_root(const SandboxSpec& spec, PreparedExec& exec) {
  std::set<std::string> seen;
  for (const char* path : kSystemPaths) {
    std::error_code error;
    if (fs::is_symlink(path, error)) {
      exec.links.push_back({exec.staging + path, fs::read_symlink(path, error).string()});
      add_dirs(exec.dirs_to_create, seen, exec.staging, fs::path(path).parent_path());
    } else {
      add_bind(exec, seen, path, false, false);
    }
  }
  for (const char* device : kDevices) add_bind(exec, seen, device, true, false);
  for (const auto& path : spec.read_only_paths) add_bind(exec, seen, fs::absolute(path).lexically_normal(), false, true);
  add_bind(exec, seen, exec.writable_dir, true, true);
  for (const char* dir : {"/tmp", "/run", "/proc"}) add_dirs(exec.dirs_to_create, seen, exec.staging, dir);
  exec.tmp_target = exec.staging + "/tmp";
  exec.run_target = exec.staging + "/run";
  exec.proc_target = exec.staging + "/proc";
}

void prepare_read_only_host(PreparedExec& exec) {
  exec.mounts = current_mounts();
  exec.proc_target = "/proc";
}

// The variables a confined program keeps from tito's environment: the search path, the locale and
// time zone, and the settings that choose how numeric libraries run on this processor (set here
// because older OpenBLAS builds compute wrong results on some CPUs without them).
bool passed_to_confined_programs(const std::string& name) {
  for (const char* kept : {"PATH", "LANG", "LANGUAGE", "TZ", "OMP_NUM_THREADS"})
    if (name == kept) return true;
  for (const char* prefix : {"LC_", "OPENBLAS_", "TINYTORCH_"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

PreparedExec prepare_exec(const SandboxSpec& spec) {
  PreparedExec exec;
  const long cores = std::max(1u, std::thread::hardware_concurrency());
  exec.cpu_seconds = static_cast<long>(std::ceil(spec.time_limit_s)) * cores + 2;
  exec.argv_storage = spec.argv;
  for (auto& arg : exec.argv_storage) exec.argv.push_back(arg.data());
  exec.argv.push_back(nullptr);

  // A confined program (a grader's build or test run) gets a clean environment: tito's own may hold an
  // instructor's tokens and paths. Only what a program needs to run the same way is passed on.
  std::map<std::string, std::string> env;
  const bool confine = !spec.writable_dir.empty();
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string text = *entry;
    auto eq = text.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = text.substr(0, eq);
    if (!confine || passed_to_confined_programs(name)) env[name] = text.substr(eq + 1);
  }
  if (confine) env.emplace("PATH", "/usr/local/bin:/usr/bin:/bin");
  for (const auto& [key, value] : spec.extra_env) env[key] = value;
  for (const auto& [key, value] : env) exec.env_storage.push_back(key + "=" + value);
  for (auto& entry : exec.env_storage) exec.envp.push_back(entry.data());
  exec.envp.push_back(nullptr);

  exec.confine = !spec.writable_dir.empty();
  exec.fresh_root = exec.confine && spec.fresh_root;
  exec.as_root = getuid() == 0;
  exec.drop_to_nobody = exec.fresh_root && exec.as_root;
  // Keep our own uid/gid inside the new user namespaces, so files stay ours (or nobody's).
  exec.uid_map = std::to_string(getuid()) + " " + std::to_string(getuid()) + " 1\n";
  exec.gid_map = std::to_string(getgid()) + " " + std::to_string(getgid()) + " 1\n";
  const uid_t uid = exec.drop_to_nobody ? kNobody : getuid();
  const gid_t gid = exec.drop_to_nobody ? kNobody : getgid();
  exec.nested_uid_map = std::to_string(uid) + " " + std::to_string(uid) + " 1\n";
  exec.nested_gid_map = std::to_string(gid) + " " + std::to_string(gid) + " 1\n";
  exec.scratch_options = "size=" + std::to_string(std::max<std::size_t>(spec.scratch_mb, 1)) + "m,mode=1777";
  if (!spec.working_dir.empty()) exec.working_dir = fs::absolute(spec.working_dir).string();
  if (exec.confine) {
    exec.writable_dir = fs::absolute(spec.writable_dir).lexically_normal().string();
    if (exec.writable_dir.size() > 1 && exec.writable_dir.back() == '/') exec.writable_dir.pop_back();
    if (exec.fresh_root) prepare_fresh_root(spec, exec);
    else prepare_read_only_host(exec);
  }
  return exec;
}

// The program's files must be writable by the user it runs as.
void hand_over_to_nobody(const std::string& dir) {
  std::error_code error;
  if (lchown(dir.c_str(), kNobody, kNobody) != 0) return;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (lchown(it->path().c_str(), kNobody, kNobody) != 0) return;
}

// --- From here on, the code runs in the children: async-signal-safe calls only. ---

void say(const char* text) {
  ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
  (void)ignored;
}

[[noreturn]] void setup_failed(const char* what) {
  say("tito sandbox: could not ");
  say(what);
  say("\n");
  _exit(kSetupFailed);
}

bool write_proc_file(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

bool map_ids(const std::string& uid_map, const std::string& gid_map) {
  write_proc_file("/proc/self/setgroups", "deny");
  return write_proc_file("/proc/self/uid_map", uid_map) && write_proc_file("/proc/self/gid_map", gid_map);
}

// "/proc/self/fd/N" for an open descriptor, without allocating.
void proc_fd_path(int fd, char (&path)[32]) {
  const char prefix[] = "/proc/self/fd/";
  std::size_t at = 0;
  for (; prefix[at] != '\0'; ++at) path[at] = prefix[at];
  char digits[12];
  int length = 0;
  for (int n = fd; n > 0 || length == 0; n /= 10) digits[length++] = static_cast<char>('0' + n % 10);
  while (length > 0) path[at++] = digits[--length];
  path[at] = '\0';
}

// Without confinement: a fresh network namespace has no interfaces, so learner code cannot reach the
// network. Unprivileged users need a user namespace first; containers often forbid both.
void try_cut_network(const PreparedExec& exec) {
  if (unshare(CLONE_NEWNET) == 0) return;
  if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) return;
  map_ids(exec.uid_map, exec.gid_map);
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  struct rlimit limit {};
  limit.rlim_cur = soft;
  limit.rlim_max = hard;
  setrlimit(resource, &limit);
}

void set_limits(const SandboxSpec& spec, const PreparedExec& exec) {
  set_limit(RLIMIT_CORE, 0, 0);
  // CPU time is only a backstop for the parent's wall-clock limit (e.g. if tito itself is stopped).
  auto cpu_seconds = static_cast<rlim_t>(exec.cpu_seconds);
  set_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds + 1);
  if (spec.limit_address_space && spec.memory_limit_mb > 0) {
    auto bytes = static_cast<rlim_t>(spec.memory_limit_mb) * 1024 * 1024;
    set_limit(RLIMIT_AS, bytes, bytes);
  }
  if (spec.max_file_mb > 0) {
    auto bytes = static_cast<rlim_t>(spec.max_file_mb) * 1024 * 1024;
    set_limit(RLIMIT_FSIZE, bytes, bytes);
  }
  if (spec.max_processes > 0) set_limit(RLIMIT_NPROC, spec.max_processes, spec.max_processes);
}

void make_dirs_and_files(const PreparedExec& exec) {
  for (const auto& dir : exec.dirs_to_create) mkdir(dir.c_str(), 0755);
  for (const auto& file : exec.files_to_create) {
    int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
  }
}

void mount_private_dirs(const PreparedExec& exec) {
  if (mount("tmpfs", exec.tmp_target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, exec.scratch_options.c_str()) != 0)
    setup_failed("mount a private /tmp");
  // A system without /run has no sockets there to hide.
  mount("tmpfs", exec.run_target.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755");
}

// A fresh root on a tmpfs at `staging` holding only the binds, then made the root.
void build_fresh_root(const PreparedExec& exec) {
  // Open every source before the staging tmpfs covers /tmp (where the sources may live).
  int fds[kMaxBinds];
  const std::size_t count = exec.binds.size() < kMaxBinds ? exec.binds.size() : kMaxBinds;
  for (std::size_t i = 0; i < count; ++i) fds[i] = open(exec.binds[i].source.c_str(), O_PATH | O_CLOEXEC);
  if (mount("tmpfs", exec.staging.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0)
    setup_failed("mount the new root");
  // The private /tmp first: binds below it (the writable folder may live in /tmp) go on top.
  mkdir(exec.tmp_target.c_str(), 0755);
  mkdir(exec.run_target.c_str(), 0755);
  mount_private_dirs(exec);
  make_dirs_and_files(exec);
  for (const auto& link : exec.links)
    if (symlink(link.points_to.c_str(), link.target.c_str()) != 0) setup_failed("link a system folder");
  for (std::size_t i = 0; i < count; ++i) {
    const Bind& bind = exec.binds[i];
    char source[32];
    proc_fd_path(fds[i], source);
    const bool bound = fds[i] >= 0 && mount(source, bind.target.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0;
    if (fds[i] >= 0) close(fds[i]);
    if (!bound) {
      if (bind.required) setup_failed("show a needed file or folder in the new root");
      continue;
    }
    if (!bind.writable &&
        mount(nullptr, bind.target.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | bind.locked_flags, nullptr) != 0)
      setup_failed("make a file or folder read-only");
  }
  // Where the kernel refuses a new /proc (e.g. a container that masks parts of its own), there is
  // none at all: still nothing outside to see.
  mount("proc", exec.proc_target.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
  if (chdir(exec.staging.c_str()) != 0 || syscall(SYS_pivot_root, ".", ".") != 0) setup_failed("switch to the new root");
  umount2(".", MNT_DETACH);  // the old root, stacked on the same folder by pivot_root
  if (chdir("/") != 0) setup_failed("enter the new root");
  if (mount(nullptr, "/", nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, nullptr) != 0)
    setup_failed("make the new root read-only");
}

// The host's file system, every mount read-only except the writable dir. /tmp stays the host's (read-
// only): what runs here is the compiler, which needs the learner's files wherever they are.
void make_host_read_only(const PreparedExec& exec) {
  const char* writable = exec.writable_dir.c_str();
  if (mount(writable, writable, nullptr, MS_BIND | MS_REC, nullptr) != 0) setup_failed("bind the writable folder");
  for (const auto& [mount_point, flags] : exec.mounts) {
    if (path_is_under(mount_point, exec.writable_dir) || path_is_under(mount_point, "/proc")) continue;
    // Failures (e.g. a mount hidden under another) leave that one mount as it was.
    mount(nullptr, mount_point.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY | flags, nullptr);
  }
  mount("proc", exec.proc_target.c_str(), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr);
}

volatile pid_t forward_usr1_to = 0;
void forward_usr1(int) {
  if (forward_usr1_to > 0) kill(forward_usr1_to, SIGUSR1);
}

void forward_usr1_to_child() {
  struct sigaction action {};
  action.sa_handler = forward_usr1;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGUSR1, &action, nullptr);
}

void default_usr1() { signal(SIGUSR1, SIG_DFL); }

// The program itself, in a nested user namespace (so the mounts it inherits are locked), with no
// capabilities and no way to gain any.
[[noreturn]] void exec_confined_program(const SandboxSpec& spec, const PreparedExec& exec) {
  default_usr1();
  // Run by root, a fresh-root program runs as nobody: root is exempt from the process-count limit.
  if (exec.drop_to_nobody &&
      (setgroups(0, nullptr) != 0 || setresgid(kNobody, kNobody, kNobody) != 0 || setresuid(kNobody, kNobody, kNobody) != 0))
    setup_failed("switch to the user nobody");
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);  // a uid change made /proc/self root's; writing the id maps needs it ours
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) setup_failed("enter a nested user namespace");
  map_ids(exec.nested_uid_map, exec.nested_gid_map);
  for (int capability = 0; capability <= 63; ++capability) prctl(PR_CAPBSET_DROP, capability, 0, 0, 0);
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header {};
  header.version = _LINUX_CAPABILITY_VERSION_3;
  struct __user_cap_data_struct none[2] = {};
  if (syscall(SYS_capset, &header, none) != 0) setup_failed("drop capabilities");
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) setup_failed("set no_new_privs");
  set_limits(spec, exec);
  if (!exec.working_dir.empty() && chdir(exec.working_dir.c_str()) != 0) setup_failed("enter the working folder");
  execve(exec.argv[0], exec.argv.data(), exec.envp.data());
  say("tito sandbox: could not execute the test program\n");
  _exit(127);
}

// PID 1 of the sandbox's PID namespace: sets up the mounts, starts the program, reaps whatever
// else runs, and when the program ends reports its wait status to tito and exits, which ends
// everything still running in the namespace.
[[noreturn]] void run_namespace_init(const SandboxSpec& spec, const PreparedExec& exec, int status_fd) {
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  // Run by root there is no user namespace yet: nothing done here may reach the host's mounts.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) setup_failed("make the mounts private");
  if (exec.fresh_root) build_fresh_root(exec);
  else make_host_read_only(exec);
  forward_usr1_to_child();
  pid_t program = fork();
  if (program < 0) setup_failed("start the program");
  if (program == 0) exec_confined_program(spec, exec);
  forward_usr1_to = program;
  for (;;) {
    int status = 0;
    pid_t ended = waitpid(-1, &status, 0);
    if (ended == program) {
      ssize_t ignored = write(status_fd, &status, sizeof status);
      (void)ignored;
      _exit(0);
    }
    if (ended < 0 && errno != EINTR) _exit(kSetupFailed);
  }
}

// Descriptors tito opened, and the numbers the program gets them as.
struct HandedDescriptor {
  int fd, as;
};
constexpr std::size_t kMaxHandedDescriptors = 8;

// Nothing else tito holds, or inherited from whoever started it (a CI runner's pipes, a terminal),
// reaches the program: 3 to 99 are closed but for the handed numbers, and from 100 up (tito's own
// staged copies and the status pipe, which the namespace's first process still uses) close on exec.
void keep_only_handed_descriptors(const std::vector<HandedDescriptor>& handed) {
  for (int fd = STDERR_FILENO + 1; fd < 100; ++fd) {
    bool keep = false;
    for (std::size_t i = 0; i < handed.size() && i < kMaxHandedDescriptors; ++i) keep = keep || handed[i].as == fd;
    if (!keep) close(fd);
  }
  if (close_range(100, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  struct rlimit open_files {};
  getrlimit(RLIMIT_NOFILE, &open_files);
  const rlim_t last = open_files.rlim_cur < 65536 ? open_files.rlim_cur : 65536;
  for (rlim_t fd = 100; fd < last; ++fd) fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
}

// `status_fd` is numbered from 100, above the handed descriptors' numbers.
[[noreturn]] void run_child(const SandboxSpec& spec, const PreparedExec& exec, int output_fd, int status_fd,
                            const std::vector<HandedDescriptor>& handed) {
  setpgid(0, 0);  // its own process group, so the parent can kill everything it spawns
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  // Out of the way of the numbers they are handed out as, before any of those is overwritten.
  int staged[kMaxHandedDescriptors];
  for (std::size_t i = 0; i < handed.size() && i < kMaxHandedDescriptors; ++i) staged[i] = fcntl(handed[i].fd, F_DUPFD_CLOEXEC, 100);
  output_fd = fcntl(output_fd, F_DUPFD_CLOEXEC, 100);
  // Opened close-on-exec: only its copy as stdin reaches the program.
  int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd > STDIN_FILENO) {
    dup2(null_fd, STDIN_FILENO);
    close(null_fd);
  } else if (null_fd == STDIN_FILENO) {
    fcntl(null_fd, F_SETFD, 0);
  }
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
  for (std::size_t i = 0; i < handed.size() && i < kMaxHandedDescriptors; ++i)
    if (staged[i] < 0 || dup2(staged[i], handed[i].as) < 0) setup_failed("hand a file to the program");
  keep_only_handed_descriptors(handed);

  if (exec.confine) {
    // Root needs no user namespace for the set-up (and keeps its access to the files to show); anyone
    // else gets one in which it may mount.
    const int namespaces = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | (exec.as_root ? 0 : CLONE_NEWUSER);
    if (unshare(namespaces) == 0) {
      if (!exec.as_root && !map_ids(exec.uid_map, exec.gid_map)) setup_failed("map user ids in the new user namespace");
      forward_usr1_to_child();
      pid_t init = fork();
      if (init < 0) setup_failed("start the namespace's first process");
      if (init == 0) run_namespace_init(spec, exec, status_fd);
      forward_usr1_to = init;
      int status = 0;
      while (waitpid(init, &status, 0) < 0 && errno == EINTR) {}
      _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
    // The kernel forbids the namespaces: today's behaviour (confinement_works tells tito so).
  }
  try_cut_network(exec);
  set_limits(spec, exec);
  if (!exec.working_dir.empty() && chdir(exec.working_dir.c_str()) != 0) _exit(126);
  execve(exec.argv[0], exec.argv.data(), exec.envp.data());
  say("tito sandbox: could not execute the test program\n");
  _exit(127);
}

}  // namespace

bool confinement_works(const std::filesystem::path& scratch_dir) {
  const fs::path inside = scratch_dir / "confinement-probe";
  const fs::path outside = scratch_dir / "confinement-probe-outside";
  std::error_code ignored;
  fs::remove_all(inside, ignored);
  fs::create_directories(inside, ignored);
  std::ofstream(outside) << "outside\n";
  SandboxSpec spec;
  // PID 1 is the sandbox's own first process; the file beside the scratch folder does not exist
  // there; the root cannot be written.
  spec.argv = {"/bin/sh", "-c",
               "test \"$PPID\" = 1 || exit 3; test -e \"$0\" && exit 4; touch /probe 2>/dev/null && exit 5; "
               "echo ok > \"$1/written\"",
               outside.string(), inside.string()};
  spec.output_file = inside / "output.txt";
  spec.working_dir = inside;
  spec.time_limit_s = 10;
  spec.writable_dir = inside;
  spec.fresh_root = true;
  SandboxResult run = sandboxed_run(spec);
  const bool confined = run.started && run.exit_code == 0 && fs::exists(inside / "written", ignored);
  fs::remove_all(inside, ignored);
  fs::remove(outside, ignored);
  return confined;
}

std::string describe_signal(int signal_number) { return describe_signal_both(signal_number).english; }

Bilingual describe_signal_both(int signal_number) {
  // TRANSLATORS: a signal that ended a program: its name (kept as it is), then what it means
  switch (signal_number) {
    case SIGSEGV: return trb("SIGSEGV (segmentation fault: an invalid memory access)");
    case SIGABRT: return trb("SIGABRT (aborted, e.g. a failed assert or std::terminate)");
    case SIGFPE: return trb("SIGFPE (arithmetic error, e.g. integer division by zero)");
    case SIGBUS: return trb("SIGBUS (bus error: a misaligned or unmapped memory access)");
    case SIGILL: return trb("SIGILL (illegal instruction)");
    case SIGKILL: return trb("SIGKILL (killed)");
    case SIGXCPU: return trb("SIGXCPU (CPU time limit exceeded)");
    case SIGXFSZ: return trb("SIGXFSZ (file size limit exceeded: it wrote too much output or too large a file)");
    case SIGTERM: return trb("SIGTERM (terminated)");
    case SIGPIPE: return trb("SIGPIPE (broken pipe)");
    default: {
      const char* name = strsignal(signal_number);  // the C library's own words
      // TRANSLATORS: a signal without a name of tito's: its number, then the C library's description
      return trb("signal {} ({})", signal_number, name ? name : "unknown");
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
  if (exec.binds.size() > kMaxBinds) {
    result.error = "too many files and folders to show in the sandbox (at most " + std::to_string(kMaxBinds) + ")";
    return result;
  }
  if (exec.drop_to_nobody) hand_over_to_nobody(exec.writable_dir);
  if (spec.descriptor_files.size() > kMaxHandedDescriptors) {
    result.error = "too many files to hand to the program (at most " + std::to_string(kMaxHandedDescriptors) + ")";
    return result;
  }
  // Whatever lies at these paths, tito writes to no file a link points to: O_NOFOLLOW for a symbolic
  // link, and a file with a second name (a hard link) is refused before it is emptied.
  auto open_for_program = [](const fs::path& file) {
    const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    struct stat info {};
    if (fd >= 0 && (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_nlink != 1 || ftruncate(fd, 0) != 0)) {
      close(fd);
      errno = ELOOP;
      return -1;
    }
    return fd;
  };
  std::vector<HandedDescriptor> handed;
  auto close_handed = [&] {
    for (const auto& h : handed) close(h.fd);
  };
  for (const auto& [number, file] : spec.descriptor_files) {
    const int fd = number > 2 && number < 100 ? open_for_program(file) : -1;
    if (fd < 0) {
      result.error = number > 2 && number < 100 ? "cannot create " + file.string() + ": " + std::strerror(errno)
                                                : "descriptor " + std::to_string(number) + " cannot be handed to a program";
      close_handed();
      return result;
    }
    handed.push_back({fd, number});
  }
  int output_fd = open_for_program(spec.output_file);
  if (output_fd < 0) {
    result.error = "cannot create " + spec.output_file.string() + ": " + std::strerror(errno);
    close_handed();
    return result;
  }
  // The namespace's first process writes the program's wait status here: the child tito waits for
  // is not the program itself.
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe failed: ") + std::strerror(errno);
    close(output_fd);
    close_handed();
    return result;
  }
  for (int& end : status_pipe) {  // above the numbers handed to the program, which run_child closes
    const int moved = fcntl(end, F_DUPFD_CLOEXEC, 100);
    close(end);
    end = moved;
  }
  if (status_pipe[0] < 0 || status_pipe[1] < 0 || fcntl(status_pipe[0], F_SETFL, O_NONBLOCK) != 0) {
    result.error = std::string("pipe failed: ") + std::strerror(errno);
    close(output_fd);
    close_handed();
    for (int end : status_pipe)
      if (end >= 0) close(end);
    return result;
  }

  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    result.error = std::string("fork failed: ") + std::strerror(errno);
    close(output_fd);
    close_handed();
    close(status_pipe[0]);
    close(status_pipe[1]);
    return result;
  }
  if (pid == 0) {
    close(status_pipe[0]);
    run_child(spec, exec, output_fd, status_pipe[1], handed);
  }
  setpgid(pid, pid);  // also from the parent, so killpg works even before the child ran
  close(output_fd);
  close_handed();
  close(status_pipe[1]);
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

  int program_status = 0;
  if (read(status_pipe[0], &program_status, sizeof program_status) == static_cast<ssize_t>(sizeof program_status))
    status = program_status;
  close(status_pipe[0]);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace tito
