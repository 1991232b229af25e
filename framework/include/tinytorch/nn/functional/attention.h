#pragma once
// torch::nn::functional's attention (namespace F = torch::nn::functional;):
//   F::scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)   (tinytorch/attention.h)
//   F::multi_head_attention_forward(q, k, v, F::MultiheadAttentionForwardFuncOptions(
//       embed_dim, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p,
//       out_proj_weight, out_proj_bias).training(false))       -> (output (L, N, E), weights (N, L, S))
// nn::MultiheadAttention (tinytorch/nn/modules/attention.h) is this function with its own parameters.
#include <cstdint>
#include <optional>
#include <tuple>

#include "tinytorch/attention.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace functional {

inline Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                           const std::optional<Tensor>& attn_mask = std::nullopt,
                                           double dropout_p = 0.0, bool is_causal = false,
                                           std::optional<double> scale = std::nullopt) {
  return ::tinytorch::scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale);
}

// LibTorch 1.13's options, in its order. The masks: key_padding_mask (N, S), true (kBool) = that key is
// padding and no query attends to it; attn_mask (L, S) or (N * num_heads, L, S), a float mask added to the
// scores or a kBool one whose true entries are not attended (PyTorch's nn.MultiheadAttention convention,
// the opposite of scaled_dot_product_attention's kBool mask).
struct MultiheadAttentionForwardFuncOptions {
  MultiheadAttentionForwardFuncOptions(int64_t embed_dim_to_check, int64_t num_heads, Tensor in_proj_weight,
                                       Tensor in_proj_bias, Tensor bias_k, Tensor bias_v, bool add_zero_attn,
                                       double dropout_p, Tensor out_proj_weight, Tensor out_proj_bias);
  TORCH_ARG(int64_t, embed_dim_to_check);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(Tensor, in_proj_weight);
  TORCH_ARG(Tensor, in_proj_bias);
  TORCH_ARG(Tensor, bias_k);
  TORCH_ARG(Tensor, bias_v);
  TORCH_ARG(bool, add_zero_attn);
  TORCH_ARG(double, dropout_p);
  TORCH_ARG(Tensor, out_proj_weight);
  TORCH_ARG(Tensor, out_proj_bias);
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(Tensor, key_padding_mask) = {};
  TORCH_ARG(bool, need_weights) = true;
  TORCH_ARG(Tensor, attn_mask) = {};
  TORCH_ARG(bool, use_separate_proj_weight) = false;
  TORCH_ARG(Tensor, q_proj_weight) = {};
  TORCH_ARG(Tensor, k_proj_weight) = {};
  TORCH_ARG(Tensor, v_proj_weight) = {};
  TORCH_ARG(Tensor, static_k) = {};
  TORCH_ARG(Tensor, static_v) = {};
  TORCH_ARG(bool, average_attn_weights) = true;
};

// query (L, N, E), key (S, N, kdim), value (S, N, vdim) -> (output (L, N, E), weights): weights are
// (N, L, S) averaged over the heads, (N, num_heads, L, S) with average_attn_weights(false), undefined
// with need_weights(false).
std::tuple<Tensor, Tensor> multi_head_attention_forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                                        const MultiheadAttentionForwardFuncOptions& options);

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
