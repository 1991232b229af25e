// grade_submissions: find each learner's workspace, rebuild every module from the learner's files
// with the instructor's tests (compiled once for the whole class), run it in the sandbox, score it.
#include "core/grading.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build/learner_includes.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/grading_archive.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/sha256.h"
#include "core/untrusted_input.h"
#include "core/workspace.h"
#include "run/sandbox.h"
#include "run/test_session.h"
#include "run/transcript.h"

namespace tito {
namespace fs = std::filesystem;
using nlohmann::json;
namespace {

constexpr std::size_t kMaxMessageChars = 600;
constexpr int kMaxWalkedEntries = 20000;

std::string first_lines(const std::string& text, int count, std::size_t max_chars = kMaxMessageChars) {
  std::string out;
  std::size_t at = 0;
  for (int line = 0; line < count && at < text.size(); ++line) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    out += text.substr(at, end - at) + "\n";
    at = end + 1;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
  return out;
}

// A folder name for a learner id: letters, digits, '.', '-', '_' and '@' only.
std::string path_safe(const std::string& id) {
  std::string safe;
  for (char c : id) safe += (std::isalnum(static_cast<unsigned char>(c)) || std::string(".-_@").find(c) != std::string::npos) ? c : '_';
  if (safe.empty() || safe[0] == '.') safe = "_" + safe;
  if (safe != id) safe += "-" + sha256_hex(id).substr(0, 8);  // "a b" and "a_b" must not share a folder
  return safe;
}

// The message a grade report shows for one case.
std::string case_message(const CaseResult& result) {
  if (result.passed()) return "";
  if (!result.detail.empty() && result.status != CaseStatus::Failed) {
    std::string text = result.detail;
    if (!result.diagnosis.empty()) text += "\n" + result.diagnosis;
    if (!result.output.empty()) text += "\n--- output of the test program ---\n" + result.output;
    return first_lines(text, 12);
  }
  for (const auto& failure : result.failures) {
    std::string text = failure.expression;
    if (!failure.actual.empty() || !failure.expected.empty())
      text += fmt::format(" - got {}, expected {}", failure.actual, failure.expected);
    else if (!failure.expanded.empty())
      text += " with expansion " + failure.expanded;
    if (!failure.message.empty()) text += (text.empty() ? "" : ": ") + failure.message;
    if (!failure.file.empty()) text = fmt::format("{}:{}: {}", fs::path(failure.file).filename().string(), failure.line, text);
    return first_lines(text, 6);
  }
  return first_lines(result.detail, 12);
}

json to_json(const ModuleGrade& grade) {
  json cases = json::array();
  for (const auto& c : grade.cases)
    cases.push_back({{"name", c.name}, {"points", c.points}, {"earned", c.earned}, {"status", c.status},
                     {"message", c.message}, {"duration_ms", c.duration_ms}});
  return {{"number", grade.number}, {"status", grade.status}, {"note", grade.note}, {"earned", grade.earned},
          {"possible", grade.possible}, {"seconds", grade.seconds}, {"cases", cases}, {"flags", grade.flags}};
}

ModuleGrade module_grade_from_json(const json& data) {
  ModuleGrade grade;
  grade.number = data.at("number").get<std::string>();
  grade.status = data.at("status").get<std::string>();
  grade.note = data.value("note", "");
  grade.earned = data.at("earned").get<int>();
  grade.possible = data.at("possible").get<int>();
  grade.seconds = data.value("seconds", 0.0);
  grade.flags = data.value("flags", std::vector<std::string>{});
  for (const auto& c : data.at("cases"))
    grade.cases.push_back({c.at("name").get<std::string>(), c.at("points").get<int>(), c.at("earned").get<int>(),
                           c.at("status").get<std::string>(), c.value("message", ""), c.value("duration_ms", 0.0)});
  return grade;
}

// A module scored without running anything: every declared case earns 0 with the same reason.
ModuleGrade unscored_module(const ModuleInfo& module, const std::vector<CaseResult>& declared, const std::string& status,
                            const std::string& message) {
  ModuleGrade grade;
  grade.number = module.number;
  grade.status = status;
  grade.note = message;
  for (const auto& c : declared) {
    grade.cases.push_back({c.name, c.points, 0, status, message, 0});
    grade.possible += c.points;
  }
  return grade;
}

// The reference solution's results for one module on this run's secret inputs, per case name.
struct ReferenceResults {
  std::string problem;  // not empty: the reference could not be built or run (nothing can be verified)
  std::map<std::string, CaseResult> cases;
};

// What every learner's build shares: the modules, their declared cases and compiled tests.
struct ClassContext {
  const Installation& installation;
  const Curriculum& curriculum;
  const Toolchain& toolchain;
  const GradingOptions& options;
  std::vector<const ModuleInfo*> graded;
  std::vector<const ModuleInfo*> with_learner_files;  // every available module a learner writes code for
  std::map<std::string, std::vector<CaseResult>> declared;           // module -> the instructor's cases
  std::map<std::string, std::vector<fs::path>> test_objects;         // module -> shared objects
  std::map<std::string, std::vector<GeneratedFile>> starters;        // module -> starter files
  std::map<std::string, std::vector<GeneratedFile>> references;      // module -> reference solution files
  std::map<std::string, std::string> instructor_copies;              // file name -> content (tests, metadata)
  std::string toolchain_identity;
  std::vector<fs::path> public_include_dirs;  // copies of the released headers: all a learner file may include
  bool writes_confined = false;
  std::atomic<int> cached{0}, rebuilt{0};
  uint64_t seed = 0;  // this grading folder's secret seed: the test programs' inputs are drawn from it
  // module -> the reference's results, computed before any learner's code is built or run (its files
  // deleted at once), so no learner code ever runs while they lie on disk, and no learner waits for them.
  std::map<std::string, ReferenceResults> reference;
};

// By content, not time: touching a header rebuilds the objects, but identical objects keep the cache.
std::string file_stamp(const fs::path& file) {
  std::error_code error;
  if (!fs::is_regular_file(file, error)) return file.string() + ": missing\n";
  return file.string() + ":" + sha256_hex(read_file(file)) + "\n";
}

// What a cached result was computed with: the toolchain, the libraries, the tests' objects and, by
// content, every public header a learner's file compiles against.
std::string identity_of(const Installation& installation, const Toolchain& toolchain,
                        const std::map<std::string, std::vector<fs::path>>& test_objects,
                        const std::vector<fs::path>& public_include_dirs) {
  Sha256 hash;
  const fs::path toolchain_file = installation.build_dir / "tito" / "toolchain.json";
  hash.update(fs::exists(toolchain_file) ? read_file(toolchain_file) : std::string());
  hash.update(file_stamp(toolchain.given_lib) + file_stamp(toolchain.catch_main_lib));
  for (const auto& [number, lib] : toolchain.solution_libs) hash.update(number + file_stamp(lib));
  for (const auto& [number, objects] : test_objects)
    for (const auto& object : objects) hash.update(number + file_stamp(object));
  std::vector<fs::path> headers;
  std::error_code error;
  for (const auto& dir : public_include_dirs)
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
      if (fs::is_regular_file(it->symlink_status())) headers.push_back(it->path());
  std::sort(headers.begin(), headers.end());
  for (const auto& header : headers) hash.update(file_stamp(header));
  return hash.hex_digest();
}

// One learner's files, prepared once: per module, the files to compile and whether any was theirs.
struct PreparedModule {
  fs::path dir;              // scratch copy holding exactly the module's learner files
  bool submitted = false;    // at least one file came from the learner
  bool unchanged_starter = false;  // every file is the untouched starter
  std::string refused;       // why the module is not built at all (a link in its path, a forbidden include)
  std::string content_hash;
};

struct LearnerWork {
  LearnerGrade grade;
  fs::path work_dir;
  fs::path workspace;
  std::map<std::string, PreparedModule> prepared;
};

void prepare_learner_files(const ClassContext& context, LearnerWork& work) {
  for (const ModuleInfo* module : context.with_learner_files) {
    PreparedModule prepared;
    prepared.dir = work.work_dir / "src" / module->folder();
    fs::remove_all(prepared.dir);
    fs::create_directories(prepared.dir);
    const fs::path learner_dir = work.workspace / "modules" / module->folder();
    if (auto link = first_symlink_in(work.workspace, fs::path("modules") / module->folder())) {
      prepared.refused = fmt::format("{} is a symbolic link; links are not followed, so none of the module's files were used",
                                     link->generic_string());
      work.grade.flags.push_back(fmt::format("module {}: {}", module->number, prepared.refused));
    }
    const auto& starters = context.starters.at(module->number);
    std::vector<std::string> filled;
    bool all_starter = true, all_reference = true;
    const auto& references = context.references.at(module->number);
    Sha256 hash;
    for (const auto& starter : starters) {
      std::string problem;
      std::optional<std::string> content;
      if (prepared.refused.empty()) content = learner_copy(learner_dir / starter.name, problem);
      if (!problem.empty())
        work.grade.flags.push_back(fmt::format("modules/{}/{} {}; its starter was used", module->folder(), starter.name, problem));
      if (content) {
        prepared.submitted = true;
        if (*content != starter.content) all_starter = false;
        for (const auto& line : forbidden_include_lines(*content)) {
          const std::string what = fmt::format("modules/{}/{} {}", module->folder(), starter.name, line);
          work.grade.flags.push_back(fmt::format("module {}: {}; refused without compiling", module->number, what));
          prepared.refused += (prepared.refused.empty() ? "" : "\n") + what;
        }
      }
      const bool is_reference = std::any_of(references.begin(), references.end(), [&](const GeneratedFile& reference) {
        return reference.name == starter.name && content && *content == reference.content;
      });
      if (!is_reference) all_reference = false;
      if (!content && problem.empty()) filled.push_back(starter.name);  // a refused file has its own flag
      const std::string& text = content ? *content : starter.content;
      write_file_atomically(prepared.dir / starter.name, text);
      hash.update(fmt::format("{}\n{}\n", starter.name, text.size()));
      hash.update(text);
    }
    prepared.unchanged_starter = prepared.submitted && all_starter;
    if (prepared.submitted && all_reference)
      work.grade.flags.push_back(fmt::format("module {}: the files are the reference solution unchanged (as `tito module "
                                             "start {} --reference` writes them), not the learner's own code",
                                             module->number, module->number));
    prepared.content_hash = hash.hex_digest();
    if (prepared.submitted && !filled.empty() && prepared.refused.empty())
      work.grade.flags.push_back(fmt::format("module {}: {} missing; the starter stood in", module->number, fmt::join(filled, ", ")));
    work.prepared[module->number] = prepared;
  }
}

// Learner-side copies of tests or metadata that differ from the instructor's, files that will not be
// compiled, and learner code that mentions the test harness: all flagged for a human to look at.
void inspect_workspace(const ClassContext& context, LearnerWork& work) {
  std::set<std::string> learner_file_names;
  for (const ModuleInfo* module : context.with_learner_files)
    for (const auto& file : module->learner_files) learner_file_names.insert(module->folder() + "/" + fs::path(file).filename().string());
  std::error_code error;
  int walked = 0;
  fs::recursive_directory_iterator it(work.workspace, fs::directory_options::skip_permission_denied, error), end;
  for (; !error && it != end; it.increment(error)) {
    if (++walked > kMaxWalkedEntries) break;
    const fs::path relative = it->path().lexically_relative(work.workspace);
    if (it->path().filename() == ".tito" || it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(error) || it->is_symlink(error)) continue;
    const std::string name = it->path().filename().string();
    auto instructor = context.instructor_copies.find(name);
    if (instructor != context.instructor_copies.end()) {
      std::string problem;
      auto content = learner_copy(it->path(), problem);
      if (!content || *content != instructor->second)
        work.grade.flags.push_back(fmt::format("{} differs from the instructor's copy (not used: graded with the instructor's "
                                               "tests and metadata)", relative.string()));
      continue;
    }
    const std::string parent = relative.parent_path().string();
    if (parent.rfind("modules/", 0) == 0 && (it->path().extension() == ".cpp" || it->path().extension() == ".h")) {
      const std::string key = relative.parent_path().filename().string() + "/" + name;
      if (!learner_file_names.count(key))
        work.grade.flags.push_back(fmt::format("{} is not a learner file of its module and was not compiled", relative.string()));
    }
  }
  for (const auto& [number, prepared] : work.prepared) {
    if (!prepared.submitted) continue;
    for (const auto& file : fs::directory_iterator(prepared.dir)) {
      // As the compiler reads it: a backslash at the end of a line joins it to the next, so a name
      // split over two lines that way is still one word to the compiler.
      std::string text = read_file(file.path());
      for (auto at = text.find("\\\n"); at != std::string::npos; at = text.find("\\\n", at)) text.erase(at, 2);
      for (const char* marker : {"TITO_EVENTS", "TEST_CASE", "catch2/", "CATCH_", "tito_catch"})
        if (text.find(marker) != std::string::npos) {
          work.grade.flags.push_back(fmt::format("module {}: {} mentions the test harness ({}); review it by hand", number,
                                                 file.path().filename().string(), marker));
          break;
        }
    }
  }
  for (const char* state : {"progress.json", "workspace.json"}) {
    const fs::path file = work.workspace / ".tito" / state;
    std::string problem;
    auto content = learner_copy(file, problem);
    if (content && json::parse(*content, nullptr, false).is_discarded())
      work.grade.flags.push_back(fmt::format(".tito/{} is damaged (ignored: only test runs count)", state));
  }
}

// Whether a case that reported success earns its points: its transcript must say what the reference's
// says on the same secret inputs. "" when it does, else why not (shown as the case's message).
constexpr const char* kUnverifiable = "could not be verified: ";
std::string verification_problem(const CaseResult& learner, const ReferenceResults& reference) {
  if (!reference.problem.empty()) return kUnverifiable + reference.problem;
  auto found = reference.cases.find(learner.name);
  if (found == reference.cases.end() || !found->second.passed())
    return std::string(kUnverifiable) +
           "the reference solution does not pass this case on this run's inputs (instructor: tito instructor validate)";
  if (found->second.observations.empty())
    return std::string(kUnverifiable) + "the case records no results (instructor: give it a CHECK on what the code computes)";
  const TranscriptMatch match = compare_transcripts(learner.observations, found->second.observations);
  if (match.same) return "";
  return "its results differ from the reference solution's on this run's inputs: " + match.difference;
}

ModuleGrade score_report(const ClassContext& context, const ModuleInfo& module, const TestReport& report,
                         const ReferenceResults& reference, LearnerWork& work) {
  ModuleGrade grade;
  grade.number = module.number;
  grade.seconds = report.build_seconds + report.run_seconds;
  const auto& declared = context.declared.at(module.number);
  std::map<std::string, const CaseResult*> ran;
  for (const auto& c : report.cases) ran[c.name] = &c;
  if (!report.refused_includes.empty()) {
    for (const auto& include : report.refused_includes)
      work.grade.flags.push_back(fmt::format("module {}: {}, outside the public headers; the build was refused and its "
                                             "compiler messages withheld", module.number, include));
    grade = unscored_module(module, declared, "refused", report.build_log);
    grade.seconds = report.build_seconds;
    return grade;
  }
  if (!report.refused_symbols.empty()) {
    for (const auto& definition : report.refused_symbols)
      work.grade.flags.push_back(fmt::format("module {}: {}; the build was refused and never run", module.number, definition));
    grade = unscored_module(module, declared, "refused", report.build_log);
    grade.seconds = report.build_seconds;
    return grade;
  }
  if (!report.build_ok) {
    grade = unscored_module(module, declared, "build failed", "the code did not compile");
    grade.status = "build failed";
    grade.note = first_lines(report.build_log, 15, 1500);
    grade.seconds = report.build_seconds;
    return grade;
  }
  grade.status = "graded";
  // A program that died before its first case says why once, in the module's note; its cases point there.
  if (!report.startup_failure.empty()) grade.note = first_lines(report.startup_failure, 8, 1500);
  const bool listed = !(report.cases.size() == 1 && report.cases.front().name == kStartupCaseName);
  std::set<std::string> declared_names;
  for (const auto& expected : declared) {
    declared_names.insert(expected.name);
    CaseGrade c{expected.name, expected.points, 0, "not run", "the test program did not run this case", 0};
    auto found = ran.find(expected.name);
    if (!listed || (found != ran.end() && !report.startup_failure.empty() && !found->second->passed() &&
                    found->second->detail.rfind("the test program failed before this case could start", 0) == 0)) {
      c.status = "not run";
      c.message = "the test program failed at start-up (the module's note says why)";
    } else if (found != ran.end()) {
      c.status = to_string(found->second->status);
      c.message = case_message(*found->second);
      c.duration_ms = found->second->duration_ms;
      if (found->second->passed()) {
        const std::string problem = verification_problem(*found->second, reference);
        if (problem.empty()) {
          c.earned = c.points;
        } else {
          c.status = "not verified";
          c.message = problem;
        }
      }
    }
    grade.earned += c.earned;
    grade.possible += c.points;
    grade.cases.push_back(c);
  }
  for (const auto& c : report.cases)
    if (listed && !declared_names.count(c.name))
      work.grade.flags.push_back(fmt::format("module {}: the test program ran '{}', which is not one of the instructor's "
                                             "cases (ignored)", module.number, c.name));
  return grade;
}

// What a test program may read besides its own files: the course's datasets (public data; modules 16 and
// 20 train on TinyDigits), at the path the framework was built to look in.
std::vector<fs::path> course_data_dirs(const ClassContext& context) {
  const fs::path datasets = context.installation.source_dir / "datasets";
  std::error_code error;
  return fs::is_directory(datasets, error) ? std::vector<fs::path>{fs::absolute(datasets)} : std::vector<fs::path>{};
}

// A reference's results as the cache keeps them: what verification_problem reads.
json reference_to_json(const ReferenceResults& results) {
  json cases = json::array();
  for (const auto& [name, c] : results.cases) {
    json observations = json::array();
    for (const auto& observation : c.observations) observations.push_back(observation_to_json(observation));
    cases.push_back({{"name", name}, {"passed", c.passed()}, {"observations", observations}});
  }
  return {{"problem", results.problem}, {"cases", cases}};
}

ReferenceResults reference_from_json(const json& data) {
  ReferenceResults results;
  results.problem = data.at("problem").get<std::string>();
  for (const auto& c : data.at("cases")) {
    CaseResult result;
    result.name = c.at("name").get<std::string>();
    result.status = c.at("passed").get<bool>() ? CaseStatus::Passed : CaseStatus::Failed;
    for (const auto& observation : c.at("observations")) result.observations.push_back(observation_from_json(observation));
    results.cases[result.name] = std::move(result);
  }
  return results;
}

// The reference solution's results on this run's inputs: the module's tests linked with the reference
// code only, run with the secret seed before any learner's code is built or run. Its scratch folders
// are deleted at once; the results are kept (readable by their owner only) under a key of the seed,
// the module's tests and the toolchain, so a re-grade with a kept seed (--keep-seed) runs nothing.
ReferenceResults reference_results(ClassContext& context, const ModuleInfo& module) {
  const double time_limit_s = context.options.time_limit_s > 0 ? context.options.time_limit_s : module.time_limit_s;
  Sha256 key;
  key.update(fmt::format("tito-reference-v1\n{}\n{}\n{}\n{}\n", context.seed, module.number, time_limit_s,
                         module.memory_limit_mb));
  key.update(context.toolchain_identity);
  for (const auto& test : module.tests) key.update(read_file(test));
  const fs::path cache_file = context.options.out_dir / "cache" / "reference-results" / (key.hex_digest() + ".json");
  std::error_code ignored;
  if (fs::is_regular_file(cache_file, ignored)) {
    try {
      return reference_from_json(json::parse(read_file(cache_file)));
    } catch (const std::exception&) {
      // A damaged entry is simply run again.
    }
  }
  ModuleTestRequest request;
  request.module = module.number;
  request.test_sources = module.tests;
  request.prebuilt_test_objects = context.test_objects.at(module.number);
  request.build_dir = context.options.out_dir / "cache" / "reference" / module.folder();
  request.time_limit_s = time_limit_s;
  request.memory_limit_mb = module.memory_limit_mb;
  request.build_jobs = std::max(1, context.options.jobs);
  request.confine_writes = true;
  request.diagnose_crashes = false;
  request.readable_dirs = course_data_dirs(context);
  const fs::path run_dir = fs::absolute(request.build_dir) / "run";
  fs::create_directories(run_dir / "home");
  fs::create_directories(run_dir / "tmp");
  request.run_env = {{"HOME", (run_dir / "home").string()}, {"TMPDIR", (run_dir / "tmp").string()},
                     {"TITO_GRADING_SEED", std::to_string(context.seed)}};
  ReferenceResults results;
  try {
    const TestReport report = run_module_tests(context.toolchain, request);
    if (!report.build_ok)
      results.problem = "the reference solution did not build: " + first_lines(report.build_log, 3);
    else if (!report.startup_failure.empty())
      results.problem = "the reference test program failed at start-up: " + first_lines(report.startup_failure, 3);
    for (const auto& c : report.cases) results.cases[c.name] = c;
  } catch (const std::exception& failure) {
    results.problem = std::string("the reference solution could not be run: ") + failure.what();
  }
  fs::remove_all(run_dir, ignored);
  fs::remove_all(fs::absolute(request.build_dir) / "control", ignored);  // its outputs and events
  if (results.problem.empty()) {
    fs::create_directories(cache_file.parent_path());
    fs::permissions(cache_file.parent_path(), fs::perms::owner_all, fs::perm_options::replace, ignored);
    write_file_atomically(cache_file, reference_to_json(results).dump() + "\n");
    fs::permissions(cache_file, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ignored);
  }
  return results;
}

// This grading run's secret seed: drawn afresh for every run, so that a seed a learner's program
// managed to print somewhere is worth nothing at the next grading, and kept (readable by its owner
// only) so that an instructor can pin it for a re-grade that reuses every result (keep_seed).
uint64_t grading_seed(const GradingOptions& options) {
  const fs::path file = options.out_dir / "cache" / "grading_seed";
  std::error_code error;
  if (options.keep_seed && fs::is_regular_file(file, error)) {
    const std::string text = read_file(file);
    char* end = nullptr;
    const uint64_t seed = std::strtoull(text.c_str(), &end, 10);
    if (end != text.c_str()) return seed;
  }
  std::random_device entropy;
  const uint64_t seed = (static_cast<uint64_t>(entropy()) << 32) ^ entropy();
  fs::create_directories(file.parent_path());
  write_file_atomically(file, std::to_string(seed) + "\n");
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, error);
  return seed;
}

// A test program that leaves links in its run folder (a symbolic link, or a hard link to a file it does
// not own) was reaching for files outside it: tito never follows them, and says so for a human to see.
void flag_links_left_behind(const fs::path& run_dir, const ModuleInfo& module, LearnerWork& work) {
  std::error_code error;
  std::vector<std::string> links;
  int walked = 0;
  for (fs::recursive_directory_iterator it(run_dir, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end && ++walked <= kMaxWalkedEntries; it.increment(error)) {
    const auto status = it->symlink_status(error);
    const bool hard_link = fs::is_regular_file(status) && fs::hard_link_count(it->path(), error) > 1;
    if (fs::is_symlink(status) || hard_link) links.push_back(it->path().lexically_relative(run_dir).generic_string());
  }
  if (links.empty()) return;
  const std::size_t shown = std::min<std::size_t>(links.size(), 5);
  work.grade.flags.push_back(fmt::format("module {}: the test program left {} link{} in its run folder ({}{}); tito follows "
                                         "none of them: review the code by hand",
                                         module.number, links.size(), links.size() == 1 ? "" : "s",
                                         fmt::join(links.begin(), links.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                                         links.size() > shown ? ", ..." : ""));
}

// The seed never reaches a report: wherever a learner's program printed it (in a message, the
// module's note, a flag), it reads "[grading seed]".
void hide_seed(ModuleGrade& grade, uint64_t seed) {
  const std::string text = std::to_string(seed);
  auto hide = [&](std::string& where) {
    for (auto at = where.find(text); at != std::string::npos; at = where.find(text, at))
      where.replace(at, text.size(), "[grading seed]");
  };
  hide(grade.note);
  for (auto& flag : grade.flags) hide(flag);
  for (auto& c : grade.cases) hide(c.message);
}

ModuleGrade grade_module(ClassContext& context, const ModuleInfo& module, LearnerWork& work) {
  const auto& declared = context.declared.at(module.number);
  const PreparedModule& own = work.prepared.at(module.number);
  if (!own.refused.empty()) return unscored_module(module, declared, "refused", own.refused);
  if (!own.submitted) return unscored_module(module, declared, "not submitted", "no files for this module");
  if (own.unchanged_starter)
    return unscored_module(module, declared, "not implemented", "the starter files are unchanged");

  ModuleTestRequest request;
  request.module = module.number;
  Sha256 key;
  key.update(fmt::format("tito-grade-v3\n{}\n{}\n{}\n{}\n{}\n", context.seed, module.number, context.options.cumulative, module.memory_limit_mb,
                         context.options.time_limit_s > 0 ? context.options.time_limit_s : module.time_limit_s));
  key.update(fmt::format("compile limit {}\n", context.options.compile_time_limit_s));
  key.update(context.toolchain_identity);
  for (const auto& test : module.tests) key.update(read_file(test));
  for (const ModuleInfo* other : context.with_learner_files) {
    const bool theirs = other->number == module.number || (context.options.cumulative && other->number < module.number);
    if (!theirs) continue;
    request.learner_dirs[other->number] = work.prepared.at(other->number).dir;
    key.update(other->number + work.prepared.at(other->number).content_hash);
  }
  const fs::path cache_file = context.options.out_dir / "cache" / "results" / (key.hex_digest() + ".json");
  if (fs::exists(cache_file)) {
    try {
      ModuleGrade cached = module_grade_from_json(json::parse(read_file(cache_file)));
      cached.cached = true;
      ++context.cached;
      // The flags its build raised (a refused include or definition) are part of the result.
      work.grade.flags.insert(work.grade.flags.end(), cached.flags.begin(), cached.flags.end());
      return cached;
    } catch (const std::exception&) {
      // A damaged cache entry is simply rebuilt.
    }
  }

  const ReferenceResults& reference = context.reference.at(module.number);
  request.test_sources = module.tests;
  request.prebuilt_test_objects = context.test_objects.at(module.number);
  request.hints = context.curriculum.load_hints(module);
  request.build_dir = work.work_dir / "build";
  request.time_limit_s = context.options.time_limit_s > 0 ? context.options.time_limit_s : module.time_limit_s;
  request.memory_limit_mb = module.memory_limit_mb;
  request.build_jobs = 1;
  // All starts of the test program together: room for one full time-out and the restarts after
  // crashes and hangs (a hang in a function that hung before is stopped within seconds), but not for
  // a hang in every case (an attack that once kept a grader busy for 460 s on one module).
  request.total_time_limit_s = 4 * request.time_limit_s + 30;
  request.confine_writes = true;
  request.compile_time_limit_s = context.options.compile_time_limit_s;
  request.learner_include_dirs = context.public_include_dirs;
  request.readable_dirs = course_data_dirs(context);
  const fs::path run_dir = request.build_dir / "run";
  fs::create_directories(run_dir / "home");
  fs::create_directories(run_dir / "tmp");
  request.run_env = {{"HOME", (run_dir / "home").string()}, {"TMPDIR", (run_dir / "tmp").string()},
                     {"TITO_GRADING_SEED", std::to_string(context.seed)}};
  if (context.writes_confined) {  // the sandbox's size-capped tmpfs
    request.run_env["HOME"] = "/tmp";
    request.run_env["TMPDIR"] = "/tmp";
  }
  const TestReport report = run_module_tests(context.toolchain, request);
  const std::size_t flags_before = work.grade.flags.size();
  ModuleGrade grade = score_report(context, module, report, reference, work);
  flag_links_left_behind(run_dir, module, work);
  grade.flags.assign(work.grade.flags.begin() + static_cast<std::ptrdiff_t>(flags_before), work.grade.flags.end());
  work.grade.flags.resize(flags_before);
  hide_seed(grade, context.seed);
  work.grade.flags.insert(work.grade.flags.end(), grade.flags.begin(), grade.flags.end());
  // What the program wrote, and its objects: a learner's leftovers never pile up (an attacker's gigabytes).
  std::error_code ignored;
  fs::remove_all(run_dir, ignored);
  fs::remove_all(request.build_dir / "control", ignored);
  make_reportable(grade);
  ++context.rebuilt;
  // A reference that failed (a time-out on a busy machine, a broken test) must not stick to the learner.
  const bool verifiable = std::none_of(grade.cases.begin(), grade.cases.end(), [](const CaseGrade& c) {
    return c.message.rfind(kUnverifiable, 0) == 0;
  });
  if (verifiable) {
    fs::create_directories(cache_file.parent_path());
    write_file_atomically(cache_file, to_json(grade).dump() + "\n");
  }
  return grade;
}

void reject(const ClassContext& context, LearnerGrade& grade, const std::string& reason) {
  grade.graded = false;
  grade.reason = reason;
  grade.modules.clear();
  for (const ModuleInfo* module : context.graded)
    grade.modules.push_back(unscored_module(*module, context.declared.at(module->number), "not graded", reason));
}

// The language the learner chose for the workspace, read as any learner file is (never through a link,
// a bounded size); "" when none, or one tito does not know.
std::string learner_language(const fs::path& workspace) {
  std::string problem;
  const auto text = learner_copy(workspace_config_file(workspace), problem, 64u << 10);
  if (!text) return "";
  const auto code = normalise_language(language_in_config_text(*text));
  return code ? *code : "";
}

LearnerGrade grade_learner(ClassContext& context, const Submission& submission,
                           const std::function<void(const std::string&)>& step) {
  LearnerWork work;
  work.grade.id = submission.id;
  work.grade.submission = submission.name;
  work.work_dir = context.options.out_dir / "work" / path_safe(submission.id);
  try {
    fs::create_directories(work.work_dir);
    FoundWorkspace found = open_submission(submission, work.work_dir / "unpacked");
    if (!found.root) {
      reject(context, work.grade, found.problem);
      return work.grade;
    }
    work.workspace = *found.root;
    work.grade.language = learner_language(work.workspace);
    prepare_learner_files(context, work);
    inspect_workspace(context, work);
    work.grade.graded = true;
    for (const ModuleInfo* module : context.graded) {
      ModuleGrade grade;
      try {
        grade = grade_module(context, *module, work);
      } catch (const std::exception& failure) {
        grade = unscored_module(*module, context.declared.at(module->number), "error", failure.what());
      }
      step(fmt::format("module {}: {}/{}{}", module->number, grade.earned, grade.possible, grade.cached ? " (cached)" : ""));
      work.grade.modules.push_back(std::move(grade));
    }
  } catch (const std::exception& failure) {
    reject(context, work.grade, std::string("could not be graded: ") + failure.what());
  }
  // The learner's objects, sanitizer builds, compiler scratch and unpacked archive go once the learner is
  // graded (the test program stays, for an instructor who wants to run it): nothing piles up per learner.
  std::error_code ignored;
  for (const char* scratch : {"build/obj", "build/sanitize", "build/tmp", "build/run", "build/control", "unpacked"})
    fs::remove_all(work.work_dir / scratch, ignored);
  return work.grade;
}

// The released public headers (the toolchain's include folders, never framework/src, where the
// reference solutions are), copied under the output folder: a learner's file is compiled against these
// and nothing else of the repository. Unchanged files keep their time stamps, so a regrade does not
// recompile. The build's sources may sit elsewhere than this installation's (a Gradescope image).
std::vector<fs::path> copy_public_headers(const Toolchain& toolchain, const fs::path& dest) {
  std::vector<fs::path> copies;
  std::error_code error;
  for (const auto& dir : toolchain.include_dirs) {
    const std::string path = fs::weakly_canonical(dir, error).generic_string() + "/";
    if (path.find("/framework/src/") != std::string::npos || !fs::is_directory(dir, error)) continue;
    const fs::path copy = dest / std::to_string(copies.size());
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      if (!fs::is_regular_file(it->symlink_status())) continue;
      const fs::path target = copy / it->path().lexically_relative(dir);
      const std::string content = read_file(it->path());
      if (fs::is_regular_file(target) && read_file(target) == content) continue;
      fs::create_directories(target.parent_path());
      write_file_atomically(target, content);
    }
    copies.push_back(copy);
  }
  if (copies.empty())
    throw UserError("tito's toolchain names no public header folder (framework/include), so learner code cannot be compiled "
                    "against the public headers alone",
                    "re-run the set-up (scripts/setup) to rewrite " + (fs::path("build") / "tito" / "toolchain.json").string());
  return copies;
}

void prepare_class(ClassContext& context) {
  for (const auto& module : context.curriculum.modules())
    if (module.available() && !module.learner_files.empty()) context.with_learner_files.push_back(&module);
  for (const ModuleInfo* module : context.with_learner_files) {
    context.starters[module->number] = generate_module_files(context.installation, *module, FileFlavour::Starter);
    context.references[module->number] = generate_module_files(context.installation, *module, FileFlavour::Reference);
  }
  for (const ModuleInfo* module : context.graded) {
    context.declared[module->number] = cases_declared_in(module->tests);
    for (const auto& test : module->tests) context.instructor_copies[test.filename().string()] = read_file(test);
    const fs::path dir = context.options.out_dir / "cache" / "tests" / module->folder();
    if (context.options.progress) context.options.progress("", "compiling the tests of module " + module->number, 0, 0);
    TestObjects objects = build_test_objects(context.toolchain, module->tests, dir, std::max(1, context.options.jobs));
    if (!objects.ok)
      throw UserError(fmt::format("the instructor's tests of module {} do not compile:\n{}", module->number,
                                  first_lines(objects.build_log, 20, 3000)),
                      "tito instructor validate   (then fix the module's tests)");
    context.test_objects[module->number] = objects.objects;
  }
  const fs::path index = context.installation.source_dir / "curriculum" / "curriculum.json";
  context.instructor_copies["curriculum.json"] = read_file(index);
  context.public_include_dirs = copy_public_headers(context.toolchain, context.options.out_dir / "cache" / "public-headers");
  context.toolchain_identity = identity_of(context.installation, context.toolchain, context.test_objects,
                                           context.public_include_dirs);
  context.writes_confined = confinement_works(context.options.out_dir / "work" / ".probe");
  context.seed = grading_seed(context.options);
}

bool looks_like_workspace(const fs::path& dir) {
  std::error_code error;
  return Workspace::is_workspace(dir) || fs::is_directory(dir / "modules", error);
}

}  // namespace

FoundWorkspace find_workspace(const fs::path& submission) {
  std::error_code error;
  if (fs::is_empty(submission, error)) return {std::nullopt, "the submission is empty"};
  if (looks_like_workspace(submission)) return {submission, ""};
  std::vector<fs::path> candidates;
  for (const auto& entry : fs::directory_iterator(submission, error)) {
    if (!entry.is_directory(error) || entry.is_symlink(error)) continue;
    if (looks_like_workspace(entry.path())) candidates.push_back(entry.path());
    for (const auto& inner : fs::directory_iterator(entry.path(), error))
      if (inner.is_directory(error) && !inner.is_symlink(error) && looks_like_workspace(inner.path()))
        candidates.push_back(inner.path());
  }
  if (candidates.size() == 1) return {candidates.front(), ""};
  if (candidates.size() > 1)
    return {std::nullopt, fmt::format("the submission holds {} workspaces; it must hold exactly one", candidates.size())};
  return {std::nullopt, "no workspace found (expected a modules/ folder, as `tito init` creates)"};
}

FoundWorkspace open_submission(const Submission& submission, const fs::path& unpack_dir) {
  std::error_code error;
  const auto status = fs::symlink_status(submission.path, error);
  fs::path root = submission.path;
  if (fs::is_symlink(status)) return {std::nullopt, "the submission is a symbolic link; links are not followed"};
  if (submission.archive) {
    root = unpack_dir;
    try {
      extract_archive_safely(submission.path, root);
    } catch (const ArchiveRejected& rejected) {
      fs::remove_all(root, error);
      return {std::nullopt, std::string("archive rejected: ") + rejected.what()};
    }
  } else if (!fs::is_directory(status)) {
    return {std::nullopt, "not a workspace folder or a .tar/.tar.gz/.tgz archive of one"};
  }
  return find_workspace(root);
}

std::optional<std::string> learner_copy(const fs::path& file, std::string& problem, std::uintmax_t max_bytes) {
  std::error_code error;
  auto status = fs::symlink_status(file, error);
  if (error || !fs::exists(status)) return std::nullopt;
  if (!fs::is_regular_file(status)) {
    problem = "is not a regular file (links are not followed)";
    return std::nullopt;
  }
  if (fs::file_size(file, error) > max_bytes) {
    problem = fmt::format("is larger than {} MB", max_bytes >> 20);
    return std::nullopt;
  }
  return read_file(file);
}

void make_reportable(ModuleGrade& grade) {
  grade.note = escape_invalid_utf8(grade.note);
  for (auto& c : grade.cases) {
    c.name = escape_invalid_utf8(c.name);
    c.status = escape_invalid_utf8(c.status);
    c.message = escape_invalid_utf8(c.message);
  }
}

void make_reportable(LearnerGrade& grade) {
  grade.id = escape_invalid_utf8(grade.id);
  grade.submission = escape_invalid_utf8(grade.submission);
  grade.reason = escape_invalid_utf8(grade.reason);
  for (auto& flag : grade.flags) flag = escape_invalid_utf8(flag);
  for (auto& module : grade.modules) make_reportable(module);
}

int LearnerGrade::earned() const {
  int total = 0;
  for (const auto& module : modules) total += module.earned;
  return total;
}

int LearnerGrade::possible() const {
  int total = 0;
  for (const auto& module : modules) total += module.possible;
  return total;
}

std::vector<Submission> list_submissions(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw UserError(fmt::format("{} is not a folder of submissions", dir.string()),
                    "tito grade SUBMISSIONS_DIR   (one workspace folder or .tar.gz per learner inside it)");
  std::vector<Submission> submissions;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    Submission submission;
    submission.name = escape_invalid_utf8(name);
    submission.path = entry.path();
    submission.archive = is_archive_name(name) && entry.is_regular_file(error);
    submission.id = escape_invalid_utf8(submission.archive ? archive_stem(name) : name);
    submissions.push_back(submission);
  }
  std::sort(submissions.begin(), submissions.end(),
            [](const Submission& a, const Submission& b) { return a.id != b.id ? a.id < b.id : a.name < b.name; });
  return submissions;
}

