// The contiguous fast paths of + - * / and copy (arithmetic.cpp, copy.cpp) against the general
// strided loops: the same numbers whichever path an op takes.
#include <catch2/catch.hpp>

#include <vector>

#include "test_helpers.h"

TEST_CASE("+ - * / on large contiguous tensors equal the same ops on strided views", "[elementwise]") {
  torch::manual_seed(3);
  for (auto dtype : {torch::kFloat, torch::kDouble}) {
    // 37 x 41 = 1517 elements: above the fast-path threshold, not a multiple of any vector width.
    const auto a = torch::randn({37, 41}, dtype);
    const auto b = torch::randn({37, 41}, dtype).abs() + 0.5;
    // The same values through transposed storage: not contiguous, so the general loop runs.
    const auto a_strided = a.t().contiguous().t();
    const auto b_strided = b.t().contiguous().t();
    REQUIRE_FALSE(a_strided.is_contiguous());
    const auto expect_same = [](const torch::Tensor& fast, const torch::Tensor& general) {
      REQUIRE(fast.sizes().vec() == general.sizes().vec());
      REQUIRE(test_helpers::values(fast) == test_helpers::values(general));
    };
    expect_same(a + b, a_strided + b_strided);
    expect_same(a - b, a_strided - b_strided);
    expect_same(a * b, a_strided * b_strided);
    expect_same(a / b, a_strided / b_strided);
    expect_same(a.add(b, 0.25), a_strided.add(b_strided, 0.25));
    // A scalar on either side.
    expect_same(a * 3.0, a_strided * 3.0);
    expect_same(2.0 - a, 2.0 - a_strided);
    expect_same(a / torch::tensor(4.0, dtype), a_strided / torch::tensor(4.0, dtype));
    // In place, as an optimizer step does it.
    auto p = a.clone();
    auto p_strided = a_strided.clone();
    p.add_(b, -0.1);
    p_strided.add_(b_strided, -0.1);
    expect_same(p, p_strided);
  }
  // Integer and mixed-dtype ops keep their promotion rules on large tensors too.
  const auto ints = torch::arange(0, 1000, torch::kLong);
  REQUIRE((ints + ints).scalar_type() == torch::kLong);
  REQUIRE((ints + ints)[999].item<int64_t>() == 1998);
  REQUIRE((ints.to(torch::kFloat) * 0.5)[999].item<double>() == 499.5);
  REQUIRE((ints / 2)[3].item<double>() == 1.5);
}

TEST_CASE("copy_ between contiguous tensors, same and different dtypes", "[elementwise]") {
  const auto source = torch::arange(0, 3000, torch::kDouble).view({30, 100});
  auto same = torch::empty({30, 100}, torch::kDouble);
  same.copy_(source);
  REQUIRE(test_helpers::values(same) == test_helpers::values(source));
  auto converted = torch::empty({30, 100}, torch::kFloat);
  converted.copy_(source);
  REQUIRE(test_helpers::values(converted) == test_helpers::values(source));
  auto into_view = torch::zeros({100, 30}, torch::kDouble);
  into_view.t().copy_(source);  // strided destination: the general loop
  REQUIRE(test_helpers::values(into_view.t()) == test_helpers::values(source));
}
