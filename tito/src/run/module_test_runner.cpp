// run_module_tests: build a module's tests against the learner's code with ninja, then run them in
// the sandbox (test_session.h) and assemble the TestReport.
#include "run/module_test_runner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <regex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "build/captured_command.h"
#include "build/learner_includes.h"
#include "build/learner_symbols.h"
#include "build/ninja_file.h"
#include "core/sha256.h"
#include "run/sandbox.h"
#include "run/stack_location.h"
#include "run/test_session.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

// A compiler working on heavy templates needs a lot, but not unbounded, memory and disk.
constexpr std::size_t kCompilerMemoryLimitMb = 4096;
constexpr std::size_t kCompilerMaxFileMb = 512;
// What tito reads of a confined build's messages: far more than any honest error needs (a flood of
// diagnostics from a constexpr or template explosion is cut here, and the rest skipped unread).
constexpr std::size_t kMaxBuildOutputBytes = 1 << 20;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A missing tool is a set-up problem, not the learner's: say what to install.
void require_tools(const Toolchain& toolchain) {
  if (find_executable(toolchain.cxx).empty())
    throw std::runtime_error("the C++ compiler '" + toolchain.cxx +
                             "' named in tito's toolchain.json is missing or not executable; install it (" +
                             install_compiler_command(toolchain) +
                             ") or re-run the set-up (scripts/setup) to pick another");
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

// Reads what a running program has appended to its output file since the last call and hands out
// complete lines (LineSplitter); the last partial line waits for its newline (or for flush_rest at the
// end). Once `max_bytes` have been handed out the rest is skipped unread: a flood of diagnostics costs
// neither time nor memory.
class OutputFollower {
 public:
  static constexpr std::size_t kReadChunk = 1 << 16;

  OutputFollower(fs::path file, OutputSink sink, std::size_t max_bytes = SIZE_MAX)
      : file_(std::move(file)), sink_(sink), lines_(std::move(sink), max_bytes), max_bytes_(max_bytes) {}
  void poll() {
    const int fd = open(file_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return;
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
      close(fd);
      return;
    }
    const auto size = static_cast<std::size_t>(info.st_size);
    if (lines_.full() && size > offset_) {  // over the cap: skip, counting what was not read
      skipped_ += size - offset_;
      offset_ = size;
    }
    char buffer[kReadChunk];
    while (offset_ < size && !lines_.full()) {
      const ssize_t got = pread(fd, buffer, sizeof buffer, static_cast<off_t>(offset_));
      if (got <= 0) break;
      offset_ += static_cast<std::size_t>(got);
      skipped_ += static_cast<std::size_t>(got) - lines_.feed(buffer, static_cast<std::size_t>(got));
    }
    close(fd);
  }
  void flush_rest() {
    poll();
    lines_.finish();
    if (skipped_ > 0 && sink_)
      sink_("[tito: the last " + std::to_string(skipped_) + " bytes of this output were not read (over the limit of " +
            std::to_string(max_bytes_) + " bytes)]");
    skipped_ = 0;
  }

 private:
  fs::path file_;
  OutputSink sink_;
  LineSplitter lines_;
  std::size_t max_bytes_;
  std::size_t offset_ = 0, skipped_ = 0;
};

// A status line of the build.ninja files tito writes (build/ninja_file.cpp: "compiling $label", "linking
// $out") in the message language; any other as it is.
std::string ninja_status_for_people(const std::string& status) {
  for (const char* verb : {"compiling ", "linking "}) {
    const std::string prefix = verb;
    if (status.rfind(prefix, 0) != 0) continue;
    const std::string what = status.substr(prefix.size());
    // TRANSLATORS: progress of a build: a source file being compiled, e.g. "01/matmul.cpp"
    if (prefix == "compiling ") return trf("compiling {}", what);
    // TRANSLATORS: progress of a build: the program being linked, e.g. "module_tests"
    return trf("linking {}", what);
  }
  return status;
}

struct NinjaRun {
  bool ok = false;
  std::string log;  // compiler messages; ninja's own status lines go to progress instead
};

// How a build runs for a grader. time_limit_s > 0: in the sandbox (no network, its own PID namespace,
// only the build folder writable), stopped after that long: learner code is only data to the compiler,
// but a template or constexpr computation can keep it busy for ever. With `readable`: in a fresh root
// that shows the system's programs and headers and these folders, nothing else, run as nobody when tito
// is root. That is how a learner's own files are compiled: what the compiler reads for them (an
// #include, an assembler's .incbin) cannot reach the repository, the reference solutions, the grading
// folder or anything of root's, and a failed build's messages can quote nothing but those folders.
struct BuildConfinement {
  double time_limit_s = 0;
  std::vector<fs::path> readable;
};

NinjaRun run_ninja(const Toolchain& toolchain, const fs::path& build_dir, const std::vector<std::string>& targets,
                   const ProgressSink& progress, int jobs = 2, const BuildConfinement& confinement = {}) {
  const double confined_time_limit_s = confinement.time_limit_s;
  NinjaRun result;
  bool skip_command_line = false, log_full = false;
  std::vector<std::string> argv = {find_executable(toolchain.ninja), "-C", build_dir.string(), "-j" + std::to_string(jobs)};
  argv.insert(argv.end(), targets.begin(), targets.end());
  auto on_line = [&](const std::string& line) {
    // Ninja's status lines look like "[2/5] compiling 01/matmul.cpp"; the rest is compiler output.
    auto close = line.find("] ");
    bool status = !line.empty() && line[0] == '[' && close != std::string::npos &&
                  line.find_first_not_of("0123456789/", 1) == close;
    if (status) {
      if (progress) progress(ninja_status_for_people(line.substr(close + 2)));
    } else if (skip_command_line) {
      skip_command_line = false;  // the full compiler command after "FAILED: x.o" is noise to a learner
    } else if (line.rfind("ninja: ", 0) != 0) {
      skip_command_line = line.rfind("FAILED: ", 0) == 0;
      if (result.log.size() < kMaxBuildOutputBytes) {
        result.log += line + "\n";
      } else if (!log_full) {
        result.log += "[tito: the rest of the compiler's messages were dropped]\n";
        log_full = true;
      }
    }
  };
  if (confined_time_limit_s <= 0) {
    CommandOutcome outcome = run_captured(argv, {}, on_line);
    if (!outcome.error.empty()) result.log += outcome.error + "\n";
    result.ok = outcome.exit_code == 0;
    return result;
  }
  SandboxSpec sandbox;
  sandbox.argv = argv;
  sandbox.output_file = build_dir / "build_output.txt";
  sandbox.writable_dir = build_dir;
  sandbox.fresh_root = !confinement.readable.empty();
  sandbox.read_only_paths = confinement.readable;
  sandbox.time_limit_s = confined_time_limit_s;
  sandbox.memory_limit_mb = kCompilerMemoryLimitMb;
  sandbox.limit_address_space = !toolchain.sanitized;
  sandbox.max_file_mb = kCompilerMaxFileMb;
  sandbox.extra_env["TMPDIR"] = (build_dir / "tmp").string();  // the compiler's temporary files: the one writable place
  fs::create_directories(build_dir / "tmp");
  OutputFollower follower(sandbox.output_file, on_line, kMaxBuildOutputBytes);
  auto last_poll = std::chrono::steady_clock::now();
  sandbox.keep_running = [&] {
    if (std::chrono::steady_clock::now() - last_poll >= std::chrono::milliseconds(100)) {
      follower.poll();
      last_poll = std::chrono::steady_clock::now();
    }
    return true;
  };
  const SandboxResult run = sandboxed_run(sandbox);
  follower.flush_rest();
  if (!run.started) result.log += "could not run ninja: " + run.error + "\n";
  if (run.timed_out)
    result.log += "the build was stopped after " + std::to_string(static_cast<int>(confined_time_limit_s)) +
                  " s, the compile time limit of a module: does a template or constexpr computation never end?\n";
  else if (run.signal != 0)
    result.log += "the build was stopped by " + describe_signal(run.signal) + "\n";
  result.ok = run.started && !run.timed_out && run.signal == 0 && run.exit_code == 0;
  return result;
}

// Compiles the plan's learner sources in `objects_dir` (its own build.ninja) instead of the plan's build
// dir, and hands them to the plan as prebuilt objects: every module test and milestone of a workspace
// then shares one object per learner file, compiled once per change.
NinjaRun build_shared_learner_objects(const Toolchain& toolchain, NinjaPlan& plan, const fs::path& objects_dir,
                                      const ProgressSink& progress, int jobs, const BuildConfinement& confinement = {}) {
  NinjaRun result;
  result.ok = true;
  if (plan.learner_sources.empty()) return result;
  const fs::path dir = fs::absolute(objects_dir);
  fs::create_directories(dir);
  NinjaPlan objects_only;
  objects_only.learner_sources = plan.learner_sources;
  objects_only.learner_include_dirs = plan.learner_include_dirs;
  write_if_changed(dir / "build.ninja", ninja_file_text(toolchain, objects_only));
  std::vector<std::string> targets;
  for (const auto& source : plan.learner_sources) {
    targets.push_back(source.object);
    plan.prebuilt_objects.push_back(dir / source.object);
  }
  plan.learner_sources.clear();
  return run_ninja(toolchain, dir, targets, progress, jobs, confinement);
}

// Milestone programs compiled at set-up (tito/cmake/toolchain.cmake) are linked as they are while they
// can stand in for their source (prebuilt_object): a milestone's first run only links.
void use_prebuilt_program_objects(const Toolchain& toolchain, NinjaPlan& plan) {
  std::vector<SourceToCompile> to_compile;
  for (const auto& source : plan.test_sources) {
    if (auto object = prebuilt_object(toolchain, source.source); !object.empty()) plan.prebuilt_objects.push_back(object);
    else to_compile.push_back(source);
  }
  plan.test_sources = to_compile;
}

// Whether the compiler placed an error in one of the learner's files ("<dir>/x.cpp:3:7: error: ...").
// Sources are compiled by absolute path, so diagnostics name them that way.
bool has_error_in_learner_files(const std::string& log, const std::map<std::string, fs::path>& learner_dirs) {
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": error:") == std::string::npos && line.find(": fatal error:") == std::string::npos) continue;
    for (const auto& entry : learner_dirs)
      if (line.rfind(fs::absolute(entry.second).string() + "/", 0) == 0) return true;
  }
  return false;
}

