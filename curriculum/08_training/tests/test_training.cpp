// Module 08 (Training): the graded tests. Models are one or two Linear layers with weights set by
// hand, so that every expected number is worked out in the comments from the formulas of the
// lesson (in double precision; the framework computes in float, hence the small tolerances).
// Each case is tagged with its points ([points=N], 100 in all) and a topic; hints.json has a hint
// per case name. Every case goes through code the learner writes: the schedulers' get_lrs,
// clip_grad_norm_, and the Trainer's process_batch, optimizer_update, train_epoch and evaluate.
// Every case ends with inputs drawn by random_tensor / random_int (rates, gradients, weights,
// batches), the expected values worked out in the test from the formulas: under `tito grade` they
// come from a secret seed, so only code that computes the answer gets them right (`tito module
// test` draws with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace training = torch::training;
using Batch = torch::data::Example<>;
using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;

namespace {

const double kPi = std::acos(-1.0);

// A float leaf tensor whose gradient is `gradient`: backward of sum(p * gradient) with p = 0.
torch::Tensor with_grad(const torch::Tensor& gradient) {
  torch::Tensor p = torch::zeros(gradient.sizes(), torch::requires_grad());
  (p * gradient.to(torch::kFloat)).sum().backward();
  return p;
}

double grad_of(const torch::Tensor& p, int64_t i = 0) { return p.grad().reshape({-1})[i].item<double>(); }

// y = w x, one weight set by hand.
torch::nn::Linear scalar_model(double w) {
  torch::nn::Linear model(torch::nn::LinearOptions(1, 1).bias(false));
  torch::NoGradGuard no_grad;
  model->weight.fill_(w);
  return model;
}

double weight_of(const torch::nn::Linear& model) { return model->weight.reshape({-1})[0].item<double>(); }

// A float (N, 1) batch: one feature or one target per sample.
torch::Tensor column(std::vector<double> values) {
  return torch::tensor(values, torch::kFloat).reshape({static_cast<int64_t>(values.size()), 1});
}

// Scores = identity(x): the class with the largest input wins.
torch::nn::Linear identity_classifier(int64_t classes = 2) {
  torch::nn::Linear model(classes, classes);
  torch::NoGradGuard no_grad;
  model->weight.copy_(torch::eye(classes));
  model->bias.zero_();
  return model;
}

training::TrainerOptions quiet() { return training::TrainerOptions().progress(false); }

torch::nn::MSELoss mse() { return torch::nn::MSELoss(); }

// A drawn number k / 4 in [-2, 2]: products of two of them are exact in float.
double drawn_quarter() { return static_cast<double>(random_int(-8, 8)) / 4; }

// A drawn regression batch for scalar_model: `size` inputs and targets, quarters in [-2, 2].
struct DrawnPoints {
  std::vector<double> xs, ts;
};
DrawnPoints drawn_points(int64_t size) {
  DrawnPoints points;
  for (int64_t i = 0; i < size; ++i) {
    points.xs.push_back(drawn_quarter());
    points.ts.push_back(drawn_quarter());
  }
  return points;
}

// For y = w x and MSE, worked out from the definition: the summed squared error of a batch and the
// summed gradient in w, sum of 2 (w x - t) x.
double squared_error_sum(double w, const DrawnPoints& points) {
  double sum = 0;
  for (size_t i = 0; i < points.xs.size(); ++i) {
    const double residual = w * points.xs[i] - points.ts[i];
    sum += residual * residual;
  }
  return sum;
}
double gradient_sum(double w, const DrawnPoints& points) {
  double sum = 0;
  for (size_t i = 0; i < points.xs.size(); ++i) sum += 2 * (w * points.xs[i] - points.ts[i]) * points.xs[i];
  return sum;
}
Batch batch_of(const DrawnPoints& points) { return Batch{column(points.xs), column(points.ts)}; }

// A drawn learning rate k / 64 in (0, 1/8]: small enough that y = w x with |x| <= 2 never diverges.
double drawn_lr() { return static_cast<double>(random_int(1, 8)) / 64; }

// `count` drawn float values with magnitudes in [low, high] (multiples of 1/8) and either sign.
torch::Tensor drawn_signed(int64_t count, double low, double high) {
  torch::Tensor values = random_tensor({count}, low, high);
  float* data = values.data_ptr<float>();
  for (int64_t i = 0; i < count; ++i) {
    if (random_int(0, 1) == 1) data[i] = -data[i];
  }
  return values;
}

// The norm of order `order` (2, 1 or infinity) of the values of float `tensors` taken as one long
// vector, worked out from the definition.
double global_norm(const std::vector<torch::Tensor>& tensors, double order) {
  double largest = 0, sum_of_powers = 0;
  for (const torch::Tensor& t : tensors) {
    const torch::Tensor dense = t.contiguous();
    for (int64_t i = 0; i < dense.numel(); ++i) {
      const double magnitude = std::abs(static_cast<double>(dense.data_ptr<float>()[i]));
      largest = std::max(largest, magnitude);
      if (!std::isinf(order)) sum_of_powers += std::pow(magnitude, order);
    }
  }
  return std::isinf(order) ? largest : std::pow(sum_of_powers, 1 / order);
}

// A float tensor's values times `factor`, worked out value by value.
torch::Tensor times(const torch::Tensor& values, double factor) {
  return tinytorch::testing::map_values(values, [factor](float v) { return v * factor; });
}

// A drawn classification batch: `rows` score rows over `classes` classes whose largest score is
// unique (no tie for argmax), and drawn target classes.
struct DrawnScores {
  torch::Tensor input, target;
};
DrawnScores drawn_scores(int64_t rows, int64_t classes) {
  torch::Tensor input = random_tensor({rows, classes}, -3, 3);
  float* scores = input.data_ptr<float>();
  for (int64_t r = 0; r < rows; ++r) {
    float* row = scores + r * classes;
    // Lift one drawn entry above every other: the argmax is then that entry alone.
    const int64_t winner = random_int(0, classes - 1);
    row[winner] = *std::max_element(row, row + classes) + static_cast<float>(random_int(1, 8)) / 8;
  }
  return DrawnScores{input, random_tensor({rows}, 0, static_cast<double>(classes - 1), torch::kLong)};
}

// Worked out from the definition for scores x and targets: the summed cross-entropy
// (log sum_j exp(x_j) - x_target, per row) and the number of rows whose argmax is the target.
struct ScoreTotals {
  double loss_sum = 0;
  int64_t correct = 0;
};
ScoreTotals score_totals(const DrawnScores& batch) {
  ScoreTotals totals;
  const int64_t rows = batch.input.size(0), classes = batch.input.size(1);
  const float* scores = batch.input.data_ptr<float>();
  const int64_t* targets = batch.target.data_ptr<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = scores + r * classes;
    double exp_sum = 0;
    for (int64_t j = 0; j < classes; ++j) exp_sum += std::exp(static_cast<double>(row[j]));
    totals.loss_sum += std::log(exp_sum) - row[targets[r]];
    if (std::max_element(row, row + classes) - row == targets[r]) totals.correct += 1;
  }
  return totals;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: learning-rate schedules (schedulers.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("StepLR decays every step_size calls, LibTorch's way", "[points=8][scheduler]") {
  auto p = torch::zeros({1}, torch::requires_grad());
  auto q = torch::zeros({1}, torch::requires_grad());
  torch::optim::SGD optimizer({p}, torch::optim::SGDOptions(1.0));
  optimizer.add_param_group(torch::optim::OptimizerParamGroup({q}, std::make_unique<torch::optim::SGDOptions>(0.2)));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/2, /*gamma=*/0.5);
  // LibTorch decays on the call made when step_count_ (the calls before it) is a positive
  // multiple of step_size: calls 3, 5, 7.
  const double expected[] = {1, 1, 0.5, 0.5, 0.25, 0.25, 0.125};
  for (double lr : expected) {
    scheduler.step();
    CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(lr).epsilon(1e-12));
    CHECK(optimizer.param_groups()[1].options().get_lr() == Approx(0.2 * lr).epsilon(1e-12));
  }
  // The default gamma is 0.1.
  torch::optim::SGD other({torch::zeros({1}, torch::requires_grad())}, torch::optim::SGDOptions(1.0));
  torch::optim::StepLR default_gamma(other, 1);
  default_gamma.step();
  default_gamma.step();
  CHECK(other.param_groups()[0].options().get_lr() == Approx(0.1).epsilon(1e-12));

