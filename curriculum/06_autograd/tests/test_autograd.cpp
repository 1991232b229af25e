// Module 06 (Autograd): the graded tests. Expected gradients are worked out by hand (the lesson
// shows each one: d/dw (xw)^2 = 2x^2 w = 24, ...) or measured by central differences, never
// computed with the code under test. Each case is tagged with its points ([points=N], 100 in all);
// hints.json has a hint per case.
// Every case ends with inputs drawn by random_tensor / random_int, the expected gradients worked out
// here from the chain rule in plain loops over the drawn values: under `tito grade` they come from a
// secret seed, so only code that computes the gradients gets them right (`tito module test` draws
// with a fixed seed).
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

// A double tensor of `sizes` holding `data` row by row, built without any op under test.
Tensor double_tensor(const Sizes& sizes, const std::vector<double>& data) {
  Tensor result = torch::empty(sizes, torch::kDouble);
  std::copy(data.begin(), data.end(), result.data_ptr<double>());
  return result;
}

// A drawn double tensor (values k/8 in [-2, 2]), and the same as a leaf that requires grad.
Tensor drawn_values(const Sizes& sizes) { return random_tensor(sizes, -2, 2, torch::kDouble); }
Tensor drawn_leaf(const Sizes& sizes) { return drawn_values(sizes).requires_grad_(); }

// The gradients of A @ B, (n, k) @ (k, m), for an upstream gradient G, worked out in plain loops:
// dA[i][p] = sum_j G[i][j] B[p][j] and dB[p][j] = sum_i A[i][p] G[i][j].
struct MmGradients {
  Tensor a, b;
};
MmGradients mm_gradients(const Tensor& a, const Tensor& b, const Tensor& upstream) {
  const int64_t n = a.sizes()[0], k = a.sizes()[1], m = b.sizes()[1];
  const std::vector<double> g = values(upstream), va = values(a), vb = values(b);
  std::vector<double> a_gradient(n * k, 0.0), b_gradient(k * m, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t j = 0; j < m; ++j) {
        a_gradient[i * k + p] += g[i * m + j] * vb[p * m + j];
        b_gradient[p * m + j] += va[i * k + p] * g[i * m + j];
      }
    }
  }
  return {double_tensor({n, k}, a_gradient), double_tensor({k, m}, b_gradient)};
}

// A drawn multiplier k/4 with k in [-8, 8] but never 0, so it cannot hide a missing factor.
double drawn_factor() {
  const int64_t magnitude = random_int(1, 8);
  return static_cast<double>(random_int(0, 1) == 0 ? -magnitude : magnitude) / 4;
}

// The mean cross-entropy of relu(input @ w1 + b1) @ w2 + b2 against `labels`, worked out in plain
// loops over the tensors' values: what central differences of the MLP case measure.
double mlp_loss(const Tensor& input, const Tensor& w1, const Tensor& b1, const Tensor& w2, const Tensor& b2,
                const std::vector<int64_t>& labels) {
  const std::vector<double> x = values(input), first = values(w1), first_bias = values(b1), second = values(w2),
                            second_bias = values(b2);
  const int64_t batch = input.size(0), features = input.size(1), hidden = w1.size(1), classes = w2.size(1);
  double total = 0;
  for (int64_t n = 0; n < batch; ++n) {
    std::vector<double> logits(second_bias);
    for (int64_t h = 0; h < hidden; ++h) {
      double pre_activation = first_bias[h];
      for (int64_t k = 0; k < features; ++k) pre_activation += x[n * features + k] * first[k * hidden + h];
      const double activation = pre_activation > 0 ? pre_activation : 0;
      for (int64_t c = 0; c < classes; ++c) logits[c] += activation * second[h * classes + c];
    }
    double top = logits[0];
    for (double logit : logits) top = std::max(top, logit);
    double exponentials = 0;
    for (double logit : logits) exponentials += std::exp(logit - top);
    total += top + std::log(exponentials) - logits[labels[n]];
  }
  return total / static_cast<double>(batch);
}

