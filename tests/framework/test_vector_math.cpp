// The branch-free float exp and erfc behind the GELU kernels (framework/src/runtime/vector_math.h),
// against <cmath> in double precision over their whole range, and GELU's forward and backward on a
// dense grid against the same formulas in double.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "runtime/vector_math.h"
#include "test_helpers.h"

namespace vm = tinytorch::vector_math;

TEST_CASE("exp_float is within 2e-7 relative of exp over the float range", "[vector_math]") {
  double worst = 0;
  for (double x = -87.0; x <= 88.0; x += 0.0137) {
    const double expected = std::exp(static_cast<double>(static_cast<float>(x)));
    const double actual = vm::exp_float(static_cast<float>(x));
    worst = std::max(worst, std::abs(actual - expected) / expected);
  }
  CHECK(worst < 2e-7);
  CHECK(vm::exp_float(0.0f) == 1.0f);
  CHECK(vm::exp_float(-200.0f) == 0.0f);
  CHECK(std::isinf(vm::exp_float(100.0f)));
  CHECK(std::isnan(vm::exp_float(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("erfc_float is within 4e-7 of erfc everywhere", "[vector_math]") {
  double worst = 0;
  for (double x = -12.0; x <= 12.0; x += 0.00113) {
    const float xf = static_cast<float>(x);
    worst = std::max(worst, std::abs(static_cast<double>(vm::erfc_float(xf)) - std::erfc(static_cast<double>(xf))));
  }
  CHECK(worst < 4e-7);  // near erfc = 2, float spacing alone is 2.4e-7
  CHECK(vm::erfc_float(-std::numeric_limits<float>::infinity()) == 2.0f);
  CHECK(vm::erfc_float(std::numeric_limits<float>::infinity()) == 0.0f);
}

TEST_CASE("float GELU and its gradient match the double formulas on a dense grid", "[vector_math][gelu]") {
  const int64_t n = 20001;
  auto x = torch::linspace(-10, 10, n).requires_grad_(true);
  auto y = torch::gelu(x);
  y.sum().backward();
  const float* xs = x.data_ptr<float>();
  const float* ys = y.data_ptr<float>();
  const float* gs = x.grad().data_ptr<float>();
  double worst_value = 0, worst_grad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = xs[i];
    const double cdf = 0.5 * std::erfc(-v / std::sqrt(2.0));
    const double pdf = std::exp(-0.5 * v * v) / std::sqrt(2 * M_PI);
    worst_value = std::max(worst_value, std::abs(ys[i] - v * cdf) / std::max(1.0, std::abs(v)));
    worst_grad = std::max(worst_grad, std::abs(gs[i] - (cdf + v * pdf)));
  }
  CHECK(worst_value < 1e-6);
  CHECK(worst_grad < 1e-6);
  // A gradient that is not all ones goes through the same fused kernel.
  auto x2 = torch::tensor({-1.0f, 0.5f, 2.0f}, torch::requires_grad());
  (torch::gelu(x2) * torch::tensor({2.0f, -1.0f, 3.0f})).sum().backward();
  const double expected[] = {2 * (0.5 * std::erfc(1 / std::sqrt(2.0)) - std::exp(-0.5) / std::sqrt(2 * M_PI)),
                             -(0.5 * std::erfc(-0.5 / std::sqrt(2.0)) + 0.5 * std::exp(-0.125) / std::sqrt(2 * M_PI)),
                             3 * (0.5 * std::erfc(-2 / std::sqrt(2.0)) + 2 * std::exp(-2.0) / std::sqrt(2 * M_PI))};
  for (int i = 0; i < 3; ++i) CHECK(x2.grad()[i].item<double>() == Approx(expected[i]).margin(1e-6));
}
