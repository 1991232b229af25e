#pragma once
// Runs one untrusted program (a learner's test binary, or the compiler on a learner's files) in a child
// process with limits, so that a crash, an endless loop or an unbounded allocation costs only that run,
// never tito itself.
//
// With `writable_dir` set the program is confined (where the kernel allows user namespaces):
//  - its own PID namespace with its own /proc: it sees only what it started, cannot signal anything
//    outside (tito included), and everything it started dies when it ends or is killed;
//  - a mount namespace whose read-only mounts it cannot undo: it runs in a nested user namespace
//    (mounts copied into it are locked), with every capability dropped and no_new_privs;
//  - no network, its own IPC namespace;
//  - with `fresh_root`: a new root holding only the system's programs and libraries, `read_only_paths`
//    and `writable_dir`, so the repository, the release, other learners and the grades are not there,
//    with private, size-capped tmpfs /tmp and /run (no host Unix sockets); run by tito as root, it
//    runs as `nobody` so that the process-count limit applies. Without: the host's files, read-only
//    but for `writable_dir` (what a compiler needs).
// Where the kernel refuses the namespaces the program runs with today's limits only (rlimits and the
// time limit); `confinement_works` tells which, so that callers can say so.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/i18n.h"

namespace tito {

struct SandboxSpec {
  std::vector<std::string> argv;                 // argv[0] is the executable's path
  std::map<std::string, std::string> extra_env;  // added to (or replacing in) tito's environment
  // Receives stdout and stderr. tito opens it before the program starts and never follows a link there;
  // it belongs in a folder the program cannot write (a learner could otherwise swap it for a link).
  std::filesystem::path output_file;
  // More files opened like output_file (created, emptied, appended to) and handed to the program as
  // these descriptor numbers (above 2): e.g. {3, events file}, announced to it in extra_env.
  std::map<int, std::filesystem::path> descriptor_files;
  std::filesystem::path working_dir;             // empty: tito's own
  double time_limit_s = 30;                      // wall clock, enforced by the parent
  std::size_t memory_limit_mb = 1024;            // address space; 0 = no limit
  bool limit_address_space = true;               // false under ASan, which reserves terabytes of address space
  std::size_t max_file_mb = 0;                   // RLIMIT_FSIZE: no file (the output included) grows past it; 0 = none
  int max_processes = 0;                         // RLIMIT_NPROC (confined runs); 0 = no limit
  // Set: confine the program as the header comment says; this directory stays writable at its own path.
  std::filesystem::path writable_dir;
  bool fresh_root = false;                               // see the header comment
  std::vector<std::filesystem::path> read_only_paths;   // files or folders shown in a fresh root, same paths
  std::size_t scratch_mb = 64;                           // size of the private /tmp
  // Called every few milliseconds while the program runs (e.g. to show its output live); returning
  // false stops the program at once (e.g. the learner pressed Ctrl-C).
  std::function<bool()> keep_running;
  // Called once the program has started, with a process id that forwards SIGUSR1 to the program.
  std::function<void(int pid)> on_start;
  // Called when the time limit is reached, before the kill: the last moment to ask the program
  // where it is (e.g. send it SIGUSR1 and wait briefly for the backtrace it writes).
  std::function<void()> before_time_out_kill;
};

struct SandboxResult {
  bool started = false;     // false: fork or exec failed (see error)
  bool timed_out = false;   // the parent killed it at the wall-clock limit
  bool stopped = false;     // keep_running returned false and the parent killed it
  int exit_code = -1;       // when it exited normally
  int signal = 0;           // when a signal ended it
  double wall_seconds = 0;
  std::string error;
};

SandboxResult sandboxed_run(const SandboxSpec& spec);

// Whether confinement really works on this machine: runs a shell in a fresh root confined to
// `scratch_dir` and checks that it is PID 1's child, that a file beside the scratch folder is neither
// visible nor writable, and that the root is read-only. False: the kernel forbids the namespaces.
bool confinement_works(const std::filesystem::path& scratch_dir);

// "SIGSEGV (segmentation fault)", "SIGABRT (aborted)", ...
std::string describe_signal(int signal_number);
// The same in English and in the message language (for a report a person reads).
Bilingual describe_signal_both(int signal_number);

}  // namespace tito
