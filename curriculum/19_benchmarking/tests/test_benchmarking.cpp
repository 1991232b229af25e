// Module 19 (Benchmarking): the graded tests. Each case is tagged with its points ([points=N], 100
// in all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes
// (statistics.cpp, inference.cpp, pareto.cpp) through the public API torch::utils::benchmark.
// Expected values are worked by hand in the comments (the Student t and Welch figures were checked
// with 30-digit arithmetic), or computed here by independent oracles on seeded inputs: plain loops
// in long double for means and spreads, a sort for order statistics and quartiles, the given
// student_t_cdf to check a quantile (a CDF is easy to check, its inverse is the learner's), and an
// all-pairs dominance loop for the frontier.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/utils/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace B = torch::utils::benchmark;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The values of a 1-D float tensor as doubles (the tensor only carries seeded numbers).
std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// Doubles as a tensor, so that AllClose records them for grading.
torch::Tensor doubles(const std::vector<double>& values) { return torch::tensor(values, torch::kDouble); }

// Seeded samples: n values in [low, high], multiples of 1/8.
std::vector<double> random_samples(int64_t n, double low, double high) {
  return values_of(random_tensor({n}, low, high));
}

long double oracle_mean(const std::vector<double>& x) {
  long double sum = 0;
  for (double v : x) sum += v;
  return sum / static_cast<long double>(x.size());
}

long double oracle_variance(const std::vector<double>& x) {  // sample variance, n - 1
  const long double m = oracle_mean(x);
  long double sum = 0;
  for (double v : x) sum += (v - m) * (v - m);
  return sum / static_cast<long double>(x.size() - 1);
}

