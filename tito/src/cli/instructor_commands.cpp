// The instructor's side: `tito instructor validate|knockout|release|report` and `tito grade`. Each command
// parses its options, calls one service (grading_validation, milestone_knockout, release, grading, grading_reports) and prints.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/gradescope_package.h"
#include "core/grading.h"
#include "core/grading_reports.h"
#include "core/grading_validation.h"
#include "core/insights.h"
#include "core/lesson_translation.h"
#include "core/milestone.h"
#include "core/milestone_knockout.h"
#include "core/release.h"
#include "core/terminal.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

int default_jobs() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }


// A temporary folder removed when the command ends (kept with --keep).
struct ScratchDir {
  fs::path path;
  bool keep = false;
  ScratchDir(const std::string& requested, const std::string& prefix) {
    if (!requested.empty()) {
      path = fs::absolute(requested);
      keep = true;
      fs::create_directories(path);
      return;
    }
    std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder in " + fs::temp_directory_path().string());
    path = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!keep) fs::remove_all(path, ignored);
  }
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',' || c == ' ') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return items;
}

// ---- validate ----

struct ValidateArgs {
  std::string modules;
  int jobs = 0;
  std::string keep;
  bool skip_variants = false;
};

int run_validate(const GlobalOptions& options, const ValidateArgs& args) {
  Session session = open_session(options, false);
  const Toolchain toolchain = load_checked_toolchain(session.installation);
  const auto modules = modules_to_grade(session.curriculum, split_list(args.modules));
  ScratchDir scratch(args.keep, "tito-validate");
  const Terminal& out = terminal();
  std::cout << out.bold(fmt::format("Validating {} module{}", modules.size(), modules.size() == 1 ? "" : "s")) << "\n";
  const auto results = validate_modules(session.installation, session.curriculum, toolchain, modules, scratch.path,
                                        args.jobs > 0 ? args.jobs : default_jobs(), !args.skip_variants,
                                        [&](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; });
  int failed = 0;
  for (const auto& module : results) {
    std::cout << "\n" << (module.ok() ? out.ok_mark() : out.fail_mark()) << " "
              << out.bold(fmt::format("module {} ({})", module.number, module.title)) << "\n";
    for (const auto& check : module.checks) {
      const std::string mark = check.ok ? out.ok_mark() : check.warning_only ? out.yellow("[warn]") : out.fail_mark();
      std::string detail = check.detail;
      while (!detail.empty() && detail.back() == '\n') detail.pop_back();
      std::cout << "    " << mark << " " << check.name << ": " << detail << "\n";
    }
    if (!module.ok()) ++failed;
  }
  std::cout << "\n" << fmt::format("{} passed, {} failed", results.size() - failed, failed) << "\n";
  return failed == 0 ? kExitOk : kExitFailure;
}

// ---- knockout ----

struct KnockoutArgs {
  std::vector<std::string> milestones;
  int part = 0;
  std::string modules, variants;
  int jobs = 1;
  double slowdown_limit = 5;
  std::string keep;
};

int run_knockout_study(const GlobalOptions& options, const KnockoutArgs& args) {
  Session session = open_session(options, false);
  const Toolchain toolchain = load_checked_toolchain(session.installation);
  const auto milestones = load_milestones(session.installation.source_dir);
  ScratchDir scratch(args.keep, "tito-knockout");
  KnockoutOptions study;
  study.milestones = args.milestones;
  study.part = args.part;
  study.modules = split_list(args.modules);
  study.variants = split_list(args.variants);
  study.jobs = args.jobs;
  study.slowdown_limit = args.slowdown_limit;
  study.scratch_dir = scratch.path;
  const Terminal& out = terminal();
  std::cout << out.bold("Knockout study: each milestone part on the reference, then with one module's known-wrong variant")
            << "\n";
  const auto runs = run_knockout(session.installation, session.curriculum, toolchain, milestones, study,
                                 [&](const KnockoutRun& run) {
                                   std::cout << "  " << out.dim(fmt::format("{}/{} {} {}: {} ({:.1f} s)", run.milestone, run.part,
                                                                            run.module.empty() ? "reference" : run.module,
                                                                            run.variant, what_failed(run), run.seconds))
                                             << "\n" << std::flush;
                                 });
  std::cout << "\n" << knockout_table(runs);
  const bool clean = std::none_of(runs.begin(), runs.end(), [](const KnockoutRun& run) {
    return run.outcome == KnockoutOutcome::NotCaught || run.outcome == KnockoutOutcome::NotBuilt ||
           (run.outcome == KnockoutOutcome::Reference && !run.verdict.passed);
  });
  return clean ? kExitOk : kExitFailure;
}