// After a failed build whose errors are not in the learner's files: compiles the test (or program)
// sources on their own. They include only TinyTorch's headers, never learner code, so if they fail
// this compiler cannot build the given code. Returns those errors, or nullopt when the sources compile.
// (Objects that compiled stay built, so the next build does not redo them.)
std::optional<std::string> given_code_errors(const Toolchain& toolchain, const fs::path& build_dir,
                                             const NinjaPlan& plan, const std::map<std::string, fs::path>& learner_dirs,
                                             const std::string& build_log, int jobs, double confined_time_limit_s = 0) {
  if (plan.test_sources.empty() || has_error_in_learner_files(build_log, learner_dirs)) return std::nullopt;
  std::vector<std::string> objects;
  for (const auto& source : plan.test_sources) objects.push_back(source.object);
  NinjaRun given = run_ninja(toolchain, build_dir, objects, {}, jobs, {confined_time_limit_s, {}});
  if (given.ok) return std::nullopt;
  return given.log;
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

}  // namespace

// When the code does not compile there is no binary to ask, and a grader must not believe what a
// learner's binary says about points, so read the cases from the test sources: instructors write them
// as TEST_CASE("name", "[tags][points=N]").
std::vector<CaseResult> cases_declared_in(const std::vector<fs::path>& test_sources) {
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
      result.tags = tags;
      auto points = tags.find(points_tag);
      if (points != std::string::npos) result.points = std::atoi(tags.c_str() + points + points_tag.size());
      cases.push_back(result);
    }
  }
  return cases;
}

