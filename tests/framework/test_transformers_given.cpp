// Module 13's API: torch::layer_norm / F::layer_norm / nn::LayerNorm (options, printing, LibTorch's
// messages, NativeLayerNormBackward0 against central differences), the ordering ops (sort, argsort,
// topk: values, NaN order, ties, gradients) and torch::multinomial (frequencies, no repeats without
// replacement, LibTorch's messages), and models::GPT (shapes, parameter and FLOP counts against the
// module tree, causality, generate's cropping and greedy decoding).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using test_helpers::printed;
using test_helpers::shape;
using test_helpers::values;
namespace nn = torch::nn;
namespace F = torch::nn::functional;
namespace models = torch::models;
using Values = std::vector<double>;
using Sizes = std::vector<int64_t>;

// d f / d t by central differences (t is changed and restored in place), double precision.
Tensor central_differences(const std::function<double()>& f, Tensor t, double eps = 1e-6) {
  Tensor grad = torch::zeros_like(t);
  double* data = t.data_ptr<double>();
  double* g = grad.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double saved = data[i];
    data[i] = saved + eps;
    const double up = f();
    data[i] = saved - eps;
    const double down = f();
    data[i] = saved;
    g[i] = (up - down) / (2 * eps);
  }
  return grad;
}

}  // namespace

TEST_CASE("LayerNorm options, printing and parameters follow LibTorch", "[transformers][layer_norm]") {
  nn::LayerNorm norm(nn::LayerNormOptions({2, 3}));
  CHECK(norm->options.eps() == 1e-5);
  CHECK(norm->options.elementwise_affine());
  CHECK(printed(*norm) == "torch::nn::LayerNorm([2, 3], eps=1e-05, elementwise_affine=true)");
  CHECK(shape(norm->weight) == Sizes{2, 3});
  CHECK(values(norm->weight) == Values(6, 1.0));
  CHECK(values(norm->bias) == Values(6, 0.0));
  CHECK(norm->parameters().size() == 2);
  nn::LayerNorm plain(nn::LayerNormOptions({4}).eps(1e-3).elementwise_affine(false));
  CHECK(printed(*plain) == "torch::nn::LayerNorm([4], eps=0.001, elementwise_affine=false)");
  CHECK(plain->parameters().empty());
  CHECK_FALSE(plain->weight.defined());
}

TEST_CASE("layer_norm normalises each slice over the trailing dims", "[transformers][layer_norm]") {
  const Tensor x = torch::tensor({1.0, 2.0, 3.0, 4.0, 2.0, 2.0, 2.0, 6.0}, torch::kDouble).reshape({2, 4});
  const Tensor y = torch::layer_norm(x, {4}, Tensor(), Tensor(), 0.0);
  const double a = 1.5 / std::sqrt(1.25), b = 0.5 / std::sqrt(1.25);
  const Values expected{-a, -b, b, a, -1 / std::sqrt(3.0), -1 / std::sqrt(3.0), -1 / std::sqrt(3.0), std::sqrt(3.0)};
  const Values got = values(y);
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(expected[i]).epsilon(1e-12));
  // Over two trailing dims the whole (2, 4) slab is one slice; weight and bias scale and shift.
  const Tensor w = torch::full({2, 4}, 2.0, torch::kDouble), bias = torch::full({2, 4}, 1.0, torch::kDouble);
  const Tensor whole = F::layer_norm(x.unsqueeze(0), F::LayerNormFuncOptions({2, 4}).weight(w).bias(bias).eps(0.0));
  const Tensor flat = torch::layer_norm(x.reshape({1, 8}), {8}, Tensor(), Tensor(), 0.0);
  CHECK(whole.allclose((flat * 2 + 1).reshape({1, 2, 4}), 1e-12, 1e-12));
}

