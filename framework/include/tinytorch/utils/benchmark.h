#pragma once
// Module 19 (Benchmarking): measurements that say how sure they are.
//
// PyTorch's spelling is torch.utils.benchmark (Timer, Measurement); LibTorch has no C++ counterpart,
// so TinyTorch puts it under tinytorch::utils::benchmark, and `torch::utils::benchmark::Timer`
// reads as it does in Python:
//
//   namespace B = torch::utils::benchmark;
//   B::Timer timer([&] { torch::mm(a, b); }, "mm 256");
//   B::Measurement m = timer.blocked_autorange(/*min_run_time=*/0.5);  // Python: blocked_autorange(min_run_time=0.5)
//   B::ConfidenceInterval ci = B::confidence_interval(m);                 // Student's t, 95%
//   B::Comparison c = B::compare(slow, fast);                              // Welch's t-test, speed-up with CI
//
// Python -> here:
//   Timer(stmt=..., label=..., description=...)     Timer(std::function<void()>, label, description)
//   timer.timeit(number) / blocked_autorange(...)   the same names; timeit.Timer.repeat -> Timer::repeat
//   Measurement .times .mean .median .iqr           times(), mean(), median(), iqr(); also stddev(),
//                                                   min(), max(), percentile(p) (numpy's linear rule)
//   Compare(results).print()                        Compare(results).print() (a row per measurement)
//   scipy.stats.t.ppf / .cdf                        student_t_quantile, student_t_cdf
//   scipy.stats.ttest_ind(a, b, equal_var=False)    welch_t_test
//   scipy.special.betainc                           regularized_incomplete_beta
// confidence_interval, remove_outliers, compare, pareto_frontier, save_pareto_svg and BenchmarkReport
// have no PyTorch counterpart; they follow the original TinyTorch course's benchmarking module
// (BenchmarkResult's CI, pareto_frontier, the MLPerf-Tiny-shaped report).
//
// Module 14's instruments are reused, not repeated: Measurement::percentile is module 14's
// profiling::percentile, and latency_stats() hands the times to profiling::summarize_latencies.
//
// Learner-written (module 19): Measurement::mean and stddev, nearest_rank_percentile and
// remove_outliers (statistics.cpp); student_t_quantile, confidence_interval, welch_t_test and compare
// (inference.cpp); pareto_frontier (pareto.cpp). Given: the Timer (and repeat_interleaved), the t
// distribution's CDF, the printing and Compare, the Pareto plot and the JSON report.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <string>
#include <vector>

#include "tinytorch/profiling.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

// ---- Measurement ----

// Timings of one statement. Each raw time is one block of number_per_run back-to-back calls, in
// seconds; times() are the raw times divided by number_per_run: seconds per call, one per block.
// Every statistic is over times(), so a Measurement of any other quantity (accuracies, bytes) is
// Measurement(1, values).
class Measurement {
 public:
  // number_per_run >= 1, raw_times not empty, every raw time finite and >= 0.
  Measurement(int64_t number_per_run, std::vector<double> raw_times, std::string label = "",
              std::string description = "");

  int64_t number_per_run() const { return number_per_run_; }
  const std::vector<double>& raw_times() const { return raw_times_; }
  const std::vector<double>& times() const { return times_; }
  // How many times (blocks) there are: the n of every statistic below.
  int64_t runs() const { return static_cast<int64_t>(times_.size()); }
  const std::string& label() const { return label_; }
  const std::string& description() const { return description_; }

  double mean() const;    // [module 19: yours] sum of times / n
  double stddev() const;  // [module 19: yours] sample standard deviation (divides by n - 1); 0 when n == 1
  double min() const;
  double max() const;
  // The p-th percentile (0 <= p <= 100), numpy's linear interpolation: module 14's profiling::percentile.
  double percentile(double p) const;
  double median() const { return percentile(50); }
  // Interquartile range: percentile(75) - percentile(25).
  double iqr() const;

  // Module 14's summary (count, mean, min, max, p10/p50/p90/p99) of the times, in milliseconds.
  profiling::LatencyStats latency_stats() const;

  // PyTorch's text: the label, then median, IQR, mean +- stddev and the counts, in a readable unit.
  std::string str() const;

 private:
  int64_t number_per_run_;
  std::vector<double> raw_times_;
  std::vector<double> times_;
  std::string label_, description_;
};

std::ostream& operator<<(std::ostream& out, const Measurement& m);

// MLPerf LoadGen's percentile (no interpolation): the sorted samples' element at 0-based index
// floor(p n / 100), the largest for p == 100. The reported latency is one some query had.
//   nearest_rank_percentile({15, 20, 35, 40, 50}, 30) == 20; (..., 40) == 35; (..., 100) == 50
double nearest_rank_percentile(std::vector<double> samples, double p);  // [module 19: yours]

