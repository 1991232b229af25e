// Module 02 (Activations): the graded tests. Expected values are worked out by hand or from
// identities the lesson derives (sigmoid(-x) = 1 - sigmoid(x), tanh(x) = 2 sigmoid(2x) - 1,
// softmax of [0, ln 2, ln 3] = [1/6, 2/6, 3/6]); none is computed with the code under test.
// Each case is tagged with its points ([points=N], 100 in all); hints.json has a hint per case.
// Every case ends with inputs drawn by random_tensor, the expected values worked out from the
// definition: under `tito grade` they come from a secret seed, so only code that computes the answer
// gets them right (`tito module test` draws with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::map_values;
using tinytorch::testing::printed;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Sizes = std::vector<int64_t>;
namespace F = torch::nn::functional;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const double kLn2 = 0.6931471805599453;
const double kLn3 = 1.0986122886681098;

// Element i of a float tensor, read without any op under test.
float element(const torch::Tensor& t, int64_t i) { return t.contiguous().data_ptr<float>()[i]; }

// Element [i][j] of a float matrix, read without any op under test.
float entry(const torch::Tensor& m, int64_t i, int64_t j) { return m.contiguous().data_ptr<float>()[i * m.size(1) + j]; }

float relu_of(float v) { return v > 0 ? v : 0.0f; }
double sigmoid_of(double v) { return 1 / (1 + std::exp(-v)); }

// softmax (or log_softmax) of a float tensor along `dim`, worked out in double from the definition:
// exp(x - max) / sum(exp(x - max)), or x - max - log(sum(exp(x - max))).
torch::Tensor expected_softmax(const torch::Tensor& x, int64_t dim, bool log = false) {
  const std::vector<int64_t> sizes = x.sizes().vec();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= sizes[d];
  for (auto d = static_cast<std::size_t>(dim) + 1; d < sizes.size(); ++d) inner *= sizes[d];
  const int64_t length = sizes.empty() ? 1 : sizes[dim];
  const torch::Tensor dense = x.contiguous();
  torch::Tensor result = torch::empty(x.sizes());
  const float* in = dense.data_ptr<float>();
  float* out = result.data_ptr<float>();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      auto index = [&](int64_t k) { return (o * length + k) * inner + i; };
      double top = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < length; ++k) top = std::max(top, double(in[index(k)]));
      double total = 0;
      for (int64_t k = 0; k < length; ++k) total += std::exp(in[index(k)] - top);
      for (int64_t k = 0; k < length; ++k) {
        const double value = in[index(k)] - top - std::log(total);
        out[index(k)] = static_cast<float>(log ? value : std::exp(value));
      }
    }
  }
  return result;
}

// An int64 tensor's values through `rule`, as a tensor of `dtype` (kLong or kFloat).
template <typename Rule>
torch::Tensor map_longs(const torch::Tensor& ints, torch::ScalarType dtype, Rule rule) {
  torch::Tensor result = torch::empty(ints.sizes(), dtype);
  for (int64_t i = 0; i < ints.numel(); ++i) {
    const auto value = rule(ints.data_ptr<int64_t>()[i]);
    if (dtype == torch::kLong) result.data_ptr<int64_t>()[i] = static_cast<int64_t>(value);
    else result.data_ptr<float>()[i] = static_cast<float>(value);
  }
  return result;
}

bool all_finite(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  for (int64_t i = 0; i < c.numel(); ++i) {
    if (!std::isfinite(c.data_ptr<float>()[i])) return false;
  }
  return true;
}


}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: ReLU
// ---------------------------------------------------------------------------------------------

TEST_CASE("relu zeroes the negatives and keeps the positives", "[points=5][relu]") {
  CHECK_THAT(torch::relu(torch::tensor({-2.0, -1.0, 0.0, 1.0, 2.0})),
             Equals(torch::tensor({0.0, 0.0, 0.0, 1.0, 2.0})));
  CHECK_THAT(torch::relu(torch::tensor({-0.5, -3.0, -1e-6})), Equals(torch::zeros({3})));
  CHECK_THAT(torch::relu(torch::tensor({{0.5, -7.0, 3.0}, {-1.0, 8.0, 0.25}})),
             Equals(torch::tensor({{0.5, 0.0, 3.0}, {0.0, 8.0, 0.25}})));
  auto x = random_tensor({3, 4});
  CHECK_THAT(torch::relu(x), Equals(map_values(x, relu_of)));
}

