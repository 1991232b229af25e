// Module 13 (Transformers): the graded tests. Each case is tagged with its points ([points=N], 100
// in all) and a topic; hints.json has a hint per case name. Every case runs code the learner
// writes: the layer-norm loops (layer_norm_loops.cpp), and the MLP, the pre-LN block, sampling and
// the generation loop (gpt_learner.cpp), reached through LibTorch's API (torch::layer_norm,
// nn::LayerNorm) and models::GPT.
// Inputs are drawn with random_tensor / random_int (a secret seed under grading). Expected values
// come from independent oracles written here in double precision (plain loops for layer norm,
// the definition of the block from the given attention and the oracles), from central differences,
// or from counting what the sampler drew.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace models = torch::models;
namespace nn = torch::nn;

namespace {

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

torch::Tensor doubles(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kDouble).reshape(sizes);
}

// The oracle: each row of the (rows, F) view normalised by its mean and BIASED variance, then
// scaled and shifted per feature; plain loops in double.
torch::Tensor layer_norm_oracle(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                double eps) {
  const std::vector<double> v = values_of(x);
  const int64_t features = x.size(-1), rows = x.numel() / features;
  const std::vector<double> w = weight.defined() ? values_of(weight) : std::vector<double>(features, 1.0);
  const std::vector<double> b = bias.defined() ? values_of(bias) : std::vector<double>(features, 0.0);
  std::vector<double> out(v.size());
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t f = 0; f < features; ++f) mean += v[r * features + f] / features;
    for (int64_t f = 0; f < features; ++f) var += (v[r * features + f] - mean) * (v[r * features + f] - mean) / features;
    for (int64_t f = 0; f < features; ++f)
      out[r * features + f] = (v[r * features + f] - mean) / std::sqrt(var + eps) * w[f] + b[f];
  }
  return doubles(out, x.sizes().vec());
}

double gelu_of(double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }

// y = x W^T + b of an nn::Linear, from its tensors, in double.
torch::Tensor linear_oracle(const torch::Tensor& x, const nn::Linear& linear) {
  torch::NoGradGuard no_grad;
  torch::Tensor y = x.to(torch::kDouble).matmul(linear->weight.to(torch::kDouble).t());
  return linear->bias.defined() ? y + linear->bias.to(torch::kDouble) : y;
}

torch::Tensor mlp_oracle(const torch::Tensor& x, models::GPTMLP& mlp) {
  const torch::Tensor hidden = linear_oracle(x, mlp->fc);
  const std::vector<double> h = values_of(hidden);
  std::vector<double> g(h.size());
  std::transform(h.begin(), h.end(), g.begin(), gelu_of);
  return linear_oracle(doubles(g, hidden.sizes().vec()), mlp->proj);
}

// Fills every parameter of `module` with drawn values (LayerNorm scales around 1), so that a
// wiring mistake (a swapped norm, a missing bias) changes the numbers.
void randomise(nn::Module& module, double scale) {
  torch::NoGradGuard no_grad;
  for (auto& named : module.named_parameters()) {
    torch::Tensor& p = named.value();
    const bool is_norm_scale = named.key().find("ln") != std::string::npos && named.key().find("weight") != std::string::npos;
    p.copy_(random_tensor(p.sizes(), -1, 1) * scale + (is_norm_scale ? 1.0 : 0.0));
  }
}

// d f / d t by central differences, element by element (t is changed and restored in place).
torch::Tensor central_differences(const std::function<double()>& f, torch::Tensor t, double eps = 1e-6) {
  torch::Tensor grad = torch::zeros_like(t);
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

models::GPTOptions small_options(int64_t vocab, int64_t max_seq_len) {
  return models::GPTOptions(vocab, max_seq_len).embed_dim(8).num_layers(2).num_heads(2).mlp_ratio(2).dropout(0.0);
}

// How often each index appears in a (N, 1) draw, as fractions.
std::vector<double> frequencies(const torch::Tensor& draws, int64_t categories) {
  std::vector<double> counts(categories, 0.0);
  const std::vector<double> v = values_of(draws);
  for (double c : v) counts[static_cast<size_t>(c)] += 1.0 / static_cast<double>(v.size());
  return counts;
}

std::vector<double> softmax_of(const std::vector<double>& z) {
  const double top = *std::max_element(z.begin(), z.end());
  std::vector<double> p(z.size());
  double total = 0;
  for (size_t i = 0; i < z.size(); ++i) total += (p[i] = std::exp(z[i] - top));
  for (double& q : p) q /= total;
  return p;
}

}  // namespace

