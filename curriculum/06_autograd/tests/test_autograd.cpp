// Module 06 (Autograd): the graded tests. Expected gradients are worked out by hand (the lesson
// shows each one: d/dw (xw)^2 = 2x^2 w = 24, ...) or measured by central differences, never
// computed with the code under test. Each case is tagged with its points ([points=N], 100 in all);
// hints.json has a hint per case.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/autograd/engine.h>

#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using torch::Tensor;
using Sizes = std::vector<int64_t>;

namespace {

// Every element as a double, read without any op under test.
std::vector<double> values(const Tensor& t) {
  const Tensor flat = t.contiguous();
  std::vector<double> out;
  if (flat.scalar_type() == torch::kDouble) {
    const double* data = flat.data_ptr<double>();
    out.assign(data, data + flat.numel());
  } else {
    const float* data = flat.data_ptr<float>();
    out.assign(data, data + flat.numel());
  }
  return out;
}

Sizes shape(const Tensor& t) { return t.sizes().vec(); }

// A tensor filled with `value` (double), built without arithmetic.
Tensor filled(Sizes sizes, double value) { return torch::full(sizes, value, torch::kDouble); }

// Central differences of the scalar f() with respect to every element of the leaf x (double).
std::vector<double> numeric_gradient(const std::function<double()>& f, Tensor& x, double eps = 1e-6) {
  std::vector<double> gradient(x.numel());
  double* data = x.data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double saved = data[i];
    data[i] = saved + eps;
    const double plus = f();
    data[i] = saved - eps;
    const double minus = f();
    data[i] = saved;
    gradient[i] = (plus - minus) / (2 * eps);
  }
  return gradient;
}

// Runs `work` on a thread whose call stack is only 256 KiB (the default is 8 MiB): a search that
// recurses once per node overflows it on a 10,000-node graph, an iterative one does not. An
// exception thrown by `work` is rethrown here.
void run_on_small_stack(const std::function<void()>& work) {
  constexpr size_t kStackBytes = 256 * 1024;
  struct Job {
    const std::function<void()>* work;
    std::exception_ptr error;
  } job{&work, nullptr};
  pthread_attr_t attributes;
  REQUIRE(pthread_attr_init(&attributes) == 0);
  REQUIRE(pthread_attr_setstacksize(&attributes, kStackBytes) == 0);
  pthread_t thread;
  void* (*body)(void*) = [](void* argument) -> void* {
    Job* running = static_cast<Job*>(argument);
    try {
      (*running->work)();
    } catch (...) {
      running->error = std::current_exception();
    }
    return nullptr;
  };
  const int created = pthread_create(&thread, &attributes, body, &job);
  pthread_attr_destroy(&attributes);
  REQUIRE(created == 0);
  pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

// "SumBackward0, AddBackward0, ...": what a failed check about an order prints.
std::string names_of(const std::vector<torch::autograd::Node*>& nodes) {
  std::ostringstream out;
  for (size_t i = 0; i < nodes.size(); ++i) out << (i ? ", " : "") << (nodes[i] ? nodes[i]->name() : "null");
  return out.str();
}

void check_close(const std::vector<double>& actual, const std::vector<double>& expected, double tolerance) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i);
    CHECK(actual[i] == Approx(expected[i]).margin(tolerance));
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: Undoing broadcasting
// ---------------------------------------------------------------------------------------------