std::string ProgramOutcome::failure() const { return failure_both().english; }

std::string ProgramOutcome::failure_shown() const { return failure_both().shown; }

Bilingual ProgramOutcome::failure_both() const {
  // TRANSLATORS: why a milestone program failed; "it" is the program
  if (!build_ok) return trb("it did not compile");
  if (!started) return error.empty() ? trb("it could not be started") : trb("it could not be started: {}", error);
  if (stopped) return trb("it was interrupted");
  if (timed_out) return trb("it ran past its time limit and was stopped after {} s", int(run_seconds));
  if (signal != 0) return trb("it crashed with {}", describe_signal_both(signal));
  if (exit_code == 127) return trb("it could not be executed (exit code 127)");
  if (exit_code != 0) return trb("it exited with code {}", exit_code);
  return {};
}

ProgramOutcome run_program(const Toolchain& toolchain, const ProgramRequest& request, const ProgressSink& progress,
                           const OutputSink& output, const StopCheck& stop) {
  require_tools(toolchain);
  ProgramOutcome outcome;
  const fs::path build_dir = fs::absolute(request.build_dir);
  const fs::path run_dir = request.working_dir.empty() ? build_dir / "run" : request.working_dir;
  fs::create_directories(run_dir);
  NinjaPlan plan = plan_program_build(toolchain, request);
  use_prebuilt_program_objects(toolchain, plan);

  const auto build_start = std::chrono::steady_clock::now();
  NinjaRun build;
  build.ok = true;
  if (!request.learner_objects_dir.empty())
    build = build_shared_learner_objects(toolchain, plan, request.learner_objects_dir, progress, 2);
  if (build.ok) {
    write_if_changed(build_dir / "build.ninja", ninja_file_text(toolchain, plan));
    build = run_ninja(toolchain, build_dir, {plan.test_binary}, progress);
  }
  outcome.build_ok = build.ok;
  outcome.build_log = build.log;
  if (!outcome.build_ok) {
    if (auto errors = given_code_errors(toolchain, build_dir, plan, request.learner_dirs, build.log, 2)) {
      outcome.given_code_failed = true;
      outcome.build_log = *errors;
    }
  }
  outcome.build_seconds = seconds_since(build_start);
  if (!outcome.build_ok) return outcome;

  outcome.output_file = build_dir / (request.binary_name + ".out");
  SandboxSpec sandbox;
  sandbox.argv = {(build_dir / plan.test_binary).string()};
  sandbox.argv.insert(sandbox.argv.end(), request.args.begin(), request.args.end());
  sandbox.extra_env = request.env;
  sandbox.output_file = outcome.output_file;
  sandbox.working_dir = run_dir;
  sandbox.time_limit_s = request.time_limit_s;
  sandbox.memory_limit_mb = request.memory_limit_mb;
  sandbox.limit_address_space = !toolchain.sanitized;
  if (toolchain.sanitized) sandbox.extra_env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0";
  OutputFollower follower(outcome.output_file, output);
  auto last_poll = std::chrono::steady_clock::now();
  sandbox.keep_running = [&] {
    // The sandbox asks every few ms; reading the file 10 times a second is live enough.
    if (std::chrono::steady_clock::now() - last_poll >= std::chrono::milliseconds(100)) {
      follower.poll();
      last_poll = std::chrono::steady_clock::now();
    }
    return !(stop && stop());
  };

  SandboxResult run = sandboxed_run(sandbox);
  follower.flush_rest();
  outcome.started = run.started;
  outcome.timed_out = run.timed_out;
  outcome.stopped = run.stopped;
  outcome.exit_code = run.exit_code;
  outcome.signal = run.signal;
  outcome.run_seconds = run.wall_seconds;
  outcome.error = run.error;
  return outcome;
}

