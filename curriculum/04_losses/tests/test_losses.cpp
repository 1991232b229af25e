// Module 04 (Losses): the graded tests. Expected values are worked out by hand (the lesson shows
// the arithmetic: log(e^-2 + e^-1 + 1) = 0.4076059, ln 3 = 1.0986123, ...), never computed with the
// code under test. Each case is tagged with its points ([points=N], 100 in all); hints.json has a
// hint per case.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using tinytorch::testing::printed;
using Sizes = std::vector<int64_t>;
namespace F = torch::nn::functional;
namespace nn = torch::nn;

namespace {

// The value of a 0-dim float loss, read without any op under test.
float value(const torch::Tensor& loss) {
  REQUIRE(loss.dim() == 0);
  return loss.contiguous().data_ptr<float>()[0];
}

// [[1, 2, 3], [1, 1, 1]]: the logits most cross-entropy cases use. Row 0 with target 2 costs
// log(e^-2 + e^-1 + 1) = 0.4076059; row 1 (uniform) costs ln 3 = 1.0986123 whatever the target.
torch::Tensor logits() { return torch::tensor({{1.0, 2.0, 3.0}, {1.0, 1.0, 1.0}}); }

// Log-probabilities for nll_loss: loss = -log_probs[n][target[n]].
torch::Tensor log_probs() { return torch::tensor({{-0.5, -1.0}, {-2.0, -0.1}}); }

// The values of a float tensor, read straight from memory.
std::vector<double> values_of(const torch::Tensor& tensor) {
  const torch::Tensor dense = tensor.contiguous();
  return std::vector<double>(dense.data_ptr<float>(), dense.data_ptr<float>() + dense.numel());
}


}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: Mean squared error
// ---------------------------------------------------------------------------------------------

TEST_CASE("mse_loss is 0 for a perfect prediction and 0.18 for the worked example", "[points=6][mse]") {
  auto target = torch::tensor({1.0, 2.0, 3.0});
  CHECK(value(torch::mse_loss(target, target)) == 0.0f);
  // (0.5^2 + 0.5^2 + 0.2^2) / 3 = 0.54 / 3 = 0.18
  CHECK(value(torch::mse_loss(torch::tensor({1.5, 2.5, 2.8}), target)) == Approx(0.18).margin(1e-6));
  // Squaring makes the sign irrelevant: an error of -2 costs as much as +2.
  CHECK(value(torch::mse_loss(torch::tensor({-1.0, 4.0}), torch::tensor({1.0, 2.0}))) == Approx(4.0));

  // Drawn values (secret under `tito grade`), the mean of squares worked out here.
  const int64_t rows = random_int(1, 4), cols = random_int(1, 6);
  const torch::Tensor prediction = random_tensor({rows, cols}), wanted = random_tensor({rows, cols});
  const std::vector<double> p = values_of(prediction), w = values_of(wanted);
  double sum = 0;
  for (size_t i = 0; i < p.size(); ++i) sum += (p[i] - w[i]) * (p[i] - w[i]);
  CHECK(value(torch::mse_loss(prediction, wanted)) == Approx(sum / static_cast<double>(p.size())).epsilon(1e-5));
}

TEST_CASE("mse_loss reductions: none keeps each squared error, sum adds them", "[points=5][mse]") {
  auto pred = torch::tensor({1.5, 2.5, 2.8});
  auto target = torch::tensor({1.0, 2.0, 3.0});
  CHECK_THAT(torch::mse_loss(pred, target, at::Reduction::None),
             AllClose(torch::tensor({0.25, 0.25, 0.04}), 1e-5, 1e-6));
  CHECK(value(torch::mse_loss(pred, target, at::Reduction::Sum)) == Approx(0.54).margin(1e-6));
  CHECK(value(F::mse_loss(pred, target, F::MSELossFuncOptions().reduction(torch::kSum))) == Approx(0.54).margin(1e-6));
  CHECK_THAT(F::mse_loss(pred, target, torch::kNone), AllClose(torch::tensor({0.25, 0.25, 0.04}), 1e-5, 1e-6));
}

