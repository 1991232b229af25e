#include "cli/report_printer.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/i18n.h"
#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMaxBuildLogLines = 80;  // enough for the first few errors; the rest is usually fallout
constexpr std::size_t kOutputLinesShown = 12;  // of a crashed or stopped case's output, without --verbose

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const StubLocation* find_stub(const std::vector<StubLocation>& stubs, const std::string& detail) {
  const StubLocation* best = nullptr;
  for (const auto& stub : stubs) {
    // Prefer the longest matching name so "tinytorch::mm" does not shadow "tinytorch::mm_out".
    if (detail.find(stub.name) != std::string::npos && (!best || stub.name.size() > best->name.size())) best = &stub;
  }
  return best;
}

constexpr std::size_t kFailuresShown = 3;     // of one case's failed checks, without --verbose
constexpr std::size_t kMaxValueChars = 300;   // of one printed value, without --verbose
constexpr int kLinesBeforeFailure = 2;        // of the test source, above the failing line
constexpr int kMaxStatementLines = 6;         // a failing statement is shown to its end, up to this

std::string capped(const std::string& text, const ReportContext& context) {
  if (context.verbose || text.size() <= kMaxValueChars) return text;
  const std::size_t more = text.size() - kMaxValueChars;
  return text.substr(0, kMaxValueChars) +
         trnf("... ({} more character; --verbose shows all)", "... ({} more characters; --verbose shows all)", more, more);
}

// How many characters a terminal shows for UTF-8 text: its code points (translations have accents).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// A label and a space, padded to `width` shown characters so that the values after it line up.
std::string label(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return text + std::string(shown < width ? width - shown : 1, ' ');
}

// A case's status as the learner reads it; to_string(status) is the word --json prints, and stays English.
std::string status_text(CaseStatus status) {
  switch (status) {
    // TRANSLATORS: a test case's status in the report of `tito module test`
    case CaseStatus::Passed: return trc("test case", "passed");
    // TRANSLATORS: a test case's status: a check gave a wrong answer
    case CaseStatus::Failed: return trc("test case", "failed");
    // TRANSLATORS: a test case's status: the function it tests is still the starter's stub
    case CaseStatus::NotImplemented: return trc("test case", "not implemented");
    // TRANSLATORS: a test case's status: it threw an exception
    case CaseStatus::Errored: return trc("test case", "error");
    // TRANSLATORS: a test case's status: the program crashed (e.g. a segmentation fault)
    case CaseStatus::Crashed: return trc("test case", "crashed");
    // TRANSLATORS: a test case's status: it ran past its time limit
    case CaseStatus::TimedOut: return trc("test case", "timed out");
    // TRANSLATORS: a test case's status: it ran past its memory limit
    case CaseStatus::OutOfMemory: return trc("test case", "out of memory");
    // TRANSLATORS: a test case's status: it did not run (e.g. an earlier case crashed the program)
    case CaseStatus::NotRun: return trc("test case", "not run");
  }
  return to_string(status);
}

bool is_test_source(const std::string& file, const ReportContext& context) {
  std::error_code error;
  const fs::path wanted = fs::weakly_canonical(file, error);
  return !error && std::any_of(context.test_sources.begin(), context.test_sources.end(), [&](const fs::path& source) {
    std::error_code ignored;
    return fs::weakly_canonical(source, ignored) == wanted;
  });
}

// `source_shown`: this line's source is already on screen (a check in a loop that failed before);
// `already_said`: the case's detail (an exception's text), not repeated under the check that threw it.
void print_failure(const AssertionFailure& failure, bool source_shown, const std::string& already_said,
                   const ReportContext& context, const Terminal& out) {
  const std::string indent = "      ";
  std::vector<std::string> excerpt;
  if (!failure.file.empty()) {
    // TRANSLATORS: a test source's file:line, shown again for a check that failed more than once
    std::cout << indent << out.dim(source_shown ? trf("{}:{} (again)", test_source_label(failure.file), failure.line)
                                                : fmt::format("{}:{}", test_source_label(failure.file), failure.line))
              << "\n";
    if (!source_shown && is_test_source(failure.file, context)) excerpt = source_excerpt(failure.file, failure.line);
  }
  for (const auto& line : excerpt) std::cout << indent << (line.rfind("  >", 0) == 0 ? line : out.dim(line)) << "\n";
  if (excerpt.empty() && !source_shown && !failure.expression.empty())
    std::cout << indent << capped(failure.expression, context) << "\n";
  if (!failure.expected.empty() || !failure.actual.empty()) {
    // TRANSLATORS: labels of a failed check's two values, printed one above the other and lined up
    const std::string expected = tr("expected:"), actual = tr("actual:");
    const std::size_t width = std::max(display_width(expected), display_width(actual)) + 1;
    std::cout << indent << label(expected, width) << out.green(capped(failure.expected, context)) << "\n";
    std::cout << indent << label(actual, width) << out.red(capped(failure.actual, context)) << "\n";
  } else if (!failure.expanded.empty()) {
    // TRANSLATORS: before a failed check's expression with its values filled in, e.g. "with: 3 == 4"
    std::cout << indent << tr("with:") << " " << capped(failure.expanded, context) << "\n";
  }
  if (failure.message != already_said)
    for (const auto& line : split_lines(failure.message)) std::cout << indent << capped(line, context) << "\n";
}

