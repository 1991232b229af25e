// Module 12 (Attention): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes in
// attention_core.cpp (scaled_dot_product_attention_math, split_heads, merge_heads), reached through
// torch::scaled_dot_product_attention and nn::MultiheadAttention.
// Expected values are worked by hand in the comments or computed here by an independent oracle in
// double precision: the definition written as plain loops (scores, mask, a max-subtracted softmax,
// the weighted sum), central differences for gradients.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::AllClose;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace F = torch::nn::functional;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

torch::Tensor doubles(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kDouble).reshape(sizes);
}

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

std::vector<bool> bools_of(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  return std::vector<bool>(c.data_ptr<bool>(), c.data_ptr<bool>() + c.numel());
}

struct Attention {
  torch::Tensor output;   // (B, L, Ev)
  torch::Tensor weights;  // (B, L, S)
};

// The oracle: q (B, L, E), k (B, S, E), v (B, S, Ev); `added` (B L S values, may be -inf) is added to
// the scores. A row with every score -inf gets zero weights (PyTorch >= 2.5).
Attention attention_oracle(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                           const std::vector<double>& added, double scale) {
  const int64_t B = q.size(0), L = q.size(1), E = q.size(2), S = k.size(1), Ev = v.size(2);
  const std::vector<double> qv = values_of(q), kv = values_of(k), vv = values_of(v);
  std::vector<double> out(B * L * Ev, 0.0), weights(B * L * S, 0.0);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t i = 0; i < L; ++i) {
      std::vector<double> score(S);
      double best = -kInf;
      for (int64_t j = 0; j < S; ++j) {
        double dot = 0;
        for (int64_t e = 0; e < E; ++e) dot += qv[(b * L + i) * E + e] * kv[(b * S + j) * E + e];
        score[j] = dot * scale + (added.empty() ? 0.0 : added[(b * L + i) * S + j]);
        best = std::max(best, score[j]);
      }
      if (best == -kInf) continue;  // nothing to attend to: zero weights, zero output
      double total = 0;
      for (int64_t j = 0; j < S; ++j) total += std::exp(score[j] - best);
      for (int64_t j = 0; j < S; ++j) {
        const double w = std::exp(score[j] - best) / total;
        weights[(b * L + i) * S + j] = w;
        for (int64_t e = 0; e < Ev; ++e) out[(b * L + i) * Ev + e] += w * vv[(b * S + j) * Ev + e];
      }
    }
  }
  return {doubles(out, {B, L, Ev}), doubles(weights, {B, L, S})};
}

// A kBool "take part" mask (broadcast over B when it is (L, S)) as the oracle's added values.
std::vector<double> added_from_keep(const torch::Tensor& keep, int64_t B, int64_t L, int64_t S) {
  const std::vector<bool> flags = bools_of(keep);
  std::vector<double> added(B * L * S);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L * S; ++i) added[b * L * S + i] = flags[(keep.dim() == 3 ? b * L * S : 0) + i] ? 0.0 : -kInf;
  return added;
}

// A random kBool mask (L, S) with at least one true per row (every query sees some key).
torch::Tensor random_keep_mask(int64_t L, int64_t S) {
  torch::Tensor keep = random_tensor({L, S}, -1, 1) > 0;
  for (int64_t i = 0; i < L; ++i) keep[i][random_int(0, S - 1)] = true;
  return keep;
}

// d f / d t by central differences, element by element (t is changed and restored in place).
torch::Tensor central_differences(const std::function<double()>& f, torch::Tensor t, double eps = 1e-6) {
  torch::NoGradGuard no_grad;
  std::vector<double> grad(t.numel());
  double* data = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double saved = data[i];
    data[i] = saved + eps;
    const double up = f();
    data[i] = saved - eps;
    const double down = f();
    data[i] = saved;
    grad[i] = (up - down) / (2 * eps);
  }
  return doubles(grad, t.sizes().vec());
}

torch::Tensor weights_of(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& mask = {}, bool is_causal = false) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
  return std::get<1>(torch::native::scaled_dot_product_attention_math(q, k, v, mask, 0.0, is_causal, scale));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson sections 2-3: scores, scaling, softmax, weighted sum
// ---------------------------------------------------------------------------------------------