  // Drawn step_size, gamma and two groups' starting rates: after call k (k >= 1) each group's rate
  // is its own starting rate times gamma^floor((k - 1) / step_size).
  const int64_t step_size = random_int(1, 4);
  const double gamma = static_cast<double>(random_int(1, 9)) / 10;
  const double base_lrs[] = {static_cast<double>(random_int(1, 16)) / 8, static_cast<double>(random_int(1, 16)) / 8};
  auto r = torch::zeros({1}, torch::requires_grad());
  auto s = torch::zeros({1}, torch::requires_grad());
  torch::optim::SGD drawn_optimizer({r}, torch::optim::SGDOptions(base_lrs[0]));
  drawn_optimizer.add_param_group(
      torch::optim::OptimizerParamGroup({s}, std::make_unique<torch::optim::SGDOptions>(base_lrs[1])));
  torch::optim::StepLR drawn_scheduler(drawn_optimizer, static_cast<unsigned>(step_size), gamma);
  for (int64_t call = 1; call <= 12; ++call) {
    drawn_scheduler.step();
    const double factor = std::pow(gamma, static_cast<double>((call - 1) / step_size));
    INFO("call " << call << ", step_size " << step_size << ", gamma " << gamma);
    CHECK(drawn_optimizer.param_groups()[0].options().get_lr() == Approx(base_lrs[0] * factor).epsilon(1e-12));
    CHECK(drawn_optimizer.param_groups()[1].options().get_lr() == Approx(base_lrs[1] * factor).epsilon(1e-12));
  }
}

