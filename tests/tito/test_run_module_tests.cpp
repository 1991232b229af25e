// run_module_tests end to end on fixture modules (tests/tito/data/run_*): every case status, the
// actual/expected split, points, bounded run time, and ninja rebuilding only what changed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>

#include "run/module_test_runner.h"

#include "../test_skip.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

const fs::path kData = TITO_TESTS_DATA_DIR;

// A scratch copy of a fixture, so tests can edit and touch the "learner's" files.
struct FixtureWorkspace {
  fs::path root;
  explicit FixtureWorkspace(const std::string& fixture) {
    std::random_device random;
    root = fs::temp_directory_path() / ("tito_test_run_" + fixture + "_" + std::to_string(random()));
    fs::create_directories(root);
    fs::copy(kData / fixture, root / "module", fs::copy_options::recursive);
  }
  ~FixtureWorkspace() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  fs::path learner() const { return root / "module" / "learner"; }
};

// Sanitized builds allocate several times slower, so the runaway allocation needs longer to hit the limit.
// Long enough that the memory hog reaches the memory limit first even on a loaded 2-core machine.
double time_limit_for(const Toolchain& toolchain) { return toolchain.sanitized ? 10 : 5; }

ModuleTestRequest request_for(const FixtureWorkspace& workspace, const std::string& test_file, double time_limit_s) {
  ModuleTestRequest request;
  request.module = "fx";
  request.learner_dirs["fx"] = workspace.learner();
  request.test_sources = {workspace.root / "module" / "tests" / test_file};
  request.build_dir = workspace.root / "build";
  request.time_limit_s = time_limit_s;
  request.memory_limit_mb = 160;
  return request;
}

const CaseResult& find_case(const TestReport& report, const std::string& name) {
  auto found = std::find_if(report.cases.begin(), report.cases.end(), [&](const CaseResult& c) { return c.name == name; });
  if (found == report.cases.end()) FAIL("no case named " << name);
  return *found;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The 1-based number of the first line of `file` that contains `text`, as text ("19").
std::string line_of(const fs::path& file, const std::string& text) {
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find(text) != std::string::npos) return std::to_string(number);
  }
  FAIL("no line with " << text << " in " << file);
  return "";
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::string word;
  in >> word;
  return word;
}

// Sets a file's modification time to now, as saving it in an editor would.
void touch(const fs::path& file) { fs::last_write_time(file, fs::file_time_type::clock::now()); }

}  // namespace

