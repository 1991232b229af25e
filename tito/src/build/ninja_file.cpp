#include "build/ninja_file.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>

#include "build/learner_includes.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// Inside a ninja path, '$', ' ' and ':' are special.
std::string ninja_path(const std::string& path) {
  std::string escaped;
  for (char c : path) {
    if (c == '$' || c == ' ' || c == ':') escaped += '$';
    escaped += c;
  }
  return escaped;
}

// A word on a command line that ninja passes to /bin/sh: single-quote anything unusual, and
// escape '$' for ninja itself.
std::string shell_word(const std::string& word) {
  bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string("-_./=+,@%").find(c) != std::string::npos;
  });
  std::string quoted = plain ? word : "'";
  if (!plain) {
    for (char c : word) quoted += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
  }
  std::string escaped;
  for (char c : quoted) {
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

std::string shell_words(const std::vector<std::string>& words) {
  std::string line;
  for (const auto& word : words) line += (line.empty() ? "" : " ") + shell_word(word);
  return line;
}

// "framework/src/01_tensor/matmul.cpp" -> "matmul"; keeps object names readable.
std::string object_stem(const fs::path& source) {
  std::string stem = source.stem().string();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return stem;
}

std::vector<fs::path> cpp_files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.is_regular_file() && entry.path().extension() == ".cpp") files.push_back(entry.path());
  if (error)
    throw std::runtime_error("cannot read the learner directory " + dir.string() + ": " + error.message() +
                             "; check that the module's workspace exists (tito module start)");
  std::sort(files.begin(), files.end());
  return files;
}

// `last_module` is the highest module number in the build ("" = every module): later modules'
// solution libraries and module-specific link flags stay out, so their code cannot be pulled in.
void add_learner_sources_and_libs(const Toolchain& toolchain, const std::map<std::string, fs::path>& learner_dirs,
                                  const std::string& last_module, NinjaPlan& plan) {
  auto in_build = [&](const std::string& module) { return last_module.empty() || module <= last_module; };
  for (const auto& [module, dir] : learner_dirs) {
    for (const auto& source : cpp_files_in(dir)) {
      std::string stem = object_stem(source);
      plan.learner_sources.push_back(
          {fs::absolute(source), "obj/" + module + "/" + stem + ".o", module + "/" + source.filename().string()});
    }
  }
  for (const auto& [module, lib] : toolchain.solution_libs)
    if (!learner_dirs.count(module) && in_build(module)) plan.reference_solution_libs.push_back(lib);
  for (const auto& [module, flags] : toolchain.module_link_flags)
    if (in_build(module)) plan.module_link_flags.insert(plan.module_link_flags.end(), flags.begin(), flags.end());
}

}  // namespace

NinjaPlan plan_program_build(const Toolchain& toolchain, const ProgramRequest& request) {
  NinjaPlan plan;
  plan.test_binary = request.binary_name;
  plan.link_catch_main = false;
  for (const auto& source : request.sources) {
    plan.test_sources.push_back({fs::absolute(source), "obj/" + request.binary_name + "/" + object_stem(source) + ".o",
                                 request.label_prefix + source.filename().string()});
  }
  // A milestone runs on the learner's completed modules; with none (--reference) on everything.
  std::string last_module = request.learner_dirs.empty() ? "" : request.learner_dirs.rbegin()->first;
  add_learner_sources_and_libs(toolchain, request.learner_dirs, last_module, plan);
  return plan;
}

fs::path prebuilt_object(const Toolchain& toolchain, const fs::path& source) {
  if (toolchain.program_objects_cxx.empty() || toolchain.program_objects_cxx != toolchain.cxx) return {};
  std::error_code error;
  const auto found = toolchain.program_objects.find(fs::weakly_canonical(source, error));
  if (error || found == toolchain.program_objects.end() || !fs::exists(found->second, error)) return {};
  const fs::path& object = found->second;
  const auto compiled = fs::last_write_time(object, error);
  if (error || fs::last_write_time(source, error) > compiled || error) return {};
  // A header the program includes (a milestone's shared probes) may have changed since: the object's
  // depfile, written beside it by the build, lists every file the compile read. (A file it names that is
  // gone, as in an installation moved elsewhere, says nothing either way.)
  std::ifstream depfile(depfile_of(object.string()), std::ios::binary);
  if (depfile) {
    const std::string text((std::istreambuf_iterator<char>(depfile)), std::istreambuf_iterator<char>());
    for (const auto& dependency : depfile_dependencies(text)) {
      std::error_code missing;
      if (fs::last_write_time(dependency, missing) > compiled && !missing) return {};
    }
  }
  return object;
}