TEST_CASE("CosineAnnealingLR follows the closed form from base_lr down to eta_min", "[points=8][scheduler]") {
  auto p = torch::zeros({1}, torch::requires_grad());
  torch::optim::SGD optimizer({p}, torch::optim::SGDOptions(0.1));
  torch::optim::CosineAnnealingLR scheduler(optimizer, /*T_max=*/100, /*eta_min=*/0.01);
  for (int t = 0; t <= 150; ++t) {
    scheduler.step();  // the call with step_count_ == t sets lr(t)
    const double expected = 0.01 + (0.1 - 0.01) * (1 + std::cos(kPi * t / 100.0)) / 2;
    INFO("t = " << t);
    REQUIRE(optimizer.param_groups()[0].options().get_lr() == Approx(expected).margin(1e-12));
    if (t == 0) CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(0.1));
    if (t == 25) CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(0.0868198).margin(1e-7));
    if (t == 50) CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(0.055));
    if (t == 100) CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(0.01));
  }
  // A rate set by hand is overwritten: the closed form depends on t alone. eta_min defaults to 0.
  torch::optim::SGD other({torch::zeros({1}, torch::requires_grad())}, torch::optim::SGDOptions(2.0));
  torch::optim::CosineAnnealingLR to_zero(other, 4);
  to_zero.step();
  other.param_groups()[0].options().set_lr(123.0);
  to_zero.step();  // t = 1: 2 * (1 + cos(pi / 4)) / 2
  CHECK(other.param_groups()[0].options().get_lr() == Approx(1 + std::cos(kPi / 4)).margin(1e-12));
  to_zero.step();
  to_zero.step();
  to_zero.step();  // t = 4 = T_max
  CHECK(other.param_groups()[0].options().get_lr() == Approx(0.0).margin(1e-12));

  // Drawn T_max, starting rate and eta_min (below it), through T_max and half as far again.
  const int64_t T_max = random_int(1, 40);
  const double base_lr = static_cast<double>(random_int(1, 16)) / 8;
  const double eta_min = base_lr * static_cast<double>(random_int(0, 9)) / 10;
  torch::optim::SGD drawn_optimizer({torch::zeros({1}, torch::requires_grad())}, torch::optim::SGDOptions(base_lr));
  torch::optim::CosineAnnealingLR drawn_scheduler(drawn_optimizer, static_cast<unsigned>(T_max), eta_min);
  for (int64_t t = 0; t <= T_max + T_max / 2; ++t) {
    drawn_scheduler.step();
    const double expected =
        eta_min + (base_lr - eta_min) * (1 + std::cos(kPi * static_cast<double>(t) / static_cast<double>(T_max))) / 2;
    INFO("t = " << t << ", T_max = " << T_max);
    CHECK(drawn_optimizer.param_groups()[0].options().get_lr() == Approx(expected).margin(1e-12));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: gradient clipping (clip_grad.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("clip_grad_norm_ returns the total norm and rescales every gradient to max_norm", "[points=8][clipping]") {
  auto a = with_grad(torch::tensor({3.0, 4.0}));
  auto b = with_grad(torch::tensor({12.0}));
  // sqrt(9 + 16 + 144) = 13 over both tensors together, not 5 and 12 separately.
  const double norm = torch::nn::utils::clip_grad_norm_({a, b}, /*max_norm=*/1.0);
  CHECK(norm == Approx(13.0).epsilon(1e-6));
  const double scale = 1.0 / (13.0 + 1e-6);
  CHECK(grad_of(a, 0) == Approx(3 * scale).epsilon(1e-6));
  CHECK(grad_of(a, 1) == Approx(4 * scale).epsilon(1e-6));
  CHECK(grad_of(b, 0) == Approx(12 * scale).epsilon(1e-6));
  // The direction is kept and the new global norm is max_norm.
  const double clipped = std::sqrt(grad_of(a, 0) * grad_of(a, 0) + grad_of(a, 1) * grad_of(a, 1) +
                                   grad_of(b, 0) * grad_of(b, 0));
  CHECK(clipped == Approx(1.0).epsilon(1e-5));
  // A model's parameters work the same way.
  torch::nn::Linear model(torch::nn::LinearOptions(2, 1).bias(false));
  model(torch::tensor({{30.0f, 40.0f}})).sum().backward();  // weight gradient [30, 40], norm 50
  CHECK(torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0) == Approx(50.0).epsilon(1e-6));
  CHECK(grad_of(model->weight, 1) == Approx(40 * 5 / (50 + 1e-6)).epsilon(1e-6));

  // Drawn gradients of two tensors, every entry of magnitude at least 1, so the global norm is at
  // least 1 and above the drawn max_norm (at most 1/2): every gradient is multiplied by
  // max_norm / (norm + 1e-6).
  const torch::Tensor first = drawn_signed(random_int(1, 4), 1, 2);
  const torch::Tensor second = drawn_signed(random_int(1, 4), 1, 2);
  const double max_norm = static_cast<double>(random_int(1, 8)) / 16;
  const double drawn_norm = global_norm({first, second}, 2);
  auto c = with_grad(first);
  auto d = with_grad(second);
  CHECK(torch::nn::utils::clip_grad_norm_({c, d}, max_norm) == Approx(drawn_norm).epsilon(1e-6));
  const double drawn_scale = max_norm / (drawn_norm + 1e-6);
  CHECK_THAT(c.grad(), AllClose(times(first, drawn_scale), 1e-5, 1e-7));
  CHECK_THAT(d.grad(), AllClose(times(second, drawn_scale), 1e-5, 1e-7));
}

TEST_CASE("clip_grad_norm_ leaves small gradients alone and skips parameters without one", "[points=5][clipping]") {
  auto a = with_grad(torch::tensor({0.1, 0.2}));
  auto untouched = torch::zeros({3}, torch::requires_grad());  // never reached by a backward pass
  const double norm = torch::nn::utils::clip_grad_norm_({a, untouched}, 1.0);
  CHECK(norm == Approx(std::sqrt(0.05)).epsilon(1e-6));
  CHECK(grad_of(a, 0) == Approx(0.1).epsilon(1e-6));
  CHECK(grad_of(a, 1) == Approx(0.2).epsilon(1e-6));
  CHECK_FALSE(untouched.grad().defined());
  // Nothing to clip: the norm is 0.
  CHECK(torch::nn::utils::clip_grad_norm_({untouched}, 1.0) == 0.0);
  CHECK(torch::nn::utils::clip_grad_norm_(std::vector<torch::Tensor>{}, 1.0) == 0.0);

  // A drawn gradient of at most 4 entries, none 0 and none above 1/2 (norm at most 1), under a drawn
  // max_norm above 1: the norm comes back and the gradient is left exactly as it was.
  const torch::Tensor small = drawn_signed(random_int(1, 4), 0.125, 0.5);
  const double max_norm = 1 + static_cast<double>(random_int(1, 8)) / 8;
  auto c = with_grad(small);
  auto never_reached = torch::zeros({random_int(1, 3)}, torch::requires_grad());
  CHECK(torch::nn::utils::clip_grad_norm_({never_reached, c}, max_norm) ==
        Approx(global_norm({small}, 2)).epsilon(1e-6));
  CHECK_THAT(c.grad(), Equals(small));
  CHECK_FALSE(never_reached.grad().defined());
}

TEST_CASE("clip_grad_norm_ with the infinity norm, the 1-norm and non-finite gradients", "[points=5][clipping]") {
  auto a = with_grad(torch::tensor({3.0, -4.0}));
  auto b = with_grad(torch::tensor({-12.0}));
  CHECK(torch::nn::utils::clip_grad_norm_({a, b}, 100.0, INFINITY) == Approx(12.0));
  CHECK(torch::nn::utils::clip_grad_norm_({a, b}, 100.0, 1.0) == Approx(19.0));
  // Clipping to 6 in the infinity norm scales by 6 / 12: the largest entry becomes 6.
  torch::nn::utils::clip_grad_norm_({a, b}, 6.0, INFINITY);
  CHECK(grad_of(b, 0) == Approx(-6.0).epsilon(1e-6));
  CHECK(grad_of(a, 1) == Approx(-2.0).epsilon(1e-6));
  // An infinite gradient is refused when asked to, with LibTorch's message.
  auto bad = with_grad(torch::tensor({INFINITY, 1.0}));
  CHECK_THROWS_WITH(torch::nn::utils::clip_grad_norm_({bad}, 1.0, 2.0, /*error_if_nonfinite=*/true),
                    Catch::Contains("non-finite"));
  CHECK_THROWS_AS(torch::nn::utils::clip_grad_norm_({a}, 1.0, -1.0), torch::Error);

  // Drawn gradients: the infinity norm is the largest magnitude and the 1-norm the sum of the
  // magnitudes (under the limit 100 nothing is clipped); clipping to half the largest magnitude in
  // the infinity norm multiplies everything by max_norm / (largest + 1e-6).
  const torch::Tensor first = drawn_signed(random_int(1, 4), 0.25, 2);
  const torch::Tensor second = drawn_signed(random_int(1, 4), 0.25, 2);
  auto c = with_grad(first);
  auto d = with_grad(second);
  const double largest = global_norm({first, second}, INFINITY);
  CHECK(torch::nn::utils::clip_grad_norm_({c, d}, 100.0, INFINITY) == Approx(largest).epsilon(1e-6));
  CHECK(torch::nn::utils::clip_grad_norm_({c, d}, 100.0, 1.0) == Approx(global_norm({first, second}, 1)).epsilon(1e-6));
  const double max_norm = largest / 2;
  CHECK(torch::nn::utils::clip_grad_norm_({c, d}, max_norm, INFINITY) == Approx(largest).epsilon(1e-6));
  const double drawn_scale = max_norm / (largest + 1e-6);
  CHECK_THAT(c.grad(), AllClose(times(first, drawn_scale), 1e-5, 1e-7));
  CHECK_THAT(d.grad(), AllClose(times(second, drawn_scale), 1e-5, 1e-7));
}

// ---------------------------------------------------------------------------------------------
// Lesson sections 4 and 5: one batch, one update (trainer.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("process_batch returns the batch's mean loss and accumulates the summed gradient", "[points=8][trainer]") {
  auto model = scalar_model(1.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, mse(), quiet());
  // outputs [1, 3] for targets [0, 0]: mean loss (1 + 9) / 2 = 5; the summed loss is 10 and its
  // gradient in w is 2 * 1 * 1 + 2 * 3 * 3 = 20.
  training::BatchResult result = trainer.process_batch(column({1, 3}), column({0, 0}));
  CHECK(result.loss == Approx(5.0));
  CHECK(result.samples == 2);
  CHECK_FALSE(result.correct.has_value());  // regression: no accuracy
  CHECK(grad_of(model->weight) == Approx(20.0));
  // A second batch adds its gradient: x = 2, target 1 -> 2 * (2 - 1) * 2 = 4 more.
  result = trainer.process_batch(column({2}), column({1}));
  CHECK(result.loss == Approx(1.0));
  CHECK(result.samples == 1);
  CHECK(grad_of(model->weight) == Approx(24.0));
  CHECK(weight_of(model) == 1.0);  // process_batch never updates the weights
  CHECK_THROWS_AS(trainer.process_batch(torch::zeros({0, 1}), torch::zeros({0, 1})), torch::Error);

  // A drawn model and batch (secret under `tito grade`): mean of (w x - t)^2 and, in w, the summed
  // gradient sum of 2 (w x - t) x.
  const double w = tinytorch::testing::random_int(-8, 8) / 4.0;
  const int64_t size = tinytorch::testing::random_int(1, 6);
  std::vector<double> xs, ts;
  for (int64_t i = 0; i < size; ++i) {
    xs.push_back(tinytorch::testing::random_int(-8, 8) / 4.0);
    ts.push_back(tinytorch::testing::random_int(-8, 8) / 4.0);
  }
  double squares = 0, gradient = 0;
  for (int64_t i = 0; i < size; ++i) {
    squares += (w * xs[i] - ts[i]) * (w * xs[i] - ts[i]);
    gradient += 2 * (w * xs[i] - ts[i]) * xs[i];
  }
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet());
  result = drawn_trainer.process_batch(column(xs), column(ts));
  CHECK(result.loss == Approx(squares / static_cast<double>(size)).margin(1e-5));
  CHECK(result.samples == size);
  CHECK(grad_of(drawn->weight) == Approx(gradient).margin(1e-4));
}

