// Module 06: every differentiable op's backward rule against central differences, in double
// precision, on random shapes (with broadcasting where the op broadcasts), with a random upstream
// gradient so that every output element counts with its own weight. A few ops are also checked
// to second order (create_graph), by grad-checking the function that computes their gradient.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using Function = std::function<Tensor(const std::vector<Tensor>&)>;

std::mt19937& shape_rng() {
  static std::mt19937 rng(2026);
  return rng;
}

int64_t random_int(int64_t low, int64_t high) {  // [low, high]
  return std::uniform_int_distribution<int64_t>(low, high)(shape_rng());
}

// A random shape of rank [min_rank, max_rank] with sizes in [1, 4].
std::vector<int64_t> random_shape(int64_t min_rank = 1, int64_t max_rank = 3) {
  std::vector<int64_t> shape(random_int(min_rank, max_rank));
  for (int64_t& size : shape) size = random_int(1, 4);
  return shape;
}

// A shape that broadcasts to `full`: some leading dims dropped, some dims set to 1.
std::vector<int64_t> broadcastable_to(const std::vector<int64_t>& full) {
  const int64_t dropped = random_int(0, static_cast<int64_t>(full.size()));
  std::vector<int64_t> shape(full.begin() + dropped, full.end());
  for (int64_t& size : shape) {
    if (random_int(0, 2) == 0) size = 1;
  }
  return shape;
}

std::string shape_text(const std::vector<Tensor>& inputs) {
  std::ostringstream out;
  for (const Tensor& t : inputs) out << t.sizes() << " ";
  return out.str();
}

// Analytic gradients of sum(f(inputs) * w) against central differences of the same sum.
// Inputs must be contiguous double tensors; each is perturbed in place, element by element.
void check_gradients(const Function& f, std::vector<Tensor> inputs, double tolerance = 1e-6) {
  for (Tensor& input : inputs) input = input.detach().contiguous().requires_grad_();
  const Tensor output = f(inputs);
  const Tensor weight = torch::randn(output.sizes(), torch::kDouble);
  const Tensor loss = (output * weight).sum();
  const std::vector<Tensor> analytic = torch::autograd::grad({loss}, inputs, {}, std::nullopt, false, true);
  const double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    double* data = inputs[i].data_ptr<double>();
    const std::vector<double> expected_zero(inputs[i].numel(), 0.0);
    const std::vector<double> got =
        analytic[i].defined() ? test_helpers::values(analytic[i]) : expected_zero;
    REQUIRE(got.size() == static_cast<size_t>(inputs[i].numel()));
    for (int64_t j = 0; j < inputs[i].numel(); ++j) {
      const double saved = data[j];
      data[j] = saved + eps;
      const double plus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved - eps;
      const double minus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved;
      const double numeric = (plus - minus) / (2 * eps);
      INFO("input " << i << " element " << j << " of shapes " << shape_text(inputs));
      CHECK(got[j] == Approx(numeric).margin(tolerance).epsilon(1e-5));
    }
  }
}

// Second order: check the gradients of x -> sum(grad(sum(f(x) * w), x, create_graph) * v).
void check_second_order(const Function& f, std::vector<Tensor> inputs) {
  std::vector<Tensor> first_weights;
  const Tensor probe_output = f(inputs);
  const Tensor w = torch::randn(probe_output.sizes(), torch::kDouble);
  for (const Tensor& input : inputs) first_weights.push_back(torch::randn(input.sizes(), torch::kDouble));
  const Function gradient_of_f = [&](const std::vector<Tensor>& xs) {
    std::vector<Tensor> leaves;
    for (const Tensor& x : xs) leaves.push_back(x.requires_grad() ? x : x.detach().requires_grad_());
    const Tensor loss = (f(leaves) * w).sum();
    const std::vector<Tensor> grads = torch::autograd::grad({loss}, leaves, {}, std::nullopt, true, true);
    Tensor total = torch::zeros({}, torch::kDouble);
    for (size_t i = 0; i < grads.size(); ++i) {
      if (grads[i].defined()) total = total + (grads[i] * first_weights[i]).sum();
    }
    return total;
  };
  check_gradients(gradient_of_f, std::move(inputs), 1e-5);
}

