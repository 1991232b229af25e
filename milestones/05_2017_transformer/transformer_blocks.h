#pragma once
// What milestone 05's parts use besides models::GPT: part 1's pre-LN transformer block built from
// YOUR modules (nn::MultiheadAttention, nn::LayerNorm, nn::Linear, GELU), the attention-entropy probe
// an attention-map picture (both parts) and the counted bigram baseline (parts 2 and 3).
//
// Layout: LibTorch's nn::MultiheadAttention takes (sequence, batch, embedding); the models here keep
// (batch, sequence, embedding) like the embeddings and transpose around the attention.
#include <tinytorch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../common/milestone_support.h"

namespace milestone {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The counted bigram baseline both parts 2 and 3 must beat: P(b | a) = (count(a, b) + k) / (count(a) + k V)
// from the training ids, its mean loss (nats) on every next id of the held-out sequences (the ids the
// model is scored on); the best of a few smoothing constants k, so the baseline is a strong one.
inline double bigram_loss(const std::vector<int64_t>& train, const std::vector<std::vector<int64_t>>& heldout,
                          int64_t vocabulary) {
  std::vector<double> pair_counts(static_cast<size_t>(vocabulary * vocabulary), 0.0), counts(vocabulary, 0.0);
  for (size_t i = 0; i + 1 < train.size(); ++i) {
    pair_counts[static_cast<size_t>(train[i] * vocabulary + train[i + 1])] += 1;
    counts[static_cast<size_t>(train[i])] += 1;
  }
  double best = INFINITY;
  for (const double k : {1.0, 0.3, 0.1, 0.03, 0.01}) {
    double total = 0;
    int64_t counted = 0;
    for (const auto& ids : heldout) {
      for (size_t i = 0; i + 1 < ids.size(); ++i, ++counted) {
        const double p = (pair_counts[static_cast<size_t>(ids[i] * vocabulary + ids[i + 1])] + k) /
                         (counts[static_cast<size_t>(ids[i])] + k * static_cast<double>(vocabulary));
        total -= std::log(p);
      }
    }
    best = std::min(best, total / static_cast<double>(counted));
  }
  return best;
}

// x + attention(LN(x)), then x + MLP(LN(x)): the pre-LN block of GPT-2.
struct BlockImpl : torch::nn::Module {
  BlockImpl(int64_t embed_dim, int64_t heads, int64_t hidden)
      : ln1(register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({embed_dim})))),
        attention(register_module("attention",
                                  torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(embed_dim, heads)))),
        ln2(register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({embed_dim})))),
        fc1(register_module("fc1", torch::nn::Linear(embed_dim, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, embed_dim))) {}

  // x: (N, L, E). `mask`: an (L, L) additive attention mask, or undefined for none. When `weights`
  // is given, it receives the attention weights per head, (N, heads, L, L).
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask, torch::Tensor* weights = nullptr) {
    const torch::Tensor normed = ln1(x).transpose(0, 1);  // (L, N, E)
    auto [attended, attention_weights] =
        attention->forward(normed, normed, normed, /*key_padding_mask=*/torch::Tensor(), /*need_weights=*/weights != nullptr, mask,
                  /*average_attn_weights=*/false);
    if (weights != nullptr) *weights = attention_weights;
    const torch::Tensor h = x + attended.transpose(0, 1);
    return h + fc2(torch::nn::functional::gelu(fc1(ln2(h))));
  }

  torch::nn::LayerNorm ln1;
  torch::nn::MultiheadAttention attention;
  torch::nn::LayerNorm ln2;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Block);

// The mean over rows i >= 1 (a row of length 1 has no choice) of each attention row's entropy
// divided by log(number of positions it may see): 1.0 for uniform attention, 0 for attention on
// one position. `weights`: (N, heads, L, L), rows summing to 1; `causal`: row i sees i + 1 positions.
inline double normalised_attention_entropy(const torch::Tensor& weights, bool causal) {
  const torch::Tensor w = weights.detach().to(torch::kFloat).contiguous();
  const int64_t rows = w.size(-2), columns = w.size(-1);
  const int64_t matrices = w.numel() / (rows * columns);
  const float* p = w.data_ptr<float>();
  double total = 0;
  int64_t counted = 0;
  for (int64_t m = 0; m < matrices; ++m) {
    for (int64_t i = causal ? 1 : 0; i < rows; ++i) {
      const int64_t visible = causal ? i + 1 : columns;
      double entropy = 0;
      for (int64_t j = 0; j < visible; ++j) {
        const double v = p[(m * rows + i) * columns + j];
        if (v > 0) entropy -= v * std::log(v);
      }
      total += entropy / std::log(static_cast<double>(visible));
      ++counted;
    }
  }
  return counted ? total / static_cast<double>(counted) : 1.0;
}

// An (L, L) attention map as an image panel, with its caption.
inline ImagePanel attention_panel(const torch::Tensor& map, const std::string& caption) {
  const torch::Tensor m = map.detach().to(torch::kFloat).contiguous();
  const float* p = m.data_ptr<float>();
  return {std::vector<float>(p, p + m.numel()), static_cast<int>(m.size(0)), static_cast<int>(m.size(1)), caption};
}

}  // namespace milestone
