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

// The other contiguous fast paths (arithmetic.cpp, compare.cpp, reduce.cpp, copy.cpp): each result
// equals the same op computed by the general loops on strided copies of the same values.
namespace {
// The same values, laid out transposed in memory: not contiguous, so every op takes the general loop.
torch::Tensor strided_copy(const torch::Tensor& t) { return t.transpose(-1, -2).contiguous().transpose(-1, -2); }

void expect_same(const torch::Tensor& fast, const torch::Tensor& general) {
  REQUIRE(fast.sizes().vec() == general.sizes().vec());
  REQUIRE(fast.scalar_type() == general.scalar_type());
  REQUIRE(test_helpers::values(fast) == test_helpers::values(general));
}
}  // namespace

TEST_CASE("a row or a column broadcast over a large batch equals the general loop", "[elementwise]") {
  torch::manual_seed(4);
  for (auto dtype : {torch::kFloat, torch::kDouble}) {
    const auto batch = torch::randn({3, 37, 41}, dtype);  // 4551 elements, 41 not a vector width
    const auto batch_strided = strided_copy(batch);
    REQUIRE_FALSE(batch_strided.is_contiguous());
    const auto row = torch::randn({41}, dtype).abs() + 0.5;          // a bias
    const auto row_3d = torch::randn({1, 1, 41}, dtype).abs() + 0.5;  // with leading 1s
    const auto column = torch::randn({3, 37, 1}, dtype).abs() + 0.5;  // softmax's row sums
    expect_same(batch + row, batch_strided + row);
    expect_same(row - batch, row - batch_strided);
    expect_same(batch * row_3d, batch_strided * row_3d);
    expect_same(batch / column, batch_strided / column);
    expect_same(column - batch, column - batch_strided);
    expect_same(batch.add(row, 0.5), batch_strided.add(row, 0.5));
  }
  // A column whose leading sizes differ is a broadcast the general loop handles.
  const auto batch = torch::randn({4, 37, 41});
  const auto column = torch::randn({1, 37, 1});
  expect_same(batch + column, strided_copy(batch) + column);
}

TEST_CASE("in-place updates with contiguous, transposed and one-element operands equal the general path",
          "[elementwise]") {
  torch::manual_seed(5);
  const auto start = torch::randn({30, 20});
  const auto operand = torch::randn({20, 30}).t();  // transposed, as a Linear weight's gradient arrives
  REQUIRE_FALSE(operand.is_contiguous());
  // The general path, forced by a strided destination.
  auto general = strided_copy(start);
  general.add_(operand, -0.1);
  general.mul_(torch::tensor(0.9));
  general.sub_(operand.contiguous(), 2);
  general.div_(operand.abs() + 1);
  auto fast = start.clone();
  fast.add_(operand, -0.1);
  fast.mul_(torch::tensor(0.9));
  fast.sub_(operand.contiguous(), 2);
  fast.div_(operand.abs() + 1);
  expect_same(fast, general);
  // Aliasing: x += x reads each element before writing it.
  auto doubled = start.clone();
  doubled.add_(doubled);
  expect_same(doubled, start * 2);
}

TEST_CASE("comparisons on large tensors equal the general loop", "[elementwise]") {
  torch::manual_seed(6);
  const auto a = torch::randn({37, 41});
  const auto b = torch::randn({37, 41});
  const auto a_strided = strided_copy(a);
  expect_same(a.gt(0), a_strided.gt(0));
  expect_same(a.le(b), a_strided.le(b));
  expect_same(a == a, a_strided == a_strided);
  expect_same(a.ne(b), a_strided.ne(b));
}

TEST_CASE("sum over leading or trailing dims of a large tensor equals the general loop exactly", "[reductions]") {
  torch::manual_seed(7);
  for (auto dtype : {torch::kFloat, torch::kDouble}) {
    const auto t = torch::randn({5, 37, 41}, dtype);
    const auto t_strided = strided_copy(t);
    for (bool keepdim : {false, true}) {
      expect_same(t.sum({0}, keepdim), t_strided.sum({0}, keepdim));        // a bias gradient
      expect_same(t.sum({0, 1}, keepdim), t_strided.sum({0, 1}, keepdim));
      expect_same(t.sum({-1}, keepdim), t_strided.sum({-1}, keepdim));      // softmax's row sums
      expect_same(t.sum({1, 2}, keepdim), t_strided.sum({1, 2}, keepdim));
      expect_same(t.sum({1}, keepdim), t_strided.sum({1}, keepdim));        // a middle dim: general loop
    }
    expect_same(t.sum(), t_strided.sum());
  }
}

TEST_CASE("sum over the outer dims of a permuted tensor (a transposed gradient) equals the contiguous sum",
          "[reductions]") {
  torch::manual_seed(8);
  const auto t = torch::randn({16, 64, 40});
  const auto permuted = t.permute({1, 0, 2}).contiguous().permute({1, 0, 2});  // (T, B, E) memory as (B, T, E)
  REQUIRE_FALSE(permuted.is_contiguous());
  for (bool keepdim : {false, true}) {
    const auto fast = permuted.sum({0, 1}, keepdim);
    const auto expected = t.sum({0, 1}, keepdim);
    REQUIRE(fast.sizes().vec() == expected.sizes().vec());
    const auto got = test_helpers::values(fast), want = test_helpers::values(expected);
    for (size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-4));
  }
  // Kept dims out of their logical order in memory decline, and the general loop still agrees.
  const auto swapped = torch::randn({40, 8, 16}).permute({2, 1, 0});  // memory order 2, 1, 0
  const auto swapped_sum = swapped.sum({0});
  const auto reference = swapped.contiguous().sum({0});
  const auto got = test_helpers::values(swapped_sum), want = test_helpers::values(reference);
  for (size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-4));
}

TEST_CASE("fill_ and zeros write every element exactly in every dtype", "[elementwise]") {
  auto floats = torch::empty({17, 19});
  floats.fill_(2.5);
  REQUIRE(test_helpers::values(floats) == std::vector<double>(17 * 19, 2.5));
  auto longs = torch::empty({300}, torch::kLong);
  longs.fill_(int64_t{9007199254740993});  // 2^53 + 1: not a double
  REQUIRE(longs[299].item<int64_t>() == 9007199254740993);
  auto flags = torch::empty({5}, torch::kBool);
  flags.fill_(true);
  REQUIRE(flags.all().item<bool>());
  auto view = torch::ones({6, 4}).t();
  view.fill_(3);  // strided
  REQUIRE(test_helpers::values(view) == std::vector<double>(24, 3.0));
  REQUIRE(torch::zeros({3, 3}, torch::kLong).sum().item<int64_t>() == 0);
  REQUIRE(torch::full({2}, int64_t{9007199254740993}, torch::kLong)[1].item<int64_t>() == 9007199254740993);
}
