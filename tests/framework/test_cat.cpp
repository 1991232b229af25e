// torch::cat (and its aliases concat, concatenate): shapes, dtypes, LibTorch's errors, and its
// backward node CatBackward0, which hands each input its own stretch of the gradient.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("cat joins tensors along an existing dim", "[ops][cat]") {
  const auto a = torch::tensor({{1, 2, 3}, {4, 5, 6}});  // (2, 3)
  const auto b = torch::tensor({{7, 8, 9}});             // (1, 3)
  const auto rows = torch::cat({a, b});
  CHECK(shape(rows) == S{3, 3});
  CHECK(values(rows) == V{1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto columns = torch::cat({a, torch::tensor({{10}, {11}})}, -1);
  CHECK(shape(columns) == S{2, 4});
  CHECK(values(columns) == V{1, 2, 3, 10, 4, 5, 6, 11});
  CHECK(values(torch::concat({a.t(), a.t()}, 1)) == V{1, 4, 1, 4, 2, 5, 2, 5, 3, 6, 3, 6});  // strided inputs
  CHECK(values(torch::concatenate({b, b})) == V{7, 8, 9, 7, 8, 9});
  // dtypes promote as in a + b; a legacy 1-D empty tensor is skipped.
  const auto mixed = torch::cat({torch::tensor({1, 2}), torch::tensor({0.5}), torch::empty({0})});
  CHECK(mixed.scalar_type() == torch::kFloat);
  CHECK(values(mixed) == V{1, 2, 0.5});
}

TEST_CASE("cat refuses what LibTorch refuses, with its words", "[ops][cat]") {
  CHECK_THROWS_WITH(torch::cat(std::vector<torch::Tensor>{}), "torch.cat(): expected a non-empty list of Tensors");
  CHECK_THROWS_WITH(torch::cat({torch::ones({2}), torch::tensor(1.0)}),
                    "zero-dimensional tensor (at position 1) cannot be concatenated");
  CHECK_THROWS_WITH(torch::cat({torch::ones({2, 3}), torch::ones({2, 2})}),
                    "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor "
                    "number 1 in the list.");
  CHECK_THROWS_WITH(torch::cat({torch::ones({2, 3}), torch::ones({3})}),
                    "Tensors must have same number of dimensions: got 2 and 1");
  CHECK_THROWS_WITH(torch::cat({torch::ones({2, 3})}, 2), Contains("Dimension out of range"));
}

TEST_CASE("cat's backward gives each input its stretch of the gradient", "[autograd][cat]") {
  auto a = torch::ones({2, 3}, torch::requires_grad());
  auto b = torch::ones({1, 3}, torch::dtype(torch::kDouble).requires_grad(true));
  const auto constant = torch::zeros({2, 3});
  const auto out = torch::cat({a, constant, b});
  REQUIRE(out.grad_fn() != nullptr);
  CHECK(out.grad_fn()->name() == "CatBackward0");
  CHECK(out.grad_fn()->next_edges().size() == 3);
  CHECK_FALSE(out.grad_fn()->next_edges()[1].is_valid());  // the constant needs no gradient
  const auto weight = torch::arange(15, torch::kDouble).reshape({5, 3});
  (out * weight).sum().backward();
  CHECK(values(a.grad()) == V{0, 1, 2, 3, 4, 5});  // rows 0-1 of the weight
  CHECK(a.grad().scalar_type() == torch::kFloat);   // converted back from the double result
  CHECK(values(b.grad()) == V{12, 13, 14});         // row 4: after the constant's rows 2-3
  // Along dim 1, and differentiated again (the rule is a narrow, itself recorded).
  auto x = torch::tensor({{1.0, 2.0}}, torch::requires_grad());
  const auto y = torch::cat({x * x, x}, 1);
  const auto g = torch::autograd::grad({y.sum()}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];
  CHECK(values(g) == V{3, 5});  // 2x + 1
  CHECK(values(torch::autograd::grad({g.sum()}, {x})[0]) == V{2, 2});
}
