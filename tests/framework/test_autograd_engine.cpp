// Module 06's engine and LibTorch's autograd surface: graph structure and node names, leaves,
// accumulation, retain_grad, graph lifetime and the freed-graph error, torch::autograd::grad with
// create_graph, custom Function<T>, grad mode, detach, and deep graphs.
#include <catch2/catch.hpp>

#include <string>
#include <unordered_set>
#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::values;
using torch::Tensor;

namespace {

std::string node_name(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "null"; }

// Every node of the graph behind `root`.
std::vector<torch::autograd::Node*> graph_nodes(const Tensor& root) {
  std::vector<torch::autograd::Node*> nodes, stack = {root.grad_fn().get()};
  std::unordered_set<torch::autograd::Node*> seen;
  while (!stack.empty()) {
    torch::autograd::Node* node = stack.back();
    stack.pop_back();
    if (node == nullptr || !seen.insert(node).second) continue;
    nodes.push_back(node);
    for (const auto& edge : node->next_edges()) stack.push_back(edge.function.get());
  }
  return nodes;
}

// Bytes of storage the graph's saved tensors keep alive (each storage once).
int64_t saved_bytes(const Tensor& root) {
  std::vector<Tensor> saved;
  for (torch::autograd::Node* node : graph_nodes(root)) {
    for (const Tensor& t : node->saved_tensors()) saved.push_back(t);
  }
  return torch::memory_footprint(saved);
}

}  // namespace

TEST_CASE("module 06 registers itself when linked; enable_autograd() is idempotent", "[autograd]") {
  tinytorch::AutogradLayer* const engine = tinytorch::autograd_layer();
  REQUIRE(engine != nullptr);
  tinytorch::enable_autograd();
  tinytorch::enable_autograd();
  CHECK(tinytorch::autograd_layer() == engine);
}