TEST_CASE("LayerNorm normalises each row over its features", "[points=10][layer_norm][forward]") {
  // One row [1, 2, 3, 4], eps 0: mean 2.5, biased variance 1.25.
  const double s = std::sqrt(1.25);
  CHECK_THAT(torch::layer_norm(doubles({1, 2, 3, 4}, {1, 4}), {4}, {}, {}, 0.0),
             AllClose(doubles({-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s}, {1, 4}), 1e-9, 1e-12));
  // Drawn rows of a (B, S, F) activation with a drawn scale and shift, through nn::LayerNorm.
  const int64_t batch = random_int(2, 3), seq = random_int(3, 5), features = random_int(4, 7);
  nn::LayerNorm norm(nn::LayerNormOptions({features}));
  {
    torch::NoGradGuard no_grad;
    norm->weight.copy_(random_tensor({features}, 0.5, 2));
    norm->bias.copy_(random_tensor({features}, -1, 1));
  }
  const torch::Tensor x = random_tensor({batch, seq, features}, -3, 3);
  CHECK_THAT(norm(x), AllClose(layer_norm_oracle(x, norm->weight, norm->bias, 1e-5).to(torch::kFloat), 1e-4, 1e-5));
  // The same in double with no affine part, over two trailing dims (one slice of F x 2 values).
  const torch::Tensor xd = random_tensor({batch, 2, features}, -3, 3, torch::kDouble);
  CHECK_THAT(torch::layer_norm(xd, {2, features}),
             AllClose(layer_norm_oracle(xd.reshape({batch, 2 * features}), {}, {}, 1e-5).reshape(xd.sizes()), 1e-9, 1e-12));
}

TEST_CASE("LayerNorm gradients match central differences", "[points=12][layer_norm][backward]") {
  const int64_t rows = random_int(2, 4), features = random_int(3, 6);
  torch::Tensor x = random_tensor({rows, features}, -2, 2, torch::kDouble).requires_grad_();
  torch::Tensor w = random_tensor({features}, 0.5, 2, torch::kDouble).requires_grad_();
  torch::Tensor b = random_tensor({features}, -1, 1, torch::kDouble).requires_grad_();
  const torch::Tensor mix = random_tensor({rows, features}, -1, 1, torch::kDouble);
  (torch::layer_norm(x, {features}, w, b) * mix).sum().backward();
  // The loss through the oracle, so that the expected gradients depend on no learner code.
  const auto loss = [&] {
    return (layer_norm_oracle(x.detach(), w.detach(), b.detach(), 1e-5) * mix).sum().item<double>();
  };
  torch::Tensor xd = x.detach(), wd = w.detach(), bd = b.detach();
  REQUIRE(x.grad().defined());
  CHECK_THAT(x.grad(), AllClose(central_differences(loss, xd), 1e-5, 1e-7));
  CHECK_THAT(w.grad(), AllClose(central_differences(loss, wd), 1e-5, 1e-7));
  CHECK_THAT(b.grad(), AllClose(central_differences(loss, bd), 1e-5, 1e-7));
  // Without a weight (elementwise_affine(false)) only the input's gradient exists.
  torch::Tensor y = random_tensor({rows, features}, -2, 2, torch::kDouble).requires_grad_();
  (torch::layer_norm(y, {features}) * mix).sum().backward();
  const auto plain_loss = [&] { return (layer_norm_oracle(y.detach(), {}, {}, 1e-5) * mix).sum().item<double>(); };
  torch::Tensor yd = y.detach();
  CHECK_THAT(y.grad(), AllClose(central_differences(plain_loss, yd), 1e-5, 1e-7));
}