Tensor random_tensor(const std::vector<int64_t>& shape) { return torch::randn(shape, torch::kDouble); }
// Away from 0 (for log, sqrt, division, abs, relu's kink): |x| in [0.5, 1.5].
Tensor away_from_zero(const std::vector<int64_t>& shape, bool positive = false) {
  Tensor magnitude = torch::rand(shape, torch::kDouble) + 0.5;
  if (positive) return magnitude;
  Tensor sign = torch::randint(0, 2, shape).to(torch::kDouble) * 2 - 1;
  return magnitude * sign;
}

}  // namespace

TEST_CASE("gradcheck: add, sub, mul, div broadcast and reduce back to each input's shape", "[autograd][gradcheck]") {
  torch::manual_seed(1);
  for (int trial = 0; trial < 6; ++trial) {
    const std::vector<int64_t> full = random_shape();
    const std::vector<int64_t> part = broadcastable_to(full);
    const bool swap = trial % 2 == 1;  // the smaller operand on either side
    const Tensor a = random_tensor(swap ? part : full), b = away_from_zero(swap ? full : part);
    check_gradients([](const std::vector<Tensor>& x) { return x[0] + x[1]; }, {a, b});
    check_gradients([](const std::vector<Tensor>& x) { return x[0].add(x[1], 2.5); }, {a, b});
    check_gradients([](const std::vector<Tensor>& x) { return x[0] - x[1]; }, {a, b});
    check_gradients([](const std::vector<Tensor>& x) { return x[0].sub(x[1], -3); }, {a, b});
    check_gradients([](const std::vector<Tensor>& x) { return x[0] * x[1]; }, {a, b});
    check_gradients([](const std::vector<Tensor>& x) { return x[0] / x[1]; }, {a, b});
  }
  const Tensor x = random_tensor({3, 2});
  check_gradients([](const std::vector<Tensor>& v) { return v[0] + 2; }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return 2 - v[0]; }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0] * 3; }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return 1.5 / v[0]; }, {away_from_zero({3, 2})});
}

TEST_CASE("gradcheck: unary math ops", "[autograd][gradcheck]") {
  torch::manual_seed(2);
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<int64_t> shape = random_shape();
    const Tensor x = random_tensor(shape);
    const Tensor positive = away_from_zero(shape, true);
    const Tensor nonzero = away_from_zero(shape);
    check_gradients([](const std::vector<Tensor>& v) { return -v[0]; }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].exp(); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].log(); }, {positive});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].sqrt(); }, {positive});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].abs(); }, {nonzero});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].pow(3); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].pow(-1.5); }, {positive});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].pow(0); }, {x});
    // clamp: bounds at +-0.25 from the values' range ends of [0.5, 1.5] magnitudes: none sits on a bound.
    check_gradients([](const std::vector<Tensor>& v) { return v[0].clamp(-1.0, 1.0); }, {nonzero * 1.01});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].clamp(0.0); }, {nonzero});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].clamp(std::nullopt, 0.0); }, {nonzero});
  }
  const std::vector<int64_t> full = {3, 4};
  check_gradients([](const std::vector<Tensor>& v) { return v[0].pow(v[1]); },
                  {away_from_zero(full, true), random_tensor(broadcastable_to(full))});
}

TEST_CASE("gradcheck: mm, bmm and matmul in every rank combination", "[autograd][gradcheck]") {
  torch::manual_seed(3);
  const int64_t n = random_int(1, 4), k = random_int(1, 4), m = random_int(1, 4), b = random_int(1, 3);
  check_gradients([](const std::vector<Tensor>& v) { return v[0].mm(v[1]); }, {random_tensor({n, k}), random_tensor({k, m})});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].bmm(v[1]); },
                  {random_tensor({b, n, k}), random_tensor({b, k, m})});
  const auto matmul = [](const std::vector<Tensor>& v) { return v[0].matmul(v[1]); };
  check_gradients(matmul, {random_tensor({k}), random_tensor({k})});
  check_gradients(matmul, {random_tensor({k}), random_tensor({k, m})});
  check_gradients(matmul, {random_tensor({n, k}), random_tensor({k})});
  check_gradients(matmul, {random_tensor({b, n, k}), random_tensor({k, m})});   // weight shared by the batch
  check_gradients(matmul, {random_tensor({2, 1, n, k}), random_tensor({b, k, m})});  // batch dims broadcast
  check_gradients(matmul, {random_tensor({n, k}).t(), random_tensor({n, m})});  // a transposed operand
}

