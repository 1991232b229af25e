// Module 14 (Profiling), lesson section "3. Timing".
// One timing is noise; the median of many is a measurement. The given measure_latency
// (layer_profiler.cpp) warms up, times each call, and hands the samples to summarize_latencies.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/profiling.h"

namespace tinytorch {
namespace profiling {

// TODO: percentile(samples, q in [0, 100]) -> the q-th percentile of the samples, in any order, with
//   linear interpolation between ranks as section 3 defines it (NumPy's default): q = 0 gives the
//   minimum, q = 100 the maximum. The checks above are given.
//   Examples: {5, 1, 3} q 50 -> 3; {1, 2, 3, 4} q 50 -> 2.5; {1, 2, 3, 4} q 90 -> 3.7.
double percentile(std::vector<double> samples, double q) {
  TT_CHECK(!samples.empty(), "percentile: no samples; time the code at least once");
  TT_CHECK(q >= 0 && q <= 100, "percentile: q must be in [0, 100], got ", q);
  // BEGIN SOLUTION name="tinytorch::profiling::percentile" lesson="3. Timing"
  std::sort(samples.begin(), samples.end());
  const double position = q / 100.0 * static_cast<double>(samples.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, samples.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return samples[below] + (samples[above] - samples[below]) * fraction;
  // END SOLUTION
}

// TODO: summarize_latencies(samples_ms) -> LatencyStats: count, mean, min, max, median, p10, p90 and
//   p99 of the samples, in milliseconds, percentiles as your percentile gives them (section 3).
//   Example: {3, 1, 2, 10} -> count 4, mean 4, min 1, max 10, median 2.5, p90 7.9.
LatencyStats summarize_latencies(const std::vector<double>& samples_ms) {
  TT_CHECK(!samples_ms.empty(), "summarize_latencies: no samples; time the code at least once");
  LatencyStats stats;
  // BEGIN SOLUTION name="tinytorch::profiling::summarize_latencies" lesson="3. Timing"
  stats.count = static_cast<int64_t>(samples_ms.size());
  double sum = 0;
  for (double sample : samples_ms) sum += sample;
  stats.mean_ms = sum / static_cast<double>(samples_ms.size());
  stats.min_ms = *std::min_element(samples_ms.begin(), samples_ms.end());
  stats.max_ms = *std::max_element(samples_ms.begin(), samples_ms.end());
  stats.median_ms = percentile(samples_ms, 50);
  stats.p10_ms = percentile(samples_ms, 10);
  stats.p90_ms = percentile(samples_ms, 90);
  stats.p99_ms = percentile(samples_ms, 99);
  // END SOLUTION
  return stats;
}

}  // namespace profiling
}  // namespace tinytorch