namespace {

// A filter as Catch2 reads it, for the cases of a build that failed (no binary to ask): tags in
// brackets must all be present, otherwise the name must match, '*' matching anything.
bool declared_case_matches(const std::string& name, const std::string& tags, const std::string& filter) {
  if (filter.empty()) return true;
  if (filter.front() == '[') {
    for (std::size_t at = 0; (at = filter.find('[', at)) != std::string::npos;) {
      const auto close = filter.find(']', at);
      if (close == std::string::npos) break;
      if (tags.find(filter.substr(at, close - at + 1)) == std::string::npos) return false;
      at = close + 1;
    }
    return true;
  }
  std::string pattern;
  for (char c : filter) {
    if (c == '*') {
      pattern += ".*";
      continue;
    }
    if (std::string(".^$|()[]{}+?\\").find(c) != std::string::npos) pattern += '\\';
    pattern += c;
  }
  return std::regex_match(name, std::regex(pattern, std::regex::icase));
}

// The sanitizers tito rebuilds a learner's code with: AddressSanitizer and UBSan to name why a case
// crashed, ThreadSanitizer to find the data races of cases tagged [threads].
enum class Sanitizer { Address, Thread };

const char* sanitizer_flag(Sanitizer sanitizer) {
  return sanitizer == Sanitizer::Address ? "-fsanitize=address,undefined" : "-fsanitize=thread";
}

// Whether this compiler can build and run a program with `sanitizer`; asked once per build directory
// (the answer is kept in `probe_dir`). The probe starts a thread: ThreadSanitizer's runtime can fail
// at start on some kernels, and a sanitizer that cannot run must not fail the learner's cases.
bool sanitizer_works(const Toolchain& toolchain, Sanitizer sanitizer, const fs::path& probe_dir) {
  const fs::path answer = probe_dir / "answer.txt";
  std::ifstream cached(answer);
  std::string said;
  if (cached >> said) return said == "yes";
  fs::create_directories(probe_dir);
  const fs::path source = probe_dir / "probe.cpp", binary = probe_dir / "probe";
  std::ofstream(source) << "#include <thread>\n#include <vector>\n"
                           "int main() { std::vector<int> v(3); std::thread t([&] { v[0] = 1; }); t.join(); return v[1]; }\n";
  std::vector<std::string> argv = {find_executable(toolchain.cxx), sanitizer_flag(sanitizer), "-pthread", source.string(),
                                   "-o", binary.string()};
  CommandOutcome compiled = run_captured(argv, {}, [](const std::string&) {});
  bool works = compiled.exit_code == 0;
  if (works) {
    CommandOutcome ran = run_captured({binary.string()}, {}, [](const std::string&) {});
    works = ran.exit_code == 0;
  }
  std::ofstream(answer) << (works ? "yes" : "no") << "\n";
  return works;
}

// A confined request builds confined too, with its compile time limit (no limit: the default). The
// default is tripled for a sanitized toolchain: instrumented compiles take two to three times longer,
// and a limit the instructor gave stays as given.
double compile_limit_s(const ModuleTestRequest& request, const Toolchain& toolchain) {
  if (!request.confine_writes) return 0;
  if (request.compile_time_limit_s > 0) return request.compile_time_limit_s;
  return toolchain.sanitized ? 3 * kDefaultCompileTimeLimitS : kDefaultCompileTimeLimitS;
}

// A grader's request (confined, with the public headers as the only include folders): the learner's
// files are compiled in a fresh root of their own (BuildConfinement).
bool is_grader_build(const ModuleTestRequest& request) {
  return request.confine_writes && !request.learner_include_dirs.empty();
}

BuildConfinement learner_build_confinement(const ModuleTestRequest& request, const Toolchain& toolchain) {
  BuildConfinement confinement{compile_limit_s(request, toolchain), request.learner_include_dirs};
  for (const auto& [module, dir] : request.learner_dirs) confinement.readable.push_back(fs::absolute(dir));
  return confinement;
}

// Where a request's learner objects are compiled: the workspace's shared folder, for a grader a folder
// of their own beside the build (compiled as nobody, so kept apart from tito's files), else the build.
fs::path learner_objects_dir_of(const ModuleTestRequest& request, const fs::path& build_dir) {
  if (!request.learner_objects_dir.empty()) return fs::absolute(request.learner_objects_dir);
  return is_grader_build(request) ? build_dir / "learner" : fs::path();
}

// The compiler's default header folders, asked once per compiler (graders ask from many threads).
std::vector<fs::path> system_include_dirs_of(const std::string& cxx) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<fs::path>> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = known.find(cxx);
  if (found == known.end()) found = known.emplace(cxx, compiler_system_include_dirs(cxx)).first;
  return found->second;
}

// Every file the compiler opened for the learner's sources (their depfiles) that lies outside the
// allowed folders: the public header copies, the compiler's own headers and the learner's folders.
// Read whether or not the build succeeded: a failed compile has written its depfile already.
std::vector<std::string> includes_outside_allowed(const Toolchain& toolchain, const ModuleTestRequest& request,
                                                  const std::vector<SourceToCompile>& learner_sources, const fs::path& build_dir) {
  std::vector<fs::path> allowed = request.learner_include_dirs;
  for (const auto& [module, dir] : request.learner_dirs) allowed.push_back(dir);
  const auto system = system_include_dirs_of(toolchain.cxx);
  allowed.insert(allowed.end(), system.begin(), system.end());
  std::vector<std::string> refused;
  for (const auto& source : learner_sources) {
    std::ifstream in(build_dir / depfile_of(source.object), std::ios::binary);
    if (!in) continue;  // never compiled: nothing of it was shown
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& outside : dependencies_outside(depfile_dependencies(text), allowed))
      refused.push_back(source.source.filename().string() + " includes " + outside.string());
  }
  return refused;
}

// <build_dir>/control: tito's files for the test runs, beside the program's run folder and never
// writable (nor, as tito's alone, readable) by the program.
fs::path make_control_dir(const fs::path& build_dir) {
  const fs::path dir = build_dir / "control";
  std::error_code error;
  if (fs::is_symlink(dir, error)) fs::remove(dir, error);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, error);
  return dir;
}

