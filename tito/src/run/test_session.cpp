#include "run/test_session.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "run/sandbox.h"
#include "run/stack_location.h"
#include "run/test_events.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kOutputTailChars = 4000;
// A test program's files (its output included) stop growing here (RLIMIT_FSIZE), and tito reads at
// most the last part of an output: a program that prints a gigabyte costs neither disk nor memory.
constexpr std::size_t kMaxOutputFileMb = 16;
constexpr std::size_t kMaxOutputReadBytes = 1 << 20;
// Processes a confined test program may start (RLIMIT_NPROC: a fork bomb stops there).
constexpr int kMaxProcesses = 64;
constexpr auto kBacktraceWait = std::chrono::milliseconds(1000);  // for the program to answer SIGUSR1

// What the file holds from `offset` on, at most its last `max_bytes`. A link is never followed: these
// files are tito's, and a link there is not one tito made.
// `end` >= 0 stops there instead of at the file's end.
std::string read_file_between(const fs::path& file, long offset, long end,
                              std::size_t max_bytes = kMaxOutputReadBytes) {
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return "";
  struct stat info {};
  std::string text;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    const long size = end >= 0 ? std::min(end, static_cast<long>(info.st_size)) : static_cast<long>(info.st_size);
    const long start = std::max(offset, size - static_cast<long>(std::min<std::size_t>(max_bytes, std::max(size, 0L))));
    if (start < size) {
      text.resize(static_cast<std::size_t>(size - start));
      const ssize_t got = pread(fd, text.data(), text.size(), start);
      text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    }
  }
  close(fd);
  return text;
}

std::string read_file_from(const fs::path& file, long offset, std::size_t max_bytes = kMaxOutputReadBytes) {
  return read_file_between(file, offset, -1, max_bytes);
}

// Once an attempt's output has been read, only its last part stays on disk (written beside it and
// renamed over it: a rename replaces a link, it never writes through one).
void keep_only_tail(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  if (error || size <= kMaxOutputReadBytes) return;
  const std::string kept = read_file_from(file, 0);
  const fs::path shorter = file.string() + ".tail";
  fs::remove(shorter, error);
  {
    std::ofstream out(shorter, std::ios::binary | std::ios::trunc);
    out << "[tito: the first " << (size - kept.size()) << " bytes of this output were dropped]\n" << kept;
  }
  fs::rename(shorter, file, error);
}

std::string tail(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  return "..." + text.substr(text.size() - max_chars);
}

