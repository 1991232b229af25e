// The sandbox on its own, and the clear errors for a broken set-up.
#include <catch2/catch.hpp>

#include <signal.h>

#include <fstream>
#include <sstream>

#include "run/module_test_runner.h"
#include "run/sandbox.h"

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