TEST_CASE("grad_fn names are LibTorch's", "[autograd]") {
  auto x = torch::randn({2, 3}, torch::requires_grad());
  auto y = torch::randn({3}, torch::requires_grad());
  auto s = torch::randn({3, 3}, torch::requires_grad());
  auto b = torch::randn({2, 3, 3}, torch::requires_grad());
  CHECK(node_name(x + y) == "AddBackward0");
  CHECK(node_name(x + 2) == "AddBackward1");
  CHECK(node_name(x - y) == "SubBackward0");
  CHECK(node_name(x - 2) == "SubBackward1");
  CHECK(node_name(2 - x) == "SubBackward0");
  CHECK(node_name(x * y) == "MulBackward0");
  CHECK(node_name(x * 2) == "MulBackward1");
  CHECK(node_name(x / y) == "DivBackward0");
  CHECK(node_name(x / 2) == "DivBackward1");
  CHECK(node_name(x.pow(2)) == "PowBackward0");
  CHECK(node_name(x.pow(y)) == "PowBackward1");
  CHECK(node_name(-x) == "NegBackward0");
  CHECK(node_name(x.exp()) == "ExpBackward0");
  CHECK(node_name(x.log()) == "LogBackward0");
  CHECK(node_name(x.sqrt()) == "SqrtBackward0");
  CHECK(node_name(x.abs()) == "AbsBackward0");
  CHECK(node_name(x.clamp(0, 1)) == "ClampBackward1");
  CHECK(node_name(x.mm(s)) == "MmBackward0");
  CHECK(node_name(x.matmul(s)) == "MmBackward0");
  CHECK(node_name(b.bmm(b)) == "BmmBackward0");
  CHECK(node_name(x.sum()) == "SumBackward0");
  CHECK(node_name(x.sum(0)) == "SumBackward1");
  CHECK(node_name(x.mean()) == "MeanBackward0");
  CHECK(node_name(x.mean(1)) == "MeanBackward1");
  CHECK(node_name(x.view({6})) == "ViewBackward0");
  CHECK(node_name(x.transpose(0, 1)) == "TransposeBackward0");
  CHECK(node_name(x.permute({1, 0})) == "PermuteBackward0");
  CHECK(node_name(y.expand({2, 3})) == "ExpandBackward0");
  CHECK(node_name(x.unsqueeze(0)) == "UnsqueezeBackward0");
  CHECK(node_name(x.unsqueeze(0).squeeze()) == "SqueezeBackward0");
  CHECK(node_name(x.unsqueeze(1).squeeze(1)) == "SqueezeBackward1");
  CHECK(node_name(x.unsqueeze(0).squeeze(0)) == "SqueezeBackward1");  // squeeze(dim), whichever dim
  CHECK(node_name(x.sum({0, 1})) == "SumBackward1");                // sum(dims), even every dim
  CHECK(node_name(x.mean({0, 1})) == "MeanBackward1");
  CHECK(node_name(x.select(0, 1)) == "SelectBackward0");
  CHECK(node_name(x[0]) == "SelectBackward0");
  CHECK(node_name(x.slice(1, 0, 2)) == "SliceBackward0");
  CHECK(node_name(x.narrow(1, 0, 2)) == "SliceBackward0");
  CHECK(node_name(torch::relu(x)) == "ReluBackward0");
  CHECK(node_name(torch::sigmoid(x)) == "SigmoidBackward0");
  CHECK(node_name(torch::tanh(x)) == "TanhBackward0");
  CHECK(node_name(torch::gelu(x)) == "GeluBackward0");
  CHECK(node_name(torch::softmax(x, 1)) == "SoftmaxBackward0");
  CHECK(node_name(torch::log_softmax(x, 1)) == "LogSoftmaxBackward0");
  const Tensor target = torch::tensor({0, 2});
  CHECK(node_name(torch::nll_loss(torch::log_softmax(x, 1), target)) == "NllLossBackward0");
  CHECK(node_name(torch::cross_entropy_loss(x, target)) == "NllLossBackward0");
  CHECK(node_name(torch::binary_cross_entropy(torch::sigmoid(x), torch::rand({2, 3}))) == "BinaryCrossEntropyBackward0");
  CHECK(node_name(x.clone()) == "CloneBackward0");
  CHECK(node_name(x.t().contiguous()) == "CloneBackward0");
  CHECK(node_name(x.contiguous()) == "null");  // already contiguous: the same tensor
  CHECK(node_name(x.to(torch::kDouble)) == "ToCopyBackward0");
  CHECK(node_name(x.max()) == "MaxBackward1");
  CHECK(node_name(std::get<0>(x.max(1))) == "MaxBackward0");
  CHECK(node_name(x.min()) == "MinBackward1");
  CHECK(node_name(std::get<0>(x.min(1))) == "MinBackward0");
  CHECK_FALSE(std::get<1>(x.max(1)).requires_grad());  // indices have no gradient
  Tensor z = x * 1;
  CHECK(node_name(z.add_(1)) == "AddBackward1");
  CHECK(node_name(z.copy_(y)) == "torch::autograd::CopyBackwards");
  CHECK(node_name(z.sub_(y)) == "SubBackward0");
  auto w = x * 2;
  REQUIRE(w.grad_fn()->next_edges().size() == 2);
  CHECK(w.grad_fn()->next_edges()[0].function->name() == "torch::autograd::AccumulateGrad");
  CHECK_FALSE(w.grad_fn()->next_edges()[1].is_valid());  // the number 2 needs no gradient
}