// The learner's objects' definitions that a grader refuses (build/learner_symbols.h). When they cannot
// be checked, the build is refused too: unchecked code is not run for a grade.
std::vector<std::string> symbols_refused(const Toolchain& toolchain, const NinjaPlan& plan,
                                             const std::vector<SourceToCompile>& learner_sources, const fs::path& objects_dir) {
  std::vector<fs::path> objects;
  std::vector<std::string> labels;
  std::error_code missing;
  for (const auto& source : learner_sources) {
    if (!fs::is_regular_file(objects_dir / source.object, missing)) continue;  // did not compile: nothing to check
    objects.push_back(objects_dir / source.object);
    labels.push_back(source.source.filename().string());
  }
  if (objects.empty()) return {};
  std::vector<fs::path> protected_libs = plan.reference_solution_libs;
  protected_libs.push_back(toolchain.given_lib);
  protected_libs.push_back(toolchain.catch_main_lib);
  static std::mutex mutex;
  static std::map<std::string, std::vector<fs::path>> runtime_by_compiler;
  std::vector<fs::path> runtime;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = runtime_by_compiler.find(toolchain.cxx);
    if (found == runtime_by_compiler.end())
      found = runtime_by_compiler.emplace(toolchain.cxx, runtime_libraries(find_executable(toolchain.cxx))).first;
    runtime = found->second;
  }
  try {
    return forbidden_symbols(objects, labels, protected_libs, runtime);
  } catch (const std::exception& error) {
    return {std::string("tito could not check what the code defines: ") + error.what()};
  }
}

// Refuses a grader's build whose learner objects define what they may not: the build counts as failed
// and its log says why (the objects are not linked into anything that runs).
void refuse_forbidden_symbols(const Toolchain& toolchain, const NinjaPlan& plan,
                                  const std::vector<SourceToCompile>& learner_sources, const fs::path& objects_dir,
                                  TestReport& report) {
  report.refused_symbols = symbols_refused(toolchain, plan, learner_sources, objects_dir);
  if (report.refused_symbols.empty()) return;
  report.build_ok = false;
  report.build_log = "refused: the code defines or uses what learner code may not (the test harness's, TinyTorch's "
                     "given code's or the system libraries' own functions; files, descriptors, the environment, the "
                     "kernel), so it was not run:\n";
  for (const auto& line : report.refused_symbols) report.build_log += "  " + line + "\n";
}

// A grader's fresh root shows the compiler nothing but the public headers and the learner's folders,
// so an include of anything else fails before any depfile is written: "x.cpp:3:10: fatal error:
// /repo/secret.h: No such file or directory". Such an include of an absolute path outside the allowed
// folders is refused like one that was found.
std::vector<std::string> includes_not_found_outside(const std::string& log, const ModuleTestRequest& request) {
  static const std::regex not_found(R"(^(.*?\.(?:cpp|h|hpp|cc)):\d+:\d+: fatal error: (/[^:]*): No such file or directory)");
  // The assembler's account of an `.incbin` (a learner's inline assembly) that found nothing.
  static const std::regex not_assembled(R"(: Error: file not found: (/.*)$)");
  std::vector<fs::path> allowed = request.learner_include_dirs;
  for (const auto& [module, dir] : request.learner_dirs) allowed.push_back(fs::absolute(dir));
  std::vector<std::string> refused;
  std::istringstream lines(log);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > 4096) continue;
    std::string who;
    fs::path included;
    if (std::regex_search(line, match, not_found)) {
      who = fs::path(match[1].str()).filename().string() + " includes ";
      included = fs::path(match[2].str()).lexically_normal();
    } else if (std::regex_search(line, match, not_assembled)) {
      who = "the code's inline assembly reads (.incbin) ";
      included = fs::path(match[1].str()).lexically_normal();
    } else {
      continue;
    }
    if (!dependencies_outside({included}, allowed).empty()) refused.push_back(who + included.string());
  }
  return refused;
}

std::vector<fs::path> absolute_learner_dirs(const ModuleTestRequest& request) {
  std::vector<fs::path> dirs;
  for (const auto& [module, dir] : request.learner_dirs) dirs.push_back(fs::absolute(dir));
  return dirs;
}

// Builds a module's test binary from `plan` in `build_dir`: the learner's sources first, in `objects_dir`
// when it is set (their own build; a grader's in its fresh root), then the tests and the link.
NinjaRun build_test_binary(const Toolchain& toolchain, const ModuleTestRequest& request, NinjaPlan& plan,
                           const fs::path& build_dir, const fs::path& objects_dir, const ProgressSink& progress) {
  if (!objects_dir.empty()) {
    NinjaRun objects = build_shared_learner_objects(toolchain, plan, objects_dir, progress, request.build_jobs,
                                                    is_grader_build(request) ? learner_build_confinement(request, toolchain)
                                                                             : BuildConfinement{});
    if (!objects.ok) return objects;
  }
  write_if_changed(build_dir / "build.ninja", ninja_file_text(toolchain, plan));
  return run_ninja(toolchain, build_dir, {plan.test_binary}, progress, request.build_jobs,
                   {compile_limit_s(request, toolchain), {}});
}