TEST_CASE("the MLP is Linear, exact GELU, Linear", "[points=8][mlp]") {
  const int64_t d = random_int(3, 6), hidden = 2 * d;
  models::GPTMLP mlp(d, hidden, 0.0);
  randomise(*mlp, 0.5);
  const torch::Tensor x = random_tensor({2, random_int(2, 4), d}, -2, 2);
  CHECK_THAT(mlp(x), AllClose(mlp_oracle(x, mlp).to(torch::kFloat), 1e-4, 1e-5));
}

TEST_CASE("the pre-LN block adds each normalised sublayer to its input", "[points=14][block]") {
  const int64_t d = 4 * random_int(1, 2), seq = random_int(3, 5);
  models::GPTBlock block(models::GPTOptions(10, 8).embed_dim(d).num_heads(2).mlp_ratio(2).dropout(0.0));
  randomise(*block, 0.5);
  const torch::Tensor x = random_tensor({2, seq, d}, -2, 2);
  // The definition, from the given attention and the oracles: h = x + attn(ln1(x), causal mask);
  // out = h + mlp(ln2(h)).
  torch::Tensor expected;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor normed1 = layer_norm_oracle(x, block->ln1->weight, block->ln1->bias, 1e-5).to(torch::kFloat);
    const torch::Tensor h = x + block->attn(normed1, models::causal_mask(seq));
    const torch::Tensor normed2 = layer_norm_oracle(h, block->ln2->weight, block->ln2->bias, 1e-5);
    expected = h.to(torch::kDouble) + mlp_oracle(normed2, block->mlp);
  }
  CHECK_THAT(block(x), AllClose(expected.to(torch::kFloat), 1e-4, 1e-4));
}

TEST_CASE("the block is causal: later positions never change earlier outputs", "[points=8][block]") {
  const int64_t d = 8, seq = random_int(4, 6), keep = random_int(1, seq - 1);
  models::GPTBlock block(models::GPTOptions(10, 8).embed_dim(d).num_heads(2).dropout(0.0));
  randomise(*block, 0.5);
  torch::Tensor x = random_tensor({2, seq, d}, -2, 2);
  const torch::Tensor before = block(x).narrow(1, 0, keep);
  x.narrow(1, keep, seq - keep).copy_(random_tensor({2, seq - keep, d}, -2, 2));
  CHECK_THAT(block(x).narrow(1, 0, keep), AllClose(before, 1e-5, 1e-6));
}

TEST_CASE("sampling at temperature 0 takes the most likely token", "[points=6][sampling]") {
  const int64_t rows = random_int(3, 6), vocab = random_int(5, 9);
  const torch::Tensor logits = random_tensor({rows, vocab}, -4, 4);
  std::vector<double> expected;
  const std::vector<double> z = values_of(logits);
  for (int64_t r = 0; r < rows; ++r) {
    const auto first = z.begin() + r * vocab;
    expected.push_back(static_cast<double>(std::max_element(first, first + vocab) - first));  // first maximum
  }
  CHECK_THAT(models::sample_next_token(logits, 0.0), Equals(torch::tensor(expected).to(torch::kLong).reshape({rows, 1})));
}

TEST_CASE("sampling follows softmax(logits / temperature)", "[points=10][sampling]") {
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1 << 20)));
  const int64_t vocab = 5, draws = 8000;
  // Logits at least 0.75 apart, so that every temperature gives clearly different probabilities.
  const torch::Tensor logits = random_tensor({vocab}, 0, 0.5) + torch::arange(vocab).to(torch::kFloat) * 0.75;
  const double temperature = random_int(0, 1) == 0 ? 0.5 : 2.0;
  const torch::Tensor next = models::sample_next_token(logits.unsqueeze(0).expand({draws, vocab}).contiguous(), temperature);
  REQUIRE(next.sizes().vec() == Sizes{draws, 1});
  std::vector<double> z = values_of(logits);
  for (double& v : z) v /= temperature;
  const std::vector<double> expected = softmax_of(z), seen = frequencies(next, vocab);
  for (int64_t c = 0; c < vocab; ++c) {
    INFO("token " << c << ": expected probability " << expected[c] << ", drawn " << seen[c]);
    CHECK(std::abs(seen[c] - expected[c]) < 0.025);
  }
  // Rows in which one drawn token has a drawn finite logit and every other -inf: softmax gives that
  // token probability 1 at any temperature, so every draw must name it.
  const int64_t rows = random_int(2, 6), width = random_int(2, 9);
  const std::vector<double> finite_logits = values_of(random_tensor({rows}, -4, 4));
  std::vector<double> only_possible(rows), row_logits(rows * width, -std::numeric_limits<double>::infinity());
  for (int64_t r = 0; r < rows; ++r) {
    only_possible[r] = static_cast<double>(random_int(0, width - 1));
    row_logits[r * width + static_cast<int64_t>(only_possible[r])] = finite_logits[r];
  }
  const torch::Tensor one_way = doubles(row_logits, {rows, width}).to(torch::kFloat);
  CHECK_THAT(models::sample_next_token(one_way, temperature),
             Equals(doubles(only_possible, {rows, 1}).to(torch::kLong)));
}

