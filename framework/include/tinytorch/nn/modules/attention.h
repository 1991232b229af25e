#pragma once
// nn::MultiheadAttention (LibTorch 1.13's torch::nn::MultiheadAttention): num_heads attention heads
// of embed_dim / num_heads features each, run side by side on projections of (L, N, E) sequences.
//
//   nn::MultiheadAttention attention(nn::MultiheadAttentionOptions(64, 4));
//   auto [out, weights] = attention(x, x, x);          // x (L, N, 64): out (L, N, 64), weights (N, L, L)
//   auto [out2, w2] = attention->forward(q, k, v, key_padding_mask, /*need_weights=*/false, causal_mask);
//
// Parameters, named as LibTorch's: in_proj_weight (3E, E) (rows 0..E-1 project queries, then keys,
// then values) when kdim == vdim == embed_dim, else q_proj_weight (E, E), k_proj_weight (E, kdim),
// v_proj_weight (E, vdim); in_proj_bias (3E) with bias(true); out_proj, an nn::Linear(E, E);
// bias_k, bias_v (1, 1, E) with add_bias_kv(true). Initialised as LibTorch: xavier_uniform_ projections,
// zero biases (out_proj's weight keeps Linear's default), xavier_normal_ bias_k/bias_v.
// Parameter count with defaults: 4 E^2 + 4 E.
#include <cstdint>
#include <tuple>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/attention.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads);
  TORCH_ARG(int64_t, embed_dim);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(double, dropout) = 0.0;         // on the attention weights, in training mode
  TORCH_ARG(bool, bias) = true;             // in_proj_bias and out_proj's bias
  TORCH_ARG(bool, add_bias_kv) = false;     // a learned key and value appended to every sequence
  TORCH_ARG(bool, add_zero_attn) = false;   // a zero key and value appended after the projections
  TORCH_ARG(int64_t, kdim);                 // key features; embed_dim unless set
  TORCH_ARG(int64_t, vdim);                 // value features; embed_dim unless set
};

class MultiheadAttentionImpl : public Cloneable<MultiheadAttentionImpl> {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options_);

  // query (L, N, E), key (S, N, kdim), value (S, N, vdim) -> (output (L, N, E), weights (N, L, S)).
  // key_padding_mask (N, S): true = padding. attn_mask (L, S) or (N * num_heads, L, S): float, added
  // to the scores, or kBool, true = not attended. See F::multi_head_attention_forward.
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {}, bool average_attn_weights = true);

  void reset() override;
  void _reset_parameters();

  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim = true;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Tensor bias_k;
  Tensor bias_v;
  Linear out_proj = nullptr;
  Tensor q_proj_weight;
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  int64_t head_dim = 0;
};

TORCH_MODULE(MultiheadAttention);

}  // namespace nn
}  // namespace tinytorch