TEST_CASE("layer_norm refuses bad shapes with LibTorch's messages", "[transformers][layer_norm][errors]") {
  const Tensor x = torch::ones({2, 3});
  CHECK_THROWS_WITH(torch::layer_norm(x, {4}),
                    "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]");
  CHECK_THROWS_WITH(torch::layer_norm(x, {3}, torch::ones({4})),
                    "Expected weight to be of same shape as normalized_shape, but got weight of shape [4] and "
                    "normalized_shape = [3]");
  CHECK_THROWS_WITH(torch::layer_norm(x, {}),
                    "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, "
                    "but got normalized_shape = []");
  nn::LayerNorm norm(nn::LayerNormOptions({5}));
  CHECK_THROWS_WITH(norm(x), "Given normalized_shape=[5], expected input with shape [*, 5], but got input of size[2, 3]");
}

TEST_CASE("layer_norm gradients match central differences", "[transformers][layer_norm][backward]") {
  torch::manual_seed(13);
  Tensor x = torch::randn({3, 2, 4}, torch::kDouble).requires_grad_();
  Tensor w = torch::randn({2, 4}, torch::kDouble).requires_grad_();
  Tensor b = torch::randn({2, 4}, torch::kDouble).requires_grad_();
  const Tensor mix = torch::randn({3, 2, 4}, torch::kDouble);
  const Tensor y = torch::layer_norm(x, {2, 4}, w, b, 1e-5);
  REQUIRE(y.grad_fn() != nullptr);
  CHECK(y.grad_fn()->name() == "NativeLayerNormBackward0");
  (y * mix).sum().backward();
  const auto loss = [&] {
    torch::NoGradGuard no_grad;
    return (torch::layer_norm(x, {2, 4}, w, b, 1e-5) * mix).sum().item<double>();
  };
  Tensor xd = x.detach(), wd = w.detach(), bd = b.detach();
  CHECK(x.grad().allclose(central_differences(loss, xd), 1e-5, 1e-7));
  CHECK(w.grad().allclose(central_differences(loss, wd), 1e-5, 1e-7));
  CHECK(b.grad().allclose(central_differences(loss, bd), 1e-5, 1e-7));
  CHECK(shape(w.grad()) == Sizes{2, 4});
}

TEST_CASE("sort and argsort order each row, NaN last, ties stable", "[transformers][sort]") {
  const Tensor x = torch::tensor({3.0, NAN, 1.0, 3.0, -2.0});
  auto [ascending, from] = x.sort();
  const Values a = values(ascending);
  CHECK(a[0] == -2.0);
  CHECK(a[1] == 1.0);
  CHECK(a[2] == 3.0);
  CHECK(a[3] == 3.0);
  CHECK(std::isnan(a[4]));
  CHECK(values(from) == Values{4, 2, 0, 3, 1});
  auto [descending, from_desc] = torch::sort(x, 0, /*descending=*/true);
  CHECK(std::isnan(values(descending)[0]));
  CHECK(values(from_desc) == Values{1, 0, 3, 2, 4});
  const Tensor m = torch::tensor({5, 1, 4, 2, 8, 0}).reshape({2, 3});
  CHECK(values(m.argsort(0)) == Values{1, 0, 1, 0, 1, 0});
  CHECK(values(torch::argsort(m, 1, true)) == Values{0, 2, 1, 1, 0, 2});
  CHECK(torch::argmax(m, 1).equal(torch::tensor({0, 1})));
}

TEST_CASE("topk keeps the k largest or smallest with their indices", "[transformers][topk]") {
  const Tensor x = torch::tensor({0.5, 4.0, -1.0, 2.0, 4.0, 3.0, 0.0, 1.0}).reshape({2, 4});
  auto [top, where] = x.topk(2);
  CHECK(values(top) == Values{4.0, 2.0, 4.0, 3.0});
  CHECK(values(where) == Values{1, 3, 0, 1});
  auto [bottom, where_bottom] = torch::topk(x, 1, 0, /*largest=*/false);
  CHECK(shape(bottom) == Sizes{1, 4});
  CHECK(values(bottom) == Values{0.5, 3.0, -1.0, 1.0});
  CHECK(values(where_bottom) == Values{0, 1, 0, 1});
  CHECK(values(std::get<0>(torch::tensor({1.0, NAN, 2.0}).topk(1)))[0] != values(std::get<0>(torch::tensor({1.0, NAN, 2.0}).topk(1)))[0]);
  CHECK_THROWS_WITH(x.topk(5), "selected index k out of range");
  CHECK_THROWS_WITH(x.topk(-1), "selected index k out of range");
  CHECK(shape(std::get<0>(x.topk(0))) == Sizes{2, 0});
}