TEST_CASE("mse_loss on matrices and with broadcasting shapes", "[points=5][mse]") {
  // (1 + 4 + 9 + 16) / 4 = 7.5
  CHECK(value(torch::mse_loss(torch::tensor({{1.0, 2.0}, {3.0, 4.0}}), torch::zeros({2, 2}))) == Approx(7.5));
  // (2, 1) against (2,) broadcasts to (2, 2), as in LibTorch (F::mse_loss warns about it):
  // (1 - 1.5)^2, (1 - 2.5)^2, (2 - 1.5)^2, (2 - 2.5)^2 = 0.25, 2.25, 0.25, 0.25 -> mean 0.75.
  CHECK(value(torch::mse_loss(torch::tensor({{1.0}, {2.0}}), torch::tensor({1.5, 2.5}))) == Approx(0.75));
  CHECK_THROWS_WITH(torch::mse_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor({1.5, 2.5})),
                    "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
}

TEST_CASE("mse_loss dtypes: float with int64 targets works, two int64 tensors do not", "[points=4][mse][dtype]") {
  CHECK(value(torch::mse_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor({1, 2, 5}))) == Approx(4.0 / 3));
  auto doubles = torch::mse_loss(torch::tensor({0.5}, torch::kDouble), torch::tensor({0.0}, torch::kDouble));
  CHECK(doubles.dtype() == torch::kDouble);
  CHECK(doubles.item<double>() == 0.25);
  CHECK_THROWS_WITH(torch::mse_loss(torch::tensor({1, 2}), torch::tensor({1, 2})),
                    "\"mse_cpu\" not implemented for 'Long'");
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: Negative log-likelihood
// ---------------------------------------------------------------------------------------------

TEST_CASE("nll_loss picks -log_probs[n][target[n]] and averages", "[points=6][nll]") {
  auto targets = torch::tensor({0, 1});
  CHECK(value(torch::nll_loss(log_probs(), targets)) == Approx(0.3));  // (0.5 + 0.1) / 2
  CHECK(value(torch::nll_loss(log_probs(), targets, {}, at::Reduction::Sum)) == Approx(0.6));
  CHECK_THAT(torch::nll_loss(log_probs(), targets, {}, at::Reduction::None),
             AllClose(torch::tensor({0.5, 0.1}), 1e-6, 1e-7));
  CHECK(value(torch::nll_loss(log_probs(), torch::tensor({1, 0}))) == Approx(1.5));  // (1 + 2) / 2
}

TEST_CASE("nll_loss class weights scale each sample and the mean divides by their sum", "[points=5][nll]") {
  auto weight = torch::tensor({1.0, 3.0});
  auto targets = torch::tensor({0, 1});
  CHECK(value(torch::nll_loss(log_probs(), targets, weight)) == Approx(0.2));  // (0.5 + 0.3) / 4
  CHECK(value(torch::nll_loss(log_probs(), targets, weight, at::Reduction::Sum)) == Approx(0.8));
  CHECK_THAT(torch::nll_loss(log_probs(), targets, weight, at::Reduction::None),
             AllClose(torch::tensor({0.5, 0.3}), 1e-6, 1e-7));
}

TEST_CASE("nll_loss ignore_index drops samples from the sum and the count", "[points=5][nll]") {
  CHECK(value(torch::nll_loss(log_probs(), torch::tensor({0, -100}))) == Approx(0.5));
  CHECK(value(F::nll_loss(log_probs(), torch::tensor({0, 1}), F::NLLLossFuncOptions().ignore_index(1))) ==
        Approx(0.5));
  CHECK_THAT(torch::nll_loss(log_probs(), torch::tensor({-100, 1}), {}, at::Reduction::None),
             AllClose(torch::tensor({0.0, 0.1}), 1e-6, 1e-7));
  // Every sample ignored: 0 / 0, NaN in LibTorch too.
  CHECK(std::isnan(value(torch::nll_loss(log_probs(), torch::tensor({-100, -100})))));
}