TEST_CASE("process_batch counts the correct predictions of a classifier", "[points=4][trainer]") {
  auto model = identity_classifier();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, torch::nn::CrossEntropyLoss(), quiet());
  // predictions argmax([2, 1]) = 0, argmax([0, 3]) = 1, argmax([5, 0]) = 0; targets 0, 1, 1.
  auto input = torch::tensor({{2.0f, 1.0f}, {0.0f, 3.0f}, {5.0f, 0.0f}});
  training::BatchResult result = trainer.process_batch(input, torch::tensor({0, 1, 1}));
  REQUIRE(result.correct.has_value());
  CHECK(*result.correct == 2);
  CHECK(result.samples == 3);
  // cross-entropy of each row: log(1 + e^-d) with d the right score minus the other.
  const double expected = (std::log1p(std::exp(-1.0)) + std::log1p(std::exp(-3.0)) + std::log1p(std::exp(5.0))) / 3;
  CHECK(result.loss == Approx(expected).epsilon(1e-5));

  // Drawn scores (2 to 4 classes, no ties) and targets: the rows whose argmax is the target, and the
  // mean cross-entropy log(sum_j exp(x_j)) - x_target.
  const int64_t classes = random_int(2, 4), rows = random_int(1, 6);
  const DrawnScores drawn = drawn_scores(rows, classes);
  const ScoreTotals totals = score_totals(drawn);
  auto drawn_model = identity_classifier(classes);
  torch::optim::SGD drawn_optimizer(drawn_model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer drawn_trainer(drawn_model, drawn_optimizer, torch::nn::CrossEntropyLoss(), quiet());
  result = drawn_trainer.process_batch(drawn.input, drawn.target);
  REQUIRE(result.correct.has_value());
  CHECK(*result.correct == totals.correct);
  CHECK(result.samples == rows);
  CHECK(result.loss == Approx(totals.loss_sum / static_cast<double>(rows)).epsilon(1e-5).margin(1e-5));
}

