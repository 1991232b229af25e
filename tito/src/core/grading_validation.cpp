#include "core/grading_validation.h"

#include <cctype>
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/learner_files.h"
#include "core/lesson_translation.h"
#include "core/markdown.h"
#include "core/quiz.h"
#include "core/starter_generator.h"
#include "core/variants.h"
#include "build/ninja_file.h"
#include "run/transcript.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// The source with comments and string/char literals blanked out (newlines kept), so that braces
// can be counted.
std::string code_only(const std::string& source) {
  std::string code = source;
  enum { Code, LineComment, BlockComment, String, Char } state = Code;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    const char next = i + 1 < code.size() ? code[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') state = LineComment;
        else if (c == '/' && next == '*') state = BlockComment;
        else if (c == '"') state = String;
        else if (c == '\'') state = Char;
        else continue;
        if (state == String || state == Char) continue;  // keep the quote itself
        code[i] = ' ';
        break;
      case LineComment:
        if (c == '\n') state = Code;
        else code[i] = ' ';
        break;
      case BlockComment:
        if (c == '*' && next == '/') {
          code[i] = code[i + 1] = ' ';
          ++i;
          state = Code;
        } else if (c != '\n') {
          code[i] = ' ';
        }
        break;
      case String:
      case Char:
        if (c == '\\' && next != '\0') {
          code[i] = ' ';
          if (next != '\n') code[i + 1] = ' ';
          ++i;
        } else if ((state == String && c == '"') || (state == Char && c == '\'')) {
          state = Code;
        } else if (c != '\n') {
          code[i] = ' ';
        }
        break;
    }
  }
  return code;
}

enum class Scope { Namespace, Type, Function };

// What a '{' opens, from the text since the previous ';', '{' or '}'.
Scope classify_brace(const std::string& header, const std::vector<Scope>& open) {
  if (std::find(open.begin(), open.end(), Scope::Function) != open.end()) return Scope::Function;
  static const std::regex namespace_like(R"(\b(namespace|extern)\b)");
  static const std::regex type_like(R"(\b(class|struct|union|enum)\b)");
  if (std::regex_search(header, namespace_like)) return Scope::Namespace;
  if (header.find(')') != std::string::npos) return Scope::Function;
  if (std::regex_search(header, type_like)) return Scope::Type;
  return Scope::Type;  // a brace initialiser at namespace scope: not code a learner writes into
}

// What one known-wrong variant did to the tests: the cases that failed, or why it proves nothing.
struct VariantOutcome {
  std::string problem;               // empty when a test caught it (as expected)
  std::vector<std::string> failing;  // the cases that failed
};

// Builds the module with one variant applied and runs its tests. Only the changed file is
// compiled: the module's other files link the reference build's objects, the tests the shared
// test objects.
VariantOutcome run_variant(const Toolchain& toolchain, const ModuleInfo& module, const Variant& variant,
                           const std::string& changed_source, const std::vector<fs::path>& test_objects,
                           const std::map<std::string, fs::path>& reference_objects, const fs::path& dir) {
  const std::string file_name = fs::path(variant.file).filename().string();
  fs::remove_all(dir);
  write_module_files(dir / "files", {{file_name, changed_source}});
  ModuleTestRequest request;
  request.module = module.number;
  request.learner_dirs[module.number] = dir / "files";
  request.test_sources = module.tests;
  request.prebuilt_test_objects = test_objects;
  for (const auto& [name, object] : reference_objects)
    if (name != file_name) request.prebuilt_test_objects.push_back(object);
  request.build_dir = dir / "build";
  request.time_limit_s = module.time_limit_s;
  request.memory_limit_mb = module.memory_limit_mb;
  request.build_jobs = 1;
  request.diagnose_crashes = false;  // which cases fail is the verdict; why (a sanitizer's account) is never shown
  const TestReport report = run_module_tests(toolchain, request);
  VariantOutcome outcome;
  if (!report.build_ok) {
    outcome.problem = "it does not compile (a variant must be code a learner could run):\n" + report.build_log;
    return outcome;
  }
  bool expected_failed = false, expected_exists = variant.caught_by.empty();
  for (const auto& c : report.cases) {
    if (c.name == variant.caught_by) expected_exists = true;
    if (c.passed()) continue;
    outcome.failing.push_back(c.name);
    if (c.name == variant.caught_by) expected_failed = true;
  }
  if (outcome.failing.empty())
    outcome.problem = "every test passes with this mistake in the code: add or strengthen a test that catches it";
  else if (!expected_exists)
    outcome.problem = fmt::format("caught_by names '{}', which is not a test case of the module", variant.caught_by);
  else if (!variant.caught_by.empty() && !expected_failed)
    outcome.problem = fmt::format("'{}' was expected to catch it but passes (failing instead: {})", variant.caught_by,
                                  fmt::join(outcome.failing, "; "));
  return outcome;
}

