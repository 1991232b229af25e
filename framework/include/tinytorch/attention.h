#pragma once
// Scaled dot-product attention (module 12), in PyTorch 2.x's spelling (LibTorch 1.13 has none):
//
//   Tensor out = torch::scaled_dot_product_attention(q, k, v);                  // q (*, L, E), k (*, S, E), v (*, S, Ev)
//   Tensor out = torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true);
//   Tensor out = F::scaled_dot_product_attention(q, k, v, keep);                // keep: kBool, true = may attend
//
// out (*, L, Ev) = softmax(q k^T * scale + mask) v, scale = 1 / sqrt(E) unless given. The batch dims
// (*) broadcast as in matmul. A kBool attn_mask says which (query, key) pairs take part (true); any
// other floating mask is added to the scores (0 keeps a pair, -inf removes it). is_causal lets query
// i see keys 0..i only (top-left aligned when L != S) and cannot be combined with attn_mask.
// A query that may attend to no key at all gets all-zero weights and a zero output (PyTorch >= 2.5;
// a plain softmax would give NaN). dropout_p drops weights (and rescales the rest) whenever it is
// above 0: the function has no training flag, as in PyTorch; nn::MultiheadAttention passes 0 in eval.
//
// Memory: the (*, L, S) score and weight matrices are what attention costs: 4 L S bytes each per
// batch entry and head in float, whatever E is (lesson 12, section 5).
#include <optional>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const std::optional<Tensor>& attn_mask = std::nullopt, double dropout_p = 0.0,
                                    bool is_causal = false, std::optional<double> scale = std::nullopt);

namespace native {

// ---- Module 12's learner code (src/12_attention/attention_core.cpp) ----
// The attention itself, on inputs the given code has checked (PyTorch's _scaled_dot_product_attention_math):
// returns (output (*, L, Ev), weights (*, L, S)). attn_mask is undefined when there is none.
std::tuple<Tensor, Tensor> scaled_dot_product_attention_math(const Tensor& query, const Tensor& key,
                                                             const Tensor& value, const Tensor& attn_mask,
                                                             double dropout_p, bool is_causal, double scale);
// (L, N, E) -> (N, num_heads, L, E / num_heads): head h gets features h * E / num_heads ... (h + 1) * E / num_heads - 1.
Tensor split_heads(const Tensor& x, int64_t num_heads);
// The inverse: (N, H, L, D) -> (L, N, H * D).
Tensor merge_heads(const Tensor& heads);

}  // namespace native
}  // namespace tinytorch