TEST_CASE("nll_loss rejects bad targets with LibTorch's messages", "[points=6][nll][errors]") {
  CHECK(value(torch::nll_loss(log_probs(), torch::tensor({1, 1}))) == Approx(0.55));
  CHECK_THROWS_WITH(torch::nll_loss(log_probs(), torch::tensor({0, 2})), "Target 2 is out of bounds.");
  CHECK_THROWS_WITH(torch::nll_loss(log_probs(), torch::tensor({-1, 0})), "Target -1 is out of bounds.");
  CHECK_THROWS_WITH(torch::nll_loss(log_probs(), torch::tensor({0.0, 1.0})), "expected scalar type Long but found Float");
  CHECK_THROWS_WITH(torch::nll_loss(log_probs(), torch::tensor({{0}, {1}})),
                    "0D or 1D target tensor expected, multi-target not supported");
  CHECK_THROWS_WITH(torch::nll_loss(log_probs(), torch::tensor({0, 1, 1})),
                    "size mismatch (got input: [2, 2], target: [3])");
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: Cross-entropy
// ---------------------------------------------------------------------------------------------

TEST_CASE("cross-entropy of uniform logits is ln C", "[points=6][cross_entropy]") {
  CHECK(value(torch::cross_entropy_loss(torch::zeros({4, 3}), torch::tensor({0, 1, 2, 0}))) ==
        Approx(1.0986123).margin(1e-6));
  CHECK(value(torch::cross_entropy_loss(torch::tensor({{7.0, 7.0}}), torch::tensor({1}))) ==
        Approx(0.6931472).margin(1e-6));
  // A (1000, 10) batch of zeros: ln 10 = 2.3025851 however many samples.
  CHECK(value(F::cross_entropy(torch::zeros({1000, 10}), torch::zeros({1000}, torch::kLong))) ==
        Approx(2.3025851).margin(1e-5));
}

TEST_CASE("cross-entropy of the worked example, with every reduction", "[points=6][cross_entropy]") {
  auto targets = torch::tensor({2, 0});
  CHECK_THAT(torch::cross_entropy_loss(logits(), targets, {}, at::Reduction::None),
             AllClose(torch::tensor({0.4076059, 1.0986123}), 1e-5, 1e-6));
  CHECK(value(torch::cross_entropy_loss(logits(), targets)) == Approx(0.7531091).margin(1e-6));
  CHECK(value(torch::cross_entropy_loss(logits(), targets, {}, at::Reduction::Sum)) == Approx(1.5062182).margin(1e-5));
  CHECK(value(F::cross_entropy(logits(), targets, F::CrossEntropyFuncOptions().reduction(torch::kSum))) ==
        Approx(1.5062182).margin(1e-5));

  // Drawn logits and targets (secret under `tito grade`): each row costs log(sum_j e^x_j) - x_target.
  const int64_t samples = random_int(1, 5), classes = random_int(2, 6);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 4);
  std::vector<int64_t> drawn_targets;
  for (int64_t n = 0; n < samples; ++n) drawn_targets.push_back(random_int(0, classes - 1));
  const std::vector<double> x = values_of(drawn);
  double total = 0;
  for (int64_t n = 0; n < samples; ++n) {
    double exp_sum = 0;
    for (int64_t c = 0; c < classes; ++c) exp_sum += std::exp(x[n * classes + c]);
    total += std::log(exp_sum) - x[n * classes + drawn_targets[n]];
  }
  CHECK(value(torch::cross_entropy_loss(drawn, torch::tensor(drawn_targets))) ==
        Approx(total / static_cast<double>(samples)).epsilon(1e-5));
}

TEST_CASE("cross-entropy is stable for huge logits and takes logits, not probabilities",
          "[points=6][cross_entropy][stability]") {
  // log_softmax([100, 0]) = [-e^-100, -100]: right costs ~0, wrong costs 100 (finite, not inf).
  CHECK(value(torch::cross_entropy_loss(torch::tensor({{100.0, 0.0}}), torch::tensor({0}))) == Approx(0.0).margin(1e-6));
  CHECK(value(torch::cross_entropy_loss(torch::tensor({{100.0, 0.0}}), torch::tensor({1}))) == Approx(100.0));
  CHECK(value(torch::cross_entropy_loss(torch::tensor({{1000.0, 1001.0, 1002.0}}), torch::tensor({2}))) ==
        Approx(0.4076059).margin(1e-5));
  // [5, 1, 0.1] with target 0 costs log(1 + e^-4 + e^-4.9) = 0.0254361; feeding it softmax
  // probabilities instead squashes the scores into [0, 1] and costs far more (0.5675).
  auto scores = torch::tensor({{5.0, 1.0, 0.1}});
  CHECK(value(torch::cross_entropy_loss(scores, torch::tensor({0}))) == Approx(0.0254361).margin(1e-5));
  CHECK(value(torch::cross_entropy_loss(torch::softmax(scores, 1), torch::tensor({0}))) ==
        Approx(0.5675).margin(1e-3));
}

