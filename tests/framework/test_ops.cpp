// Arithmetic with broadcasting, unary functions, matmul, reductions and comparisons.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test_helpers.h"
#include "tinytorch/kernels.h"  // infer_size

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("broadcasting arithmetic", "[ops][broadcast]") {
  auto col = torch::tensor({{1}, {2}});   // {2, 1}
  auto row = torch::tensor({10, 20, 30});  // {3}
  REQUIRE(shape(col + row) == S{2, 3});
  REQUIRE(values(col + row) == V{11, 21, 31, 12, 22, 32});
  REQUIRE(values(row - col) == V{9, 19, 29, 8, 18, 28});
  REQUIRE(values(col * row) == V{10, 20, 30, 20, 40, 60});
  REQUIRE(values(row / col) == V{10, 20, 30, 5, 10, 15});
  REQUIRE(shape(torch::zeros({5, 1, 2}) + torch::zeros({3, 1})) == S{5, 3, 2});
  REQUIRE(torch::infer_size({3, 1}, {4}) == S{3, 4});
  // Non-contiguous operands are read through their strides.
  auto m = torch::arange(6).reshape({2, 3});
  REQUIRE(values(m.t() + torch::tensor({100, 200})) == V{100, 203, 101, 204, 102, 205});
  // Scalars on either side.
  REQUIRE(values(2 * row) == V{20, 40, 60});
  REQUIRE(values(1 - row) == V{-9, -19, -29});
  REQUIRE(values(60 / row) == V{6, 3, 2});
  REQUIRE(values(row + 1) == V{11, 21, 31});
  REQUIRE(values(-row) == V{-10, -20, -30});
}

TEST_CASE("add/sub with alpha, free functions and in-place forms", "[ops]") {
  auto a = torch::tensor({1.0, 2.0});
  auto b = torch::tensor({10.0, 20.0});
  REQUIRE(values(a.add(b, 2)) == V{21, 42});
  REQUIRE(values(torch::sub(b, a, 3)) == V{7, 14});
  REQUIRE(values(torch::add(a, 1)) == V{2, 3});
  auto c = a.clone();
  c += b;
  c -= 1;
  c *= torch::tensor(2.0);
  c /= 4;
  REQUIRE(values(c) == V{5, 10.5});
  auto d = torch::zeros({2, 2});
  d.add_(torch::tensor({1.0, 2.0}));  // broadcast into self
  REQUIRE(values(d) == V{1, 2, 1, 2});
  auto same = d.mul_(2);
  REQUIRE(same.is_same(d));
  auto i = torch::tensor({1, 2});
  i.mul_(3);
  REQUIRE(values(i) == V{3, 6});
  REQUIRE(i.dtype() == torch::kLong);
}

TEST_CASE("unary functions", "[ops]") {
  auto x = torch::tensor({1.0, 4.0, 9.0});
  REQUIRE(values(x.sqrt()) == V{1, 2, 3});
  REQUIRE(torch::allclose(x.log().exp(), x));
  REQUIRE(values(torch::tensor({-1.5, 2.0}).abs()) == V{1.5, 2});
  REQUIRE(values(x.pow(2)) == V{1, 16, 81});
  REQUIRE(values(torch::tensor({2, 3}).pow(torch::tensor({3, 2}))) == V{8, 9});
  REQUIRE(values(torch::tensor({-2.0, 0.5, 3.0}).clamp(-1, 1)) == V{-1, 0.5, 1});
  REQUIRE(values(torch::tensor({-2.0, 0.5, 3.0}).clamp(0)) == V{0, 0.5, 3});
  REQUIRE(values(torch::tensor({-2.0, 0.5, 3.0}).clamp(std::nullopt, 0)) == V{-2, 0, 0});
  REQUIRE(values(torch::neg(torch::tensor({1, -2}))) == V{-1, 2});
}

TEST_CASE("mm, bmm and matmul", "[ops][matmul]") {
  auto a = torch::tensor({{1, 2}, {3, 4}});
  auto b = torch::tensor({{5}, {6}});
  REQUIRE(values(a.mm(b)) == V{17, 39});
  REQUIRE(a.mm(b).dtype() == torch::kLong);
  auto m = torch::arange(6, torch::kFloat).reshape({2, 3});
  REQUIRE(values(m.mm(m.t())) == V{5, 14, 14, 50});  // a transposed (strided) operand
  auto batch = torch::arange(12, torch::kDouble).reshape({2, 2, 3});
  auto batch2 = torch::ones({2, 3, 1}, torch::kDouble);
  REQUIRE(values(batch.bmm(batch2)) == V{3, 12, 21, 30});
  // matmul: every rank combination LibTorch supports.
  auto v = torch::tensor({1.0, 2.0, 3.0});
  auto dot = torch::matmul(v, v);
  REQUIRE(dot.dim() == 0);
  REQUIRE(dot.item<double>() == 14);
  REQUIRE(values(m.matmul(v)) == V{8, 26});
  REQUIRE(values(torch::tensor({1.0, 1.0}).matmul(m)) == V{3, 5, 7});
  REQUIRE(shape(torch::zeros({10, 1, 2, 3}).matmul(torch::zeros({5, 3, 4}))) == S{10, 5, 2, 4});
  REQUIRE(shape(torch::zeros({4, 2, 3}).matmul(v)) == S{4, 2});
  REQUIRE(shape(v.matmul(torch::zeros({4, 3, 2}))) == S{4, 2});
  REQUIRE(values(batch.matmul(torch::ones({3}, torch::kDouble))) == V{3, 12, 21, 30});
}

