// `tito system doctor`: checks everything a learner's build depends on and gives each problem its fix.
#include <array>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

struct Check {
  std::string name;
  bool ok = false;
  std::string detail;  // what was found (ok) or what is wrong
  std::string fix;
  bool warning_only = false;
};

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Runs `program --version`; returns its first line, or nullopt when it cannot run.
std::optional<std::string> version_of(const std::string& program) {
  const std::string command_line = shell_quote(program) + " --version 2>/dev/null";
  FILE* pipe = ::popen(command_line.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string output;
  std::array<char, 256> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) output += buffer.data();
  const int status = ::pclose(pipe);
  if (status != 0 || output.empty()) return std::nullopt;
  return output.substr(0, output.find('\n'));
}

Check check_program(const std::string& label, const std::string& program, const std::string& fix) {
  if (auto version = version_of(program)) return {label, true, *version, "", false};
  return {label, false, trf("'{}' did not run", program), fix, false};
}

// The compiler the set-up chose (CMake's, recorded in toolchain.json): learner builds use it too, since
// they link with the libraries it built.
Check check_compiler(const Toolchain& toolchain, const Installation& installation) {
  const std::string name = describe_compiler(toolchain);
  if (!version_of(toolchain.cxx))
    return {tr("C++ compiler"), false, trf("{} did not run", name),
            install_compiler_command(toolchain) + "   " + tr("(then rebuild the framework)"), false};
  if (!is_supported_compiler(toolchain))
    return {tr("C++ compiler"), false, trf("{} is not one TinyTorch is tested with ({})", name, kSupportedCompilers),
            switch_compiler_command(toolchain, installation.source_dir), true};
  return {tr("C++ compiler"), true, trf("{}, chosen by the set-up", name), "", false};
}

Check check_header(const std::string& header, const std::string& package, const std::vector<fs::path>& extra_dirs) {
  std::vector<fs::path> dirs = {"/usr/include", "/usr/local/include"};
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  for (const auto& dir : dirs) {
    if (fs::exists(dir / header)) return {header, true, (dir / header).string(), "", false};
  }
  return {header, false, tr("not found"), "sudo apt-get install " + package, false};
}

std::vector<Check> check_framework_build(const Installation& installation, std::optional<Toolchain>& toolchain) {
  const std::string fix = fmt::format("cmake -S {} -B {} -G Ninja && cmake --build {} -j2", installation.source_dir.string(),
                                      installation.build_dir.string(), installation.build_dir.string());
  std::vector<Check> checks;
  try {
    toolchain = load_toolchain(installation.build_dir);
  } catch (const std::exception& error) {
    checks.push_back({tr("framework build"), false, error.what(), fix, false});
    return checks;
  }
  std::vector<std::string> missing;
  auto need = [&missing](const fs::path& path) {
    if (!path.empty() && !fs::exists(path)) missing.push_back(path.string());
  };
  need(toolchain->given_lib);
  need(toolchain->catch_main_lib);
  for (const auto& entry : toolchain->solution_libs) need(entry.second);
  if (missing.empty()) {
    checks.push_back({tr("framework build"), true,
                      trnf("{} ({} module library)", "{} ({} module libraries)", toolchain->solution_libs.size(),
                           installation.build_dir.string(), format_integer(static_cast<std::int64_t>(toolchain->solution_libs.size()))),
                      "", false});
  } else {
    checks.push_back({tr("framework build"), false, trf("missing: {}", fmt::join(missing, ", ")), fix, false});
  }
  return checks;
}

std::vector<Check> check_workspace(const Session& session) {
  std::vector<Check> checks;
  if (!session.workspace) {
    checks.push_back({tr("workspace"), false, tr("none in this folder or above"), "tito init", true});
    return checks;
  }
  checks.push_back({tr("workspace"), true, session.ws().root().string(), "", false});
  const auto completed = static_cast<unsigned long>(session.state().completed_count());
  checks.push_back({tr("progress"), true, trnf("readable, {} module completed", "readable, {} modules completed", completed, completed),
                    "", false});
  for (const auto& [number, entry] : session.state().modules) {
    const ModuleInfo* module = session.curriculum.find(number);
    if (!entry.started() || !module || module->learner_files.empty()) continue;
    const auto missing = missing_learner_files(session.ws(), *module);
    if (missing.empty()) {
      checks.push_back({trf("module {} files", number), true, session.ws().module_dir(*module).string(), "", false});
    } else {
      checks.push_back({trf("module {} files", number), false, trf("missing {}", fmt::join(missing, ", ")),
                        "tito module reset " + number, false});
    }
  }
  return checks;
}

