// Module 03 (Layers): the graded tests. Expected values are worked out by hand (the lesson shows the
// arithmetic) from weights the test copies into the parameters, or summed value by value here from
// drawn ones (random_tensor: secret under `tito grade`), never computed with the code under test.
// Each case is tagged with its points ([points=N], 100 in all); hints.json has a hint per case.
// Random results (initialisation, dropout masks) are checked against bounds that hold with
// overwhelming probability: four standard deviations or more. Every case ends with sizes, values or
// probabilities drawn by random_int / random_tensor, so under `tito grade` only code that computes the
// answer gets it right; what a case records from random results is what every correct implementation
// gives (shapes, the survivors of a dropout mask), never the mask or the draws themselves.
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
using tinytorch::testing::map_values;
using tinytorch::testing::printed;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Catch::Matchers::Contains;
using Sizes = std::vector<int64_t>;

namespace {

// The values of a float tensor, read straight from memory (no tensor op involved).
std::vector<double> values_of(const torch::Tensor& tensor) {
  torch::Tensor dense = tensor.contiguous();
  const float* data = dense.data_ptr<float>();
  return std::vector<double>(data, data + dense.numel());
}

double mean_of(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double std_of(const std::vector<double>& values) {
  const double mean = mean_of(values);
  double sum = 0;
  for (double v : values) sum += (v - mean) * (v - mean);
  return std::sqrt(sum / static_cast<double>(values.size()));
}

int64_t count_zeros(const std::vector<double>& values) {
  return std::count(values.begin(), values.end(), 0.0);
}

double largest_magnitude(const std::vector<double>& values) {
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::abs(v));
  return largest;
}

// The same values in a new float tensor (for an expected result that is the input itself).
torch::Tensor same_values(const torch::Tensor& x) {
  return map_values(x, [](double v) { return v; });
}

// x W^T + b worked out value by value (in double) from the values of x, read as rows of in_features
// (weight's second size) values each; `sizes` are the result's. bias may be undefined (no bias).
torch::Tensor linear_by_hand(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                             const Sizes& sizes) {
  const int64_t out = weight.size(0), in = weight.size(1);
  const std::vector<double> xv = values_of(x), wv = values_of(weight);
  const std::vector<double> bv = bias.defined() ? values_of(bias) : std::vector<double>(out, 0.0);
  torch::Tensor result = torch::empty(sizes);
  float* data = result.data_ptr<float>();
  const auto rows = static_cast<int64_t>(xv.size()) / in;
  for (int64_t n = 0; n < rows; ++n)
    for (int64_t o = 0; o < out; ++o) {
      double sum = bv[o];
      for (int64_t i = 0; i < in; ++i) sum += xv[n * in + i] * wv[o * in + i];
      data[n * out + o] = static_cast<float>(sum);
    }
  return result;
}

// What Linear's forward must give for x of shape (*, in): shape (*, out), worked out by hand.
torch::Tensor expected_linear(const torch::Tensor& x, const torch::Tensor& weight,
                              const torch::Tensor& bias = torch::Tensor()) {
  Sizes sizes = x.sizes().vec();
  sizes.back() = weight.size(0);
  return linear_by_hand(x, weight, bias, sizes);
}

// Overwrites a parameter's values in place (the module keeps the same tensor).
void set_values(torch::Tensor parameter, const torch::Tensor& values) {
  torch::NoGradGuard no_grad;
  parameter.copy_(values);
}

// The 2 -> 3 layer most forward cases use:
//   W = [[1, 2], [3, 4], [5, 6]]  (out=3, in=2),  b = [0.5, -1, 2].
torch::nn::Linear known_linear() {
  torch::nn::Linear fc(2, 3);
  set_values(fc->weight, torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}));
  set_values(fc->bias, torch::tensor({0.5, -1.0, 2.0}));
  return fc;
}

// A Linear(in, out) whose weight and bias are drawn (secret under `tito grade`), not initialised.
torch::nn::Linear drawn_linear(int64_t in, int64_t out) {
  torch::nn::Linear fc(in, out);
  set_values(fc->weight, random_tensor({out, in}));
  set_values(fc->bias, random_tensor({out}));
  return fc;
}