TEST_CASE("sum_to sums a broadcast gradient back to the input's shape", "[points=8][sum_to]") {
  using torch::autograd::sum_to;
  const Tensor batch = sum_to(filled({32, 128}, 1.0), {128});  // a bias added to 32 rows
  CHECK(shape(batch) == Sizes{128});
  CHECK(values(batch) == std::vector<double>(128, 32.0));
  const Tensor column = sum_to(filled({10, 5}, 1.0), {10, 1});  // keepdim-style: dim 1 was 1
  CHECK(shape(column) == Sizes{10, 1});
  CHECK(values(column) == std::vector<double>(10, 5.0));
  const Tensor both = sum_to(filled({32, 10, 5}, 1.0), {10, 1});  // a leading dim and a size-1 dim
  CHECK(shape(both) == Sizes{10, 1});
  CHECK(values(both) == std::vector<double>(10, 160.0));
  const Tensor same = filled({3, 4}, 2.0);
  CHECK(sum_to(same, {3, 4}).sizes() == same.sizes());
  const Tensor scalar = sum_to(filled({64, 64}, 1.0), {});
  CHECK(scalar.dim() == 0);
  CHECK(values(scalar) == std::vector<double>{4096.0});
  const Tensor mixed = sum_to(torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}), {1, 3});
  CHECK(values(mixed) == std::vector<double>{5, 7, 9});
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: The chain rule per op
// ---------------------------------------------------------------------------------------------

TEST_CASE("add: both inputs get the gradient, a broadcast bias gets the sum over the batch",
          "[points=8][add]") {
  auto x = torch::ones({4, 3}, torch::requires_grad());
  auto bias = torch::zeros({3}, torch::requires_grad());
  auto out = x + bias;
  CHECK(out.grad_fn()->name() == "AddBackward0");
  REQUIRE_NOTHROW(out.sum().backward());
  CHECK_THAT(x.grad(), Equals(torch::ones({4, 3})));
  CHECK_THAT(bias.grad(), Equals(torch::full({3}, 4.0)));  // one 1 per row
  // alpha scales the second input's gradient: d/db (a + 2.5 b) = 2.5.
  auto a = torch::ones({2}, torch::requires_grad());
  auto b = torch::ones({2, 2}, torch::requires_grad());
  REQUIRE_NOTHROW(a.add(b, 2.5).sum().backward());
  CHECK_THAT(b.grad(), Equals(torch::full({2, 2}, 2.5)));
  CHECK_THAT(a.grad(), Equals(torch::full({2}, 2.0)));  // broadcast over 2 rows
}

TEST_CASE("mul: the gradient of a * b is b for a and a for b", "[points=8][mul]") {
  auto a = torch::tensor({1.0, 2.0, 3.0}, torch::requires_grad());
  auto b = torch::tensor({4.0, 5.0, 6.0}, torch::requires_grad());
  auto product = a * b;
  CHECK(product.grad_fn()->name() == "MulBackward0");
  REQUIRE_NOTHROW(product.sum().backward());
  CHECK_THAT(a.grad(), Equals(torch::tensor({4.0, 5.0, 6.0})));
  CHECK_THAT(b.grad(), Equals(torch::tensor({1.0, 2.0, 3.0})));
  // (2, 1) * (3): the (2, 1) input sums over the 3 columns, the (3) input over the 2 rows.
  auto column = torch::tensor({{1.0}, {2.0}}, torch::requires_grad());
  auto row = torch::tensor({10.0, 20.0, 30.0}, torch::requires_grad());
  REQUIRE_NOTHROW((column * row).sum().backward());
  CHECK_THAT(column.grad(), Equals(torch::tensor({{60.0}, {60.0}})));
  CHECK_THAT(row.grad(), Equals(torch::tensor({3.0, 3.0, 3.0})));
  // A number needs no gradient: x * 3 -> 3.
  auto x = torch::ones({2}, torch::requires_grad());
  REQUIRE_NOTHROW((x * 3).sum().backward());
  CHECK_THAT(x.grad(), Equals(torch::full({2}, 3.0)));
}