TEST_CASE("cross-entropy with one unbatched sample, class weights and ignore_index", "[points=5][cross_entropy]") {
  auto single = torch::cross_entropy_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor(2));
  CHECK(value(single) == Approx(0.4076059).margin(1e-6));
  // (3 * 0.4076059 + 1 * 1.0986123) / (3 + 1) = 0.5803575
  auto weighted = F::cross_entropy(logits(), torch::tensor({2, 0}),
                                   F::CrossEntropyFuncOptions().weight(torch::tensor({1.0, 2.0, 3.0})));
  CHECK(value(weighted) == Approx(0.5803575).margin(1e-6));
  CHECK(value(torch::cross_entropy_loss(logits(), torch::tensor({2, -100}))) == Approx(0.4076059).margin(1e-6));
}

TEST_CASE("cross-entropy label smoothing mixes in the mean of -log p over classes", "[points=5][cross_entropy]") {
  // Row 0: nll 0.4076059, mean of -log p = (2.4076059 + 1.4076059 + 0.4076059) / 3 = 1.4076059;
  // row 1: both ln 3. Mean over rows, then 0.9 * 0.7531091 + 0.1 * 1.2531091 = 0.8031091.
  auto options = F::CrossEntropyFuncOptions().label_smoothing(0.1);
  CHECK(value(F::cross_entropy(logits(), torch::tensor({2, 0}), options)) == Approx(0.8031091).margin(1e-5));
  // Row 1 ignored: 0.9 * 0.4076059 + 0.1 * 1.4076059 = 0.5076059.
  CHECK(value(F::cross_entropy(logits(), torch::tensor({2, -100}), options)) == Approx(0.5076059).margin(1e-5));
  CHECK_THROWS_WITH(F::cross_entropy(logits(), torch::tensor({2, 0}), F::CrossEntropyFuncOptions().label_smoothing(1.5)),
                    "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
}

TEST_CASE("cross-entropy rejects bad shapes and dtypes with LibTorch's messages", "[points=5][cross_entropy][errors]") {
  CHECK(value(torch::cross_entropy_loss(logits(), torch::tensor({0, 1}))) == Approx((2.4076059 + 1.0986123) / 2));
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits(), torch::tensor({2, 3})), "Target 3 is out of bounds.");
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits(), torch::tensor({2, 0, 1})),
                    "Expected input batch_size (2) to match target batch_size (3).");
  CHECK_THROWS_WITH(torch::cross_entropy_loss(logits(), torch::tensor({2.0, 0.0})),
                    "expected scalar type Long but found Float");
  CHECK_THROWS_WITH(torch::cross_entropy_loss(torch::ones({2, 3}, torch::kLong), torch::tensor({0, 1})),
                    "\"log_softmax_lastdim_kernel_impl\" not implemented for 'Long'");
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: Binary cross-entropy
// ---------------------------------------------------------------------------------------------

TEST_CASE("binary cross-entropy of the worked example", "[points=6][bce]") {
  auto p = torch::tensor({0.9, 0.2});
  auto y = torch::tensor({1.0, 0.0});
  // -log 0.9 = 0.1053605, -log 0.8 = 0.2231436
  CHECK_THAT(torch::binary_cross_entropy(p, y, {}, at::Reduction::None),
             AllClose(torch::tensor({0.1053605, 0.2231436}), 1e-5, 1e-6));
  CHECK(value(torch::binary_cross_entropy(p, y)) == Approx(0.1642520).margin(1e-6));
  // A coin-flip prediction costs ln 2 whatever the label.
  CHECK(value(F::binary_cross_entropy(torch::full({4}, 0.5), torch::tensor({1.0, 0.0, 1.0, 0.0}))) ==
        Approx(0.6931472).margin(1e-6));
}

