// The learner build plan: which solution libraries and module-specific link flags a build gets.
// Progressive disclosure depends on it: a module 03 test binary must not contain module 06's engine.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <random>

#include "build/ninja_file.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

struct LearnerDir {
  fs::path path;
  LearnerDir() {
    std::random_device random;
    path = fs::temp_directory_path() / ("tito_test_ninja_" + std::to_string(random()));
    fs::create_directories(path);
    std::ofstream(path / "layer.cpp") << "// learner code\n";
  }
  ~LearnerDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

Toolchain toolchain_with_modules_01_to_08() {
  Toolchain toolchain;
  toolchain.cxx = "g++";
  toolchain.link_flags = {"-pthread"};
  for (int module = 1; module <= 8; ++module) {
    std::string number = "0" + std::to_string(module);
    toolchain.solution_libs[number] = "/lib/solution_" + number + ".a";
  }
  toolchain.module_link_flags["06"] = {"-Wl,-u,engine_registration"};
  toolchain.given_lib = "/lib/given.a";
  toolchain.catch_main_lib = "/lib/catch_main.a";
  return toolchain;
}

bool has_lib(const NinjaPlan& plan, const std::string& lib) {
  return std::find(plan.reference_solution_libs.begin(), plan.reference_solution_libs.end(), fs::path(lib)) !=
         plan.reference_solution_libs.end();
}

}  // namespace

TEST_CASE("a module's test build leaves later modules and their link flags out", "[ninja]") {
  const Toolchain toolchain = toolchain_with_modules_01_to_08();
  LearnerDir learner;
  ModuleTestRequest request;
  request.module = "03";
  request.learner_dirs = {{"03", learner.path}};
  NinjaPlan plan = plan_module_build(toolchain, request);
  CHECK(has_lib(plan, "/lib/solution_01.a"));
  CHECK(has_lib(plan, "/lib/solution_02.a"));
  CHECK_FALSE(has_lib(plan, "/lib/solution_03.a"));  // the learner's own
  CHECK_FALSE(has_lib(plan, "/lib/solution_06.a"));
  CHECK(plan.module_link_flags.empty());
  CHECK(ninja_file_text(toolchain, plan).find("engine_registration") == std::string::npos);

  request.module = "06";
  request.learner_dirs = {{"06", learner.path}};
  plan = plan_module_build(toolchain, request);
  CHECK(has_lib(plan, "/lib/solution_05.a"));
  CHECK_FALSE(has_lib(plan, "/lib/solution_07.a"));
  CHECK(ninja_file_text(toolchain, plan).find("-Wl,-u,engine_registration") != std::string::npos);
}

TEST_CASE("a milestone build reaches its highest learner module, or everything on the reference", "[ninja]") {
  const Toolchain toolchain = toolchain_with_modules_01_to_08();
  LearnerDir learner;
  ProgramRequest request;
  request.sources = {learner.path / "layer.cpp"};
  request.learner_dirs = {{"01", learner.path}, {"02", learner.path}, {"03", learner.path}};
  NinjaPlan plan = plan_program_build(toolchain, request);
  CHECK(plan.reference_solution_libs.empty());
  CHECK(plan.module_link_flags.empty());

  request.learner_dirs.clear();  // --reference
  plan = plan_program_build(toolchain, request);
  CHECK(plan.reference_solution_libs.size() == 8);
  CHECK(plan.module_link_flags == std::vector<std::string>{"-Wl,-u,engine_registration"});
}

TEST_CASE("the test harness is linked whole and before any learner object", "[ninja]") {
  const Toolchain toolchain = toolchain_with_modules_01_to_08();
  LearnerDir learner;
  ModuleTestRequest request;
  request.module = "03";
  request.learner_dirs = {{"03", learner.path}};
  const std::string text = ninja_file_text(toolchain, plan_module_build(toolchain, request));
  // The link rule puts $harness before $in (the tests and the learner's objects).
  const auto rule = text.find("command = $cxx -o $out $harness $in $libs");
  CHECK(rule != std::string::npos);
  const auto harness = text.find("harness = -Wl,--whole-archive /lib/catch_main.a -Wl,--no-whole-archive");
  CHECK(harness != std::string::npos);
  // ... and it is not also an archive in the library group, where a learner's definition would win.
  const auto libs = text.find("libs = ");
  REQUIRE(libs != std::string::npos);
  CHECK(text.find("/lib/catch_main.a", libs) == std::string::npos);
}
