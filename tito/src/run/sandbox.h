#pragma once
// Runs one untrusted program (a learner's test binary) in a child process with limits, so that a
// crash, an endless loop or an unbounded allocation costs only that run, never tito itself.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tito {

struct SandboxSpec {
  std::vector<std::string> argv;                 // argv[0] is the executable's path
  std::map<std::string, std::string> extra_env;  // added to (or replacing in) tito's environment
  std::filesystem::path output_file;             // receives stdout and stderr
  std::filesystem::path working_dir;             // empty: tito's own
  double time_limit_s = 30;                      // wall clock, enforced by the parent
  std::size_t memory_limit_mb = 1024;            // address space; 0 = no limit
  bool limit_address_space = true;               // false under ASan, which reserves terabytes of address space
  // Set: best effort to make every other mount read-only for the program (a private user + mount
  // namespace); where the system forbids that, the program runs unconfined (write_confinement_works).
  std::filesystem::path writable_dir;
  // Called every few milliseconds while the program runs (e.g. to show its output live); returning
  // false stops the program at once (e.g. the learner pressed Ctrl-C).
  std::function<bool()> keep_running;
  // Called once the program has started, with its process id (e.g. to signal it later).
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

// Whether SandboxSpec::writable_dir really stops writes on this machine: runs `touch` confined to
// `scratch_dir` against a file beside it and checks that nothing appeared.
bool write_confinement_works(const std::filesystem::path& scratch_dir);

// "SIGSEGV (segmentation fault)", "SIGABRT (aborted)", ...
std::string describe_signal(int signal_number);

}  // namespace tito