TEST_CASE("binary cross-entropy at p = 0 and p = 1 is clamped to 100, never inf or NaN", "[points=5][bce][stability]") {
  auto p = torch::tensor({0.0, 1.0, 0.0, 1.0});
  auto y = torch::tensor({1.0, 1.0, 0.0, 0.0});
  CHECK_THAT(torch::binary_cross_entropy(p, y, {}, at::Reduction::None),
             AllClose(torch::tensor({100.0, 0.0, 0.0, 100.0}), 1e-6, 1e-6));
  CHECK(value(torch::binary_cross_entropy(p, y)) == Approx(50.0));
  // Soft labels: y = 0.5 at p = 0 costs 0.5 * 100 + 0.5 * 0 = 50.
  CHECK(value(torch::binary_cross_entropy(torch::tensor({0.0}), torch::tensor({0.5}))) == Approx(50.0));
}

TEST_CASE("binary cross-entropy weights and sum", "[points=4][bce]") {
  auto p = torch::tensor({0.9, 0.2});
  auto y = torch::tensor({1.0, 0.0});
  auto w = torch::tensor({2.0, 1.0});
  CHECK_THAT(torch::binary_cross_entropy(p, y, w, at::Reduction::None),
             AllClose(torch::tensor({0.2107210, 0.2231436}), 1e-5, 1e-6));
  CHECK(value(F::binary_cross_entropy(p, y, F::BinaryCrossEntropyFuncOptions().weight(w).reduction(torch::kSum))) ==
        Approx(0.4338646).margin(1e-6));
}

TEST_CASE("binary cross-entropy rejects non-probabilities and mismatched targets", "[points=5][bce][errors]") {
  CHECK(value(torch::binary_cross_entropy(torch::tensor({0.5}), torch::tensor({1.0}))) == Approx(0.6931472).margin(1e-6));
  CHECK_THROWS_WITH(torch::binary_cross_entropy(torch::tensor({1.2}), torch::tensor({1.0})),
                    "all elements of input should be between 0 and 1");
  CHECK_THROWS_WITH(torch::binary_cross_entropy(torch::tensor({0.5, -0.1}), torch::tensor({1.0, 0.0})),
                    "all elements of input should be between 0 and 1");
  CHECK_THROWS_WITH(F::binary_cross_entropy(torch::tensor({0.5, 0.5}), torch::tensor({{1.0}, {1.0}})),
                    "Using a target size ([2, 1]) that is different to the input size ([2]) is deprecated. "
                    "Please ensure they have the same size.");
  CHECK_THROWS_WITH(F::binary_cross_entropy(torch::tensor({0.5}), torch::tensor({1})),
                    "Found dtype Long but expected Float");
}

// ---------------------------------------------------------------------------------------------
// Modules
// ---------------------------------------------------------------------------------------------

TEST_CASE("loss modules take LibTorch's options and print LibTorch's names", "[points=5][modules]") {
  nn::MSELoss mse(nn::MSELossOptions().reduction(torch::kSum));
  nn::CrossEntropyLoss ce;
  nn::NLLLoss nll(nn::NLLLossOptions().ignore_index(0));
  nn::BCELoss bce;
  CHECK(printed(mse) == "torch::nn::MSELoss()");
  CHECK(printed(ce) == "torch::nn::CrossEntropyLoss()");
  CHECK(printed(nll) == "torch::nn::NLLLoss()");
  CHECK(printed(bce) == "torch::nn::BCELoss()");
  CHECK(printed(nn::BCEWithLogitsLoss()) == "torch::nn::BCEWithLogitsLoss()");
  CHECK(ce->parameters().empty());
  CHECK(value(mse(torch::tensor({1.5, 2.5, 2.8}), torch::tensor({1.0, 2.0, 3.0}))) == Approx(0.54).margin(1e-6));
  CHECK(value(ce(logits(), torch::tensor({2, 0}))) == Approx(0.7531091).margin(1e-6));
  CHECK(value(nll(log_probs(), torch::tensor({0, 1}))) == Approx(0.1));
  CHECK(value(bce(torch::tensor({0.9, 0.2}), torch::tensor({1.0, 0.0}))) == Approx(0.1642520).margin(1e-6));
  nn::MSELoss per_element(torch::kNone);
  CHECK(per_element(torch::tensor({1.0, 3.0}), torch::tensor({0.0, 0.0})).sizes() == Sizes{2});
}
