#include "run/test_session.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "run/sandbox.h"
#include "run/test_events.h"

namespace tito {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kOutputTailChars = 4000;

std::string read_file_from(const fs::path& file, long offset) {
  std::ifstream in(file, std::ios::binary);
  if (offset > 0) in.seekg(offset);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

SandboxSpec sandbox_spec_for(const TestSessionSpec& spec, std::vector<std::string> argv, const fs::path& output,
                             const fs::path& events) {
  SandboxSpec sandbox;
  sandbox.argv = std::move(argv);
  sandbox.output_file = output;
  sandbox.working_dir = spec.work_dir;
  sandbox.time_limit_s = spec.time_limit_s;
  sandbox.memory_limit_mb = spec.memory_limit_mb;
  sandbox.limit_address_space = !spec.sanitized;
  sandbox.extra_env = spec.extra_env;
  sandbox.writable_dir = spec.writable_dir;
  if (!events.empty()) sandbox.extra_env["TITO_EVENTS_FILE"] = events.string();
  if (spec.sanitized) {
    // ASan cannot live under RLIMIT_AS; its own limits stand in. An allocation over the limit
    // or a resident size over it ends the run with a report we recognise as out-of-memory.
    std::string mb = std::to_string(spec.memory_limit_mb);
    sandbox.extra_env["ASAN_OPTIONS"] =
        "detect_leaks=0:hard_rss_limit_mb=" + mb + ":max_allocation_size_mb=" + mb + ":abort_on_error=0";
    sandbox.extra_env["UBSAN_OPTIONS"] = "print_stacktrace=1";
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
                             "runtime error:"}) {
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
    result.detail = found->failure.message;
    std::string k = kind;
    result.status = k == "out_of_memory" ? CaseStatus::OutOfMemory
                    : k == "fatal_signal" ? CaseStatus::Crashed
                    : k == "not_implemented" ? CaseStatus::NotImplemented
                                             : CaseStatus::Errored;
    return;
  }
}

// The status of the case that was running when the process ended early.
void blame_interrupted_case(const SandboxResult& run, const TestSessionSpec& spec, const std::string& case_output,
                            CaseResult& result) {
  std::string headline = sanitizer_headline(case_output);
  if (run.timed_out) {
    result.status = CaseStatus::TimedOut;
    result.detail = "time limit of " + format_seconds(spec.time_limit_s) + " s";
    result.duration_ms = spec.time_limit_s * 1000;
  } else if (run.signal == SIGXCPU) {
    result.status = CaseStatus::TimedOut;
    result.detail = "CPU time limit of " + format_seconds(std::ceil(spec.time_limit_s) + 2) + " s";
  } else if (sanitizer_out_of_memory(case_output) || (run.signal == SIGKILL && !run.timed_out)) {
    // An unexplained SIGKILL is almost always the kernel's out-of-memory killer.
    result.status = CaseStatus::OutOfMemory;
    result.detail = "memory limit of " + std::to_string(spec.memory_limit_mb) + " MB";
  } else if (run.signal != 0) {
    result.status = CaseStatus::Crashed;
    result.detail = describe_signal(run.signal);
  } else {
    result.status = CaseStatus::Crashed;
    result.detail = headline.empty() ? "the test program exited (code " + std::to_string(run.exit_code) +
                                           ") in the middle of this test"
                                     : headline;
  }
  if (!headline.empty() && result.detail != headline) result.detail += "; " + headline;
  // ASan follows an rss-limit report with the whole memory map: nothing a learner can use.
  std::string useful_output = case_output.substr(0, case_output.find("==Process memory map follows"));
  std::string output_tail = tail(useful_output, kOutputTailChars);
  if (!output_tail.empty()) result.detail += "\n--- output of the test program ---\n" + output_tail;
}

}  // namespace