// Cases tagged [measure] time the learner's code and print a table rather than checking a value alone.
bool is_measuring_case(const CaseResult& result) { return result.tags.find("[measure]") != std::string::npos; }

void print_case(const CaseResult& result, const ReportContext& context, const Terminal& out) {
  // TRANSLATORS: a test case's points, abbreviated: "5 pts" when it passed, "0/5 pts" when it did not
  const std::string points = result.passed() ? trf("{} pts", result.points) : trf("0/{} pts", result.points);
  if (result.passed()) {
    if (context.compact) return;
    std::cout << "  " << out.ok_mark() << " " << result.name << "  " << out.dim(points) << "\n";
    // A measuring case's table is what the lesson asks the learner to read; --verbose shows every case's output.
    if (context.verbose || is_measuring_case(result)) {
      std::vector<std::string> lines = split_lines(result.output);
      while (!lines.empty() && lines.front().find_first_not_of(" \t") == std::string::npos) lines.erase(lines.begin());
      for (const auto& line : lines) std::cout << "      " << line << "\n";
    }
    return;
  }
  std::cout << "  " << out.fail_mark() << " " << result.name << "  " << out.dim(points) << "  "
            << out.red(status_text(result.status));
  if (!result.same_cause_as.empty()) {
    // Folded: the more specific case above most likely fails for the same reason.
    // TRANSLATORS: {} is the name of another test case, listed above this one
    std::cout << "  " << out.dim(trf("(most likely the same cause as \"{}\")", result.same_cause_as)) << "\n";
    if (!context.verbose) return;
  } else {
    std::cout << "\n";
  }
  const std::string indent = "      ";
  switch (result.status) {
    case CaseStatus::NotImplemented:
      if (const StubLocation* stub = find_stub(context.stubs, result.detail)) {
        // TRANSLATORS: the function to write (e.g. tinytorch::mm), its file, and the lesson's section about it
        std::cout << indent << trf("write {} in {}/{} (lesson: {})", stub->name, context.module_dir, stub->file, stub->lesson)
                  << "\n";
      } else if (!result.detail.empty()) {
        std::cout << indent << result.shown_detail() << "\n";
      }
      break;
    case CaseStatus::Crashed:
    case CaseStatus::TimedOut:
    case CaseStatus::OutOfMemory:
    case CaseStatus::Errored: {
      for (const auto& line : split_lines(result.shown_detail())) std::cout << indent << line << "\n";
      if (!result.diagnosis.empty()) {
        const auto lines = split_lines(result.shown_diagnosis());  // the first says what and where, the rest more
        // TRANSLATORS: before where a crash happened, e.g. "where: heap-buffer-overflow ... matmul.cpp:57"
        std::cout << indent << out.bold(std::string(tr("where:")) + " ") << out.yellow(lines.front()) << "\n";
        for (std::size_t i = 1; i < lines.size(); ++i) std::cout << indent << out.dim(lines[i]) << "\n";
      }
      // What the learner's code printed during the case (Catch2's own report is not in it).
      const auto lines = split_lines(result.output);
      if (!lines.empty()) {
        const std::size_t first = context.verbose || lines.size() <= kOutputLinesShown ? 0 : lines.size() - kOutputLinesShown;
        // TRANSLATORS: above what a crashed or stopped test case printed
        std::cout << indent
                  << out.dim(first == 0 ? std::string(tr("its output:"))
                                        : trnf("the last {} line of its output (--verbose shows all {}):",
                                               "the last {} lines of its output (--verbose shows all {}):",
                                               kOutputLinesShown, kOutputLinesShown, lines.size()))
                  << "\n";
        for (std::size_t i = first; i < lines.size(); ++i) std::cout << indent << "  " << lines[i] << "\n";
      }
      break;
    }
    default:
      if (!result.detail.empty()) std::cout << indent << result.shown_detail() << "\n";
      break;
  }
  if (result.status == CaseStatus::NotImplemented) {
    // Every assertion of a stubbed case fails with the same message: show where the first one was.
    if (!result.failures.empty()) {
      const AssertionFailure& first = result.failures.front();
      // TRANSLATORS: where a stubbed function was first called: a test source's file and line
      std::cout << indent << out.dim(trf("first reached at {}:{}", test_source_label(first.file), first.line)) << "\n";
      if (!first.expression.empty()) std::cout << indent << first.expression << "\n";
    }
  } else {
    const std::size_t shown = context.verbose ? result.failures.size() : std::min(result.failures.size(), kFailuresShown);
    for (std::size_t i = 0; i < shown; ++i) {
      const AssertionFailure& failure = result.failures[i];
      const bool source_shown = std::any_of(result.failures.begin(), result.failures.begin() + static_cast<std::ptrdiff_t>(i),
                                            [&](const AssertionFailure& earlier) {
                                              return earlier.file == failure.file && earlier.line == failure.line;
                                            });
      print_failure(failure, source_shown, result.detail, context, out);
    }
    if (shown < result.failures.size())
      std::cout << indent
                << out.dim(trnf("... and {} more failed check in this case (--verbose shows it)",
                                "... and {} more failed checks in this case (--verbose shows them)",
                                result.failures.size() - shown, result.failures.size() - shown))
                << "\n";
  }
  // TRANSLATORS: before the first hint for a failed test case
  if (!result.hint.empty()) std::cout << indent << out.yellow(std::string(tr("hint:")) + " ") << result.hint << "\n";
}