TEST_CASE("run_module_tests gives every fixture case its status and carries on after crashes", "[run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_fixture");
  ModuleTestRequest request = request_for(workspace, "test_fixture.cpp", time_limit_for(toolchain));
  request.hints.entries.push_back({"norm is not implemented", {"Start from the lesson's section 1.2."}, "", {}});

  std::map<std::string, double> longest_status;  // case -> the longest elapsed time shown while it ran
  request.live_status = [&](const std::string& name, double elapsed) {
    if (!name.empty()) longest_status[name] = std::max(longest_status[name], elapsed);
  };

  auto start = std::chrono::steady_clock::now();
  TestReport report = run_module_tests(toolchain, request);
  double seconds = seconds_since(start);
  INFO(report.build_log);
  REQUIRE(report.build_ok);
  // One time limit (the endless loop), one build and a few restarts: never unbounded.
  CHECK(seconds < 180);
  CHECK(report.module == "fx");

  REQUIRE(report.cases.size() == 15);  // the hidden case is not graded
  CHECK(find_case(report, "add passes").status == CaseStatus::Passed);
  CHECK(find_case(report, "add still passes after the crashes").status == CaseStatus::Passed);
  CHECK(find_case(report, "names, with [special] \"characters\" still run").status == CaseStatus::Passed);

  const CaseResult& comparison = find_case(report, "multiply fails a comparison");
  CHECK(comparison.status == CaseStatus::Failed);
  REQUIRE(comparison.failures.size() == 1);
  CHECK(comparison.failures[0].actual == "5");
  CHECK(comparison.failures[0].expected == "6");
  CHECK(comparison.failures[0].expression == "CHECK( fixture::multiply(2, 3) == 6 )");
  CHECK(comparison.failures[0].line > 0);
  CHECK(fs::path(comparison.failures[0].file).filename() == "test_fixture.cpp");

  const CaseResult& matcher = find_case(report, "multiply fails a matcher");
  CHECK(matcher.status == CaseStatus::Failed);
  REQUIRE(matcher.failures.size() == 1);
  CHECK(matcher.failures[0].actual == "9");
  CHECK(matcher.failures[0].expected == "20");
  CHECK(matcher.failures[0].message == "they differ");

  const CaseResult& missing = find_case(report, "norm is not implemented");
  CHECK(missing.status == CaseStatus::NotImplemented);
  CHECK(missing.detail.find("fixture::norm is not implemented yet") == 0);
  CHECK(missing.hint == "Start from the lesson's section 1.2.");

  // A stub's NotImplemented where the test wanted another error is "not implemented" too.
  const CaseResult& unwritten_check = find_case(report, "norm rejects negatives with a clear error");
  CHECK(unwritten_check.status == CaseStatus::NotImplemented);
  CHECK(unwritten_check.detail.find("fixture::norm is not implemented yet") == 0);

  const CaseResult& crashed = find_case(report, "read_through crashes");
  CHECK(crashed.status == CaseStatus::Crashed);
  // Plain builds die of SIGSEGV; sanitized ones report the null load first.
  CHECK(crashed.detail.find(toolchain.sanitized ? "runtime error: load of null pointer" : "SIGSEGV") != std::string::npos);

  const fs::path learner_file = workspace.learner() / "fixture_ops.cpp";
  // Where it crashed: the learner's file and line, from the backtrace or the sanitizer.
  INFO("read_through: " << crashed.diagnosis);
  CHECK(crashed.diagnosis.find("fixture_ops.cpp:" + line_of(learner_file, "return *pointer")) != std::string::npos);
  CHECK(crashed.output.find("tito-backtrace") == std::string::npos);  // raw addresses are not for the learner
  // The failure before the crash arrives once, as an event; the output holds the learner's prints,
  // not Catch2's report of the same failure.
  REQUIRE(crashed.failures.size() == 1);
  CHECK(crashed.failures[0].actual == "2");
  CHECK(crashed.output.find("learner's own print") != std::string::npos);
  CHECK(crashed.output.find("FAILED") == std::string::npos);
  CHECK(crashed.output.find("with expansion") == std::string::npos);

  // A crash is run again under AddressSanitizer, which names the kind of error.
  const CaseResult& overflow = find_case(report, "write_past_end overflows the heap");
  CHECK(overflow.status == CaseStatus::Crashed);
  const std::string overflow_line = "fixture_ops.cpp:" + line_of(learner_file, "the out-of-bounds write");
  INFO("write_past_end: " << overflow.diagnosis);
  const bool have_sanitizers = toolchain.sanitized || read_text(request.build_dir / "sanitize/probe/answer.txt") == "yes";
  if (have_sanitizers) {
    CHECK(overflow.diagnosis.find("heap-buffer-overflow, write of 4 bytes, " + overflow_line + " in fixture::write_past_end") == 0);
  } else {
    CHECK(overflow.diagnosis.find("SIGSEGV at " + overflow_line) == 0);
  }

  const CaseResult& spin = find_case(report, "spin never returns");
  CHECK(spin.status == CaseStatus::TimedOut);
  CHECK(spin.detail.find(toolchain.sanitized ? "time limit of 10 s" : "time limit of 5 s") == 0);
  // Where it was when the time ran out, and that it showed signs of life while it ran.
  INFO("spin: " << spin.diagnosis);
  CHECK(spin.diagnosis.find("fixture_ops.cpp:") != std::string::npos);
  CHECK(spin.diagnosis.find("in fixture::spin") != std::string::npos);
  CHECK(longest_status["spin never returns"] >= 1.0);

  // A second case stuck in the same function is stopped without waiting the full limit.
  const CaseResult& spin_again = find_case(report, "spin hangs again, the same way");
  CHECK(spin_again.status == CaseStatus::TimedOut);
  CHECK(spin_again.detail.find("it hangs where 'spin never returns' did") != std::string::npos);
  CHECK(spin_again.duration_ms < time_limit_for(toolchain) * 1000);
  CHECK(spin_again.diagnosis.find("in fixture::spin") != std::string::npos);

  const CaseResult& hoard = find_case(report, "hoard exhausts memory");
  CHECK(hoard.status == CaseStatus::OutOfMemory);

  const CaseResult& divide = find_case(report, "divide throws");
  CHECK(divide.status == CaseStatus::Errored);
  CHECK(divide.detail == "division by zero");

  const CaseResult& bad_byte = find_case(report, "a message with a byte that is not UTF-8 still arrives");
  CHECK(bad_byte.status == CaseStatus::Failed);
  REQUIRE(bad_byte.failures.size() == 1);
  CHECK(bad_byte.failures[0].message == "bad \xef\xbf\xbd byte");  // U+FFFD for the stray byte

  CHECK(report.points_possible() == 58);
  CHECK(report.points_earned() == 10 + 4 + 1);
  CHECK(report.passed_count() == 3);
  CHECK(report.failed_count() == 12);
  CHECK_FALSE(report.all_passed());
}