TEST_CASE("topk and sort send gradients back where the values came from", "[transformers][topk][backward]") {
  Tensor x = torch::tensor({0.5, 4.0, -1.0, 2.0, 3.5, 3.0, 0.0, 1.0}, torch::kDouble).reshape({2, 4}).requires_grad_();
  auto [top, where] = x.topk(2, 1);
  CHECK(top.grad_fn()->name() == "TopkBackward0");
  (top * torch::tensor({1.0, 10.0}, torch::kDouble)).sum().backward();
  CHECK(values(x.grad()) == Values{0, 1, 0, 10, 1, 10, 0, 0});
  Tensor y = torch::tensor({3.0, 1.0, 2.0}, torch::kDouble).requires_grad_();
  auto [sorted, order] = y.sort();
  CHECK(sorted.grad_fn()->name() == "SortBackward0");
  (sorted * torch::tensor({1.0, 2.0, 3.0}, torch::kDouble)).sum().backward();
  CHECK(values(y.grad()) == Values{3, 1, 2});
}

TEST_CASE("multinomial draws categories with the given weights", "[transformers][multinomial]") {
  torch::manual_seed(7);
  const Tensor weights = torch::tensor({1.0, 0.0, 3.0, 4.0});  // unnormalised: 1/8, 0, 3/8, 1/2
  const Tensor draws = torch::multinomial(weights.unsqueeze(0).expand({20000, 4}).contiguous(), 1, true);
  CHECK(shape(draws) == Sizes{20000, 1});
  CHECK(draws.scalar_type() == torch::kLong);
  const Values v = values(draws);
  Values counts(4, 0);
  for (double c : v) counts[static_cast<size_t>(c)] += 1;
  CHECK(counts[1] == 0);
  CHECK(counts[0] / 20000 == Approx(0.125).margin(0.01));
  CHECK(counts[2] / 20000 == Approx(0.375).margin(0.015));
  CHECK(counts[3] / 20000 == Approx(0.5).margin(0.015));
  // Without replacement every row is a permutation of the positive categories.
  const Tensor perms = torch::ones({50, 6}).multinomial(6);
  for (int64_t r = 0; r < 50; ++r) {
    const Values row = values(perms[r]);
    CHECK(std::set<double>(row.begin(), row.end()).size() == 6);
  }
  CHECK(shape(torch::multinomial(weights, 3)) == Sizes{3});
}