// Tukey's fences: Q1 - 1.5 IQR and Q3 + 1.5 IQR (quartiles by numpy's rule); times outside them are
// outliers (a context switch, a page fault), times on a fence are kept.
struct OutlierRemoval {
  Measurement kept;          // the blocks whose time is within the fences, in their measured order
  int64_t removed = 0;       // how many blocks were dropped
  double lower_fence = 0;    // seconds per call
  double upper_fence = 0;
};
OutlierRemoval remove_outliers(const Measurement& m);  // [module 19: yours]

// ---- Student's t ----

// I_x(a, b), the regularised incomplete beta function (scipy.special.betainc), 0 <= x <= 1, a, b > 0,
// by its continued fraction.
double regularized_incomplete_beta(double x, double a, double b);
// P(T <= t) for Student's t with df > 0 degrees of freedom (df need not be a whole number).
double student_t_cdf(double t, double df);
// The t with student_t_cdf(t, df) == probability (0 < probability < 1): the inverse of the CDF.
//   student_t_quantile(0.975, 10) == 2.228 (to 3 decimals); student_t_quantile(0.5, df) == 0
double student_t_quantile(double probability, double df);  // [module 19: yours]

// The interval that holds the true mean time with the given confidence: mean +- t s / sqrt(n), t the
// (1 + level) / 2 quantile of Student's t with n - 1 degrees of freedom. Needs n >= 2.
struct ConfidenceInterval {
  double mean = 0, lower = 0, upper = 0;
  double level = 0.95;
  double half_width() const { return (upper - lower) / 2; }
  bool contains(double value) const { return lower <= value && value <= upper; }
};
ConfidenceInterval confidence_interval(const Measurement& m, double level = 0.95);  // [module 19: yours]

// ---- Comparing two measurements ----

// Welch's two-sample t-test (unequal variances), two-sided:
//   t = (mean_a - mean_b) / sqrt(s_a^2 / n_a + s_b^2 / n_b), df by Welch-Satterthwaite,
//   p_value = P(|T_df| >= |t|). Needs n >= 2 on both sides.
struct WelchTest {
  double t = 0, df = 0, p_value = 1;
};
WelchTest welch_t_test(const Measurement& a, const Measurement& b);  // [module 19: yours]

// baseline against candidate: speedup = baseline.mean() / candidate.mean() (> 1: the candidate is
// faster), its confidence interval from the delta method on log(speedup), and Welch's test.
struct Comparison {
  WelchTest test;
  double speedup = 1, speedup_lower = 1, speedup_upper = 1;
  double level = 0.95;
  // The difference is significant at alpha (the test's p-value is below it).
  bool significant(double alpha = 0.05) const { return test.p_value < alpha; }
  std::string str() const;  // "2.13x faster (95% CI 2.01x to 2.26x), Welch t = 25.1, df = 17.9, p = 3.1e-15"
};
Comparison compare(const Measurement& baseline, const Measurement& candidate,
                   double level = 0.95);  // [module 19: yours]

// ---- Timer ----

// Times a statement, a callable that does the work (capture what it needs). Warm-up is part of
// each method: the first calls of anything pay for cold caches, page faults and the allocator's
// empty free lists.
class Timer {
 public:
  explicit Timer(std::function<void()> stmt, std::string label = "", std::string description = "");

  // One block of `number` calls (PyTorch's default), after max(number / 100, 2) warm-up calls:
  // a Measurement with one time, the block's time / number.
  Measurement timeit(int64_t number = 1000000) const;
  // Python's timeit.Timer.repeat: `warmup` untimed calls, then `repeat` blocks of `number` calls,
  // each block timed on its own. warmup = 0 keeps the cold first call in the measurement.
  Measurement repeat(int64_t repeat, int64_t number = 1, int64_t warmup = 0) const;
  // PyTorch's: picks a block size (calls per block, a power of 10) at which a block takes at least
  // 0.1% of min_run_time and the clock's own cost is negligible (those trial blocks are the warm-up),
  // then times blocks until min_run_time seconds have passed. Blocks are the samples.
  Measurement blocked_autorange(double min_run_time = 0.2) const;

  // Seconds for `number` back-to-back calls, untreated: the one primitive the methods above share.
  double time_block(int64_t number) const;
  const std::string& label() const { return label_; }
  const std::string& description() const { return description_; }

 private:
  std::function<void()> stmt_;
  std::string label_, description_;
};

// Times several statements block by block in turn (A B C A B C ...): `warmup` untimed calls of each,
// then `repeat` rounds of one block of `number` calls per timer. A machine whose speed drifts (other
// users' jobs, the clock frequency) then slows every candidate alike, where timing all of A before all
// of B would charge the drift to one of them. One Measurement per timer, in order.
std::vector<Measurement> repeat_interleaved(const std::vector<Timer>& timers, int64_t repeat, int64_t number = 1,
                                           int64_t warmup = 0);

