// `tito module test`, `tito module complete` and `tito module watch`: build the learner's code
// against the module's tests (through run_module_tests) and show the report.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "cli/report_printer.h"
#include "core/clock.h"
#include "core/errors.h"
#include "core/i18n.h"
#include "core/learner_files.h"
#include "core/learning_path.h"
#include "core/lesson_translation.h"
#include "core/milestone.h"
#include "core/terminal.h"
#include "run/module_test_runner.h"

namespace tito {
namespace {

namespace fs = std::filesystem;


// Every started module's folder must hold its learner files; they are what gets compiled.
void check_workspace_integrity(const Session& session) {
  for (const auto& [number, entry] : session.state().modules) {
    if (!entry.started()) continue;
    const ModuleInfo* module = session.curriculum.find(number);
    if (!module || module->learner_files.empty()) continue;
    const auto missing = missing_learner_files(session.ws(), *module);
    if (!missing.empty()) {
      // TRANSLATORS: the second {} lists file names, the third is the module's folder
      throw UserError(trnf("module {} is started but {} is missing from {}", "module {} is started but {} are missing from {}",
                           missing.size(), number, fmt::format("{}", fmt::join(missing, ", ")),
                           session.ws().module_dir(*module).string()),
                      "tito module reset " + number + "   " + tr("(recreates the starter files; anything left is backed up)"));
    }
  }
}

// "01 (Perceptron, 1958)": Milestone::label() and MilestoneInfo::label() with the title in the learner's language.
template <typename AnyMilestone>
std::string milestone_label(const AnyMilestone& milestone) {
  return fmt::format("{} ({}, {})", milestone.id, tr_curriculum(milestone.title), milestone.year);
}

const ModuleInfo& require_started(const Session& session, const std::string& requested) {
  const ModuleInfo& module = session.curriculum.resolve(requested);
  if (!session.state().is_started(module.number)) {
    throw UserError(trf("module {} ({}) has not been started yet", module.number, tr_curriculum(module.title)),
                    "tito module start " + module.number);
  }
  return module;
}

struct TestRun {
  TestReport report;
  ReportContext context;
};

struct TestOptions {
  bool compact = false;   // watch mode: only failures
  bool verbose = false;   // the compiler's and the program's whole output
  bool json = false;      // the report as JSON on stdout, nothing else there
  std::string filter;     // Catch2 test spec: a name, a wildcard or tags
  bool tsan = false;      // check the [threads] cases with ThreadSanitizer even if unchanged since the last check
  std::string command = "test";  // what the learning journal says ran: "test", "complete" or "watch"
};

// One line of the learning journal per run (learning_journal.h): what passed, and which cases gave a
// wrong answer rather than none yet (a starter's "not implemented" says nothing about a misconception).
void record_run_in_journal(const Session& session, const ModuleInfo& module, const TestReport& report,
                           const TestOptions& options) {
  constexpr std::size_t kMaxNamedCases = 64;
  nlohmann::json failed = nlohmann::json::array();
  int not_implemented = 0;
  for (const auto& c : report.cases) {
    if (c.status == CaseStatus::NotImplemented) ++not_implemented;
    if (c.passed() || c.status == CaseStatus::NotImplemented || c.status == CaseStatus::NotRun) continue;
    if (failed.size() < kMaxNamedCases) failed.push_back(c.name);
  }
  try {
    session.progress->record_test_run(module.number, {{"command", options.command},
                                                      {"filter", options.filter},
                                                      {"build_ok", report.build_ok},
                                                      {"total", static_cast<int>(report.cases.size())},
                                                      {"passed", report.passed_count()},
                                                      {"earned", report.points_earned()},
                                                      {"points", report.points_possible()},
                                                      {"seconds", std::round((report.build_seconds + report.run_seconds) * 10) / 10},
                                                      {"failed", failed},
                                                      {"not_implemented", not_implemented}});
  } catch (const std::exception& error) {  // a journal that cannot be written must not hide the report
    spdlog::warn("could not add the run to the learning journal: {}", error.what());
  }
}

// Shows that a long test case is alive: on a terminal one line redrawn in place; elsewhere (logs,
// CI) a line every kPeriodicStatus while a case runs past it.
LiveStatus live_status_printer(const Terminal& out, bool to_stderr) {
  constexpr double kShowAfterS = 1.0, kPeriodicStatusS = 10.0;
  struct State {
    std::string shown_case;
    double next_periodic = kPeriodicStatusS;
    bool line_drawn = false;
  };
  auto state = std::make_shared<State>();
  const bool live = out.interactive() && !to_stderr && isatty(STDOUT_FILENO);
  return [state, live, &out, to_stderr](const std::string& name, double elapsed) {
    std::ostream& stream = to_stderr ? std::cerr : std::cout;
    if (name != state->shown_case) {
      if (state->line_drawn) stream << "\r\033[K" << std::flush;
      state->line_drawn = false;
      state->shown_case = name;
      state->next_periodic = kPeriodicStatusS;
    }
    if (name.empty() || elapsed < kShowAfterS) return;
    if (live) {
      // TRANSLATORS: a test case that takes a while: its name, then the seconds it has run (e.g. 2.5)
      stream << "\r\033[K  " << out.dim(trf("running: {}  {} s", name, format_number(elapsed, 1))) << std::flush;
      state->line_drawn = true;
    } else if (elapsed >= state->next_periodic) {
      stream << "  " << trf("still running: {} ({} s)", name, format_number(elapsed, 0)) << "\n" << std::flush;
      state->next_periodic += kPeriodicStatusS;
    }
  };
}

// Every started module's folder: a module's tests and timing programs run the learner's code as it is now.
std::map<std::string, fs::path> started_learner_dirs(const Session& session) {
  std::map<std::string, fs::path> dirs;
  for (const auto& [number, entry] : session.state().modules) {
    const ModuleInfo* started = session.curriculum.find(number);
    if (entry.started() && started && !started->learner_files.empty()) dirs[number] = session.ws().module_dir(*started);
  }
  return dirs;
}

TestRun run_tests(const Session& session, const ModuleInfo& module, const TestOptions& options) {
  check_workspace_integrity(session);
  const Toolchain toolchain = load_checked_toolchain(session.installation);

  ModuleTestRequest request;
  request.module = module.number;
  request.learner_dirs = started_learner_dirs(session);
  request.test_sources = module.tests;
  request.hints = session.curriculum.load_hints(module);
  request.build_dir = session.ws().build_dir(module.number);
  request.learner_objects_dir = session.ws().learner_objects_dir();
  request.time_limit_s = module.time_limit_s;
  request.memory_limit_mb = module.memory_limit_mb;
  request.filter = options.filter;
  request.recheck_data_races = options.tsan;
  fs::create_directories(request.build_dir);

  const Terminal& out = terminal();
  // With --json, stdout carries the JSON alone; what shows progress goes to stderr.
  std::ostream& chatter = options.json ? std::cerr : std::cout;
  chatter << out.bold(trf("Testing module {} ({})", module.number, tr_curriculum(module.title))) << "\n";
  ProgressSink progress;
  if (!options.compact)
    progress = [&out, &chatter](const std::string& line) { chatter << "  " << out.dim(line) << "\n" << std::flush; };
  request.live_status = live_status_printer(out, options.json);
  spdlog::info("testing module {}", module.number);
  TestRun run;
  run.report = run_module_tests(toolchain, request, progress);
  run.context.module_dir = session.ws().module_dir(module).string();
  run.context.learner_root = fs::absolute(session.ws().modules_dir()).string();
  run.context.module_number = module.number;
  run.context.stubs = stub_locations(session.installation, module);
  // The lesson's section each stub names, as the learner's lesson titles it (lesson.es.md keeps the order).
  const auto headings = translated_headings(module, message_language());
  for (auto& stub : run.context.stubs)
    if (auto found = headings.find(stub.lesson); found != headings.end()) stub.lesson = found->second;
  run.context.test_sources = module.tests;
  run.context.fallback_points = module.points;
  run.context.compact = options.compact;
  run.context.verbose = options.verbose;
  run.context.compiler = describe_compiler(toolchain);
  run.context.compiler_fix = switch_compiler_command(toolchain, session.installation.source_dir);
  spdlog::info("module {}: {}", module.number, score_line(run.report, module.points));
  record_run_in_journal(session, module, run.report, options);
  if (options.json) {
    std::cout << report_json(run.report, module.points) << "\n";
    return run;
  }
  std::cout << "\n";
  print_report(run.report, run.context);
  return run;
}

int run_test(const GlobalOptions& global, const std::string& requested, const TestOptions& options) {
  Session session = open_session(global, true);
  const ModuleInfo& module = require_started(session, requested);
  TestRun run = run_tests(session, module, options);
  if (!run.report.all_passed() || run.report.cases.empty()) return 1;  // a filter that matches nothing tested nothing
  if (options.json) return 0;
  if (!options.filter.empty())
    terminal().next_step("tito module test " + module.number + "   " + tr("(every case, before completing the module)"));
  else if (session.state().is_completed(module.number))
    terminal().next_step(next_command(session.curriculum, session.state()));  // already recorded
  else
    terminal().next_step("tito module complete " + module.number);
  return 0;
}

void announce_what_is_next(const Session& session, const ModuleInfo& module) {
  const Terminal& out = terminal();
  const auto unlocked = unlocked_by(session.curriculum, module.number, session.state());
  for (const ModuleInfo* next : unlocked) {
    std::cout << (next->available()
                      ? trf("Unlocked: module {} ({})", next->number, tr_curriculum(next->title))
                      : trf("Unlocked: module {} ({}) - its content is not yet available", next->number,
                            tr_curriculum(next->title)))
              << "\n";
  }
  try {
    const auto milestones = load_milestones(session.installation.source_dir);
    for (const Milestone* milestone : milestones_runnable_after(milestones, module.number, session.state())) {
      if (milestone->implemented())
        // TRANSLATORS: {} is the milestone, e.g. "01 (Perceptron, 1958)", then the command that runs it
        std::cout << trf("Milestone {} is ready to run on your code: {}", milestone_label(*milestone),
                         out.command("tito milestone run " + milestone->id))
                  << "\n";
      else
        std::cout << trf("Milestone {} is within reach: every module it needs is done (its programs are not "
                         "written yet).", milestone_label(*milestone))
                  << "\n";
    }
  } catch (const UserError& error) {  // a broken milestone.json must not spoil a completion
    spdlog::warn("milestones: {}", error.problem());
  }
  const MilestoneDistance distance = next_milestone(session.curriculum, session.state());
  if (distance.milestone) {
    const std::size_t left = distance.missing_modules.size();
    // TRANSLATORS: how many modules, the milestone (e.g. "02 (XOR Crisis, 1969)"), the modules' numbers
    std::cout << trnf("{} module to go until milestone {}: {}", "{} modules to go until milestone {}: {}", left, left,
                      milestone_label(*distance.milestone), fmt::join(distance.missing_modules, ", "))
              << "\n";
  }
  std::cout << "\n";
  for (const ModuleInfo* next : unlocked) {
    if (next->available()) {
      out.next_step("tito module start " + next->number);
      return;
    }
  }
  out.next_step(next_command(session.curriculum, session.state()));
}

int run_complete(const GlobalOptions& options, const std::string& requested) {
  Session session = open_session(options, true);
  const ModuleInfo& module = require_started(session, requested);
  TestOptions options_for_complete;
  options_for_complete.command = "complete";
  TestRun run = run_tests(session, module, options_for_complete);
  const Terminal& out = terminal();
  if (!run.report.all_passed()) {
    std::cout << "\n" << trf("Module {} is not complete yet: every test must pass. Nothing was recorded.", module.number)
              << "\n";
    out.next_step("tito module test " + module.number);
    return 1;
  }
  const std::string fingerprint = fingerprint_learner_files(session.ws(), module);
  const std::string origin = origin_of_files(session.installation, module, fingerprint);
  session.progress->record_completed(module.number, run.report.points_earned(), run.report.points_possible(), fingerprint,
                                     origin);
  spdlog::info("completed module {} ({}, {})", module.number, fingerprint, origin);
  const std::string completed = out.green(trf("Module {} ({}) completed", module.number, tr_curriculum(module.title)));
  const int earned = run.report.points_earned(), possible = run.report.points_possible();
  std::cout << "\n" << out.ok_mark() << " ";
  if (origin == "reference") {
    // TRANSLATORS: the first {} is "Module 01 (Tensor) completed", then the points earned and possible, the module
    std::cout << trnf("{} - {}/{} point on the reference solution (your files are the copy `tito module start {} --reference` "
                      "wrote).",
                      "{} - {}/{} points on the reference solution (your files are the copy `tito module start {} "
                      "--reference` wrote).",
                      static_cast<unsigned long>(possible), completed, earned, possible, module.number)
              << "\n"
              << trf("It is recorded as completed on the reference, not as your own work; to earn it yourself: {}",
                     out.command("tito module reset " + module.number))
              << "\n";
  } else {
    // TRANSLATORS: the first {} is "Module 01 (Tensor) completed", then the points earned and possible
    std::cout << trnf("{} - {}/{} point. You built it yourself.", "{} - {}/{} points. You built it yourself.",
                      static_cast<unsigned long>(possible), completed, earned, possible)
              << "\n";
  }
  const std::size_t total = session.curriculum.modules().size();
  std::cout << trnf("Progress: {}/{} module completed", "Progress: {}/{} modules completed", total,
                    session.state().completed_count(), total)
            << "\n";
  if (fs::exists(module.quiz))
    std::cout << trf("Check what stuck, with every answer explained: {}", out.command("tito module quiz " + module.number))
              << "\n";
  std::cout << "\n";
  announce_what_is_next(session, module);
  return 0;
}

struct BenchOptions {
  std::string module;
  std::string program;                    // the learner's own timing program, instead of the module's
  std::vector<std::string> program_args;  // after `--`
};

// The program a bench run builds: the learner's own (--program, a .cpp file with main()) or the module's.
std::vector<fs::path> bench_sources(const ModuleInfo& module, const BenchOptions& options) {
  if (options.program.empty()) {
    if (module.bench.empty())
      throw UserError(trf("module {} ({}) has no timing program of its own", module.number,
                          tr_curriculum(module.title)),
                      trf("write one (a .cpp file with main() that calls your functions) and run it: "
                          "tito module bench {} --program my_timing.cpp",
                          module.number));
    return module.bench;
  }
  const fs::path program = fs::absolute(options.program);
  std::error_code error;
  if (!fs::is_regular_file(program, error))
    throw UserError(trf("{}: there is no such file", options.program),
                    trf("name a .cpp file with main(), e.g. tito module bench {} --program my_timing.cpp", module.number));
  if (program.extension() != ".cpp")
    throw UserError(trf("{}: a timing program is one C++ source file ending in .cpp", options.program),
                    tr("rename it to end in .cpp, or name the .cpp file that has main()"));
  return {program};
}

// `tito module bench NN`: builds a timing program against the learner's code as `tito module test` does
// (every started module's files, the reference for the others) and runs it, showing what it prints.
// It records nothing: timings are the learner's to read, not a grade.
int run_bench(const GlobalOptions& global, const BenchOptions& options) {
  set_cooperative_interrupts(true);
  Session session = open_session(global, true);
  const ModuleInfo& module = require_started(session, options.module);
  check_workspace_integrity(session);
  const Toolchain toolchain = load_checked_toolchain(session.installation);
  const Terminal& out = terminal();

  ProgramRequest request;
  request.sources = bench_sources(module, options);
  request.learner_dirs = started_learner_dirs(session);
  request.learner_objects_dir = session.ws().learner_objects_dir();
  request.build_dir = session.ws().tito_dir() / "build" / ("bench-" + module.number);
  request.binary_name = options.program.empty() ? "bench" : "bench-" + fs::path(options.program).stem().string();
  request.label_prefix = "bench " + module.number + "/";
  request.args = options.program_args;
  request.env = {{"TINYTORCH_NON_INTERACTIVE", "1"}};
  request.time_limit_s = std::max(600.0, 5 * module.time_limit_s);
  request.memory_limit_mb = std::max<std::size_t>(2048, module.memory_limit_mb);
  fs::create_directories(request.build_dir);

  const std::string time_limit = format_number(request.time_limit_s, 0);
  std::cout << out.bold(trf("Timing module {} ({})", module.number, tr_curriculum(module.title))) << "   "
            << out.dim(options.program.empty() ? trf("(the module's timing program, time limit {} s)", time_limit)
                                               : trf("({}, time limit {} s)", options.program, time_limit))
            << "\n";
  auto progress = [&out](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; };
  auto output = [](const std::string& line) { std::cout << line << "\n" << std::flush; };
  spdlog::info("bench module {}: {}", module.number, options.program.empty() ? "module program" : options.program);
  const ProgramOutcome outcome = run_program(toolchain, request, progress, output, [] { return interrupt_requested(); });
  if (outcome.stopped || interrupt_requested()) return kExitInterrupted;
  if (!outcome.build_ok) {
    // With --program the sources that failed alone are the learner's own program, not TinyTorch's.
    if (outcome.given_code_failed && options.program.empty()) {
      print_given_code_failure(tr("The timing program fails to build without any of your code, so the problem is not in "
                                  "your files."),
                               outcome.build_log, describe_compiler(toolchain),
                               switch_compiler_command(toolchain, session.installation.source_dir), 40);
    } else {
      int errors = 0;
      const std::string first = first_learner_error(outcome.build_log, session.ws().modules_dir().string(), &errors);
      const std::string did_not_compile = out.red(tr("The timing program did not compile against your code."));
      // TRANSLATORS: {} is a sentence in red: "Your code did not compile." or the like
      std::cout << out.fail_mark() << " " << trf("{} The first error:", did_not_compile) << "\n\n";
      std::istringstream lines(first);
      for (std::string line; std::getline(lines, line);) std::cout << "  " << line << "\n";
      if (errors > 1)
        std::cout << "\n"
                  << out.dim(trnf("{} more error after it", "{} more errors after it",
                                  static_cast<unsigned long>(errors - 1), errors - 1))
                  << "\n";
    }
    return 1;
  }
  if (!outcome.exited_cleanly()) {
    std::cout << out.fail_mark() << " " << out.red(trf("The timing program failed: {}", outcome.failure())) << "\n"
              << "  " << out.dim(trf("its full output is in {}", outcome.output_file.string())) << "\n";
    out.next_step("tito module test " + module.number + "   " + tr("(the tests say which function is wrong)"));
    return 1;
  }
  std::cout << out.dim(trf("(build {} s, run {} s; its output is kept in {})", format_number(outcome.build_seconds, 1),
                           format_number(outcome.run_seconds, 1), outcome.output_file.string()))
            << "\n";
  return 0;
}

// A cheap picture of the module folder: change any file's time or size and it differs.
std::map<std::string, std::pair<fs::file_time_type, std::uintmax_t>> snapshot_folder(const fs::path& dir) {
  std::map<std::string, std::pair<fs::file_time_type, std::uintmax_t>> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    std::error_code ignored;
    if (!entry.is_regular_file(ignored)) continue;
    files[entry.path().filename().string()] = {entry.last_write_time(ignored), entry.file_size(ignored)};
  }
  return files;
}

std::string changed_files(const std::map<std::string, std::pair<fs::file_time_type, std::uintmax_t>>& before,
                          const std::map<std::string, std::pair<fs::file_time_type, std::uintmax_t>>& after) {
  std::string names;
  for (const auto& [name, stamp] : after) {
    auto old = before.find(name);
    if (old == before.end() || old->second != stamp) names += (names.empty() ? "" : ", ") + name;
  }
  for (const auto& entry : before) {
    // TRANSLATORS: a file name in the list of files `tito module watch` saw change
    if (!after.count(entry.first)) names += (names.empty() ? "" : ", ") + trf("{} (deleted)", entry.first);
  }
  return names;
}

// Sleeps in small steps so Ctrl-C is noticed quickly; false when interrupted.
bool pause_for(std::chrono::milliseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
    if (interrupt_requested()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return !interrupt_requested();
}

int run_watch(const GlobalOptions& options, const std::string& requested, int max_runs) {
  constexpr auto kPollInterval = std::chrono::milliseconds(300);
  set_cooperative_interrupts(true);
  Session session = open_session(options, true);
  const ModuleInfo& module = require_started(session, requested);
  const Terminal& out = terminal();
  const fs::path dir = session.ws().module_dir(module);
  int runs = 0;
  auto before = snapshot_folder(dir);
  while (true) {
    if (out.colour() && out.interactive()) std::cout << "\033[2J\033[H";  // a fresh screen per run
    TestOptions compact;
    compact.compact = true;
    compact.command = "watch";
    TestRun run = run_tests(session, module, compact);
    ++runs;
    if (max_runs > 0 && runs >= max_runs) return 0;
    std::cout << "\n" << out.dim(trf("watching {} - save a file to re-test, Ctrl-C to stop", dir.string())) << "\n"
              << std::flush;
    std::string changed;
    while (changed.empty()) {
      if (!pause_for(kPollInterval)) {
        std::cout << "\n" << tr("stopped watching") << "\n";
        return kExitInterrupted;
      }
      auto now = snapshot_folder(dir);
      changed = changed_files(before, now);
      if (changed.empty()) continue;
      // Debounce: editors often write a file in several steps; wait until it settles.
      for (auto settled = snapshot_folder(dir); pause_for(kPollInterval); settled = now) {
        now = snapshot_folder(dir);
        if (now == settled) break;
      }
      if (interrupt_requested()) return kExitInterrupted;
      changed = changed_files(before, now);
      before = now;
    }
    std::cout << "\n" << trf("change detected: {}", changed) << "\n";
    spdlog::info("watch: {} changed", changed);
  }
}

}  // namespace

void register_module_testing_commands(CLI::App& group, CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;

  auto* test = group.add_subcommand("test", tr("Build your code for a module and run its tests (kept in your learning journal, not in your progress)"));
  auto test_number = std::make_shared<std::string>();
  auto test_options = std::make_shared<TestOptions>();
  test->add_option("NN", *test_number, tr("Module number or name"))->required();
  test->add_option("FILTER", test_options->filter,
                   tr("Only these cases: a name, a wildcard (\"matmul*\") or tags (\"[matmul]\"), as Catch2 reads them"));
  test->add_flag("--json", test_options->json, tr("Print the report as JSON (each case: name, points, status, failure)"));
  test->add_flag("-v,--verbose", test_options->verbose, tr("Show the compiler's and the test program's whole output"));
  test->add_flag("--tsan", test_options->tsan,
                 tr("Check the cases tagged [threads] for data races with ThreadSanitizer even when nothing changed since "
                    "a check that found none (the check runs by itself once every case passes)"));
  on_chosen(test, registry, [options, test_number, test_options] { return run_test(*options, *test_number, *test_options); });

  auto* complete = group.add_subcommand("complete", tr("Run the tests again and, if all pass, record the module as completed"));
  auto complete_number = std::make_shared<std::string>();
  complete->add_option("NN", *complete_number, tr("Module number or name"))->required();
  on_chosen(complete, registry, [options, complete_number] { return run_complete(*options, *complete_number); });

  auto* bench = group.add_subcommand(
      "bench", tr("Build a timing program against your code and run it: the module's own, or yours with --program"));
  auto bench_options = std::make_shared<BenchOptions>();
  bench->add_option("NN", bench_options->module, tr("Module number or name"))->required();
  bench->add_option("--program", bench_options->program,
                    tr("Your own timing program: one .cpp file with main(), built against your code"));
  bench->add_option("program_args", bench_options->program_args,
                    tr("Arguments for the timing program, after --, e.g. tito module bench 17 -- --sizes 256,512"));
  on_chosen(bench, registry, [options, bench_options] { return run_bench(*options, *bench_options); });

  auto* watch = group.add_subcommand("watch", tr("Re-test a module every time you save one of its files"));
  auto watch_number = std::make_shared<std::string>();
  auto max_runs = std::make_shared<int>(0);
  watch->add_option("NN", *watch_number, tr("Module number or name"))->required();
  watch->add_option("--max-runs", *max_runs)->group("");  // hidden: lets tests stop the loop
  on_chosen(watch, registry, [options, watch_number, max_runs] { return run_watch(*options, *watch_number, *max_runs); });
}

}  // namespace tito
