// Module 07 (Optimizers): the graded tests. Expected values come from two independent sources:
// numbers worked out by hand (the lesson shows the arithmetic), and a plain double-precision
// re-statement of LibTorch 1.13's update formulas (the *Reference structs below), run side by side
// with the optimizer for 100 steps and required to agree to 1e-6. Parameters are kDouble so that
// the comparison measures the algorithm, not float rounding. Each case is tagged with its points
// ([points=N], 100 in all); hints.json has a hint per case.
// Every case ends with inputs drawn by random_tensor / random_int (starting weights, gradients,
// hyperparameters), the expected values worked out in the test from the formulas: under `tito grade`
// they come from a secret seed, so only code that computes the update gets them right (`tito module
// test` draws with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Values = std::vector<double>;
namespace optim = torch::optim;

namespace {

torch::TensorOptions f64() { return torch::TensorOptions().dtype(torch::kDouble); }

// A kDouble parameter that requires grad.
torch::Tensor parameter(const Values& values) { return torch::tensor(values, f64().requires_grad(true)); }

Values values_of(const torch::Tensor& t) {
  const torch::Tensor dense = t.contiguous();
  const double* data = dense.data_ptr<double>();
  return Values(data, data + dense.numel());
}

torch::Tensor as_tensor(const Values& values) { return torch::tensor(values, f64()); }

// Accumulates `gradient` into p.grad() through autograd: d/dp sum(p * gradient) = gradient.
void backward_with_gradient(const torch::Tensor& p, const Values& gradient) {
  (p * as_tensor(gradient)).sum().backward();
}

// The loss 0.5 * sum(curvature * p^2), whose gradient is curvature * p: a bowl that is steep along
// some axes and flat along others. Returns the loss; the gradient lands in p.grad().
double quadratic_backward(const torch::Tensor& p, const Values& curvature) {
  torch::Tensor loss = (p * p * as_tensor(curvature)).sum().mul(0.5);
  loss.backward();
  return loss.item<double>();
}

Values quadratic_gradient(const Values& p, const Values& curvature) {
  Values g(p.size());
  for (size_t i = 0; i < p.size(); ++i) g[i] = curvature[i] * p[i];
  return g;
}

// ---- LibTorch 1.13's formulas, restated element by element in double precision ----

struct SGDReference {
  double lr, momentum, dampening, weight_decay;
  bool nesterov;
  Values buf;
  void step(Values& p, Values g) {
    for (size_t i = 0; i < p.size(); ++i) {
      if (weight_decay != 0) g[i] += weight_decay * p[i];
      if (momentum != 0) {
        if (buf.size() < p.size()) buf.push_back(g[i]);
        else buf[i] = momentum * buf[i] + (1 - dampening) * g[i];
        g[i] = nesterov ? g[i] + momentum * buf[i] : buf[i];
      }
      p[i] -= lr * g[i];
    }
  }
};

struct AdamReference {
  double lr, beta1, beta2, eps, weight_decay;
  bool amsgrad, decoupled;  // decoupled: AdamW
  Values m, v, v_max;
  int64_t t = 0;
  void step(Values& p, Values g) {
    if (m.empty()) m = v = v_max = Values(p.size(), 0.0);
    ++t;
    const double correction1 = 1 - std::pow(beta1, t);
    const double correction2 = 1 - std::pow(beta2, t);
    for (size_t i = 0; i < p.size(); ++i) {
      if (weight_decay != 0) {
        if (decoupled) p[i] *= 1 - lr * weight_decay;
        else g[i] += weight_decay * p[i];
      }
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      v_max[i] = std::max(v_max[i], v[i]);
      const double second = amsgrad ? v_max[i] : v[i];
      p[i] -= lr / correction1 * m[i] / (std::sqrt(second) / std::sqrt(correction2) + eps);
    }
  }
};

// What running an optimizer next to a reference gave: the largest difference seen between the two
// parameter vectors over the steps, and where the reference ended (compared with p itself at the
// end, so that the graded record holds the weights the optimizer reached, not only a verdict).
struct Comparison {
  double largest_difference;
  Values reference_end;
};

// Runs `optimizer` on the quadratic for `steps` steps next to `reference`.
template <typename Reference>
Comparison run_next_to_reference(optim::Optimizer& optimizer, const torch::Tensor& p, Reference& reference,
                                 const Values& curvature, int steps) {
  Values expected = values_of(p);
  double largest = 0;
  for (int step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    quadratic_backward(p, curvature);
    optimizer.step();
    reference.step(expected, quadratic_gradient(expected, curvature));
    const Values actual = values_of(p);
    for (size_t i = 0; i < actual.size(); ++i) largest = std::max(largest, std::abs(actual[i] - expected[i]));
  }
  return Comparison{largest, expected};
}

const Values kCurvature = {50.0, 0.5, 5.0, 0.05};
// Where the 100-step comparisons start: drawn per case (secret under `tito grade`), so the trajectory
// the optimizer must follow is known only by running the formulas.
Values drawn_start() { return values_of(random_tensor({4}, -3, 3, torch::kDouble)); }

// `count` drawn values in [low, high], multiples of 1/8.
Values drawn_values(int64_t count, double low = -2, double high = 2) {
  return values_of(random_tensor({count}, low, high, torch::kDouble));
}

// `count` drawn values none of which is 0: magnitudes in [0.25, 2], either sign. A zero gradient or
// weight would let an update that skips a term (or never runs) still match.
Values drawn_nonzero(int64_t count) {
  Values values;
  for (int64_t i = 0; i < count; ++i) {
    const double magnitude = static_cast<double>(random_int(2, 16)) / 8;
    values.push_back(random_int(0, 1) == 1 ? magnitude : -magnitude);
  }
  return values;
}

// A drawn learning rate in (0, 0.5]: k / 16.
double drawn_lr() { return static_cast<double>(random_int(1, 8)) / 16; }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: zero_grad
// ---------------------------------------------------------------------------------------------

TEST_CASE("zero_grad zeros every gradient of every group and keeps the tensors", "[points=10][zero_grad]") {
  torch::Tensor a = parameter({1.0, 2.0});
  torch::Tensor b = parameter({3.0});
  torch::Tensor unused = parameter({4.0});
  optim::SGD optimizer(std::vector<torch::Tensor>{a}, optim::SGDOptions(0.1));
  optimizer.add_param_group(optim::OptimizerParamGroup({b, unused}));

  // backward adds into .grad(): twice without zero_grad is twice the gradient.
  backward_with_gradient(a, {0.5, 0.25});
  backward_with_gradient(a, {0.5, 0.25});
  backward_with_gradient(b, {7.0});
  CHECK_THAT(a.grad(), AllClose(as_tensor({1.0, 0.5})));

  optimizer.zero_grad();
  REQUIRE(a.grad().defined());
  REQUIRE(b.grad().defined());
  CHECK_THAT(a.grad(), AllClose(as_tensor({0.0, 0.0})));
  CHECK_THAT(b.grad(), AllClose(as_tensor({0.0})));
  CHECK_FALSE(unused.grad().defined());  // never had a gradient: left alone

  backward_with_gradient(a, {0.5, 0.25});
  CHECK_THAT(a.grad(), AllClose(as_tensor({0.5, 0.25})));

  // Drawn gradients in two groups: after zero_grad, one backward leaves exactly its own gradient
  // (a zero_grad that misses a group, or does nothing, leaves the old gradients added in).
  const int64_t first_size = random_int(1, 5), second_size = random_int(1, 5);
  torch::Tensor c = parameter(drawn_values(first_size));
  torch::Tensor d = parameter(drawn_values(second_size));
  optim::SGD drawn_optimizer(std::vector<torch::Tensor>{c}, optim::SGDOptions(0.1));
  drawn_optimizer.add_param_group(optim::OptimizerParamGroup({d}));
  backward_with_gradient(c, drawn_nonzero(first_size));
  backward_with_gradient(d, drawn_nonzero(second_size));
  drawn_optimizer.zero_grad();
  const Values next_for_c = drawn_values(first_size), next_for_d = drawn_values(second_size);
  backward_with_gradient(c, next_for_c);
  backward_with_gradient(d, next_for_d);
  CHECK_THAT(c.grad(), AllClose(as_tensor(next_for_c)));
  CHECK_THAT(d.grad(), AllClose(as_tensor(next_for_d)));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: SGD, momentum and weight decay
// ---------------------------------------------------------------------------------------------

TEST_CASE("SGD step subtracts lr times the gradient, in place", "[points=8][sgd]") {
  torch::Tensor p = parameter({1.0, 2.0});
  const void* storage = p.data_ptr();
  optim::SGD optimizer(std::vector<torch::Tensor>{p}, optim::SGDOptions(0.1));
  backward_with_gradient(p, {0.1, 0.2});
  optimizer.step();
  CHECK_THAT(p, AllClose(as_tensor({0.99, 1.98}), 0, 1e-12));
  CHECK(p.data_ptr() == storage);  // the model's tensor itself moved, not a copy
  CHECK_THAT(p.grad(), AllClose(as_tensor({0.1, 0.2})));  // step never changes the gradient

  // Drawn weights, gradient and rate: p - lr * g, element by element.
  const int64_t size = random_int(1, 6);
  const Values start = drawn_values(size), gradient = drawn_nonzero(size);
  const double lr = drawn_lr();
  torch::Tensor q = parameter(start);
  const void* drawn_storage = q.data_ptr();
  optim::SGD drawn_optimizer(std::vector<torch::Tensor>{q}, optim::SGDOptions(lr));
  backward_with_gradient(q, gradient);
  drawn_optimizer.step();
  Values expected(start.size());
  for (size_t i = 0; i < start.size(); ++i) expected[i] = start[i] - lr * gradient[i];
  CHECK_THAT(q, AllClose(as_tensor(expected), 0, 1e-12));
  CHECK(q.data_ptr() == drawn_storage);
  CHECK_THAT(q.grad(), AllClose(as_tensor(gradient)));
}

TEST_CASE("SGD momentum: the first step uses the gradient, then buf = momentum * buf + g", "[points=10][sgd][momentum]") {
  torch::Tensor p = parameter({1.0, 2.0});
  optim::SGD optimizer(std::vector<torch::Tensor>{p}, optim::SGDOptions(0.1).momentum(0.9));
  backward_with_gradient(p, {0.1, 0.2});
  optimizer.step();
  CHECK_THAT(p, AllClose(as_tensor({0.99, 1.98}), 0, 1e-12));
  optimizer.step();  // same gradient again: buf = 0.9 * [0.1, 0.2] + [0.1, 0.2] = [0.19, 0.38]
  CHECK_THAT(p, AllClose(as_tensor({0.99 - 0.019, 1.98 - 0.038}), 0, 1e-12));
  REQUIRE(optimizer.state().count(optim::param_state_key(p)) == 1);
  const auto& state = static_cast<const optim::SGDParamState&>(*optimizer.state().at(optim::param_state_key(p)));
  CHECK_THAT(state.momentum_buffer(), AllClose(as_tensor({0.19, 0.38}), 0, 1e-12));
  // The buffer is the optimizer's own tensor: stepping leaves p.grad() alone, and zero_grad (which
  // zeros p.grad() in place) leaves the buffer alone.
  CHECK_THAT(p.grad(), AllClose(as_tensor({0.1, 0.2})));
  optimizer.zero_grad();
  CHECK_THAT(state.momentum_buffer(), AllClose(as_tensor({0.19, 0.38}), 0, 1e-12));

  // Drawn weights, momentum, rate and a new drawn gradient at each of three steps: buf starts at
  // g1, then buf = momentum * buf + g; every step subtracts lr * buf.
  const int64_t size = random_int(1, 5);
  const Values start = drawn_values(size);
  const double momentum = static_cast<double>(random_int(1, 9)) / 10, lr = drawn_lr();
  torch::Tensor q = parameter(start);
  optim::SGD drawn_optimizer(std::vector<torch::Tensor>{q}, optim::SGDOptions(lr).momentum(momentum));
  Values expected = start, buffer;
  Values gradient;
  for (int step = 0; step < 3; ++step) {
    gradient = drawn_nonzero(size);
    drawn_optimizer.zero_grad();
    backward_with_gradient(q, gradient);
    drawn_optimizer.step();
    for (size_t i = 0; i < expected.size(); ++i) {
      if (step == 0) buffer.push_back(gradient[i]);
      else buffer[i] = momentum * buffer[i] + gradient[i];
      expected[i] -= lr * buffer[i];
    }
  }
  CHECK_THAT(q, AllClose(as_tensor(expected), 0, 1e-12));
  REQUIRE(drawn_optimizer.state().count(optim::param_state_key(q)) == 1);
  const auto& drawn_state =
      static_cast<const optim::SGDParamState&>(*drawn_optimizer.state().at(optim::param_state_key(q)));
  CHECK_THAT(drawn_state.momentum_buffer(), AllClose(as_tensor(buffer), 0, 1e-12));
  CHECK_THAT(q.grad(), AllClose(as_tensor(gradient)));
}

TEST_CASE("SGD weight decay adds weight_decay * p to the gradient", "[points=5][sgd][weight_decay]") {
  torch::Tensor p = parameter({1.0, 2.0});
  optim::SGD optimizer(std::vector<torch::Tensor>{p}, optim::SGDOptions(0.1).weight_decay(0.01));
  backward_with_gradient(p, {0.1, 0.2});
  optimizer.step();  // effective gradient [0.1 + 0.01, 0.2 + 0.02]
  CHECK_THAT(p, AllClose(as_tensor({1.0 - 0.011, 2.0 - 0.022}), 0, 1e-12));
  CHECK_THAT(p.grad(), AllClose(as_tensor({0.1, 0.2})));

  // Drawn weights (none 0, so the decay term always shows), gradient, rate and decay:
  // p - lr * (g + weight_decay * p), and p.grad() still g.
  const int64_t size = random_int(1, 6);
  const Values start = drawn_nonzero(size), gradient = drawn_values(size);
  const double lr = drawn_lr(), weight_decay = static_cast<double>(random_int(1, 10)) / 100;
  torch::Tensor q = parameter(start);
  optim::SGD drawn_optimizer(std::vector<torch::Tensor>{q}, optim::SGDOptions(lr).weight_decay(weight_decay));
  backward_with_gradient(q, gradient);
  drawn_optimizer.step();
  Values expected(start.size());
  for (size_t i = 0; i < start.size(); ++i) expected[i] = start[i] - lr * (gradient[i] + weight_decay * start[i]);
  CHECK_THAT(q, AllClose(as_tensor(expected), 0, 1e-12));
  CHECK_THAT(q.grad(), AllClose(as_tensor(gradient)));
}

TEST_CASE("SGD with dampening, weight decay and Nesterov follows LibTorch's formulas for 100 steps",
          "[points=10][sgd][momentum]") {
  SECTION("momentum 0.9, dampening 0.1, weight decay 0.01") {
    torch::Tensor p = parameter(drawn_start());
    optim::SGD optimizer(std::vector<torch::Tensor>{p},
                         optim::SGDOptions(0.01).momentum(0.9).dampening(0.1).weight_decay(0.01));
    SGDReference reference{0.01, 0.9, 0.1, 0.01, false, {}};
    const Comparison run = run_next_to_reference(optimizer, p, reference, kCurvature, 100);
    CHECK(run.largest_difference < 1e-6);
    CHECK_THAT(p, AllClose(as_tensor(run.reference_end), 0, 1e-6));
  }
  SECTION("Nesterov momentum 0.8") {
    torch::Tensor p = parameter(drawn_start());
    optim::SGD optimizer(std::vector<torch::Tensor>{p}, optim::SGDOptions(0.01).momentum(0.8).nesterov(true));
    SGDReference reference{0.01, 0.8, 0.0, 0.0, true, {}};
    const Comparison run = run_next_to_reference(optimizer, p, reference, kCurvature, 100);
    CHECK(run.largest_difference < 1e-6);
    CHECK_THAT(p, AllClose(as_tensor(run.reference_end), 0, 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson sections 4 and 5: Adam
// ---------------------------------------------------------------------------------------------

TEST_CASE("Adam's moments after one step are (1 - beta1) g and (1 - beta2) g^2", "[points=8][adam][moments]") {
  torch::Tensor p = parameter({1.0, 2.0});
  optim::Adam optimizer(std::vector<torch::Tensor>{p}, optim::AdamOptions(0.01));
  backward_with_gradient(p, {0.1, 0.2});
  optimizer.step();
  const auto& state = static_cast<const optim::AdamParamState&>(*optimizer.state().at(optim::param_state_key(p)));
  CHECK(state.step() == 1);
  CHECK_THAT(state.exp_avg(), AllClose(as_tensor({0.01, 0.02}), 0, 1e-15));
  CHECK_THAT(state.exp_avg_sq(), AllClose(as_tensor({1e-5, 4e-5}), 0, 1e-15));
  // The moments are the optimizer's state: updated in place, they keep their storage.
  const void* exp_avg_storage = state.exp_avg().data_ptr();
  const void* exp_avg_sq_storage = state.exp_avg_sq().data_ptr();
  optimizer.step();  // the same gradient: m = 0.9 * 0.01 + 0.1 * 0.1 = 0.019 for the first weight
  CHECK(state.exp_avg().data_ptr() == exp_avg_storage);
  CHECK(state.exp_avg_sq().data_ptr() == exp_avg_sq_storage);
  CHECK_THAT(state.exp_avg(), AllClose(as_tensor({0.019, 0.038}), 0, 1e-15));
  CHECK_THAT(state.exp_avg_sq(), AllClose(as_tensor({0.999e-5 + 1e-5, 0.999 * 4e-5 + 4e-5}), 0, 1e-15));

  // Drawn gradient (none 0, magnitudes up to 2, so |g| and g^2 differ) and betas, two steps with the
  // same gradient: m = beta1 * m + (1 - beta1) g and v = beta2 * v + (1 - beta2) g^2, from zeros.
  const int64_t size = random_int(1, 5);
  const Values gradient = drawn_nonzero(size);
  const double beta1 = static_cast<double>(random_int(1, 9)) / 10;
  const double beta2 = static_cast<double>(random_int(900, 999)) / 1000;
  torch::Tensor q = parameter(drawn_values(size));
  optim::Adam drawn_optimizer(std::vector<torch::Tensor>{q}, optim::AdamOptions(0.01).betas({beta1, beta2}));
  backward_with_gradient(q, gradient);
  Values m(gradient.size(), 0.0), v(gradient.size(), 0.0);
  for (int step = 1; step <= 2; ++step) {
    drawn_optimizer.step();
    for (size_t i = 0; i < gradient.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * gradient[i];
      v[i] = beta2 * v[i] + (1 - beta2) * gradient[i] * gradient[i];
    }
    const auto& drawn_state =
        static_cast<const optim::AdamParamState&>(*drawn_optimizer.state().at(optim::param_state_key(q)));
    CHECK(drawn_state.step() == step);
    CHECK_THAT(drawn_state.exp_avg(), AllClose(as_tensor(m), 1e-12, 1e-15));
    CHECK_THAT(drawn_state.exp_avg_sq(), AllClose(as_tensor(v), 1e-12, 1e-15));
  }
}

TEST_CASE("Adam's first step moves every weight by lr against the sign of its gradient", "[points=8][adam]") {
  torch::Tensor p = parameter({1.0, 2.0, -3.0});
  optim::Adam optimizer(std::vector<torch::Tensor>{p}, optim::AdamOptions(0.01));
  backward_with_gradient(p, {0.1, 200.0, -0.001});  // wildly different scales, the same step size
  optimizer.step();
  CHECK_THAT(p, AllClose(as_tensor({0.99, 1.99, -2.99}), 1e-6, 0));

  // Drawn weights, rate and gradients over six orders of magnitude (k/8 times 10^-3 .. 10^2): on
  // step 1 the corrected moments are g and g^2, so each weight moves by lr * g / (|g| + eps).
  const int64_t size = random_int(1, 6);
  const Values start = drawn_values(size);
  Values gradient = drawn_nonzero(size);
  for (double& g : gradient) g *= std::pow(10.0, static_cast<double>(random_int(-3, 2)));
  const double lr = static_cast<double>(random_int(1, 10)) / 100, eps = 1e-8;
  torch::Tensor q = parameter(start);
  optim::Adam drawn_optimizer(std::vector<torch::Tensor>{q}, optim::AdamOptions(lr));
  backward_with_gradient(q, gradient);
  drawn_optimizer.step();
  Values expected(start.size());
  for (size_t i = 0; i < start.size(); ++i) expected[i] = start[i] - lr * gradient[i] / (std::abs(gradient[i]) + eps);
  CHECK_THAT(q, AllClose(as_tensor(expected), 0, 1e-12));
}

TEST_CASE("Adam's bias correction keeps steps at lr while the moments warm up", "[points=7][adam][bias_correction]") {
  // A constant gradient g: corrected m is g and corrected v is g^2 at every step, so each step is
  // lr * g / (|g| + eps) ~ lr. Without correction step 1 would be lr * 0.1 / sqrt(0.001) = 3.16 lr.
  torch::Tensor p = parameter({5.0});
  optim::Adam optimizer(std::vector<torch::Tensor>{p}, optim::AdamOptions(0.1));
  backward_with_gradient(p, {0.5});
  for (int step = 1; step <= 3; ++step) {
    optimizer.step();
    CHECK_THAT(p, AllClose(as_tensor({5.0 - 0.1 * step}), 1e-7, 0));
  }

  // Drawn weights, rate, betas and constant gradient: after t steps each weight has moved by
  // t * lr * g / (|g| + eps), whatever the betas (the corrections undo the warm-up exactly).
  const int64_t size = random_int(1, 5);
  const Values start = drawn_values(size), gradient = drawn_nonzero(size);
  const double lr = static_cast<double>(random_int(1, 10)) / 100, eps = 1e-8;
  const double beta1 = static_cast<double>(random_int(5, 9)) / 10;
  const double beta2 = static_cast<double>(random_int(990, 999)) / 1000;
  torch::Tensor q = parameter(start);
  optim::Adam drawn_optimizer(std::vector<torch::Tensor>{q}, optim::AdamOptions(lr).betas({beta1, beta2}));
  backward_with_gradient(q, gradient);
  for (int step = 1; step <= 3; ++step) {
    drawn_optimizer.step();
    Values expected(start.size());
    for (size_t i = 0; i < start.size(); ++i) {
      expected[i] = start[i] - step * lr * gradient[i] / (std::abs(gradient[i]) + eps);
    }
    CHECK_THAT(q, AllClose(as_tensor(expected), 1e-9, 1e-12));
  }
}

TEST_CASE("Adam with weight decay and amsgrad follows LibTorch's formulas for 100 steps", "[points=12][adam]") {
  SECTION("weight decay 0.01") {
    torch::Tensor p = parameter(drawn_start());
    optim::Adam optimizer(std::vector<torch::Tensor>{p}, optim::AdamOptions(0.05).weight_decay(0.01));
    AdamReference reference{0.05, 0.9, 0.999, 1e-8, 0.01, false, false, {}, {}, {}};
    const Comparison run = run_next_to_reference(optimizer, p, reference, kCurvature, 100);
    CHECK(run.largest_difference < 1e-6);
    CHECK_THAT(p, AllClose(as_tensor(run.reference_end), 0, 1e-6));
  }
  SECTION("amsgrad, betas (0.8, 0.99)") {
    torch::Tensor p = parameter(drawn_start());
    optim::Adam optimizer(std::vector<torch::Tensor>{p},
                          optim::AdamOptions(0.05).betas({0.8, 0.99}).eps(1e-6).amsgrad(true));
    AdamReference reference{0.05, 0.8, 0.99, 1e-6, 0.0, true, false, {}, {}, {}};
    const Comparison run = run_next_to_reference(optimizer, p, reference, kCurvature, 100);
    CHECK(run.largest_difference < 1e-6);
    CHECK_THAT(p, AllClose(as_tensor(run.reference_end), 0, 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: AdamW (given: it reuses your Adam kernels)
// ---------------------------------------------------------------------------------------------

TEST_CASE("AdamW decays the old weight, then takes Adam's step", "[points=7][adamw]") {
  SECTION("one step by hand: 2 * (1 - 0.1 * 0.5) - 0.1 * 1 / (1 + 1e-8) = 1.8") {
    torch::Tensor p = parameter({2.0});
    optim::AdamW optimizer(std::vector<torch::Tensor>{p},
                           optim::AdamWOptions(0.1).betas({0.0, 0.0}).weight_decay(0.5));
    backward_with_gradient(p, {1.0});
    optimizer.step();
    CHECK_THAT(p, AllClose(as_tensor({1.8}), 0, 1e-7));

    // Drawn weights, gradient, rate and decay, the same betas: p (1 - lr wd) - lr g / (|g| + eps).
    const int64_t size = random_int(1, 5);
    const Values start = drawn_nonzero(size), gradient = drawn_nonzero(size);
    const double lr = static_cast<double>(random_int(1, 10)) / 100;
    const double weight_decay = static_cast<double>(random_int(1, 10)) / 10, eps = 1e-8;
    torch::Tensor q = parameter(start);
    optim::AdamW drawn_optimizer(std::vector<torch::Tensor>{q},
                                 optim::AdamWOptions(lr).betas({0.0, 0.0}).weight_decay(weight_decay));
    backward_with_gradient(q, gradient);
    drawn_optimizer.step();
    Values expected(start.size());
    for (size_t i = 0; i < start.size(); ++i) {
      expected[i] = start[i] * (1 - lr * weight_decay) - lr * gradient[i] / (std::abs(gradient[i]) + eps);
    }
    CHECK_THAT(q, AllClose(as_tensor(expected), 0, 1e-12));
  }
  SECTION("100 steps next to the reference") {
    torch::Tensor p = parameter(drawn_start());
    optim::AdamW optimizer(std::vector<torch::Tensor>{p}, optim::AdamWOptions(0.05).weight_decay(0.1));
    AdamReference reference{0.05, 0.9, 0.999, 1e-8, 0.1, false, true, {}, {}, {}};
    const Comparison run = run_next_to_reference(optimizer, p, reference, kCurvature, 100);
    CHECK(run.largest_difference < 1e-6);
    CHECK_THAT(p, AllClose(as_tensor(run.reference_end), 0, 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson sections 7 and 8: systems -- state memory, and why momentum helps
// ---------------------------------------------------------------------------------------------

TEST_CASE("training with Adam holds 4x the weights: weights + gradients + two moments", "[points=8][memory]") {
  torch::nn::Linear model(100, 50);  // 5,050 float parameters = 20,200 bytes
  const auto params = model->parameters();
  const int64_t weight_bytes = tinytorch::memory_footprint(params);
  REQUIRE(weight_bytes == 5050 * 4);
  const torch::Tensor input = torch::ones({8, 100});

  optim::SGD plain(params, optim::SGDOptions(0.01));
  optim::SGD heavy_ball(params, optim::SGDOptions(0.01).momentum(0.9));
  optim::Adam adam(params, optim::AdamOptions(0.001));
  model->forward(input).sum().backward();
  std::vector<torch::Tensor> grads;
  for (const auto& p : params) grads.push_back(p.grad());
  const int64_t grad_bytes = tinytorch::memory_footprint(grads);
  CHECK(grad_bytes == weight_bytes);

  plain.step();
  heavy_ball.step();
  adam.step();
  CHECK(optim::memory_footprint(plain) == 0);                 // 2x in all: weights + grads
  CHECK(optim::memory_footprint(heavy_ball) == weight_bytes);  // 3x: + one momentum buffer
  CHECK(optim::memory_footprint(adam) == 2 * weight_bytes);    // 4x: + exp_avg + exp_avg_sq
  const double adam_ratio =
      static_cast<double>(weight_bytes + grad_bytes + optim::memory_footprint(adam)) / static_cast<double>(weight_bytes);
  CHECK(adam_ratio == Approx(4.0));

  // A Linear layer of drawn sizes: in * out weights + out biases, 4 bytes each; a momentum buffer
  // per parameter for heavy-ball SGD, two moments per parameter for Adam.
  const int64_t in_features = random_int(1, 40), out_features = random_int(1, 40);
  torch::nn::Linear drawn_model(in_features, out_features);
  const auto drawn_params = drawn_model->parameters();
  const int64_t drawn_weight_bytes = (in_features * out_features + out_features) * 4;
  CHECK(tinytorch::memory_footprint(drawn_params) == drawn_weight_bytes);
  optim::SGD drawn_heavy_ball(drawn_params, optim::SGDOptions(0.01).momentum(0.9));
  optim::Adam drawn_adam(drawn_params, optim::AdamOptions(0.001));
  drawn_model->forward(torch::ones({random_int(1, 4), in_features})).sum().backward();
  drawn_heavy_ball.step();
  drawn_adam.step();
  CHECK(optim::memory_footprint(drawn_heavy_ball) == drawn_weight_bytes);
  CHECK(optim::memory_footprint(drawn_adam) == 2 * drawn_weight_bytes);
}

TEST_CASE("momentum crosses an ill-conditioned valley far faster than plain SGD", "[points=7][momentum]") {
  // L = 50 w1^2 + 0.5 w2^2 (curvatures 100 and 1, condition number 100), from (1, 1), lr 0.01,
  // 100 steps. Plain SGD shrinks w2 by only 0.99 a step (0.99^100 = 0.366: loss 0.067); momentum
  // 0.9 gets below 1e-3 (the lesson works it through: about 9.5e-5).
  const Values curvature = {100.0, 1.0};
  // Where 100 steps of SGD with this momentum take the weights from `start`.
  auto trained = [&](const Values& start, double momentum) {
    torch::Tensor w = parameter(start);
    optim::SGD optimizer(std::vector<torch::Tensor>{w}, optim::SGDOptions(0.01).momentum(momentum));
    for (int step = 0; step < 100; ++step) {
      optimizer.zero_grad();
      quadratic_backward(w, curvature);
      optimizer.step();
    }
    return values_of(w);
  };
  auto loss_at = [](const Values& v) { return 50 * v[0] * v[0] + 0.5 * v[1] * v[1]; };
  const double plain = loss_at(trained({1.0, 1.0}, 0.0));
  const double heavy_ball = loss_at(trained({1.0, 1.0}, 0.9));
  CHECK(plain == Approx(0.5 * std::pow(0.99, 200)).epsilon(1e-9));
  CHECK(heavy_ball < 1e-3);
  CHECK(heavy_ball < plain / 100);

  // A drawn start (w2 never 0): plain SGD zeroes w1 on its first step (1 - 0.01 * 100 = 0) and
  // shrinks w2 by 0.99 a step, so its loss is 0.5 w2^2 0.99^200; the heavy ball's weights follow
  // buf = 0.9 buf + g, w -= 0.01 buf, worked out here coordinate by coordinate.
  const Values start = {static_cast<double>(random_int(-16, 16)) / 8, drawn_nonzero(1)[0]};
  CHECK(loss_at(trained(start, 0.0)) == Approx(0.5 * start[1] * start[1] * std::pow(0.99, 200)).epsilon(1e-9));
  Values expected = start, buffer;
  for (int step = 0; step < 100; ++step) {
    for (size_t i = 0; i < expected.size(); ++i) {
      const double gradient = curvature[i] * expected[i];
      if (step == 0) buffer.push_back(gradient);
      else buffer[i] = 0.9 * buffer[i] + gradient;
      expected[i] -= 0.01 * buffer[i];
    }
  }
  CHECK_THAT(as_tensor(trained(start, 0.9)), AllClose(as_tensor(expected), 0, 1e-12));
}