Submission single_submission(const fs::path& path) {
  std::error_code error;
  if (!fs::exists(path, error))
    throw UserError(fmt::format("the submission {} does not exist", path.string()),
                    "tito grade /autograder/submission --gradescope /autograder/results/results.json");
  Submission submission;
  fs::path normal = fs::absolute(path).lexically_normal();
  if (normal.filename().empty()) normal = normal.parent_path();
  const std::string name = normal.filename().string();
  submission.name = escape_invalid_utf8(name);
  submission.path = normal;
  submission.archive = is_archive_name(name) && fs::is_regular_file(normal, error);
  submission.id = escape_invalid_utf8(submission.archive ? archive_stem(name) : name);
  return submission;
}

std::vector<const ModuleInfo*> modules_to_grade(const Curriculum& curriculum, const std::vector<std::string>& requested) {
  std::vector<const ModuleInfo*> modules;
  auto gradable = [](const ModuleInfo& module) {
    return module.available() && !module.learner_files.empty() && !module.tests.empty();
  };
  if (requested.empty()) {
    for (const auto& module : curriculum.modules())
      if (gradable(module)) modules.push_back(&module);
    if (modules.empty()) throw UserError("no module can be graded yet", "add a module's lesson, tests and learner files");
    return modules;
  }
  for (const auto& name : requested) {
    const ModuleInfo& module = curriculum.resolve(name);
    if (!gradable(module))
      throw UserError(fmt::format("module {} ({}) cannot be graded: it has no lesson, tests or learner files yet", module.number,
                                  module.title),
                      "tito module list   (the available modules)");
    if (std::find(modules.begin(), modules.end(), &module) == modules.end()) modules.push_back(&module);
  }
  std::sort(modules.begin(), modules.end(), [](const ModuleInfo* a, const ModuleInfo* b) { return a->number < b->number; });
  return modules;
}

