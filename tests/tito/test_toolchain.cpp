// The compiler a learner's code is built with: the one this build of the framework was configured
// with (CXX=clang++ scripts/setup), recorded in toolchain.json, written into every learner build.ninja
// and named in messages.
#include <catch2/catch.hpp>

#include "build/ninja_file.h"
#include "run/module_test_runner.h"

using namespace tito;

namespace {

Toolchain toolchain_for(const std::string& cxx, const std::string& id, const std::string& version) {
  Toolchain toolchain;
  toolchain.cxx = cxx;
  toolchain.cxx_id = id;
  toolchain.cxx_version = version;
  toolchain.given_lib = "/lib/given.a";
  toolchain.catch_main_lib = "/lib/catch_main.a";
  return toolchain;
}

}  // namespace

TEST_CASE("toolchain.json records the compiler this build was configured with", "[toolchain]") {
  const Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  CHECK(toolchain.cxx == TITO_TESTS_CXX_COMPILER);
  CHECK(toolchain.cxx_id == TITO_TESTS_CXX_COMPILER_ID);
  CHECK(toolchain.cxx_version == TITO_TESTS_CXX_COMPILER_VERSION);
  // The build compiles itself with a tested compiler, so it must call that one supported.
  CHECK(is_supported_compiler(toolchain));
}

TEST_CASE("a learner's build.ninja compiles and links with the toolchain's compiler", "[toolchain][ninja]") {
  const Toolchain toolchain = toolchain_for("/opt/llvm/bin/clang++", "Clang", "14.0.6");
  NinjaPlan plan;
  plan.learner_sources.push_back({"/ws/modules/01_tensor/tensor.cpp", "obj/01/tensor.o", "01/tensor.cpp"});
  const std::string text = ninja_file_text(toolchain, plan);
  CHECK(text.find("\ncxx = /opt/llvm/bin/clang++\n") != std::string::npos);
  CHECK(text.find("command = $cxx -MMD") != std::string::npos);
  CHECK(text.find("command = $cxx -o $out") != std::string::npos);
  CHECK(text.find("cxx = ") == text.rfind("cxx = "));  // the one compiler, defined once
}

TEST_CASE("messages name the compiler by name, version and path", "[toolchain]") {
  CHECK(describe_compiler(toolchain_for("/usr/bin/g++", "GNU", "12.2.0")) == "GCC 12.2.0 (/usr/bin/g++)");
  CHECK(describe_compiler(toolchain_for("/usr/bin/clang++", "Clang", "14.0.6")) == "Clang 14.0.6 (/usr/bin/clang++)");
  CHECK(describe_compiler(toolchain_for("/usr/bin/c++", "AppleClang", "15.0.0")) == "Apple Clang 15.0.0 (/usr/bin/c++)");
  CHECK(describe_compiler(toolchain_for("/usr/bin/c++", "", "")) == "/usr/bin/c++");
}

TEST_CASE("GCC 12+ and Clang 14+ are the tested compilers; the fix offers the other one", "[toolchain]") {
  CHECK(is_supported_compiler(toolchain_for("g++", "GNU", "12.2.0")));
  CHECK(is_supported_compiler(toolchain_for("g++", "GNU", "13.1.0")));
  CHECK_FALSE(is_supported_compiler(toolchain_for("g++", "GNU", "11.4.0")));
  CHECK(is_supported_compiler(toolchain_for("clang++", "Clang", "14.0.6")));
  CHECK_FALSE(is_supported_compiler(toolchain_for("clang++", "Clang", "13.0.1")));
  CHECK_FALSE(is_supported_compiler(toolchain_for("c++", "AppleClang", "15.0.0")));  // untested
  CHECK_FALSE(is_supported_compiler(toolchain_for("icpx", "IntelLLVM", "2024.0")));

  CHECK(switch_compiler_command(toolchain_for("/usr/bin/clang++", "Clang", "14.0.6"), "/src") == "CXX=g++ /src/scripts/setup");
  CHECK(switch_compiler_command(toolchain_for("/usr/bin/g++", "GNU", "12.2.0"), "/src") == "CXX=clang++ /src/scripts/setup");
  CHECK(install_compiler_command(toolchain_for("/usr/bin/clang++-14", "Clang", "14.0.6")) == "sudo apt-get install clang");
  CHECK(install_compiler_command(toolchain_for("/usr/bin/g++", "GNU", "12.2.0")) == "sudo apt-get install g++");
}
