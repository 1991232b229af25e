// torch::addmm (beta self + alpha mat1 @ mat2) and matmul's fold of a batch into rows: values,
// LibTorch's errors and node names (AddmmBackward0, UnsafeViewBackward0), and their gradients.
#include <catch2/catch.hpp>

#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("addmm adds a broadcast self to a scaled product", "[ops][addmm]") {
  const auto a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  const auto b = torch::tensor({{5.0, 6.0}, {7.0, 8.0}});  // a @ b = [[19, 22], [43, 50]]
  CHECK(values(torch::addmm(torch::tensor({1.0, -1.0}), a, b)) == V{20, 21, 44, 49});
  CHECK(values(torch::tensor({1.0, -1.0}).addmm(a, b, 2, 0.5)) == V{11.5, 9, 23.5, 23});
  CHECK(values(torch::addmm(torch::ones({2, 1}), a, b, 1, 1)) == V{20, 23, 44, 51});  // a column
  // beta = 0 ignores self, NaN included, as LibTorch.
  CHECK(values(torch::addmm(torch::full({2, 2}, NAN), a, b, 0)) == V{19, 22, 43, 50});
  CHECK(values(torch::addmm(torch::zeros({2}), a.t(), b)) == V{26, 30, 38, 44});  // strided mat1
}

TEST_CASE("addmm refuses what LibTorch refuses", "[ops][addmm]") {
  CHECK_THROWS_WITH(torch::addmm(torch::ones({2}), torch::ones({2}), torch::ones({2, 2})),
                    Contains("mat1 must be a matrix, got 1-D tensor"));
  CHECK_THROWS_WITH(torch::addmm(torch::ones({2}), torch::ones({2, 2}), torch::ones({2, 2, 1})),
                    Contains("mat2 must be a matrix, got 3-D tensor"));
  CHECK_THROWS_WITH(torch::addmm(torch::ones({2}), torch::ones({2, 3}), torch::ones({4, 2})),
                    Contains("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"));
  CHECK_THROWS(torch::addmm(torch::ones({3}), torch::ones({2, 2}), torch::ones({2, 2})));
}

TEST_CASE("addmm's backward is AddmmBackward0 with alpha and beta", "[ops][addmm][autograd]") {
  auto bias = torch::tensor({0.5, -1.0}, torch::requires_grad());
  auto a = torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, torch::requires_grad());
  auto b = torch::tensor({{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}, torch::requires_grad());
  auto out = torch::addmm(bias, a, b, 0.5, 2);
  CHECK(std::string(out.grad_fn()->name()) == "AddmmBackward0");
  (out * torch::tensor({{1.0, 2.0}, {3.0, 4.0}})).sum().backward();
  CHECK(values(bias.grad()) == V{2, 3});  // 0.5 * column sums of the weights
  // 2 * weights @ b^T and 2 * a^T @ weights
  CHECK(values(a.grad()) == V{2, 4, 6, 6, 8, 14});
  CHECK(values(b.grad()) == V{26, 36, 34, 48, 42, 60});
}

TEST_CASE("matmul folds a batch times a matrix into one mm", "[ops][matmul]") {
  auto x = torch::arange(24, torch::kFloat).reshape({2, 3, 4}).requires_grad_(true);
  auto w = torch::ones({4, 5}, torch::requires_grad());
  auto y = x.matmul(w);
  CHECK(shape(y) == S{2, 3, 5});
  CHECK(std::string(y.grad_fn()->name()) == "UnsafeViewBackward0");
  CHECK(values(y.select(2, 0)) == V{6, 22, 38, 54, 70, 86});
  y.sum().backward();
  CHECK(values(w.grad().select(1, 0)) == V{60, 66, 72, 78});
  CHECK(values(x.grad()).front() == 5);
  CHECK(shape(torch::matmul(torch::ones({2, 3, 4}), torch::ones({4}))) == S{2, 3});
  CHECK_THROWS_WITH(torch::matmul(torch::ones({2, 3, 4}), torch::ones({5, 6})),
                    Contains("mat1 and mat2 shapes cannot be multiplied (6x4 and 5x6)"));
  CHECK_THROWS_WITH(torch::matmul(torch::ones({2, 3, 4}), torch::ones({5})), Contains("size mismatch, got 6, 6x4,5"));
}