// Every variant of the module must make at least one test fail.
ValidationCheck check_variants(const Toolchain& toolchain, const ModuleInfo& module, const PreparedVariants& prepared,
                               const std::vector<fs::path>& test_objects, const std::map<std::string, fs::path>& reference_objects,
                               const fs::path& dir, int jobs) {
  ValidationCheck check{"variants", false, false, ""};
  const std::vector<Variant>& variants = prepared.variants;
  const std::vector<std::string>& sources = prepared.sources;
  std::vector<VariantOutcome> outcomes(variants.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < variants.size(); i = next++) {
      try {
        outcomes[i] = run_variant(toolchain, module, variants[i], sources[i], test_objects, reference_objects,
                                  dir / fmt::format("{:02}", i + 1));
      } catch (const std::exception& error) {
        outcomes[i].problem = std::string("it could not be run: ") + error.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(variants.size())); ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();

  std::size_t caught = 0;
  std::string lines;
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const VariantOutcome& outcome = outcomes[i];
    if (outcome.problem.empty()) {
      ++caught;
      const std::string& first = variants[i].caught_by.empty() ? outcome.failing.front() : variants[i].caught_by;
      lines += fmt::format("\n        {}: caught by '{}'{}", variants[i].name, first,
                           outcome.failing.size() > 1 ? fmt::format(" (+{} more)", outcome.failing.size() - 1) : "");
    } else {
      lines += fmt::format("\n        {} NOT CAUGHT ({}): {}", variants[i].name, variants[i].description, outcome.problem);
    }
  }
  check.ok = caught == variants.size();
  check.detail = fmt::format("{}/{} known-wrong variants caught by a test ({:.0f}%)", caught, variants.size(),
                             100.0 * static_cast<double>(caught) / static_cast<double>(variants.size())) + lines;
  return check;
}

}  // namespace

bool ModuleValidation::ok() const {
  return std::all_of(checks.begin(), checks.end(), [](const ValidationCheck& c) { return c.ok || c.warning_only; });
}

namespace {
// The lines (1-based) that lie inside a C++ raw string literal R"DELIM( ... )DELIM": module 22's OpenCL
// kernel sources. A region there is kernel code, not C++: the starter's NotImplemented line inside it is
// text that opencl::kernel() recognises and turns into the same NotImplemented error before compiling.
std::vector<bool> raw_string_lines(const std::string& source) {
  std::vector<bool> inside(1 + static_cast<std::size_t>(std::count(source.begin(), source.end(), '\n')) + 1, false);
  std::size_t at = 0;
  while ((at = source.find("R\"", at)) != std::string::npos) {
    const bool word_before = at > 0 && (std::isalnum(static_cast<unsigned char>(source[at - 1])) || source[at - 1] == '_');
    const std::size_t open = source.find('(', at + 2);
    if (word_before || open == std::string::npos || open - at - 2 > 16) {
      at += 2;
      continue;
    }
    const std::string closing = ")" + source.substr(at + 2, open - at - 2) + "\"";
    const std::size_t close = source.find(closing, open);
    if (close == std::string::npos) break;
    const auto line_of = [&](std::size_t offset) {
      return 1 + static_cast<std::size_t>(std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    };
    for (std::size_t line = line_of(open); line <= line_of(close) && line < inside.size(); ++line) inside[line] = true;
    at = close + closing.size();
  }
  return inside;
}
}  // namespace

std::vector<std::string> marker_problems(const std::string& source, const std::string& file_label) {
  const std::vector<bool> in_raw_string = raw_string_lines(source);
  std::vector<SolutionRegion> regions;
  try {
    regions = scan_solution_regions(source, file_label);
  } catch (const MarkerError& error) {
    return {error.what()};
  }
  std::vector<std::string> problems;
  const std::string code = code_only(source);
  std::vector<Scope> open;
  std::string header;
  int line = 1;
  std::size_t next_region = 0;
  bool inside = false;
  std::size_t depth_at_begin = 0;
  bool in_function_at_begin = false, dipped = false;
  auto at_line_start = [&] {
    if (next_region >= regions.size()) return;
    const SolutionRegion& region = regions[next_region];
    if (!inside && line == region.begin_line) {
      inside = true;
      depth_at_begin = open.size();
      in_function_at_begin = std::find(open.begin(), open.end(), Scope::Function) != open.end();
      dipped = false;
    } else if (inside && line == region.end_line) {
      const bool kernel_source = static_cast<std::size_t>(region.begin_line) < in_raw_string.size() &&
                                 in_raw_string[static_cast<std::size_t>(region.begin_line)];
      if (kernel_source) {
        // OpenCL C in a raw string: no C++ scopes to check (the kernel compiler checks it).
      } else if (!in_function_at_begin)
        problems.push_back(fmt::format("{}:{}: the region \"{}\" is not inside a function body; the starter would not compile",
                                       file_label, region.begin_line, region.name));
      else if (dipped || open.size() != depth_at_begin)
        problems.push_back(fmt::format("{}:{}: the region \"{}\" does not keep its braces balanced (it must hold whole "
                                       "statements of one function body)", file_label, region.begin_line, region.name));
      inside = false;
      ++next_region;
    }
  };
  at_line_start();
  for (char c : code) {
    if (c == '\n') {
      ++line;
      header += ' ';
      at_line_start();
      continue;
    }
    if (c == '{') {
      open.push_back(classify_brace(header, open));
      header.clear();
    } else if (c == '}') {
      if (!open.empty()) open.pop_back();
      if (inside && open.size() < depth_at_begin) dipped = true;
      header.clear();
    } else if (c == ';') {
      header.clear();
    } else {
      header += c;
    }
  }
  return problems;
}

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(" \t") - first + 1);
}