// Checks that every node in `order` comes before every node it sends gradients to.
void check_before_receivers(const std::vector<torch::autograd::Node*>& order) {
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
  // A drawn (lead, rows, cols) gradient summed back to (rows, 1) and to (cols): the sums worked out here.
  const int64_t lead = random_int(1, 4), rows = random_int(1, 5), cols = random_int(2, 5);
  const Tensor drawn = drawn_values({lead, rows, cols});
  const std::vector<double> g = values(drawn);
  std::vector<double> per_row(rows, 0.0), per_col(cols, 0.0);
  for (int64_t l = 0; l < lead; ++l) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        per_row[r] += g[(l * rows + r) * cols + c];
        per_col[c] += g[(l * rows + r) * cols + c];
      }
    }
  }
  CHECK_THAT(sum_to(drawn, {rows, 1}), AllClose(double_tensor({rows, 1}, per_row)));
  CHECK_THAT(sum_to(drawn, {cols}), AllClose(double_tensor({cols}, per_col)));
  CHECK_THAT(sum_to(drawn, {lead, rows, cols}), Equals(drawn));
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
  // Drawn input, bias, alpha and upstream gradient G: d input = G, d bias = alpha * (column sums of G).
  const int64_t rows = random_int(1, 5), cols = random_int(1, 5);
  Tensor input = drawn_leaf({rows, cols}), drawn_bias = drawn_leaf({cols});
  const double alpha = drawn_factor();
  const Tensor upstream = drawn_values({rows, cols});
  REQUIRE_NOTHROW(input.add(drawn_bias, alpha).backward(upstream));
  const std::vector<double> g = values(upstream);
  std::vector<double> bias_gradient(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) bias_gradient[c] += alpha * g[r * cols + c];
  CHECK_THAT(input.grad(), Equals(upstream));
  CHECK_THAT(drawn_bias.grad(), AllClose(double_tensor({cols}, bias_gradient)));
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
  // Drawn (rows, 1) * (cols) with a drawn upstream gradient G:
  // d column[r] = sum_c G[r][c] row[c], d row[c] = sum_r G[r][c] column[r].
  const int64_t rows = random_int(1, 5), cols = random_int(1, 5);
  Tensor drawn_column = drawn_leaf({rows, 1}), drawn_row = drawn_leaf({cols});
  const Tensor upstream = drawn_values({rows, cols});
  REQUIRE_NOTHROW((drawn_column * drawn_row).backward(upstream));
  const std::vector<double> g = values(upstream), u = values(drawn_column), v = values(drawn_row);
  std::vector<double> column_gradient(rows, 0.0), row_gradient(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      column_gradient[r] += g[r * cols + c] * v[c];
      row_gradient[c] += g[r * cols + c] * u[r];
    }
  }
  CHECK_THAT(drawn_column.grad(), AllClose(double_tensor({rows, 1}, column_gradient)));
  CHECK_THAT(drawn_row.grad(), AllClose(double_tensor({cols}, row_gradient)));
  // A drawn number s: d (x * s) = s G.
  Tensor scaled = drawn_leaf({cols});
  const double factor = drawn_factor();
  const Tensor scaled_upstream = drawn_values({cols});
  REQUIRE_NOTHROW((scaled * factor).backward(scaled_upstream));
  std::vector<double> scaled_gradient = values(scaled_upstream);
  for (double& entry : scaled_gradient) entry *= factor;
  CHECK_THAT(scaled.grad(), AllClose(double_tensor({cols}, scaled_gradient)));
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
  // Drawn (n, k) @ (k, m) with a drawn upstream G: dA[i][p] = sum_j G[i][j] B[p][j], dB[p][j] = sum_i A[i][p] G[i][j].
  const int64_t n = random_int(1, 4), k = random_int(1, 4), m = random_int(1, 4);
  Tensor drawn_a = drawn_leaf({n, k}), drawn_b = drawn_leaf({k, m});
  const Tensor upstream = drawn_values({n, m});
  REQUIRE_NOTHROW(drawn_a.mm(drawn_b).backward(upstream));
  const MmGradients expected = mm_gradients(drawn_a, drawn_b, upstream);
  CHECK_THAT(drawn_a.grad(), AllClose(expected.a));
  CHECK_THAT(drawn_b.grad(), AllClose(expected.b));
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
  // Drawn (height, width) inputs and drawn upstream gradients: every summed element gets its sum's gradient.
  const int64_t height = random_int(1, 5), width = random_int(1, 5);
  Tensor everything = drawn_leaf({height, width});
  const double total_gradient = drawn_factor();
  REQUIRE_NOTHROW(everything.sum().backward(torch::full(Sizes{}, total_gradient, torch::kDouble)));
  CHECK_THAT(everything.grad(), Equals(double_tensor({height, width}, std::vector<double>(height * width, total_gradient))));
  Tensor by_row = drawn_leaf({height, width});
  const Tensor row_upstream = drawn_values({height});
  REQUIRE_NOTHROW(by_row.sum({1}).backward(row_upstream));
  const std::vector<double> gr = values(row_upstream);
  std::vector<double> by_row_gradient;
  for (int64_t r = 0; r < height; ++r)
    for (int64_t c = 0; c < width; ++c) by_row_gradient.push_back(gr[r]);
  CHECK_THAT(by_row.grad(), Equals(double_tensor({height, width}, by_row_gradient)));
  Tensor by_column = drawn_leaf({height, width});
  const Tensor column_upstream = drawn_values({1, width});
  REQUIRE_NOTHROW(by_column.sum({0}, /*keepdim=*/true).backward(column_upstream));
  const std::vector<double> gc = values(column_upstream);
  std::vector<double> by_column_gradient;
  for (int64_t r = 0; r < height; ++r)
    for (int64_t c = 0; c < width; ++c) by_column_gradient.push_back(gc[c]);
  CHECK_THAT(by_column.grad(), Equals(double_tensor({height, width}, by_column_gradient)));
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
  // Drawn inputs: what mul and mm kept is enough for their gradients, worked out here.
  const int64_t rows = random_int(1, 4), cols = random_int(1, 4), outputs = random_int(1, 4);
  Tensor left = drawn_leaf({rows, cols}), scale = drawn_leaf({cols});
  CHECK((left + scale).grad_fn()->saved_tensors().empty());
  CHECK(left.sum().grad_fn()->saved_tensors().empty());
  const Tensor product_upstream = drawn_values({rows, cols});
  REQUIRE_NOTHROW((left * scale).backward(product_upstream));
  const std::vector<double> g = values(product_upstream), vl = values(left), vs = values(scale);
  std::vector<double> left_gradient(rows * cols), scale_gradient(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      left_gradient[r * cols + c] = g[r * cols + c] * vs[c];
      scale_gradient[c] += g[r * cols + c] * vl[r * cols + c];
    }
  }
  CHECK_THAT(left.grad(), AllClose(double_tensor({rows, cols}, left_gradient)));
  CHECK_THAT(scale.grad(), AllClose(double_tensor({cols}, scale_gradient)));
  Tensor features = drawn_leaf({rows, cols}), weights = drawn_leaf({cols, outputs});
  const Tensor mm_upstream = drawn_values({rows, outputs});
  REQUIRE_NOTHROW(features.mm(weights).backward(mm_upstream));
  const MmGradients expected_mm = mm_gradients(features, weights, mm_upstream);
  CHECK_THAT(features.grad(), AllClose(expected_mm.a));
  CHECK_THAT(weights.grad(), AllClose(expected_mm.b));
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
  // Drawn points k/8 + 1/16 (never the kink at 0) and a drawn upstream G: d x = G where x > 0, else 0.
  const int64_t count = random_int(1, 8);
  Tensor drawn_point = drawn_values({count});
  for (int64_t i = 0; i < count; ++i) drawn_point.data_ptr<double>()[i] += 1.0 / 16;
  drawn_point.requires_grad_();
  const Tensor upstream = drawn_values({count});
  auto drawn_output = torch::relu(drawn_point);
  const std::vector<Tensor> drawn_saved = drawn_output.grad_fn()->saved_tensors();
  REQUIRE(drawn_saved.size() == 1);
  CHECK(drawn_saved[0].is_alias_of(drawn_output));
  REQUIRE_NOTHROW(drawn_output.backward(upstream));
  const std::vector<double> at = values(drawn_point), g = values(upstream);
  std::vector<double> expected(count);
  for (int64_t i = 0; i < count; ++i) expected[i] = at[i] > 0 ? g[i] : 0.0;
  CHECK_THAT(drawn_point.grad(), Equals(double_tensor({count}, expected)));
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
  check_before_receivers(order);
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
  // A drawn number of uses of one leaf: x * x * ... * x, summed. Every MulBackward0 also reaches the
  // leaf's AccumulateGrad directly; it is listed once: SumBackward0, the products, AccumulateGrad.
  const int64_t uses = random_int(1, 20);
  auto base = torch::ones({1}, torch::requires_grad());
  auto power = base;
  for (int64_t i = 0; i < uses; ++i) power = power * base;
  auto power_sum = power.sum();
  const std::vector<torch::autograd::Node*> power_order = torch::autograd::topological_order({power_sum.grad_fn().get()});
  INFO("for " << uses << " products topological_order gave: " << names_of(power_order));
  REQUIRE(power_order.size() == static_cast<size_t>(uses + 2));
  CHECK(power_order.front() == power_sum.grad_fn().get());
  check_before_receivers(power_order);
  // A drawn chain length: one node per add and the leaf's AccumulateGrad.
  const int64_t length = random_int(1, 50);
  auto drawn_chain = deep;
  for (int64_t i = 0; i < length; ++i) drawn_chain = drawn_chain + 1.0;
  CHECK(torch::autograd::topological_order({drawn_chain.grad_fn().get()}).size() == static_cast<size_t>(length + 1));
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
  // The same worked examples at drawn points: d/dx (s x + 1) = s; for L = (xy + c)^2,
  // dL/dx = 2 (xy + c) y and dL/dy = 2 (xy + c) x.
  Tensor drawn_x = drawn_leaf({1});
  const double slope = drawn_factor();
  REQUIRE_NOTHROW((drawn_x * slope + 1).backward());
  CHECK_THAT(drawn_x.grad(), Equals(double_tensor({1}, {slope})));
  Tensor qx = drawn_leaf({1}), qy = drawn_leaf({1});
  const double shift = drawn_factor();
  auto drawn_inner = qx * qy + shift;
  auto drawn_L = (drawn_inner * drawn_inner).sum();
  const double x_value = values(qx)[0], y_value = values(qy)[0], inner_value = x_value * y_value + shift;
  CHECK(values(drawn_L)[0] == Approx(inner_value * inner_value).margin(1e-12));
  REQUIRE_NOTHROW(drawn_L.backward());
  CHECK_THAT(qx.grad(), AllClose(double_tensor({1}, {2 * inner_value * y_value})));
  CHECK_THAT(qy.grad(), AllClose(double_tensor({1}, {2 * inner_value * x_value})));
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
  // Drawn x and W: (x W)^2 gives dW = 2 x^2 W and dx = 2 x W^2, element by element.
  const int64_t count = random_int(1, 6);
  Tensor drawn_x = drawn_leaf({count}), drawn_w = drawn_leaf({count});
  auto drawn_h = drawn_x * drawn_w;
  REQUIRE_NOTHROW((drawn_h * drawn_h).sum().backward());
  const std::vector<double> vx = values(drawn_x), vw = values(drawn_w);
  std::vector<double> w_gradient(count), x_gradient(count);
  for (int64_t i = 0; i < count; ++i) {
    w_gradient[i] = 2 * vx[i] * vx[i] * vw[i];
    x_gradient[i] = 2 * vx[i] * vw[i] * vw[i];
  }
  CHECK_THAT(drawn_w.grad(), AllClose(double_tensor({count}, w_gradient)));
  CHECK_THAT(drawn_x.grad(), AllClose(double_tensor({count}, x_gradient)));
  // A drawn number of doublings: 2^d leaf.
  const int64_t doublings = random_int(1, 12);
  auto drawn_leaf_value = torch::tensor({1.0}, torch::requires_grad());
  auto drawn_doubled = drawn_leaf_value;
  for (int64_t i = 0; i < doublings; ++i) drawn_doubled = drawn_doubled + drawn_doubled;
  REQUIRE_NOTHROW(drawn_doubled.sum().backward());
  CHECK(values(drawn_leaf_value.grad())[0] == Approx(std::ldexp(1.0, static_cast<int>(doublings))));
  // Drawn n x n matrices in ((a @ b) + a) * b, summed: d/da = b b^T + b, d/db = a^T b + (a b + a).
  const int64_t n = random_int(1, 3);
  Tensor drawn_a = drawn_leaf({n, n}), drawn_b = drawn_leaf({n, n});
  REQUIRE_NOTHROW(((drawn_a.mm(drawn_b) + drawn_a) * drawn_b).sum().backward());
  const std::vector<double> va = values(drawn_a), vb = values(drawn_b);
  std::vector<double> a_gradient(n * n), b_gradient(n * n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double b_bt = 0, at_b = 0, a_b = 0;
      for (int64_t k = 0; k < n; ++k) {
        b_bt += vb[i * n + k] * vb[j * n + k];
        at_b += va[k * n + i] * vb[k * n + j];
        a_b += va[i * n + k] * vb[k * n + j];
      }
      a_gradient[i * n + j] = b_bt + vb[i * n + j];
      b_gradient[i * n + j] = at_b + a_b + va[i * n + j];
    }
  }
  CHECK_THAT(drawn_a.grad(), AllClose(double_tensor({n, n}, a_gradient)));
  CHECK_THAT(drawn_b.grad(), AllClose(double_tensor({n, n}, b_gradient)));
  // Drawn multipliers p and q: d/dx ((p x + q x) + p x) = 2p + q, with AddBackward0's gradient shared.
  const double p = drawn_factor(), q = drawn_factor();
  Tensor drawn_shared = drawn_leaf({count});
  auto p_x = drawn_shared * p;
  auto q_x = drawn_shared * q;
  REQUIRE_NOTHROW(((p_x + q_x) + p_x).sum().backward());
  CHECK_THAT(drawn_shared.grad(), AllClose(double_tensor({count}, std::vector<double>(count, 2 * p + q))));
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
  // Drawn multipliers: two backward calls through x * p and x * q leave p + q; a retained graph
  // through (m x) * p and then (m x) * q leaves m p + m q.
  const int64_t count = random_int(1, 6);
  const double p = drawn_factor(), q = drawn_factor(), m = drawn_factor();
  Tensor drawn_x = drawn_leaf({count});
  REQUIRE_NOTHROW((drawn_x * p).sum().backward());
  REQUIRE_NOTHROW((drawn_x * q).sum().backward());
  CHECK_THAT(drawn_x.grad(), AllClose(double_tensor({count}, std::vector<double>(count, p + q))));
  Tensor drawn_leaf_value = drawn_leaf({count});
  auto drawn_shared = drawn_leaf_value * m;
  REQUIRE_NOTHROW((drawn_shared * p).sum().backward({}, /*retain_graph=*/true));
  REQUIRE_NOTHROW((drawn_shared * q).sum().backward());
  CHECK_THAT(drawn_leaf_value.grad(), AllClose(double_tensor({count}, std::vector<double>(count, m * p + m * q))));
}