Check check_disk(const Session& session) {
  constexpr std::uintmax_t kMinimumFree = 512ull << 20;  // a module build needs a few hundred MB at most
  const fs::path where = session.workspace ? session.ws().root() : fs::current_path();
  std::error_code error;
  const fs::space_info space = fs::space(where, error);
  if (error) return {tr("disk space"), false, error.message(), "df -h " + where.string(), true};
  const std::string detail = trf("{} GB free at {}", format_number(double(space.available) / (1ull << 30), 1), where.string());
  if (space.available < kMinimumFree) return {tr("disk space"), false, detail, tr("free some disk space (at least 512 MB)"), false};
  return {tr("disk space"), true, detail, "", false};
}

// The language tito speaks, where the choice came from, and whether its messages are there to speak it.
Check check_language() {
  const std::string code = message_language();
  const std::string detail = fmt::format("{} ({})", code, language_setting_source());
  if (code == "en") return {tr("language"), true, detail, "", false};
  const fs::path catalog = locale_dir() / code / "LC_MESSAGES" / "tito.mo";
  if (code == "zh")
    return {tr("language"), true, detail + "; " + tr("tito's messages in English (no Chinese catalog yet)"), "", false};
  std::error_code error;
  if (!fs::is_regular_file(catalog, error))
    return {tr("language"), false, trf("{}; the messages are missing: {}", detail, catalog.string()),
            tr("rebuild tito (scripts/setup), or: tito config language en"), true};
  return {tr("language"), true, detail, "", false};
}

int run_doctor(const GlobalOptions& options) {
  Session session = open_session_if_possible(options);
  const Terminal& out = terminal();
  std::vector<Check> checks;
  std::optional<Toolchain> toolchain;
  std::vector<Check> build_checks = check_framework_build(session.installation, toolchain);

  if (toolchain) {
    checks.push_back(check_compiler(*toolchain, session.installation));
  } else {
    checks.push_back(check_program(tr("C++ compiler"), "c++", "sudo apt-get install g++"));
  }
  checks.push_back(check_program("cmake", "cmake", "sudo apt-get install cmake"));
  const std::string ninja = toolchain && !toolchain->ninja.empty() ? toolchain->ninja : "ninja";
  checks.push_back(check_program("ninja", ninja, "sudo apt-get install ninja-build"));
  const std::vector<fs::path> include_dirs = toolchain ? toolchain->include_dirs : std::vector<fs::path>{};
  checks.push_back(check_header("CLI/CLI.hpp", "libcli11-dev", include_dirs));
  checks.push_back(check_header("fmt/format.h", "libfmt-dev", include_dirs));
  checks.push_back(check_header("nlohmann/json.hpp", "nlohmann-json3-dev", include_dirs));
  checks.push_back(check_header("catch2/catch.hpp", "catch2", include_dirs));
  checks.push_back(check_header("spdlog/spdlog.h", "libspdlog-dev", include_dirs));
  checks.push_back(check_header("openssl/evp.h", "libssl-dev", include_dirs));
  checks.insert(checks.end(), build_checks.begin(), build_checks.end());
  auto workspace_checks = check_workspace(session);
  checks.insert(checks.end(), workspace_checks.begin(), workspace_checks.end());
  checks.push_back(check_disk(session));
  checks.push_back(check_language());

  int failed = 0;
  std::cout << out.bold(tr("TinyTorch C++ set-up check")) << "\n";
  for (const auto& check : checks) {
    const std::string mark = check.ok ? out.ok_mark() : (check.warning_only ? out.yellow("[!]") : out.fail_mark());
    std::cout << fmt::format("  {} {:<24} ", mark, check.name) << (check.ok ? out.dim(check.detail) : check.detail) << "\n";
    if (!check.ok) std::cout << "      " << tr("fix:") << " " << out.command(check.fix) << "\n";
    if (!check.ok && !check.warning_only) ++failed;
  }
  std::cout << "\n";
  if (failed == 0) {
    std::cout << out.green(tr("Everything tito needs is in place.")) << "\n";
    return 0;
  }
  std::cout << out.red(trnf("{} check failed.", "{} checks failed.", static_cast<unsigned long>(failed), failed)) << " "
            << trf("Run the fixes above, then {} again.", out.command("tito system doctor")) << "\n";
  return 1;
}

}  // namespace

void register_system_commands(CommandRegistry& registry) {
  CLI::App* group = registry.app.add_subcommand("system", tr("Check your set-up"));
  group->require_subcommand(0, 1);
  auto* doctor = group->add_subcommand("doctor", tr("Check the compiler, tools, libraries, framework build, workspace and language"));
  const GlobalOptions* options = &registry.options;
  on_chosen(doctor, registry, [options] { return run_doctor(*options); });
  CommandAction* slot = &registry.selected;
  group->callback([group, slot] {
    if (!*slot) *slot = [group] {
      std::cout << group->help();
      return 0;
    };
  });
}

}  // namespace tito