// Runs of blanks become one space, so a TODO that re-wraps a solution line still matches it.
std::string squeezed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

bool is_comment(const std::string& line) { return trimmed(line).rfind("//", 0) == 0; }

}  // namespace

std::string closest_heading(const std::string& wanted, const std::vector<std::string>& headings) {
  // One that starts with the same section number ("4." in "4. Samplers").
  const std::string number = wanted.substr(0, wanted.find(' '));
  for (const auto& heading : headings)
    if (!number.empty() && heading.rfind(number + " ", 0) == 0) return heading;
  return "";
}

std::vector<std::string> hint_section_problems(const std::string& hints_text, const std::string& lesson_markdown) {
  static const std::regex kReference(R"([Ss]ection (\d+)(?:, '([^']+)')?)");
  const auto headings = markdown_headings(lesson_markdown);
  std::vector<std::string> problems;
  std::set<std::string> reported;
  for (auto it = std::sregex_iterator(hints_text.begin(), hints_text.end(), kReference); it != std::sregex_iterator(); ++it) {
    const std::string number = (*it)[1].str(), title = (*it)[2].str();
    const bool numbered = std::any_of(headings.begin(), headings.end(), [&](const std::string& heading) {
      return heading.rfind(number + ".", 0) == 0 || heading.rfind(number + " ", 0) == 0;
    });
    const bool titled = title.empty() || lesson_markdown.find("**" + title) != std::string::npos ||
                        std::any_of(headings.begin(), headings.end(),
                                    [&](const std::string& heading) { return heading.find(title) != std::string::npos; });
    if (numbered && titled) continue;
    const std::string problem =
        numbered ? fmt::format("hints.json: \"{}\": the lesson has no heading or bold paragraph lead '{}'", it->str(), title)
                 : fmt::format("hints.json: \"{}\": the lesson has no section {}", it->str(), number);
    if (reported.insert(problem).second) problems.push_back(problem);
  }
  return problems;
}

std::vector<std::string> lesson_reference_problems(const std::string& source, const std::string& file_label,
                                                   const std::vector<std::string>& headings) {
  std::vector<SolutionRegion> regions;
  try {
    regions = scan_solution_regions(source, file_label);
  } catch (const MarkerError&) {
    return {};  // marker_problems reports it
  }
  std::vector<std::string> problems;
  for (const auto& region : regions) {
    if (std::find(headings.begin(), headings.end(), region.lesson) != headings.end()) continue;
    const std::string closest = closest_heading(region.lesson, headings);
    problems.push_back(fmt::format("{}:{}: lesson=\"{}\" (region \"{}\") is no heading of the lesson{}", file_label,
                                   region.begin_line, region.lesson, region.name,
                                   closest.empty() ? "" : fmt::format("; did you mean \"{}\"?", closest)));
  }
  return problems;
}

