// Module 02's given code: tanh and GELU kernels, the public wrappers' dtype/dim handling, the
// functional forms and the activation modules. Expected numbers are LibTorch 1.13's outputs.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;
namespace F = torch::nn::functional;

namespace {
void require_close(const V& actual, const V& expected, double tolerance) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == Approx(expected[i]).margin(tolerance));
}
}  // namespace

TEST_CASE("tanh saturates to +-1 and promotes integers to float", "[activations][tanh]") {
  auto x = torch::tensor({-1000.0, -3.0, -1.0, 0.0, 1.0, 3.0, 1000.0});
  require_close(values(torch::tanh(x)), V{-1.0, -0.9950548, -0.7615942, 0.0, 0.7615942, 0.9950548, 1.0}, 1e-6);
  auto ints = torch::tanh(torch::tensor({0, 1}));
  CHECK(ints.dtype() == torch::kFloat);
  require_close(values(ints), V{0.0, 0.7615942}, 1e-6);
  CHECK(torch::tanh(torch::tensor({1.0}, torch::kDouble)).dtype() == torch::kDouble);
}

TEST_CASE("gelu exact and tanh forms match LibTorch", "[activations][gelu]") {
  auto x = torch::tensor({-1000.0, -3.0, -1.0, 0.0, 1.0, 3.0, 1000.0});
  require_close(values(torch::gelu(x)), V{0.0, -0.0040497, -0.1586553, 0.0, 0.8413447, 2.9959502, 1000.0}, 1e-5);
  require_close(values(torch::gelu(x, "tanh")), V{0.0, -0.0036374, -0.1588080, 0.0, 0.8411920, 2.9963627, 1000.0},
                1e-5);
  require_close(values(F::gelu(x, F::GELUFuncOptions().approximate("tanh"))), values(torch::gelu(x, "tanh")), 0.0);
  auto doubles = torch::gelu(torch::tensor({1.0}, torch::kDouble));
  CHECK(doubles.dtype() == torch::kDouble);
  CHECK(values(doubles)[0] == Approx(0.8413447460685429).epsilon(1e-14));
  CHECK_THROWS_WITH(torch::gelu(x, "foo"), "approximate argument must be either none or tanh.");
  CHECK_THROWS_WITH(torch::gelu(torch::tensor({-1, 2})), "\"GeluKernelImpl\" not implemented for 'Long'");
}

TEST_CASE("softmax and log_softmax wrappers: dtype, dims, 0-dim and empty inputs", "[activations][softmax]") {
  CHECK_THROWS_WITH(torch::softmax(torch::tensor({{1, 2}}), 0), "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  CHECK_THROWS_WITH(torch::log_softmax(torch::tensor({1, 2}), 0),
                    "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  CHECK_THROWS_WITH(torch::log_softmax(torch::ones({2}), -2),
                    "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
  auto zero_dim = torch::log_softmax(torch::tensor(3.0), -1);
  CHECK(zero_dim.dim() == 0);
  CHECK(values(zero_dim) == V{0.0});
  CHECK(torch::softmax(torch::tensor({1, 2}), 0, torch::kDouble).dtype() == torch::kDouble);
  auto empty = torch::softmax(torch::empty({0, 3}), 1);
  CHECK(shape(empty) == S{0, 3});
  auto empty_dim = torch::softmax(torch::empty({2, 0}), 1);
  CHECK(shape(empty_dim) == S{2, 0});
  // Non-contiguous input: softmax over the rows of a transpose equals softmax over the columns.
  auto m = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  require_close(values(torch::softmax(m.t(), 1)), values(torch::softmax(m, 0).t()), 1e-7);
}

TEST_CASE("activation modules print like LibTorch and are cloneable", "[activations][modules]") {
  CHECK(test_helpers::printed(torch::nn::Tanh()) == "torch::nn::Tanh()");
  CHECK(test_helpers::printed(torch::nn::GELU(torch::nn::GELUOptions().approximate("tanh"))) == "torch::nn::GELU()");
  CHECK(test_helpers::printed(torch::nn::LogSoftmax(1)) == "torch::nn::LogSoftmax(dim=1)");
  CHECK(test_helpers::printed(torch::nn::Softmax(torch::nn::SoftmaxOptions(-1))) == "torch::nn::Softmax(dim=-1)");
  torch::nn::Softmax softmax(0);
  auto copy = std::dynamic_pointer_cast<torch::nn::SoftmaxImpl>(softmax->clone());
  REQUIRE(copy != nullptr);
  CHECK(copy->options.dim() == 0);
  torch::nn::GELU gelu(torch::nn::GELUOptions().approximate("tanh"));
  require_close(values(gelu(torch::tensor({1.0}))), V{0.8411920}, 1e-6);
  torch::nn::Tanh tanh;
  require_close(values(tanh(torch::tensor({1.0}))), V{0.7615942}, 1e-6);
}
