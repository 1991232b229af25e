// Module 04 (Losses): the graded tests. Expected values are worked out by hand (the lesson shows
// the arithmetic: log(e^-2 + e^-1 + 1) = 0.4076059, ln 3 = 1.0986123, ...), never computed with the
// code under test. Each case is tagged with its points ([points=N], 100 in all); hints.json has a
// hint per case. Every case ends with inputs drawn by random_tensor / random_int, the expected loss
// worked out here from the definition: under `tito grade` they come from a secret seed, so only code
// that computes the loss gets them right (`tito module test` draws with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
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

// The values of a double tensor, read straight from memory.
std::vector<double> doubles_of(const torch::Tensor& tensor) {
  const torch::Tensor dense = tensor.contiguous();
  return std::vector<double>(dense.data_ptr<double>(), dense.data_ptr<double>() + dense.numel());
}

// One drawn class index in 0..classes-1 per sample.
std::vector<int64_t> drawn_targets(int64_t samples, int64_t classes) {
  std::vector<int64_t> targets;
  for (int64_t n = 0; n < samples; ++n) targets.push_back(random_int(0, classes - 1));
  return targets;
}

// log_softmax of row n of (N, C) logits given as values, in double: x - max - log(sum(exp(x - max))).
std::vector<double> row_log_softmax(const std::vector<double>& logits, int64_t n, int64_t classes) {
  const auto begin = logits.begin() + n * classes;
  const double top = *std::max_element(begin, begin + classes);
  double exp_sum = 0;
  for (int64_t c = 0; c < classes; ++c) exp_sum += std::exp(begin[c] - top);
  std::vector<double> result;
  for (int64_t c = 0; c < classes; ++c) result.push_back(begin[c] - top - std::log(exp_sum));
  return result;
}

// Each sample's cross-entropy -log_softmax(x[n])[target[n]], in double, from (N, C) logits' values.
std::vector<double> cross_entropy_by_hand(const std::vector<double>& logits, const std::vector<int64_t>& targets,
                                          int64_t classes) {
  std::vector<double> losses;
  for (size_t n = 0; n < targets.size(); ++n)
    losses.push_back(-row_log_softmax(logits, static_cast<int64_t>(n), classes)[targets[n]]);
  return losses;
}

// -(y log p + (1 - y) log(1 - p)), each log clamped at -100 as LibTorch does.
double bce_by_hand(double p, double y) {
  return -(y * std::max(std::log(p), -100.0) + (1 - y) * std::max(std::log(1 - p), -100.0));
}

double sum_of(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum;
}

// The same values as a float tensor of sizes {values.size()}.
torch::Tensor float_tensor(const std::vector<double>& values) {
  return torch::tensor(std::vector<float>(values.begin(), values.end()));
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

  // Drawn values (secret under `tito grade`), each squared difference worked out here.
  const int64_t size = random_int(1, 8);
  const torch::Tensor drawn_pred = random_tensor({size}), drawn_target = random_tensor({size});
  const std::vector<double> p = values_of(drawn_pred), t = values_of(drawn_target);
  std::vector<double> squares;
  for (size_t i = 0; i < p.size(); ++i) squares.push_back((p[i] - t[i]) * (p[i] - t[i]));
  CHECK_THAT(torch::mse_loss(drawn_pred, drawn_target, at::Reduction::None),
             AllClose(float_tensor(squares), 1e-5, 1e-6));
  CHECK(value(torch::mse_loss(drawn_pred, drawn_target, at::Reduction::Sum)) ==
        Approx(sum_of(squares)).epsilon(1e-5).margin(1e-6));
  CHECK(value(F::mse_loss(drawn_pred, drawn_target, F::MSELossFuncOptions().reduction(torch::kSum))) ==
        Approx(sum_of(squares)).epsilon(1e-5).margin(1e-6));
}

