// Module 12 (Attention): the attention itself, and the reshapes that run it on many heads at once.
// The given code (attention.cpp) has checked the inputs with PyTorch's messages: query (*, L, E),
// key (*, S, E) and value (*, S, Ev) share a floating dtype, their batch dims (*) broadcast, the
// mask (if any) broadcasts to (*, L, S) and is kBool or floating, is_causal and a mask never come
// together, and `scale` is already worked out (1 / sqrt(E) unless the caller gave one).
// Everything here is made of tensor ops that already have gradients (matmul, transpose, mul,
// masked_fill, where, softmax, view, permute): write no loops and no backward.
#include <cmath>
#include <limits>
#include <tuple>

#include "tinytorch/activations.h"
#include "tinytorch/attention.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"

namespace tinytorch {
namespace native {

// TODO: scaled_dot_product_attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale)
//   -> {output (*, L, Ev), weights (*, L, S)}, in query's dtype: section 3's scaled dot-product
//   attention, with the scores multiplied by `scale` as given. Each row of weights (one query) sums
//   to 1 over the keys, except as the masks below say (section 4, PyTorch 2.x's conventions):
//   - is_causal: query i sees keys 0..i only.
//   - a kBool attn_mask: true = the pair takes part; a false pair gets weight exactly 0.
//   - any other attn_mask: added to the scores before the softmax (0 keeps, -inf removes, or a bias).
//   A query that may see no key gets all-zero weights and output, with a finite gradient (PyTorch
//   2.5+), not NaN. When dropout_p > 0, the weights go through tinytorch::dropout(weights,
//   dropout_p, true). Differentiable through autograd (section 5): tensor ops only.
//   Example: one query [1, 0], keys [[1, 0], [0, 1]], values [[10], [20]]: with scale 1, weights
//   [0.731, 0.269] and output [12.69]; with scale 1/sqrt(2), weights [0.670, 0.330].
std::tuple<Tensor, Tensor> scaled_dot_product_attention_math(const Tensor& query, const Tensor& key,
                                                             const Tensor& value, const Tensor& attn_mask,
                                                             double dropout_p, bool is_causal, double scale) {
  // BEGIN SOLUTION name="tinytorch::native::scaled_dot_product_attention_math" lesson="3. Scaled dot-product attention"
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  Tensor scores = query.matmul(key.transpose(-2, -1)) * scale;
  if (is_causal) {
    const int64_t query_count = scores.size(-2), key_count = scores.size(-1);
    // future[i][j]: key j comes after query i. Added as a small (L, S) bias of 0 / -inf: one
    // broadcast add over the scores costs less than a masked_fill of the whole (*, L, S) tensor.
    const Tensor future = arange(key_count).unsqueeze(0) > arange(query_count).unsqueeze(1);
    scores = scores + zeros({query_count, key_count}, scores.options()).masked_fill(future, minus_infinity);
  }
  Tensor nothing_to_see;  // rows where every key is masked; only an attn_mask can make one
  if (attn_mask.defined()) {
    scores = attn_mask.scalar_type() == kBool ? where(attn_mask, scores, minus_infinity) : scores + attn_mask;
    nothing_to_see = scores.detach().amax({-1}, /*keepdim=*/true) == minus_infinity;
    // Give such rows finite scores (no NaN in the softmax or its gradient); their weights are zeroed below.
    if (nothing_to_see.any().item<bool>()) scores = scores.masked_fill(nothing_to_see, 0.0);
    else nothing_to_see = Tensor();
  }
  Tensor weights = scores.softmax(-1);
  if (nothing_to_see.defined()) weights = weights.masked_fill(nothing_to_see, 0.0);
  if (dropout_p > 0) weights = dropout(weights, dropout_p, /*train=*/true);
  return {weights.matmul(value), weights};
  // END SOLUTION
}

// TODO: split_heads(x (L, N, E), num_heads H) -> (N, H, L, D) with D = E / H (section 6): head h
//   gets features h * D .. h * D + D - 1 of every position, in order (the lesson's formula). A view
//   of x is enough; E is divisible by H (checked by the caller).
Tensor split_heads(const Tensor& x, int64_t num_heads) {
  // BEGIN SOLUTION name="tinytorch::native::split_heads" lesson="6. Many heads at once"
  const int64_t length = x.size(0), batch = x.size(1), head_dim = x.size(2) / num_heads;
  return x.reshape({length, batch, num_heads, head_dim}).permute({1, 2, 0, 3});
  // END SOLUTION
}

// TODO: merge_heads(heads (N, H, L, D)) -> (L, N, H * D), the exact inverse of split_heads: the
//   heads' outputs side by side, head 0's D features first (section 6). merge_heads(split_heads(x))
//   gives x back.
Tensor merge_heads(const Tensor& heads) {
  // BEGIN SOLUTION name="tinytorch::native::merge_heads" lesson="6. Many heads at once"
  const int64_t batch = heads.size(0), num_heads = heads.size(1), length = heads.size(2), head_dim = heads.size(3);
  return heads.permute({2, 0, 1, 3}).reshape({length, batch, num_heads * head_dim});
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