TEST_CASE("mm: dA = G B^T and dB = A^T G", "[points=8][mm]") {
  auto A = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::requires_grad());
  auto B = torch::tensor({{5.0, 6.0}, {7.0, 8.0}}, torch::requires_grad());
  auto C = A.mm(B);
  CHECK(C.grad_fn()->name() == "MmBackward0");
  REQUIRE_NOTHROW(C.sum().backward());  // G = ones
  CHECK_THAT(A.grad(), Equals(torch::tensor({{11.0, 15.0}, {11.0, 15.0}})));  // row sums of B
  CHECK_THAT(B.grad(), Equals(torch::tensor({{4.0, 4.0}, {6.0, 6.0}})));      // column sums of A
  // Non-square: (1, 2) @ (2, 1) -> a.grad = b^T, b.grad = a^T.
  auto a = torch::tensor({{1.0, 2.0}}, torch::requires_grad());
  auto b = torch::tensor({{3.0}, {4.0}}, torch::requires_grad());
  REQUIRE_NOTHROW(a.matmul(b).sum().backward());
  CHECK_THAT(a.grad(), Equals(torch::tensor({{3.0, 4.0}})));
  CHECK_THAT(b.grad(), Equals(torch::tensor({{1.0}, {2.0}})));
  // With a weighted upstream gradient the shapes must still be right: (3, 4) @ (4, 2).
  auto left = torch::ones({3, 4}, torch::requires_grad());
  auto right = torch::ones({4, 2}, torch::requires_grad());
  REQUIRE_NOTHROW(left.mm(right).backward(torch::tensor({{1.0, 0.0}, {0.0, 2.0}, {3.0, 0.0}})));
  CHECK_THAT(left.grad(), Equals(torch::tensor({{1.0, 1.0, 1.0, 1.0}, {2.0, 2.0, 2.0, 2.0}, {3.0, 3.0, 3.0, 3.0}})));
  CHECK_THAT(right.grad(), Equals(torch::tensor({{4.0, 2.0}, {4.0, 2.0}, {4.0, 2.0}, {4.0, 2.0}})));  // column sums of G
}

TEST_CASE("sum: every element that was summed gets the output's gradient", "[points=8][sum]") {
  auto x = torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, torch::requires_grad());
  auto total = x.sum();
  CHECK(total.grad_fn()->name() == "SumBackward0");
  REQUIRE_NOTHROW(total.backward(torch::tensor(2.0)));
  CHECK_THAT(x.grad(), Equals(torch::full({2, 3}, 2.0)));
  auto rows = torch::ones({2, 3}, torch::requires_grad());
  auto per_row = rows.sum({1});  // (2): the reduced dim is gone
  CHECK(per_row.grad_fn()->name() == "SumBackward1");
  REQUIRE_NOTHROW(per_row.backward(torch::tensor({1.0, 10.0})));
  CHECK_THAT(rows.grad(), Equals(torch::tensor({{1.0, 1.0, 1.0}, {10.0, 10.0, 10.0}})));
  auto kept = torch::ones({2, 3}, torch::requires_grad());
  REQUIRE_NOTHROW(kept.sum({0}, /*keepdim=*/true).backward(torch::tensor({{1.0, 2.0, 3.0}})));
  CHECK_THAT(kept.grad(), Equals(torch::tensor({{1.0, 2.0, 3.0}, {1.0, 2.0, 3.0}})));
}