TEST_CASE("mse_loss on matrices and with broadcasting shapes", "[points=5][mse]") {
  // (1 + 4 + 9 + 16) / 4 = 7.5
  CHECK(value(torch::mse_loss(torch::tensor({{1.0, 2.0}, {3.0, 4.0}}), torch::zeros({2, 2}))) == Approx(7.5));
  // (2, 1) against (2,) broadcasts to (2, 2), as in LibTorch (F::mse_loss warns about it):
  // (1 - 1.5)^2, (1 - 2.5)^2, (2 - 1.5)^2, (2 - 2.5)^2 = 0.25, 2.25, 0.25, 0.25 -> mean 0.75.
  CHECK(value(torch::mse_loss(torch::tensor({{1.0}, {2.0}}), torch::tensor({1.5, 2.5}))) == Approx(0.75));
  CHECK_THROWS_WITH(torch::mse_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor({1.5, 2.5})),
                    "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");

  // Drawn (rows, 1) against (cols,) (secret under `tito grade`): the mean over all rows x cols pairs.
  const int64_t rows = random_int(1, 4), cols = random_int(2, 5);
  const torch::Tensor column = random_tensor({rows, 1}), row = random_tensor({cols});
  const std::vector<double> a = values_of(column), b = values_of(row);
  double sum = 0;
  for (double u : a)
    for (double v : b) sum += (u - v) * (u - v);
  CHECK(value(torch::mse_loss(column, row)) ==
        Approx(sum / static_cast<double>(rows * cols)).epsilon(1e-5).margin(1e-6));
  const int64_t wider = cols + random_int(1, 3);
  CHECK_THROWS_WITH(torch::mse_loss(random_tensor({wider}), row),
                    "The size of tensor a (" + std::to_string(wider) + ") must match the size of tensor b (" +
                        std::to_string(cols) + ") at non-singleton dimension 0");
}

TEST_CASE("mse_loss dtypes: float with int64 targets works, two int64 tensors do not", "[points=4][mse][dtype]") {
  CHECK(value(torch::mse_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor({1, 2, 5}))) == Approx(4.0 / 3));
  auto doubles = torch::mse_loss(torch::tensor({0.5}, torch::kDouble), torch::tensor({0.0}, torch::kDouble));
  CHECK(doubles.dtype() == torch::kDouble);
  CHECK(doubles.item<double>() == 0.25);
  CHECK_THROWS_WITH(torch::mse_loss(torch::tensor({1, 2}), torch::tensor({1, 2})),
                    "\"mse_cpu\" not implemented for 'Long'");

  // Drawn values (secret under `tito grade`): float against int64, and double against double.
  const int64_t size = random_int(1, 8);
  const torch::Tensor pred = random_tensor({size}, -4, 4), whole = random_tensor({size}, -4, 4, torch::kLong);
  const std::vector<double> p = values_of(pred);
  double sum = 0;
  for (int64_t i = 0; i < size; ++i) {
    const double d = p[i] - static_cast<double>(whole.data_ptr<int64_t>()[i]);
    sum += d * d;
  }
  CHECK(value(torch::mse_loss(pred, whole)) == Approx(sum / static_cast<double>(size)).epsilon(1e-5).margin(1e-6));
  const torch::Tensor pred_d = random_tensor({size}, -2, 2, torch::kDouble);
  const torch::Tensor target_d = random_tensor({size}, -2, 2, torch::kDouble);
  const std::vector<double> u = doubles_of(pred_d), v = doubles_of(target_d);
  double sum_d = 0;
  for (int64_t i = 0; i < size; ++i) sum_d += (u[i] - v[i]) * (u[i] - v[i]);
  auto loss_d = torch::mse_loss(pred_d, target_d);
  CHECK(loss_d.dtype() == torch::kDouble);
  CHECK(doubles_of(loss_d)[0] == Approx(sum_d / static_cast<double>(size)).epsilon(1e-12).margin(1e-12));
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

  // Drawn log-probabilities and targets (secret under `tito grade`): sample n costs -lp[n][target[n]].
  const int64_t samples = random_int(1, 6), classes = random_int(2, 5);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 0);
  const std::vector<int64_t> classes_drawn = drawn_targets(samples, classes);
  const std::vector<double> lp = values_of(drawn);
  std::vector<double> picked;
  for (int64_t n = 0; n < samples; ++n) picked.push_back(-lp[n * classes + classes_drawn[n]]);
  const torch::Tensor drawn_targets_tensor = torch::tensor(classes_drawn);
  CHECK_THAT(torch::nll_loss(drawn, drawn_targets_tensor, {}, at::Reduction::None),
             AllClose(float_tensor(picked), 1e-6, 1e-7));
  CHECK(value(torch::nll_loss(drawn, drawn_targets_tensor)) ==
        Approx(sum_of(picked) / static_cast<double>(samples)).margin(1e-6));
  CHECK(value(torch::nll_loss(drawn, drawn_targets_tensor, {}, at::Reduction::Sum)) ==
        Approx(sum_of(picked)).margin(1e-6));
}