TEST_CASE("top_k sampling keeps the k most likely tokens and their ties", "[points=10][sampling]") {
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1 << 20)));
  const int64_t vocab = random_int(5, 8), k = random_int(2, vocab - 2), draws = 6000;
  // Distinct logits in a random order, close together, so every kept token is drawn often.
  const torch::Tensor order = torch::randperm(vocab);
  const torch::Tensor logits = (order.to(torch::kFloat) * 0.25).unsqueeze(0);
  const torch::Tensor next = models::sample_next_token(logits.expand({draws, vocab}).contiguous(), 1.0, k);
  const std::vector<double> seen = frequencies(next, vocab), z = values_of(logits);
  // Kept: the tokens whose rank (order value) is among the k largest; their probabilities are the
  // softmax over the kept logits only.
  std::vector<double> kept_logits;
  for (int64_t c = 0; c < vocab; ++c)
    if (z[c] >= (vocab - k) * 0.25) kept_logits.push_back(z[c]);
  const std::vector<double> kept_p = softmax_of(kept_logits);
  size_t next_kept = 0;
  for (int64_t c = 0; c < vocab; ++c) {
    INFO("token " << c << " with logit " << z[c] << " (k = " << k << ") drawn with frequency " << seen[c]);
    if (z[c] >= (vocab - k) * 0.25) {
      CHECK(std::abs(seen[c] - kept_p[next_kept++]) < 0.03);
    } else {
      CHECK(seen[c] == 0.0);
    }
  }
  // The threshold is the k-th largest VALUE, so logits tied with it stay too and a row may keep more
  // than k tokens (as nanoGPT and Hugging Face's top-k do): {0, 1, 1, 2} with k = 2 keeps 2 and both 1s.
  const torch::Tensor tied = torch::tensor({0.0f, 1.0f, 1.0f, 2.0f}).unsqueeze(0);
  const std::vector<double> tied_seen =
      frequencies(models::sample_next_token(tied.expand({draws, 4}).contiguous(), 1.0, 2), 4);
  const std::vector<double> tied_p = softmax_of({1.0, 1.0, 2.0});
  INFO("logits {0, 1, 1, 2}, k = 2: drawn with frequencies " << tied_seen[0] << ", " << tied_seen[1] << ", "
                                                             << tied_seen[2] << ", " << tied_seen[3]);
  CHECK(tied_seen[0] == 0.0);
  for (size_t c = 1; c < 4; ++c) CHECK(std::abs(tied_seen[c] - tied_p[c - 1]) < 0.03);
}

