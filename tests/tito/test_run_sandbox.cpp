// The sandbox on its own, and the clear errors for a broken set-up.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "run/module_test_runner.h"
#include "run/sandbox.h"
#include "run/stack_location.h"
#include "../test_skip.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

fs::path scratch_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("tito_test_run_sandbox_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

SandboxSpec shell(const std::string& script, const fs::path& dir) {
  SandboxSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.output_file = dir / "output.txt";
  spec.time_limit_s = 1;
  return spec;
}

}  // namespace

TEST_CASE("sandboxed_run captures output, exit code and environment", "[run][sandbox]") {
  fs::path dir = scratch_dir("output");
  SandboxSpec spec = shell("echo out; echo err >&2; read line; echo \"[$line]\"; echo $TITO_X; exit 3", dir);
  spec.extra_env["TITO_X"] = "from tito";
  SandboxResult result = sandboxed_run(spec);
  CHECK(result.started);
  CHECK(result.exit_code == 3);
  CHECK(result.signal == 0);
  CHECK_FALSE(result.timed_out);
  CHECK(read_all(spec.output_file) == "out\nerr\n[]\nfrom tito\n");  // stdin is /dev/null
}

TEST_CASE("sandboxed_run kills a program, and its children, at the time limit", "[run][sandbox]") {
  fs::path dir = scratch_dir("timeout");
  SandboxSpec spec = shell("sleep 30 & sleep 30; echo never", dir);
  SandboxResult result = sandboxed_run(spec);
  CHECK(result.timed_out);
  CHECK(result.signal == SIGKILL);
  CHECK(result.wall_seconds < 5);
  CHECK(read_all(spec.output_file).empty());
}

TEST_CASE("sandboxed_run reports the signal that ended a program", "[run][sandbox]") {
  fs::path dir = scratch_dir("signal");
  SandboxResult result = sandboxed_run(shell("kill -SEGV $$", dir));
  CHECK(result.signal == SIGSEGV);
  CHECK(describe_signal(SIGSEGV).rfind("SIGSEGV (segmentation fault", 0) == 0);
}

TEST_CASE("sandboxed_run limits the address space", "[run][sandbox]") {
  fs::path dir = scratch_dir("memory");
  SandboxSpec spec = shell("ulimit -v", dir);
  spec.memory_limit_mb = 300;
  sandboxed_run(spec);
  CHECK(read_all(spec.output_file) == std::to_string(300 * 1024) + "\n");
}

TEST_CASE("load_toolchain names the missing file and the fix", "[run][toolchain]") {
  fs::path dir = scratch_dir("no_toolchain");
  try {
    load_toolchain(dir);
    FAIL("expected an error");
  } catch (const std::runtime_error& error) {
    std::string message = error.what();
    CHECK(message.find((dir / "tito" / "toolchain.json").string()) != std::string::npos);
    CHECK(message.find("re-run the set-up") != std::string::npos);
  }
  fs::create_directories(dir / "tito");
  std::ofstream(dir / "tito" / "toolchain.json") << "{\"cxx\": 3}";
  CHECK_THROWS_WITH(load_toolchain(dir), Catch::Contains("unreadable") && Catch::Contains("re-run the set-up"));
}

TEST_CASE("run_module_tests says how to install a missing compiler or ninja", "[run][toolchain]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  ModuleTestRequest request;
  request.module = "fx";
  request.build_dir = scratch_dir("missing_tools");

  Toolchain no_compiler = toolchain;
  no_compiler.cxx = "/nonexistent/g++";
  CHECK_THROWS_WITH(run_module_tests(no_compiler, request),
                    Catch::Contains("/nonexistent/g++") && Catch::Contains("sudo apt-get install g++"));

  Toolchain no_ninja = toolchain;
  no_ninja.ninja = "/nonexistent/ninja";
  CHECK_THROWS_WITH(run_module_tests(no_ninja, request), Catch::Contains("sudo apt-get install ninja-build"));
}

// --- Confinement (sandbox.h): one case per property. Skipped, saying so, where the kernel forbids
// the namespaces (then grading warns loudly and runs with the limits only).

namespace {

// A program confined to `dir` (its run folder) in a fresh root, as grading runs test programs.
SandboxSpec confined_shell(const std::string& script, const fs::path& dir) {
  SandboxSpec spec = shell(script, dir);
  spec.working_dir = dir;
  spec.writable_dir = dir;
  spec.fresh_root = true;
  spec.time_limit_s = 10;
  return spec;
}

bool confinement_available() {
  static const bool works = confinement_works(scratch_dir("probe"));
  return works;
}

#define REQUIRE_CONFINEMENT()                                                                             \
  if (!confinement_available()) SKIP_TEST("this kernel forbids user/mount/PID namespaces: grading runs with " \
                                          "limits only here")

}  // namespace