TEST_CASE("nll_loss class weights scale each sample and the mean divides by their sum", "[points=5][nll]") {
  auto weight = torch::tensor({1.0, 3.0});
  auto targets = torch::tensor({0, 1});
  CHECK(value(torch::nll_loss(log_probs(), targets, weight)) == Approx(0.2));  // (0.5 + 0.3) / 4
  CHECK(value(torch::nll_loss(log_probs(), targets, weight, at::Reduction::Sum)) == Approx(0.8));
  CHECK_THAT(torch::nll_loss(log_probs(), targets, weight, at::Reduction::None),
             AllClose(torch::tensor({0.5, 0.3}), 1e-6, 1e-7));

  // Drawn log-probabilities, targets and positive class weights (secret under `tito grade`): sample n
  // costs -w[t] lp[n][t] with t = target[n], and the mean divides by the sum of those w[t].
  const int64_t samples = random_int(1, 6), classes = random_int(2, 5);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 0);
  const torch::Tensor class_weight = random_tensor({classes}, 0.25, 2);
  const std::vector<int64_t> drawn_target = drawn_targets(samples, classes);
  const std::vector<double> lp = values_of(drawn), w = values_of(class_weight);
  std::vector<double> weighted;
  double weight_sum = 0;
  for (int64_t n = 0; n < samples; ++n) {
    weighted.push_back(-w[drawn_target[n]] * lp[n * classes + drawn_target[n]]);
    weight_sum += w[drawn_target[n]];
  }
  const torch::Tensor drawn_targets_tensor = torch::tensor(drawn_target);
  CHECK_THAT(torch::nll_loss(drawn, drawn_targets_tensor, class_weight, at::Reduction::None),
             AllClose(float_tensor(weighted), 1e-6, 1e-6));
  CHECK(value(torch::nll_loss(drawn, drawn_targets_tensor, class_weight)) ==
        Approx(sum_of(weighted) / weight_sum).epsilon(1e-5).margin(1e-6));
  CHECK(value(torch::nll_loss(drawn, drawn_targets_tensor, class_weight, at::Reduction::Sum)) ==
        Approx(sum_of(weighted)).epsilon(1e-5).margin(1e-6));
}