TEST_CASE("optimizer_update averages over the samples, steps and zeroes the gradients", "[points=8][trainer]") {
  auto model = scalar_model(1.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, mse(), quiet());
  trainer.process_batch(column({1, 3}), column({0, 0}));  // summed gradient 20 over 2 samples
  trainer.optimizer_update(2);                              // mean 10: w = 1 - 0.1 * 10 = 0
  CHECK(weight_of(model) == Approx(0.0).margin(1e-6));
  CHECK(grad_of(model->weight) == 0.0);
  CHECK(trainer.step() == 1);
  // Next batch at w = 0: x = 2, target 1: gradient 2 * (0 - 1) * 2 = -4, one sample: w = 0.4.
  trainer.process_batch(column({2}), column({1}));
  trainer.optimizer_update(1);
  CHECK(weight_of(model) == Approx(0.4).epsilon(1e-6));
  CHECK(trainer.step() == 2);
  CHECK_THROWS_AS(trainer.optimizer_update(0), torch::Error);

  // A drawn model, rate and two drawn batches before one update: the step uses the gradient summed
  // over both batches divided by their sample count, and leaves the gradient at 0.
  const double w = drawn_quarter(), lr = drawn_lr();
  const DrawnPoints first = drawn_points(random_int(1, 4)), second = drawn_points(random_int(1, 4));
  const auto samples = static_cast<int64_t>(first.xs.size() + second.xs.size());
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(lr));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet());
  drawn_trainer.process_batch(column(first.xs), column(first.ts));
  drawn_trainer.process_batch(column(second.xs), column(second.ts));
  drawn_trainer.optimizer_update(samples);
  const double expected = w - lr * (gradient_sum(w, first) + gradient_sum(w, second)) / static_cast<double>(samples);
  CHECK(weight_of(drawn) == Approx(expected).epsilon(1e-5).margin(1e-5));
  CHECK(grad_of(drawn->weight) == 0.0);
  CHECK(drawn_trainer.step() == 1);
}

TEST_CASE("optimizer_update clips the averaged gradient when clip_grad_norm is set", "[points=6][trainer][clipping]") {
  auto model = scalar_model(1.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, mse(), quiet().clip_grad_norm(0.5));
  trainer.process_batch(column({1, 3}), column({0, 0}));
  // The mean gradient 10 is clipped to 0.5 (10 * 0.5 / (10 + 1e-6)): w = 1 - 0.1 * 0.5 = 0.95.
  // Clipping the summed gradient 20 instead would give the same; dividing after clipping would give 0.975.
  trainer.optimizer_update(2);
  CHECK(weight_of(model) == Approx(0.95).epsilon(1e-6));
  // A gradient already below the limit is not changed: x = 0.1, target 0 at w = 0.95:
  // gradient 2 * 0.095 * 0.1 = 0.019, w = 0.95 - 0.0019.
  trainer.process_batch(column({0.1}), column({0}));
  trainer.optimizer_update(1);
  CHECK(weight_of(model) == Approx(0.95 - 0.0019).epsilon(1e-6));

  // Drawn: a model, a rate, a limit in [1/16, 1/2] and 2 to 4 samples with |x| >= 1 whose residual
  // w x - t has the sign of x and size at least 1/2, so every sample's gradient 2 (w x - t) x is at
  // least 1 and so is their mean g: the step is lr * g * limit / (g + 1e-6).
  const double w = drawn_quarter(), lr = drawn_lr();
  const double limit = static_cast<double>(random_int(1, 8)) / 16;
  const int64_t size = random_int(2, 4);
  DrawnPoints points;
  for (int64_t i = 0; i < size; ++i) {
    const double x = (random_int(0, 1) == 1 ? 1 : -1) * static_cast<double>(random_int(4, 8)) / 4;
    const double residual = (x > 0 ? 1 : -1) * static_cast<double>(random_int(2, 8)) / 4;
    points.xs.push_back(x);
    points.ts.push_back(w * x - residual);
  }
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(lr));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet().clip_grad_norm(limit));
  drawn_trainer.process_batch(column(points.xs), column(points.ts));
  drawn_trainer.optimizer_update(size);
  const double mean_gradient = gradient_sum(w, points) / static_cast<double>(size);
  CHECK(weight_of(drawn) == Approx(w - lr * mean_gradient * limit / (mean_gradient + 1e-6)).epsilon(1e-6).margin(1e-6));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: one epoch (trainer.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("train_epoch trains on every batch and reports the sample-weighted loss", "[points=10][trainer][epoch]") {
  auto model = scalar_model(1.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, mse(), quiet());
  std::vector<Batch> batches{{column({1, 3}), column({0, 0})}, {column({2}), column({1})}};
  // Batch 1: loss 5, w -> 0. Batch 2 at w = 0: loss 1, w -> 0.4. Epoch loss (2 * 5 + 1 * 1) / 3.
  training::Metrics metrics = trainer.train_epoch(batches);
  CHECK(metrics.loss == Approx(11.0 / 3).epsilon(1e-6));
  CHECK(metrics.samples == 3);
  CHECK(std::isnan(metrics.accuracy));
  CHECK(weight_of(model) == Approx(0.4).epsilon(1e-6));
  CHECK(trainer.step() == 2);
  CHECK(trainer.epoch() == 1);
  REQUIRE(trainer.history().epochs.size() == 1);
  const training::EpochRecord& record = trainer.history().epochs[0];
  CHECK(record.epoch == 1);
  CHECK(record.train_loss == Approx(11.0 / 3).epsilon(1e-6));
  CHECK(record.samples == 3);
  CHECK(record.seconds > 0);
  CHECK(record.samples_per_second > 0);
  CHECK(record.lr == Approx(0.1));
  // A second epoch continues from w = 0.4 and is recorded as epoch 2.
  trainer.train_epoch(batches);
  CHECK(trainer.epoch() == 2);
  CHECK(trainer.history().epochs.size() == 2);
  std::vector<Batch> none;
  CHECK_THROWS_AS(trainer.train_epoch(none), torch::Error);

  // A drawn model, rate and 2 to 4 drawn batches: each batch's loss is taken at the weight the
  // batches before it left, then w -= lr * (its summed gradient) / (its size); the epoch's loss
  // weighs each batch's mean by its size.
  double w = drawn_quarter();
  const double lr = drawn_lr();
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(lr));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet());
  std::vector<DrawnPoints> drawn_data;
  std::vector<Batch> drawn_batches;
  const int64_t batch_count = random_int(2, 4);
  for (int64_t b = 0; b < batch_count; ++b) {
    drawn_data.push_back(drawn_points(random_int(1, 3)));
    drawn_batches.push_back(batch_of(drawn_data.back()));
  }
  const training::Metrics drawn_metrics = drawn_trainer.train_epoch(drawn_batches);
  double loss_sum = 0;
  int64_t samples = 0;
  for (const DrawnPoints& points : drawn_data) {
    const auto size = static_cast<int64_t>(points.xs.size());
    loss_sum += squared_error_sum(w, points);
    samples += size;
    w -= lr * gradient_sum(w, points) / static_cast<double>(size);
  }
  CHECK(drawn_metrics.loss == Approx(loss_sum / static_cast<double>(samples)).epsilon(1e-5).margin(1e-5));
  CHECK(drawn_metrics.samples == samples);
  CHECK(weight_of(drawn) == Approx(w).epsilon(1e-5).margin(1e-5));
  CHECK(drawn_trainer.step() == batch_count);
}