struct TwoLayerImpl : torch::nn::Module {
  TwoLayerImpl()
      : fc1(register_module("fc1", torch::nn::Linear(3, 4))), fc2(register_module("fc2", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(fc1(x)); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(TwoLayer);

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 3: Linear initialisation (linear.cpp, reset_parameters)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Linear registers weight (out, in) and bias (out) as named parameters", "[points=5][linear]") {
  torch::nn::Linear fc(3, 2);
  auto named = fc->named_parameters();
  REQUIRE(named.size() == 2);
  CHECK(named.keys() == std::vector<std::string>{"weight", "bias"});
  CHECK(fc->weight.sizes() == Sizes{2, 3});
  CHECK(fc->bias.sizes() == Sizes{2});
  CHECK(fc->weight.dtype() == torch::kFloat);
  // The registered tensors are the members themselves: one storage, two handles.
  CHECK(named["weight"].data_ptr() == fc->weight.data_ptr());
  CHECK(named["bias"].data_ptr() == fc->bias.data_ptr());
  // And they were initialised: U(-1/sqrt(3), 1/sqrt(3)) never produces garbage or NaN.
  for (double v : values_of(fc->weight)) CHECK(std::abs(v) <= 1.0 / std::sqrt(3.0));

  // Drawn sizes (secret under `tito grade`): the shapes follow the options, the values the bound.
  const int64_t in = random_int(1, 9), out = random_int(1, 9);
  torch::nn::Linear drawn(in, out);
  CHECK(drawn->weight.sizes() == Sizes{out, in});
  CHECK(drawn->bias.sizes() == Sizes{out});
  CHECK(drawn->named_parameters()["weight"].data_ptr() == drawn->weight.data_ptr());
  const double bound = 1.0 / std::sqrt(static_cast<double>(in));
  CHECK(largest_magnitude(values_of(drawn->weight)) <= bound + 1e-7);
  CHECK(largest_magnitude(values_of(drawn->bias)) <= bound + 1e-7);
}

TEST_CASE("Linear initialisation draws from U(-1/sqrt(in), 1/sqrt(in))", "[points=7][linear][init]") {
  torch::manual_seed(3);
  torch::nn::Linear fc(100, 50);  // bound = 1/sqrt(100) = 0.1
  const std::vector<double> w = values_of(fc->weight);
  const std::vector<double> b = values_of(fc->bias);
  double largest = 0;
  for (double v : w) largest = std::max(largest, std::abs(v));
  CHECK(largest <= 0.1 + 1e-7);
  CHECK(largest > 0.095);                              // 5000 draws reach the edge of the interval
  CHECK(std::abs(mean_of(w)) < 0.004);                 // standard error 0.0577/sqrt(5000) = 0.0008
  CHECK(std_of(w) == Approx(0.1 / std::sqrt(3.0)).epsilon(0.05));  // U(-a, a) has std a/sqrt(3)
  double largest_bias = 0;
  for (double v : b) largest_bias = std::max(largest_bias, std::abs(v));
  CHECK(largest_bias <= 0.1 + 1e-7);
  CHECK(largest_bias > 0.05);                          // the bias is drawn too, not left at zero

  // Drawn sizes and generator seed (secret under `tito grade`): the bound and the spread follow
  // in_features. At least 2000 weights: the sample std is within 1% of a/sqrt(3) (one standard error).
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1 << 30)));
  const int64_t in = random_int(50, 300), out = random_int(40, 80);
  torch::nn::Linear drawn(in, out);
  const double bound = 1.0 / std::sqrt(static_cast<double>(in));
  const std::vector<double> drawn_w = values_of(drawn->weight);
  const std::vector<double> drawn_b = values_of(drawn->bias);
  CHECK(largest_magnitude(drawn_w) <= bound + 1e-7);
  CHECK(largest_magnitude(drawn_w) > 0.95 * bound);   // P(all 2000+ below 0.95 a) = 0.95^2000
  CHECK(std::abs(mean_of(drawn_w)) < 5 * bound / std::sqrt(3.0 * static_cast<double>(drawn_w.size())));
  CHECK(std_of(drawn_w) == Approx(bound / std::sqrt(3.0)).epsilon(0.05));
  CHECK(largest_magnitude(drawn_b) <= bound + 1e-7);
  CHECK(largest_magnitude(drawn_b) > 0.5 * bound);    // P(all 40+ below a / 2) = 2^-40
}