TEST_CASE("run_module_tests reports a compile error with every case not run", "[run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  std::ofstream(workspace.learner() / "sum.cpp", std::ios::app) << "\nint broken( { return 0; }\n";

  TestReport report = run_module_tests(toolchain, request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain)));
  CHECK_FALSE(report.build_ok);
  CHECK_FALSE(report.given_code_failed);  // the error is in the learner's file
  CHECK(report.build_log.find("sum.cpp") != std::string::npos);
  CHECK(report.build_log.find("error") != std::string::npos);
  REQUIRE(report.cases.size() == 2);
  for (const auto& c : report.cases) CHECK(c.status == CaseStatus::NotRun);
  CHECK(report.points_possible() == 2);
  CHECK_FALSE(report.all_passed());
}

TEST_CASE("a failed check carries its LABEL_CHECKS label, and long lists arrive cut near their first difference",
          "[run][hints]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_fixture");
  ModuleTestRequest request = request_for(workspace, "test_fixture.cpp", time_limit_for(toolchain));
  request.filter = "a labelled check shows long lists near their first difference";
  request.hints.entries.push_back({request.filter, {"the case's hint"}, "", {}});
  request.hints.entries.push_back({request.filter, {"the long list's hint"}, "the long list", {}});
  const TestReport report = run_module_tests(toolchain, request);
  INFO(report.build_log);
  REQUIRE(report.cases.size() == 1);
  const CaseResult& labelled = report.cases[0];
  CHECK(labelled.status == CaseStatus::Failed);
  REQUIRE(labelled.failures.size() == 1);
  const AssertionFailure& failure = labelled.failures[0];
  CHECK(failure.check == "the long list");
  CHECK(failure.actual == "{ ..., 1, 1, 1, 1, 7, 1, 1, 1, 1, ... } (items 137-145 of 300)");
  CHECK(failure.expected == "{ ..., 1, 1, 1, 1, 1, 1, 1, 1, 1, ... } (items 137-145 of 300)");
  CHECK(failure.message == "first difference at position 141: got 7, expected 1\ncontext stays in the message");
  CHECK(failure.expanded.empty());  // the whole lists are not carried either
  CHECK(labelled.hint == "the long list's hint");
}

TEST_CASE("run_module_tests runs only the cases a name, a wildcard or a tag selects", "[run][filter]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  ModuleTestRequest request = request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain));

  request.filter = "product";
  TestReport by_name = run_module_tests(toolchain, request);
  INFO(by_name.build_log);
  REQUIRE(by_name.cases.size() == 1);
  CHECK(by_name.cases[0].name == "product");
  CHECK(by_name.cases[0].status == CaseStatus::Passed);
  CHECK(by_name.filter == "product");

  request.filter = "[points=1]";
  CHECK(run_module_tests(toolchain, request).cases.size() == 2);
  request.filter = "s*";
  TestReport by_wildcard = run_module_tests(toolchain, request);
  REQUIRE(by_wildcard.cases.size() == 1);
  CHECK(by_wildcard.cases[0].name == "sum");
  request.filter = "[no-such-tag]";
  CHECK(run_module_tests(toolchain, request).cases.empty());

  // Without a binary to ask, the declared cases are filtered the same way.
  std::ofstream(workspace.learner() / "sum.cpp", std::ios::app) << "\nint broken( { return 0; }\n";
  request.filter = "product";
  TestReport broken = run_module_tests(toolchain, request);
  CHECK_FALSE(broken.build_ok);
  REQUIRE(broken.cases.size() == 1);
  CHECK(broken.cases[0].name == "product");
}