// The order a report lists its cases in: those that passed, then the failed ones that stand on their
// own, the most specific first (fewest declared exercises), then those folded under one of them.
std::vector<const CaseResult*> report_order(const std::vector<CaseResult>& cases) {
  std::vector<const CaseResult*> order;
  for (const auto& c : cases) order.push_back(&c);
  const auto rank = [](const CaseResult* c) -> std::pair<int, std::size_t> {
    if (c->passed()) return {0, 0};
    if (!c->same_cause_as.empty()) return {3, 0};
    return c->exercises.empty() ? std::make_pair(2, std::size_t{0}) : std::make_pair(1, c->exercises.size());
  };
  std::stable_sort(order.begin(), order.end(), [&](const CaseResult* a, const CaseResult* b) { return rank(a) < rank(b); });
  return order;
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
  // TRANSLATORS: {} is the compiler and its version, e.g. "g++ 13.2 (/usr/bin/g++)"
  const std::string headline = out.red(trf("TinyTorch's own code does not compile with {}.", compiler));
  // TRANSLATORS: the first {} is "TinyTorch's own code does not compile with g++ 13.2.", the second a sentence such as
  // "The module's tests fail to build without any of your code, so the problem is not in your files."
  std::cout << out.fail_mark() << " " << trf("{} {} Compiler errors:", headline, what) << "\n\n";
  std::istringstream lines(log);
  std::size_t shown = 0;
  for (std::string line; std::getline(lines, line) && shown < max_lines; ++shown) std::cout << "  " << line << "\n";
  if (shown == max_lines) std::cout << "  " << out.dim(tr("... (more errors follow)")) << "\n";
  // TRANSLATORS: "fix:" as in every error's fix line; {} the supported compilers (e.g. GCC 11+ or Clang 14+), then a command
  std::cout << "\n  " << trf("fix: set TinyTorch up with a supported compiler ({}): {}", kSupportedCompilers, out.command(fix))
            << "\n\n";
}