TEST_CASE("attention computes the worked example", "[points=8][attention][formula]") {
  // One query [1, 0] against keys [1, 0] and [0, 1]: scores (with scale 1) [1, 0], weights
  // [e / (e + 1), 1 / (e + 1)] = [0.7311, 0.2689]; values 10 and 20 -> 10 * 0.7311 + 20 * 0.2689 = 12.689.
  auto q = torch::tensor({1.0f, 0.0f}).reshape({1, 1, 2});
  auto k = torch::tensor({1.0f, 0.0f, 0.0f, 1.0f}).reshape({1, 2, 2});
  auto v = torch::tensor({10.0f, 20.0f}).reshape({1, 2, 1});
  const double e = std::exp(1.0);
  auto out = torch::scaled_dot_product_attention(q, k, v, {}, 0.0, false, 1.0);
  CHECK(out.sizes().vec() == Sizes{1, 1, 1});
  CHECK_THAT(out, AllClose(torch::tensor({(10 * e + 20) / (e + 1)}).reshape({1, 1, 1}), 1e-5, 1e-5));
  {
    // The same query with the default scale 1 / sqrt(2) (E = 2): scores [0.7071, 0], weights
    // [0.670, 0.330]; the worked example's [0.731, 0.269] here means the scale was not applied.
    LABEL_CHECKS("default scale");
    auto weights = std::get<1>(torch::native::scaled_dot_product_attention_math(q, k, v, {}, 0.0, false, 1 / std::sqrt(2.0)));
    const double a = std::exp(1 / std::sqrt(2.0));
    CHECK_THAT(weights, AllClose(torch::tensor({a / (a + 1), 1 / (a + 1)}).reshape({1, 1, 2}), 1e-5, 1e-6));
  }
  // Equal keys: equal weights, the output is the mean of the values.
  auto same_keys = torch::ones({1, 3, 2});
  auto values = torch::tensor({1.0f, 2.0f, 6.0f}).reshape({1, 3, 1});
  CHECK_THAT(torch::scaled_dot_product_attention(q, same_keys, values), AllClose(torch::full({1, 1, 1}, 3.0), 1e-5, 1e-5));
  // Drawn queries, keys and values with a drawn scale given explicitly: the output and the weights
  // of the oracle (scores, softmax, weighted sum in plain loops).
  const int64_t L = random_int(1, 4), S = random_int(2, 5), E = random_int(1, 4);
  auto drawn_q = random_tensor({1, L, E}), drawn_k = random_tensor({1, S, E}), drawn_v = random_tensor({1, S, 2});
  const double drawn_scale = static_cast<double>(random_int(1, 8)) / 4;
  const Attention expected = attention_oracle(drawn_q, drawn_k, drawn_v, {}, drawn_scale);
  CHECK_THAT(torch::scaled_dot_product_attention(drawn_q, drawn_k, drawn_v, {}, 0.0, false, drawn_scale).to(torch::kDouble),
             AllClose(expected.output, 1e-4, 1e-5));
  auto drawn_weights =
      std::get<1>(torch::native::scaled_dot_product_attention_math(drawn_q, drawn_k, drawn_v, {}, 0.0, false, drawn_scale));
  CHECK_THAT(drawn_weights.to(torch::kDouble), AllClose(expected.weights, 1e-4, 1e-6));
}

TEST_CASE("attention matches the formula in double precision", "[points=14][attention][formula]") {
  const int64_t B = random_int(1, 3), L = random_int(2, 6), S = random_int(2, 7), E = random_int(2, 8),
                Ev = random_int(1, 5);
  auto q = random_tensor({B, L, E}), k = random_tensor({B, S, E}), v = random_tensor({B, S, Ev});
  const double scale = 1.0 / std::sqrt(static_cast<double>(E));
  const Attention expected = attention_oracle(q, k, v, {}, scale);
  auto out = torch::scaled_dot_product_attention(q, k, v);
  CHECK(out.sizes().vec() == Sizes{B, L, Ev});
  CHECK_THAT(out.to(torch::kDouble), AllClose(expected.output, 1e-4, 1e-5));
  CHECK_THAT(weights_of(q, k, v).to(torch::kDouble), AllClose(expected.weights, 1e-4, 1e-6));
  // In double the result agrees to rounding.
  auto qd = q.to(torch::kDouble), kd = k.to(torch::kDouble), vd = v.to(torch::kDouble);
  CHECK_THAT(torch::scaled_dot_product_attention(qd, kd, vd), AllClose(expected.output, 1e-10, 1e-12));
  // Batch dims broadcast: one (L, E) query set against B key sets, and (2, B) batches.
  const Attention shared = attention_oracle(q[0].unsqueeze(0).expand({B, L, E}).contiguous(), k, v, {}, scale);
  CHECK_THAT(F::scaled_dot_product_attention(qd[0], kd, vd), AllClose(shared.output, 1e-10, 1e-12));
  auto four_d = torch::scaled_dot_product_attention(qd.unsqueeze(0).expand({2, B, L, E}), kd, vd);
  CHECK(four_d.sizes().vec() == Sizes{2, B, L, Ev});
  CHECK_THAT(four_d[1], AllClose(expected.output, 1e-10, 1e-12));
}