TEST_CASE("run_module_tests blames the given code when the tests do not compile without the learner's", "[run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  // What a compiler that cannot build TinyTorch's own code looks like: the module's tests fail to compile.
  const fs::path test = workspace.root / "module" / "tests" / "test_incremental.cpp";
  std::ofstream(test, std::ios::app) << "\nint given_code_this_compiler_rejects( { return 0; }\n";

  TestReport report = run_module_tests(toolchain, request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain)));
  INFO(report.build_log);
  CHECK_FALSE(report.build_ok);
  CHECK(report.given_code_failed);
  CHECK(report.build_log.find("test_incremental.cpp") != std::string::npos);
  CHECK(report.build_log.find("error") != std::string::npos);
  REQUIRE(report.cases.size() == 2);
  for (const auto& c : report.cases) CHECK(c.detail.find("TinyTorch's own code") != std::string::npos);
}

TEST_CASE("run_module_tests does not blame the given code for a learner's link error", "[run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  // No compiler error names the learner's file, yet the tests compile on their own: the learner's fault.
  std::ofstream(workspace.learner() / "sum.cpp", std::ios::app)
      << "\nint declared_but_never_defined();\nint uses_it() { return declared_but_never_defined(); }\n";

  TestReport report = run_module_tests(toolchain, request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain)));
  INFO(report.build_log);
  CHECK_FALSE(report.build_ok);
  CHECK_FALSE(report.given_code_failed);
  CHECK(report.build_log.find("declared_but_never_defined") != std::string::npos);
}

TEST_CASE("run_module_tests rebuilds only what changed, quickly", "[run][speed]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  ModuleTestRequest request = request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain));

  std::vector<std::string> steps;
  auto record = [&](const std::string& line) { steps.push_back(line); };
  auto compiled = [&] {
    return std::count_if(steps.begin(), steps.end(), [](const std::string& s) { return s.rfind("compiling", 0) == 0; });
  };

  TestReport first = run_module_tests(toolchain, request, record);
  INFO(first.build_log);
  REQUIRE(first.all_passed());
  CHECK(compiled() == 3);  // the test file and both learner files

  steps.clear();
  auto start = std::chrono::steady_clock::now();
  TestReport unchanged = run_module_tests(toolchain, request, record);
  double unchanged_seconds = seconds_since(start);
  CHECK(unchanged.all_passed());
  CHECK(compiled() == 0);

  std::vector<double> touched_seconds;
  for (int round = 0; round < 5; ++round) {
    touch(workspace.learner() / "product.cpp");
    steps.clear();
    start = std::chrono::steady_clock::now();
    TestReport touched = run_module_tests(toolchain, request, record);
    touched_seconds.push_back(seconds_since(start));
    CHECK(touched.all_passed());
    REQUIRE(compiled() == 1);
    CHECK(std::find(steps.begin(), steps.end(), "compiling fx/product.cpp") != steps.end());
  }
  std::sort(touched_seconds.begin(), touched_seconds.end());
  double median = touched_seconds[touched_seconds.size() / 2];
  std::printf("incremental rebuild: unchanged tree %.3f s, one learner file touched %.3f s (median of 5)\n",
              unchanged_seconds, median);
  // The figure is reported, not asserted: speed goals live in benchmarks, never in timed unit tests.
}

TEST_CASE("module tests and programs share the learner's objects: each file is compiled once per change",
          "[run][shared]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  const fs::path shared = workspace.root / "objects";
  ModuleTestRequest request = request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain));
  request.learner_objects_dir = shared;
  std::vector<std::string> steps;
  auto record = [&](const std::string& line) { steps.push_back(line); };
  auto compiled = [&](const std::string& label) { return std::count(steps.begin(), steps.end(), "compiling " + label); };

  TestReport first = run_module_tests(toolchain, request, record);
  INFO(first.build_log);
  REQUIRE(first.all_passed());
  CHECK(compiled("fx/product.cpp") == 1);
  CHECK(fs::exists(shared / "obj" / "fx" / "product.o"));
  CHECK_FALSE(fs::exists(request.build_dir / "obj" / "fx" / "product.o"));

  // A second module's build (its own build dir) and a program reuse the objects as they are.
  steps.clear();
  ModuleTestRequest other = request;
  other.build_dir = workspace.root / "build-other";
  CHECK(run_module_tests(toolchain, other, record).all_passed());
  CHECK(compiled("fx/product.cpp") == 0);
  CHECK(compiled("fx/sum.cpp") == 0);

  const fs::path program = workspace.root / "program.cpp";
  std::ofstream(program) << "int main() { return 0; }\n";
  ProgramRequest run;
  run.sources = {program};
  run.learner_dirs = request.learner_dirs;
  run.build_dir = workspace.root / "build-program";
  run.learner_objects_dir = shared;
  steps.clear();
  const ProgramOutcome outcome = run_program(toolchain, run, record);
  INFO(outcome.build_log);
  CHECK(outcome.exited_cleanly());
  CHECK(compiled("fx/product.cpp") == 0);

  // A change is compiled once, in the shared place, and every build links the new object.
  touch(workspace.learner() / "product.cpp");
  steps.clear();
  CHECK(run_module_tests(toolchain, other, record).all_passed());
  CHECK(compiled("fx/product.cpp") == 1);
  steps.clear();
  CHECK(run_module_tests(toolchain, request, record).all_passed());
  CHECK(compiled("fx/product.cpp") == 0);
  CHECK(std::count(steps.begin(), steps.end(), "linking module_tests") == 1);
}