void print_report(const TestReport& report, const ReportContext& context) {
  const Terminal& out = terminal();
  if (report.given_code_failed) {
    print_given_code_failure(tr("The module's tests fail to build without any of your code, so the problem is not in your files."),
                             report.build_log, context.compiler, context.compiler_fix, kMaxBuildLogLines);
  } else if (!report.build_ok) {
    const std::string learner_dir = context.learner_root.empty() ? context.module_dir : context.learner_root;
    const std::string did_not_compile = out.red(tr("Your code did not compile."));
    if (context.verbose) {
      // TRANSLATORS: {} is "Your code did not compile." (in red)
      std::cout << out.fail_mark() << " " << trf("{} The compiler's whole output (your files first):", did_not_compile)
                << "\n\n";
      std::istringstream ordered(order_build_log(report.build_log, learner_dir));
      for (std::string line; std::getline(ordered, line);) std::cout << "  " << line << "\n";
    } else {
      int errors = 0;
      const std::string first = first_learner_error(report.build_log, learner_dir, &errors);
      // TRANSLATORS: {} is a sentence in red: "Your code did not compile." or the like
      std::cout << out.fail_mark() << " " << trf("{} The first error:", did_not_compile) << "\n\n";
      for (const auto& line : split_lines(first)) std::cout << "  " << line << "\n";
      std::cout << "\n";
      const std::string verbose = "tito module test " + context.module_number + " --verbose";
      if (errors > 1)
        std::cout << out.dim(trnf("{} more error after it (often caused by this one); {} shows the compiler's whole output",
                                  "{} more errors after it (often caused by this one); {} shows the compiler's whole output",
                                  static_cast<unsigned long>(errors - 1), errors - 1, verbose));
      else
        std::cout << out.dim(trf("{} shows the compiler's whole output", verbose));
      std::cout << "\n";
    }
    std::cout << "\n";
    if (!context.verbose) {
      const std::size_t n = report.cases.size();
      std::cout << out.fail_mark() << " "
                << trnf("{} test case did not run (the code did not compile)",
                        "{} test cases did not run (the code did not compile)", n, n)
                << "\n";
    }
  }
  if (report.build_ok || context.verbose)
    for (const CaseResult* result : report_order(report.cases)) print_case(*result, context, out);
  if (report.build_ok && report.cases.empty() && !report.filter.empty()) {
    // TRANSLATORS: {} is the learner's filter: a name, a wildcard or tags
    const std::string none_match = out.yellow(trf("No test case matches \"{}\".", report.filter));
    // TRANSLATORS: the first {} is 'No test case matches "FILTER".' (in yellow), the second the module's number
    std::cout << trf("{} Names and tags: tito module view {}", none_match, context.module_number) << "\n";
  }
  const int possible = report.cases.empty() ? context.fallback_points : report.points_possible();
  // TRANSLATORS: the report's last line: points earned and possible, how many cases passed and failed
  std::string line = trnf("Score: {}/{} point, {} passed, {} failed", "Score: {}/{} points, {} passed, {} failed",
                          static_cast<unsigned long>(possible), report.points_earned(), possible, report.passed_count(),
                          report.failed_count());
  // TRANSLATORS: the first {} is the score line above ("Score: 40/100 points, ..."), the second the learner's filter
  if (!report.filter.empty()) line = trf("{} (only the cases matching \"{}\")", line, report.filter);
  std::cout << "\n" << (report.all_passed() ? out.green(line) : out.bold(line)) << "\n";
}

namespace {

struct CompilerLine {
  std::string file;
  bool error = false;    // "file:l:c: error: ..." or "fatal error"
  bool context = false;  // "In function", "In instantiation of", "required from", "In file included from"
  bool snippet = false;  // the quoted source line and the caret below it
};

CompilerLine classify_compiler_line(const std::string& line) {
  static const std::regex error(R"(^(.+?):\d+:\d+: (fatal )?error: )");
  static const std::regex located(R"(^(.+?):(\d+:\d+:)? )");
  CompilerLine kind;
  std::smatch match;
  if (line.empty()) return kind;
  if (line[0] == ' ' || line[0] == '\t' || line[0] == '|') {
    kind.snippet = true;
    return kind;
  }
  if (std::regex_search(line, match, error)) {
    kind.error = true;
    kind.file = match[1].str();
    return kind;
  }
  if (line.rfind("In file included from", 0) == 0) {
    kind.context = true;
    return kind;
  }
  if (std::regex_search(line, match, located) &&
      (line.find(": In ") != std::string::npos || line.find("required from") != std::string::npos ||
       line.find("required by substitution") != std::string::npos)) {
    kind.context = true;
    kind.file = match[1].str();
  }
  return kind;
}

}  // namespace