TEST_CASE("the scale is 1/sqrt(E) unless given", "[points=6][attention][formula]") {
  // E = 16: 1 / sqrt(16) = 1/4, which neither 1 nor 1/16 nor 2/E gives.
  auto q = random_tensor({2, 3, 16}, -1, 1), k = random_tensor({2, 4, 16}, -1, 1), v = random_tensor({2, 4, 3});
  {
    // Whatever else the function does, the scale multiplies the scores: queries twice as large with
    // half the scale give the same scores, so the same output. Nothing but the scale decides this check.
    LABEL_CHECKS("the scale multiplies the scores");
    CHECK_THAT(torch::scaled_dot_product_attention(q * 2, k, v, {}, 0.0, false, 0.35),
               AllClose(torch::scaled_dot_product_attention(q, k, v, {}, 0.0, false, 0.7), 1e-5, 1e-6));
  }
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v).to(torch::kDouble),
             AllClose(attention_oracle(q, k, v, {}, 0.25).output, 1e-4, 1e-5));
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, {}, 0.0, false, 0.7).to(torch::kDouble),
             AllClose(attention_oracle(q, k, v, {}, 0.7).output, 1e-4, 1e-5));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: masks
// ---------------------------------------------------------------------------------------------

TEST_CASE("causal attention: later tokens never change earlier outputs", "[points=10][attention][mask]") {
  const int64_t B = random_int(1, 3), L = random_int(4, 8), E = random_int(2, 6), cut = random_int(1, L - 2);
  auto x = random_tensor({B, L, E});
  auto out = torch::scaled_dot_product_attention(x, x, x, {}, 0.0, /*is_causal=*/true);
  // Change every token after position `cut`: outputs 0..cut must not move at all.
  auto changed = x.clone();
  changed.index_put_({torch::indexing::Slice(), torch::indexing::Slice(cut + 1, torch::indexing::None)},
                     random_tensor({B, L - cut - 1, E}, 3, 5));
  auto out_changed = torch::scaled_dot_product_attention(changed, changed, changed, {}, 0.0, true);
  using torch::indexing::Slice;
  CHECK_THAT(out_changed.index({Slice(), Slice(0, cut + 1)}), AllClose(out.index({Slice(), Slice(0, cut + 1)}), 0, 0));
  CHECK_FALSE(out_changed.index({Slice(), Slice(cut + 1, torch::indexing::None)})
                  .allclose(out.index({Slice(), Slice(cut + 1, torch::indexing::None)})));
  // Against the formula: query i sees keys 0..i.
  std::vector<double> added(B * L * L);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < L; ++j) added[(b * L + i) * L + j] = j > i ? -kInf : 0.0;
  const double scale = 1.0 / std::sqrt(static_cast<double>(E));
  CHECK_THAT(out.to(torch::kDouble), AllClose(attention_oracle(x, x, x, added, scale).output, 1e-4, 1e-5));
  // The first query sees only the first key: weight exactly 1 there.
  auto weights = weights_of(x, x, x, {}, true);
  CHECK_THAT(weights.select(1, 0).select(1, 0), AllClose(torch::ones({B}), 0, 1e-6));
  // L != S: top-left aligned, query i sees keys 0..i (PyTorch's tril of ones(L, S)).
  auto q3 = random_tensor({1, 3, E}), k5 = random_tensor({1, 5, E}), v5 = random_tensor({1, 5, 2});
  std::vector<double> added35(15);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 5; ++j) added35[i * 5 + j] = j > i ? -kInf : 0.0;
  CHECK_THAT(torch::scaled_dot_product_attention(q3, k5, v5, {}, 0.0, true).to(torch::kDouble),
             AllClose(attention_oracle(q3, k5, v5, added35, scale).output, 1e-4, 1e-5));
}