// numpy.percentile's rule, written out: sort, position q / 100 (n - 1), interpolate.
double oracle_quantile(std::vector<double> x, double q) {
  std::sort(x.begin(), x.end());
  const double position = q / 100 * static_cast<double>(x.size() - 1);
  const size_t below = static_cast<size_t>(position);
  const size_t above = std::min(below + 1, x.size() - 1);
  return x[below] + (x[above] - x[below]) * (position - static_cast<double>(below));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Section 2: mean, spread and the percentiles MLPerf reports (statistics.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("a Measurement's statistics on the fixture 2, 4, 4, 5, 10", "[points=10][statistics]") {
  // mean 25 / 5 = 5; squared distances 9 + 1 + 1 + 0 + 25 = 36; sample variance 36 / 4 = 9, so the
  // standard deviation is 3 (the population formula, 36 / 5, would give 2.683); sorted 2 4 4 5 10:
  // median 4, quartiles at positions 1 and 3: 4 and 5.
  const B::Measurement m(1, {2, 4, 4, 5, 10}, "fixture");
  CHECK(m.runs() == 5);
  CHECK(m.mean() == Approx(5.0).epsilon(1e-12));
  CHECK(m.stddev() == Approx(3.0).epsilon(1e-12));
  CHECK(m.median() == Approx(4.0));
  CHECK(m.min() == 2.0);
  CHECK(m.max() == 10.0);
  CHECK(m.iqr() == Approx(1.0));
  CHECK_THAT(doubles({m.mean(), m.stddev(), m.median(), m.iqr()}), AllClose(doubles({5, 3, 4, 1}), 1e-12));

  // Blocks of 4 calls: times are raw times / 4, and every statistic is per call.
  const B::Measurement blocks(4, {8, 16, 16, 20, 40});
  CHECK(blocks.times() == std::vector<double>{2, 4, 4, 5, 10});
  CHECK(blocks.mean() == Approx(5.0).epsilon(1e-12));
  CHECK(blocks.stddev() == Approx(3.0).epsilon(1e-12));

  // One time: a mean, and no spread to estimate.
  const B::Measurement once(1, {0.25});
  CHECK(once.mean() == Approx(0.25));
  CHECK(once.stddev() == 0.0);
  // Module 14's summary of the same times, in milliseconds.
  CHECK(m.latency_stats().median_ms == Approx(4000.0));

  // Seeded times in blocks of a seeded number of calls: every statistic per call, against long double
  // loops for the mean and the spread and a sort for the order statistics.
  const int64_t n = random_int(2, 40), number = random_int(1, 8);
  const std::vector<double> times = random_samples(n, 0.5, 4);
  std::vector<double> raw;
  for (double t : times) raw.push_back(t * static_cast<double>(number));  // multiples of 1/8: exact
  const B::Measurement seeded(number, raw, "seeded");
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  const double median = oracle_quantile(times, 50), iqr = oracle_quantile(times, 75) - oracle_quantile(times, 25);
  INFO("n = " << n << ", number_per_run = " << number);
  CHECK(seeded.runs() == n);
  CHECK(seeded.times() == times);
  CHECK_THAT(doubles({seeded.mean(), seeded.stddev(), seeded.median(), seeded.min(), seeded.max(), seeded.iqr()}),
             AllClose(doubles({static_cast<double>(oracle_mean(times)), static_cast<double>(std::sqrt(oracle_variance(times))),
                               median, sorted.front(), sorted.back(), iqr}),
                      1e-12));
  CHECK(seeded.latency_stats().median_ms == Approx(median * 1e3));
}

TEST_CASE("mean and sample standard deviation of seeded times", "[points=10][statistics]") {
  const int64_t n = random_int(5, 40), number = random_int(1, 8);
  const std::vector<double> times = random_samples(n, 1, 3);
  std::vector<double> raw;
  for (double t : times) raw.push_back(t * static_cast<double>(number));
  const B::Measurement m(number, raw, "seeded");
  const double mean = static_cast<double>(oracle_mean(times));
  const double stddev = static_cast<double>(std::sqrt(oracle_variance(times)));
  INFO("n = " << n << ", number_per_run = " << number);
  CHECK(m.mean() == Approx(mean).epsilon(1e-12));
  CHECK(m.stddev() == Approx(stddev).epsilon(1e-12));
  CHECK_THAT(doubles({m.mean(), m.stddev()}), AllClose(doubles({mean, stddev}), 1e-10));
  // Shifting every time shifts the mean and leaves the spread.
  std::vector<double> shifted;
  for (double t : raw) shifted.push_back(t + 0.5 * static_cast<double>(number));
  const B::Measurement moved(number, shifted);
  CHECK(moved.mean() == Approx(mean + 0.5).epsilon(1e-12));
  CHECK(moved.stddev() == Approx(stddev).epsilon(1e-9));
}

TEST_CASE("percentiles as MLPerf's LoadGen reports them", "[points=10][statistics][percentile]") {
  // {15, 20, 35, 40, 50} (given out of order): 0-based index floor(p n / 100), the last one at most.
  const std::vector<double> x{40, 15, 50, 35, 20};
  CHECK(B::nearest_rank_percentile(x, 0) == 15);    // index 0
  CHECK(B::nearest_rank_percentile(x, 5) == 15);    // floor(0.25) = 0
  CHECK(B::nearest_rank_percentile(x, 30) == 20);   // floor(1.5) = 1
  CHECK(B::nearest_rank_percentile(x, 40) == 35);   // exactly 2 (the textbook nearest rank would say 20)
  CHECK(B::nearest_rank_percentile(x, 41) == 35);   // floor(2.05) = 2
  CHECK(B::nearest_rank_percentile(x, 50) == 35);   // the median of an odd count
  CHECK(B::nearest_rank_percentile(x, 100) == 50);  // index 5 is past the end: the largest
  // 1..10: p90 is the 10th value, p50 the 6th (numpy's interpolation would say 9.1 and 5.5).
  const std::vector<double> ten{7, 3, 10, 1, 9, 2, 8, 4, 6, 5};
  CHECK(B::nearest_rank_percentile(ten, 90) == 10);
  CHECK(B::nearest_rank_percentile(ten, 50) == 6);
  CHECK(B::nearest_rank_percentile(ten, 99) == 10);
  // p / 100 * n would give 28.999999999999996 here, and index 28.
  std::vector<double> hundred(100);
  for (size_t i = 0; i < hundred.size(); ++i) hundred[i] = static_cast<double>(99 - i);
  CHECK(B::nearest_rank_percentile(hundred, 29) == 29);

  // Seeded samples: the oracle sorts and takes index p n / 100 in integer arithmetic.
  const int64_t n = random_int(20, 200);
  const std::vector<double> samples = random_samples(n, 0, 8);
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> got, expected;
  for (int64_t p : {1, 10, 25, 50, 75, 90, 95, 99, 100}) {
    got.push_back(B::nearest_rank_percentile(samples, static_cast<double>(p)));
    expected.push_back(sorted[static_cast<size_t>(std::min<int64_t>(n - 1, p * n / 100))]);
  }
  INFO("n = " << n);
  CHECK_THAT(doubles(got), AllClose(doubles(expected), 0, 0));
  // The report's latencies are these order statistics, in milliseconds.
  const B::BenchmarkMetrics metrics = B::BenchmarkMetrics::from_measurement("seeded", B::Measurement(1, samples), 0.5);
  CHECK(metrics.latency_p90_ms == Approx(expected[5] * 1e3));
  CHECK(metrics.latency_p99_ms == Approx(expected[7] * 1e3));
}

// ---------------------------------------------------------------------------------------------
// Section 3: how sure is a mean (inference.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Student t quantiles match the table and the closed forms", "[points=15][t]") {
  // Two-sided 95% critical values from any t table (the 0.975 quantile).
  CHECK(B::student_t_quantile(0.975, 1) == Approx(12.7062).margin(5e-4));
  CHECK(B::student_t_quantile(0.975, 4) == Approx(2.7764).margin(5e-4));
  CHECK(B::student_t_quantile(0.975, 10) == Approx(2.2281).margin(5e-4));
  CHECK(B::student_t_quantile(0.975, 30) == Approx(2.0423).margin(5e-4));
  CHECK(B::student_t_quantile(0.95, 10) == Approx(1.8125).margin(5e-4));
  CHECK(B::student_t_quantile(0.5, 7) == 0.0);
  // Symmetry: the lower tail is the mirror image.
  CHECK(B::student_t_quantile(0.025, 10) == Approx(-2.2281).margin(5e-4));

  // Closed forms: df = 1 (Cauchy) t = tan(pi (p - 1/2)); df = 2: t = (2p - 1) / sqrt(2 p (1 - p)).
  std::vector<double> got, expected;
  for (int i = 0; i < 4; ++i) {
    const double p = static_cast<double>(random_int(1, 999)) / 1000;
    got.push_back(B::student_t_quantile(p, 1));
    expected.push_back(std::tan(kPi * (p - 0.5)));
    got.push_back(B::student_t_quantile(p, 2));
    expected.push_back((2 * p - 1) / std::sqrt(2 * p * (1 - p)));
  }
  CHECK_THAT(doubles(got), AllClose(doubles(expected), 1e-9, 1e-9));

  // Any df, whole or not: the quantile is where the given CDF reaches p.
  for (int i = 0; i < 4; ++i) {
    const double df = static_cast<double>(random_int(2, 400)) / 4;
    const double p = static_cast<double>(random_int(501, 999)) / 1000;
    const double t = B::student_t_quantile(p, df);
    INFO("p = " << p << ", df = " << df << ", t = " << t);
    CHECK(B::student_t_cdf(t, df) == Approx(p).margin(1e-10));
  }
}

TEST_CASE("the confidence interval of a mean uses t with n - 1 degrees of freedom", "[points=10][ci]") {
  // {2, 4, 4, 5, 10}: mean 5, s 3, n 5; t(0.975, 4) = 2.776445 -> half width 2.776445 x 3 / sqrt 5
  // = 3.724992 (z = 1.96 would claim 2.6296: an interval 30% too narrow). At 90%, t(0.95, 4) = 2.131847
  // -> 2.860173.
  const B::Measurement m(1, {2, 4, 4, 5, 10});
  const B::ConfidenceInterval ci = B::confidence_interval(m);
  CHECK(ci.mean == Approx(5.0));
  CHECK(ci.half_width() == Approx(3.7249919946).epsilon(1e-9));
  CHECK(ci.lower == Approx(5 - 3.7249919946).epsilon(1e-9));
  CHECK(ci.upper == Approx(5 + 3.7249919946).epsilon(1e-9));
  CHECK(ci.level == 0.95);
  CHECK(B::confidence_interval(m, 0.90).half_width() == Approx(2.8601725991).epsilon(1e-9));

  // Seeded times: the half width h must satisfy P(T_{n-1} <= h sqrt(n) / s) = (1 + level) / 2.
  const int64_t n = random_int(3, 30);
  std::vector<double> times = random_samples(n, 1, 2);
  if (std::all_of(times.begin(), times.end(), [&](double t) { return t == times[0]; })) times[0] += 0.125;  // a spread
  const double level = static_cast<double>(random_int(80, 99)) / 100;
  const B::ConfidenceInterval seeded = B::confidence_interval(B::Measurement(1, times), level);
  const double mean = static_cast<double>(oracle_mean(times));
  const double s = static_cast<double>(std::sqrt(oracle_variance(times)));
  const double t = seeded.half_width() * std::sqrt(static_cast<double>(n)) / s;
  INFO("n = " << n << ", level = " << level << ", implied t = " << t);
  CHECK(B::student_t_cdf(t, static_cast<double>(n - 1)) == Approx((1 + level) / 2).margin(1e-9));
  CHECK(seeded.mean == Approx(mean).epsilon(1e-12));
  CHECK_THAT(doubles({seeded.lower + seeded.upper}), AllClose(doubles({2 * mean}), 1e-10));
  CHECK_THAT(doubles({seeded.half_width()}),
             AllClose(doubles({B::student_t_quantile((1 + level) / 2, static_cast<double>(n - 1)) * s /
                               std::sqrt(static_cast<double>(n))}), 1e-6));
  CHECK_THROWS_WITH(B::confidence_interval(B::Measurement(1, {1.0})), Catch::Contains("at least 2"));
}

// ---------------------------------------------------------------------------------------------
// Section 4: outliers (statistics.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Tukey's fences drop the times beyond 1.5 IQR", "[points=10][outliers]") {
  // Sorted: 10 11 12 13 14 15 16 17 18 27 40. Quartiles at positions 2.5 and 7.5: 12.5 and 17.5,
  // IQR 5, fences 12.5 - 7.5 = 5 and 17.5 + 7.5 = 25. 27 and 40 go; with 3 IQR (fences -2.5 and
  // 32.5) 27 would stay. Blocks of 2 calls: raw times are doubled, kept ones in measured order.
  const std::vector<double> measured{14, 40, 10, 12, 27, 11, 18, 13, 16, 15, 17};
  std::vector<double> raw;
  for (double t : measured) raw.push_back(2 * t);
  const B::OutlierRemoval result = B::remove_outliers(B::Measurement(2, raw, "fixture"));
  CHECK(result.removed == 2);
  CHECK(result.lower_fence == Approx(5.0));
  CHECK(result.upper_fence == Approx(25.0));
  CHECK(result.kept.times() == std::vector<double>{14, 10, 12, 11, 18, 13, 16, 15, 17});
  CHECK(result.kept.number_per_run() == 2);
  CHECK(result.kept.label() == "fixture");
  // A time exactly on a fence stays.
  const B::OutlierRemoval on_fence = B::remove_outliers(B::Measurement(1, {10, 11, 12, 13, 14, 15, 16, 17, 18, 25, 40}));
  CHECK(on_fence.removed == 1);
  CHECK(on_fence.kept.max() == 25.0);

  // Seeded times around 1-2 s with two slow ones (a context switch) at seeded places.
  const int64_t n = random_int(20, 60);
  std::vector<double> times = random_samples(n, 1, 2);
  times[static_cast<size_t>(random_int(0, n - 1))] = 2 + 0.125 * static_cast<double>(random_int(4, 12));
  times[static_cast<size_t>(random_int(0, n - 1))] = 10;
  const double q1 = oracle_quantile(times, 25), q3 = oracle_quantile(times, 75);
  const double low = q1 - 1.5 * (q3 - q1), high = q3 + 1.5 * (q3 - q1);
  std::vector<double> kept;
  for (double t : times) {
    if (t >= low && t <= high) kept.push_back(t);
  }
  const B::OutlierRemoval seeded = B::remove_outliers(B::Measurement(1, times));
  INFO("n = " << n << ", fences " << low << " and " << high);
  CHECK(seeded.removed == n - static_cast<int64_t>(kept.size()));
  CHECK_THAT(doubles(seeded.kept.times()), AllClose(doubles(kept), 0, 0));
  CHECK_THAT(doubles({seeded.lower_fence, seeded.upper_fence}), AllClose(doubles({low, high}), 1e-12));
}