TEST_CASE("a program compiled at set-up is linked as it is while newer than its source and its headers",
          "[run][shared]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  const fs::path program = workspace.root / "program.cpp", header = workspace.root / "probe.h";
  std::ofstream(header) << "inline int probe() { return 0; }\n";
  std::ofstream(program) << "#include \"probe.h\"\nint main() { return probe(); }\n";
  std::vector<std::string> steps;
  auto record = [&](const std::string& line) { steps.push_back(line); };
  auto compiled_program = [&] { return std::count(steps.begin(), steps.end(), "compiling program.cpp"); };

  ProgramRequest run;
  run.sources = {program};
  run.build_dir = workspace.root / "setup";
  REQUIRE(run_program(toolchain, run, record).exited_cleanly());
  REQUIRE(compiled_program() == 1);
  // What tito/cmake/toolchain.cmake does for the milestone programs, here by hand.
  toolchain.program_objects[fs::weakly_canonical(program)] = run.build_dir / "obj" / "program" / "program.o";
  toolchain.program_objects_cxx = toolchain.cxx;

  run.build_dir = workspace.root / "first-run";
  steps.clear();
  CHECK(run_program(toolchain, run, record).exited_cleanly());
  CHECK(compiled_program() == 0);

  touch(program);  // a newer source: the set-up's object is stale, so it is compiled as before
  run.build_dir = workspace.root / "after-edit";
  steps.clear();
  CHECK(run_program(toolchain, run, record).exited_cleanly());
  CHECK(compiled_program() == 1);

  // A newer header it includes (its depfile says so) makes the set-up's object stale too. The set-up
  // writes the depfile beside the object (-MD -MF object.d); tito's own builds leave theirs to ninja.
  const fs::path object = run.build_dir / "obj" / "program" / "program.o";
  toolchain.program_objects[fs::weakly_canonical(program)] = object;
  std::ofstream(object.string() + ".d") << object.string() << ": " << program.string() << " \\\n " << header.string() << "\n";
  run.build_dir = workspace.root / "unchanged";
  steps.clear();
  CHECK(run_program(toolchain, run, record).exited_cleanly());
  CHECK(compiled_program() == 0);
  touch(header);
  run.build_dir = workspace.root / "after-header-edit";
  steps.clear();
  CHECK(run_program(toolchain, run, record).exited_cleanly());
  CHECK(compiled_program() == 1);
}

TEST_CASE("a module's tests compiled at set-up are linked as they are, by module tests and by build_test_objects",
          "[run][shared]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_incremental");
  ModuleTestRequest request = request_for(workspace, "test_incremental.cpp", time_limit_for(toolchain));
  std::vector<std::string> steps;
  auto record = [&](const std::string& line) { steps.push_back(line); };
  auto compiled_tests = [&] { return std::count(steps.begin(), steps.end(), "compiling tests/test_incremental.cpp"); };

  REQUIRE(run_module_tests(toolchain, request, record).all_passed());
  REQUIRE(compiled_tests() == 1);
  // What tito/cmake/toolchain.cmake does for every module's tests, here by hand.
  const fs::path test_source = request.test_sources[0];
  const fs::path setup_object = request.build_dir / "obj" / "tests" / "test_incremental.o";
  toolchain.program_objects[fs::weakly_canonical(test_source)] = setup_object;
  toolchain.program_objects_cxx = toolchain.cxx;

  request.build_dir = workspace.root / "with-setup-objects";
  steps.clear();
  CHECK(run_module_tests(toolchain, request, record).all_passed());
  CHECK(compiled_tests() == 0);
  const TestObjects shared = build_test_objects(toolchain, request.test_sources, workspace.root / "grading-tests", 1);
  CHECK(shared.ok);
  CHECK(shared.objects == std::vector<fs::path>{setup_object});

  touch(test_source);  // an edited test is compiled again, as before
  request.build_dir = workspace.root / "after-edit";
  steps.clear();
  CHECK(run_module_tests(toolchain, request, record).all_passed());
  CHECK(compiled_tests() == 1);
}