// ---- release ----

struct ReleaseArgs {
  std::string out_dir;
  bool no_compile_check = false;
  bool full_build = false;
};

int run_release(const GlobalOptions& options, const ReleaseArgs& args) {
  Session session = open_session(options, false);
  const Toolchain toolchain = load_checked_toolchain(session.installation);
  ReleaseOptions release;
  release.out_dir = args.out_dir;
  release.compile_check = !args.no_compile_check;
  release.full_build = args.full_build;
  const Terminal& out = terminal();
  const ReleaseResult result = write_release(session.installation, session.curriculum, toolchain, release,
                                             [&](const std::string& line) { std::cout << "  " << out.dim(line) << "\n" << std::flush; });
  std::cout << fmt::format("\nWrote {} files to {}: {} learner files hold starters ({} solution regions stripped).\n",
                           result.files_written, fs::absolute(args.out_dir).string(), result.starters_written,
                           result.regions_stripped);
  if (!result.withheld.empty())
    std::cout << fmt::format("Withheld {} instructor-only file{} (curriculum.json \"instructor_only\": reference code "
                             "no learner writes or links, and the modules' known-wrong variants).\n",
                             result.withheld.size(), result.withheld.size() == 1 ? "" : "s");
  for (const auto& marker : result.leftover_markers) std::cout << out.fail_mark() << " solution marker left at " << marker << "\n";
  for (const auto& leak : result.leaks) std::cout << out.fail_mark() << " solution text left at " << leak << "\n";
  if (!result.build_log.empty()) std::cout << out.fail_mark() << " " << result.build_log << "\n";
  if (!result.ok()) {
    terminal().error("the release is not safe to hand out (see above); it was left for inspection",
                     "fix the cause, delete " + args.out_dir + " and run tito instructor release again");
    return kExitFailure;
  }
  std::cout << out.ok_mark() << " no solution or instructor-only text found in the release"
            << (result.compiled ? "; every learner file compiles against the released headers" : "") << "\n";
  return kExitOk;
}

// ---- report ----

int run_report(const GlobalOptions& options, const std::string& where, int top) {
  (void)options;
  fs::path file = where;
  if (fs::is_directory(file)) file /= "grades.json";
  if (!fs::is_regular_file(file))
    throw UserError(fmt::format("there is no grades.json at {}", file.string()),
                    "tito grade SUBMISSIONS_DIR --out DIR   (then tito instructor report DIR)");
  const GradingRun run = read_grades_json(file);
  const Terminal& out = terminal();
  int graded = 0;
  for (const auto& learner : run.learners) graded += learner.graded ? 1 : 0;
  std::cout << out.bold(fmt::format("Class report: {} submissions, {} graded ({})", run.learners.size(), graded, file.string()))
            << "\n";
  for (const auto& module : class_statistics(run, static_cast<std::size_t>(std::max(0, top)))) {
    std::cout << "\n"
              << out.bold(fmt::format("Module {} ({})", module.number, module.title))
              << fmt::format(": mean {:.1f}, median {:.1f}, min {}, max {} of {} points over {} learners\n", module.mean,
                             module.median, module.min, module.max, module.points, module.learners);
    for (const auto& c : module.cases)
      std::cout << fmt::format("    {:>4.0f}%  {:>3} pts  {}\n", 100 * c.pass_rate(), c.points, c.name);
    if (!module.common_failures.empty()) {
      std::cout << "  most common failures:\n";
      for (const auto& [message, count] : module.common_failures)
        std::cout << fmt::format("    {} learner{}: {}\n", count, count == 1 ? "" : "s", message);
    }
  }
  return kExitOk;
}

// ---- translations ----

