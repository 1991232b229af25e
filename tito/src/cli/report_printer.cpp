#include "cli/report_printer.h"

#include <iostream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace {

constexpr std::size_t kMaxBuildLogLines = 80;  // enough for the first few errors; the rest is usually fallout

const StubLocation* find_stub(const std::vector<StubLocation>& stubs, const std::string& detail) {
  const StubLocation* best = nullptr;
  for (const auto& stub : stubs) {
    // Prefer the longest matching name so "tinytorch::mm" does not shadow "tinytorch::mm_out".
    if (detail.find(stub.name) != std::string::npos && (!best || stub.name.size() > best->name.size())) best = &stub;
  }
  return best;
}

void print_failure(const AssertionFailure& failure, const Terminal& out) {
  const std::string indent = "      ";
  if (!failure.file.empty()) std::cout << indent << out.dim(fmt::format("{}:{}", failure.file, failure.line)) << "\n";
  if (!failure.expression.empty()) std::cout << indent << failure.expression << "\n";
  if (!failure.expected.empty() || !failure.actual.empty()) {
    std::cout << indent << "expected: " << out.green(failure.expected) << "\n";
    std::cout << indent << "actual:   " << out.red(failure.actual) << "\n";
  } else if (!failure.expanded.empty()) {
    std::cout << indent << "with: " << failure.expanded << "\n";
  }
  if (!failure.message.empty()) std::cout << indent << failure.message << "\n";
}

void print_case(const CaseResult& result, const ReportContext& context, const Terminal& out) {
  const std::string points = result.passed() ? fmt::format("{} pts", result.points) : fmt::format("0/{} pts", result.points);
  if (result.passed()) {
    if (!context.compact) std::cout << "  " << out.ok_mark() << " " << result.name << "  " << out.dim(points) << "\n";
    return;
  }
  std::cout << "  " << out.fail_mark() << " " << result.name << "  " << out.dim(points) << "  "
            << out.red(to_string(result.status)) << "\n";
  const std::string indent = "      ";
  switch (result.status) {
    case CaseStatus::NotImplemented:
      if (const StubLocation* stub = find_stub(context.stubs, result.detail)) {
        std::cout << indent << fmt::format("write {} in {}/{} (lesson: {})", stub->name, context.module_dir, stub->file,
                                           stub->lesson)
                  << "\n";
      } else if (!result.detail.empty()) {
        std::cout << indent << result.detail << "\n";
      }
      break;
    case CaseStatus::Crashed:
    case CaseStatus::TimedOut:
    case CaseStatus::OutOfMemory:
    case CaseStatus::Errored:
      if (!result.detail.empty()) std::cout << indent << result.detail << "\n";
      break;
    default:
      if (!result.detail.empty()) std::cout << indent << result.detail << "\n";
      break;
  }
  if (result.status == CaseStatus::NotImplemented) {
    // Every assertion of a stubbed case fails with the same message: show where the first one was.
    if (!result.failures.empty()) {
      const AssertionFailure& first = result.failures.front();
      std::cout << indent << out.dim(fmt::format("first reached at {}:{}", first.file, first.line)) << "\n";
      if (!first.expression.empty()) std::cout << indent << first.expression << "\n";
    }
  } else {
    for (const auto& failure : result.failures) print_failure(failure, out);
  }
  if (!result.hint.empty()) std::cout << indent << out.yellow("hint: ") << result.hint << "\n";
}

}  // namespace

std::string order_build_log(const std::string& log, const std::string& first_dir) {
  // A diagnostic starts at an unindented line ("file:line:col: error: ..", "In file included from ..")
  // and continues over the indented context lines below it.
  std::vector<std::string> blocks;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    const bool continuation = !line.empty() && (line[0] == ' ' || line[0] == '\t' || line[0] == '|');
    if (blocks.empty() || !continuation) blocks.emplace_back();
    blocks.back() += line + "\n";
  }
  std::string mine, others;
  for (const auto& block : blocks) (block.find(first_dir) != std::string::npos ? mine : others) += block;
  return mine + others;
}

std::string score_line(const TestReport& report, int fallback_points) {
  const int possible = report.cases.empty() ? fallback_points : report.points_possible();
  return fmt::format("Score: {}/{} points, {} passed, {} failed", report.points_earned(), possible, report.passed_count(),
                     report.failed_count());
}

void print_given_code_failure(const std::string& what, const std::string& log, const std::string& compiler,
                              const std::string& fix, std::size_t max_lines) {
  const Terminal& out = terminal();
  std::cout << out.fail_mark() << " " << out.red(fmt::format("TinyTorch's own code does not compile with {}.", compiler))
            << fmt::format(" {} fail to build without any of your code, so the problem is not in your files.", what)
            << " Compiler errors:\n\n";
  std::istringstream lines(log);
  std::size_t shown = 0;
  for (std::string line; std::getline(lines, line) && shown < max_lines; ++shown) std::cout << "  " << line << "\n";
  if (shown == max_lines) std::cout << out.dim("  ... (more errors follow)") << "\n";
  std::cout << "\n  fix: set TinyTorch up with a supported compiler (" << kSupportedCompilers << "): " << out.command(fix)
            << "\n\n";
}

void print_report(const TestReport& report, const ReportContext& context) {
  const Terminal& out = terminal();
  if (report.given_code_failed) {
    print_given_code_failure("The module's tests", report.build_log, context.compiler, context.compiler_fix,
                             kMaxBuildLogLines);
  } else if (!report.build_ok) {
    std::cout << out.fail_mark() << " " << out.red("Your code did not compile.") << " Compiler errors (your files first):\n\n";
    std::istringstream ordered(order_build_log(report.build_log, context.module_dir));
    std::size_t shown = 0;
    for (std::string line; std::getline(ordered, line) && shown < kMaxBuildLogLines; ++shown) std::cout << "  " << line << "\n";
    if (shown == kMaxBuildLogLines) std::cout << out.dim("  ... (more errors follow; fix these first)") << "\n";
    std::cout << "\n";
  }
  for (const auto& result : report.cases) print_case(result, context, out);
  const std::string line = score_line(report, context.fallback_points);
  std::cout << "\n" << (report.all_passed() ? out.green(line) : out.bold(line)) << "\n";
}

}  // namespace tito
