// Masks and index tensors (index({mask}), index_put_, masked_*, nonzero, where, index_select) and
// the reductions prod, amax/amin, logsumexp, var/std, cumsum: values, shapes, dtypes and errors.
// (Their gradients are in test_autograd_gradcheck.cpp; the numbers are diffed against LibTorch by
// tests/compat's indexing_masks and reductions_more.)
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::shape;
using test_helpers::values;
using torch::indexing::Slice;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("index with a mask or positions gathers; index_put_ writes through them", "[ops][masks]") {
  auto x = torch::arange(6, torch::kFloat).reshape({2, 3});
  CHECK(values(x.index({x > 3})) == V{4, 5});
  CHECK(shape(x.index({torch::tensor({true, false})})) == S{1, 3});
  CHECK(values(x.index({Slice(), torch::tensor({2, 0})})) == V{2, 0, 5, 3});
  CHECK(shape(x.index({torch::tensor({{0, 1}, {1, 1}})})) == S{2, 2, 3});  // positions keep their shape
  CHECK(shape(x.index({torch::tensor(true)})) == S{1, 2, 3});
  CHECK(shape(x.index({torch::tensor(false)})) == S{0, 2, 3});
  x.index_put_({x < 2}, -1);
  CHECK(values(x) == V{-1, -1, 2, 3, 4, 5});
  x.index_put_({x > 3}, torch::tensor({10.0f, 20.0f}));
  CHECK(values(x) == V{-1, -1, 2, 3, 10, 20});
  x.index_put_({1, torch::tensor({0, 2})}, 7);
  CHECK(values(x) == V{-1, -1, 2, 7, 10, 7});
  CHECK_THROWS_WITH(x.index({torch::tensor({true, false, true})}),
                    Contains("The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3]"));
  CHECK_THROWS_WITH(x.index({torch::tensor({5})}), Contains("index 5 is out of bounds for dimension 0 with size 2"));
  CHECK_THROWS_WITH(x.index({torch::tensor({0.5})}), Contains("tensors used as indices must be long, byte or bool tensors"));
  CHECK_THROWS_WITH(x.index_put_({x > 0}, torch::tensor({1.0f, 2.0f})), Contains("shape mismatch"));
  // A mask and positions together (advanced indexing, test_shape_layout.cpp has more): row 0, column 0.
  CHECK(values(x.index({torch::tensor({true, false}), torch::tensor({0})})) == V{-1});
}

TEST_CASE("masked_select, masked_fill, nonzero, where and index_select", "[ops][masks]") {
  const auto x = torch::arange(6).reshape({2, 3});
  CHECK(values(x.masked_select(x.ge(4))) == V{4, 5});
  CHECK(values(x.masked_fill(x.lt(2), 9)) == V{9, 9, 2, 3, 4, 5});
  CHECK(x.masked_fill(x.lt(2), 9).scalar_type() == torch::kLong);
  CHECK(values(torch::nonzero(x.gt(3))) == V{1, 1, 1, 2});
  CHECK(shape(torch::nonzero(x.gt(10))) == S{0, 2});
  CHECK(values(torch::where(x > 2, x, -x)) == V{0, -1, -2, 3, 4, 5});
  CHECK(torch::where(x > 2, x, 0.5).scalar_type() == torch::kFloat);  // a float number promotes a Long tensor
  CHECK(torch::where(x > 2, 1.0, 0.0).scalar_type() == torch::kFloat);
  const auto coordinates = torch::where(x > 3);
  REQUIRE(coordinates.size() == 2);
  CHECK(values(coordinates[1]) == V{1, 2});
  CHECK(values(x.index_select(1, torch::tensor({2, 2}))) == V{2, 2, 5, 5});
  CHECK_THROWS_WITH(x.masked_fill(x, 0), Contains("expected a mask of dtype Bool"));
  CHECK_THROWS_WITH(x.index_select(0, torch::tensor({2})), Contains("index out of range in self"));
  // LibTorch's index_select takes no negative positions; indexing with a tensor counts them from the end.
  CHECK_THROWS_WITH(x.index_select(1, torch::tensor({-1})), Contains("index out of range in self"));
  CHECK(values(x.index({torch::indexing::Slice(), torch::tensor({-1, 0})})) == V{2, 0, 5, 3});
  auto y = x.clone();
  CHECK_THROWS_WITH(y.masked_fill_(torch::ones({4, 2, 3}, torch::kBool), 0), Contains("does not broadcast"));
}

TEST_CASE("prod, amax/amin, logsumexp, var/std and cumsum", "[ops][reductions]") {
  const auto x = torch::tensor({{1.0, 2.0, 3.0}, {4.0, 0.5, -2.0}});
  CHECK(x.prod().item<double>() == Approx(-24.0));
  CHECK(values(x.prod(1)) == V{6, -4});
  CHECK(shape(x.prod(0, true)) == S{1, 3});
  CHECK(torch::arange(1, 5).prod().scalar_type() == torch::kLong);
  CHECK(values(x.amax(1)) == V{3, 4});
  CHECK(values(x.amin({0, 1}, true)) == V{-2});
  CHECK(x.logsumexp({0, 1}).item<double>() == Approx(std::log(x.exp().sum().item<double>())));
  const auto huge = torch::tensor({1000.0, 1000.0});
  CHECK(huge.logsumexp({0}).item<double>() == Approx(1000.0 + std::log(2.0)));  // no overflow
  // Row 1 has mean 5/6 and squared deviations summing to 109/6.
  const V unbiased = values(x.var({1}));
  CHECK(unbiased[0] == Approx(1.0));
  CHECK(unbiased[1] == Approx(109.0 / 12));
  const V biased = values(x.var({1}, /*correction=*/std::optional<int64_t>(0)));
  CHECK(biased[0] == Approx(2.0 / 3));
  CHECK(biased[1] == Approx(109.0 / 18));
  CHECK(values(x.var({1}, false)) == biased);
  CHECK(x.std().item<double>() == Approx(std::sqrt(x.var().item<double>())));
  CHECK(values(x.cumsum(1)) == V{1, 3, 6, 4, 4.5, 2.5});
  CHECK(values(torch::cumsum(torch::arange(3), 0)) == V{0, 1, 3});
  CHECK_THROWS_WITH(torch::arange(3).var(), Contains("std and var only support floating point"));
  CHECK_THROWS_WITH(torch::empty({0}).amax(), Contains("Expected reduction dim to be specified"));
}