TEST_CASE("a 10,000-op chain backpropagates without recursion", "[points=5][backward]") {
  auto x = torch::ones({1}, torch::requires_grad());
  auto y = x;
  for (int i = 0; i < 10000; ++i) y = y * 1.0001;
  // On a 256 KiB call stack (the default 8 MiB would hide a recursion per node).
  run_on_small_stack([&] { y.sum().backward(); });
  CHECK(values(x.grad())[0] == Approx(std::pow(1.0001, 10000)).epsilon(1e-3));
  // A drawn factor 1 + k / 100000 in double: d/dx (x f^10000) = f^10000, between e^0.1 and e^1.
  const double factor = 1 + static_cast<double>(random_int(1, 10)) / 100000;
  auto drawn_x = torch::ones({1}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto drawn_y = drawn_x;
  for (int i = 0; i < 10000; ++i) drawn_y = drawn_y * factor;
  run_on_small_stack([&] { drawn_y.sum().backward(); });
  CHECK(values(drawn_x.grad())[0] == Approx(std::pow(factor, 10000)).epsilon(1e-9));
}

TEST_CASE("an MLP's gradients match central differences", "[points=10][mlp]") {
  // Drawn inputs (secret under `tito grade`). random_tensor's values lie on a 1/8 grid, so input @ w1
  // is a multiple of 1/64; b1 is shifted by 1/128, which keeps every pre-activation at least 1/128
  // away from ReLU's kink at 0, where central differences would not apply.
  auto drawn = [](Sizes sizes) { return random_tensor(sizes, -2, 2, torch::kDouble); };
  Tensor w1 = drawn({3, 4}), b1 = drawn({4});
  for (int64_t i = 0; i < b1.numel(); ++i) b1.data_ptr<double>()[i] += 1.0 / 128;
  Tensor w2 = drawn({4, 2}), b2 = drawn({2});
  const Tensor input = drawn({5, 3});
  const Tensor target = torch::tensor({random_int(0, 1), random_int(0, 1), random_int(0, 1), random_int(0, 1), random_int(0, 1)});
  const std::vector<int64_t> labels(target.data_ptr<int64_t>(), target.data_ptr<int64_t>() + target.numel());
  auto loss_of = [&](const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& d) {
    return torch::cross_entropy_loss(torch::relu(input.mm(a) + b).mm(c) + d, target);
  };
  std::vector<Tensor> leaves = {w1.clone().requires_grad_(), b1.clone().requires_grad_(), w2.clone().requires_grad_(),
                                b2.clone().requires_grad_()};
  Tensor loss = loss_of(leaves[0], leaves[1], leaves[2], leaves[3]);
  // The forward value, worked out here in plain loops.
  CHECK(values(loss)[0] == Approx(mlp_loss(input, w1, b1, w2, b2, labels)).margin(1e-9));
  REQUIRE_NOTHROW(loss.backward());
  std::vector<Tensor*> points = {&w1, &b1, &w2, &b2};
  for (size_t i = 0; i < points.size(); ++i) {
    INFO("parameter " << i);
    REQUIRE(leaves[i].grad().defined());
    CHECK(shape(leaves[i].grad()) == shape(*points[i]));
    // Central differences of the loss worked out in plain loops, never with the ops under test.
    const std::vector<double> numeric =
        numeric_gradient([&] { return mlp_loss(input, w1, b1, w2, b2, labels); }, *points[i]);
    check_close(values(leaves[i].grad()), numeric, 1e-6);
    CHECK_THAT(leaves[i].grad(), AllClose(double_tensor(shape(*points[i]), numeric), 1e-5, 1e-7));
  }
}