TEST_CASE("sum and mean over all elements, dims and keepdim", "[ops][reductions]") {
  auto x = torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  REQUIRE(x.sum().item<double>() == 21);
  REQUIRE(x.sum().dim() == 0);
  REQUIRE(values(x.sum(1)) == V{6, 15});
  REQUIRE(values(x.sum(-2)) == V{5, 7, 9});
  REQUIRE(shape(x.sum(1, true)) == S{2, 1});
  REQUIRE(values(x.sum({0, 1})) == V{21});
  REQUIRE(x.mean().item<double>() == 3.5);
  REQUIRE(values(x.mean(0)) == V{2.5, 3.5, 4.5});
  REQUIRE(shape(x.mean({0}, true)) == S{1, 3});
  REQUIRE(values(x.t().sum(1)) == V{5, 7, 9});  // strided input
  REQUIRE(torch::tensor(4.0).sum(0).item<double>() == 4);
  REQUIRE(torch::zeros({0}).sum().item<double>() == 0);
  REQUIRE(torch::tensor({true, true, false}).sum().item<int64_t>() == 2);
}

TEST_CASE("max, min, argmax and argmin", "[ops][reductions]") {
  auto x = torch::tensor({{1, 5, 5}, {7, 7, 0}});
  REQUIRE(x.max().item<int64_t>() == 7);
  REQUIRE(x.min().item<int64_t>() == 0);
  auto [values_1, indices_1] = x.max(1);
  REQUIRE(values(values_1) == V{5, 7});
  REQUIRE(values(indices_1) == V{1, 0});  // the first maximum wins
  REQUIRE(indices_1.dtype() == torch::kLong);
  auto [min_values, min_indices] = x.min(0, true);
  REQUIRE(shape(min_values) == S{1, 3});
  REQUIRE(values(min_indices) == V{0, 0, 1});
  REQUIRE(x.argmax().item<int64_t>() == 3);
  REQUIRE(values(x.argmax(1)) == V{1, 0});
  REQUIRE(values(x.argmin(0)) == V{0, 0, 1});
  REQUIRE(shape(x.argmax(std::nullopt, true)) == S{1, 1});
  auto [max_values, ignored] = torch::max(x, -1, true);
  REQUIRE(shape(max_values) == S{2, 1});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE(std::isnan(torch::tensor({1.0, nan, 2.0}).max().item<double>()));
  REQUIRE(torch::tensor({1.0, nan, 2.0}).argmax().item<int64_t>() == 1);
}

TEST_CASE("comparisons, all/any, allclose and equal", "[ops][compare]") {
  auto x = torch::tensor({1, 2, 3});
  REQUIRE(values(x == 2) == V{0, 1, 0});
  REQUIRE(values(x != 2) == V{1, 0, 1});
  REQUIRE(values(x > 1) == V{0, 1, 1});
  REQUIRE(values(x <= 2) == V{1, 1, 0});
  REQUIRE(values(x.lt(torch::tensor({2, 2, 2}))) == V{1, 0, 0});
  REQUIRE(values(x.ge(2.5)) == V{0, 0, 1});
  REQUIRE((x == x).dtype() == torch::kBool);
  REQUIRE(shape(torch::tensor({{1}, {2}}) == x) == S{2, 3});  // broadcasts
  REQUIRE((x > 0).all().item<bool>());
  REQUIRE_FALSE((x > 1).all().item<bool>());
  REQUIRE((x > 2).any().item<bool>());
  REQUIRE((x > 0).all().dim() == 0);
  REQUIRE(torch::tensor({1.0, 2.0}).allclose(torch::tensor({1.0, 2.0 + 1e-7})));
  REQUIRE_FALSE(torch::tensor({1.0, 2.0}).allclose(torch::tensor({1.0, 2.1})));
  REQUIRE(torch::tensor({1.0, 2.0}).allclose(torch::tensor({1.0, 2.1}), 0.1));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_FALSE(torch::tensor({nan}).allclose(torch::tensor({nan})));
  REQUIRE(torch::tensor({nan}).allclose(torch::tensor({nan}), 1e-5, 1e-8, true));
  REQUIRE(x.equal(torch::tensor({1, 2, 3})));
  REQUIRE_FALSE(x.equal(torch::tensor({1, 2})));
  REQUIRE(x.equal(torch::tensor({1.0, 2.0, 3.0})));
  REQUIRE(torch::equal(torch::arange(6).reshape({2, 3}).t(), torch::tensor({{0, 3}, {1, 4}, {2, 5}})));
}