// Every translated lesson and whether it is in step with its English lesson; with --stamp NN LANG, records
// that lesson.LANG.md now translates lesson.md as it is (after the translator has caught up).
int run_translations(const GlobalOptions& options, const std::vector<std::string>& stamp) {
  const Session session = open_session(options, false);
  const Terminal& out = terminal();
  if (!stamp.empty()) {
    const ModuleInfo* module = session.curriculum.find(stamp[0]);
    if (!module || !module->available())
      throw UserError(fmt::format("there is no module {} with a lesson", stamp[0]),
                      "tito instructor translations   (lists the translated lessons)", kExitUsage);
    const fs::path file = translated_lesson_path(*module, stamp[1]);
    if (!fs::is_regular_file(file))
      throw UserError(fmt::format("module {} has no lesson in '{}': {} does not exist", module->number, stamp[1],
                                  file.string()),
                      fmt::format("translate it first: copy {} to {} and translate its prose (INSTRUCTOR.md, "
                                  "\"Adding a language\")", module->lesson.filename().string(), file.filename().string()),
                      kExitUsage);
    const std::string english = read_file(module->lesson);
    const std::string translation = read_file(file);
    // Stamping records the English text; it must not hide a translation whose structure is out of step.
    std::vector<std::string> structural;
    for (const auto& problem : translation_drift(english, stamp_translation(english, translation), file.string()))
      structural.push_back(problem);
    if (!structural.empty())
      throw UserError(fmt::format("{} is not in step with {} in its structure:\n  {}", file.string(),
                                  module->lesson.filename().string(), fmt::join(structural, "\n  ")),
                      "make its headings, code blocks and lesson= anchors match the English lesson, then stamp it");
    write_file_atomically(file, stamp_translation(english, translation));
    std::cout << out.ok_mark() << " " << fmt::format("{} now records the English lesson as it is", file.string()) << "\n";
    return kExitOk;
  }
  int stale = 0, translated = 0;
  for (const ModuleInfo& module : session.curriculum.modules()) {
    if (!module.available()) continue;
    for (const std::string& language : lesson_translations(module)) {
      ++translated;
      const fs::path file = translated_lesson_path(module, language);
      const auto problems = translation_drift(read_file(module.lesson), read_file(file),
                                              fs::relative(file, session.installation.source_dir).string());
      if (problems.empty()) {
        std::cout << out.ok_mark() << " " << fmt::format("{} {} ({}): in step with lesson.md", module.number, language,
                                                          module.title) << "\n";
        continue;
      }
      ++stale;
      std::cout << out.fail_mark() << " " << fmt::format("{} {} ({}):", module.number, language, module.title) << "\n";
      for (const auto& problem : problems) std::cout << "    " << problem << "\n";
    }
  }
  if (translated == 0) std::cout << "No lesson is translated yet (a translation is curriculum/NN_slug/lesson.LANG.md).\n";
  else std::cout << fmt::format("{} translated lessons, {} out of step.\n", translated, stale);
  return stale == 0 ? kExitOk : 1;
}

// ---- gradescope ----

int run_gradescope(const GlobalOptions& options, const GradescopeOptions& args) {
  Session session = open_session(options, false);
  const GradescopePackage package = write_gradescope_package(session.installation, args);
  const Terminal& out = terminal();
  std::cout << out.ok_mark() << " " << fmt::format("Wrote {} ({} repository files, setup.sh, run_autograder)", package.zip.string(),
                                                    package.repository_files)
            << "\n"
            << "Upload it as the assignment's autograder (Gradescope: Configure Autograder, Zip file upload). setup.sh builds\n"
            << "TinyTorch in the image (several minutes, once); each submission then runs `tito grade` as an unprivileged\n"
            << "user. Try it here first: unpack it into DIR/source and run AUTOGRADER_ROOT=DIR DIR/source/setup.sh\n";
  return kExitOk;
}

// ---- insights ----

struct InsightsArgs {
  std::string submissions;
  std::string out_dir = "insights";
  InsightsOptions options;
};