// A build of the learner's code with a sanitizer, in its own folder beside the plain build, made only
// when a report needs it: the test objects are the plain build's (the errors sought are in the learner's
// code), and so, for ThreadSanitizer, are the objects of the modules other than the one under test (its
// threaded kernels are what is checked; instrumenting every started module would cost minutes).
struct SanitizedBuild {
  bool ok = false;
  fs::path dir;
  TestSessionSpec session;  // the plain session's, with this build's binary
};

SanitizedBuild build_sanitized(Sanitizer sanitizer, const Toolchain& toolchain, const ModuleTestRequest& request,
                               const NinjaPlan& plan, const TestSessionSpec& session, const ProgressSink& progress) {
  SanitizedBuild result;
  result.dir = fs::absolute(request.build_dir) / (sanitizer == Sanitizer::Address ? "sanitize" : "thread-sanitize");
  Toolchain sanitizing = toolchain;
  for (const char* flag : {sanitizer_flag(sanitizer), "-fno-omit-frame-pointer", "-g", "-O1"})
    sanitizing.cxx_flags.push_back(flag);
  if (sanitizer == Sanitizer::Address) sanitizing.cxx_flags.push_back("-fno-sanitize-recover=undefined");
  sanitizing.link_flags.push_back(sanitizer_flag(sanitizer));
  sanitizing.sanitized = true;
  ModuleTestRequest variant = request;
  variant.build_dir = result.dir;
  if (variant.prebuilt_test_objects.empty())
    for (const auto& source : plan.test_sources)
      variant.prebuilt_test_objects.push_back(fs::absolute(request.build_dir) / source.object);
  variant.learner_objects_dir.clear();  // the sanitized objects are this build's own
  NinjaPlan variant_plan = plan_module_build(sanitizing, variant);
  if (sanitizer == Sanitizer::Thread) {
    // The other modules' objects as the plain build compiled them (plan_module_build names each
    // learner object "obj/NN/file.o").
    const fs::path plain_learner_dir = learner_objects_dir_of(request, fs::absolute(request.build_dir));
    const fs::path plain_objects = plain_learner_dir.empty() ? fs::absolute(request.build_dir) : plain_learner_dir;
    std::vector<SourceToCompile> own;
    for (const auto& source : variant_plan.learner_sources) {
      if (source.object.rfind("obj/" + request.module + "/", 0) == 0) own.push_back(source);
      else variant_plan.prebuilt_objects.push_back(plain_objects / source.object);
    }
    variant_plan.learner_sources = own;
  }
  const std::vector<SourceToCompile> learner_sources = variant_plan.learner_sources;
  fs::create_directories(result.dir / "run");
  // A grader compiles the learner's files in their fresh root here too.
  const fs::path learner_dir = learner_objects_dir_of(variant, result.dir);
  const fs::path objects_dir = learner_dir.empty() ? result.dir : learner_dir;
  if (!build_test_binary(sanitizing, variant, variant_plan, result.dir, learner_dir, progress).ok) return result;
  // Code can include other files when sanitized (#ifdef __SANITIZE_ADDRESS__): the same checks apply.
  if (!request.learner_include_dirs.empty()) {
    if (!includes_outside_allowed(sanitizing, request, learner_sources, objects_dir).empty()) return result;
    TestReport checked;
    refuse_forbidden_symbols(sanitizing, variant_plan, learner_sources, objects_dir, checked);
    if (!checked.refused_symbols.empty()) return result;
  }
  result.session = session;
  result.session.binary = result.dir / variant_plan.test_binary;
  result.session.sanitized = true;
  result.session.live_status = {};
  result.ok = true;
  return result;
}

// Runs one case alone in a sanitized build, in folders of its own (the n-th case run there).
CaseResult run_case_alone(SanitizedBuild& build, const std::string& name, std::size_t n) {
  const std::string case_dir = "case-" + std::to_string(n);
  build.session.work_dir = make_control_dir(build.dir) / case_dir;
  build.session.run_dir = build.dir / "run" / case_dir;
  fs::create_directories(build.session.work_dir);
  fs::create_directories(build.session.run_dir);
  if (!build.session.writable_dir.empty()) build.session.writable_dir = build.session.run_dir;
  std::vector<CaseResult> one = {CaseResult{}};
  one[0].name = name;
  run_test_session(build.session, one, {});
  return one[0];
}