// ---------------------------------------------------------------------------------------------
// Section 5: is B faster than A (inference.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Welch's t-test against a hand-computed example", "[points=15][welch]") {
  // a = {2, 4, 4, 5, 10}: mean 5, s^2 9, n 5 -> v_a = 1.8.  b = {1, 2, 3}: mean 2, s^2 1, n 3 -> v_b = 1/3.
  // t = 3 / sqrt(2.1333) = 2.053960; df = 2.1333^2 / (1.8^2 / 4 + (1/3)^2 / 2) = 5.258023;
  // p = 2 P(T_5.258 <= -2.05396) = 0.0923978: not significant at 5%. (Student's pooled test would say
  // t = 1.632 with 6 df.)
  const B::Measurement a(1, {2, 4, 4, 5, 10}, "a"), b(1, {1, 2, 3}, "b");
  const B::WelchTest test = B::welch_t_test(a, b);
  CHECK(test.t == Approx(2.0539595906).epsilon(1e-9));
  CHECK(test.df == Approx(5.2580231065).epsilon(1e-9));
  CHECK(test.p_value == Approx(0.0923977879).epsilon(1e-7));
  // The other way round: t changes sign, nothing else.
  const B::WelchTest reversed = B::welch_t_test(b, a);
  CHECK(reversed.t == Approx(-2.0539595906).epsilon(1e-9));
  CHECK(reversed.p_value == Approx(test.p_value).epsilon(1e-12));

  // Seeded samples of different sizes and spreads.
  const int64_t na = random_int(4, 30), nb = random_int(4, 30);
  const std::vector<double> xa = random_samples(na, 1, 3), xb = random_samples(nb, 1.5, 2.5);
  const long double va = oracle_variance(xa) / na, vb = oracle_variance(xb) / nb;
  const double t = static_cast<double>((oracle_mean(xa) - oracle_mean(xb)) / std::sqrt(va + vb));
  const double df = static_cast<double>((va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1)));
  const B::WelchTest seeded = B::welch_t_test(B::Measurement(1, xa), B::Measurement(1, xb));
  INFO("n_a = " << na << ", n_b = " << nb);
  CHECK_THAT(doubles({seeded.t, seeded.df}), AllClose(doubles({t, df}), 1e-9, 1e-12));
  CHECK(seeded.p_value == Approx(2 * B::student_t_cdf(-std::abs(t), df)).margin(1e-12));
}