// PyTorch's Compare: measurements side by side, one table per label (in order of first appearance),
// a row per measurement named by its description, every time in one unit:
//   [------------------- mm -------------------]
//          |  median  |   IQR  |  mean +- 95% CI  |  runs
//     64   |   7.54   |   0.03 |   7.60 +- 0.02   | 30 x 10
//     80   |  15.16   |   0.05 |  15.30 +- 0.04   | 30 x 10
//   Times are in microseconds (us).
// PyTorch's rows and columns are sub_label x description; here a row is a measurement, and the
// columns are its statistics (the interval is Student's t, blank for a single time).
class Compare {
 public:
  explicit Compare(std::vector<Measurement> results);
  std::string str() const;
  void print() const;  // str() to stdout

 private:
  std::vector<Measurement> results_;
};

// ---- Pareto frontier ----

enum class Goal { kMinimize, kMaximize };

// The indices (ascending) of the points no other point dominates. q dominates p when q is at least
// as good as p in every objective and strictly better in one; goals[k] says which way objective k
// is better. Equal points do not dominate each other, so duplicates on the frontier are all kept.
// Every point has goals.size() values.
//   latency (min), accuracy (max): {5, 0.80}, {40, 0.94}, {40, 0.70}, {12, 0.90} -> {0, 1, 3}
std::vector<int64_t> pareto_frontier(const std::vector<std::vector<double>>& points,
                                     const std::vector<Goal>& goals);  // [module 19: yours]

struct ParetoPoint {
  std::string label;
  double x = 0, y = 0;
};
// A scatter of the points with the frontier (pareto_frontier of x and y with these goals) drawn
// as a step line through its points; dominated points grey. Axes are linear, with a margin.
void save_pareto_svg(const std::string& path, const std::vector<ParetoPoint>& points, const std::string& x_label,
                     Goal x_goal, const std::string& y_label, Goal y_goal, const std::string& title = "");

// ---- The report (MLPerf Tiny's shape) ----

// Where a benchmark ran. current() reads this machine (uname, /proc/cpuinfo, the thread count) and
// the compiler TinyTorch was built with.
struct SystemInfo {
  std::string os;            // "Linux 6.1.0-18-amd64 x86_64"
  std::string cpu;           // "AMD EPYC 7B13", or "unknown"
  int64_t cpu_count = 0;     // logical CPUs
  int64_t threads = 0;       // torch::get_num_threads()
  std::string compiler;      // "GCC 12.2.0", "Clang 14.0.6"
  static SystemInfo current();
};

// One benchmark of a report, MLPerf Tiny's single-stream scenario: one sample per query, latencies
// as MLPerf reports them (nearest_rank_percentile), throughput = samples per second at the mean.
// Accuracy and targets are NaN when not measured or not set (null in the JSON).
struct BenchmarkMetrics {
  std::string name;                     // "image_classification", "keyword_spotting", "digits", ...
  std::string scenario = "SingleStream";
  int64_t samples = 0;                  // latency measurements
  double latency_mean_ms = 0, latency_p50_ms = 0, latency_p90_ms = 0, latency_p99_ms = 0;
  double throughput_per_s = 0;          // queries (of batch_size samples) / s
  double accuracy = std::numeric_limits<double>::quiet_NaN();           // fraction in [0, 1]
  int64_t memory_bytes = 0;             // the model's weights (or its peak, say which in notes)
  double target_accuracy = std::numeric_limits<double>::quiet_NaN();
  // Gated on p90. Our addition: MLPerf Tiny sets accuracy targets only, and SingleStream has no latency limit.
  double target_latency_ms = std::numeric_limits<double>::quiet_NaN();
  std::string notes;

  // From a latency measurement (seconds per query of batch_size samples).
  static BenchmarkMetrics from_measurement(const std::string& name, const Measurement& latency,
                                           double accuracy = std::numeric_limits<double>::quiet_NaN(),
                                           int64_t memory_bytes = 0, int64_t batch_size = 1);
  bool accuracy_met() const;  // true when no target is set
  bool latency_met() const;   // p90 <= target; true when no target is set
  bool compliant() const { return accuracy_met() && latency_met(); }
};

struct BenchmarkReport {
  std::string model_name;
  std::string division = "open";  // MLPerf's: "closed" (the reference model, only the system varies) or "open"
  std::string timestamp;          // ISO 8601 UTC; now() when empty at to_json()
  SystemInfo system;
  std::vector<BenchmarkMetrics> benchmarks;

  // The JSON text (format "tinytorch-benchmark-report", version 1): model_name, division, timestamp,
  // system, benchmarks (an object keyed by name, in order) and a summary (total, compliant,
  // compliance_rate, overall_compliant).
  std::string to_json() const;
  void save(const std::string& path) const;
  // Reads what to_json wrote; throws tinytorch::Error naming the field (or the line and column of
  // malformed JSON) and what it should be.
  static BenchmarkReport from_json(const std::string& text);
  static BenchmarkReport load(const std::string& path);
};

// "2026-12-04T14:03:59Z".
std::string utc_timestamp();

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