TEST_CASE("leaves, requires_grad and factories", "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());
  CHECK(x.requires_grad());
  CHECK(x.is_leaf());
  CHECK(x.grad_fn() == nullptr);
  CHECK_FALSE(x.grad().defined());
  auto plain = torch::ones({2});
  CHECK_FALSE((plain * 2).requires_grad());
  CHECK((plain * 2).is_leaf());
  auto y = x * plain;
  CHECK(y.requires_grad());
  CHECK_FALSE(y.is_leaf());
  CHECK(plain.requires_grad_().requires_grad());
  CHECK_FALSE(plain.requires_grad_(false).requires_grad());
  CHECK(torch::zeros({2}, torch::TensorOptions().requires_grad(true)).requires_grad());
  CHECK(torch::tensor({1.0, 2.0}, torch::requires_grad()).requires_grad());
  CHECK_THROWS_WITH(torch::ones({2}, torch::kLong).requires_grad_(),
                    "Only Tensors of floating point and complex dtype can require gradients");
  CHECK_THROWS_WITH(y.requires_grad_(false), Contains("you can only change requires_grad flags of leaf variables"));
  CHECK_NOTHROW(y.requires_grad_(true));
  CHECK_THROWS_WITH(torch::ones({2}).retain_grad(), "can't retain_grad on Tensor that has requires_grad=False");
}

TEST_CASE("backward on an MLP: LibTorch's gradients, parameters require grad", "[autograd]") {
  torch::manual_seed(0);
  torch::nn::Sequential mlp(torch::nn::Linear(4, 8), torch::nn::ReLU(), torch::nn::Linear(8, 3));
  for (const Tensor& p : mlp->parameters()) CHECK(p.requires_grad());
  const Tensor input = torch::randn({5, 4});
  const Tensor target = torch::tensor({0, 1, 2, 1, 0});
  const Tensor loss = torch::cross_entropy_loss(mlp->forward(input), target);
  loss.backward();
  for (const Tensor& p : mlp->parameters()) {
    REQUIRE(p.grad().defined());
    CHECK(p.grad().sizes() == p.sizes());
  }
  // One SGD step under NoGradGuard lowers the loss.
  {
    torch::NoGradGuard no_grad;
    for (Tensor& p : mlp->parameters()) p.sub_(p.grad() * 0.5);
  }
  const Tensor after = torch::cross_entropy_loss(mlp->forward(input), target);
  CHECK(after.item<double>() < loss.item<double>());
}

TEST_CASE("gradients accumulate across backward calls until zeroed", "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());
  (x * 3).sum().backward();
  (x * 5).sum().backward();
  CHECK(values(x.grad()) == std::vector<double>{8, 8});
  x.mutable_grad().zero_();
  (x * 2).sum().backward();
  CHECK(values(x.grad()) == std::vector<double>{2, 2});
  x.mutable_grad() = Tensor();
  (x * 7).sum().backward();
  CHECK(values(x.grad()) == std::vector<double>{7, 7});
}

TEST_CASE("a tensor used twice receives the sum of both gradients", "[autograd]") {
  auto x = torch::tensor({2.0}, torch::requires_grad());
  auto w = torch::tensor({3.0}, torch::requires_grad());
  auto h = x * w;
  (h * h).sum().backward();  // d/dw (xw)^2 = 2 x^2 w = 24, d/dx = 2 x w^2 = 36
  CHECK(w.grad().item<double>() == 24);
  CHECK(x.grad().item<double>() == 36);
  auto leaf = torch::ones({1}, torch::requires_grad());
  auto y = leaf;
  for (int i = 0; i < 8; ++i) y = y + y;
  y.sum().backward();
  CHECK(leaf.grad().item<double>() == 256);
}

TEST_CASE("retain_grad keeps a non-leaf's gradient", "[autograd]") {
  auto a = torch::ones({2}, torch::requires_grad());
  auto w = a * 2;
  auto v = w + 1;
  w.retain_grad();
  CHECK(w.retains_grad());
  CHECK_FALSE(v.retains_grad());
  (w * w).sum().backward(torch::Tensor(), true);
  CHECK(values(w.grad()) == std::vector<double>{4, 4});
  CHECK_FALSE(v.grad().defined());
  (w * w).sum().backward();
  CHECK(values(w.grad()) == std::vector<double>{8, 8});  // accumulates like a leaf's
  CHECK(values(a.grad()) == std::vector<double>{16, 16});
}