TEST_CASE("Linear initialisation is reproducible and fills the parameters in place", "[points=4][linear][init]") {
  torch::manual_seed(42);
  torch::nn::Linear a(5, 4);
  torch::manual_seed(42);
  torch::nn::Linear b(5, 4);
  CHECK_THAT(a->weight, Equals(b->weight));
  CHECK_THAT(a->bias, Equals(b->bias));

  // reset_parameters() redraws into the same storage: the registered parameter sees the new values.
  const void* storage = a->weight.data_ptr();
  torch::Tensor before = a->weight.clone();
  a->reset_parameters();
  CHECK(a->weight.data_ptr() == storage);
  CHECK(a->named_parameters()["weight"].data_ptr() == storage);
  CHECK_FALSE(a->weight.equal(before));

  // Drawn sizes and seed (secret under `tito grade`): the same seed gives the same parameters again.
  const auto seed = static_cast<uint64_t>(random_int(0, 1 << 30));
  const int64_t in = random_int(2, 9), out = random_int(2, 9);
  torch::manual_seed(seed);
  torch::nn::Linear c(in, out);
  torch::manual_seed(seed);
  torch::nn::Linear d(in, out);
  CHECK(c->weight.sizes() == Sizes{out, in});
  CHECK((values_of(c->weight) == values_of(d->weight)));  // compared here, so no draw is recorded
  CHECK((values_of(c->bias) == values_of(d->bias)));
  const std::vector<double> first_draw = values_of(c->bias);
  c->reset_parameters();
  CHECK(c->bias.sizes() == Sizes{out});
  CHECK((values_of(c->bias) != first_draw));  // a fresh draw: P(same) = 0 for continuous values
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: Linear forward (linear.cpp, forward)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Linear forward computes x W^T + b", "[points=10][linear][forward]") {
  auto fc = known_linear();
  // Row [1, 1]: [1+2+0.5, 3+4-1, 5+6+2] = [3.5, 6, 13].  Row [2, -1]: [2-2+0.5, 6-4-1, 10-6+2] = [0.5, 1, 6].
  auto y = fc(torch::tensor({{1.0, 1.0}, {2.0, -1.0}}));
  CHECK_THAT(y, Equals(torch::tensor({{3.5, 6.0, 13.0}, {0.5, 1.0, 6.0}})));
  // The call operator and forward() are the same thing.
  CHECK_THAT(fc->forward(torch::tensor({{1.0, 1.0}})), Equals(torch::tensor({{3.5, 6.0, 13.0}})));

  // Drawn sizes and values (secret under `tito grade`), the expected result summed here value by value.
  const int64_t batch = random_int(1, 5), in = random_int(1, 7), out = random_int(1, 6);
  torch::nn::Linear drawn(in, out);
  set_values(drawn->weight, random_tensor({out, in}));
  set_values(drawn->bias, random_tensor({out}));
  const torch::Tensor x = random_tensor({batch, in});
  const std::vector<double> xv = values_of(x), wv = values_of(drawn->weight), bv = values_of(drawn->bias);
  std::vector<float> expected;
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < out; ++o) {
      double sum = bv[o];
      for (int64_t i = 0; i < in; ++i) sum += xv[n * in + i] * wv[o * in + i];
      expected.push_back(static_cast<float>(sum));
    }
  CHECK_THAT(drawn(x), AllClose(torch::tensor(expected).reshape({batch, out}), 1e-5, 1e-5));
}