std::vector<std::string> todo_leaks(const std::string& source, const std::string& file_label, std::size_t min_chars) {
  std::vector<SolutionRegion> regions;
  try {
    regions = scan_solution_regions(source, file_label);
  } catch (const MarkerError&) {
    return {};
  }
  const auto lines = split_lines(source);
  std::vector<std::string> leaks;
  int previous_end = 0;
  for (const auto& region : regions) {
    // Up from the BEGIN line, past the function's own code (its signature), to the comment block
    // above it; a blank line or the previous region ends the search.
    int line = region.begin_line - 1;  // 1-based line above BEGIN
    while (line > previous_end && !trimmed(lines[line - 1]).empty() && !is_comment(lines[line - 1])) --line;
    std::string todo;
    while (line > previous_end && is_comment(lines[line - 1])) {
      todo = trimmed(lines[line - 1]).substr(2) + "\n" + todo;
      --line;
    }
    const std::string todo_text = squeezed(todo);
    for (int number = region.begin_line + 1; number < region.end_line; ++number) {
      std::string code = trimmed(lines[number - 1]);
      // Lines with a string literal are error messages and dispatch names: the contract, quoted on purpose.
      if (code.rfind("//", 0) == 0 || code.find('"') != std::string::npos) continue;
      const auto comment = code.find("  //");
      if (comment != std::string::npos) code = trimmed(code.substr(0, comment));
      while (!code.empty() && (code.back() == ';' || code.back() == '{')) code = trimmed(code.substr(0, code.size() - 1));
      code = squeezed(code);
      if (code.size() >= min_chars && todo_text.find(code) != std::string::npos) {
        leaks.push_back(fmt::format("{}:{}: the TODO above \"{}\" quotes its solution line \"{}\"", file_label, number,
                                    region.name, code));
      }
    }
    previous_end = region.end_line;
  }
  return leaks;
}

std::vector<std::string> framework_source_mentions(const std::string& text, const std::string& label) {
  std::vector<std::string> mentions;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("framework/src/") != std::string::npos) {
      mentions.push_back(fmt::format("{}:{}: {}", label, i + 1, trimmed(lines[i]).substr(0, 120)));
    }
  }
  return mentions;
}

// Every case that earns points must record something that depends on the grading seed: a case whose
// results are the same on every seed can be passed by code that writes down the answers to the test's
// literal inputs (and under `tito grade` it earns nothing for them only if it records what differs).
// The reference runs again on a second seed; a case with points whose transcript did not change is
// named, with what it recorded.
ValidationCheck check_seeded_cases(const Toolchain& toolchain, ModuleTestRequest request, const TestReport& public_run) {
  constexpr uint64_t kOtherSeed = 9876543210123ull;  // any seed but the public one
  request.run_env["TITO_GRADING_SEED"] = std::to_string(kOtherSeed);
  // In the public run's build folder: the seed is read when the tests run, so the build is the same (nothing
  // is compiled again, as when a learner runs the tests twice); the threaded cases are checked for data races
  // again, on this seed, with the ThreadSanitizer build already made.
  request.recheck_data_races = true;
  const TestReport seeded = run_module_tests(toolchain, request);
  std::map<std::string, const CaseResult*> other;
  for (const auto& c : seeded.cases) other[c.name] = &c;
  std::vector<std::string> fixed, failing;
  int fixed_points = 0, points = 0;
  for (const auto& c : public_run.cases) {
    points += c.points;
    auto found = other.find(c.name);
    if (found == other.end() || !found->second->passed()) {
      failing.push_back(fmt::format("'{}' ({})", c.name, found == other.end() ? "not run" : to_string(found->second->status)));
      continue;
    }
    if (c.points == 0 || !compare_transcripts(c.observations, found->second->observations).same) continue;
    fixed.push_back(fmt::format("'{}' ({} points, {} records)", c.name, c.points, c.observations.size()));
    fixed_points += c.points;
  }
  ValidationCheck check{"seeded cases", fixed.empty() && failing.empty(), false, ""};
  check.detail = fixed.empty() ? fmt::format("every case with points records results that depend on the grading seed")
                               : fmt::format("{} of {} points sit on cases that record the same on every seed (give each a "
                                             "check on random_tensor / random_int inputs): {}",
                                             fixed_points, points, fmt::join(fixed, "; "));
  if (!failing.empty())
    check.detail += fmt::format("; the reference does not pass on seed {}: {}", kOtherSeed, fmt::join(failing, "; "));
  return check;
}