TEST_CASE("a boolean mask says which pairs take part", "[points=10][attention][mask]") {
  const int64_t B = random_int(1, 3), L = random_int(2, 6), S = random_int(3, 7), E = random_int(2, 6);
  auto q = random_tensor({B, L, E}), k = random_tensor({B, S, E}), v = random_tensor({B, S, 3});
  const double scale = 1.0 / std::sqrt(static_cast<double>(E));
  // (L, S): one mask for every batch entry; true = query i may attend to key j.
  auto keep = random_keep_mask(L, S);
  const Attention expected = attention_oracle(q, k, v, added_from_keep(keep, B, L, S), scale);
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, keep).to(torch::kDouble),
             AllClose(expected.output, 1e-4, 1e-5));
  auto weights = weights_of(q, k, v, keep);
  CHECK_THAT(weights.to(torch::kDouble), AllClose(expected.weights, 1e-4, 1e-6));
  // (B, L, S): a mask per batch entry.
  std::vector<torch::Tensor> masks;
  for (int64_t b = 0; b < B; ++b) masks.push_back(random_keep_mask(L, S));
  auto per_batch = torch::stack(masks);
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, per_batch).to(torch::kDouble),
             AllClose(attention_oracle(q, k, v, added_from_keep(per_batch, B, L, S), scale).output, 1e-4, 1e-5));
  // All true is no mask at all.
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, torch::ones({L, S}, torch::kBool)),
             AllClose(torch::scaled_dot_product_attention(q, k, v), 1e-6, 1e-6));
}

TEST_CASE("a float mask is added to the scores", "[points=8][attention][mask]") {
  const int64_t B = random_int(1, 3), L = random_int(2, 5), S = random_int(2, 6), E = random_int(2, 6);
  auto q = random_tensor({B, L, E}), k = random_tensor({B, S, E}), v = random_tensor({B, S, 2});
  const double scale = 1.0 / std::sqrt(static_cast<double>(E));
  // A bias, not only 0 / -inf: it shifts the scores before the softmax.
  auto bias = random_tensor({L, S}, -1, 1);
  std::vector<double> added(B * L * S);
  const std::vector<double> bias_values = values_of(bias);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t i = 0; i < L * S; ++i) added[b * L * S + i] = bias_values[i];
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, bias).to(torch::kDouble),
             AllClose(attention_oracle(q, k, v, added, scale).output, 1e-4, 1e-5));
  // -inf removes a pair, 0 keeps it: the same as the boolean mask.
  auto keep = random_keep_mask(L, S);
  auto additive = torch::zeros({L, S}).masked_fill(keep == false, -kInf);
  CHECK_THAT(torch::scaled_dot_product_attention(q, k, v, additive),
             AllClose(torch::scaled_dot_product_attention(q, k, v, keep), 1e-6, 1e-6));
  auto weights = weights_of(q, k, v, additive);
  CHECK((weights.masked_fill(keep, 0) == 0).all().item<bool>());  // no weight where keep is false
  CHECK_THAT(weights.sum(-1), AllClose(torch::ones({B, L}), 1e-5, 1e-5));
}

TEST_CASE("a query with no key to attend to gets zero weights", "[points=6][attention][mask]") {
  const int64_t L = 3, S = 4;
  auto q = random_tensor({2, L, 3}), k = random_tensor({2, S, 3}), v = random_tensor({2, S, 2});
  auto keep = random_keep_mask(L, S);
  const int64_t blind = random_int(0, L - 1);
  keep[blind] = false;  // query `blind` may see nothing
  auto out = torch::scaled_dot_product_attention(q, k, v, keep);
  CHECK_THAT(out.select(1, blind), AllClose(torch::zeros({2, 2}), 0, 0));  // zeros, not NaN
  const Attention expected = attention_oracle(q, k, v, added_from_keep(keep, 2, L, S), 1 / std::sqrt(3.0));
  CHECK_THAT(out.to(torch::kDouble), AllClose(expected.output, 1e-4, 1e-5));
  // The gradient through such a row is zero, not NaN.
  auto qd = q.to(torch::kDouble).requires_grad_();
  torch::scaled_dot_product_attention(qd, k.to(torch::kDouble), v.to(torch::kDouble), keep).sum().backward();
  CHECK_THAT(qd.grad().select(1, blind), AllClose(torch::zeros({2, 3}, torch::kDouble), 0, 0));
  CHECK((qd.grad().abs() < kInf).all().item<bool>());  // no NaN, no infinity
}