TEST_CASE("the graph is freed after backward unless retained", "[autograd]") {
  auto x = torch::ones({3}, torch::requires_grad());
  auto loss = x.exp().sum();
  loss.backward();
  CHECK_THROWS_WITH(loss.backward(), Contains("Trying to backward through the graph a second time"));
  auto kept = (x * x).sum();
  kept.backward({}, /*retain_graph=*/true);
  kept.backward();
  for (double g : values(x.grad())) CHECK(g == Approx(std::exp(1.0) + 4));
  CHECK_THROWS_WITH(kept.backward(), Contains("Specify retain_graph=True"));
  // A node that saved nothing (add) can run again, as in LibTorch.
  auto sum = (x + 1).sum();
  sum.backward();
  CHECK_NOTHROW(sum.backward());
}

TEST_CASE("saved tensors are freed by backward", "[autograd][memory]") {
  auto x = torch::randn({64, 64}, torch::requires_grad());
  auto hidden = x.mm(x).relu();  // MmBackward0 saves x twice, ReluBackward0 saves hidden
  auto loss = (hidden * hidden).sum();
  const int64_t before = saved_bytes(loss);
  CHECK(before == 2 * 64 * 64 * 4);  // x and hidden, each storage counted once
  CHECK(hidden.storage().use_count() == 2);  // hidden, and ReluBackward0's saved output (MulBackward0 holds hidden itself)
  loss.backward();
  CHECK(saved_bytes(loss) == 0);
  CHECK(hidden.storage().use_count() == 1);
}

TEST_CASE("errors use LibTorch's wording", "[autograd]") {
  CHECK_THROWS_WITH(torch::ones({2}).sum().backward(),
                    "element 0 of tensors does not require grad and does not have a grad_fn");
  auto x = torch::ones({2}, torch::requires_grad());
  CHECK_THROWS_WITH((x * 2).backward(), "grad can be implicitly created only for scalar outputs");
  CHECK_THROWS_WITH((x * 2).backward(torch::ones({3})), Contains("Mismatch in shape"));
  CHECK_THROWS_WITH(x.add_(1), "a leaf Variable that requires grad is being used in an in-place operation.");
  {
    torch::NoGradGuard no_grad;
    CHECK_NOTHROW(x.add_(1));  // optimizers update parameters like this
  }
  CHECK(values(x) == std::vector<double>{2, 2});  // the refused add_ wrote nothing
  CHECK(x.is_leaf());
}

TEST_CASE("an in-place op on a leaf that requires grad is refused before it writes", "[autograd]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  const std::string message = "a leaf Variable that requires grad is being used in an in-place operation.";
  CHECK_THROWS_WITH(x.add_(torch::ones({2})), message);
  CHECK_THROWS_WITH(x.sub_(1), message);
  CHECK_THROWS_WITH(x.mul_(torch::full({2}, 3.0)), message);
  CHECK_THROWS_WITH(x.div_(2), message);
  CHECK_THROWS_WITH(x.copy_(torch::zeros({2})), message);
  CHECK_THROWS_WITH(x.fill_(7), message);
  CHECK_THROWS_WITH(x.zero_(), message);
  CHECK(values(x) == std::vector<double>{1, 2});
  CHECK_FALSE(x.grad().defined());
  CHECK(x.is_leaf());
}

TEST_CASE("mul_ and div_ keep self's value from before the op for the other input's gradient", "[autograd]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = torch::tensor({0.0, 3.0}, torch::requires_grad());
  Tensor z = x * 1;
  z.mul_(y);  // d z / d y is z's old value, even where y is 0
  z.sum().backward();
  CHECK(values(y.grad()) == std::vector<double>{1, 2});
  CHECK(values(x.grad()) == std::vector<double>{0, 3});
  auto d = torch::tensor({2.0, 4.0}, torch::requires_grad());
  Tensor w = x * 1;
  w.div_(d);  // d (w / d) / d d = -w_old / d^2
  w.sum().backward();
  CHECK(values(d.grad()) == std::vector<double>{-0.25, -0.125});
}

