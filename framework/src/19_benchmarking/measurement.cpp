// Module 19 (Benchmarking), given code: the Measurement's storage, its order statistics (module 14's
// percentile) and its printing, in PyTorch's layout:
//   mm 256
//     Median: 2.35 ms
//     IQR:    0.03 ms (2.33 to 2.36)
//     Mean:   2.36 ms +- 0.02 ms (stddev)
//     50 measurements, 10 runs per measurement
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

Measurement::Measurement(int64_t number_per_run, std::vector<double> raw_times, std::string label,
                         std::string description)
    : number_per_run_(number_per_run), raw_times_(std::move(raw_times)), label_(std::move(label)),
      description_(std::move(description)) {
  TT_CHECK(number_per_run_ >= 1, "Measurement: number_per_run must be at least 1, got ", number_per_run_);
  TT_CHECK(!raw_times_.empty(), "Measurement '", label_, "': no times; time the statement at least once");
  times_.reserve(raw_times_.size());
  for (double raw : raw_times_) {
    TT_CHECK(std::isfinite(raw) && raw >= 0, "Measurement '", label_, "': a time must be finite and >= 0 seconds, got ",
             raw);
    times_.push_back(raw / static_cast<double>(number_per_run_));
  }
}

double Measurement::min() const { return *std::min_element(times_.begin(), times_.end()); }
double Measurement::max() const { return *std::max_element(times_.begin(), times_.end()); }
double Measurement::percentile(double p) const { return profiling::percentile(times_, p); }
double Measurement::iqr() const { return percentile(75) - percentile(25); }

profiling::LatencyStats Measurement::latency_stats() const {
  std::vector<double> milliseconds;
  milliseconds.reserve(times_.size());
  for (double seconds : times_) milliseconds.push_back(seconds * 1e3);
  return profiling::summarize_latencies(milliseconds);
}

namespace {

// The unit that puts `seconds` between 1 and 1000: s, ms, us or ns, and the factor to it.
std::pair<const char*, double> time_unit(double seconds) {
  if (seconds >= 1) return {"s", 1};
  if (seconds >= 1e-3) return {"ms", 1e3};
  if (seconds >= 1e-6) return {"us", 1e6};
  return {"ns", 1e9};
}

}  // namespace

std::string Measurement::str() const {
  const auto unit = time_unit(median());
  const double f = unit.second;
  char line[256];
  std::string text = label_.empty() ? "Measurement" : label_;
  if (!description_.empty()) text += ": " + description_;
  text += "\n";
  std::snprintf(line, sizeof line, "  Median: %.4g %s\n", median() * f, unit.first);
  text += line;
  std::snprintf(line, sizeof line, "  IQR:    %.4g %s (%.4g to %.4g)\n", iqr() * f, unit.first, percentile(25) * f,
                percentile(75) * f);
  text += line;
  std::snprintf(line, sizeof line, "  Mean:   %.4g %s +- %.3g %s (stddev)\n", mean() * f, unit.first, stddev() * f,
                unit.first);
  text += line;
  std::snprintf(line, sizeof line, "  %lld measurement%s, %lld run%s per measurement", static_cast<long long>(runs()),
                runs() == 1 ? "" : "s", static_cast<long long>(number_per_run_), number_per_run_ == 1 ? "" : "s");
  text += line;
  return text;
}

std::ostream& operator<<(std::ostream& out, const Measurement& m) { return out << m.str(); }

std::string Comparison::str() const {
  char text[256];
  const bool faster = speedup >= 1;
  const double shown = faster ? speedup : 1 / speedup;
  const double low = faster ? speedup_lower : 1 / speedup_upper, high = faster ? speedup_upper : 1 / speedup_lower;
  std::snprintf(text, sizeof text, "%.3gx %s (%.0f%% CI %.3gx to %.3gx), Welch t = %.3g, df = %.3g, p = %.2g", shown,
                faster ? "faster" : "slower", level * 100, low, high, test.t, test.df, test.p_value);
  return text;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