std::vector<CaseResult> list_cases(const TestSessionSpec& spec) {
  fs::path output = spec.work_dir / "list_output.txt";
  SandboxResult run = sandboxed_run(sandbox_spec_for(spec, {spec.binary.string(), "--tito-list"}, output, {}));
  std::string text = read_file_from(output, 0);
  std::vector<CaseResult> cases;
  try {
    if (!run.started) throw std::runtime_error(run.error);
    for (const auto& listed : parse_case_list(text)) {
      CaseResult result;
      result.name = listed.name;
      result.points = listed.points;
      if (listed.hidden) continue;  // hidden cases are not part of the module's grade
      cases.push_back(result);
    }
  } catch (const std::exception& error) {
    CaseResult startup;
    startup.name = "(test program start-up)";
    SandboxResult as_run = run;
    if (!as_run.timed_out && as_run.signal == 0 && as_run.exit_code == 0) as_run.exit_code = -1;
    blame_interrupted_case(as_run, spec, text, startup);
    startup.detail = std::string(error.what()) + ": " + startup.detail;
    cases.push_back(startup);
  }
  return cases;
}

void run_test_session(const TestSessionSpec& spec, std::vector<CaseResult>& cases, const ProgressSink& progress) {
  std::map<std::string, CaseResult*> by_name;
  for (auto& c : cases) by_name[c.name] = &c;
  std::set<std::string> done;
  for (const auto& c : cases)
    if (c.status != CaseStatus::NotRun) done.insert(c.name);  // e.g. a start-up crash found while listing

  for (int attempt = 1;; ++attempt) {
    std::vector<CaseResult*> pending;
    for (auto& c : cases)
      if (!done.count(c.name)) pending.push_back(&c);
    if (pending.empty()) return;
    if (progress)
      progress(attempt == 1 ? "running " + std::to_string(pending.size()) + " test cases"
                            : "re-running the " + std::to_string(pending.size()) + " test cases not yet run");

    std::string suffix = std::to_string(attempt);
    fs::path names_file = spec.work_dir / ("cases_" + suffix + ".txt");
    fs::path events_file = spec.work_dir / ("events_" + suffix + ".jsonl");
    fs::path output_file = spec.work_dir / ("output_" + suffix + ".txt");
    {
      std::ofstream names(names_file, std::ios::trunc);
      for (const auto* c : pending) names << escape_test_name(c->name) << "\n";
    }
    fs::remove(events_file);
    SandboxResult run = sandboxed_run(sandbox_spec_for(
        spec, {spec.binary.string(), "-f", names_file.string(), "--use-colour", "no"}, output_file, events_file));
    RunEvents events = read_events_file(events_file);

    std::size_t newly_done = 0;
    for (const auto& case_events : events.cases) {
      auto found = by_name.find(case_events.name);
      if (found == by_name.end() || done.count(case_events.name)) continue;
      CaseResult& result = *found->second;
      if (case_events.ended) {
        classify_finished_case(case_events, result);
      } else {
        std::string case_output = read_file_from(output_file, case_events.output_offset);
        for (const auto& failure : case_events.failures) result.failures.push_back(failure.failure);
        blame_interrupted_case(run, spec, case_output, result);
      }
      done.insert(result.name);
      ++newly_done;
    }

    if (newly_done > 0 && !events.run_ended) continue;  // died mid-way: start again on the rest
    // Either the run finished (whatever was not reached was not selected), or it died before any
    // case started: then no later start would do better, so every pending case shares the blame.
    std::string output = read_file_from(output_file, 0);
    for (auto* c : pending) {
      if (done.count(c->name)) continue;
      if (!run.started) {
        c->status = CaseStatus::NotRun;
        c->detail = "the test program could not be started: " + run.error;
      } else if (events.run_ended) {
        c->status = CaseStatus::NotRun;
        c->detail = "the test program did not run this case";
      } else {
        blame_interrupted_case(run, spec, output, *c);
        c->detail = "the test program failed before this case could start: " + c->detail;
      }
      done.insert(c->name);
    }
  }
}

}  // namespace tito
