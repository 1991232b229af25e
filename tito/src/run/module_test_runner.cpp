// run_module_tests: build a module's tests against the learner's code with ninja, then run them in
// the sandbox (test_session.h) and assemble the TestReport.
#include "run/module_test_runner.h"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "build/captured_command.h"
#include "build/ninja_file.h"
#include "run/test_session.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A missing tool is a set-up problem, not the learner's: say what to install.
void require_tools(const Toolchain& toolchain) {
  if (find_executable(toolchain.cxx).empty())
    throw std::runtime_error("the C++ compiler '" + toolchain.cxx +
                             "' named in tito's toolchain.json is missing or not executable; install it "
                             "(sudo apt-get install g++) or re-run the set-up (scripts/setup) to pick another");
  if (find_executable(toolchain.ninja).empty())
    throw std::runtime_error("the build tool ninja ('" + toolchain.ninja +
                             "') named in tito's toolchain.json is missing or not executable; install it "
                             "(sudo apt-get install ninja-build) and re-run the set-up (scripts/setup)");
  for (const auto* lib : {&toolchain.given_lib, &toolchain.catch_main_lib})
    if (!fs::exists(*lib))
      throw std::runtime_error("the library " + lib->string() +
                               " has not been built; re-run the set-up (scripts/setup, or cmake --build on the build "
                               "directory)");
}

struct NinjaRun {
  bool ok = false;
  std::string log;  // compiler messages; ninja's own status lines go to progress instead
};

NinjaRun run_ninja(const Toolchain& toolchain, const fs::path& build_dir, const std::string& target,
                   const ProgressSink& progress) {
  NinjaRun result;
  bool skip_command_line = false;
  std::string ninja = find_executable(toolchain.ninja);
  CommandOutcome outcome = run_captured({ninja, "-C", build_dir.string(), "-j2", target}, {}, [&](const std::string& line) {
    // Ninja's status lines look like "[2/5] compiling 01/matmul.cpp"; the rest is compiler output.
    auto close = line.find("] ");
    bool status = !line.empty() && line[0] == '[' && close != std::string::npos &&
                  line.find_first_not_of("0123456789/", 1) == close;
    if (status) {
      if (progress) progress(line.substr(close + 2));
    } else if (skip_command_line) {
      skip_command_line = false;  // the full compiler command after "FAILED: x.o" is noise to a learner
    } else if (line.rfind("ninja: ", 0) != 0) {
      skip_command_line = line.rfind("FAILED: ", 0) == 0;
      result.log += line + "\n";
    }
  });
  if (!outcome.error.empty()) result.log += outcome.error + "\n";
  result.ok = outcome.exit_code == 0;
  return result;
}

// Reads a C++ string literal starting at `at` (on its opening quote); returns false if there is none.
bool read_string_literal(const std::string& text, std::size_t& at, std::string& value) {
  if (at >= text.size() || text[at] != '"') return false;
  value.clear();
  for (++at; at < text.size() && text[at] != '"'; ++at) {
    if (text[at] == '\\' && at + 1 < text.size()) ++at;
    value += text[at];
  }
  ++at;
  return true;
}

void skip_spaces(const std::string& text, std::size_t& at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
}

// When the code does not compile there is no binary to ask, so read the case names from the test
// sources: instructors write them as TEST_CASE("name", "[tags][points=N]").
std::vector<CaseResult> cases_from_sources(const std::vector<fs::path>& test_sources) {
  static const std::string macro = "TEST_CASE", points_tag = "[points=";
  std::vector<CaseResult> cases;
  for (const auto& source : test_sources) {
    std::ifstream in(source);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = text.find(macro); at != std::string::npos; at = text.find(macro, at)) {
      at += macro.size();
      skip_spaces(text, at);
      if (at >= text.size() || text[at] != '(') continue;
      ++at;
      skip_spaces(text, at);
      CaseResult result;
      if (!read_string_literal(text, at, result.name)) continue;
      skip_spaces(text, at);
      std::string tags;
      if (at < text.size() && text[at] == ',') {
        ++at;
        skip_spaces(text, at);
        read_string_literal(text, at, tags);
      }
      if (tags.find("[.") != std::string::npos) continue;  // hidden
      auto points = tags.find(points_tag);
      if (points != std::string::npos) result.points = std::atoi(tags.c_str() + points + points_tag.size());
      result.detail = "the code did not compile";
      cases.push_back(result);
    }
  }
  return cases;
}

}  // namespace

TestReport run_module_tests(const Toolchain& toolchain, const ModuleTestRequest& request,
                            const ProgressSink& progress) {
  require_tools(toolchain);
  TestReport report;
  report.module = request.module;

  fs::path build_dir = fs::absolute(request.build_dir);
  fs::path run_dir = build_dir / "run";
  fs::create_directories(run_dir);
  NinjaPlan plan = plan_module_build(toolchain, request);
  write_if_changed(build_dir / "build.ninja", ninja_file_text(toolchain, plan));

  auto build_start = std::chrono::steady_clock::now();
  NinjaRun build = run_ninja(toolchain, build_dir, plan.test_binary, progress);
  report.build_ok = build.ok;
  report.build_log = build.log;
  report.build_seconds = seconds_since(build_start);

  TestSessionSpec session;
  session.binary = build_dir / plan.test_binary;
  session.work_dir = run_dir;
  session.time_limit_s = request.time_limit_s;
  session.memory_limit_mb = request.memory_limit_mb;
  session.sanitized = toolchain.sanitized;

  auto run_start = std::chrono::steady_clock::now();
  if (report.build_ok) {
    report.cases = list_cases(session);
    run_test_session(session, report.cases, progress);
  } else {
    report.cases = cases_from_sources(request.test_sources);
  }
  report.run_seconds = seconds_since(run_start);

  for (auto& c : report.cases) {
    auto hint = request.hints.find(c.name);
    if (hint != request.hints.end()) c.hint = hint->second;
  }
  return report;
}

}  // namespace tito
