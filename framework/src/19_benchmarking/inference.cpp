// Module 19 (Benchmarking), lesson sections "3. How sure is a mean: Student's t" and "5. Is B faster
// than A". From a handful of noisy timings to a statement with a confidence attached: an interval for
// the true mean, and a test of whether two means differ. The t distribution's CDF is given
// (t_distribution.cpp); its inverse is yours.
#include <cmath>
#include <cstdint>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

// TODO: student_t_quantile -- the inverse of the given student_t_cdf (section 3, "How sure is a
//   mean: Student's t"): the t with student_t_cdf(t, df) == probability, to about 1e-12 relative,
//   for any df > 0, whole or not. Negative for probability < 0.5, 0 at 0.5 (the distribution is
//   symmetric about 0).
//   Examples: (0.975, 10) -> 2.2281; (0.975, 1) -> 12.7062; (0.025, 10) -> -2.2281.
double student_t_quantile(double probability, double df) {
  TT_CHECK(probability > 0 && probability < 1, "student_t_quantile: probability must be in (0, 1), got ",
           probability, "; a two-sided 95% interval uses 0.975");
  TT_CHECK(df > 0, "student_t_quantile: degrees of freedom must be positive, got ", df,
           "; a mean of n samples has n - 1");
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::student_t_quantile" lesson="3. How sure is a mean: Student's t"
  if (probability == 0.5) return 0.0;
  const double p = probability > 0.5 ? probability : 1 - probability;
  double lower = 0, upper = 1;
  while (student_t_cdf(upper, df) < p) {
    lower = upper;
    upper *= 2;
  }
  for (int step = 0; step < 200 && upper - lower > 1e-12 * upper; ++step) {
    const double middle = (lower + upper) / 2;
    if (student_t_cdf(middle, df) < p) {
      lower = middle;
    } else {
      upper = middle;
    }
  }
  const double t = (lower + upper) / 2;
  return probability > 0.5 ? t : -t;
  // END SOLUTION
}

// TODO: confidence_interval -- the two-sided `level` confidence interval of m's true mean (section
//   3): mean +- t * s / sqrt(n), with s the sample standard deviation and t Student's quantile that
//   leaves (1 - level) / 2 in each tail, with n - 1 degrees of freedom. Fill mean, lower and upper.
//   Example: {2, 4, 4, 5, 10} at 95%: t(0.975, 4) = 2.7764, half width 2.7764 * 3 / sqrt(5) = 3.7249.
ConfidenceInterval confidence_interval(const Measurement& m, double level) {
  TT_CHECK(level > 0 && level < 1, "confidence_interval: level must be in (0, 1), got ", level, " (0.95 for 95%)");
  TT_CHECK(m.runs() >= 2, "confidence_interval: '", m.label(), "' has ", m.runs(),
           " time(s); an interval needs at least 2 (one time has no spread): measure more runs");
  ConfidenceInterval interval;
  interval.level = level;
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::confidence_interval" lesson="3. How sure is a mean: Student's t"
  const double n = static_cast<double>(m.runs());
  const double t = student_t_quantile((1 + level) / 2, n - 1);
  const double half = t * m.stddev() / std::sqrt(n);
  interval.mean = m.mean();
  interval.lower = interval.mean - half;
  interval.upper = interval.mean + half;
  // END SOLUTION
  return interval;
}

// TODO: welch_t_test -- Welch's unequal-variance t-test of a's mean against b's (section 5, "Is B
//   faster than A"): the statistic t (positive when a's mean is larger), its Welch-Satterthwaite
//   degrees of freedom (not a whole number in general) and the two-sided p-value P(|T| >= |t|) from
//   the given student_t_cdf. The variances are not pooled.
//   Example: a = {2, 4, 4, 5, 10}, b = {1, 2, 3} -> t 2.053960, df 5.258023, p 0.0923978.
WelchTest welch_t_test(const Measurement& a, const Measurement& b) {
  TT_CHECK(a.runs() >= 2 && b.runs() >= 2, "welch_t_test: each side needs at least 2 times ('", a.label(), "' has ",
           a.runs(), ", '", b.label(), "' has ", b.runs(), "): measure more runs");
  TT_CHECK(a.stddev() > 0 || b.stddev() > 0, "welch_t_test: both '", a.label(), "' and '", b.label(),
           "' have no spread at all (every time equal): the clock is too coarse for them; time blocks of "
           "more calls (Timer::repeat's number)");
  WelchTest test;
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::welch_t_test" lesson="5. Is B faster than A"
  const double na = static_cast<double>(a.runs()), nb = static_cast<double>(b.runs());
  const double va = a.stddev() * a.stddev() / na, vb = b.stddev() * b.stddev() / nb;
  test.t = (a.mean() - b.mean()) / std::sqrt(va + vb);
  test.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  test.p_value = 2 * student_t_cdf(-std::abs(test.t), test.df);
  // END SOLUTION
  return test;
}

// TODO: compare -- the speed-up of candidate over baseline with its `level` confidence interval
//   (section 5): speedup = mean_baseline / mean_candidate (> 1: the candidate is faster); the
//   interval is the one section 5 derives on log(speedup) (relative errors of the two means, Welch-
//   Satterthwaite degrees of freedom, Student's t), so it is symmetric in log. comparison.test holds
//   welch_t_test(baseline, candidate).
//   Example: baseline {2, 4, 4, 5, 10}, candidate {1, 2, 3} at 95% -> speedup 2.5, interval
//   0.910995 to 6.860631, p 0.0924: not significant.
Comparison compare(const Measurement& baseline, const Measurement& candidate, double level) {
  TT_CHECK(level > 0 && level < 1, "compare: level must be in (0, 1), got ", level, " (0.95 for 95%)");
  TT_CHECK(baseline.mean() > 0 && candidate.mean() > 0, "compare: both means must be positive to form a speed-up "
           "(got ", baseline.mean(), " s and ", candidate.mean(), " s)");
  Comparison comparison;
  comparison.level = level;
  // BEGIN SOLUTION name="tinytorch::utils::benchmark::compare" lesson="5. Is B faster than A"
  comparison.test = welch_t_test(baseline, candidate);
  const double nb = static_cast<double>(baseline.runs()), nc = static_cast<double>(candidate.runs());
  const double mb = baseline.mean(), mc = candidate.mean();
  const double ub = baseline.stddev() * baseline.stddev() / (nb * mb * mb);
  const double uc = candidate.stddev() * candidate.stddev() / (nc * mc * mc);
  const double se = std::sqrt(ub + uc);
  const double df = (ub + uc) * (ub + uc) / (ub * ub / (nb - 1) + uc * uc / (nc - 1));
  const double t = student_t_quantile((1 + level) / 2, df);
  comparison.speedup = mb / mc;
  comparison.speedup_lower = comparison.speedup * std::exp(-t * se);
  comparison.speedup_upper = comparison.speedup * std::exp(t * se);
  // END SOLUTION
  return comparison;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
