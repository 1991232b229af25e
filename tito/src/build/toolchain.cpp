// load_toolchain: reads <build>/tito/toolchain.json, which CMake generates (tito/cmake/toolchain.cmake).
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "run/module_test_runner.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

std::string fix_for(const fs::path& build_dir) {
  return "re-run the set-up (scripts/setup, or `cmake --build " + build_dir.string() + "`)";
}

std::vector<std::string> non_empty_strings(const nlohmann::json& list) {
  std::vector<std::string> values;
  for (const auto& item : list)
    if (!item.get<std::string>().empty()) values.push_back(item.get<std::string>());
  return values;
}

}  // namespace

Toolchain load_toolchain(const fs::path& build_dir) {
  fs::path file = build_dir / "tito" / "toolchain.json";
  std::ifstream in(file);
  if (!in)
    throw std::runtime_error("tito's toolchain file " + file.string() + " is missing; " + fix_for(build_dir));

  Toolchain toolchain;
  try {
    nlohmann::json json = nlohmann::json::parse(in);
    toolchain.cxx = json.at("cxx").get<std::string>();
    toolchain.cxx_id = json.at("cxx_id").get<std::string>();
    toolchain.cxx_version = json.at("cxx_version").get<std::string>();
    toolchain.cxx_flags = non_empty_strings(json.at("cxx_flags"));
    toolchain.link_flags = non_empty_strings(json.at("link_flags"));
    const nlohmann::json module_link_flags = json.value("module_link_flags", nlohmann::json::object());
    for (const auto& [module, flags] : module_link_flags.items())
      toolchain.module_link_flags[module] = non_empty_strings(flags);
    // CMake may name a directory twice; system directories need no -I (and gcc ignores it).
    for (const auto& dir : non_empty_strings(json.at("include_dirs"))) {
      bool seen = std::find(toolchain.include_dirs.begin(), toolchain.include_dirs.end(), fs::path(dir)) !=
                  toolchain.include_dirs.end();
      if (!seen && dir != "/usr/include" && dir != "/usr/local/include") toolchain.include_dirs.push_back(dir);
    }
    toolchain.given_lib = json.at("given_lib").get<std::string>();
    for (const auto& [module, lib] : json.at("solution_libs").items())
      toolchain.solution_libs[module] = lib.get<std::string>();
    toolchain.catch_main_lib = json.at("catch_main_lib").get<std::string>();
    toolchain.ninja = json.at("ninja").get<std::string>();
    const nlohmann::json program_objects = json.value("program_objects", nlohmann::json::object());
    for (const auto& [source, object] : program_objects.items())
      toolchain.program_objects[fs::weakly_canonical(source)] = object.get<std::string>();
    toolchain.program_objects_cxx = json.value("program_objects_cxx", "");
    toolchain.sanitized = json.at("sanitized").get<bool>();
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error("tito's toolchain file " + file.string() + " is unreadable (" + error.what() + "); " +
                             fix_for(build_dir));
  }
  return toolchain;
}

std::string describe_compiler(const Toolchain& toolchain) {
  const std::map<std::string, std::string> names = {{"GNU", "GCC"}, {"Clang", "Clang"}, {"AppleClang", "Apple Clang"}};
  const auto name = names.find(toolchain.cxx_id);
  std::string description = name != names.end() ? name->second : toolchain.cxx_id;
  if (!toolchain.cxx_version.empty()) description += (description.empty() ? "" : " ") + toolchain.cxx_version;
  if (description.empty()) return toolchain.cxx;
  return description + " (" + toolchain.cxx + ")";
}

bool is_supported_compiler(const Toolchain& toolchain) {
  const int major = std::atoi(toolchain.cxx_version.c_str());  // "14.0.6" -> 14
  if (toolchain.cxx_id == "GNU") return major >= 12;
  if (toolchain.cxx_id == "Clang") return major >= 14;
  return false;
}

std::string install_compiler_command(const Toolchain& toolchain) {
  const bool clang = fs::path(toolchain.cxx).filename().string().find("clang") != std::string::npos;
  return std::string("sudo apt-get install ") + (clang ? "clang" : "g++");
}

std::string switch_compiler_command(const Toolchain& toolchain, const fs::path& source_dir) {
  // Suggest the other supported compiler; Debian names them g++ and clang++.
  const std::string other = toolchain.cxx_id == "GNU" ? "clang++" : "g++";
  return "CXX=" + other + " " + (source_dir / "scripts" / "setup").string();
}

}  // namespace tito
