#pragma once
// Are the statistics a benchmark reports the statistics of its samples? Milestone 06 gates on a
// median ratio and a p-value, and prints a confidence interval, a p90 and a Pareto frontier; a
// standard deviation over n instead of n - 1, a one-sided p-value, a z instead of a t, a median of
// unsorted samples or a frontier that minimises accuracy still pass those gates (the knockout study,
// `tito instructor knockout 06`, found them all passing). These probes recompute each statistic
// from its definition in double, on the very samples the milestone measured, and compare.
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace milestone {

// |yours - expected| / max(|expected|, tiny); 0 when both are 0, infinity when yours is not finite.
inline double relative_error(double yours, double expected) {
  if (!std::isfinite(yours)) return std::numeric_limits<double>::infinity();
  if (yours == expected) return 0;
  return std::fabs(yours - expected) / std::max(std::fabs(expected), std::numeric_limits<double>::min());
}

namespace statistics_definitions {

inline double mean(const std::vector<double>& x) {
  double sum = 0;
  for (const double v : x) sum += v;
  return sum / static_cast<double>(x.size());
}

inline double sample_stddev(const std::vector<double>& x) {
  const double centre = mean(x);
  double squares = 0;
  for (const double v : x) squares += (v - centre) * (v - centre);
  return std::sqrt(squares / static_cast<double>(x.size() - 1));
}

// Linear interpolation between the ranks of the sorted samples (NumPy's default; module 14).
inline double interpolated_percentile(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double position = p / 100 * static_cast<double>(x.size() - 1);
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, x.size() - 1);
  return x[below] + (x[above] - x[below]) * (position - static_cast<double>(below));
}

// MLPerf LoadGen's: the sorted samples' element at 0-based index floor(p n / 100) (module 19).
inline double loadgen_percentile(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const auto index = static_cast<size_t>(std::floor(p * static_cast<double>(x.size()) / 100));
  return x[std::min(index, x.size() - 1)];
}

// q dominates p: no worse in every objective, strictly better in one.
inline bool dominates(const std::vector<double>& q, const std::vector<double>& p,
                      const std::vector<torch::utils::benchmark::Goal>& goals) {
  bool strictly_better = false;
  for (size_t k = 0; k < goals.size(); ++k) {
    const double sign = goals[k] == torch::utils::benchmark::Goal::kMinimize ? 1.0 : -1.0;
    if (sign * q[k] > sign * p[k]) return false;
    if (sign * q[k] < sign * p[k]) strictly_better = true;
  }
  return strictly_better;
}

}  // namespace statistics_definitions

// The largest relative error of YOUR Measurement's mean, stddev, median and p90 (module 14's
// percentile), LoadGen's p50 and p90 (nearest_rank_percentile) and the 95% confidence interval
// (its centre, and its t: student_t_cdf(half width sqrt(n) / s, n - 1) must be 0.975; the CDF is
// given code). Computed on the samples as measured and again on the same samples in another order
// (sorted, the smallest moved to the end), so that a statistic that forgets to sort fails whatever
// order the machine's timings came in, and on the samples as blocks of 10 calls (the mean is per call).
inline double latency_statistics_error(const std::vector<double>& samples) {
  namespace benchmark = torch::utils::benchmark;
  namespace definition = statistics_definitions;
  std::vector<double> reordered = samples;
  std::sort(reordered.begin(), reordered.end());
  std::rotate(reordered.begin(), reordered.begin() + 1, reordered.end());
  double error = 0;
  for (const std::vector<double>& x : {samples, reordered}) {
    const benchmark::Measurement m(1, x);
    const double n = static_cast<double>(x.size());
    const double s = definition::sample_stddev(x);
    error = std::max({error, relative_error(m.mean(), definition::mean(x)), relative_error(m.stddev(), s),
                      relative_error(m.median(), definition::interpolated_percentile(x, 50)),
                      relative_error(m.percentile(90), definition::interpolated_percentile(x, 90)),
                      relative_error(benchmark::nearest_rank_percentile(x, 50), definition::loadgen_percentile(x, 50)),
                      relative_error(benchmark::nearest_rank_percentile(x, 90), definition::loadgen_percentile(x, 90))});
    const benchmark::ConfidenceInterval ci = benchmark::confidence_interval(m, 0.95);
    error = std::max(error, relative_error((ci.lower + ci.upper) / 2, definition::mean(x)));
    const double t = ci.half_width() * std::sqrt(n) / s;
    // As a fraction of the tail (0.025): a z for a t on 150 samples is off by 4% of it, n for n - 1 by 0.02%.
    error = std::max(error, std::fabs(benchmark::student_t_cdf(t, n - 1) - 0.975) / 0.025);
  }
  constexpr int64_t kCallsPerBlock = 10;
  std::vector<double> blocks;
  for (const double v : samples) blocks.push_back(v * kCallsPerBlock);
  return std::max(error, relative_error(benchmark::Measurement(kCallsPerBlock, blocks).mean(),
                                        definition::mean(samples)));
}