NinjaPlan plan_module_build(const Toolchain& toolchain, const ModuleTestRequest& request) {
  NinjaPlan plan;
  plan.prebuilt_objects = request.prebuilt_test_objects;
  if (plan.prebuilt_objects.empty()) {
    std::vector<fs::path> prebuilt;
    for (const auto& test : request.test_sources)
      if (auto object = prebuilt_object(toolchain, test); !object.empty()) prebuilt.push_back(object);
    if (!request.test_sources.empty() && prebuilt.size() == request.test_sources.size()) plan.prebuilt_objects = prebuilt;
  }
  for (const auto& test : request.test_sources) {
    if (!plan.prebuilt_objects.empty()) break;  // shared or set-up objects stand in for the sources
    std::string stem = object_stem(test);
    plan.test_sources.push_back({fs::absolute(test), "obj/tests/" + stem + ".o", "tests/" + test.filename().string()});
  }
  add_learner_sources_and_libs(toolchain, request.learner_dirs, request.module, plan);
  plan.learner_include_dirs = request.learner_include_dirs;
  return plan;
}

std::string depfile_of(const std::string& object) { return object + ".d"; }

std::string ninja_file_text(const Toolchain& toolchain, const NinjaPlan& plan) {
  std::vector<std::string> compile_flags = toolchain.cxx_flags;
  for (const auto& dir : toolchain.include_dirs) compile_flags.push_back("-I" + dir.string());

  std::vector<std::string> link_flags = toolchain.link_flags;
  link_flags.insert(link_flags.end(), plan.module_link_flags.begin(), plan.module_link_flags.end());

  std::ostringstream out;
  out << "# Written by tito for every `tito module test` and `tito milestone run`; edits are overwritten.\n"
      << "ninja_required_version = 1.5\n"
      << "cxx = " << shell_word(toolchain.cxx) << "\n"
      << "cxxflags = " << shell_words(compile_flags) << "\n"
      << "ldflags = " << shell_words(link_flags) << "\n\n"
      << "rule cxx\n"
      << "  command = $cxx -MMD -MF $out.d $cxxflags -c $in -o $out\n"
      << "  depfile = $out.d\n"
      << "  deps = gcc\n"
      << "  description = compiling $label\n\n"
      << "rule link\n"
      << "  command = $cxx -o $out $harness $in $libs $ldflags\n"
      << "  description = linking $out\n\n";

  // Confined learner sources: their own include folders, and a depfile that names system headers too
  // and that ninja leaves in place (no `deps`), so tito can check every file the compiler opened.
  const bool confined = !plan.learner_include_dirs.empty();
  if (confined) {
    std::vector<std::string> learner_flags = toolchain.cxx_flags;
    for (const auto& dir : plan.learner_include_dirs) learner_flags.push_back("-I" + dir.string());
    out << "learner_cxxflags = " << shell_words(learner_flags) << "\n\n"
        << "rule learner_cxx\n"
        << "  command = $cxx -MD -MF $out.d $learner_cxxflags -c $in -o $out\n"
        << "  depfile = $out.d\n"
        << "  description = compiling $label\n\n";
  }

  for (const auto* group : {&plan.test_sources, &plan.learner_sources}) {
    const std::string rule = confined && group == &plan.learner_sources ? "learner_cxx" : "cxx";
    for (const auto& source : *group)
      out << "build " << ninja_path(source.object) << ": " << rule << " " << ninja_path(source.source.string()) << "\n"
          << "  label = " << source.label << "\n";
  }

  // Link order: the test harness (Catch2's main, tito's event listener and matchers) whole and first,
  // then tests, then the learner's objects, then libraries. First and whole, so that learner code can
  // never stand in for a piece of the harness: a definition of one of its functions is a duplicate
  // the linker refuses, and for inline code both define, the linker keeps the harness's copy. The
  // libraries are grouped because given code and solutions call each other (a given op may use a
  // learner's kernel).
  std::vector<std::string> harness;
  if (plan.link_catch_main)
    harness = {"-Wl,--whole-archive", toolchain.catch_main_lib.string(), "-Wl,--no-whole-archive"};
  std::vector<std::string> libs = {"-Wl,--start-group"};
  for (const auto& lib : plan.reference_solution_libs) libs.push_back(lib.string());
  libs.push_back(toolchain.given_lib.string());
  libs.push_back("-Wl,--end-group");
  out << "build " << ninja_path(plan.test_binary) << ": link";
  for (const auto* group : {&plan.test_sources, &plan.learner_sources})
    for (const auto& source : *group) out << " " << ninja_path(source.object);
  for (const auto& object : plan.prebuilt_objects) out << " " << ninja_path(object.string());
  // Relink when a library changes (e.g. after the framework was rebuilt).
  out << " | " << ninja_path(toolchain.given_lib.string());
  if (plan.link_catch_main) out << " " << ninja_path(toolchain.catch_main_lib.string());
  for (const auto& lib : plan.reference_solution_libs) out << " " << ninja_path(lib.string());
  if (!harness.empty()) out << "\n  harness = " << shell_words(harness);
  out << "\n  libs = " << shell_words(libs) << "\n\n";

  out << "default " << ninja_path(plan.test_binary) << "\n";
  return out.str();
}

void write_if_changed(const fs::path& file, const std::string& text) {
  std::ifstream existing(file, std::ios::binary);
  if (existing) {
    std::ostringstream current;
    current << existing.rdbuf();
    if (current.str() == text) return;
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + file.string() + "; check that the directory is writable");
}

}  // namespace tito