TEST_CASE("train_epoch with accumulation_steps sums gradients and steps the leftover window", "[points=8][trainer][epoch]") {
  // One batch, accumulation_steps 4: the leftover window of one batch is still stepped.
  // Linear(1, 1) with w = 1, b = 0, x = 1, target 0: loss 1, gradients 2 and 2: w = 0.8, b = -0.2.
  torch::nn::Linear with_bias(1, 1);
  {
    torch::NoGradGuard no_grad;
    with_bias->weight.fill_(1.0);
    with_bias->bias.fill_(0.0);
  }
  torch::optim::SGD optimizer(with_bias->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer tail(with_bias, optimizer, mse(), quiet().accumulation_steps(4));
  std::vector<Batch> one{{column({1}), column({0})}};
  CHECK(tail.train_epoch(one).loss == Approx(1.0));
  CHECK(weight_of(with_bias) == Approx(0.8).epsilon(1e-6));
  CHECK(with_bias->bias.item<double>() == Approx(-0.2).epsilon(1e-6));
  CHECK(tail.step() == 1);

  // Two batches, accumulation_steps 2: one update with the gradient summed over all 3 samples,
  // (20 + 4) / 3 = 8: w = 1 - 0.8 = 0.2; both losses are computed at w = 1: (2 * 5 + 1 * 1) / 3.
  auto model = scalar_model(1.0);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer accumulating(model, sgd, mse(), quiet().accumulation_steps(2));
  std::vector<Batch> batches{{column({1, 3}), column({0, 0})}, {column({2}), column({1})}};
  CHECK(accumulating.train_epoch(batches).loss == Approx(11.0 / 3).epsilon(1e-6));
  CHECK(weight_of(model) == Approx(0.2).epsilon(1e-6));
  CHECK(accumulating.step() == 1);

  // Drawn: accumulation_steps 2 or 3, 1 to 5 batches, a rate and a model. Within a window every loss
  // and gradient is taken at the same w; at the window's end, and at the epoch's end for a shorter
  // leftover window, w -= lr * (the window's summed gradient) / (its sample count).
  const int64_t window = random_int(2, 3), batch_count = random_int(1, 5);
  double w = drawn_quarter();
  const double lr = drawn_lr();
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(lr));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet().accumulation_steps(window));
  std::vector<DrawnPoints> drawn_data;
  std::vector<Batch> drawn_batches;
  for (int64_t b = 0; b < batch_count; ++b) {
    drawn_data.push_back(drawn_points(random_int(1, 3)));
    drawn_batches.push_back(batch_of(drawn_data.back()));
  }
  const training::Metrics drawn_metrics = drawn_trainer.train_epoch(drawn_batches);
  double loss_sum = 0, window_gradient = 0;
  int64_t samples = 0, window_samples = 0, window_batches = 0, updates = 0;
  auto update = [&] {
    w -= lr * window_gradient / static_cast<double>(window_samples);
    window_gradient = 0;
    window_samples = 0;
    window_batches = 0;
    ++updates;
  };
  for (const DrawnPoints& points : drawn_data) {
    const auto size = static_cast<int64_t>(points.xs.size());
    loss_sum += squared_error_sum(w, points);
    window_gradient += gradient_sum(w, points);
    samples += size;
    window_samples += size;
    if (++window_batches == window) update();
  }
  if (window_batches > 0) update();
  CHECK(drawn_metrics.loss == Approx(loss_sum / static_cast<double>(samples)).epsilon(1e-5).margin(1e-5));
  CHECK(weight_of(drawn) == Approx(w).epsilon(1e-5).margin(1e-5));
  CHECK(drawn_trainer.step() == updates);
}