int run_insights(const GlobalOptions& global, const InsightsArgs& args) {
  Session session = open_session_if_possible(global);
  const fs::path dir = args.submissions;
  std::error_code error;
  if (!fs::is_directory(dir, error))
    throw UserError(fmt::format("{}: there is no such folder", args.submissions),
                    "tito instructor insights SUBMISSIONS_DIR   (the folder of workspaces or archives that tito grade reads)",
                    kExitUsage);
  const auto submissions = list_submissions(dir);
  if (submissions.empty())
    throw UserError(fmt::format("{} holds no submissions", args.submissions),
                    "put one workspace folder or .tar.gz per learner in it, as for tito grade");
  const fs::path out_dir = fs::absolute(args.out_dir);
  if (out_dir == fs::absolute(dir) || out_dir.string().rfind(fs::absolute(dir).string() + "/", 0) == 0)
    throw UserError("--out is inside the submissions folder; the report would be read as a submission next time",
                    "tito instructor insights " + args.submissions + " --out insights", kExitUsage);
  const Terminal& out = terminal();
  std::cout << out.bold(fmt::format("Reading the learning journals of {} submission{}", submissions.size(),
                                    submissions.size() == 1 ? "" : "s"))
            << "\n";
  const auto journals = read_class_journals(submissions, out_dir / ".scratch");
  const ClassInsights insights =
      compute_insights(session.installation.source_dir, session.curriculum, journals, args.options, args.submissions);
  const auto written = write_insights(insights, journals, out_dir);
  std::cout << fmt::format("{} of {} with a journal; {} module{} with activity; {} learner{} who look stuck.\n",
                           insights.with_journal, insights.learners, insights.modules.size(),
                           insights.modules.size() == 1 ? "" : "s", insights.stuck.size(), insights.stuck.size() == 1 ? "" : "s");
  for (const auto& [learner, problem] : insights.journal_problems) out.warning(learner + ": " + problem);
  std::cout << "Report: ";
  for (std::size_t i = 0; i < written.size(); ++i) std::cout << (i ? ", " : "") << written[i].string();
  std::cout << "\n";
  return kExitOk;
}

// ---- grade ----

struct GradeArgs {
  std::string submissions;
  std::string out_dir = "grades";
  int jobs = 0;
  bool cumulative = false;
  std::string modules;
  double time_limit_s = 0;
  double compile_time_limit_s = 0;
  std::string gradescope;
  bool new_seed = false;  // the default now; still accepted
  bool keep_seed = false;
};