namespace {
// Test-only ops with deliberately wrong and differently typed gradients, to see the engine's checks.
const tinytorch::RegisterDerivative wrong_shape_derivative("test_wrong_shape", {
    "WrongShapeBackward0", nullptr,
    [](const tinytorch::BackwardContext&) -> tinytorch::tensor_list { return {torch::ones({3})}; }});
const tinytorch::RegisterDerivative broadcast_derivative("test_broadcast", {
    "BroadcastBackward0", nullptr,
    [](const tinytorch::BackwardContext&) -> tinytorch::tensor_list {
      return {torch::ones({4, 2}, torch::kDouble)};  // a (2) float input gets a (4, 2) double gradient
    }});
}  // namespace

TEST_CASE("the engine sums a broadcast gradient to its input's shape and dtype, and names a wrong one",
          "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());
  Tensor out = torch::zeros({4, 2});
  static tinytorch::OpHandle test_broadcast_op("test_broadcast");
  tinytorch::record_op(test_broadcast_op, {x}, {out});
  CHECK(node_name(out) == "BroadcastBackward0");
  out.sum().backward();
  CHECK(x.grad().scalar_type() == torch::kFloat);
  CHECK(values(x.grad()) == std::vector<double>{4, 4});
  Tensor wrong = torch::zeros({2});
  static tinytorch::OpHandle test_wrong_shape_op("test_wrong_shape");
  tinytorch::record_op(test_wrong_shape_op, {x}, {wrong});
  CHECK_THROWS_WITH(wrong.sum().backward(),
                    "Function WrongShapeBackward0 returned an invalid gradient at index 0 - got [3] but expected "
                    "shape compatible with [2]");
}

TEST_CASE("backward with an explicit gradient, several roots, and inputs=", "[autograd]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  (x * x).backward(torch::tensor({1.0, 10.0}));
  CHECK(values(x.grad()) == std::vector<double>{2, 40});
  auto a = torch::ones({1}, torch::requires_grad());
  auto b = torch::ones({1}, torch::requires_grad());
  torch::autograd::backward({(a * 2).sum(), (a * b * 3).sum()});
  CHECK(a.grad().item<double>() == 5);
  CHECK(b.grad().item<double>() == 3);
  auto c = torch::ones({1}, torch::requires_grad());
  auto d = torch::ones({1}, torch::requires_grad());
  torch::autograd::backward({(c * d * 4).sum()}, {}, std::nullopt, false, {c});
  CHECK(c.grad().item<double>() == 4);
  CHECK_FALSE(d.grad().defined());
}

TEST_CASE("torch::autograd::grad returns gradients and, with create_graph, differentiates them again",
          "[autograd]") {
  auto x = torch::tensor({2.0}, torch::requires_grad());
  auto y = x.pow(3);
  auto first = torch::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true);
  REQUIRE(first.size() == 1);
  CHECK(first[0].item<double>() == 12);  // 3 x^2
  CHECK(first[0].requires_grad());
  CHECK_FALSE(x.grad().defined());  // grad() does not touch .grad()
  auto second = torch::autograd::grad({first[0]}, {x});
  CHECK(second[0].item<double>() == 12);  // 6 x
  auto e = torch::tensor({1.0}, torch::requires_grad());
  auto de = torch::autograd::grad({e.exp()}, {e}, {}, std::nullopt, true);
  CHECK(torch::autograd::grad({de[0]}, {e})[0].item<double>() == Approx(std::exp(1.0)));
  auto unused = torch::ones({1}, torch::requires_grad());
  CHECK_THROWS_WITH(torch::autograd::grad({(x * 2).sum()}, {unused}),
                    Contains("One of the differentiated Tensors appears to not have been used in the graph"));
  auto none = torch::autograd::grad({(x * 2).sum()}, {unused}, {}, std::nullopt, false, /*allow_unused=*/true);
  CHECK_FALSE(none[0].defined());
  // The gradient with respect to an intermediate tensor.
  auto h = x * 3;
  CHECK(torch::autograd::grad({(h * h).sum()}, {h})[0].item<double>() == 12);
}