TEST_CASE("a threaded case that passes with a data race fails under ThreadSanitizer; the race fixed, it passes",
          "[run][needs_thread_sanitizer]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  if (toolchain.sanitized) SKIP_TEST("an AddressSanitizer toolchain cannot add ThreadSanitizer");
  FixtureWorkspace workspace("run_threads");
  ModuleTestRequest request = request_for(workspace, "test_threads.cpp", 60);
  request.memory_limit_mb = 1024;
  TestReport report = run_module_tests(toolchain, request);
  INFO(report.build_log);
  REQUIRE(report.build_ok);
  if (read_text(request.build_dir / "thread-sanitize/probe/answer.txt") != "yes")
    SKIP_TEST("this compiler's ThreadSanitizer does not run here");

  const fs::path learner_file = workspace.learner() / "threads_ops.cpp";
  const CaseResult& racy = find_case(report, "two threads sum like one");
  INFO("race: " << racy.detail << "\n" << racy.diagnosis);
  CHECK(racy.status == CaseStatus::Crashed);
  CHECK(racy.detail.find("a data race") == 0);
  CHECK(racy.diagnosis.find("data race, write of 8 bytes by ") == 0);
  CHECK(racy.diagnosis.find("threads_ops.cpp:" + line_of(learner_file, "scratch[j] = j")) != std::string::npos);
  CHECK(find_case(report, "measured: a table").passed());  // not threaded: not rerun

  // Each thread with its own scratch: no race, both cases pass.
  std::ifstream in(learner_file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string racy_line = "int64_t* scratch = shared_scratch.data();";
  REQUIRE(text.find(racy_line) != std::string::npos);
  text.replace(text.find(racy_line), racy_line.size(), "int64_t* scratch = own.data();");
  std::ofstream(learner_file, std::ios::trunc) << text;
  std::vector<std::string> messages;
  const auto collect = [&](const std::string& message) { messages.push_back(message); };
  const auto said = [&](const std::string& text) {
    return std::any_of(messages.begin(), messages.end(),
                       [&](const std::string& m) { return m.find(text) != std::string::npos; });
  };
  report = run_module_tests(toolchain, request, collect);
  REQUIRE(report.build_ok);
  CHECK(find_case(report, "two threads sum like one").passed());
  CHECK(report.all_passed());
  CHECK(said("checking the threaded cases for data races"));

  // Run again unchanged: the check that passed is not repeated; a grader's run repeats it.
  messages.clear();
  CHECK(run_module_tests(toolchain, request, collect).all_passed());
  CHECK(said("unchanged since their last check"));
  // `tito module test NN --tsan` asks for the check anyway.
  messages.clear();
  request.recheck_data_races = true;
  CHECK(run_module_tests(toolchain, request, collect).all_passed());
  CHECK_FALSE(said("unchanged since their last check"));
  CHECK(said("checking the threaded cases for data races"));
  request.recheck_data_races = false;
  messages.clear();
  request.confine_writes = true;
  CHECK(run_module_tests(toolchain, request, collect).all_passed());
  CHECK_FALSE(said("unchanged since their last check"));
  CHECK(said("checking the threaded cases for data races"));
}

TEST_CASE("a case's output and tags reach the report: a measuring case's table is there to show", "[run]") {
  Toolchain toolchain = load_toolchain(TITO_BUILD_DIR);
  FixtureWorkspace workspace("run_threads");
  ModuleTestRequest request = request_for(workspace, "test_threads.cpp", 60);
  request.filter = "[measure]";
  const TestReport report = run_module_tests(toolchain, request);
  REQUIRE(report.build_ok);
  const CaseResult& measured = find_case(report, "measured: a table");
  CHECK(measured.passed());
  CHECK(measured.tags.find("[measure]") != std::string::npos);
  CHECK(measured.output == "\n  size   time\n  4096   1.0 ms\n");
}