// A word for a shell command line: single-quoted unless plainly safe.
std::string shell_quoted(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@%+,") ==
                                          std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Learner code runs with the grader's rights; as root, a sandbox escape owns the machine. Says how to
// run the same grading as a user of its own (exact commands, with this run's paths).
void warn_when_root(const Installation& installation, const GradeArgs& args, const fs::path& out_dir) {
  if (::geteuid() != 0) return;
  std::error_code error;
  const fs::path tito = fs::read_symlink("/proc/self/exe", error);
  const std::string user = "tito-grader";
  std::string again = fmt::format("sudo -u {} env TITO_HOME={} TITO_BUILD_DIR={} {} grade {} --out {}", user,
                                  shell_quoted(installation.source_dir.string()), shell_quoted(installation.build_dir.string()),
                                  shell_quoted(error ? "tito" : tito.string()), shell_quoted(fs::absolute(args.submissions).string()),
                                  shell_quoted(out_dir.string()));
  if (!args.modules.empty()) again += " --modules " + shell_quoted(args.modules);
  if (args.cumulative) again += " --cumulative";
  if (args.jobs > 0) again += fmt::format(" -j {}", args.jobs);
  if (args.time_limit_s > 0) again += fmt::format(" --time-limit {}", args.time_limit_s);
  if (!args.gradescope.empty()) again += " --gradescope " + shell_quoted(fs::absolute(args.gradescope).string());
  terminal().warning(fmt::format(
      "tito grade is running as root: learner code is run with root's rights, and anything that escapes the sandbox "
      "owns this machine. Grade as an unprivileged user instead:\n"
      "    sudo useradd --system --create-home --shell /usr/sbin/nologin {0}    # once\n"
      "    sudo mkdir -p {1} && sudo chown -R {0}: {1}\n"
      "    {2}\n"
      "  {0} needs to read {3}, {4} and the submissions (a checkout under /root is not readable by others: copy or "
      "clone it to /opt first, then run its scripts/setup as that user).",
      user, shell_quoted(out_dir.string()), again, installation.source_dir.string(), installation.build_dir.string()));
}

// A bar on stderr when it is a terminal, one plain line per event otherwise.
class GradingProgress {
 public:
  explicit GradingProgress(int total) : total_(total), bar_(::isatty(STDERR_FILENO) == 1) {}
  void update(const std::string& learner, const std::string& what, int done) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!bar_) {
      std::cerr << fmt::format("[{}/{}] {}{}", done, total_, learner.empty() ? "" : learner + ": ", what) << "\n";
      return;
    }
    constexpr int kWidth = 30;
    const int filled = total_ > 0 ? kWidth * done / total_ : 0;
    std::string line = fmt::format("[{}{}] {}/{} {}{}", std::string(filled, '#'), std::string(kWidth - filled, '.'), done, total_,
                                   learner.empty() ? "" : learner + ": ", what);
    if (line.size() > 100) line = line.substr(0, 100);
    std::cerr << "\r\033[K" << line << std::flush;
  }
  ~GradingProgress() {
    if (bar_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  std::mutex mutex_;
  int total_;
  bool bar_;
};

int run_grade(const GlobalOptions& options, const GradeArgs& args) {
  Session session = open_session(options, false);
  const Toolchain toolchain = load_checked_toolchain(session.installation);
  std::vector<Submission> submissions;
  const bool single = !args.gradescope.empty();
  if (single) submissions.push_back(single_submission(args.submissions));
  else submissions = list_submissions(args.submissions);

  GradingOptions grading;
  grading.out_dir = fs::absolute(single && args.out_dir == "grades" ? fs::path(args.gradescope).parent_path() / "tito-grading"
                                                                    : fs::path(args.out_dir));
  grading.cumulative = args.cumulative;
  grading.jobs = args.jobs > 0 ? args.jobs : default_jobs();
  grading.modules = split_list(args.modules);
  grading.time_limit_s = args.time_limit_s;
  grading.compile_time_limit_s = args.compile_time_limit_s;
  warn_when_root(session.installation, args, grading.out_dir);
  if (args.new_seed && args.keep_seed)
    throw UserError("--new-seed and --keep-seed contradict each other",
                    "leave both out (every grading draws a new seed) or give --keep-seed alone");
  grading.keep_seed = args.keep_seed;
  GradingProgress bar(static_cast<int>(submissions.size()));
  grading.progress = [&](const std::string& learner, const std::string& what, int done, int) { bar.update(learner, what, done); };

  const GradingRun run = grade_submissions(session.installation, session.curriculum, toolchain, submissions, grading);
  if (single) write_gradescope_results(run, args.gradescope);
  write_grades_csv(run, grading.out_dir / "grades.csv");
  write_grades_json(run, grading.out_dir / "grades.json");
  write_html_report(run, grading.out_dir / "report");

  const Terminal& out = terminal();
  std::cout << out.bold(fmt::format("Graded {} submission{} in {:.1f} s", run.learners.size(), run.learners.size() == 1 ? "" : "s",
                                    run.seconds))
            << fmt::format(" ({} module results rebuilt, {} reused from the cache; -j{})\n", run.rebuilt_modules,
                           run.cached_modules, grading.jobs);
  for (const auto& learner : run.learners) {
    std::cout << fmt::format("  {:<20} {:>5}/{:<5} {}\n", learner.id, learner.earned(), learner.possible(),
                             learner.graded ? (learner.flags.empty() ? "" : fmt::format("{} flag(s)", learner.flags.size()))
                                            : "not graded: " + learner.reason);
  }
  if (!run.writes_confined)
    std::cout << out.yellow("WARNING: this system forbids the namespaces tito's sandbox needs (user, mount and PID "
                            "namespaces): learner code ran with time and memory limits only, and could read and write "
                            "whatever this user can, signal other processes and outlive the run. Grade on a kernel "
                            "that allows unprivileged user namespaces (see INSTRUCTOR.md, section 6)")
              << "\n";
  std::cout << "\nReports: " << (grading.out_dir / "grades.csv").string() << ", " << (grading.out_dir / "grades.json").string()
            << ", " << (grading.out_dir / "report" / "index.html").string() << "\n";
  if (single) std::cout << "Gradescope results: " << args.gradescope << "\n";
  return kExitOk;
}

}  // namespace