namespace {
struct MulConstant : public torch::autograd::Function<MulConstant> {
  static Tensor forward(torch::autograd::AutogradContext* ctx, Tensor x, double k) {
    ctx->saved_data["k"] = k;
    ctx->save_for_backward({x});
    CHECK_FALSE(torch::GradMode::is_enabled());  // forward's own ops are not recorded
    return x * k;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    CHECK(ctx->needs_input_grad(0));
    CHECK_FALSE(ctx->needs_input_grad(1));
    const auto saved = ctx->get_saved_variables();  // throws once the graph is freed
    REQUIRE(saved.size() == 1);
    return {grads[0] * ctx->saved_data["k"].toDouble(), Tensor()};
  }
};

struct ScaleAndSquare : public torch::autograd::Function<ScaleAndSquare> {  // two outputs, one unused
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, Tensor x) {
    Tensor square = x * x;
    ctx->save_for_backward({x, square});
    return {x * 2, square};
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    Tensor x = ctx->get_saved_variables()[0];
    return {grads[0] * 2 + grads[1] * 2 * x};  // grads[1] is zeros when unused (materialized)
  }
};

struct WrongCount : public torch::autograd::Function<WrongCount> {
  static Tensor forward(torch::autograd::AutogradContext*, Tensor x, Tensor y) { return x * y; }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext*, torch::autograd::variable_list grads) {
    return {grads[0]};
  }
};

struct WrongShape : public torch::autograd::Function<WrongShape> {
  static Tensor forward(torch::autograd::AutogradContext*, Tensor x) { return x * 2; }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext*, torch::autograd::variable_list) {
    return {torch::ones({3})};
  }
};
}  // namespace

TEST_CASE("custom autograd functions: Function<T>, AutogradContext, saved_data", "[autograd]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = MulConstant::apply(x, 5.0);
  CHECK(node_name(y) == "torch::autograd::CppNode<(anonymous namespace)::MulConstant>");
  (y * y).sum().backward();
  CHECK(values(x.grad()) == std::vector<double>{50, 100});  // 2 (5x) 5
  CHECK_THROWS_WITH((y * 1).sum().backward(), Contains("Trying to backward through the graph a second time"));

  auto z = torch::tensor({3.0}, torch::requires_grad());
  auto outputs = ScaleAndSquare::apply(z);
  REQUIRE(outputs.size() == 2);
  outputs[0].sum().backward();
  CHECK(z.grad().item<double>() == 2);
  z.mutable_grad().zero_();
  auto again = ScaleAndSquare::apply(z);
  (again[0] + again[1]).sum().backward();
  CHECK(z.grad().item<double>() == 8);  // 2 + 2 * 3

  auto a = torch::ones({1}, torch::requires_grad());
  CHECK_THROWS_WITH(WrongCount::apply(a, a).sum().backward(), Contains("returned an incorrect number of gradients"));
  // A gradient of the wrong shape is blamed on the function that produced it, named once.
  auto pair = torch::ones({2}, torch::requires_grad());
  CHECK_THROWS_WITH(WrongShape::apply(pair).sum().backward(),
                    "Function torch::autograd::CppNode<(anonymous namespace)::WrongShape> returned an invalid gradient "
                    "at index 0 - got [3] but expected shape compatible with [2]");
  // Without any input that requires grad, nothing is recorded.
  CHECK_FALSE(MulConstant::apply(torch::ones({1}), 2.0).requires_grad());
}

TEST_CASE("grad mode: NoGradGuard, AutoGradMode and detach", "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());
  {
    torch::NoGradGuard no_grad;
    CHECK_FALSE(torch::GradMode::is_enabled());
    auto y = x * 2;
    CHECK_FALSE(y.requires_grad());
    {
      torch::AutoGradMode enable(true);
      CHECK((x * 2).requires_grad());
    }
    CHECK_FALSE(torch::GradMode::is_enabled());
  }
  CHECK(torch::GradMode::is_enabled());
  auto d = (x * 3).detach();
  CHECK_FALSE(d.requires_grad());
  CHECK(d.is_leaf());
  CHECK(d.grad_fn() == nullptr);
  auto shares = x.detach();
  CHECK(shares.is_alias_of(x));
  CHECK_FALSE(shares.requires_grad());
}