TEST_CASE("train_epoch steps the scheduler after the epoch's updates, records the rate and sets training mode", "[points=6][trainer][epoch][scheduler]") {
  auto model = scalar_model(0.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1.0));
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  training::Trainer trainer(model, optimizer, mse(), quiet().scheduler(&scheduler));
  std::vector<Batch> batches{{column({0.1}), column({0})}};
  model->eval();
  trainer.train_epoch(batches);
  CHECK(model->is_training());
  CHECK(scheduler.step_count() == 1u);  // once per epoch
  trainer.train_epoch(batches);
  trainer.train_epoch(batches);
  CHECK(scheduler.step_count() == 3u);
  // step() after each epoch: epoch 1 trains at the starting rate, LibTorch's first step() keeps it
  // (epoch 2), the second halves it (epoch 3), and the third sets 0.25 for the next epoch.
  REQUIRE(trainer.history().epochs.size() == 3);
  CHECK(trainer.history().epochs[0].lr == Approx(1.0));
  CHECK(trainer.history().epochs[1].lr == Approx(1.0));
  CHECK(trainer.history().epochs[2].lr == Approx(0.5));
  CHECK(optimizer.param_groups()[0].options().get_lr() == Approx(0.25));

  // Drawn: StepLR's step_size and gamma, a starting rate and model, 2 to 5 epochs of the same 1 to 3
  // drawn batches. Epoch e trains at the rate after e - 1 scheduler steps, and after k >= 1 steps
  // the rate is base * gamma^floor((k - 1) / step_size).
  const int64_t step_size = random_int(1, 3), epochs = random_int(2, 5), batch_count = random_int(1, 3);
  const double gamma = static_cast<double>(random_int(1, 9)) / 10, base_lr = drawn_lr();
  auto rate_after = [&](int64_t steps) {
    return steps == 0 ? base_lr : base_lr * std::pow(gamma, static_cast<double>((steps - 1) / step_size));
  };
  double w = drawn_quarter();
  auto drawn = scalar_model(w);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(base_lr));
  torch::optim::StepLR drawn_scheduler(drawn_optimizer, static_cast<unsigned>(step_size), gamma);
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet().scheduler(&drawn_scheduler));
  std::vector<DrawnPoints> drawn_data;
  std::vector<Batch> drawn_batches;
  for (int64_t b = 0; b < batch_count; ++b) {
    drawn_data.push_back(drawn_points(random_int(1, 3)));
    drawn_batches.push_back(batch_of(drawn_data.back()));
  }
  for (int64_t epoch = 0; epoch < epochs; ++epoch) {
    drawn->eval();
    drawn_trainer.train_epoch(drawn_batches);
    CHECK(drawn->is_training());
    for (const DrawnPoints& points : drawn_data) {
      w -= rate_after(epoch) * gradient_sum(w, points) / static_cast<double>(points.xs.size());
    }
  }
  CHECK(drawn_scheduler.step_count() == static_cast<unsigned>(epochs));
  REQUIRE(drawn_trainer.history().epochs.size() == static_cast<size_t>(epochs));
  for (int64_t epoch = 0; epoch < epochs; ++epoch) {
    INFO("epoch " << epoch + 1 << ", step_size " << step_size << ", gamma " << gamma);
    CHECK(drawn_trainer.history().epochs[static_cast<size_t>(epoch)].lr == Approx(rate_after(epoch)).epsilon(1e-12));
  }
  CHECK(drawn_optimizer.param_groups()[0].options().get_lr() == Approx(rate_after(epochs)).epsilon(1e-12));
  CHECK(weight_of(drawn) == Approx(w).epsilon(1e-5).margin(1e-5));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 7: evaluation (trainer.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("evaluate: eval mode, no gradients, sample-weighted loss and accuracy", "[points=10][trainer][evaluate]") {
  auto model = identity_classifier();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, torch::nn::CrossEntropyLoss(), quiet());
  std::vector<Batch> batches{
      {torch::tensor({{2.0f, 1.0f}, {0.0f, 3.0f}}), torch::tensor({0, 1})},  // both right
      {torch::tensor({{5.0f, 0.0f}}), torch::tensor({1})}};                   // wrong
  const double loss1 = std::log1p(std::exp(-1.0)), loss2 = std::log1p(std::exp(-3.0)), loss3 = std::log1p(std::exp(5.0));
  training::Metrics metrics = trainer.evaluate(batches);
  // The mean over 3 samples, not the mean of the two batch means.
  CHECK(metrics.loss == Approx((loss1 + loss2 + loss3) / 3).epsilon(1e-5));
  CHECK(metrics.accuracy == Approx(2.0 / 3));
  CHECK(metrics.samples == 3);
  CHECK_FALSE(model->is_training());
  // No graph was recorded, so no gradient exists and nothing moved.
  CHECK_FALSE(model->weight.grad().defined());
  CHECK(model->weight.equal(torch::eye(2)));
  CHECK(trainer.history().epochs.empty());
  // A regression loss has no accuracy.
  auto regression = scalar_model(1.0);
  torch::optim::SGD sgd(regression->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer regression_trainer(regression, sgd, mse(), quiet());
  std::vector<Batch> points{{column({1, 3}), column({0, 0})}};
  training::Metrics regression_metrics = regression_trainer.evaluate(points);
  CHECK(regression_metrics.loss == Approx(5.0));
  CHECK(std::isnan(regression_metrics.accuracy));
  std::vector<Batch> none;
  CHECK_THROWS_AS(regression_trainer.evaluate(none), torch::Error);

  // Drawn scores (2 to 4 classes, no ties) in 2 or 3 batches of 1 to 4 rows: the loss and the
  // accuracy are means over all the samples; no gradient, and the weights stay the identity.
  const int64_t classes = random_int(2, 4), batch_count = random_int(2, 3);
  auto drawn_model = identity_classifier(classes);
  torch::optim::SGD drawn_optimizer(drawn_model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer drawn_trainer(drawn_model, drawn_optimizer, torch::nn::CrossEntropyLoss(), quiet());
  std::vector<Batch> drawn_batches;
  double loss_sum = 0;
  int64_t correct = 0, samples = 0;
  for (int64_t b = 0; b < batch_count; ++b) {
    const int64_t rows = random_int(1, 4);
    const DrawnScores scores = drawn_scores(rows, classes);
    const ScoreTotals totals = score_totals(scores);
    loss_sum += totals.loss_sum;
    correct += totals.correct;
    samples += rows;
    drawn_batches.push_back(Batch{scores.input, scores.target});
  }
  const training::Metrics drawn_metrics = drawn_trainer.evaluate(drawn_batches);
  CHECK(drawn_metrics.loss == Approx(loss_sum / static_cast<double>(samples)).epsilon(1e-5).margin(1e-5));
  CHECK(drawn_metrics.accuracy == Approx(static_cast<double>(correct) / static_cast<double>(samples)));
  CHECK(drawn_metrics.samples == samples);
  CHECK_FALSE(drawn_model->is_training());
  CHECK_FALSE(drawn_model->weight.grad().defined());
  // A drawn regression batch at a drawn weight: the mean squared error, and w unchanged.
  const double w = drawn_quarter();
  const DrawnPoints regression_data = drawn_points(random_int(1, 6));
  auto drawn_regression = scalar_model(w);
  torch::optim::SGD drawn_sgd(drawn_regression->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer drawn_regression_trainer(drawn_regression, drawn_sgd, mse(), quiet());
  std::vector<Batch> regression_batches{batch_of(regression_data)};
  const double expected = squared_error_sum(w, regression_data) / static_cast<double>(regression_data.xs.size());
  CHECK(drawn_regression_trainer.evaluate(regression_batches).loss == Approx(expected).epsilon(1e-5).margin(1e-5));
  CHECK(weight_of(drawn_regression) == w);
}

// ---------------------------------------------------------------------------------------------
// Lesson section 8: fit and early stopping (given, built on your train_epoch and evaluate)
// ---------------------------------------------------------------------------------------------

TEST_CASE("fit stops early once the validation loss stops improving", "[points=6][trainer][fit]") {
  // Training pulls w from 0 towards 1 (x = 1, target 1); validation wants w = -1 (x = 1, target -1),
  // so the validation loss (w + 1)^2 grows every epoch: the best epoch is the first one.
  auto model = scalar_model(0.0);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer trainer(model, optimizer, mse(), quiet());
  std::vector<Batch> train{{column({1}), column({1})}};
  std::vector<Batch> val{{column({1}), column({-1})}};
  const training::History& history = trainer.fit(train, val, /*epochs=*/10, /*patience=*/2);
  CHECK(trainer.stopped_early());
  CHECK(trainer.best_epoch() == 1);
  REQUIRE(history.epochs.size() == 3);  // epoch 1 best, epochs 2 and 3 worse: stop
  // w after each epoch: 0.2, 0.36, 0.488; validation loss (w + 1)^2.
  CHECK(history.epochs[0].val_loss == Approx(1.44).epsilon(1e-5));
  CHECK(history.epochs[1].val_loss == Approx(1.36 * 1.36).epsilon(1e-5));
  CHECK(history.epochs[2].train_loss == Approx((1 - 0.36) * (1 - 0.36)).epsilon(1e-5));

  // Without patience every epoch runs.
  auto other = scalar_model(0.0);
  torch::optim::SGD sgd(other->parameters(), torch::optim::SGDOptions(0.1));
  training::Trainer patient(other, sgd, mse(), quiet());
  CHECK(patient.fit(train, val, 5).epochs.size() == 5);
  CHECK_FALSE(patient.stopped_early());

  // Drawn: a training target T and a validation target -V (T, V in [1/2, 2], x = 1), a rate and a
  // patience. From w = 0 each epoch takes w - T to (1 - 2 lr) times itself (gradient 2 (w - T)):
  // w rises towards T and away from -V, so the validation loss (w + V)^2 grows every epoch, epoch 1
  // stays the best, and training stops after 1 + patience epochs. Epoch e's training loss is taken
  // at the weight before its update.
  const double T = static_cast<double>(random_int(4, 16)) / 8, V = static_cast<double>(random_int(4, 16)) / 8;
  const double lr = drawn_lr();
  const int64_t patience = random_int(1, 3);
  auto drawn = scalar_model(0.0);
  torch::optim::SGD drawn_optimizer(drawn->parameters(), torch::optim::SGDOptions(lr));
  training::Trainer drawn_trainer(drawn, drawn_optimizer, mse(), quiet());
  std::vector<Batch> drawn_train{{column({1}), column({T})}};
  std::vector<Batch> drawn_val{{column({1}), column({-V})}};
  const training::History& drawn_history = drawn_trainer.fit(drawn_train, drawn_val, 10, patience);
  CHECK(drawn_trainer.stopped_early());
  CHECK(drawn_trainer.best_epoch() == 1);
  REQUIRE(drawn_history.epochs.size() == static_cast<size_t>(1 + patience));
  double w = 0;
  for (size_t e = 0; e < drawn_history.epochs.size(); ++e) {
    INFO("epoch " << e + 1);
    CHECK(drawn_history.epochs[e].train_loss == Approx((w - T) * (w - T)).epsilon(1e-5).margin(1e-6));
    w -= lr * 2 * (w - T);
    CHECK(drawn_history.epochs[e].val_loss == Approx((w + V) * (w + V)).epsilon(1e-5).margin(1e-6));
  }
}