TEST_CASE("gradcheck: reductions", "[autograd][gradcheck]") {
  torch::manual_seed(4);
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<int64_t> shape = random_shape(2, 3);
    const Tensor x = random_tensor(shape);
    const int64_t dim = random_int(0, static_cast<int64_t>(shape.size()) - 1);
    for (bool keepdim : {false, true}) {
      check_gradients([](const std::vector<Tensor>& v) { return v[0].sum(); }, {x});
      check_gradients([&](const std::vector<Tensor>& v) { return v[0].sum({dim}, keepdim); }, {x});
      check_gradients([&](const std::vector<Tensor>& v) { return v[0].sum({0, -1}, keepdim); }, {x});
      check_gradients([](const std::vector<Tensor>& v) { return v[0].mean(); }, {x});
      check_gradients([&](const std::vector<Tensor>& v) { return v[0].mean({dim}, keepdim); }, {x});
      check_gradients([&](const std::vector<Tensor>& v) { return std::get<0>(v[0].max(dim, keepdim)); }, {x});
      check_gradients([&](const std::vector<Tensor>& v) { return std::get<0>(v[0].min(dim, keepdim)); }, {x});
    }
    check_gradients([](const std::vector<Tensor>& v) { return v[0].max(); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return v[0].min(); }, {x});
  }
}

TEST_CASE("gradcheck: max() of all elements shares the gradient among ties", "[autograd]") {
  const Tensor x = torch::tensor({1.0, 3.0, 3.0, 2.0}, torch::requires_grad());
  x.max().backward();
  CHECK(test_helpers::values(x.grad()) == std::vector<double>{0, 0.5, 0.5, 0});
}

TEST_CASE("gradcheck: views, reshapes and indexing", "[autograd][gradcheck]") {
  torch::manual_seed(5);
  using namespace torch::indexing;
  const Tensor x = random_tensor({2, 3, 4});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].view({6, 4}); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].reshape({4, -1}); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].transpose(0, 2).reshape({-1}); }, {x});  // a copy
  check_gradients([](const std::vector<Tensor>& v) { return v[0].flatten(1); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].transpose(0, 2); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].permute({2, 0, 1}); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].select(1, -1); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].slice(2, 1, 4, 2); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].narrow(0, 1, 1); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].index({Slice(), 1, Slice(None, None, 3)}); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0][1][2]; }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].unsqueeze(1); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].contiguous(); }, {x.transpose(0, 1)});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].clone(); }, {x});
  const Tensor with_ones = random_tensor({1, 3, 1, 2});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].squeeze(); }, {with_ones});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].squeeze(2); }, {with_ones});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].expand({4, 2, 3, 5, 2}); }, {with_ones});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].t(); }, {random_tensor({3, 2})});
}

