#pragma once
// The build.ninja that compiles a learner's files and a module's tests into one test binary.
// Written once per run (only when its text changes); ninja's depfiles then decide what rebuilds,
// so an unchanged tree costs one stat per file and a touched file costs one compile and a link.
#include <filesystem>
#include <string>
#include <vector>

#include "run/module_test_runner.h"

namespace tito {

struct SourceToCompile {
  std::filesystem::path source;
  std::string object;  // relative to the build dir, prefixed by its origin so modules never collide
  std::string label;   // what progress shows, e.g. "01/matmul.cpp"
};

struct NinjaPlan {
  std::vector<SourceToCompile> test_sources;  // a module's tests, or a milestone program's sources
  std::vector<SourceToCompile> learner_sources;
  std::vector<std::filesystem::path> prebuilt_objects;         // compiled elsewhere, linked as they are
  std::vector<std::filesystem::path> reference_solution_libs;  // modules the learner did not write
  std::vector<std::string> module_link_flags;  // from Toolchain::module_link_flags, modules in the build only
  std::string test_binary = "module_tests";  // relative to the build dir
  bool link_catch_main = true;               // false for a program with its own main()
  // Non-empty: learner sources use these include folders instead of the toolchain's, and keep a full
  // depfile (-MD, system headers too) beside their object for the include check.
  std::vector<std::filesystem::path> learner_include_dirs;
};

// Where the compiler writes the depfile of an object ("obj/01/matmul.o" -> "obj/01/matmul.o.d").
std::string depfile_of(const std::string& object);

// The object compiled at set-up (tito/cmake/toolchain.cmake) for a given program or module test, when
// it can stand in for compiling `source`: this toolchain's compiler made it, and it is newer than the
// source and than every file its depfile lists (an edited test, or an edited header it includes, is
// compiled again). Empty otherwise.
std::filesystem::path prebuilt_object(const Toolchain& toolchain, const std::filesystem::path& source);

// The sources and libraries for a request: every *.cpp in each learner dir, the test sources (or their
// prebuilt objects, when every one has one),
// and the solution libraries of the modules that are not the learner's. Modules after the one under
// test stay out of the build (progressive disclosure: a module 03 test binary has no autograd).
NinjaPlan plan_module_build(const Toolchain& toolchain, const ModuleTestRequest& request);

// The same for a milestone program: its sources take the tests' place, it has its own main(), and
// the binary is named after the part ("part-1"), so parts share the learner's objects.
NinjaPlan plan_program_build(const Toolchain& toolchain, const ProgramRequest& request);

std::string ninja_file_text(const Toolchain& toolchain, const NinjaPlan& plan);

// Writes the file only when its content differs, so ninja's own state stays valid.
void write_if_changed(const std::filesystem::path& file, const std::string& text);

}  // namespace tito
