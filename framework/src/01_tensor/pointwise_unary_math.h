#pragma once
// The scalar special functions behind pointwise_unary.cpp's rows, in double (float results are
// rounded from them). digamma, trigamma, zeta and erfinv follow ATen's native/Math.h, which derives
// them from the Cephes Math Library (3-clause BSD, Copyright (c) 2018 Steven Moshier) and Gary
// Pavlis's erfinv, so that the numbers match LibTorch's.
#include <cmath>
#include <cstdint>
#include <limits>

namespace tinytorch {
namespace special {

constexpr double kPi = 3.14159265358979323846;

// Inverse of erf on (-1, 1): a rational first guess, then two Newton steps on erf(x) = y.
inline double erfinv(double y) {
  const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  const double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  const double d[2] = {3.543889200, 1.637067800};
  const double y_abs = std::fabs(y);
  if (y_abs > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y_abs == 1.0) return std::copysign(std::numeric_limits<double>::infinity(), y);
  double x;
  if (y_abs <= 0.7) {
    const double z = y * y;
    const double num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    const double dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;
    x = y * num / dem;
  } else {
    const double z = std::sqrt(-std::log((1.0 - y_abs) / 2.0));
    const double num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    const double dem = (d[1] * z + d[0]) * z + 1.0;
    x = std::copysign(num, y) / dem;
  }
  const double two_over_sqrt_pi = 2.0 / std::sqrt(kPi);
  x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  x = x - (std::erf(x) - y) / (two_over_sqrt_pi * std::exp(-x * x));
  return x;
}

// psi(x) = d/dx log Gamma(x): reflection for x < 0, recurrence up to 10, then the asymptotic series.
// T = float follows LibTorch's float kernel step by step (its results differ from rounded doubles
// near poles), T = double its double kernel.
template <typename T>
T digamma(T x) {
  const T psi_10 = static_cast<T>(2.25175258906672110764);
  if (x == 0) return std::copysign(std::numeric_limits<T>::infinity(), -x);
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<T>::quiet_NaN();
    double integral_part;
    const double fractional_part = std::modf(static_cast<double>(x), &integral_part);
    return digamma<T>(1 - x) - static_cast<T>(kPi / std::tan(kPi * fractional_part));
  }
  T result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + psi_10;
  const T coefficients[] = {
      static_cast<T>(8.33333333333333333333E-2),  static_cast<T>(-2.10927960927960927961E-2),
      static_cast<T>(7.57575757575757575758E-3),  static_cast<T>(-4.16666666666666666667E-3),
      static_cast<T>(3.96825396825396825397E-3),  static_cast<T>(-8.33333333333333333333E-3),
      static_cast<T>(8.33333333333333333333E-2)};
  T series = 0;
  if (x < static_cast<T>(1.0e17)) {
    const T z = 1 / (x * x);
    T polynomial = 0;
    for (T coefficient : coefficients) polynomial = polynomial * z + coefficient;
    series = z * polynomial;
  }
  return result + std::log(x) - (static_cast<T>(0.5) / x) - series;
}

// psi'(x), the derivative of digamma (T as for digamma).
template <typename T>
T trigamma(T x) {
  const T pi = static_cast<T>(kPi);
  T sign = +1;
  T result = 0;
  if (x < static_cast<T>(0.5)) {
    sign = -1;
    const T sin_pi_x = std::sin(pi * x);
    result -= (pi * pi) / (sin_pi_x * sin_pi_x);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const T ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (static_cast<T>(1. / 6) - ixx * (static_cast<T>(1. / 30) - ixx * static_cast<T>(1. / 42)))) / x;
  return sign * result;
}

// Hurwitz zeta: sum over k >= 0 of (k + q)^-x, by direct sum then Euler-Maclaurin.
inline double zeta(double x, double q) {
  const double machine_epsilon = 1.11022302462515654042E-16;
  const double coefficients[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                                 7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                                 -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18};
  if (x == 1) return std::numeric_limits<double>::infinity();
  if (x < 1) return std::numeric_limits<double>::quiet_NaN();
  if (q <= 0) {
    if (q == std::floor(q)) return std::numeric_limits<double>::infinity();
    if (x != std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
  }
  double s = std::pow(q, -x);
  double a = q;
  double b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (-machine_epsilon * s < b && b < machine_epsilon * s) return s;
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  double k = 0;
  for (double coefficient : coefficients) {
    a *= x + k;
    b /= w;
    double t = a * b / coefficient;
    s = s + t;
    t = std::fabs(t / s);
    if (t < machine_epsilon) return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

// The n-th derivative of digamma; single_precision: as LibTorch's float kernel for n = 0 and 1.
inline double polygamma(int64_t n, double x, bool single_precision = false) {
  if (n == 0) return single_precision ? digamma<float>(static_cast<float>(x)) : digamma<double>(x);
  if (n == 1) return single_precision ? trigamma<float>(static_cast<float>(x)) : trigamma<double>(x);
  return ((n % 2) ? 1.0 : -1.0) * std::exp(std::lgamma(static_cast<double>(n) + 1.0)) *
         zeta(static_cast<double>(n + 1), x);
}

// Modified Bessel functions of the first kind, orders 0 (even) and 1 (odd).
inline double bessel_i0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
inline double bessel_i1(double x) { return std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x); }

}  // namespace special
}  // namespace tinytorch