TEST_CASE("generate appends greedy tokens from the last position, cropping to max_seq_len", "[points=12][generate]") {
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1 << 20)));
  const int64_t vocab = random_int(6, 8), max_seq_len = random_int(4, 5);  // vocab <= embed_dim 8
  models::GPT gpt(small_options(vocab, max_seq_len));
  randomise(*gpt, 1.0);  // large weights: the argmax differs from position to position
  const int64_t prompt_length = random_int(2, 3), new_tokens = random_int(4, 6);
  const torch::Tensor prompt = random_tensor({2, prompt_length}, 0, vocab - 1, torch::kLong);
  const torch::Tensor out = gpt->generate(prompt, new_tokens, 0.0);
  REQUIRE(out.sizes().vec() == Sizes{2, prompt_length + new_tokens});
  CHECK_THAT(out.narrow(1, 0, prompt_length), Equals(prompt));
  // Each new token: the argmax of the logits at the last position, given at most max_seq_len tokens.
  for (int64_t t = prompt_length; t < prompt_length + new_tokens; ++t) {
    const int64_t start = std::max<int64_t>(0, t - max_seq_len);
    torch::Tensor expected;
    {
      torch::NoGradGuard no_grad;
      expected = gpt(out.narrow(1, start, t - start)).select(1, -1).argmax(-1);
    }
    INFO("token " << t);
    CHECK_THAT(out.select(1, t), Equals(expected));
  }
  // A GPT built to predict "last token + 1 (mod V)": blocks that add nothing (zero output
  // projections), one-hot token embeddings, no position embeddings, a head that maps token a to a + 1.
  {
    torch::NoGradGuard no_grad;
    for (auto& named : gpt->named_parameters()) {
      const std::string& name = named.key();
      if (name.find("proj") != std::string::npos || name.find("position_embedding") != std::string::npos) named.value().zero_();
    }
    gpt->token_embedding->weight.zero_();
    gpt->lm_head->weight.zero_();
    for (int64_t a = 0; a < vocab; ++a) {
      gpt->token_embedding->weight[a][a].fill_(4.0);
      gpt->lm_head->weight[(a + 1) % vocab][a].fill_(1.0);
    }
    gpt->final_norm->weight.fill_(1.0);
    gpt->final_norm->bias.zero_();
  }
  const torch::Tensor counted = gpt->generate(prompt, new_tokens, 0.0);
  std::vector<int64_t> next_of_last;
  for (int64_t row = 0; row < 2; ++row) {
    const int64_t last = prompt[row][prompt_length - 1].item<int64_t>();
    for (int64_t t = 1; t <= new_tokens; ++t) next_of_last.push_back((last + t) % vocab);
  }
  INFO("each new token must come from the last position of the last max_seq_len tokens: last + 1, last + 2, ...");
  CHECK_THAT(counted.narrow(1, prompt_length, new_tokens), Equals(torch::tensor(next_of_last).reshape({2, new_tokens})));
}

TEST_CASE("a tiny GPT learns to continue a repeating sequence", "[points=10][integration]") {
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1 << 20)));
  const int64_t vocab = 6, period = random_int(3, 4), seq = 8;
  models::GPT gpt(small_options(vocab, seq).embed_dim(16));
  const int64_t d = 16, L = 2, r = 2;
  CHECK(gpt->parameter_count() == vocab * d + seq * d + L * ((4 + 2 * r) * d * d + (9 + r) * d) + 2 * d + d * vocab);
  // A cycle through `period` distinct tokens drawn from the vocabulary.
  const torch::Tensor cycle = torch::randperm(vocab).narrow(0, 0, period);
  std::vector<int64_t> stream;
  for (int64_t i = 0; i < seq + period; ++i) stream.push_back(cycle[i % period].item<int64_t>());
  std::vector<torch::Tensor> windows;
  for (int64_t s = 0; s < period; ++s) windows.push_back(torch::tensor(std::vector<int64_t>(stream.begin() + s, stream.begin() + s + seq + 1)));
  const torch::Tensor batch = torch::stack(windows);
  const torch::Tensor inputs = batch.narrow(1, 0, seq), targets = batch.narrow(1, 1, seq);
  torch::optim::Adam optimizer(gpt->parameters(), torch::optim::AdamOptions(1e-2));
  double first_loss = 0, last_loss = 0;
  for (int step = 0; step < 60; ++step) {
    optimizer.zero_grad();
    const torch::Tensor loss = torch::nn::functional::cross_entropy(gpt(inputs).reshape({-1, vocab}), targets.reshape({-1}));
    loss.backward();
    optimizer.step();
    (step == 0 ? first_loss : last_loss) = loss.item<double>();
  }
  INFO("cross-entropy " << first_loss << " -> " << last_loss);
  CHECK(last_loss < 0.1);
  gpt->eval();
  const torch::Tensor continued = gpt->generate(inputs.narrow(0, 0, 1).narrow(1, 0, 2), 2 * period, 0.0);
  CHECK_THAT(continued.squeeze(0), Equals(torch::tensor(std::vector<int64_t>(stream.begin(), stream.begin() + 2 + 2 * period))));
}