TEST_CASE("nll_loss ignore_index drops samples from the sum and the count", "[points=5][nll]") {
  CHECK(value(torch::nll_loss(log_probs(), torch::tensor({0, -100}))) == Approx(0.5));
  CHECK(value(F::nll_loss(log_probs(), torch::tensor({0, 1}), F::NLLLossFuncOptions().ignore_index(1))) ==
        Approx(0.5));
  CHECK_THAT(torch::nll_loss(log_probs(), torch::tensor({-100, 1}), {}, at::Reduction::None),
             AllClose(torch::tensor({0.0, 0.1}), 1e-6, 1e-7));
  // Every sample ignored: 0 / 0, NaN in LibTorch too.
  CHECK(std::isnan(value(torch::nll_loss(log_probs(), torch::tensor({-100, -100})))));

  // Drawn (secret under `tito grade`): one sample's target is -100, so it costs 0 and leaves the count.
  const int64_t samples = random_int(2, 6), classes = random_int(2, 5);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 0);
  const std::vector<double> lp = values_of(drawn);
  std::vector<int64_t> targets = drawn_targets(samples, classes);
  targets[random_int(0, samples - 1)] = -100;
  std::vector<double> losses;
  for (int64_t n = 0; n < samples; ++n) losses.push_back(targets[n] == -100 ? 0.0 : -lp[n * classes + targets[n]]);
  CHECK_THAT(torch::nll_loss(drawn, torch::tensor(targets), {}, at::Reduction::None),
             AllClose(float_tensor(losses), 1e-6, 1e-7));
  CHECK(value(torch::nll_loss(drawn, torch::tensor(targets))) ==
        Approx(sum_of(losses) / static_cast<double>(samples - 1)).margin(1e-6));
  // A drawn ignore_index option: the samples of that class are dropped; one sample is sure to count.
  const int64_t skipped = random_int(0, classes - 1);
  std::vector<int64_t> classes_drawn = drawn_targets(samples, classes);
  classes_drawn[random_int(0, samples - 1)] = (skipped + 1) % classes;
  double kept_sum = 0;
  int64_t kept = 0;
  for (int64_t n = 0; n < samples; ++n) {
    if (classes_drawn[n] == skipped) continue;
    kept_sum -= lp[n * classes + classes_drawn[n]];
    ++kept;
  }
  CHECK(value(F::nll_loss(drawn, torch::tensor(classes_drawn), F::NLLLossFuncOptions().ignore_index(skipped))) ==
        Approx(kept_sum / static_cast<double>(kept)).margin(1e-6));
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

  // Drawn (secret under `tito grade`): valid targets give the mean of -lp, a class past the end is refused.
  const int64_t samples = random_int(1, 6), classes = random_int(2, 5);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 0);
  const std::vector<double> lp = values_of(drawn);
  std::vector<int64_t> targets = drawn_targets(samples, classes);
  double sum = 0;
  for (int64_t n = 0; n < samples; ++n) sum -= lp[n * classes + targets[n]];
  CHECK(value(torch::nll_loss(drawn, torch::tensor(targets))) ==
        Approx(sum / static_cast<double>(samples)).margin(1e-6));
  const int64_t too_big = classes + random_int(0, 5);
  targets[random_int(0, samples - 1)] = too_big;
  CHECK_THROWS_WITH(torch::nll_loss(drawn, torch::tensor(targets)),
                    "Target " + std::to_string(too_big) + " is out of bounds.");
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

  // Drawn batch, class count, level and targets (secret under `tito grade`): equal logits cost ln C each.
  const int64_t samples = random_int(1, 6), classes = random_int(2, 12);
  const double level = static_cast<double>(random_int(-16, 16)) / 4;
  const std::vector<int64_t> targets = drawn_targets(samples, classes);
  CHECK(value(torch::cross_entropy_loss(torch::full({samples, classes}, level), torch::tensor(targets))) ==
        Approx(std::log(static_cast<double>(classes))).margin(1e-5));
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

  // Drawn huge logits and targets (secret under `tito grade`): exp of any of them overflows float, the
  // loss must not; each row costs log(sum_j e^(x_j - max)) - (x_target - max), worked out here.
  const int64_t samples = random_int(1, 4), classes = random_int(2, 6);
  const torch::Tensor huge = random_tensor({samples, classes}, 900, 1000);
  const std::vector<int64_t> targets = drawn_targets(samples, classes);
  const std::vector<double> losses = cross_entropy_by_hand(values_of(huge), targets, classes);
  CHECK_THAT(torch::cross_entropy_loss(huge, torch::tensor(targets), {}, at::Reduction::None),
             AllClose(float_tensor(losses), 1e-5, 1e-5));
  CHECK(value(torch::cross_entropy_loss(huge, torch::tensor(targets))) ==
        Approx(sum_of(losses) / static_cast<double>(samples)).epsilon(1e-5).margin(1e-5));
}