TEST_CASE("attention is permutation equivariant", "[points=6][attention][property]") {
  const int64_t L = random_int(3, 6), S = random_int(3, 6), E = random_int(2, 5);
  auto q = random_tensor({1, L, E}), k = random_tensor({1, S, E}), v = random_tensor({1, S, 3});
  auto out = torch::scaled_dot_product_attention(q, k, v);
  // Reordering the queries reorders the outputs the same way.
  auto reversed_queries = torch::arange(L - 1, -1, -1);
  CHECK_THAT(torch::scaled_dot_product_attention(q.index_select(1, reversed_queries), k, v),
             AllClose(out.index_select(1, reversed_queries), 1e-5, 1e-6));
  // Reordering the keys and values together changes nothing: attention is a weighted set, not a sequence.
  std::vector<int64_t> order(S);
  const int64_t shift = random_int(1, S - 1);  // a rotation: every key moves
  for (int64_t j = 0; j < S; ++j) order[j] = (j + shift) % S;
  auto shuffle = torch::tensor(order);
  CHECK_THAT(torch::scaled_dot_product_attention(q, k.index_select(1, shuffle), v.index_select(1, shuffle)),
             AllClose(out, 1e-5, 1e-6));
}

TEST_CASE("attention gradients match central differences", "[points=10][attention][gradients]") {
  const int64_t L = random_int(2, 4), S = random_int(2, 4), E = random_int(2, 4);
  auto q = random_tensor({2, L, E}, -1, 1, torch::kDouble).requires_grad_();
  auto k = random_tensor({2, S, E}, -1, 1, torch::kDouble).requires_grad_();
  auto v = random_tensor({2, S, 3}, -1, 1, torch::kDouble).requires_grad_();
  auto keep = random_keep_mask(L, S);
  auto projection = random_tensor({2, L, 3}, -1, 1, torch::kDouble);
  auto loss = [&](bool causal) {
    auto out = causal ? torch::scaled_dot_product_attention(q, k, v, {}, 0.0, true)
                      : torch::scaled_dot_product_attention(q, k, v, keep);
    return (out * projection).sum();
  };
  for (bool causal : {false, true}) {
    INFO("is_causal " << causal);
    for (auto* t : {&q, &k, &v}) t->mutable_grad() = torch::Tensor();
    loss(causal).backward();
    auto value_of_loss = [&] { return loss(causal).item<double>(); };
    CHECK_THAT(q.grad(), AllClose(central_differences(value_of_loss, q.detach()), 1e-5, 1e-7));
    CHECK_THAT(k.grad(), AllClose(central_differences(value_of_loss, k.detach()), 1e-5, 1e-7));
    CHECK_THAT(v.grad(), AllClose(central_differences(value_of_loss, v.detach()), 1e-5, 1e-7));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson sections 6-7: heads and nn::MultiheadAttention
// ---------------------------------------------------------------------------------------------

TEST_CASE("split_heads gives each head its slice of features", "[points=6][heads]") {
  const int64_t L = random_int(2, 4), N = random_int(2, 3), H = random_int(2, 4), D = random_int(2, 3);  // all > 1: every layout mistake shows
  auto x = random_tensor({L, N, H * D});
  auto heads = torch::native::split_heads(x, H);
  REQUIRE(heads.sizes().vec() == Sizes{N, H, L, D});
  const std::vector<double> in = values_of(x), out = values_of(heads);
  int mismatches = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d)
          mismatches += out[((n * H + h) * L + l) * D + d] != in[(l * N + n) * H * D + h * D + d];
  CHECK(mismatches == 0);  // out[n][h][l][d] == x[l][n][h D + d]
}

TEST_CASE("merge_heads undoes split_heads", "[points=6][heads]") {
  const int64_t L = random_int(2, 4), N = random_int(2, 3), H = random_int(2, 4), D = random_int(2, 3);  // all > 1: every layout mistake shows
  auto heads = random_tensor({N, H, L, D});
  auto merged = torch::native::merge_heads(heads);
  REQUIRE(merged.sizes().vec() == Sizes{L, N, H * D});
  const std::vector<double> in = values_of(heads), out = values_of(merged);
  int mismatches = 0;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d)
          mismatches += out[(l * N + n) * H * D + h * D + d] != in[((n * H + h) * L + l) * D + d];
  CHECK(mismatches == 0);  // merged[l][n][h D + d] == heads[n][h][l][d]
  auto x = random_tensor({L, N, H * D});
  CHECK_THAT(torch::native::merge_heads(torch::native::split_heads(x, H)), AllClose(x, 0, 0));
}