TEST_CASE("Linear forward works on a single vector and on a 3-d batch", "[points=6][linear][forward]") {
  auto fc = known_linear();
  CHECK_THAT(fc(torch::tensor({1.0, 1.0})), Equals(torch::tensor({3.5, 6.0, 13.0})));
  // (2, 2, 2) -> (2, 2, 3): the last dimension is mapped, the leading ones are kept.
  auto x = torch::tensor({{{1.0, 1.0}, {2.0, -1.0}}, {{0.0, 0.0}, {1.0, 0.0}}});
  auto y = fc(x);
  CHECK(y.sizes() == Sizes{2, 2, 3});
  CHECK_THAT(y, Equals(torch::tensor({{{3.5, 6.0, 13.0}, {0.5, 1.0, 6.0}}, {{0.5, -1.0, 2.0}, {1.5, 2.0, 7.0}}})));

  // Drawn weights and inputs (secret under `tito grade`), the expected results summed here.
  const int64_t in = random_int(1, 6), out = random_int(1, 6);
  auto drawn = drawn_linear(in, out);
  const torch::Tensor vector = random_tensor({in});
  CHECK_THAT(drawn(vector), AllClose(expected_linear(vector, drawn->weight, drawn->bias), 1e-5, 1e-5));
  const torch::Tensor batch = random_tensor({random_int(1, 3), random_int(1, 4), in});
  auto z = drawn(batch);
  CHECK(z.sizes() == Sizes{batch.size(0), batch.size(1), out});
  CHECK_THAT(z, AllClose(expected_linear(batch, drawn->weight, drawn->bias), 1e-5, 1e-5));
}

TEST_CASE("Linear without bias has one parameter and computes x W^T", "[points=4][linear][forward]") {
  torch::nn::Linear fc(torch::nn::LinearOptions(2, 3).bias(false));
  CHECK_FALSE(fc->bias.defined());
  REQUIRE(fc->parameters().size() == 1);
  CHECK(fc->named_parameters().keys() == std::vector<std::string>{"weight"});
  set_values(fc->weight, torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}));
  CHECK_THAT(fc(torch::tensor({{1.0, 1.0}})), Equals(torch::tensor({{3.0, 7.0, 11.0}})));

  // Drawn sizes, weight and input (secret under `tito grade`): x W^T summed here, no bias anywhere.
  const int64_t in = random_int(1, 6), out = random_int(1, 6);
  torch::nn::Linear drawn(torch::nn::LinearOptions(in, out).bias(false));
  CHECK(drawn->weight.sizes() == Sizes{out, in});
  set_values(drawn->weight, random_tensor({out, in}));
  const torch::Tensor x = random_tensor({random_int(1, 4), in});
  CHECK_THAT(drawn(x), AllClose(expected_linear(x, drawn->weight), 1e-5, 1e-5));
}

TEST_CASE("Linear forward with an empty batch gives an empty output", "[points=3][linear][forward]") {
  torch::nn::Linear fc(10, 5);
  auto y = fc(torch::zeros({0, 10}));
  CHECK(y.sizes() == Sizes{0, 5});
  // One sample still works, and with all-zero input the output is exactly the bias (drawn, secret under
  // `tito grade`, so the result does not hang on how earlier cases left the generator).
  set_values(fc->bias, random_tensor({5}));
  CHECK_THAT(fc(torch::zeros({1, 10})), Equals(fc->bias.reshape({1, 5})));

  // Drawn sizes (secret under `tito grade`): (0, in) gives (0, out); a drawn sample gives x W^T + b.
  const int64_t in = random_int(1, 9), out = random_int(1, 9);
  auto drawn = drawn_linear(in, out);
  CHECK(drawn(torch::zeros({0, in})).sizes() == Sizes{0, out});
  const torch::Tensor x = random_tensor({1, in});
  CHECK_THAT(drawn(x), AllClose(expected_linear(x, drawn->weight, drawn->bias), 1e-5, 1e-5));
}

TEST_CASE("Linear forward rejects an input of the wrong width", "[points=4][linear][forward]") {
  torch::nn::Linear fc(10, 5);
  auto ok = fc(torch::ones({4, 10}));
  CHECK(ok.sizes() == Sizes{4, 5});
  // A (4, 7) input cannot meet a (10, 5) transposed weight.
  CHECK_THROWS_WITH(fc(torch::ones({4, 7})), Contains("mat1 and mat2 shapes cannot be multiplied (4x7 and 10x5)"));

  // Drawn sizes (secret under `tito grade`): the right width computes x W^T + b, a wider one is refused.
  const int64_t in = random_int(1, 9), out = random_int(1, 9), rows = random_int(1, 5);
  const int64_t wrong = in + random_int(1, 4);
  auto drawn = drawn_linear(in, out);
  const torch::Tensor x = random_tensor({rows, in});
  CHECK_THAT(drawn(x), AllClose(expected_linear(x, drawn->weight, drawn->bias), 1e-5, 1e-5));
  const std::string message = "mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" +
                              std::to_string(wrong) + " and " + std::to_string(in) + "x" + std::to_string(out) + ")";
  CHECK_THROWS_WITH(drawn(torch::ones({rows, wrong})), Contains(message));
}