// The largest relative error of YOUR welch_t_test's t, df and p-value (two-sided, the t CDF is
// given code) and of compare's speed-up (baseline mean / candidate mean), for a baseline and a
// candidate, and again for the baseline's first half against its second half (a p-value far from 0).
inline double welch_test_error(const std::vector<double>& baseline, const std::vector<double>& candidate) {
  namespace benchmark = torch::utils::benchmark;
  namespace definition = statistics_definitions;
  const auto half = baseline.begin() + static_cast<std::ptrdiff_t>(baseline.size() / 2);
  const std::vector<double> first(baseline.begin(), half), second(half, baseline.end());
  double error = 0;
  for (const auto& [a, b] : {std::make_pair(baseline, candidate), std::make_pair(first, second)}) {
    const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
    const double va = std::pow(definition::sample_stddev(a), 2) / na, vb = std::pow(definition::sample_stddev(b), 2) / nb;
    const double t = (definition::mean(a) - definition::mean(b)) / std::sqrt(va + vb);
    const double df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
    const double p = 2 * benchmark::student_t_cdf(-std::fabs(t), df);
    const benchmark::Measurement ma(1, a), mb(1, b);
    const benchmark::WelchTest yours = benchmark::welch_t_test(ma, mb);
    const benchmark::Comparison comparison = benchmark::compare(ma, mb);
    error = std::max({error, relative_error(yours.t, t), relative_error(yours.df, df), relative_error(yours.p_value, p),
                      relative_error(comparison.test.p_value, p),
                      relative_error(comparison.speedup, definition::mean(a) / definition::mean(b))});
  }
  return error;
}

// How many points YOUR pareto_frontier puts on the wrong side (on the frontier though dominated, or
// off it though no point dominates it) for `points` and `goals`.
inline int64_t pareto_frontier_errors(const std::vector<std::vector<double>>& points,
                                      const std::vector<torch::utils::benchmark::Goal>& goals) {
  const std::vector<int64_t> yours = torch::utils::benchmark::pareto_frontier(points, goals);
  int64_t errors = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < points.size() && !dominated; ++j)
      dominated = j != i && statistics_definitions::dominates(points[j], points[i], goals);
    const bool on_yours = std::find(yours.begin(), yours.end(), static_cast<int64_t>(i)) != yours.end();
    if (on_yours == dominated) ++errors;
  }
  return errors;
}

// pareto_frontier_errors of the milestone's own points, and of the same points with an exact copy of
// each (copies never dominate each other: both stay or both go), and with, for each point and each
// objective, a point as good as it everywhere but worse in that objective (dominated by a tie
// everywhere else; "worse" follows the objective's goal). The points are measured values.
inline int64_t pareto_probe_errors(const std::vector<std::vector<double>>& points,
                                   const std::vector<torch::utils::benchmark::Goal>& goals) {
  std::vector<std::vector<double>> with_copies = points, with_worse = points;
  for (const auto& point : points) {
    with_copies.push_back(point);
    for (size_t k = 0; k < goals.size(); ++k) {
      std::vector<double> worse = point;
      const double sign = goals[k] == torch::utils::benchmark::Goal::kMinimize ? 1.0 : -1.0;
      worse[k] += sign * (std::fabs(point[k]) * 0.5 + 0.01);
      with_worse.push_back(worse);
    }
  }
  return pareto_frontier_errors(points, goals) + pareto_frontier_errors(with_copies, goals) +
         pareto_frontier_errors(with_worse, goals);
}

}  // namespace milestone