TEST_CASE("cross-entropy with one unbatched sample, class weights and ignore_index", "[points=5][cross_entropy]") {
  auto single = torch::cross_entropy_loss(torch::tensor({1.0, 2.0, 3.0}), torch::tensor(2));
  CHECK(value(single) == Approx(0.4076059).margin(1e-6));
  // (3 * 0.4076059 + 1 * 1.0986123) / (3 + 1) = 0.5803575
  auto weighted = F::cross_entropy(logits(), torch::tensor({2, 0}),
                                   F::CrossEntropyFuncOptions().weight(torch::tensor({1.0, 2.0, 3.0})));
  CHECK(value(weighted) == Approx(0.5803575).margin(1e-6));
  CHECK(value(torch::cross_entropy_loss(logits(), torch::tensor({2, -100}))) == Approx(0.4076059).margin(1e-6));

  // Drawn (secret under `tito grade`): an unbatched row and target, then a batch with class weights
  // (the mean divides by the targets' weights), then the same batch with one row ignored.
  const int64_t samples = random_int(2, 5), classes = random_int(2, 6);
  const torch::Tensor row = random_tensor({classes}, -4, 4);
  const int64_t row_target = random_int(0, classes - 1);
  CHECK(value(torch::cross_entropy_loss(row, torch::tensor(row_target))) ==
        Approx(cross_entropy_by_hand(values_of(row), {row_target}, classes)[0]).epsilon(1e-5).margin(1e-6));
  const torch::Tensor batch = random_tensor({samples, classes}, -4, 4);
  const torch::Tensor class_weight = random_tensor({classes}, 0.25, 2);
  std::vector<int64_t> targets = drawn_targets(samples, classes);
  const std::vector<double> losses = cross_entropy_by_hand(values_of(batch), targets, classes);
  const std::vector<double> w = values_of(class_weight);
  double weighted_sum = 0, weight_sum = 0;
  for (int64_t n = 0; n < samples; ++n) {
    weighted_sum += w[targets[n]] * losses[n];
    weight_sum += w[targets[n]];
  }
  CHECK(value(F::cross_entropy(batch, torch::tensor(targets), F::CrossEntropyFuncOptions().weight(class_weight))) ==
        Approx(weighted_sum / weight_sum).epsilon(1e-5).margin(1e-6));
  const int64_t ignored = random_int(0, samples - 1);
  targets[ignored] = -100;
  CHECK(value(torch::cross_entropy_loss(batch, torch::tensor(targets))) ==
        Approx((sum_of(losses) - losses[ignored]) / static_cast<double>(samples - 1)).epsilon(1e-5).margin(1e-6));
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

  // Drawn logits, targets and smoothing eps (secret under `tito grade`): each row costs
  // (1 - eps) (-log p_target) + eps * (mean over classes of -log p_c); the loss is the mean over rows.
  const int64_t samples = random_int(1, 5), classes = random_int(2, 6);
  const double eps = static_cast<double>(random_int(1, 9)) / 10;
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 4);
  const std::vector<int64_t> targets = drawn_targets(samples, classes);
  const std::vector<double> x = values_of(drawn);
  double total = 0;
  for (int64_t n = 0; n < samples; ++n) {
    const std::vector<double> lp = row_log_softmax(x, n, classes);
    total += (1 - eps) * -lp[targets[n]] - eps * sum_of(lp) / static_cast<double>(classes);
  }
  CHECK(value(F::cross_entropy(drawn, torch::tensor(targets), F::CrossEntropyFuncOptions().label_smoothing(eps))) ==
        Approx(total / static_cast<double>(samples)).epsilon(1e-5).margin(1e-6));
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

  // Drawn (secret under `tito grade`): valid targets give the mean cross-entropy; a class past the end
  // and a target batch of another size are refused with the drawn numbers in the message.
  const int64_t samples = random_int(1, 5), classes = random_int(2, 6);
  const torch::Tensor drawn = random_tensor({samples, classes}, -4, 4);
  std::vector<int64_t> targets = drawn_targets(samples, classes);
  const std::vector<double> losses = cross_entropy_by_hand(values_of(drawn), targets, classes);
  CHECK(value(torch::cross_entropy_loss(drawn, torch::tensor(targets))) ==
        Approx(sum_of(losses) / static_cast<double>(samples)).epsilon(1e-5).margin(1e-6));
  const int64_t other_batch = samples + random_int(1, 3);
  CHECK_THROWS_WITH(torch::cross_entropy_loss(drawn, torch::tensor(drawn_targets(other_batch, classes))),
                    "Expected input batch_size (" + std::to_string(samples) + ") to match target batch_size (" +
                        std::to_string(other_batch) + ").");
  const int64_t too_big = classes + random_int(0, 5);
  targets[random_int(0, samples - 1)] = too_big;
  CHECK_THROWS_WITH(torch::cross_entropy_loss(drawn, torch::tensor(targets)),
                    "Target " + std::to_string(too_big) + " is out of bounds.");
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

  // Drawn probabilities and labels (secret under `tito grade`): each term -(y log p + (1 - y) log(1 - p)).
  const int64_t size = random_int(1, 8);
  const torch::Tensor probs = random_tensor({size}, 0.125, 0.875), labels = random_tensor({size}, 0, 1);
  const std::vector<double> pv = values_of(probs), yv = values_of(labels);
  std::vector<double> terms;
  for (int64_t i = 0; i < size; ++i) terms.push_back(bce_by_hand(pv[i], yv[i]));
  CHECK_THAT(torch::binary_cross_entropy(probs, labels, {}, at::Reduction::None),
             AllClose(float_tensor(terms), 1e-5, 1e-6));
  CHECK(value(torch::binary_cross_entropy(probs, labels)) ==
        Approx(sum_of(terms) / static_cast<double>(size)).epsilon(1e-5).margin(1e-6));
}