TEST_CASE("in-place updates through parameters() change what forward computes", "[points=6][linear][parameters]") {
  torch::nn::Linear fc(2, 1);
  set_values(fc->weight, torch::tensor({{0.5, -0.5}}));
  set_values(fc->bias, torch::tensor({0.0}));
  auto x = torch::tensor({{2.0, 1.0}});
  CHECK_THAT(fc(x), Equals(torch::tensor({{0.5}})));  // 0.5*2 - 0.5*1 + 0
  // A perceptron-style update: every parameter += 1, through the list parameters() returns.
  {
    torch::NoGradGuard no_grad;  // parameters require grad (module 06): update them outside the graph, as in LibTorch
    for (auto& p : fc->parameters()) p.add_(torch::ones_like(p));
  }
  CHECK_THAT(fc->weight, Equals(torch::tensor({{1.5, 0.5}})));
  CHECK_THAT(fc(x), Equals(torch::tensor({{4.5}})));  // 1.5*2 + 0.5*1 + 1

  // Drawn parameters and input (secret under `tito grade`): after the same update forward uses W + 1, b + 1.
  const int64_t in = random_int(1, 6), out = random_int(1, 4);
  auto drawn = drawn_linear(in, out);
  const torch::Tensor weight_plus_one = map_values(drawn->weight, [](double v) { return v + 1; });
  const torch::Tensor bias_plus_one = map_values(drawn->bias, [](double v) { return v + 1; });
  {
    torch::NoGradGuard no_grad;
    for (auto& p : drawn->parameters()) p.add_(torch::ones_like(p));
  }
  CHECK_THAT(drawn->weight, Equals(weight_plus_one));
  const torch::Tensor drawn_x = random_tensor({random_int(1, 3), in});
  CHECK_THAT(drawn(drawn_x), AllClose(expected_linear(drawn_x, weight_plus_one, bias_plus_one), 1e-5, 1e-5));
}