// Runs each crashed case again, alone, in a build of the same code with AddressSanitizer and
// UBSan (in <build_dir>/sanitize, compiled only now), and keeps the sanitizer's one-line account.
// Where the compiler has no sanitizers, the backtrace taken at the crash stays the diagnosis.
void diagnose_crashes(const Toolchain& toolchain, const ModuleTestRequest& request, const NinjaPlan& plan,
                      const TestSessionSpec& session, TestReport& report, const ProgressSink& progress) {
  constexpr std::size_t kMaxCasesToDiagnose = 3;  // each costs a run; the first few say enough
  std::vector<CaseResult*> crashed;
  for (auto& c : report.cases)
    if (c.status == CaseStatus::Crashed && c.name != kStartupCaseName) crashed.push_back(&c);
  if (crashed.empty() || toolchain.sanitized) return;  // a sanitized build has said what it saw already
  if (!sanitizer_works(toolchain, Sanitizer::Address, fs::absolute(request.build_dir) / "sanitize" / "probe")) {
    for (auto* c : crashed)
      c->set_diagnosis(c->diagnosis_both() + (c->diagnosis.empty() ? "" : " ") +
                       trb("(this compiler has no AddressSanitizer, so tito cannot name the kind of error)"));
    return;
  }
  if (progress)
    // TRANSLATORS: progress of `tito module test` after a crash
    progress(trn("a test case crashed: running it again with AddressSanitizer to see why",
                 "test cases crashed: running them again with AddressSanitizer to see why", crashed.size()));
  SanitizedBuild build = build_sanitized(Sanitizer::Address, toolchain, request, plan, session, progress);
  if (!build.ok) return;  // the plain build compiled; keep what its backtrace said

  // Cases that crashed at the same place of the learner's code crashed the same way: one run tells.
  std::map<std::string, Bilingual> diagnosis_by_place;
  const auto place_of = [](const CaseResult& c) {
    const auto at = c.diagnosis.find(" at ");
    return at == std::string::npos ? std::string() : c.diagnosis.substr(at + 4);
  };
  std::size_t runs = 0;
  for (auto* c : crashed) {
    const std::string place = place_of(*c);
    auto known = diagnosis_by_place.find(place);
    if (!place.empty() && known != diagnosis_by_place.end()) {
      c->set_diagnosis(known->second);
      continue;
    }
    if (runs == kMaxCasesToDiagnose) continue;
    const CaseResult rerun = run_case_alone(build, c->name, ++runs);
    const bool sanitizer_spoke = rerun.detail.find("Sanitizer") != std::string::npos ||
                                 rerun.detail.find("runtime error:") != std::string::npos;
    if (!sanitizer_spoke || rerun.diagnosis.empty()) continue;  // keep what the backtrace said
    // TRANSLATORS: on its own line after a crash's diagnosis; {} is a file
    c->set_diagnosis(rerun.diagnosis_both() + "\n" +
                     trb("the sanitizer's full report: {}", (build.session.work_dir / "output_1.txt").string()));
    if (!place.empty()) diagnosis_by_place[place] = c->diagnosis_both();
  }
}

// What a race check ran: the instrumented program's bytes and the names of the cases it reran. The
// same fingerprint means the same code and the same cases, already checked.
std::string race_check_fingerprint(const fs::path& binary, const std::vector<CaseResult*>& threaded) {
  Sha256 hash;
  std::ifstream in(binary, std::ios::binary);
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) hash.update(buffer, static_cast<std::size_t>(in.gcount()));
  for (const auto* c : threaded) hash.update(c->name + "\n");
  return hash.hex_digest();
}