TEST_CASE("binary cross-entropy at p = 0 and p = 1 is clamped to 100, never inf or NaN", "[points=5][bce][stability]") {
  auto p = torch::tensor({0.0, 1.0, 0.0, 1.0});
  auto y = torch::tensor({1.0, 1.0, 0.0, 0.0});
  CHECK_THAT(torch::binary_cross_entropy(p, y, {}, at::Reduction::None),
             AllClose(torch::tensor({100.0, 0.0, 0.0, 100.0}), 1e-6, 1e-6));
  CHECK(value(torch::binary_cross_entropy(p, y)) == Approx(50.0));
  // Soft labels: y = 0.5 at p = 0 costs 0.5 * 100 + 0.5 * 0 = 50.
  CHECK(value(torch::binary_cross_entropy(torch::tensor({0.0}), torch::tensor({0.5}))) == Approx(50.0));

  // Drawn probabilities with a 0 and a 1 among them, and drawn soft labels (secret under `tito grade`):
  // every log is clamped at -100, so each term is finite and worked out here.
  const int64_t size = random_int(2, 8);
  torch::Tensor probs = random_tensor({size}, 0, 1);
  const int64_t zero_at = random_int(0, size - 1), one_at = (zero_at + random_int(1, size - 1)) % size;
  probs.data_ptr<float>()[zero_at] = 0.0f;
  probs.data_ptr<float>()[one_at] = 1.0f;
  const torch::Tensor labels = random_tensor({size}, 0, 1);
  const std::vector<double> pv = values_of(probs), yv = values_of(labels);
  std::vector<double> terms;
  for (int64_t i = 0; i < size; ++i) terms.push_back(bce_by_hand(pv[i], yv[i]));
  CHECK_THAT(torch::binary_cross_entropy(probs, labels, {}, at::Reduction::None),
             AllClose(float_tensor(terms), 1e-5, 1e-5));
  CHECK(value(torch::binary_cross_entropy(probs, labels)) ==
        Approx(sum_of(terms) / static_cast<double>(size)).epsilon(1e-5).margin(1e-5));
}

