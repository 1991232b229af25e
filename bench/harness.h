#pragma once
// The timing harness shared by the three benchmark programs (C++17 and nlohmann::json only: it is
// compiled into the LibTorch program too, which must not see tinytorch's headers).
//
// measure(body) warms up, then takes `samples` timings. Each sample runs the body `inner` times
// back to back, with `inner` chosen so that a sample lasts about 2 ms (so that the clock's
// resolution and one-off hiccups are small against it); the result is the per-call median over
// the samples, with the minimum and the spread next to it. Medians, not means: on a shared machine
// a few samples are always hit by other processes, and the median ignores them.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench {

struct Timing {
  double median_us = 0;
  double min_us = 0;
  double max_us = 0;
  int samples = 0;
  int64_t inner = 0;  // calls per sample
};

struct Budget {
  int min_samples = 5;
  int max_samples = 41;
  double target_seconds = 1.0;  // stop taking samples after this long (once min_samples are in)
  double sample_seconds = 0.002;
  double warmup_seconds = 0.2;
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <typename Body>
Timing measure(Body&& body, const Budget& budget = {}) {
  using clock = std::chrono::steady_clock;
  // Warm-up: caches, the allocator's free lists, thread pools and lazy initialisation all settle.
  // The fastest warm-up call sizes the samples (the first calls are the slow ones).
  int64_t warm_calls = 0;
  const auto warm_start = clock::now();
  double per_call = 1e30;
  do {
    const auto call_start = clock::now();
    body();
    per_call = std::min(per_call, seconds_since(call_start));
    ++warm_calls;
  } while (seconds_since(warm_start) < budget.warmup_seconds && warm_calls < 1000000);
  const int64_t inner = std::max<int64_t>(1, static_cast<int64_t>(budget.sample_seconds / std::max(per_call, 1e-9)));

  std::vector<double> per_call_us;
  const auto start = clock::now();
  while (static_cast<int>(per_call_us.size()) < budget.max_samples &&
         (static_cast<int>(per_call_us.size()) < budget.min_samples || seconds_since(start) < budget.target_seconds)) {
    const auto sample_start = clock::now();
    for (int64_t i = 0; i < inner; ++i) body();
    per_call_us.push_back(seconds_since(sample_start) * 1e6 / static_cast<double>(inner));
  }
  std::sort(per_call_us.begin(), per_call_us.end());
  Timing timing;
  timing.samples = static_cast<int>(per_call_us.size());
  timing.inner = inner;
  timing.min_us = per_call_us.front();
  timing.max_us = per_call_us.back();
  const size_t mid = per_call_us.size() / 2;
  timing.median_us = per_call_us.size() % 2 ? per_call_us[mid] : (per_call_us[mid - 1] + per_call_us[mid]) / 2;
  return timing;
}

// A result's fields beyond the timing, e.g. {{"kernel", "avx2"}, {"speedup_vs_fp32", 3.1}}.
using Fields = nlohmann::ordered_json;

// One JSON line, members in the order given (the format scripts/bench reads). A reason or a kernel
// name with a byte that is not UTF-8 is written as U+FFFD instead of making dump() throw (its
// default, type_error 316).
inline void print_line(const Fields& line) {
  std::printf("%s\n", line.dump(-1, ' ', false, Fields::error_handler_t::replace).c_str());
  std::fflush(stdout);
}

// One result.
inline void print_result(const std::string& case_name, const std::string& impl, int threads, const Timing& t,
                         double flops_per_call, const Fields& extra = Fields::object()) {
  Fields line = {{"case", case_name}, {"impl", impl}, {"threads", threads}, {"median_us", t.median_us},
                 {"min_us", t.min_us}, {"max_us", t.max_us}, {"samples", t.samples}, {"calls_per_sample", t.inner}};
  if (flops_per_call > 0) line["gflops"] = flops_per_call / (t.median_us * 1e3);
  line.update(extra);
  print_line(line);
}

// A case this program cannot run, and why (printed instead of a result).
inline void print_unavailable(const std::string& case_name, const std::string& impl, int threads,
                              const std::string& reason) {
  print_line({{"case", case_name}, {"impl", impl}, {"threads", threads}, {"unavailable", reason}});
}

// Command line shared by the programs: --case NAME (repeatable; default all) --threads N --list --quick
struct Options {
  std::vector<std::string> cases;
  int threads = 1;
  bool list = false;
  bool quick = false;  // fewer samples: a smoke run, not a measurement
  bool wants(const std::string& name) const {
    return cases.empty() || std::find(cases.begin(), cases.end(), name) != cases.end();
  }
  Budget budget() const {
    Budget b;
    if (quick) {
      b.min_samples = 3;
      b.target_seconds = 0.05;
      b.warmup_seconds = 0.01;
    }
    return b;
  }
};

inline Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--case") {
      options.cases.push_back(value());
    } else if (arg == "--threads") {
      options.threads = std::atoi(value().c_str());
      if (options.threads < 1) {
        std::fprintf(stderr, "error: --threads wants a positive number\n");
        std::exit(2);
      }
    } else if (arg == "--list") {
      options.list = true;
    } else if (arg == "--quick") {
      options.quick = true;
    } else {
      std::fprintf(stderr, "error: unknown option '%s'\nfix: %s [--case NAME]... [--threads N] [--list] [--quick]\n",
                   arg.c_str(), argv[0]);
      std::exit(2);
    }
  }
  return options;
}

}  // namespace bench