TEST_CASE("relu keeps int64 and double dtypes and any shape", "[points=3][relu]") {
  CHECK_THAT(torch::relu(torch::tensor({-3, 5, 0})), Equals(torch::tensor({0, 5, 0})));
  auto doubles = torch::relu(torch::tensor({-1.5, 2.5}, torch::kDouble));
  CHECK_THAT(doubles, Equals(torch::tensor({0.0, 2.5}, torch::kDouble)));
  auto cube = torch::relu(torch::full({2, 2, 2}, -1.0));
  CHECK(cube.sizes() == Sizes{2, 2, 2});
  CHECK_THAT(cube, Equals(torch::zeros({2, 2, 2})));
  auto ints = random_tensor({12}, -9, 9, torch::kLong);
  ints.data_ptr<int64_t>()[random_int(0, 5)] = random_int(1, 9);     // at least one of each sign,
  ints.data_ptr<int64_t>()[random_int(6, 11)] = -random_int(1, 9);   // so neither 0s nor x itself pass
  CHECK_THAT(torch::relu(ints), Equals(map_longs(ints, torch::kLong, [](int64_t v) { return v > 0 ? v : 0; })));
}

TEST_CASE("relu reads a transposed view correctly", "[points=5][relu]") {
  auto m = torch::tensor({{-1.0, 2.0}, {3.0, -4.0}});
  // m.t() is [[-1, 3], [2, -4]]: not contiguous. The given code hands your kernel a contiguous copy.
  CHECK_THAT(torch::relu(m.t()), Equals(torch::tensor({{0.0, 3.0}, {2.0, 0.0}})));
  CHECK_THAT(torch::relu(m.select(1, 1)), Equals(torch::tensor({2.0, 0.0})));
  auto drawn = random_tensor({3, 4});
  auto expected = torch::empty({4, 3});
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j) expected.data_ptr<float>()[i * 3 + j] = relu_of(entry(drawn, j, i));
  CHECK_THAT(torch::relu(drawn.t()), Equals(expected));
}