TEST_CASE("each node keeps only what its rule needs: nothing for add and sum, both inputs for mul and mm",
          "[points=8][save]") {
  auto x = torch::ones({4, 3}, torch::requires_grad());
  auto bias = torch::ones({3}, torch::requires_grad());
  CHECK((x + bias).grad_fn()->saved_tensors().empty());  // alpha is an attribute; the values never appear
  CHECK(x.sum().grad_fn()->saved_tensors().empty());     // only x's shape
  CHECK(x.sum({1}).grad_fn()->saved_tensors().empty());
  const std::vector<Tensor> product = (x * bias).grad_fn()->saved_tensors();
  REQUIRE(product.size() == 2);
  CHECK(((product[0].is_alias_of(x) && product[1].is_alias_of(bias)) ||
         (product[0].is_alias_of(bias) && product[1].is_alias_of(x))));
  auto w = torch::ones({3, 2}, torch::requires_grad());
  const std::vector<Tensor> matmul = x.mm(w).grad_fn()->saved_tensors();
  REQUIRE(matmul.size() == 2);
  CHECK(((matmul[0].is_alias_of(x) && matmul[1].is_alias_of(w)) ||
         (matmul[0].is_alias_of(w) && matmul[1].is_alias_of(x))));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: A nonlinearity
// ---------------------------------------------------------------------------------------------

TEST_CASE("relu passes the gradient where the output is positive, and matches central differences",
          "[points=8][relu]") {
  auto x = torch::tensor({-1.5, -0.25, 0.75, 2.0}, torch::requires_grad());
  auto y = torch::relu(x);
  CHECK(y.grad_fn()->name() == "ReluBackward0");
  REQUIRE_NOTHROW(y.backward(torch::tensor({1.0, 2.0, 3.0, 4.0})));
  CHECK_THAT(x.grad(), Equals(torch::tensor({0.0, 0.0, 3.0, 4.0})));
  // It keeps its output, which the next layer's mm keeps anyway: no extra activation stays alive.
  auto pre_activation = x * 2;
  auto hidden = torch::relu(pre_activation);
  const std::vector<Tensor> saved = hidden.grad_fn()->saved_tensors();
  REQUIRE(saved.size() == 1);
  CHECK(saved[0].is_alias_of(hidden));
  // Central differences at points away from the kink.
  Tensor point = torch::tensor({-1.5, -0.25, 0.75, 2.0}, torch::kDouble);
  Tensor leaf = point.clone().requires_grad_();
  REQUIRE_NOTHROW((torch::relu(leaf) * torch::tensor({1.0, -2.0, 3.0, -4.0}, torch::kDouble)).sum().backward());
  const std::vector<double> numeric = numeric_gradient(
      [&] {
        const Tensor r = torch::relu(point) * torch::tensor({1.0, -2.0, 3.0, -4.0}, torch::kDouble);
        const std::vector<double> v = values(r);
        double sum = 0;
        for (double e : v) sum += e;
        return sum;
      },
      point);
  check_close(values(leaf.grad()), numeric, 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: Topological order
// ---------------------------------------------------------------------------------------------

TEST_CASE("topological_order lists each node once, before every node it sends gradients to",
          "[points=8][topological_order]") {
  auto a = torch::ones({1}, torch::requires_grad());
  auto b = torch::ones({1}, torch::requires_grad());
  auto product = a * b;         // MulBackward0 -> a, b
  auto loss = (product + a).sum();  // a is reached twice: through the product and directly
  const std::vector<torch::autograd::Node*> order = torch::autograd::topological_order({loss.grad_fn().get()});
  INFO("topological_order gave: " << names_of(order));
  // SumBackward0, AddBackward0, MulBackward0, AccumulateGrad(a), AccumulateGrad(b).
  REQUIRE(order.size() == 5);
  CHECK(order.front()->name() == "SumBackward0");
  for (size_t i = 0; i < order.size(); ++i) {
    for (const auto& edge : order[i]->next_edges()) {
      if (!edge.is_valid()) continue;
      INFO(order[i]->name() << " at position " << i << " sends gradients to " << edge.function->name()
                            << ", which must come after it");
      const auto position = std::find(order.begin(), order.end(), edge.function.get());
      REQUIRE(position != order.end());
      CHECK(position - order.begin() > static_cast<std::ptrdiff_t>(i));
    }
  }
  // Two roots share a subgraph: it is listed once.
  auto shared = a * 2;
  auto times_three = shared * 3, plus_one = shared + 1;  // alive while `two` points at their nodes
  const std::vector<torch::autograd::Node*> two =
      torch::autograd::topological_order({times_three.grad_fn().get(), plus_one.grad_fn().get()});
  INFO("with two roots topological_order gave: " << names_of(two));
  CHECK(two.size() == 4);  // MulBackward0, AddBackward0, MulBackward0 (shared), AccumulateGrad(a)
  // A 10,000-node chain on a 256 KiB call stack: an iterative search, never a recursion per node.
  auto deep = torch::ones({1}, torch::requires_grad());
  auto chain = deep;
  for (int i = 0; i < 10000; ++i) chain = chain + 1.0;
  size_t chain_order_size = 0;
  run_on_small_stack([&] { chain_order_size = torch::autograd::topological_order({chain.grad_fn().get()}).size(); });
  CHECK(chain_order_size == 10001);
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: The backward pass
// ---------------------------------------------------------------------------------------------

TEST_CASE("backward computes the worked examples: 3x + 1, (xy + 5)^2 and (2x).sum()",
          "[points=8][backward]") {
  auto x = torch::tensor({5.0}, torch::requires_grad());
  auto z = x * 3 + 1;
  REQUIRE_NOTHROW(z.backward());
  CHECK_THAT(x.grad(), Equals(torch::tensor({3.0})));
  // L = (xy + 5)^2 at x = 2, y = 3: L = 121, dL/dx = 2 (xy + 5) y = 66, dL/dy = 2 (xy + 5) x = 44.
  auto px = torch::tensor({2.0}, torch::requires_grad());
  auto py = torch::tensor({3.0}, torch::requires_grad());
  auto inner = px * py + 5;
  auto L = (inner * inner).sum();
  CHECK(values(L) == std::vector<double>{121.0});
  REQUIRE_NOTHROW(L.backward());
  CHECK_THAT(px.grad(), Equals(torch::tensor({66.0})));
  CHECK_THAT(py.grad(), Equals(torch::tensor({44.0})));
  auto twice = torch::tensor({1.0, 2.0}, torch::requires_grad());
  REQUIRE_NOTHROW((twice * 2).sum().backward());
  CHECK_THAT(twice.grad(), Equals(torch::tensor({2.0, 2.0})));
}

TEST_CASE("a tensor used twice receives the sum of its gradients", "[points=8][accumulate]") {
  auto x = torch::tensor({2.0}, torch::requires_grad());
  auto W = torch::tensor({3.0}, torch::requires_grad());
  auto h = x * W;
  REQUIRE_NOTHROW((h * h).sum().backward());  // (xW)^2: dW = 2 x^2 W = 24, dx = 2 x W^2 = 36
  CHECK_THAT(W.grad(), Equals(torch::tensor({24.0})));
  CHECK_THAT(x.grad(), Equals(torch::tensor({36.0})));
  auto z = torch::tensor({1.0}, torch::requires_grad());
  REQUIRE_NOTHROW((z + z).sum().backward());  // z + z = 2z
  CHECK_THAT(z.grad(), Equals(torch::tensor({2.0})));
  auto leaf = torch::tensor({1.0}, torch::requires_grad());
  auto doubled = leaf;
  for (int i = 0; i < 8; ++i) doubled = doubled + doubled;  // 2^8 leaf
  REQUIRE_NOTHROW(doubled.sum().backward());
  CHECK_THAT(leaf.grad(), Equals(torch::tensor({256.0})));
  // ((a @ b) + a) * b, summed: a path through the product and a direct path.
  auto a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::requires_grad());
  auto b = torch::tensor({{1.0, 0.0}, {0.0, 1.0}}, torch::requires_grad());
  REQUIRE_NOTHROW(((a.mm(b) + a) * b).sum().backward());
  // d/da = b b^T + b = 2 I; d/db = a^T b + (a b + a) = a^T + 2a for b = I.
  CHECK_THAT(a.grad(), Equals(torch::tensor({{2.0, 0.0}, {0.0, 2.0}})));
  CHECK_THAT(b.grad(), Equals(torch::tensor({{3.0, 7.0}, {8.0, 12.0}})));
  // AddBackward0 hands one gradient tensor to both of its inputs: adding another gradient into it
  // in place (slot.add_) would change what the other input receives. d/dx ((2x + 3x) + 2x) = 7.
  auto shared_x = torch::tensor({1.0}, torch::requires_grad());
  auto twice_x = shared_x * 2;
  auto thrice_x = shared_x * 3;
  REQUIRE_NOTHROW(((twice_x + thrice_x) + twice_x).sum().backward());
  CHECK_THAT(shared_x.grad(), Equals(torch::tensor({7.0})));
}

TEST_CASE("gradients accumulate across backward calls; retain_graph keeps the graph for a second pass",
          "[points=5][lifetime]") {
  auto x = torch::ones({2}, torch::requires_grad());
  REQUIRE_NOTHROW((x * 3).sum().backward());
  REQUIRE_NOTHROW((x * 5).sum().backward());
  CHECK_THAT(x.grad(), Equals(torch::full({2}, 8.0)));  // 3 + 5: .grad() adds up until zeroed
  auto leaf = torch::tensor({1.0}, torch::requires_grad());
  auto shared = leaf * 2;
  REQUIRE_NOTHROW((shared * 3).sum().backward({}, /*retain_graph=*/true));
  REQUIRE_NOTHROW((shared * 4).sum().backward());
  CHECK_THAT(leaf.grad(), Equals(torch::tensor({14.0})));  // 2 * 3 + 2 * 4
  auto once = (leaf.exp() * 1).sum();
  once.backward();
  CHECK_THROWS_WITH(once.backward(), Catch::Matchers::Contains("Trying to backward through the graph a second time"));
}

TEST_CASE("a 10,000-op chain backpropagates without recursion", "[points=5][backward]") {
  auto x = torch::ones({1}, torch::requires_grad());
  auto y = x;
  for (int i = 0; i < 10000; ++i) y = y * 1.0001;
  // On a 256 KiB call stack (the default 8 MiB would hide a recursion per node).
  run_on_small_stack([&] { y.sum().backward(); });
  CHECK(values(x.grad())[0] == Approx(std::pow(1.0001, 10000)).epsilon(1e-3));
}

TEST_CASE("an MLP's gradients match central differences", "[points=10][mlp]") {
  // Drawn inputs (secret under `tito grade`). random_tensor's values lie on a 1/8 grid; the offsets keep
  // every pre-activation off ReLU's kink at exactly 0, where central differences would not apply.
  auto drawn = [](Sizes sizes, double offset) { return random_tensor(sizes, -2, 2, torch::kDouble) + offset; };
  Tensor w1 = drawn({3, 4}, 0.0123), b1 = drawn({4}, 0.0059);
  Tensor w2 = drawn({4, 2}, -0.0071), b2 = drawn({2}, 0.0031);
  const Tensor input = drawn({5, 3}, 0.0371);
  const Tensor target = torch::tensor({random_int(0, 1), random_int(0, 1), random_int(0, 1), random_int(0, 1), random_int(0, 1)});
  auto loss_of = [&](const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& d) {
    return torch::cross_entropy_loss(torch::relu(input.mm(a) + b).mm(c) + d, target);
  };
  std::vector<Tensor> leaves = {w1.clone().requires_grad_(), b1.clone().requires_grad_(), w2.clone().requires_grad_(),
                                b2.clone().requires_grad_()};
  REQUIRE_NOTHROW(loss_of(leaves[0], leaves[1], leaves[2], leaves[3]).backward());
  std::vector<Tensor*> points = {&w1, &b1, &w2, &b2};
  for (size_t i = 0; i < points.size(); ++i) {
    INFO("parameter " << i);
    REQUIRE(leaves[i].grad().defined());
    CHECK(shape(leaves[i].grad()) == shape(*points[i]));
    const std::vector<double> numeric =
        numeric_gradient([&] { return values(loss_of(w1, b1, w2, b2))[0]; }, *points[i]);
    check_close(values(leaves[i].grad()), numeric, 1e-6);
  }
}