std::string format_seconds(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

// Seconds as the English records write them (format_seconds) and as people read them ("2,5" in Spanish).
Bilingual seconds_both(double seconds) { return {format_seconds(seconds), format_significant(seconds, 6)}; }

// The starter's NotImplemented message (framework/include/tinytorch/errors.h), in the learner's language
// too; any other message as it is.
Bilingual not_implemented_message(const std::string& message) {
  static const std::regex framework(
      R"(^(.+) is not implemented yet: it is yours to write in module (\S+) \(lesson section (.+)\), then run `([^`]+)`$)");
  std::smatch match;
  if (message.size() > 4096 || !std::regex_match(message, match, framework)) return Bilingual::same(message);
  // TRANSLATORS: a starter function's message: the function (C++), the module's folder, the lesson's section, a command
  return {message, trf("{} is not implemented yet: it is yours to write in module {} (lesson section {}), then run `{}`",
                       match[1].str(), match[2].str(), match[3].str(), match[4].str())};
}

// The descriptor the test program writes its events to (curriculum/common/src/event_listener.cpp).
constexpr int kEventsDescriptor = 3;

// `read_only`: more of tito's files the program reads (a case list), shown to it read-only.
SandboxSpec sandbox_spec_for(const TestSessionSpec& spec, std::vector<std::string> argv, const fs::path& output,
                             const fs::path& events, const std::vector<fs::path>& read_only = {}) {
  SandboxSpec sandbox;
  sandbox.argv = std::move(argv);
  sandbox.output_file = output;
  sandbox.working_dir = spec.run_dir.empty() ? spec.work_dir : spec.run_dir;
  sandbox.time_limit_s = spec.time_limit_s;
  sandbox.memory_limit_mb = spec.memory_limit_mb;
  sandbox.limit_address_space = !spec.sanitized;
  sandbox.extra_env = spec.extra_env;
  sandbox.max_file_mb = kMaxOutputFileMb;
  sandbox.writable_dir = spec.writable_dir;
  if (!spec.writable_dir.empty()) {
    // Confined: the program sees the system, its own binary and its run folder, nothing else.
    sandbox.fresh_root = true;
    sandbox.read_only_paths = {spec.binary};
    sandbox.read_only_paths.insert(sandbox.read_only_paths.end(), spec.readable_dirs.begin(), spec.readable_dirs.end());
    sandbox.read_only_paths.insert(sandbox.read_only_paths.end(), read_only.begin(), read_only.end());
    sandbox.max_processes = kMaxProcesses;
  }
  if (!events.empty()) {
    sandbox.descriptor_files[kEventsDescriptor] = events;
    sandbox.extra_env["TITO_EVENTS_FD"] = std::to_string(kEventsDescriptor);
  }
  // A crash writes a backtrace first (curriculum/common/src/backtrace_on_signal.h); a sanitizer
  // does that itself, better.
  if (!spec.sanitized) sandbox.extra_env["TITO_CRASH_BACKTRACE"] = "1";
  if (spec.sanitized) {
    // ASan cannot live under RLIMIT_AS; its own limits stand in. An allocation over the limit
    // or a resident size over it ends the run with a report we recognise as out-of-memory.
    std::string mb = std::to_string(spec.memory_limit_mb);
    sandbox.extra_env["ASAN_OPTIONS"] =
        "detect_leaks=0:hard_rss_limit_mb=" + mb + ":max_allocation_size_mb=" + mb + ":abort_on_error=0";
    sandbox.extra_env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1";
  }
  return sandbox;
}

// Catch2's name filter treats these characters specially; a backslash makes them literal.
std::string escape_test_name(const std::string& name) {
  std::string escaped;
  for (char c : name) {
    if (c == '\\' || c == ',' || c == '"' || c == '[' || c == ']' || c == '*') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

bool contains(const std::string& text, const char* needle) { return text.find(needle) != std::string::npos; }

// The first line of a sanitizer report, e.g. "AddressSanitizer: heap-buffer-overflow on address ...".
std::string sanitizer_headline(const std::string& output) {
  for (const char* marker : {"ERROR: AddressSanitizer", "AddressSanitizer: hard rss limit", "ERROR: LeakSanitizer",
                             "WARNING: ThreadSanitizer:", "runtime error:"}) {
    auto at = output.find(marker);
    if (at == std::string::npos) continue;
    auto line_start = output.rfind('\n', at);
    line_start = (line_start == std::string::npos) ? 0 : line_start + 1;
    auto line_end = output.find('\n', at);
    return output.substr(line_start, line_end == std::string::npos ? std::string::npos : line_end - line_start);
  }
  return "";
}

bool sanitizer_out_of_memory(const std::string& output) {
  return contains(output, "AddressSanitizer: out of memory") || contains(output, "rss limit exhausted") ||
         contains(output, "allocation-size-too-big") || contains(output, "requested allocation size");
}

// The status of a case that started and ended normally, from its failure events.
void classify_finished_case(const CaseEvents& events, CaseResult& result) {
  result.duration_ms = events.duration_ms;
  result.observations = events.observations;
  for (const auto& failure : events.failures) result.failures.push_back(failure.failure);
  if (events.passed) {
    result.status = CaseStatus::Passed;
    return;
  }
  result.status = CaseStatus::Failed;
  // The most telling kind wins: memory, then a missing implementation, then any other exception.
  for (const char* kind : {"out_of_memory", "fatal_signal", "not_implemented", "exception"}) {
    auto found = std::find_if(events.failures.begin(), events.failures.end(),
                              [&](const FailureEvent& f) { return f.kind == kind; });
    if (found == events.failures.end()) continue;
    std::string k = kind;
    result.set_detail(k == "not_implemented" ? not_implemented_message(found->failure.message)
                                             : Bilingual::same(found->failure.message));
    result.status = k == "out_of_memory" ? CaseStatus::OutOfMemory
                    : k == "fatal_signal" ? CaseStatus::Crashed
                    : k == "not_implemented" ? CaseStatus::NotImplemented
                                             : CaseStatus::Errored;
    return;
  }
}

// Where the program was, from the backtrace it wrote: the innermost frame in the learner's files,
// else the innermost frame tito can name, marked as not the learner's. Empty when there is none.
Bilingual where_it_was(const TestSessionSpec& spec, const std::string& output, std::string* learner_function = nullptr) {
  const auto addresses = backtrace_addresses(output);
  if (addresses.empty()) return {};
  const auto frames = symbolise(spec.binary, addresses);
  if (auto mine = first_learner_frame(frames, spec.learner_dirs)) {
    if (learner_function) *learner_function = mine->file.string() + ":" + mine->function;
    return mine->short_text_both();
  }
  for (const auto& frame : frames)
    if (!frame.file.empty() && frame.file.string().find("backtrace_on_signal") == std::string::npos)
      return trb("{} (not in your files)", frame.short_text_both());
  // TRANSLATORS: where a crashed program was, when none of its frames is in the learner's files
  return frames.empty() ? Bilingual{} : trb("outside your files");
}

// The status of the case that was running when the process ended early.
void blame_interrupted_case(const SandboxResult& run, const TestSessionSpec& spec, const std::string& raw_output,
                            CaseResult& result) {
  const std::string case_output = without_backtrace_blocks(raw_output);
  std::string headline = sanitizer_headline(case_output);
  if (run.timed_out) {
    result.status = CaseStatus::TimedOut;
    // TRANSLATORS: why a test case was stopped: the seconds it may run
    result.set_detail(trb("time limit of {} s", seconds_both(spec.time_limit_s)));
    result.duration_ms = spec.time_limit_s * 1000;
  } else if (run.signal == SIGXCPU) {
    result.status = CaseStatus::TimedOut;
    result.set_detail(trb("CPU time limit of {} s", seconds_both(std::ceil(spec.time_limit_s) + 2)));
  } else if (sanitizer_out_of_memory(case_output) || (run.signal == SIGKILL && !run.timed_out)) {
    // An unexplained SIGKILL is almost always the kernel's out-of-memory killer.
    result.status = CaseStatus::OutOfMemory;
    // TRANSLATORS: why a test case was stopped: the megabytes it may use
    result.set_detail(trb("memory limit of {} MB", spec.memory_limit_mb));
  } else if (run.signal != 0) {
    result.status = CaseStatus::Crashed;
    result.set_detail(describe_signal_both(run.signal));
  } else {
    result.status = CaseStatus::Crashed;
    // TRANSLATORS: the test program ended by itself (std::exit, a return from main) while a case ran; {} is its exit code
    result.set_detail(headline.empty() ? trb("the test program exited (code {}) in the middle of this test", run.exit_code)
                                       : Bilingual::same(headline));
  }
  if (!headline.empty() && result.detail != headline) result.set_detail(result.detail_both() + "; " + headline);
  if (result.status == CaseStatus::Crashed) {
    result.set_diagnosis(sanitizer_diagnosis_both(case_output, spec.learner_dirs));
    if (result.diagnosis.empty()) {
      const Bilingual where = where_it_was(spec, raw_output);
      const std::string signal = describe_signal(run.signal);
      // TRANSLATORS: how a program crashed (a signal's name, e.g. SIGSEGV) and where, e.g. "SIGSEGV at matmul.cpp:57 in mm"
      if (!where.empty() && run.signal) result.set_diagnosis(trb("{} at {}", signal.substr(0, signal.find(' ')), where));
      // TRANSLATORS: where a program crashed, e.g. "crashed at matmul.cpp:57 in tinytorch::native::mm"
      else if (!where.empty()) result.set_diagnosis(trb("crashed at {}", where));
    }
  } else if (result.status == CaseStatus::TimedOut && run.timed_out) {
    const Bilingual where = where_it_was(spec, raw_output);
    result.set_diagnosis(where.empty() ? trb("tito could not see where it was (the program did not answer, or addr2line is missing)")
                                       // TRANSLATORS: where a test case that ran out of time was, e.g. "matmul.cpp:57 in mm"
                                       : trb("it was still running at {}", where));
  }
  // ASan follows an rss-limit report with the whole memory map: nothing a learner can use.
  std::string useful_output = case_output.substr(0, case_output.find("==Process memory map follows"));
  result.output = tail(useful_output, kOutputTailChars);
}

// "std::runtime_error: the message" from the C++ runtime's last words on an uncaught exception.
std::string uncaught_exception(const std::string& output) {
  static const std::string thrown = "terminate called after throwing an instance of '";
  const auto at = output.find(thrown);
  if (at == std::string::npos) return "";
  const auto type_end = output.find('\'', at + thrown.size());
  std::string text = output.substr(at + thrown.size(), type_end == std::string::npos ? std::string::npos : type_end - at - thrown.size());
  const auto what = output.find("what():", at);
  if (what != std::string::npos) {
    auto start = output.find_first_not_of(' ', what + 7);
    auto end = output.find('\n', what);
    if (start != std::string::npos) text += ": " + output.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }
  return text;
}

// Why a start of the test program ended before its first case: how it ended, the uncaught exception
// or the place it crashed, and the last thing it printed.
Bilingual startup_failure_reason(const SandboxResult& run, const TestSessionSpec& spec, const std::string& raw_output) {
  // TRANSLATORS: {} is the system's reason, in English
  if (!run.started) return trb("the test program could not be started: {}", run.error);
  Bilingual reason;
  // TRANSLATORS: the first part of a sentence that goes on "before its first test case (...)"
  if (run.timed_out) reason = trb("the test program ran past its time limit of {} s", seconds_both(spec.time_limit_s));
  else if (run.signal != 0) reason = trb("the test program was killed by {}", describe_signal_both(run.signal));
  else reason = trb("the test program exited with code {}", run.exit_code);
  // TRANSLATORS: follows "the test program exited with code 1" or the like
  reason = reason + trb(" before its first test case (in a static initialiser or at start-up)");
  const std::string output = without_backtrace_blocks(raw_output);
  const std::string exception = uncaught_exception(output);
  if (!exception.empty()) {
    // TRANSLATORS: {} is the exception's C++ type and message, e.g. "std::runtime_error: bad shape"
    reason = reason + trb("; uncaught exception {}", exception);
  } else if (run.signal != 0) {
    const Bilingual where = where_it_was(spec, raw_output);
    // TRANSLATORS: where the test program was when it crashed, e.g. "matmul.cpp:57 in mm"
    if (!where.empty()) reason = reason + trb("; it was at {}", where);
  }
  std::string last = output.substr(0, output.find("terminate called after"));
  while (!last.empty() && (last.back() == '\n' || last.back() == ' ')) last.pop_back();
  // TRANSLATORS: the last thing the test program printed follows
  if (!last.empty()) reason = reason + trb("; its last output: {}", tail(last, 300));
  return reason;
}

}  // namespace

std::vector<CaseResult> list_cases(const TestSessionSpec& spec) {
  fs::path output = spec.work_dir / "list_output.txt";
  std::vector<std::string> argv = {spec.binary.string(), "--tito-list"};
  if (!spec.filter.empty()) argv.push_back(spec.filter);
  SandboxResult run = sandboxed_run(sandbox_spec_for(spec, argv, output, {}));
  std::string text = read_file_from(output, 0);
  keep_only_tail(output);
  std::vector<CaseResult> cases;
  try {
    if (!run.started) throw std::runtime_error(run.error);
    for (const auto& listed : parse_case_list(text)) {
      CaseResult result;
      result.name = listed.name;
      result.points = listed.points;
      result.tags = listed.tags;
      if (listed.hidden) continue;  // hidden cases are not part of the module's grade
      cases.push_back(result);
    }
  } catch (const std::exception& error) {
    CaseResult startup;
    startup.name = kStartupCaseName;
    blame_interrupted_case(run, spec, text, startup);
    startup.set_detail(Bilingual::same(std::string(error.what()) + ": ") + startup_failure_reason(run, spec, text));
    cases.push_back(startup);
  }
  return cases;
}

namespace {

using Clock = std::chrono::steady_clock;

// Watches one start of the test binary from tito's side while it runs: which case is running and
// for how long (from the events file), live status for the learner, and, once some case has hung,
// whether the running one is stuck in the same learner function (then it is stopped early).
class RunWatch {
 public:
  RunWatch(const TestSessionSpec& spec, fs::path events_file, fs::path output_file,
           const std::map<std::string, std::string>& known_hangs)
      : spec_(spec), events_file_(std::move(events_file)), output_file_(std::move(output_file)), known_hangs_(known_hangs) {}

  void started(int pid) { pid_ = pid; }

  // The sandbox's keep_running: false stops the program.
  bool keep_running() {
    const auto now = Clock::now();
    if (now - last_look_ < std::chrono::milliseconds(200)) return true;
    last_look_ = now;
    read_new_events();
    if (current_case_.empty()) return true;
    const double elapsed = std::chrono::duration<double>(now - case_started_).count();
    if (spec_.live_status) spec_.live_status(current_case_, elapsed);
    if (known_hangs_.empty() || elapsed < spec_.same_hang_check_after_s) return true;
    if (now - last_sample_ < std::chrono::seconds(1)) return true;
    last_sample_ = now;
    std::string function;
    ask_for_backtrace();
    where_it_was(spec_, read_file_from(output_file_, sample_from_), &function);
    auto same = known_hangs_.find(function);
    same_place_samples_ = (!function.empty() && same != known_hangs_.end()) ? same_place_samples_ + 1 : 0;
    if (same_place_samples_ < 2) return true;
    stuck_like_ = same->second;
    stuck_after_s_ = elapsed;
    return false;
  }

  // SIGUSR1 makes the program write a backtrace block to its output; wait for it to appear.
  void ask_for_backtrace() {
    if (pid_ <= 0) return;
    std::error_code ignored;
    sample_from_ = static_cast<long>(fs::file_size(output_file_, ignored));
    if (kill(pid_, SIGUSR1) != 0) return;
    const auto until = Clock::now() + kBacktraceWait;
    while (Clock::now() < until) {
      if (read_file_from(output_file_, sample_from_).find("tito-backtrace-end") != std::string::npos) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  void finished() {
    if (spec_.live_status && shown_) spec_.live_status("", 0);
  }

  const std::string& stuck_like() const { return stuck_like_; }
  double stuck_after_s() const { return stuck_after_s_; }

 private:
  void read_new_events() {
    // Whole (capped by RLIMIT_FSIZE): the offset must advance over every byte.
    std::string chunk = read_file_from(events_file_, events_offset_, kMaxOutputFileMb << 20);
    auto last_newline = chunk.rfind('\n');
    if (last_newline == std::string::npos) return;
    events_offset_ += static_cast<long>(last_newline + 1);
    std::istringstream lines(chunk.substr(0, last_newline + 1));
    for (std::string line; std::getline(lines, line);) {
      // Only the event kind and the name matter here; the full parse happens after the run.
      if (line.find("\"event\":\"case_start\"") != std::string::npos) {
        RunEvents one = parse_events_text(line);
        current_case_ = one.cases.empty() ? "" : one.cases.front().name;
        case_started_ = Clock::now();
        same_place_samples_ = 0;
      } else if (line.find("\"event\":\"case_end\"") != std::string::npos) {
        if (spec_.live_status && shown_) spec_.live_status("", 0);
        current_case_.clear();
      }
    }
    shown_ = shown_ || !current_case_.empty();
  }

  const TestSessionSpec& spec_;
  fs::path events_file_, output_file_;
  const std::map<std::string, std::string>& known_hangs_;
  int pid_ = -1;
  long events_offset_ = 0, sample_from_ = 0;
  std::string current_case_;
  Clock::time_point case_started_, last_look_, last_sample_;
  int same_place_samples_ = 0;
  bool shown_ = false;
  std::string stuck_like_;
  double stuck_after_s_ = 0;
};

}  // namespace

std::string run_test_session(const TestSessionSpec& spec, std::vector<CaseResult>& cases, const ProgressSink& progress) {
  std::string startup_failure;
  std::map<std::string, CaseResult*> by_name;
  for (auto& c : cases) by_name[c.name] = &c;
  std::set<std::string> done;
  for (const auto& c : cases)
    if (c.status != CaseStatus::NotRun) done.insert(c.name);  // e.g. a start-up crash found while listing
  std::map<std::string, std::string> known_hangs;  // learner "file:function" -> the case that hung there
  const auto session_start = Clock::now();

  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) keep_only_tail(spec.work_dir / ("output_" + std::to_string(attempt - 1) + ".txt"));
    std::vector<CaseResult*> pending;
    for (auto& c : cases)
      if (!done.count(c.name)) pending.push_back(&c);
    if (pending.empty()) return startup_failure;
    // This start may take what is left of the whole session's time, at most its own limit.
    TestSessionSpec start_spec = spec;
    if (spec.total_time_limit_s > 0) {
      const double left = spec.total_time_limit_s - std::chrono::duration<double>(Clock::now() - session_start).count();
      if (left < 1) {
        for (auto* c : pending) {
          c->status = CaseStatus::NotRun;
          // TRANSLATORS: {} is the seconds a module's tests may take in all
          c->set_detail(trb("not run: the test program's starts took all of the module's {} s (cases that hung or "
                            "crashed before it used them up)",
                            seconds_both(spec.total_time_limit_s)));
        }
        return startup_failure;
      }
      start_spec.time_limit_s = std::min(spec.time_limit_s, left);
    }
    // TRANSLATORS: progress of `tito module test`: the test program starts (again, after a case crashed it)
    if (progress) progress(attempt == 1 ? trnf("running {} test case", "running {} test cases", pending.size(), pending.size())
                                        : trnf("re-running the {} test case not yet run",
                                               "re-running the {} test cases not yet run", pending.size(), pending.size()));

    std::string suffix = std::to_string(attempt);
    fs::path names_file = spec.work_dir / ("cases_" + suffix + ".txt");
    fs::path events_file = spec.work_dir / ("events_" + suffix + ".jsonl");
    fs::path output_file = spec.work_dir / ("output_" + suffix + ".txt");
    // Catch2's own report goes to a file of its own: the failures reach the learner through the
    // events, and the program's output then holds only what the learner's code printed.
    // It is the program's file (in its own folder): tito never reads it.
    fs::path catch_report = (spec.run_dir.empty() ? spec.work_dir : spec.run_dir) / ("catch_report_" + suffix + ".txt");
    {
      std::error_code ignored;
      fs::remove(names_file, ignored);
      std::ofstream names(names_file, std::ios::trunc);
      for (const auto* c : pending) names << escape_test_name(c->name) << "\n";
    }
    SandboxSpec sandbox = sandbox_spec_for(start_spec,
                                           {spec.binary.string(), "-f", names_file.string(), "-o", catch_report.string(),
                                            "--use-colour", "no"},
                                           output_file, events_file, {names_file});
    RunWatch watch(start_spec, events_file, output_file, known_hangs);
    sandbox.on_start = [&](int pid) { watch.started(pid); };
    sandbox.keep_running = [&] { return watch.keep_running(); };
    sandbox.before_time_out_kill = [&] { watch.ask_for_backtrace(); };
    SandboxResult run = sandboxed_run(sandbox);
    watch.finished();
    RunEvents events = read_events_file(events_file);

    std::size_t newly_done = 0;
    for (const auto& case_events : events.cases) {
      auto found = by_name.find(case_events.name);
      if (found == by_name.end() || done.count(case_events.name)) continue;
      CaseResult& result = *found->second;
      if (case_events.ended) {
        classify_finished_case(case_events, result);
        result.output = tail(read_file_between(output_file, case_events.output_offset, case_events.output_end),
                             kOutputTailChars);
      } else {
        std::string case_output = read_file_from(output_file, case_events.output_offset);
        for (const auto& failure : case_events.failures) result.failures.push_back(failure.failure);
        if (run.stopped && !watch.stuck_like().empty()) {
          result.status = CaseStatus::TimedOut;
          result.duration_ms = watch.stuck_after_s() * 1000;
          // TRANSLATORS: a case stopped early: its seconds, the earlier case that hung in the same place, the time limit
          result.set_detail(trb("stopped after {} s: it hangs where '{}' did, so tito did not wait the full {} s",
                                seconds_both(std::round(watch.stuck_after_s())), watch.stuck_like(),
                                seconds_both(spec.time_limit_s)));
          result.set_diagnosis(trb("it was still running at {}", where_it_was(spec, case_output)));
          result.output = tail(without_backtrace_blocks(case_output), kOutputTailChars);
        } else {
          blame_interrupted_case(run, start_spec, case_output, result);
          std::string function;
          if (result.status == CaseStatus::TimedOut && run.timed_out) {
            where_it_was(spec, case_output, &function);
            if (!function.empty()) known_hangs.emplace(function, result.name);
          }
        }
      }
      done.insert(result.name);
      ++newly_done;
    }

    if (newly_done > 0 && !events.run_ended) continue;  // died mid-way: start again on the rest
    // Either the run finished (whatever was not reached was not selected), or it died before any
    // case started: then no later start would do better, so every pending case shares the blame.
    std::string output = read_file_from(output_file, 0);
    if (newly_done == 0 && !events.run_ended && startup_failure.empty())
      startup_failure = startup_failure_reason(run, spec, output).english;  // TestReport keeps it for grading
    for (auto* c : pending) {
      if (done.count(c->name)) continue;
      if (!run.started) {
        c->status = CaseStatus::NotRun;
        c->set_detail(trb("the test program could not be started: {}", run.error));
      } else if (events.run_ended) {
        c->status = CaseStatus::NotRun;
        c->set_detail(trb("the test program did not run this case"));
      } else {
        blame_interrupted_case(run, start_spec, output, *c);
        // The English prefix is what grading recognises (core/grading.cpp): keep the two in step.
        // TRANSLATORS: {} says how the program ended, e.g. "SIGSEGV (segmentation fault: an invalid memory access)"
        c->set_detail(trb("the test program failed before this case could start: {}", c->detail_both()));
      }
      done.insert(c->name);
    }
  }
}

}  // namespace tito