TEST_CASE("gradients keep the dtype of their leaf", "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());  // float
  (x.to(torch::kDouble) * torch::ones({2}, torch::kDouble)).sum().backward();
  CHECK(x.grad().scalar_type() == torch::kFloat);
  auto y = torch::ones({2}, torch::requires_grad());
  (y * torch::ones({2}, torch::kDouble)).sum().backward();  // float * double is double
  CHECK(y.grad().scalar_type() == torch::kFloat);
  CHECK(values(y.grad()) == std::vector<double>{1, 1});
}

TEST_CASE("a 10,000-op chain: backward and destruction never recurse per node", "[autograd]") {
  auto x = torch::ones({1}, torch::requires_grad());
  auto y = x;
  for (int i = 0; i < 10000; ++i) y = y * 1.0001 + 0.0;
  y.sum().backward();
  CHECK(x.grad().item<double>() == Approx(std::pow(1.0001, 10000)).epsilon(1e-3));  // float32 rounding
  // A longer graph is freed iteratively as well (a recursive free would overflow the stack).
  auto long_chain = torch::ones({1}, torch::requires_grad());
  for (int i = 0; i < 100000; ++i) long_chain = long_chain * 1.0;  // each node saves the previous tensor
  long_chain = Tensor();
  SUCCEED();
}

TEST_CASE("an op without a backward rule says so at backward time", "[autograd]") {
  // A stand-in for an op a later module adds before writing its rule.
  auto x = torch::ones({2}, torch::requires_grad());
  Tensor out = torch::zeros({2});
  tinytorch::OpAttributes attributes;
  static tinytorch::OpHandle mystery_op("mystery_op");
  tinytorch::record_op(mystery_op, {x}, {out}, attributes);
  CHECK(node_name(out) == "NotImplemented");
  CHECK_THROWS_WITH(out.sum().backward(), "the derivative for 'mystery_op' is not implemented.");
}

TEST_CASE("a parameter's gradient has the parameter's layout even when backward produces a transposed one",
          "[autograd]") {
  // Linear computes x.matmul(W.t()), so W's gradient arrives as the transpose of a contiguous
  // product. LibTorch's AccumulateGrad stores it in W's own (contiguous) layout; zero_(),
  // accumulation and the optimizers then work on plain memory.
  torch::manual_seed(8);
  auto w = torch::randn({5, 3}, torch::requires_grad());
  const auto x = torch::randn({4, 3});
  x.matmul(w.t()).sum().backward();
  REQUIRE(w.grad().is_contiguous());
  const auto first = w.grad().clone();
  x.matmul(w.t()).sum().backward();  // accumulates a transposed gradient into the contiguous one
  REQUIRE(w.grad().is_contiguous());
  REQUIRE(w.grad().allclose(first * 2));
  // The values: d(sum(x W^T))/dW = ones(4, 5)^T x.
  REQUIRE(first.allclose(torch::ones({4, 5}).t().matmul(x)));
}

TEST_CASE("detach_ makes a tensor a leaf that needs no gradient, in place", "[autograd]") {
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = x * 2;
  torch::Tensor& same = y.detach_();
  CHECK(&same == &y);
  CHECK_FALSE(y.requires_grad());
  CHECK(y.is_leaf());
  CHECK(y.grad_fn() == nullptr);
  CHECK(torch::detach_(y).equal(torch::full({2}, 2.0)));
  auto z = (y * x).sum();  // y is now a constant: the gradient reaches x only through the product
  z.backward();
  CHECK(x.grad().equal(torch::full({2}, 2.0)));
}