// A data race can give the right result in most runs (the threads happened not to overlap), so a
// passing threaded case proves little. Each case tagged [threads] that passed is run again, alone,
// with the module's own files built with ThreadSanitizer (in <build_dir>/thread-sanitize), which sees
// the unsynchronised accesses whether or not they collided this time; a race fails the case. Only
// once no selected case failed: until then the module cannot be completed anyway, and the
// instrumented build costs time in the learner's loop. For the same reason a learner's rerun with
// unchanged code skips the check that passed before (race-free.sha256); a grader checks every time.
void find_data_races(const Toolchain& toolchain, const ModuleTestRequest& request, const NinjaPlan& plan,
                     const TestSessionSpec& session, TestReport& report, const ProgressSink& progress) {
  std::vector<CaseResult*> threaded;
  for (auto& c : report.cases) {
    if (!c.passed()) return;
    if (c.tags.find("[threads]") != std::string::npos) threaded.push_back(&c);
  }
  if (threaded.empty() || toolchain.sanitized) return;
  if (!sanitizer_works(toolchain, Sanitizer::Thread, fs::absolute(request.build_dir) / "thread-sanitize" / "probe")) {
    if (progress) progress(tr("this compiler has no working ThreadSanitizer: the threaded cases were not checked for data races"));
    return;
  }
  if (progress) progress(tr("checking the threaded cases for data races (ThreadSanitizer)"));
  SanitizedBuild build = build_sanitized(Sanitizer::Thread, toolchain, request, plan, session, progress);
  if (!build.ok) {
    if (progress) progress(tr("the ThreadSanitizer build failed: the threaded cases were not checked for data races"));
    return;
  }
  const fs::path race_free_stamp = build.dir / "race-free.sha256";
  const std::string fingerprint = race_check_fingerprint(build.session.binary, threaded);
  const bool remember = !request.confine_writes;
  if (remember && !request.recheck_data_races) {
    std::ifstream stamp(race_free_stamp);
    std::string checked;
    if (std::getline(stamp, checked) && checked == fingerprint) {
      if (progress) progress(tr("no data race: the threaded cases and your code are unchanged since their last check"));
      return;
    }
  }
  // halt_on_error: the first race ends the run with its report, which names the case that raced.
  build.session.extra_env["TSAN_OPTIONS"] = "halt_on_error=1:exitcode=66:report_signal_unsafe=0";
  std::size_t runs = 0;
  bool all_checked_race_free = true;
  for (auto* c : threaded) {
    const CaseResult rerun = run_case_alone(build, c->name, ++runs);
    if (!rerun.passed()) all_checked_race_free = false;
    if (rerun.detail.find("ThreadSanitizer") == std::string::npos) {
      // Anything else (a crash of the instrumented program, a time limit: TSan runs 5-15x slower) leaves
      // the case unchecked, which the learner should know; the plain run's pass stands.
      if (!rerun.passed() && progress)
        // TRANSLATORS: a test case's name, then what happened to it under ThreadSanitizer (e.g. "time limit of 10 s")
        progress(trf("\"{}\" could not be checked for data races: under ThreadSanitizer it ended with {}", c->name,
                     rerun.detail.empty() ? std::string(to_string(rerun.status)) : rerun.shown_detail()));
      continue;
    }
    c->status = CaseStatus::Crashed;
    c->set_detail(trb("a data race: two threads touch the same memory without synchronisation, and at least one writes "
                      "(ThreadSanitizer). Its result was right this time; with other timing it will not be."));
    // TRANSLATORS: on its own line after a data race's diagnosis; {} is a file
    c->set_diagnosis(rerun.diagnosis_both() + "\n" +
                     trb("ThreadSanitizer's full report: {}", (build.session.work_dir / "output_1.txt").string()));
    c->output.clear();
  }
  if (!remember) return;
  std::error_code ignored;
  if (all_checked_race_free) std::ofstream(race_free_stamp, std::ios::trunc) << fingerprint << "\n";
  else fs::remove(race_free_stamp, ignored);
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
  const std::vector<SourceToCompile> learner_sources = plan.learner_sources;

  auto build_start = std::chrono::steady_clock::now();
  const fs::path learner_objects_dir = learner_objects_dir_of(request, build_dir);
  const NinjaRun build = build_test_binary(toolchain, request, plan, build_dir, learner_objects_dir, progress);
  report.build_ok = build.ok;
  report.build_log = build.log;
  if (!request.learner_include_dirs.empty()) {
    const fs::path objects_dir = learner_objects_dir.empty() ? build_dir : learner_objects_dir;
    report.refused_includes = includes_outside_allowed(toolchain, request, learner_sources, objects_dir);
    if (report.refused_includes.empty() && !report.build_ok && is_grader_build(request))
      report.refused_includes = includes_not_found_outside(build.log, request);
    if (!report.refused_includes.empty()) {
      report.build_ok = false;
      report.build_log = "refused: the code includes files outside the public headers and its own folder (the compiler's "
                         "messages are withheld):\n";
      for (const auto& line : report.refused_includes) report.build_log += "  " + line + "\n";
    } else {
      // Also after a failed link: a definition of the harness's is a duplicate the linker refuses, and
      // the report should say what it was, not "did not compile".
      refuse_forbidden_symbols(toolchain, plan, learner_sources, objects_dir, report);
    }
  }
  if (!report.build_ok && report.refused_includes.empty() && report.refused_symbols.empty()) {
    if (auto errors = given_code_errors(toolchain, build_dir, plan, request.learner_dirs, build.log, request.build_jobs,
                                        compile_limit_s(request, toolchain))) {
      report.given_code_failed = true;
      report.build_log = *errors;
    }
  }
  report.build_seconds = seconds_since(build_start);

  TestSessionSpec session;
  session.binary = build_dir / plan.test_binary;
  session.work_dir = make_control_dir(build_dir);
  session.run_dir = run_dir;
  session.time_limit_s = request.time_limit_s;
  session.total_time_limit_s = request.total_time_limit_s;
  session.memory_limit_mb = request.memory_limit_mb;
  session.sanitized = toolchain.sanitized;
  session.extra_env = request.run_env;
  if (request.confine_writes) session.writable_dir = run_dir;
  session.readable_dirs = request.readable_dirs;
  session.filter = request.filter;
  session.learner_dirs = absolute_learner_dirs(request);
  session.live_status = request.live_status;
  report.filter = request.filter;

  auto run_start = std::chrono::steady_clock::now();
  if (report.build_ok) {
    report.cases = list_cases(session);
    if (report.cases.size() == 1 && report.cases.front().name == kStartupCaseName)
      report.startup_failure = report.cases.front().detail;
    const std::string startup_failure = run_test_session(session, report.cases, progress);
    if (report.startup_failure.empty()) report.startup_failure = startup_failure;
    if (request.diagnose_crashes) diagnose_crashes(toolchain, request, plan, session, report, progress);
    if (request.find_data_races) find_data_races(toolchain, request, plan, session, report, progress);
  } else {
    for (auto& c : cases_declared_in(request.test_sources))
      if (declared_case_matches(c.name, c.tags, request.filter)) report.cases.push_back(c);
    for (auto& c : report.cases)
      c.set_detail(report.given_code_failed ? trb("TinyTorch's own code did not compile with this compiler")
                                            : trb("the code did not compile"));
  }
  report.run_seconds = seconds_since(run_start);

  explain_failures(report.cases, request.hints);
  return report;
}

TestObjects build_test_objects(const Toolchain& toolchain, const std::vector<fs::path>& test_sources,
                               const fs::path& build_dir, int jobs, const ProgressSink& progress) {
  require_tools(toolchain);
  const fs::path dir = fs::absolute(build_dir);
  fs::create_directories(dir);
  ModuleTestRequest request;  // tests only: no learner code, nothing to link
  request.test_sources = test_sources;
  const NinjaPlan plan = plan_module_build(toolchain, request);
  write_if_changed(dir / "build.ninja", ninja_file_text(toolchain, plan));
  std::vector<std::string> targets;
  TestObjects built;
  built.objects = plan.prebuilt_objects;  // compiled at set-up (no learner code in this plan)
  for (const auto& source : plan.test_sources) {
    targets.push_back(source.object);
    built.objects.push_back(dir / source.object);
  }
  if (targets.empty()) {
    built.ok = true;
    return built;
  }
  NinjaRun build = run_ninja(toolchain, dir, targets, progress, jobs);
  built.ok = build.ok;
  built.build_log = build.log;
  return built;
}

}  // namespace tito