std::vector<ModuleValidation> validate_modules(const Installation& installation, const Curriculum& curriculum,
                                               const Toolchain& toolchain, const std::vector<const ModuleInfo*>& modules,
                                               const fs::path& scratch_dir, int jobs, bool check_variants_too,
                                               const ValidationProgress& progress) {
  std::vector<ModuleValidation> results;
  for (const ModuleInfo* module : modules) {
    ModuleValidation validation{module->number, module->title, {}};
    auto say = [&](const std::string& text) {
      if (progress) progress(fmt::format("module {}: {}", module->number, text));
    };

    ValidationCheck markers{"markers", true, false, ""};
    int regions = 0;
    for (const auto& relative : module->learner_files) {
      const fs::path file = installation.source_dir / relative;
      if (!fs::is_regular_file(file)) {
        markers.ok = false;
        markers.detail += relative + " is missing\n";
        continue;
      }
      const std::string source = read_file(file);
      for (const auto& problem : marker_problems(source, relative)) {
        markers.ok = false;
        markers.detail += problem + "\n";
      }
      try {
        const auto found = scan_solution_regions(source, relative);
        regions += static_cast<int>(found.size());
        if (found.empty()) markers.detail += relative + " has no solution region (the learner writes nothing in it)\n";
      } catch (const MarkerError&) {
      }
    }
    if (markers.ok) markers.detail = fmt::format("{} regions in {} files", regions, module->learner_files.size()) +
                                     (markers.detail.empty() ? "" : "; " + markers.detail);
    validation.checks.push_back(markers);

    // What the learner reads: lesson sections that exist, TODOs that state contracts, and nothing
    // that sends them into framework/src/ (a workspace has none of it; the solutions live there).
    ValidationCheck sections{"lesson sections", true, false, ""};
    // Reported, not yet failing: module 06's gradient TODOs still quote their rules (being rewritten).
    ValidationCheck todos{"TODOs", true, true, ""};
    ValidationCheck workspace_only{"workspace only", true, false, ""};
    const std::string lesson = module->available() ? read_file(module->lesson) : "";
    const auto headings = module->available() ? markdown_headings(lesson) : std::vector<std::string>{};
    int referenced = 0;
    for (const auto& relative : module->learner_files) {
      const fs::path file = installation.source_dir / relative;
      if (!fs::is_regular_file(file)) continue;
      const std::string source = read_file(file);
      for (const auto& problem : lesson_reference_problems(source, relative, headings)) {
        sections.ok = false;
        sections.detail += problem + "\n";
      }
      for (const auto& leak : todo_leaks(source, relative)) {
        todos.ok = false;
        todos.detail += leak + "\n";
      }
      try {
        referenced += static_cast<int>(scan_solution_regions(source, relative).size());
        const std::string starter = make_starter(source, relative, module->folder(), "");
        for (const auto& mention : framework_source_mentions(starter, "starter of " + fs::path(relative).filename().string())) {
          workspace_only.ok = false;
          workspace_only.detail += mention + "\n";
        }
      } catch (const MarkerError&) {
      }
    }
    // Markdown that would show as typed (an unclosed **, a table row without its table) in both views.
    if (module->available())
      for (const auto& problem : unrendered_markdown(lesson)) {
        sections.ok = false;
        sections.detail += "lesson.md " + problem + " shows as typed\n";
      }
    if (module->available() && fs::is_regular_file(module->hints)) {
      for (const auto& problem : hint_section_problems(read_file(module->hints), lesson)) {
        sections.ok = false;
        sections.detail += problem + "\n";
      }
    }
    for (const fs::path& text : {module->lesson, module->hints}) {
      if (!fs::is_regular_file(text)) continue;
      for (const auto& mention : framework_source_mentions(read_file(text), fs::relative(text, installation.source_dir).string())) {
        workspace_only.ok = false;
        workspace_only.detail += mention + "\n";
      }
    }
    if (sections.ok)
      sections.detail = fmt::format("{} regions name a heading of the lesson; the hints' references to it resolve; it "
                                    "renders cleanly", referenced);
    if (todos.ok) todos.detail = "no TODO quotes its solution";
    if (workspace_only.ok) workspace_only.detail = "no lesson, hint or starter points into framework/src/";
    validation.checks.push_back(sections);
    validation.checks.push_back(todos);
    validation.checks.push_back(workspace_only);

    // The concept checks `tito module quiz` asks: well-formed, and each question points at a section
    // of the lesson (where a learner who got it wrong reads on). Every available module has them.
    ValidationCheck concept_checks{"concept checks", true, false, ""};
    if (!module->available()) {
      concept_checks.detail = "no lesson yet";
    } else if (!fs::is_regular_file(module->quiz)) {
      concept_checks.ok = false;
      concept_checks.detail = fmt::format("{} is missing (4 to 6 questions; INSTRUCTOR.md, \"Concept checks\")",
                                          fs::relative(module->quiz, installation.source_dir).string());
    } else {
      for (const auto& problem : quiz_problems(module->quiz, headings)) {
        concept_checks.ok = false;
        concept_checks.detail += problem + "\n";
      }
      if (concept_checks.ok) concept_checks.detail = fmt::format("{} questions, each on a section of the lesson",
                                                                 load_quiz(module->quiz).questions.size());
    }
    validation.checks.push_back(concept_checks);

    // Lessons in other languages (lesson.LANG.md) in step with the English one: the same headings,
    // code and anchors, and no English section changed since it was translated.
    if (module->available()) {
      ValidationCheck translations{"translations", true, false, ""};
      const auto languages = lesson_translations(*module);
      for (const std::string& language : languages) {
        const fs::path file = translated_lesson_path(*module, language);
        const std::string translation = read_file(file);
        for (const auto& problem :
             translation_drift(lesson, translation, fs::relative(file, installation.source_dir).string())) {
          translations.ok = false;
          translations.detail += problem + "\n";
        }
        for (const auto& problem : unrendered_markdown(translation)) {
          translations.ok = false;
          translations.detail += file.filename().string() + " " + problem + " shows as typed\n";
        }
      }
      if (translations.ok)
        translations.detail = languages.empty() ? "English only"
                                                : fmt::format("in step with lesson.md: {}", fmt::join(languages, ", "));
      validation.checks.push_back(translations);
    }

    const auto declared = cases_declared_in(module->tests);
    int declared_points = 0, unpointed = 0;
    for (const auto& c : declared) {
      declared_points += c.points;
      if (c.points == 0) ++unpointed;
    }
    ValidationCheck points{"points", declared_points == module->points, false, ""};
    points.detail = fmt::format("{} test cases worth {} points; curriculum.json says {}", declared.size(), declared_points,
                                module->points);
    if (unpointed > 0) points.detail += fmt::format(" ({} cases carry no [points=N] tag)", unpointed);
    validation.checks.push_back(points);

    const auto hints = curriculum.load_hints(*module);
    std::vector<std::string> without_hint;
    for (const auto& c : declared)
      if (!hints.has_case(c.name)) without_hint.push_back(c.name);
    // A check's hint answers a LABEL_CHECKS label of the tests: one no test gives would never be shown.
    std::string test_text;
    for (const fs::path& file : module->tests) test_text += read_file(file);
    std::vector<std::string> unlabelled;
    for (const auto& entry : hints.entries)
      if (!entry.check.empty() && test_text.find("\"" + entry.check + "\"") == std::string::npos)
        unlabelled.push_back(entry.key());
    std::string hint_problems;
    if (!without_hint.empty()) hint_problems = fmt::format("no hint for: {}", fmt::join(without_hint, "; "));
    if (!unlabelled.empty())
      hint_problems += fmt::format("{}hints for checks no test labels (LABEL_CHECKS): {}", hint_problems.empty() ? "" : "; ",
                                   fmt::join(unlabelled, "; "));
    validation.checks.push_back(
        {"hints", hint_problems.empty(), true, hint_problems.empty() ? "every test case has a hint" : hint_problems});

    if (!markers.ok) {
      results.push_back(validation);
      continue;  // no starter can be generated from broken markers
    }
    PreparedVariants variants;
    if (check_variants_too) {
      variants = prepare_variants(installation, *module);
      if (variants.problem.empty() && variants.variants.size() < kMinimumVariants)
        variants.problem = fmt::format("{} has {} variants; a module needs at least {} known-wrong variants of its "
                                       "reference (the mistakes its lesson warns about), each caught by a test",
                                       module->variants.string(), variants.variants.size(), kMinimumVariants);
      if (!variants.problem.empty()) {
        validation.checks.push_back({"variants", false, false, variants.problem});
        results.push_back(validation);
        continue;  // nothing is built for a module whose variants must be fixed first
      }
    }
    const fs::path dir = scratch_dir / module->folder();
    say("compiling its tests");
    TestObjects objects = build_test_objects(toolchain, module->tests, dir / "tests", jobs);
    if (!objects.ok) {
      validation.checks.push_back({"tests compile", false, false, objects.build_log});
      results.push_back(validation);
      continue;
    }
    std::map<std::string, fs::path> reference_objects;  // file name -> its object in the reference build
    for (FileFlavour flavour : {FileFlavour::Starter, FileFlavour::Reference}) {
      const bool starter = flavour == FileFlavour::Starter;
      const fs::path files_dir = dir / (starter ? "starter" : "reference");
      fs::remove_all(files_dir);
      write_module_files(files_dir, generate_module_files(installation, *module, flavour));
      ModuleTestRequest request;
      request.module = module->number;
      request.learner_dirs[module->number] = files_dir;
      request.test_sources = module->tests;
      request.prebuilt_test_objects = objects.objects;
      request.build_dir = dir / (starter ? "starter-build" : "reference-build");
      request.time_limit_s = module->time_limit_s;
      request.memory_limit_mb = module->memory_limit_mb;
      request.build_jobs = jobs;
      // Validation reports which cases fail, never a crash's diagnosis: no AddressSanitizer rebuild and rerun.
      request.diagnose_crashes = false;
      say(starter ? "building and running the starter" : "building and running the reference");
      const TestReport report = run_module_tests(toolchain, request);
      if (!starter)
        for (const auto& source : plan_module_build(toolchain, request).learner_sources)
          reference_objects[source.source.filename().string()] = fs::absolute(request.build_dir) / source.object;
      ValidationCheck check{starter ? "starter fails" : "reference passes", false, false, ""};
      if (!report.build_ok) {
        check.detail = (starter ? "the starter does not compile:\n" : "the reference does not compile:\n") + report.build_log;
      } else if (starter) {
        std::vector<std::string> unclean;
        for (const auto& c : report.cases)
          if (c.status != CaseStatus::NotImplemented && c.status != CaseStatus::Failed && c.status != CaseStatus::Errored)
            unclean.push_back(fmt::format("{} ({})", c.name, to_string(c.status)));
        check.ok = report.points_earned() == 0 && unclean.empty() && !report.cases.empty();
        check.detail = fmt::format("{}/{} points", report.points_earned(), report.points_possible());
        if (!unclean.empty()) check.detail += fmt::format("; did not fail cleanly: {}", fmt::join(unclean, "; "));
        if (report.points_earned() > 0) {
          for (const auto& c : report.cases)
            if (c.passed()) check.detail += fmt::format("; '{}' passes on the starter", c.name);
        }
      } else {
        // What failed: a crash's or limit's detail, else the first failed check as the test wrote it.
        const auto what_failed = [](const CaseResult& c) {
          if (!c.detail.empty() || c.failures.empty()) return c.detail;
          const AssertionFailure& first = c.failures.front();
          std::string text = fmt::format("{}:{} {}", fs::path(first.file).filename().string(), first.line, first.expression);
          if (!first.expanded.empty()) text += " with " + first.expanded;
          return text;
        };
        std::vector<std::string> failing;
        for (const auto& c : report.cases)
          if (!c.passed()) failing.push_back(fmt::format("{} ({}: {})", c.name, to_string(c.status), what_failed(c).substr(0, 200)));
        check.ok = report.all_passed() && report.points_earned() == module->points;
        check.detail = fmt::format("{}/{} points", report.points_earned(), module->points);
        if (!failing.empty()) check.detail += fmt::format("; failing: {}", fmt::join(failing, "; "));
      }
      validation.checks.push_back(check);
      if (!starter && check.ok) {
        say("running the reference again on another seed");
        validation.checks.push_back(check_seeded_cases(toolchain, request, report));
      }
    }
    if (check_variants_too && validation.checks.back().ok) {
      say("building and running its known-wrong variants");
      validation.checks.push_back(
          check_variants(toolchain, *module, variants, objects.objects, reference_objects, dir / "variants", jobs));
    }
    results.push_back(validation);
  }
  return results;
}

}  // namespace tito