TEST_CASE("binary cross-entropy weights and sum", "[points=4][bce]") {
  auto p = torch::tensor({0.9, 0.2});
  auto y = torch::tensor({1.0, 0.0});
  auto w = torch::tensor({2.0, 1.0});
  CHECK_THAT(torch::binary_cross_entropy(p, y, w, at::Reduction::None),
             AllClose(torch::tensor({0.2107210, 0.2231436}), 1e-5, 1e-6));
  CHECK(value(F::binary_cross_entropy(p, y, F::BinaryCrossEntropyFuncOptions().weight(w).reduction(torch::kSum))) ==
        Approx(0.4338646).margin(1e-6));

  // Drawn probabilities, labels and weights (secret under `tito grade`): each term is scaled by its weight.
  const int64_t size = random_int(1, 8);
  const torch::Tensor probs = random_tensor({size}, 0.125, 0.875), labels = random_tensor({size}, 0, 1);
  const torch::Tensor weights = random_tensor({size}, 0, 3);
  const std::vector<double> pv = values_of(probs), yv = values_of(labels), wv = values_of(weights);
  std::vector<double> terms;
  for (int64_t i = 0; i < size; ++i) terms.push_back(wv[i] * bce_by_hand(pv[i], yv[i]));
  CHECK_THAT(torch::binary_cross_entropy(probs, labels, weights, at::Reduction::None),
             AllClose(float_tensor(terms), 1e-5, 1e-6));
  CHECK(value(F::binary_cross_entropy(probs, labels,
                                     F::BinaryCrossEntropyFuncOptions().weight(weights).reduction(torch::kSum))) ==
        Approx(sum_of(terms)).epsilon(1e-5).margin(1e-6));
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

  // Drawn (secret under `tito grade`): probabilities in [0, 1] give the mean term, one above 1 is refused.
  const int64_t size = random_int(1, 8);
  torch::Tensor probs = random_tensor({size}, 0.125, 0.875);
  const torch::Tensor labels = random_tensor({size}, 0, 1);
  const std::vector<double> pv = values_of(probs), yv = values_of(labels);
  double sum = 0;
  for (int64_t i = 0; i < size; ++i) sum += bce_by_hand(pv[i], yv[i]);
  CHECK(value(torch::binary_cross_entropy(probs, labels)) ==
        Approx(sum / static_cast<double>(size)).epsilon(1e-5).margin(1e-6));
  probs.data_ptr<float>()[random_int(0, size - 1)] = 1.0f + static_cast<float>(random_int(1, 8)) / 8;
  CHECK_THROWS_WITH(torch::binary_cross_entropy(probs, labels), "all elements of input should be between 0 and 1");
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

  // Drawn inputs (secret under `tito grade`): each module computes its loss with its options.
  const int64_t samples = random_int(1, 6), classes = random_int(2, 5);
  const torch::Tensor pred = random_tensor({samples}), target = random_tensor({samples});
  const std::vector<double> pv = values_of(pred), tv = values_of(target);
  double squares = 0;
  for (int64_t n = 0; n < samples; ++n) squares += (pv[n] - tv[n]) * (pv[n] - tv[n]);
  CHECK(value(mse(pred, target)) == Approx(squares).epsilon(1e-5).margin(1e-6));  // reduction sum
  CHECK(per_element(pred, target).sizes() == Sizes{samples});

  const torch::Tensor scores = random_tensor({samples, classes}, -4, 4);
  const std::vector<int64_t> targets = drawn_targets(samples, classes);
  CHECK(value(ce(scores, torch::tensor(targets))) ==
        Approx(sum_of(cross_entropy_by_hand(values_of(scores), targets, classes)) / static_cast<double>(samples))
            .epsilon(1e-5)
            .margin(1e-6));

  // nll ignores class 0: one sample is sure to have another class.
  const torch::Tensor lp = random_tensor({samples, classes}, -4, 0);
  std::vector<int64_t> nll_targets = drawn_targets(samples, classes);
  nll_targets[random_int(0, samples - 1)] = random_int(1, classes - 1);
  const std::vector<double> lpv = values_of(lp);
  double kept_sum = 0;
  int64_t kept = 0;
  for (int64_t n = 0; n < samples; ++n) {
    if (nll_targets[n] == 0) continue;
    kept_sum -= lpv[n * classes + nll_targets[n]];
    ++kept;
  }
  CHECK(value(nll(lp, torch::tensor(nll_targets))) == Approx(kept_sum / static_cast<double>(kept)).margin(1e-6));

  const torch::Tensor probs = random_tensor({samples}, 0.125, 0.875), labels = random_tensor({samples}, 0, 1);
  const std::vector<double> prob_v = values_of(probs), label_v = values_of(labels);
  double bce_sum = 0;
  for (int64_t n = 0; n < samples; ++n) bce_sum += bce_by_hand(prob_v[n], label_v[n]);
  CHECK(value(bce(probs, labels)) == Approx(bce_sum / static_cast<double>(samples)).epsilon(1e-5).margin(1e-6));
}