TEST_CASE("compare reports the speed-up with its confidence interval", "[points=10][compare]") {
  // Baseline a = {2, 4, 4, 5, 10} s, candidate b = {1, 2, 3} s: speed-up 5 / 2 = 2.5. Relative
  // squared errors u_a = 9 / (5 x 25) = 0.072, u_b = 1 / (3 x 4) = 0.08333; se of log r = 0.394124;
  // df = 5.060260, t = 2.561402; interval 2.5 exp(-+ 1.009512) = 0.910995 to 6.860631: it holds 1,
  // as Welch's p = 0.092 says: not significant.
  const B::Comparison c = B::compare(B::Measurement(1, {2, 4, 4, 5, 10}), B::Measurement(1, {1, 2, 3}));
  CHECK(c.speedup == Approx(2.5));
  CHECK(c.speedup_lower == Approx(0.9109949815).epsilon(1e-8));
  CHECK(c.speedup_upper == Approx(6.8606305490).epsilon(1e-8));
  CHECK(c.test.p_value == Approx(0.0923977879).epsilon(1e-7));
  CHECK_FALSE(c.significant());

  // Twice as fast and steady: the interval excludes 1 and the test agrees.
  const B::Measurement slow(1, {10.0, 10.4, 9.8, 10.2, 10.1, 9.9}), fast(1, {5.1, 4.9, 5.0, 5.2, 4.8, 5.0});
  const B::Comparison clear = B::compare(slow, fast);
  CHECK(clear.speedup == Approx(2.0133333333).epsilon(1e-9));
  CHECK(clear.speedup_lower == Approx(1.9487264525).epsilon(1e-8));
  CHECK(clear.speedup_upper == Approx(2.0800821510).epsilon(1e-8));
  CHECK(clear.significant());
  // The same pair the other way round: a slow-down, the interval inverted.
  const B::Comparison back = B::compare(fast, slow);
  CHECK(back.speedup == Approx(1 / 2.0133333333).epsilon(1e-9));
  CHECK(back.speedup_upper == Approx(1 / 1.9487264525).epsilon(1e-8));
  CHECK_THAT(doubles({c.speedup, c.speedup_lower, c.speedup_upper, clear.speedup_lower, clear.speedup_upper}),
             AllClose(doubles({2.5, 0.9109949815, 6.8606305490, 1.9487264525, 2.0800821510}), 1e-8));

  // Seeded baseline and candidate at a seeded level. The speed-up is the ratio of the means; the
  // interval is symmetric in log r with half width t se, se^2 = u_a + u_b (u = s^2 / (n mean^2)),
  // so the t it implies must sit where the given CDF reaches (1 + level) / 2 at the Welch-Satterthwaite
  // df of the u's; the test inside is Welch's, on the same samples.
  const int64_t na = random_int(3, 30), nb = random_int(3, 30);
  std::vector<double> xa = random_samples(na, 2, 4), xb = random_samples(nb, 1, 3);
  if (std::all_of(xa.begin(), xa.end(), [&](double t) { return t == xa[0]; })) xa[0] += 0.125;  // a spread
  if (std::all_of(xb.begin(), xb.end(), [&](double t) { return t == xb[0]; })) xb[0] += 0.125;
  const double level = static_cast<double>(random_int(80, 99)) / 100;
  const B::Comparison seeded = B::compare(B::Measurement(1, xa), B::Measurement(1, xb), level);
  const long double ma = oracle_mean(xa), mb = oracle_mean(xb);
  const long double ua = oracle_variance(xa) / (na * ma * ma), ub = oracle_variance(xb) / (nb * mb * mb);
  const double se = static_cast<double>(std::sqrt(ua + ub));
  const double df = static_cast<double>((ua + ub) * (ua + ub) / (ua * ua / (na - 1) + ub * ub / (nb - 1)));
  const double speedup = static_cast<double>(ma / mb);
  const long double va = oracle_variance(xa) / na, vb = oracle_variance(xb) / nb;
  const double welch_t = static_cast<double>((ma - mb) / std::sqrt(va + vb));
  const double welch_df = static_cast<double>((va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1)));
  const double implied_t = std::log(seeded.speedup_upper / seeded.speedup) / se;
  INFO("n_a = " << na << ", n_b = " << nb << ", level = " << level << ", implied t = " << implied_t);
  CHECK_THAT(doubles({seeded.speedup, std::sqrt(seeded.speedup_lower * seeded.speedup_upper)}),
             AllClose(doubles({speedup, speedup}), 1e-9));
  CHECK(B::student_t_cdf(implied_t, df) == Approx((1 + level) / 2).margin(1e-9));
  CHECK(seeded.speedup_lower < seeded.speedup);
  CHECK_THAT(doubles({seeded.test.t, seeded.test.df}), AllClose(doubles({welch_t, welch_df}), 1e-9, 1e-12));
  CHECK(seeded.test.p_value == Approx(2 * B::student_t_cdf(-std::abs(welch_t), welch_df)).margin(1e-12));
}