TEST_CASE("a 784-256-10 MLP has 203,530 parameters taking 814,120 bytes", "[points=8][linear][memory]") {
  torch::nn::Sequential mlp(torch::nn::Linear(784, 256), torch::nn::Linear(256, 10));
  int64_t count = 0;
  size_t bytes = 0;
  for (const auto& p : mlp->parameters()) {
    count += p.numel();
    bytes += p.nbytes();
  }
  CHECK(mlp->parameters().size() == 4);
  CHECK(count == 784 * 256 + 256 + 256 * 10 + 10);  // 200,960 + 2,570
  CHECK(count == 203530);
  CHECK(bytes == 814120);                            // 4 bytes per float
  CHECK(mlp->named_parameters().keys() == std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias"});
  auto y = mlp(torch::zeros({3, 784}));
  CHECK(y.sizes() == Sizes{3, 10});

  // Drawn layer sizes (secret under `tito grade`): in * hidden + hidden + hidden * out + out floats, 4 bytes each.
  const int64_t in = random_int(1, 64), hidden = random_int(1, 32), out = random_int(1, 10);
  torch::nn::Sequential drawn(torch::nn::Linear(in, hidden), torch::nn::Linear(hidden, out));
  int64_t drawn_count = 0;
  size_t drawn_bytes = 0;
  for (const auto& p : drawn->parameters()) {
    drawn_count += p.numel();
    drawn_bytes += p.nbytes();
  }
  CHECK(drawn_count == in * hidden + hidden + hidden * out + out);
  CHECK(drawn_bytes == 4 * static_cast<size_t>(in * hidden + hidden + hidden * out + out));
  const int64_t batch = random_int(1, 4);
  CHECK(drawn(torch::zeros({batch, in})).sizes() == Sizes{batch, out});
}

TEST_CASE("Linear prints its options like LibTorch", "[points=3][linear]") {
  torch::nn::Linear fc(2, 1);
  std::ostringstream text;
  text << fc;
  CHECK(text.str() == "torch::nn::Linear(in_features=2, out_features=1, bias=true)");
  CHECK(fc->options.in_features() == 2);
  CHECK(fc->options.out_features() == 1);
  CHECK(fc(torch::zeros({1, 2})).sizes() == Sizes{1, 1});

  // Drawn options (secret under `tito grade`): the text states them, and the layer maps in to out.
  const int64_t in = random_int(1, 99), out = random_int(1, 99);
  const bool with_bias = random_int(0, 1) == 1;
  torch::nn::Linear drawn(torch::nn::LinearOptions(in, out).bias(with_bias));
  CHECK(printed(drawn) == "torch::nn::Linear(in_features=" + std::to_string(in) + ", out_features=" +
                              std::to_string(out) + ", bias=" + (with_bias ? "true" : "false") + ")");
  CHECK(drawn(torch::zeros({1, in})).sizes() == Sizes{1, out});
}

TEST_CASE("a custom module names its parameters by path", "[points=5][module][parameters]") {
  TwoLayer net;
  CHECK(net->named_parameters().keys() ==
        std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"});
  CHECK(net->parameters(/*recurse=*/false).empty());
  CHECK(net->children().size() == 2);
  int64_t count = 0;
  for (const auto& p : net->parameters()) count += p.numel();
  CHECK(count == 3 * 4 + 4 + 4 * 2 + 2);
  CHECK(net->named_parameters()["fc2.weight"].data_ptr() == net->fc2->weight.data_ptr());
  CHECK(net(torch::ones({5, 3})).sizes() == Sizes{5, 2});

  // Drawn values written through the path names (secret under `tito grade`): forward is fc2(fc1(x)).
  auto named = net->named_parameters();
  set_values(named["fc1.weight"], random_tensor({4, 3}));
  set_values(named["fc1.bias"], random_tensor({4}));
  set_values(named["fc2.weight"], random_tensor({2, 4}));
  set_values(named["fc2.bias"], random_tensor({2}));
  const torch::Tensor x = random_tensor({random_int(1, 5), 3});
  const torch::Tensor hidden = expected_linear(x, net->fc1->weight, net->fc1->bias);
  CHECK_THAT(net(x), AllClose(expected_linear(hidden, net->fc2->weight, net->fc2->bias), 1e-5, 1e-5));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: Dropout (dropout.cpp, forward)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Dropout in eval mode returns its input unchanged", "[points=4][dropout]") {
  torch::nn::Dropout drop(0.5);
  drop->eval();
  CHECK_FALSE(drop->is_training());
  auto x = torch::tensor({1.0, 2.0, 3.0, 4.0});
  auto y = drop(x);
  CHECK_THAT(y, Equals(torch::tensor({1.0, 2.0, 3.0, 4.0})));
  CHECK(y.data_ptr() == x.data_ptr());  // no copy: eval costs nothing

  // Drawn p and input (secret under `tito grade`): eval mode hands back exactly the input.
  torch::nn::Dropout drawn(static_cast<double>(random_int(1, 9)) / 10);
  drawn->eval();
  const torch::Tensor input = random_tensor({random_int(1, 4), random_int(1, 6)});
  CHECK_THAT(drawn(input), Equals(same_values(input)));
}

TEST_CASE("Dropout with p = 0 keeps everything and p = 1 zeroes everything", "[points=5][dropout]") {
  auto x = torch::tensor({{1.0, -2.0}, {3.0, 4.0}});
  torch::nn::Dropout keep_all(0.0);
  CHECK_THAT(keep_all(x), Equals(torch::tensor({{1.0, -2.0}, {3.0, 4.0}})));
  torch::nn::Dropout drop_all(1.0);
  auto y = drop_all(x);
  CHECK(y.sizes() == Sizes{2, 2});
  for (double v : values_of(y)) CHECK(v == 0.0);
  CHECK_THAT(x, Equals(torch::tensor({{1.0, -2.0}, {3.0, 4.0}})));  // the input itself is untouched
  // Probabilities outside [0, 1] are refused when the module is built.
  CHECK_THROWS_WITH(torch::nn::Dropout(1.5), "dropout probability has to be between 0 and 1, but got 1.5");
  CHECK_THROWS_WITH(torch::nn::Dropout(-0.1), Contains("dropout probability has to be between 0 and 1"));

  // A drawn input (secret under `tito grade`): p = 0 gives it back, p = 1 gives zeros of its shape.
  const torch::Tensor drawn = random_tensor({random_int(1, 4), random_int(1, 6)});
  CHECK_THAT(keep_all(drawn), Equals(same_values(drawn)));
  CHECK_THAT(drop_all(drawn), Equals(map_values(drawn, [](double) { return 0.0; })));
  CHECK_THAT(drawn, Equals(same_values(drawn)));
}

TEST_CASE("Dropout zeroes about p of the elements and scales survivors by 1/(1-p)", "[points=10][dropout]") {
  // Drawn p and input (secret under `tito grade`), checked first: a case records at most 2000 results
  // and the loops further down check 20000 values one by one. With no zeros in the input an output 0
  // was dropped, and any other output must be its input divided by 1 - p. The check fills each dropped
  // place with that value too, so what it records is the same for every correct mask: x / (1 - p).
  const double p = static_cast<double>(random_int(1, 8)) / 10;
  torch::nn::Dropout drawn(p);
  const torch::Tensor input = random_tensor({random_int(200, 400)}, 0.5, 4);
  const std::vector<double> in_values = values_of(input), out_values = values_of(drawn(input));
  REQUIRE(out_values.size() == in_values.size());
  std::vector<float> survivors;
  int64_t dropped_here = 0;
  for (size_t i = 0; i < in_values.size(); ++i) {
    const bool was_dropped = out_values[i] == 0.0;
    dropped_here += was_dropped ? 1 : 0;
    survivors.push_back(static_cast<float>(was_dropped ? in_values[i] / (1 - p) : out_values[i]));
  }
  CHECK_THAT(torch::tensor(survivors), AllClose(map_values(input, [&](double v) { return v / (1 - p); }), 1e-6, 1e-6));
  // About n p dropped: five standard deviations sqrt(n p (1 - p)) either side.
  const auto n = static_cast<double>(in_values.size());
  CHECK(std::abs(static_cast<double>(dropped_here) - n * p) < 5 * std::sqrt(n * p * (1 - p)));

  torch::manual_seed(7);
  torch::nn::Dropout half(0.5);
  const std::vector<double> y = values_of(half(torch::ones({10000})));
  const int64_t zeros = count_zeros(y);
  CHECK(zeros > 4800);  // 5000 expected, standard deviation sqrt(10000 * 0.25) = 50
  CHECK(zeros < 5200);
  for (double v : y) CHECK((v == 0.0 || v == 2.0));

  torch::nn::Dropout fifth(0.2);
  const std::vector<double> z = values_of(fifth(torch::ones({10000})));
  const int64_t dropped = count_zeros(z);
  CHECK(dropped > 1840);  // 2000 expected, standard deviation 40
  CHECK(dropped < 2160);
  for (double v : z) CHECK((v == 0.0 || std::abs(v - 1.25) < 1e-6));
}

TEST_CASE("Dropout keeps the expected value of every element", "[points=5][dropout]") {
  torch::manual_seed(11);
  torch::nn::Dropout drop(0.3);
  const std::vector<double> y = values_of(drop(torch::full({20000}, 3.0)));
  // Each output is 3/0.7 with probability 0.7 and 0 otherwise: mean 3, standard error 0.014.
  CHECK(mean_of(y) == Approx(3.0).margin(0.06));
  // Shape and dtype are the input's.
  CHECK(drop(torch::ones({2, 3, 4})).sizes() == Sizes{2, 3, 4});
  CHECK(drop(torch::ones({5}, torch::kDouble)).dtype() == torch::kDouble);

  // Drawn p, value and shape (secret under `tito grade`): the mean stays the value. The standard error
  // is value * sqrt(p / (1 - p) / 20000), at most 0.0071 value (p = 0.5): 4% is more than five of them.
  const double p = static_cast<double>(random_int(1, 5)) / 10;
  const double level = static_cast<double>(random_int(1, 32)) / 8;
  torch::nn::Dropout drawn(p);
  CHECK(mean_of(values_of(drawn(torch::full({20000}, level)))) == Approx(level).epsilon(0.04));
  const Sizes shape{random_int(1, 3), random_int(1, 4), random_int(1, 5)};
  CHECK(drawn(torch::ones(shape)).sizes() == shape);
}

TEST_CASE("Dropout draws a fresh mask on every call and follows train and eval", "[points=5][dropout]") {
  torch::manual_seed(5);
  torch::nn::Dropout drop(0.5);
  auto x = torch::ones({200});
  auto first = values_of(drop(x));
  auto second = values_of(drop(x));
  CHECK(first != second);
  drop->eval();
  CHECK(count_zeros(values_of(drop(x))) == 0);
  drop->train();
  CHECK(count_zeros(values_of(drop(x))) > 0);  // P(no zero among 200) = 2^-200

  // Drawn p and input (secret under `tito grade`, no zeros in it): two calls differ (P(same) <= 0.58^100),
  // eval hands back the input exactly, train drops again (P(no zero) <= 0.7^100).
  torch::nn::Dropout drawn(static_cast<double>(random_int(3, 7)) / 10);
  const torch::Tensor input = random_tensor({random_int(100, 200)}, 0.5, 4);
  CHECK((values_of(drawn(input)) != values_of(drawn(input))));
  drawn->eval();
  CHECK_THAT(drawn(input), Equals(same_values(input)));
  drawn->train();
  CHECK(count_zeros(values_of(drawn(input))) > 0);
}

// ---------------------------------------------------------------------------------------------
// Lesson section 7: Sequential, with your Linear and Dropout inside
// ---------------------------------------------------------------------------------------------

TEST_CASE("Sequential chains Flatten, Linear and Dropout, and eval makes it exact", "[points=6][sequential]") {
  torch::nn::Sequential net(torch::nn::Flatten(), torch::nn::Linear(4, 2), torch::nn::Dropout(0.5));
  auto fc = net->ptr<torch::nn::LinearImpl>(1);
  set_values(fc->weight, torch::tensor({{1.0, 0.0, -1.0, 0.0}, {0.5, 0.5, 0.5, 0.5}}));
  set_values(fc->bias, torch::tensor({1.0, -1.0}));
  auto x = torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}});  // (1, 2, 2) -> flatten -> [1, 2, 3, 4]

  net->eval();
  CHECK_FALSE(net[2]->is_training());  // eval reaches every child
  // [1 - 3 + 1, 0.5 * 10 - 1] = [-1, 4]
  CHECK_THAT(net(x), Equals(torch::tensor({{-1.0, 4.0}})));

  net->train();
  torch::manual_seed(1);
  for (double v : values_of(net(x))) CHECK((v == 0.0 || v == -2.0 || v == 8.0));  // kept values doubled
  CHECK(net->named_parameters().keys() == std::vector<std::string>{"1.weight", "1.bias"});

  // Drawn weights and batch (secret under `tito grade`): in eval mode the net is exactly
  // flatten then x W^T + b; in train mode each output is 0 or twice that.
  set_values(fc->weight, random_tensor({2, 4}));
  set_values(fc->bias, random_tensor({2}));
  const int64_t batch = random_int(1, 3);
  const torch::Tensor drawn = random_tensor({batch, 2, 2});
  const torch::Tensor expected = linear_by_hand(drawn, fc->weight, fc->bias, Sizes{batch, 2});
  net->eval();
  CHECK_THAT(net(drawn), AllClose(expected, 1e-5, 1e-5));
  net->train();
  const std::vector<double> trained = values_of(net(drawn)), exact = values_of(expected);
  for (size_t i = 0; i < trained.size(); ++i) CHECK((trained[i] == 0.0 || std::abs(trained[i] - 2 * exact[i]) < 1e-5));
}