TEST_CASE("relu keeps NaN and refuses bool tensors", "[points=3][relu][errors]") {
  auto out = torch::relu(torch::tensor({std::nanf(""), -1.0f, 1.0f}));
  CHECK(std::isnan(element(out, 0)));
  CHECK(element(out, 1) == 0.0f);
  CHECK(element(out, 2) == 1.0f);
  CHECK_THROWS_WITH(torch::relu(torch::tensor({true, false})), "Boolean inputs not supported for relu");
  auto x = random_tensor({3, 5});
  CHECK_THAT(torch::relu(x), Equals(map_values(x, relu_of)));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: Sigmoid
// ---------------------------------------------------------------------------------------------

TEST_CASE("sigmoid matches 1 / (1 + exp(-x)) at known points", "[points=6][sigmoid]") {
  // 1 / (1 + e^3) = 0.0474259, 1 / (1 + e) = 0.2689414, and the mirror images 1 - those.
  CHECK_THAT(torch::sigmoid(torch::tensor({-3.0, -1.0, 0.0, 1.0, 3.0})),
             AllClose(torch::tensor({0.0474259, 0.2689414, 0.5, 0.7310586, 0.9525741}), 1e-5, 1e-6));
  CHECK(torch::sigmoid(torch::tensor(0.0)).item<float>() == 0.5f);
  auto x = random_tensor({2, 5}, -4, 4);
  CHECK_THAT(torch::sigmoid(x), AllClose(map_values(x, sigmoid_of), 1e-5, 1e-6));
}

TEST_CASE("sigmoid of +-1000 is 0 and 1 without overflow or NaN", "[points=6][sigmoid][stability]") {
  auto out = torch::sigmoid(torch::tensor({-1000.0, -100.0, 100.0, 1000.0}));
  REQUIRE(all_finite(out));
  CHECK(element(out, 0) == 0.0f);
  CHECK(element(out, 1) >= 0.0f);
  CHECK(element(out, 1) < 1e-40f);  // e^-100 = 3.7e-44: a float denormal, not 0 and not NaN
  CHECK(element(out, 2) == 1.0f);
  CHECK(element(out, 3) == 1.0f);
  auto wide = torch::sigmoid(torch::tensor({-1000.0, 1000.0}, torch::kDouble));
  CHECK_THAT(wide, Equals(torch::tensor({0.0, 1.0}, torch::kDouble)));
  auto far = random_tensor({6}, -40, 40);
  CHECK_THAT(torch::sigmoid(far), AllClose(map_values(far, sigmoid_of), 1e-5, 1e-6));
}

TEST_CASE("sigmoid of an int64 tensor is float32", "[points=4][sigmoid][dtype]") {
  auto out = torch::sigmoid(torch::tensor({0, 2, -2}));
  CHECK(out.dtype() == torch::kFloat);
  CHECK_THAT(out, AllClose(torch::tensor({0.5, 0.8807971, 0.1192029}), 1e-5, 1e-6));
  auto ints = random_tensor({5}, -6, 6, torch::kLong);
  CHECK_THAT(torch::sigmoid(ints), AllClose(map_longs(ints, torch::kFloat, sigmoid_of), 1e-5, 1e-6));
}

TEST_CASE("sigmoid is symmetric: sigmoid(-x) = 1 - sigmoid(x)", "[points=4][sigmoid]") {
  auto x = torch::linspace(-10, 10, 21);
  auto left = torch::sigmoid(-x);
  auto right = torch::sigmoid(x);
  for (int64_t i = 0; i < x.numel(); ++i) {
    CHECK(element(left, i) == Approx(1.0f - element(right, i)).margin(1e-6));
    CHECK(element(right, i) > 0.0f);
    CHECK(element(right, i) < 1.0f);
  }
  auto drawn = random_tensor({6}, -6, 6);
  CHECK_THAT(torch::sigmoid(drawn), AllClose(map_values(drawn, sigmoid_of), 1e-5, 1e-6));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: Tanh and GELU (given), checked against your sigmoid and relu
// ---------------------------------------------------------------------------------------------

TEST_CASE("tanh equals 2 sigmoid(2x) - 1", "[points=5][tanh]") {
  auto x = torch::tensor({-2.0, -0.5, 0.0, 0.5, 2.0});
  CHECK_THAT(torch::sigmoid(x * 2) * 2 - 1, AllClose(torch::tanh(x), 1e-5, 1e-6));
  CHECK_THAT(torch::tanh(x), AllClose(torch::tensor({-0.9640276, -0.4621172, 0.0, 0.4621172, 0.9640276}),
                                      1e-5, 1e-6));
  auto drawn = random_tensor({6}, -3, 3);
  CHECK_THAT(torch::tanh(drawn), AllClose(map_values(drawn, [](double v) { return 2 * sigmoid_of(2 * v) - 1; }), 1e-5, 1e-6));
}

TEST_CASE("gelu's tanh form is x sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) and gelu tends to relu",
          "[points=5][gelu]") {
  auto x = torch::tensor({-3.0, -1.0, 0.0, 1.0, 3.0});
  const double two_sqrt_2_over_pi = 1.5957691216057308;
  auto inner = (x + x * x * x * 0.044715) * two_sqrt_2_over_pi;
  CHECK_THAT(torch::gelu(x, "tanh"), AllClose(x * torch::sigmoid(inner), 1e-5, 1e-6));
  // Exact GELU: x Phi(x) with Phi(1) = 0.8413447.
  CHECK_THAT(torch::gelu(torch::tensor({-1.0, 0.0, 1.0})),
             AllClose(torch::tensor({-0.1586553, 0.0, 0.8413447}), 1e-5, 1e-6));
  // Far from 0 GELU is relu: Phi(10) = 1 and Phi(-10) = 0 in float.
  auto far = torch::tensor({-10.0, 10.0});
  CHECK_THAT(torch::gelu(far), AllClose(torch::relu(far), 1e-5, 1e-6));
  auto drawn = random_tensor({6}, -3, 3);
  CHECK_THAT(torch::gelu(drawn, "tanh"), AllClose(map_values(drawn, [&](double v) {
    return v * sigmoid_of(two_sqrt_2_over_pi * (v + 0.044715 * v * v * v));
  }), 1e-5, 1e-6));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: Softmax
// ---------------------------------------------------------------------------------------------

TEST_CASE("softmax of a vector gives probabilities", "[points=6][softmax]") {
  // e^1 : e^2 : e^3 normalised; the sum is e + e^2 + e^3 = 30.1928.
  CHECK_THAT(torch::softmax(torch::tensor({1.0, 2.0, 3.0}), 0),
             AllClose(torch::tensor({0.0900306, 0.2447285, 0.6652410}), 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(torch::tensor({1.0, 2.0, 3.0, 4.0}), -1),
             AllClose(torch::tensor({0.0320586, 0.0871443, 0.2368828, 0.6439143}), 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(torch::tensor({0.0, kLn2, kLn3}), 0),
             AllClose(torch::tensor({1.0 / 6, 2.0 / 6, 3.0 / 6}), 1e-5, 1e-6));
  auto drawn = random_tensor({random_int(2, 6)});
  CHECK_THAT(torch::softmax(drawn, 0), AllClose(expected_softmax(drawn, 0), 1e-5, 1e-6));
}

TEST_CASE("softmax along dim 1 normalises rows and along dim 0 columns", "[points=6][softmax]") {
  auto m = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  auto rows = torch::tensor({{0.2689414, 0.7310586}, {0.2689414, 0.7310586}});
  CHECK_THAT(torch::softmax(m, 1), AllClose(rows, 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(m, -1), AllClose(rows, 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(m, 0), AllClose(torch::tensor({{0.1192029, 0.1192029}, {0.8807971, 0.8807971}}),
                                            1e-5, 1e-6));
  auto drawn = random_tensor({3, 4});
  CHECK_THAT(torch::softmax(drawn, 1), AllClose(expected_softmax(drawn, 1), 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(drawn, 0), AllClose(expected_softmax(drawn, 0), 1e-5, 1e-6));
}

TEST_CASE("softmax along the middle dim of a 3-D tensor", "[points=5][softmax]") {
  // x[b][j][k] = ln(j + 1) + b + k: along dim 1 every (b, k) line is [0, ln 2, ln 3] plus a
  // constant, so its softmax is [1/6, 2/6, 3/6] whatever the constant.
  auto x = torch::tensor({{{0.0, 1.0}, {kLn2, kLn2 + 1}, {kLn3, kLn3 + 1}},
                          {{1.0, 2.0}, {kLn2 + 1, kLn2 + 2}, {kLn3 + 1, kLn3 + 2}}});
  REQUIRE(x.sizes() == Sizes{2, 3, 2});
  auto sixths = torch::tensor({{{1.0 / 6, 1.0 / 6}, {2.0 / 6, 2.0 / 6}, {3.0 / 6, 3.0 / 6}},
                               {{1.0 / 6, 1.0 / 6}, {2.0 / 6, 2.0 / 6}, {3.0 / 6, 3.0 / 6}}});
  auto out = torch::softmax(x, 1);
  CHECK(out.sizes() == Sizes{2, 3, 2});
  CHECK_THAT(out, AllClose(sixths, 1e-5, 1e-6));
  auto drawn = random_tensor({2, 3, 4});
  CHECK_THAT(torch::softmax(drawn, 1), AllClose(expected_softmax(drawn, 1), 1e-5, 1e-6));
}

TEST_CASE("softmax of huge logits does not overflow", "[points=6][softmax][stability]") {
  // exp(1000) is inf in float; subtracting the max first makes the exponents 0, -1, -2.
  auto big = torch::softmax(torch::tensor({1000.0, 1001.0, 1002.0}), 0);
  REQUIRE(all_finite(big));
  CHECK_THAT(big, AllClose(torch::tensor({0.0900306, 0.2447285, 0.6652410}), 1e-5, 1e-6));
  CHECK_THAT(torch::softmax(torch::tensor({-1000.0, -1000.0}), 0), AllClose(torch::tensor({0.5, 0.5}), 1e-6, 1e-7));
  CHECK_THAT(torch::softmax(torch::tensor({{-500.0, 500.0}}), 1), AllClose(torch::tensor({{0.0, 1.0}}), 1e-6, 1e-7));
  auto huge = random_tensor({5}, 996, 1004);
  CHECK_THAT(torch::softmax(huge, 0), AllClose(expected_softmax(huge, 0), 1e-5, 1e-6));
}

TEST_CASE("softmax with masked (-inf) entries: zeros, and NaN for a fully masked row",
          "[points=6][softmax][stability]") {
  auto out = torch::softmax(torch::tensor({{0.0f, -kInf, static_cast<float>(kLn3)}, {-kInf, -kInf, -kInf}}), 1);
  CHECK(element(out, 0) == Approx(0.25).margin(1e-6));
  CHECK(element(out, 1) == 0.0f);
  CHECK(element(out, 2) == Approx(0.75).margin(1e-6));
  // LibTorch: a row with nothing left to attend to has max -inf, and -inf - (-inf) is NaN.
  CHECK(std::isnan(element(out, 3)));
  CHECK(std::isnan(element(out, 4)));
  CHECK(std::isnan(element(out, 5)));
  auto drawn = random_tensor({2, 5});
  drawn.data_ptr<float>()[random_int(0, 4)] = -kInf;  // one masked entry in the first row
  CHECK_THAT(torch::softmax(drawn, 1), AllClose(expected_softmax(drawn, 1), 1e-5, 1e-6));
}

TEST_CASE("softmax of a 0-dim tensor, the dtype argument, and LibTorch's errors", "[points=5][softmax][errors]") {
  auto scalar = torch::softmax(torch::tensor(3.0), 0);
  CHECK(scalar.dim() == 0);
  CHECK(scalar.item<float>() == 1.0f);
  auto converted = torch::softmax(torch::tensor({1, 2}), 0, torch::kDouble);
  CHECK_THAT(converted, AllClose(torch::tensor({0.2689414, 0.7310586}, torch::kDouble), 1e-6, 1e-7));
  CHECK_THROWS_WITH(torch::softmax(torch::tensor({1, 2}), 0),
                    "\"softmax_lastdim_kernel_impl\" not implemented for 'Long'");
  CHECK_THROWS_WITH(torch::softmax(torch::ones({2, 3}), 2),
                    "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  auto ints = random_tensor({6}, -3, 3, torch::kLong);
  auto as_floats = map_longs(ints, torch::kFloat, [](int64_t v) { return v; });
  CHECK_THAT(torch::softmax(ints, 0, torch::kFloat), AllClose(expected_softmax(as_floats, 0), 1e-5, 1e-6));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: Log-softmax
// ---------------------------------------------------------------------------------------------

TEST_CASE("log_softmax is x - max - log(sum(exp(x - max)))", "[points=6][log_softmax]") {
  // log(e^-2 + e^-1 + 1) = 0.4076059, so log_softmax([1, 2, 3]) = [1, 2, 3] - 3 - 0.4076059.
  CHECK_THAT(torch::log_softmax(torch::tensor({1.0, 2.0, 3.0}), 0),
             AllClose(torch::tensor({-2.4076059, -1.4076059, -0.4076059}), 1e-5, 1e-6));
  auto m = torch::tensor({{0.0, kLn2, kLn3}, {5.0, 5.0, 5.0}});
  CHECK_THAT(torch::log_softmax(m, 1),
             AllClose(torch::tensor({{-std::log(6.0), -std::log(3.0), -std::log(2.0)},
                                     {-kLn3, -kLn3, -kLn3}}), 1e-5, 1e-6));
  // Down the columns: [a, 5] gives [a - 5 - log(1 + e^(a - 5)), -log(1 + e^(a - 5))]; for a = 0,
  // e^-5 = 0.0067379 and log(1.0067379) = 0.0067153.
  CHECK_THAT(torch::log_softmax(m, 0),
             AllClose(torch::tensor({{-5.0067153, -4.3202387, -3.9214000}, {-0.0067153, -0.0133859, -0.0200123}}),
                      1e-5, 1e-5));
  auto drawn = random_tensor({3, 4});
  CHECK_THAT(torch::log_softmax(drawn, 1), AllClose(expected_softmax(drawn, 1, /*log=*/true), 1e-5, 1e-5));
}

TEST_CASE("log_softmax stays finite where log(softmax) would give -inf", "[points=6][log_softmax][stability]") {
  // softmax([0, -200])[1] = e^-200 underflows to 0 in float; log_softmax is exactly -200.
  CHECK_THAT(torch::log_softmax(torch::tensor({0.0, -200.0}), 0), AllClose(torch::tensor({0.0, -200.0}), 1e-6, 1e-6));
  CHECK_THAT(torch::log_softmax(torch::tensor({1000.0, 1001.0}), 0),
             AllClose(torch::tensor({-1.3132617, -0.3132617}), 1e-5, 1e-6));
  auto masked = torch::log_softmax(torch::tensor({{0.0f, -kInf}, {-kInf, -kInf}}), 1);
  CHECK(element(masked, 0) == 0.0f);
  CHECK(element(masked, 1) == -kInf);
  CHECK(std::isnan(element(masked, 2)));
  auto spread = random_tensor({4}, -300, 0);
  CHECK_THAT(torch::log_softmax(spread, 0), AllClose(expected_softmax(spread, 0, /*log=*/true), 1e-5, 1e-5));
}

// ---------------------------------------------------------------------------------------------
// Modules, functional forms and the systems view
// ---------------------------------------------------------------------------------------------

TEST_CASE("nn modules and F:: functions print and compute like LibTorch", "[points=4][modules]") {
  torch::nn::ReLU relu;
  torch::nn::Softmax softmax(1);
  torch::nn::Sigmoid sigmoid;
  CHECK(printed(relu) == "torch::nn::ReLU()");
  CHECK(printed(torch::nn::ReLU(torch::nn::ReLUOptions().inplace(true))) == "torch::nn::ReLU(inplace=true)");
  CHECK(printed(softmax) == "torch::nn::Softmax(dim=1)");
  CHECK(printed(sigmoid) == "torch::nn::Sigmoid()");
  CHECK(printed(torch::nn::GELU()) == "torch::nn::GELU()");
  CHECK(relu->parameters().empty());
  auto x = torch::tensor({{-1.0, 1.0}, {2.0, -2.0}});
  CHECK_THAT(relu(x), Equals(torch::tensor({{0.0, 1.0}, {2.0, 0.0}})));
  CHECK_THAT(softmax(relu(x)), AllClose(torch::tensor({{0.2689414, 0.7310586}, {0.8807971, 0.1192029}}), 1e-5, 1e-6));
  CHECK_THAT(sigmoid(torch::zeros({2})), Equals(torch::tensor({0.5, 0.5})));
  CHECK_THAT(F::softmax(x, F::SoftmaxFuncOptions(0)), AllClose(torch::softmax(x, 0), 1e-6, 1e-7));
  CHECK_THAT(F::log_softmax(x, F::LogSoftmaxFuncOptions(1)), AllClose(torch::log_softmax(x, 1), 1e-6, 1e-7));
  auto y = x.clone();
  F::relu(y, F::ReLUFuncOptions().inplace(true));
  CHECK_THAT(y, Equals(torch::tensor({{0.0, 1.0}, {2.0, 0.0}})));
  auto drawn = random_tensor({2, 3});
  CHECK_THAT(relu(drawn), Equals(map_values(drawn, relu_of)));
  CHECK_THAT(softmax(drawn), AllClose(expected_softmax(drawn, 1), 1e-5, 1e-6));
}

TEST_CASE("activations on a million elements: one float32 output of 4 MB each", "[points=4][systems]") {
  const int64_t n = 1000000;
  auto x = torch::linspace(-5, 5, n);
  auto r = torch::relu(x);
  auto s = torch::sigmoid(x);
  auto p = torch::softmax(x, 0);
  CHECK(r.nbytes() == 4000000u);
  CHECK(s.nbytes() == 4000000u);
  CHECK(p.sizes() == Sizes{n});
  // linspace is symmetric about 0 and sigmoid(-x) + sigmoid(x) = 1: the sum is n / 2.
  CHECK(s.to(torch::kDouble).sum().item<double>() == Approx(500000.0).margin(1.0));
  // relu keeps the positive half: the mean of 0..5 over half the points, 2.5 * n / 2.
  CHECK(r.to(torch::kDouble).sum().item<double>() == Approx(1250000.0).epsilon(1e-4));
  CHECK(p.to(torch::kDouble).sum().item<double>() == Approx(1.0).margin(1e-4));
  auto drawn = random_tensor({n}, -5, 5);
  CHECK_THAT(torch::relu(drawn), Equals(map_values(drawn, relu_of)));
  CHECK_THAT(torch::sigmoid(drawn), AllClose(map_values(drawn, sigmoid_of), 1e-5, 1e-6));
}