std::string first_learner_error(const std::string& log, const std::string& learner_dir, int* error_count) {
  const auto lines = split_lines(log);
  const auto mine = [&](const std::string& file) { return !learner_dir.empty() && file.rfind(learner_dir, 0) == 0; };
  struct Group {
    std::vector<std::size_t> context;
    std::size_t error = 0;
    std::vector<std::size_t> snippet;
    bool concerns_learner = false;
  };
  std::vector<Group> groups;
  std::vector<std::size_t> context;
  int errors = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const CompilerLine kind = classify_compiler_line(lines[i]);
    if (kind.context) {
      context.push_back(i);
    } else if (kind.error) {
      ++errors;
      Group group;
      group.context = context;
      group.error = i;
      group.concerns_learner = mine(kind.file);
      for (std::size_t c : context) group.concerns_learner = group.concerns_learner || mine(classify_compiler_line(lines[c]).file);
      for (std::size_t j = i + 1; j < lines.size() && classify_compiler_line(lines[j]).snippet; ++j) group.snippet.push_back(j);
      groups.push_back(group);
      context.clear();
    } else if (!kind.snippet) {
      context.clear();  // a note, a warning or ninja's words: the next error starts afresh
    }
  }
  if (error_count) *error_count = errors;
  if (groups.empty()) {  // no compiler error we recognise (a linker error, a missing tool): all of it
    std::string text;
    for (const auto& line : lines)
      if (line.rfind("FAILED: ", 0) != 0) text += line + "\n";
    return text;
  }
  const Group* chosen = &groups.front();
  for (const auto& group : groups)
    if (group.concerns_learner) {
      chosen = &group;
      break;
    }
  std::string text;
  // Of the context, only the learner's own lines: where in their code the chain starts.
  for (std::size_t c : chosen->context) {
    const CompilerLine kind = classify_compiler_line(lines[c]);
    if (mine(kind.file)) text += lines[c] + "\n";
  }
  text += lines[chosen->error] + "\n";
  for (std::size_t j : chosen->snippet) text += lines[j] + "\n";
  return text;
}

std::string failure_text(const CaseResult& result) {
  std::string text;
  const auto add = [&text](const std::string& line) {
    if (!line.empty()) text += (text.empty() ? "" : "\n") + line;
  };
  if (result.passed()) return "";
  add(result.detail);
  if (!result.diagnosis.empty()) add("where: " + result.diagnosis);
  for (const auto& failure : result.failures) {
    if (!failure.file.empty()) add(fmt::format("{}:{}", test_source_label(failure.file), failure.line));
    add(failure.expression);
    if (!failure.expected.empty() || !failure.actual.empty()) {
      add("expected: " + failure.expected);
      add("actual:   " + failure.actual);
    } else if (!failure.expanded.empty()) {
      add("with: " + failure.expanded);
    }
    add(failure.message);
  }
  return text;
}

std::string test_source_label(const std::string& file) {
  const fs::path path(file);
  const std::string folder = path.parent_path().filename().string();
  return folder == "tests" ? (fs::path(folder) / path.filename()).string() : path.filename().string();
}

std::vector<std::string> source_excerpt(const fs::path& file, int line) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string text; std::getline(in, text);) lines.push_back(text);
  if (line < 1 || line > static_cast<int>(lines.size())) return {};
  const auto ends_statement = [](std::string text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
    const auto comment = text.find("//");
    if (comment != std::string::npos) text = text.substr(0, comment);
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text.empty() || text.back() == ';' || text.back() == '{' || text.back() == '}';
  };
  int last = line;
  while (last < static_cast<int>(lines.size()) && last < line + kMaxStatementLines - 1 && !ends_statement(lines[last - 1]))
    ++last;
  const int width = static_cast<int>(std::to_string(last).size());
  std::vector<std::string> excerpt;
  for (int number = std::max(1, line - kLinesBeforeFailure); number <= last; ++number)
    excerpt.push_back(fmt::format("  {} {:>{}} | {}", number == line ? '>' : ' ', number, width, lines[number - 1]));
  return excerpt;
}

std::string report_json(const TestReport& report, int fallback_points) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : report.cases) {
    cases.push_back({{"name", c.name},
                     {"points", c.points},
                     {"points_earned", c.passed() ? c.points : 0},
                     {"status", to_string(c.status)},
                     {"failure", failure_text(c)},
                     {"same_cause_as", c.same_cause_as},
                     {"duration_ms", c.duration_ms}});
  }
  nlohmann::json json = {{"module", report.module},
                         {"filter", report.filter},
                         {"build_ok", report.build_ok},
                         {"points_earned", report.points_earned()},
                         {"points_possible", report.cases.empty() ? fallback_points : report.points_possible()},
                         {"passed", report.passed_count()},
                         {"failed", report.failed_count()},
                         {"cases", cases}};
  if (!report.build_ok) json["build_log"] = report.build_log;
  return json.dump(2);
}

}  // namespace tito
