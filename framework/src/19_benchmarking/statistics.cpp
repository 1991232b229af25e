// Module 19 (Benchmarking), lesson sections "2. Mean, spread and the percentiles MLPerf reports" and
// "4. Outliers". The numbers every benchmark prints: a centre, a spread, the tail, and which samples
// to distrust. The median, the quartiles and numpy's interpolating percentile are module 14's
// profiling::percentile (measurement.cpp calls it).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

// TODO: Measurement::mean -- the arithmetic mean of times() (section 2).
double Measurement::mean() const {
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::Measurement::mean" lesson="2. Mean, spread and the percentiles MLPerf reports"
  double sum = 0;
  for (double time : times_) sum += time;
  return sum / static_cast<double>(times_.size());
  // END SOLUTION
}

// TODO: Measurement::stddev -- the SAMPLE standard deviation of times() (section 2): the squared
//   distances from the mean, summed, divided by n - 1 (Bessel's correction: the mean was estimated
//   from the same samples), then the square root. Example: {2, 4, 4, 5, 10} -> 3.
double Measurement::stddev() const {
  if (times_.size() < 2) return 0.0;  // one sample has no spread to estimate
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::Measurement::stddev" lesson="2. Mean, spread and the percentiles MLPerf reports"
  const double centre = mean();
  double squares = 0;
  for (double time : times_) squares += (time - centre) * (time - centre);
  return std::sqrt(squares / static_cast<double>(times_.size() - 1));
  // END SOLUTION
}

// TODO: nearest_rank_percentile -- MLPerf LoadGen's percentile (section 2): one of the samples, no
//   interpolation: after sorting, the sample at 0-based index floor(p * n / 100), the last one where
//   that index is n (p = 100). Exact for whole p n / 100.
//   Examples: {15, 20, 35, 40, 50}: p 30 -> 20, p 40 -> 35, p 41 -> 35, p 100 -> 50, p 0 -> 15;
//   0, 1, ..., 99: p 29 -> 29 (index 29).
double nearest_rank_percentile(std::vector<double> samples, double p) {
  TT_CHECK(!samples.empty(), "nearest_rank_percentile: no samples; measure at least once");
  TT_CHECK(p >= 0 && p <= 100, "nearest_rank_percentile: p must be in [0, 100], got ", p);
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::nearest_rank_percentile" lesson="2. Mean, spread and the percentiles MLPerf reports"
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  const auto index = static_cast<size_t>(std::floor(p * n / 100.0));
  return samples[std::min(index, samples.size() - 1)];
  // END SOLUTION
}

// TODO: remove_outliers -- Tukey's fences (section 4).
//   Quartiles by numpy's rule (m.percentile(25), m.percentile(75)); the fences lie 1.5 IQR below the
//   first and above the third quartile. Keep the blocks whose time (times()) is within the fences,
//   fences included, in their measured order; `kept` is a Measurement of their RAW times with m's
//   number_per_run, label and description.
OutlierRemoval remove_outliers(const Measurement& m) {
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::remove_outliers" lesson="4. Outliers"
  const double q1 = m.percentile(25), q3 = m.percentile(75);
  const double spread = q3 - q1;
  const double lower = q1 - 1.5 * spread, upper = q3 + 1.5 * spread;
  std::vector<double> kept_raw;
  for (size_t i = 0; i < m.times().size(); ++i) {
    const double time = m.times()[i];
    if (time >= lower && time <= upper) kept_raw.push_back(m.raw_times()[i]);
  }
  const int64_t removed = m.runs() - static_cast<int64_t>(kept_raw.size());
  return OutlierRemoval{Measurement(m.number_per_run(), kept_raw, m.label(), m.description()), removed, lower, upper};
  // END SOLUTION
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