TEST_CASE("MultiheadAttention matches the formula with its own weights", "[points=10][heads][module]") {
  const int64_t H = random_int(2, 3), D = random_int(2, 3), E = H * D, L = random_int(2, 5), N = random_int(1, 2);
  torch::nn::MultiheadAttention attention(torch::nn::MultiheadAttentionOptions(E, H));
  {
    torch::NoGradGuard no_grad;
    attention->in_proj_weight.copy_(random_tensor({3 * E, E}, -1, 1));
    attention->in_proj_bias.copy_(random_tensor({3 * E}, -1, 1));
    attention->out_proj->weight.copy_(random_tensor({E, E}, -1, 1));
    attention->out_proj->bias.copy_(random_tensor({E}, -1, 1));
  }
  auto x = random_tensor({L, N, E});
  // Causal float mask and one padded key (the last) in batch entry 0.
  auto causal = torch::zeros({L, L});
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = i + 1; j < L; ++j) causal[i][j] = -kInf;
  auto padding = torch::zeros({N, L}, torch::kBool);
  padding[0][L - 1] = true;
  auto [output, weights] = attention->forward(x, x, x, padding, true, causal);
  REQUIRE(output.sizes().vec() == Sizes{L, N, E});
  REQUIRE(weights.sizes().vec() == Sizes{N, L, L});

  // The oracle, head by head: q = x W_q^T + b_q, head h uses features h D .. h D + D - 1.
  const std::vector<double> xs = values_of(x), w_in = values_of(attention->in_proj_weight),
                            b_in = values_of(attention->in_proj_bias), w_out = values_of(attention->out_proj->weight),
                            b_out = values_of(attention->out_proj->bias);
  auto project = [&](int64_t part, int64_t l, int64_t n, int64_t feature) {
    double sum = b_in[part * E + feature];
    for (int64_t e = 0; e < E; ++e) sum += w_in[(part * E + feature) * E + e] * xs[(l * N + n) * E + e];
    return sum;
  };
  std::vector<double> concat(L * N * E), mean_weights(N * L * L, 0.0), expected(L * N * E);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t h = 0; h < H; ++h) {
      std::vector<double> q(L * D), k(L * D), v(L * D), added(L * L);
      for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d) {
          q[l * D + d] = project(0, l, n, h * D + d);
          k[l * D + d] = project(1, l, n, h * D + d);
          v[l * D + d] = project(2, l, n, h * D + d);
        }
      for (int64_t i = 0; i < L; ++i)
        for (int64_t j = 0; j < L; ++j) added[i * L + j] = (j > i || (n == 0 && j == L - 1)) ? -kInf : 0.0;
      const Attention head = attention_oracle(doubles(q, {1, L, D}), doubles(k, {1, L, D}), doubles(v, {1, L, D}),
                                              added, 1.0 / std::sqrt(static_cast<double>(D)));
      const std::vector<double> head_out = values_of(head.output), head_weights = values_of(head.weights);
      for (int64_t l = 0; l < L; ++l)
        for (int64_t d = 0; d < D; ++d) concat[(l * N + n) * E + h * D + d] = head_out[l * D + d];
      for (int64_t i = 0; i < L * L; ++i) mean_weights[n * L * L + i] += head_weights[i] / H;
    }
  }
  for (int64_t l = 0; l < L; ++l)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < E; ++o) {
        double sum = b_out[o];
        for (int64_t e = 0; e < E; ++e) sum += w_out[o * E + e] * concat[(l * N + n) * E + e];
        expected[(l * N + n) * E + o] = sum;
      }
  CHECK_THAT(output.to(torch::kDouble), AllClose(doubles(expected, {L, N, E}), 1e-4, 1e-4));
  CHECK_THAT(weights.to(torch::kDouble), AllClose(doubles(mean_weights, {N, L, L}), 1e-4, 1e-5));
}