void register_instructor_commands(CommandRegistry& registry) {
  const GlobalOptions* options = &registry.options;
  CLI::App* group = registry.app.add_subcommand("instructor", "For instructors: validate the modules, release a student copy, "
                                                              "report on a graded class, package a Gradescope autograder");
  group->require_subcommand(0, 1);
  group->fallthrough();

  auto validate_args = std::make_shared<ValidateArgs>();
  auto* validate = group->add_subcommand("validate", "Check that every available module can be graded: markers, points, "
                                                     "starter fails, reference passes, every known-wrong variant is caught");
  validate->add_option("--modules", validate_args->modules, "Only these modules, e.g. 01,03 (default: every available one)");
  validate->add_option("-j,--jobs", validate_args->jobs, "Parallel compile jobs (default: the number of cores)");
  validate->add_option("--keep", validate_args->keep, "Build in this folder and keep it (default: a temporary folder)");
  validate->add_flag("--skip-variants", validate_args->skip_variants,
                     "Do not build the known-wrong variants (curriculum/NN_slug/variants.json)");
  on_chosen(validate, registry, [options, validate_args] { return run_validate(*options, *validate_args); });

  auto knockout_args = std::make_shared<KnockoutArgs>();
  auto* knockout = group->add_subcommand(
      "knockout", "The knockout study: run milestone parts with each known-wrong variant of each module they use, one at "
                  "a time, and print which gates fail (a variant that passes every gate is a finding)");
  knockout->add_option("NN", knockout_args->milestones, "Milestones (default: every implemented one)");
  knockout->add_option("--part", knockout_args->part, "Only this part (default: every required part)");
  knockout->add_option("--modules", knockout_args->modules, "Only the variants of these modules, e.g. 09,12");
  knockout->add_option("--variants", knockout_args->variants, "Only the variants with these names");
  knockout->add_option("-j,--jobs", knockout_args->jobs, "Runs at a time (default 1: each is a training run)");
  knockout->add_option("--slowdown-limit", knockout_args->slowdown_limit,
                       "Stop a variant's run after this multiple of the reference's time (default 5, at least 60 s)");
  knockout->add_option("--keep", knockout_args->keep, "Build in this folder and keep it (default: a temporary folder)");
  on_chosen(knockout, registry, [options, knockout_args] { return run_knockout_study(*options, *knockout_args); });

  auto release_args = std::make_shared<ReleaseArgs>();
  auto* release = group->add_subcommand("release", "Write the student copy of the repository: solutions replaced by starters, "
                                                   "checked for leftovers and compiled");
  release->add_option("OUT_DIR", release_args->out_dir, "A new folder outside the repository")->required();
  release->add_flag("--no-compile-check", release_args->no_compile_check, "Skip compiling the released learner files");
  release->add_flag("--full-build", release_args->full_build, "Also build the released framework and tito with CMake (slow)");
  on_chosen(release, registry, [options, release_args] { return run_release(*options, *release_args); });

  auto report_source = std::make_shared<std::string>("grades");
  auto report_top = std::make_shared<int>(3);
  auto* report = group->add_subcommand("report", "Per-module statistics of a graded class: mean, median, pass rate per test, "
                                                 "most common failures");
  report->add_option("GRADES", *report_source, "The output folder of `tito grade` (or its grades.json); default: grades");
  report->add_option("--top", *report_top, "How many common failure messages to show per module (default 3)");
  on_chosen(report, registry, [options, report_source, report_top] { return run_report(*options, *report_source, *report_top); });

  auto insights_args = std::make_shared<InsightsArgs>();
  auto* insights = group->add_subcommand(
      "insights", "What the class's learning journals show: time and test runs to pass, the cases that fail first, hint "
                  "use, concept-check gains (paired t-test), milestones, learners who look stuck");
  insights->add_option("SUBMISSIONS", insights_args->submissions, "The folder tito grade reads: a workspace or archive per learner")
      ->required();
  insights->add_option("--out", insights_args->out_dir,
                       "Where insights.md, insights.html and the CSV files go (default: insights)");
  insights->add_option("--stuck-runs", insights_args->options.stuck_runs,
                       "A learner with this many test runs on a module and no full pass is listed as stuck (default 15)");
  insights->add_option("--stuck-hours", insights_args->options.stuck_hours,
                       "...or with this many hours on task on it (default 3)");
  on_chosen(insights, registry, [options, insights_args] { return run_insights(*options, *insights_args); });

  auto stamp = std::make_shared<std::vector<std::string>>();
  auto* translations = group->add_subcommand(
      "translations", "The lessons translated into other languages (lesson.LANG.md) and whether each is in step with "
                      "its English lesson: headings, code, anchors, and the English sections changed since");
  translations->add_option("--stamp", *stamp, "NN LANG: record that module NN's lesson.LANG.md translates lesson.md as it "
                                              "is now (after translating the sections that changed)")
      ->expected(2);
  on_chosen(translations, registry, [options, stamp] { return run_translations(*options, *stamp); });

  auto gradescope_args = std::make_shared<GradescopeOptions>();
  auto* gradescope = group->add_subcommand("gradescope", "Write Gradescope's autograder zip: setup.sh (packages, build), "
                                                         "run_autograder (tito grade) and the repository");
  gradescope->add_option("-o,--out", gradescope_args->out_zip, "The zip to write, e.g. autograder.zip (outside the repository)")
      ->required();
  gradescope->add_option("--modules", gradescope_args->modules, "Grade only these modules, e.g. 01,02 (default: every available one)");
  gradescope->add_flag("--cumulative", gradescope_args->cumulative, "Grade module N on the learner's own earlier modules");
  gradescope->add_option("--time-limit", gradescope_args->time_limit_s, "Seconds per run of a test program");
  on_chosen(gradescope, registry, [options, gradescope_args] { return run_gradescope(*options, *gradescope_args); });

  CLI::App* help_only = group;
  group->callback([help_only, slot = &registry.selected] {
    if (help_only->get_subcommands().empty() && !*slot) *slot = [help_only] {
      std::cout << help_only->help();
      return int(kExitOk);
    };
  });

  auto grade_args = std::make_shared<GradeArgs>();
  auto* grade = registry.app.add_subcommand("grade", "Grade a class: each folder or .tar.gz in SUBMISSIONS_DIR is one learner's "
                                                     "workspace; writes grades.csv, grades.json and an HTML report");
  grade->add_option("SUBMISSIONS", grade_args->submissions,
                    "Folder of learner workspaces (with --gradescope: the one submission)")->required();
  grade->add_option("-o,--out", grade_args->out_dir, "Where reports, cache and scratch builds go (default: ./grades)");
  grade->add_option("-j,--jobs", grade_args->jobs, "Learners graded at once (default: the number of cores)");
  grade->add_flag("--cumulative", grade_args->cumulative,
                  "Grade module N on the learner's own earlier modules (default: on the reference ones)");
  grade->add_option("--modules", grade_args->modules, "Only these modules, e.g. 01,02 (default: every available one)");
  grade->add_option("--time-limit", grade_args->time_limit_s, "Seconds per run of a test program (default: each module's limit)");
  grade->add_option("--compile-time-limit", grade_args->compile_time_limit_s,
                    fmt::format("Seconds one module's build may take (default: {:g})", kDefaultCompileTimeLimitS));
  grade->add_flag("--keep-seed", grade_args->keep_seed,
                  "Reuse the last grading's secret seed (and so every result it cached) instead of drawing a new one; "
                  "only while no learner has seen that grading's reports");
  grade->add_flag("--new-seed", grade_args->new_seed, "Draw a new secret seed for the test inputs (the default)");
  grade->add_option("--gradescope", grade_args->gradescope,
                    "Grade one submission and write Gradescope's results.json here");
  on_chosen(grade, registry, [options, grade_args] { return run_grade(*options, *grade_args); });
}

}  // namespace tito