TEST_CASE("multinomial refuses bad distributions with LibTorch's messages", "[transformers][multinomial][errors]") {
  CHECK_THROWS_WITH(torch::multinomial(torch::ones({3}), 4),
                    "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  CHECK_THROWS_WITH(torch::multinomial(torch::ones({3}), 0), "cannot sample n_sample <= 0 samples");
  CHECK_THROWS_WITH(torch::multinomial(torch::ones({1, 1, 3}), 1), "prob_dist must be 1 or 2 dim");
  CHECK_THROWS_WITH(torch::multinomial(torch::tensor({1.0, -1.0}), 1),
                    "probability tensor contains either `inf`, `nan` or element < 0");
  CHECK_THROWS_WITH(torch::multinomial(torch::zeros({3}), 1),
                    "invalid multinomial distribution (sum of probabilities <= 0)");
  CHECK_THROWS_WITH(torch::multinomial(torch::tensor({1.0, 0.0, 0.0}), 2),
                    "invalid multinomial distribution (with replacement=False, not enough non-negative category to "
                    "sample)");
  CHECK_THROWS_WITH(torch::multinomial(torch::ones({3}, torch::kLong), 1),
                    "multinomial only supports floating-point dtypes for input, got: Long");
}

namespace {

// FLOPs of the matrix products a forward over (batch, seq) runs, counted from the module tree: every
// Linear costs 2 x tokens x in x out, every attention 2 x 2 x batch x seq^2 x embed_dim (q k^T, then v).
double counted_flops(const nn::Module& model, int64_t batch, int64_t seq) {
  double flops = 0;
  for (const auto& item : model.named_modules()) {
    if (auto* linear = item.value()->as<nn::LinearImpl>()) {
      flops += 2.0 * batch * seq * linear->options.in_features() * linear->options.out_features();
    } else if (auto* attention = item.value()->as<models::CausalSelfAttentionImpl>()) {
      flops += 4.0 * batch * seq * seq * attention->embed_dim;
    }
  }
  return flops;
}

}  // namespace

TEST_CASE("GPT maps tokens to logits; its counts match the formulas", "[transformers][gpt]") {
  torch::manual_seed(1);
  models::GPT gpt(models::GPTOptions(11, 8).embed_dim(16).num_layers(2).num_heads(4).mlp_ratio(3).dropout(0.0));
  const Tensor tokens = torch::randint(0, 11, {3, 5});
  const Tensor logits = gpt(tokens);
  CHECK(shape(logits) == Sizes{3, 5, 11});
  const int64_t V = 11, T = 8, d = 16, L = 2, r = 3;
  CHECK(gpt->parameter_count() == V * d + T * d + L * ((4 + 2 * r) * d * d + (9 + r) * d) + 2 * d + d * V);
  CHECK(gpt->flops_per_forward(3, 5) == counted_flops(*gpt, 3, 5));
  const std::string text = printed(*gpt);
  CHECK(text.substr(0, text.find('\n')) == "tinytorch::models::GPT(vocab_size=11, max_seq_len=8, embed_dim=16, "
                                            "num_layers=2, num_heads=4, mlp_ratio=3, dropout=0)(");
  // Training reaches every parameter.
  torch::nn::functional::cross_entropy(logits.reshape({15, 11}), tokens.reshape({15})).backward();
  for (const auto& p : gpt->named_parameters()) {
    INFO(p.key());
    CHECK(p.value().grad().defined());
  }
}

TEST_CASE("GPT is causal: later tokens never change earlier logits", "[transformers][gpt]") {
  torch::manual_seed(2);
  models::GPT gpt(models::GPTOptions(13, 10).embed_dim(12).num_layers(2).num_heads(3).dropout(0.0));
  Tensor tokens = torch::randint(0, 13, {2, 10});
  const Tensor before = gpt(tokens).narrow(1, 0, 6);
  tokens.narrow(1, 6, 4).copy_(torch::randint(0, 13, {2, 4}));
  CHECK(gpt(tokens).narrow(1, 0, 6).allclose(before, 1e-5, 1e-6));
  const Tensor weights = gpt->blocks->ptr<models::GPTBlockImpl>(0)->attn->attention_weights(
      torch::randn({1, 4, 12}), models::causal_mask(4));
  CHECK(shape(weights) == Sizes{1, 3, 4, 4});
  CHECK(values(weights.narrow(3, 1, 3).select(2, 0).sum()) == Values{0.0});
}

TEST_CASE("GPT generate appends tokens, crops to max_seq_len, is greedy at temperature 0", "[transformers][gpt]") {
  torch::manual_seed(3);
  models::GPT gpt(models::GPTOptions(7, 4).embed_dim(8).num_layers(1).num_heads(2));
  gpt->eval();
  const Tensor prompt = torch::tensor({{1, 2, 3}, {4, 5, 6}});
  const Tensor out = gpt->generate(prompt, 6, 0.0);  // 9 tokens > max_seq_len: the context must be cropped
  CHECK(shape(out) == Sizes{2, 9});
  CHECK(out.narrow(1, 0, 3).equal(prompt));
  // Greedy: each new token is the argmax of the last 4 tokens' last logits.
  for (int64_t t = 3; t < 9; ++t) {
    const int64_t start = std::max<int64_t>(0, t - 4);
    const Tensor expected = gpt(out.narrow(1, start, t - start)).select(1, -1).argmax(-1);
    CHECK(out.select(1, t).equal(expected));
  }
  const Tensor sampled = gpt->generate(prompt, 3, 1.0, 2);
  CHECK(shape(sampled) == Sizes{2, 6});
  CHECK_THROWS_WITH(gpt->generate(prompt, 2, -1.0),
                    "GPT::generate: temperature must be finite and >= 0 (0 = greedy), but got -1");
  CHECK_THROWS_WITH(gpt(torch::tensor({{1, 2, 3, 4, 5}})),
                    "GPT::forward: a sequence of 5 tokens is longer than max_seq_len=4: crop it to the last 4 tokens "
                    "or build a GPT with a larger max_seq_len");
  CHECK_THROWS_WITH(gpt(torch::tensor({{1, 9}})),
                    "GPT::forward: token ids must lie in [0, 7), but got 9: check the tokenizer's vocabulary size");
  CHECK_THROWS_WITH(models::GPT(models::GPTOptions(7, 4).embed_dim(10).num_heads(4)),
                    "GPTOptions: embed_dim must be divisible by num_heads (got embed_dim=10, num_heads=4): choose "
                    "num_heads among embed_dim's divisors");
}

TEST_CASE("TransformerEncoderLayer is LibTorch's post-LN layer on (S, N, E)", "[transformers][encoder]") {
  torch::manual_seed(4);
  nn::TransformerEncoderLayerOptions options(8, 2);
  CHECK(options.dim_feedforward() == 2048);
  CHECK(options.dropout() == 0.1);
  CHECK(std::holds_alternative<torch::enumtype::kReLU>(options.activation()));
  nn::TransformerEncoderLayer layer(options.dim_feedforward(16).dropout(0.0).activation(torch::kGELU));
  std::vector<std::string> names;
  for (const auto& p : layer->named_parameters()) names.push_back(p.key());
  CHECK(names == std::vector<std::string>{"self_attn.in_proj_weight", "self_attn.in_proj_bias",
                                          "self_attn.out_proj.weight", "self_attn.out_proj.bias", "linear1.weight",
                                          "linear1.bias", "linear2.weight", "linear2.bias", "norm1.weight",
                                          "norm1.bias", "norm2.weight", "norm2.bias"});
  const Tensor src = torch::randn({5, 2, 8});
  const Tensor mask = models::causal_mask(5);
  const Tensor out = layer(src, mask);
  CHECK(shape(out) == Sizes{5, 2, 8});
  // The definition, from the layer's own parts: add, then norm, twice.
  const Tensor attended = std::get<0>(layer->self_attn(src, src, src, Tensor(), true, mask));
  const Tensor x = layer->norm1(src + attended);
  const Tensor expected = layer->norm2(x + layer->linear2(torch::gelu(layer->linear1(x))));
  CHECK(out.allclose(expected, 1e-5, 1e-6));
  // A callable activation, and an encoder of clones with a final norm.
  nn::TransformerEncoderLayer custom(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0).activation(
      [](const Tensor& t) { return torch::tanh(t); }));
  CHECK(shape(custom(src)) == Sizes{5, 2, 8});
  nn::TransformerEncoder encoder(
      nn::TransformerEncoderOptions(layer, 3).norm(torch::nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({8})))));
  CHECK(encoder->layers->size() == 3);
  CHECK(encoder->named_parameters().size() == 3 * 12 + 2);
  const Tensor encoded = encoder(src, mask);
  CHECK(shape(encoded) == Sizes{5, 2, 8});
  Tensor by_hand = src;
  for (size_t i = 0; i < 3; ++i) by_hand = encoder->layers->ptr<nn::TransformerEncoderLayerImpl>(i)->forward(by_hand, mask);
  CHECK(encoded.allclose(torch::layer_norm(by_hand, {8}), 1e-5, 1e-6));
}