TEST_CASE("a confined program is a child of its own PID 1 and sees only its own processes", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("pid_namespace");
  SandboxSpec spec = confined_shell(
      "echo ppid=$PPID; echo processes=$(ls /proc | grep -c '^[0-9]'); kill -9 $PPID; kill -9 \"$0\" 2>/dev/null || echo no-tito",
      dir);
  spec.argv.push_back(std::to_string(getpid()));  // tito's own pid, as seen from outside
  SandboxResult result = sandboxed_run(spec);
  const std::string output = read_all(spec.output_file);
  CHECK(result.exit_code == 0);
  CHECK(output.find("ppid=1\n") == 0);
  const auto count = output.find("processes=");
  REQUIRE(count != std::string::npos);
  CHECK(std::stoi(output.substr(count + 10)) <= 6);  // PID 1, the shell and the pipeline: nothing of the host
  CHECK(output.find("no-tito") != std::string::npos);
}

TEST_CASE("everything a confined program started dies with it, setsid or not", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("outlive");
  SandboxSpec spec = confined_shell("setsid sh -c 'sleep 1; echo alive > survivor.txt' & sleep 0.1; echo started", dir);
  SandboxResult result = sandboxed_run(spec);
  CHECK(result.exit_code == 0);
  CHECK(read_all(spec.output_file) == "started\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  CHECK_FALSE(fs::exists(dir / "survivor.txt"));
}

TEST_CASE("a confined program cannot remount its root writable, even in a namespace of its own", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("remount");
  SandboxSpec spec = confined_shell(
      "grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; "
      "mount -o remount,rw / 2>/dev/null && echo remounted; "
      "unshare -Urm sh -c 'mount -o remount,rw / && touch /etc/owned' 2>/dev/null && echo escaped; "
      "touch /etc/owned 2>/dev/null && echo wrote-root; echo done",
      dir);
  SandboxResult result = sandboxed_run(spec);
  const std::string output = read_all(spec.output_file);
  CHECK(result.exit_code == 0);
  CHECK(output.find("CapEff:\t0000000000000000") != std::string::npos);
  CHECK(output.find("CapBnd:\t0000000000000000") != std::string::npos);
  CHECK(output.find("NoNewPrivs:\t1") != std::string::npos);
  CHECK(output.find("remounted") == std::string::npos);
  CHECK(output.find("escaped") == std::string::npos);
  CHECK(output.find("wrote-root") == std::string::npos);
  CHECK(output.find("done") != std::string::npos);
}

TEST_CASE("a confined program sees neither the repository nor the host's /tmp, /run or their sockets", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("fresh_root");
  const fs::path neighbour = scratch_dir("fresh_root_neighbour") / "other_learner.txt";
  std::ofstream(neighbour) << "secret\n";
  const fs::path socket_path = fs::temp_directory_path() / ("tito_test_host_socket_" + std::to_string(getpid()));
  fs::remove(socket_path);
  int host_socket = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socket_path.c_str());
  REQUIRE(bind(host_socket, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(listen(host_socket, 1) == 0);
  REQUIRE(fs::exists(socket_path));

  SandboxSpec spec = confined_shell(
      "for p in \"$0\" \"$1\" \"$2\" /root /work; do test -e \"$p\" && echo \"visible: $p\"; done; "
      "ls -A /run | wc -l; echo > \"$3/mine.txt\" && echo wrote-own",
      dir);
  spec.argv.insert(spec.argv.end(), {TITO_SOURCE_DIR, neighbour.string(), socket_path.string(), dir.string()});
  SandboxResult result = sandboxed_run(spec);
  close(host_socket);
  fs::remove(socket_path);
  const std::string output = read_all(spec.output_file);
  CHECK(result.exit_code == 0);
  CHECK(output.find("visible") == std::string::npos);
  CHECK(output.find("0\nwrote-own") != std::string::npos);
  CHECK(fs::exists(dir / "mine.txt"));
}

TEST_CASE("a confined program's /tmp is a size-capped tmpfs", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("scratch_cap");
  SandboxSpec spec = confined_shell("head -c 20000000 /dev/zero > /tmp/big 2>/dev/null || echo full; ls -l /tmp/big", dir);
  spec.scratch_mb = 8;
  sandboxed_run(spec);
  const std::string output = read_all(spec.output_file);
  CHECK(output.find("full") != std::string::npos);
  CHECK(output.find("20000000") == std::string::npos);
}

TEST_CASE("RLIMIT_FSIZE stops a program that prints without end", "[run][sandbox]") {
  fs::path dir = scratch_dir("output_cap");
  SandboxSpec spec = shell("yes 'a long line of output' ", dir);
  spec.max_file_mb = 2;
  spec.time_limit_s = 10;
  SandboxResult result = sandboxed_run(spec);
  CHECK(result.signal == SIGXFSZ);
  CHECK_FALSE(result.timed_out);
  CHECK(fs::file_size(spec.output_file) <= 2u * 1024 * 1024);
  CHECK(describe_signal(SIGXFSZ).find("file size limit") != std::string::npos);
}

TEST_CASE("a confined program cannot start more processes than its limit", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("process_cap");
  SandboxSpec spec = confined_shell(
      // The subshell dies when a fork fails; counting uses builtins only, as no fork is left.
      "( for i in $(seq 1 100); do sleep 3 & done ) 2>/dev/null; set -- /proc/[0-9]*; echo running=$#",
      dir);
  spec.max_processes = 20;
  SandboxResult result = sandboxed_run(spec);
  const std::string output = read_all(spec.output_file);
  INFO(output);
  const auto at = output.find("running=");
  REQUIRE(at != std::string::npos);
  CHECK(std::stoi(output.substr(at + 8)) <= 22);
  CHECK(result.wall_seconds < 5);  // the sleepers died with the program
}

TEST_CASE("a megabyte-long line of output does not exhaust tito's stack while it looks for a diagnosis", "[run][sandbox]") {
  const std::string flood(2u << 20, 'x');
  CHECK(sanitizer_diagnosis(flood + "\n" + flood, {}).empty());
  CHECK(backtrace_addresses(flood).empty());
}

TEST_CASE("SIGUSR1 sent to the pid on_start gives reaches a confined program (how tito asks where it hangs)",
          "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("usr1");
  SandboxSpec spec = confined_shell("trap 'echo asked; exit 0' USR1; echo ready > ready.txt; while :; do sleep 0.05; done", dir);
  int pid = -1;
  bool sent = false;
  spec.on_start = [&](int started) { pid = started; };
  spec.keep_running = [&] {
    if (!sent && fs::exists(dir / "ready.txt")) sent = kill(pid, SIGUSR1) == 0;
    return true;
  };
  SandboxResult result = sandboxed_run(spec);
  CHECK(sent);
  CHECK_FALSE(result.timed_out);
  CHECK(read_all(spec.output_file) == "asked\n");
}

TEST_CASE("files tito hands a program are descriptors it opened, never a link the program left", "[run][sandbox]") {
  fs::path dir = scratch_dir("descriptors");
  const fs::path victim = dir / "victim.txt";
  std::ofstream(victim) << "untouched\n";
  fs::create_directories(dir / "control");
  SandboxSpec spec = shell("echo to-events >&3; echo to-output", dir);
  spec.output_file = dir / "control" / "output.txt";
  spec.descriptor_files[3] = dir / "control" / "events.txt";
  SandboxResult result = sandboxed_run(spec);
  CHECK(result.exit_code == 0);
  CHECK(read_all(dir / "control" / "events.txt") == "to-events\n");
  CHECK(read_all(spec.output_file) == "to-output\n");

  // A link where tito's file should be (as learner code could leave in a folder it can write) is
  // refused, not written through.
  fs::remove(spec.output_file);
  fs::create_symlink(victim, spec.output_file);
  result = sandboxed_run(spec);
  CHECK_FALSE(result.started);
  CHECK(result.error.find("cannot create") != std::string::npos);
  fs::remove(spec.output_file);
  fs::remove(dir / "control" / "events.txt");
  fs::create_symlink(victim, dir / "control" / "events.txt");
  result = sandboxed_run(spec);
  CHECK_FALSE(result.started);
  CHECK(read_all(victim) == "untouched\n");
}

TEST_CASE("a confined program gets a clean environment: nothing of tito's but the path, locale and CPU settings",
          "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  fs::path dir = scratch_dir("environment");
  setenv("TITO_TEST_INSTRUCTOR_TOKEN", "s3cr3t-token", 1);
  setenv("LC_TITO_TEST", "kept", 1);
  SandboxSpec spec = confined_shell("env", dir);
  spec.extra_env["TITO_GIVEN"] = "given";
  SandboxResult result = sandboxed_run(spec);
  unsetenv("TITO_TEST_INSTRUCTOR_TOKEN");
  unsetenv("LC_TITO_TEST");
  const std::string output = read_all(spec.output_file);
  INFO(output);
  CHECK(result.exit_code == 0);
  CHECK(output.find("s3cr3t-token") == std::string::npos);
  CHECK(output.find("LC_TITO_TEST=kept") != std::string::npos);
  CHECK(output.find("TITO_GIVEN=given") != std::string::npos);
  CHECK(output.find("PATH=") != std::string::npos);
}

TEST_CASE("a confined program holds no descriptor but its output and what tito hands it", "[run][sandbox][confined]") {
  REQUIRE_CONFINEMENT();
  // Whatever tito holds or inherited (a CI runner's pipe, a terminal, a folder's descriptor, from which
  // openat(fd, "..") leads outside) must not reach learner code: only 0-2 and the handed 3 may be open.
  fs::path dir = scratch_dir("descriptors_held");
  fs::create_directories(dir / "control");
  // Two descriptors not close-on-exec, as inherited ones are: one among the numbers tito hands out, one above.
  const int folder = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int inherited_low = fcntl(folder, F_DUPFD, 50), inherited_high = fcntl(folder, F_DUPFD, 150);
  close(folder);
  REQUIRE(inherited_low >= 50);
  REQUIRE(inherited_high >= 150);
  SandboxSpec spec = confined_shell("ls /proc/$$/fd", dir);  // the shell's own, listed by its child
  spec.output_file = dir / "control" / "output.txt";
  spec.descriptor_files[3] = dir / "control" / "events.txt";
  SandboxResult result = sandboxed_run(spec);
  close(inherited_low);
  close(inherited_high);
  CHECK(result.exit_code == 0);
  CHECK(read_all(spec.output_file) == "0\n1\n2\n3\n");
}