GradingRun grade_submissions(const Installation& installation, const Curriculum& curriculum, const Toolchain& toolchain,
                             const std::vector<Submission>& submissions, const GradingOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ClassContext context{installation, curriculum, toolchain, options, modules_to_grade(curriculum, options.modules), {}, {}, {},
                       {}, {}, {}, {}, {}, false, {0}, {0}, 0, {}};
  fs::create_directories(options.out_dir);
  prepare_class(context);

  GradingRun run;
  run.mode = options.cumulative ? "cumulative" : "reference-prerequisites";
  for (const ModuleInfo* module : context.graded) {
    int points = 0;
    for (const auto& c : context.declared.at(module->number)) points += c.points;
    run.modules.push_back({module->number, module->title, points});
  }
  run.learners.resize(submissions.size());

  // Two submissions claiming one learner id: neither is graded, both say why.
  std::map<std::string, std::vector<std::size_t>> by_id;
  for (std::size_t i = 0; i < submissions.size(); ++i) by_id[submissions[i].id].push_back(i);
  std::vector<std::size_t> to_grade;
  for (std::size_t i = 0; i < submissions.size(); ++i) {
    const auto& same = by_id[submissions[i].id];
    if (same.size() < 2) {
      to_grade.push_back(i);
      continue;
    }
    std::vector<std::string> names;
    for (auto j : same) names.push_back(submissions[j].name);
    run.learners[i].id = submissions[i].id;
    run.learners[i].submission = submissions[i].name;
    reject(context, run.learners[i],
           fmt::format("duplicate learner id '{}': submitted as {}; keep one and grade again", submissions[i].id,
                       fmt::join(names, " and ")));
  }

  if (!to_grade.empty())
    for (const ModuleInfo* module : context.graded) {
      if (options.progress) options.progress("", "running the reference solution of module " + module->number, 0, 0);
      context.reference[module->number] = reference_results(context, *module);
    }

  std::atomic<std::size_t> next{0};
  std::atomic<int> done{static_cast<int>(submissions.size() - to_grade.size())};
  const int total = static_cast<int>(submissions.size());
  auto worker = [&] {
    for (std::size_t k = next++; k < to_grade.size(); k = next++) {
      const Submission& submission = submissions[to_grade[k]];
      auto step = [&](const std::string& what) {
        if (options.progress) options.progress(submission.id, what, done.load(), total);
      };
      run.learners[to_grade[k]] = grade_learner(context, submission, step);
      make_reportable(run.learners[to_grade[k]]);
      ++done;
      const LearnerGrade& grade = run.learners[to_grade[k]];
      step(grade.graded ? fmt::format("done, {}/{}", grade.earned(), grade.possible()) : "not graded: " + grade.reason);
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(to_grade.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();

  for (auto& learner : run.learners) make_reportable(learner);
  run.cached_modules = context.cached;
  run.rebuilt_modules = context.rebuilt;
  run.writes_confined = context.writes_confined;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace tito