// ---------------------------------------------------------------------------------------------
// Section 6: the Pareto frontier (pareto.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("the Pareto frontier keeps ties and duplicates and drops the dominated", "[points=10][pareto]") {
  using G = B::Goal;
  // Latency (lower is better) and accuracy (higher is better): fast, accurate, dominated, balanced.
  CHECK(B::pareto_frontier({{5, 0.80}, {40, 0.94}, {40, 0.70}, {12, 0.90}}, {G::kMinimize, G::kMaximize}) ==
        std::vector<int64_t>{0, 1, 3});
  // Equal latency, lower accuracy: dominated (no worse in one, worse in the other).
  CHECK(B::pareto_frontier({{5, 0.80}, {5, 0.70}}, {G::kMinimize, G::kMaximize}) == std::vector<int64_t>{0});
  // Identical models: neither is better anywhere, both stay.
  CHECK(B::pareto_frontier({{10, 0.9}, {10, 0.9}, {20, 0.95}, {20, 0.90}}, {G::kMinimize, G::kMaximize}) ==
        std::vector<int64_t>{0, 1, 2});
  // One objective: every point at the minimum.
  CHECK(B::pareto_frontier({{3}, {1}, {1}, {2}}, {G::kMinimize}) == std::vector<int64_t>{1, 2});
  CHECK(B::pareto_frontier({{3}, {1}, {3}, {2}}, {G::kMaximize}) == std::vector<int64_t>{0, 2});
  CHECK(B::pareto_frontier({}, {G::kMinimize}).empty());
  CHECK_THROWS_WITH(B::pareto_frontier({{1, 2}, {3}}, {G::kMinimize, G::kMaximize}), Catch::Contains("point 1"));

  // Seeded table of models: latency, bytes (both lower is better), accuracy (higher), on a coarse
  // grid so that ties are common. Oracle: every pair.
  const int64_t n = random_int(8, 30);
  const std::vector<G> goals{G::kMinimize, G::kMinimize, G::kMaximize};
  std::vector<std::vector<double>> points;
  for (int64_t i = 0; i < n; ++i) {
    points.push_back({static_cast<double>(random_int(1, 5)), static_cast<double>(random_int(1, 4)),
                      static_cast<double>(random_int(1, 5))});
  }
  std::vector<int64_t> expected;
  for (int64_t p = 0; p < n; ++p) {
    bool dominated = false;
    for (int64_t q = 0; q < n; ++q) {
      const auto& a = points[static_cast<size_t>(q)];
      const auto& b = points[static_cast<size_t>(p)];
      const bool no_worse = a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2];
      const bool better = a[0] < b[0] || a[1] < b[1] || a[2] > b[2];
      if (no_worse && better) dominated = true;
    }
    if (!dominated) expected.push_back(p);
  }
  INFO("n = " << n);
  CHECK(B::pareto_frontier(points, goals) == expected);
}