TEST_CASE("gradcheck: activations", "[autograd][gradcheck]") {
  torch::manual_seed(6);
  for (int trial = 0; trial < 3; ++trial) {
    const std::vector<int64_t> shape = random_shape(1, 3);
    const Tensor x = random_tensor(shape);
    const int64_t dim = random_int(0, static_cast<int64_t>(shape.size()) - 1);
    check_gradients([](const std::vector<Tensor>& v) { return torch::relu(v[0]); }, {away_from_zero(shape)});
    check_gradients([](const std::vector<Tensor>& v) { return torch::sigmoid(v[0]); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return torch::tanh(v[0]); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return torch::gelu(v[0]); }, {x});
    check_gradients([](const std::vector<Tensor>& v) { return torch::gelu(v[0], "tanh"); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::softmax(v[0], dim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::log_softmax(v[0], dim); }, {x});
  }
}

TEST_CASE("gradcheck: losses, every reduction", "[autograd][gradcheck]") {
  torch::manual_seed(7);
  const int64_t batch = random_int(2, 4), classes = random_int(2, 5);
  const Tensor logits = random_tensor({batch, classes});
  Tensor target = torch::randint(0, classes, {batch});
  target[0] = 1;  // a fixed class for the ignore_index case below
  const Tensor class_weight = torch::rand({classes}, torch::kDouble) + 0.5;
  const Tensor p = torch::rand({batch, classes}, torch::kDouble) * 0.8 + 0.1;
  const Tensor y = torch::rand({batch, classes}, torch::kDouble);
  for (int64_t reduction : {at::Reduction::None, at::Reduction::Mean, at::Reduction::Sum}) {
    check_gradients([&](const std::vector<Tensor>& v) { return torch::nll_loss(v[0], target, {}, reduction); },
                    {logits});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::nll_loss(v[0], target, class_weight, reduction, 1); },
                    {logits});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::cross_entropy_loss(v[0], target, {}, reduction); },
                    {logits});
    check_gradients(
        [&](const std::vector<Tensor>& v) { return torch::cross_entropy_loss(v[0], target, class_weight, reduction, -100, 0.2); },
        {logits});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::mse_loss(v[0], v[1], reduction); }, {p, y});
    check_gradients([&](const std::vector<Tensor>& v) { return torch::binary_cross_entropy(v[0], v[1], {}, reduction); },
                    {p, y});
    check_gradients(
        [&](const std::vector<Tensor>& v) { return torch::binary_cross_entropy(v[0], y, class_weight, reduction); }, {p});
    check_gradients(
        [&](const std::vector<Tensor>& v) { return torch::binary_cross_entropy_with_logits(v[0], v[1], {}, {}, reduction); },
        {logits, p});
    // |difference| in [0.1, 0.3] (quadratic part) and in [1.0, 1.2] (linear part), never at the kink 0.5.
    const Tensor offset = torch::rand({batch, classes}, torch::kDouble) * 0.2;
    for (double shift : {0.1, 1.0}) {
      check_gradients([&](const std::vector<Tensor>& v) { return torch::smooth_l1_loss(v[0], v[1], reduction, 0.5); },
                      {logits, logits + offset + shift});
    }
  }
  // One sample without a batch dim.
  check_gradients([&](const std::vector<Tensor>& v) { return torch::cross_entropy_loss(v[0], target[0]); },
                  {random_tensor({classes})});
}

TEST_CASE("gradcheck: in-place ops and copies on computed tensors", "[autograd][gradcheck]") {
  torch::manual_seed(8);
  const Tensor a = random_tensor({3, 2}), b = away_from_zero({2});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.add_(v[1], 2); }, {a, b});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.sub_(v[1]); }, {a, b});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.mul_(v[1]); }, {a, b});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.div_(v[1]); }, {a, b});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.copy_(v[1]) * v[0]; }, {a, b});
  check_gradients([](const std::vector<Tensor>& v) { Tensor t = v[0] * 1; return t.fill_(2) * v[0]; }, {a});
}

TEST_CASE("gradcheck: cat and stack join inputs along an existing or a new dim", "[autograd][gradcheck]") {
  torch::manual_seed(9);
  const Tensor a = random_tensor({2, 3}), b = random_tensor({2, 3});
  const Tensor c = random_tensor({1, 3}), d = random_tensor({1, 3});
  check_gradients([](const std::vector<Tensor>& v) { return torch::cat({v[0], v[1] * v[2], v[0]}); }, {a, c, d});
  check_gradients([](const std::vector<Tensor>& v) { return torch::cat({v[0], v[1]}, -1); }, {a, b});
  for (int64_t dim : {0, 1, 2, -1}) {
    INFO("stack at dim " << dim);
    check_gradients([dim](const std::vector<Tensor>& v) { return torch::stack({v[0], v[1] * v[0], v[1]}, dim); },
                    {a, b});
  }
  check_second_order([](const std::vector<Tensor>& v) { return torch::stack({v[0] * v[0], v[1]}, 1); }, {a, b});
}

TEST_CASE("gradcheck: second derivatives through create_graph", "[autograd][gradcheck]") {
  torch::manual_seed(9);
  const Tensor x = random_tensor({2, 3}), w = random_tensor({3, 2});
  check_second_order([](const std::vector<Tensor>& v) { return v[0].pow(3); }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return v[0].exp() * v[0]; }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return torch::sigmoid(v[0]); }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return torch::tanh(v[0]); }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return torch::log_softmax(v[0], 1); }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return torch::softmax(v[0], 0); }, {x});
  check_second_order([](const std::vector<Tensor>& v) { return v[0].mm(v[1]).pow(2); }, {x, w});
  check_second_order([](const std::vector<Tensor>& v) { return (v[0] / v[1].t()).sum(1); }, {x, away_from_zero({3, 2})});
  check_second_order([](const std::vector<Tensor>& v) { return v[0].select(1, 2).pow(2) + v[0].slice(1, 0, 2).pow(3).sum(1); }, {x});
}

