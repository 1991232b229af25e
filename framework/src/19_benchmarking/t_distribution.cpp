// Module 19 (Benchmarking), given code: Student's t distribution function, through the regularised
// incomplete beta function.
//
//   P(T <= t) = 1 - I_x(df / 2, 1 / 2) / 2   for t >= 0, with x = df / (df + t^2)   (and symmetric)
//
// I_x(a, b) = B(x; a, b) / B(a, b) is evaluated by its continued fraction (Abramowitz and Stegun
// 26.5.8), which converges fast for x < (a + 1) / (a + b + 2); above that point the symmetry
// I_x(a, b) = 1 - I_{1-x}(b, a) brings x back below it. The fraction is evaluated front to back
// with the modified Lentz method (no need to know in advance how many terms it takes).
#include <cmath>
#include <limits>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

namespace {

// 1 / (1 + d_1 / (1 + d_2 / (1 + ...))), with d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
// and d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)): the factor that multiplies
// x^a (1 - x)^b / (a B(a, b)) to give I_x(a, b).
double incomplete_beta_fraction(double x, double a, double b) {
  constexpr int kMaxTerms = 1000;
  constexpr double kEpsilon = 1e-15;
  constexpr double kTiny = 1e-300;  // stands in for a zero denominator (Lentz)
  const auto guard = [](double value) { return std::abs(value) < kTiny ? kTiny : value; };
  double c = 1;                                  // ratio of successive numerators
  double d = 1 / guard(1 - (a + b) * x / (a + 1));  // inverse ratio of successive denominators
  double fraction = d;
  for (int m = 1; m <= kMaxTerms; ++m) {
    const double two_m = 2.0 * m;
    // The even step d_{2m}.
    double term = m * (b - m) * x / ((a + two_m - 1) * (a + two_m));
    d = 1 / guard(1 + term * d);
    c = guard(1 + term / c);
    fraction *= d * c;
    // The odd step d_{2m+1}.
    term = -(a + m) * (a + b + m) * x / ((a + two_m) * (a + two_m + 1));
    d = 1 / guard(1 + term * d);
    c = guard(1 + term / c);
    const double change = d * c;
    fraction *= change;
    if (std::abs(change - 1) < kEpsilon) return fraction;
  }
  return fraction;  // not converged to 1e-15 (a, b in the millions): still accurate to far more than a benchmark needs
}

}  // namespace

double regularized_incomplete_beta(double x, double a, double b) {
  TT_CHECK(x >= 0 && x <= 1, "regularized_incomplete_beta: x must be in [0, 1], got ", x);
  TT_CHECK(a > 0 && b > 0, "regularized_incomplete_beta: a and b must be positive, got a = ", a, ", b = ", b);
  if (x == 0) return 0;
  if (x == 1) return 1;
  // x^a (1 - x)^b / B(a, b), in logarithms (the Beta function overflows long before its log does).
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) return front * incomplete_beta_fraction(x, a, b) / a;
  return 1 - front * incomplete_beta_fraction(1 - x, b, a) / b;
}

double student_t_cdf(double t, double df) {
  TT_CHECK(df > 0, "student_t_cdf: degrees of freedom must be positive, got ", df);
  TT_CHECK(!std::isnan(t), "student_t_cdf: t is NaN");
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  // The mass beyond |t| on one side. For large |t| compute x as df / (df + t^2) directly: 1 - x
  // would lose every digit of a p-value like 1e-20.
  const double x = df / (df + t * t);
  const double tail = 0.5 * regularized_incomplete_beta(x, df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