TEST_CASE("gradcheck: prod, cumsum, var, std, logsumexp, amax/amin", "[autograd][gradcheck]") {
  torch::manual_seed(5);
  const Tensor x = random_tensor({3, 4});
  for (bool keepdim : {false, true}) {
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].prod(1, keepdim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].var({0}, true, keepdim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].std({1}, false, keepdim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].logsumexp({0, 1}, keepdim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].amax({1}, keepdim); }, {x});
    check_gradients([&](const std::vector<Tensor>& v) { return v[0].amin({0}, keepdim); }, {x});
  }
  check_gradients([](const std::vector<Tensor>& v) { return v[0].prod(); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cumsum(0); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cumsum(-1); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].var(); }, {x});
  // A zero among the factors: the gradient is the product of the others, not prod / x.
  const Tensor with_zero = torch::tensor({{2.0, 0.0, 3.0}}, torch::requires_grad());
  with_zero.prod(1).sum().backward();
  CHECK(test_helpers::values(with_zero.grad()) == std::vector<double>{0, 6, 0});
}

TEST_CASE("gradcheck: where, masked_fill, masked_select, index_select and mask indexing", "[autograd][gradcheck]") {
  torch::manual_seed(6);
  const Tensor x = random_tensor({3, 4});
  const Tensor y = random_tensor({4});
  const Tensor mask = torch::rand({3, 4}) > 0.5;
  check_gradients([&](const std::vector<Tensor>& v) { return torch::where(mask, v[0], v[1]); }, {x, y});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].masked_fill(mask, 2.5); }, {x});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].masked_select(mask); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].index_select(1, torch::tensor({3, 0, 3})); }, {x});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].index({mask}); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].index({torch::tensor({2, 0}), 1}); }, {x});
}

TEST_CASE("gradcheck: gather, scatter, scatter_add, index_add and embedding (repeated indices)",
          "[autograd][gradcheck]") {
  torch::manual_seed(11);
  const Tensor x = random_tensor({3, 4});
  const Tensor src = random_tensor({3, 2});
  const Tensor index = torch::tensor({{0, 3}, {2, 2}, {1, 0}});  // row 1 picks column 2 twice
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].gather(1, index); }, {x});
  check_gradients([&](const std::vector<Tensor>& v) { return torch::gather(v[0], 0, torch::tensor({{2, 2, 0, 1}})); },
                  {x});
  // scatter with distinct positions (with repeats the last write wins, which is not differentiable in src).
  const Tensor distinct = torch::tensor({{0, 3}, {2, 1}, {1, 0}});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].scatter(1, distinct, v[1]); }, {x, src});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].scatter(1, distinct, 0.5); }, {x});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].scatter_add(1, index, v[1]); }, {x, src});
  check_gradients([&](const std::vector<Tensor>& v) { return v[0].index_add(0, torch::tensor({2, 2, 0}), v[1], 1.5); },
                  {random_tensor({3, 2}), src});
  check_gradients(
      [&](const std::vector<Tensor>& v) {
        Tensor y = v[0] * 1.0;  // a non-leaf, so the in-place forms may write into it
        y.scatter_add_(1, index, v[1]);
        y.index_add_(1, torch::tensor({3, 3}), v[1]);
        return y;
      },
      {x, src});
  check_gradients([](const std::vector<Tensor>& v) { return torch::embedding(v[0], torch::tensor({{1, 1}, {4, 0}})); },
                  {random_tensor({5, 3})});
  // (padding_idx and scale_grad_by_freq change the gradient on purpose: not checked against differences.)
  // gather and scatter_add are each other's gradient, both recorded: their second order works.
  check_second_order([&](const std::vector<Tensor>& v) { return (v[0].gather(1, index) * v[0].narrow(1, 0, 2)); },
                     {x});
  check_second_order([&](const std::vector<Tensor>& v) { return v[0].scatter_add(1, index, v[1] * v[1]); }, {x, src});
}
