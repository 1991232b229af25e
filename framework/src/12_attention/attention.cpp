// Module 12 (Attention), given: the checks and plumbing around the learner's attention
// (attention_core.cpp): torch::scaled_dot_product_attention checks its inputs with PyTorch 2.x's
// messages and calls native::scaled_dot_product_attention_math; F::multi_head_attention_forward
// projects queries, keys and values, splits them into heads, turns LibTorch's two masks into one
// additive mask, runs the same attention on every head at once, merges the heads and projects
// back; nn::MultiheadAttention holds its parameters as LibTorch 1.13 does.
#include <cmath>
#include <limits>
#include <vector>

#include "tinytorch/attention.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/functional/attention.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/attention.h"

namespace tinytorch {

namespace {

// The batch dims of q k^T: q's and k's leading dims broadcast together (as matmul does).
std::vector<int64_t> broadcast_batch(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x != y && x != 1 && y != 1) return {};
    out[i] = x == 1 ? y : x;
  }
  return out;
}

bool broadcasts_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    const int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    if (f != t && f != 1) return false;
  }
  return true;
}

}  // namespace

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const std::optional<Tensor>& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale) {
  TT_CHECK(query.defined() && key.defined() && value.defined(),
           "scaled_dot_product_attention: query, key and value must be defined tensors");
  TT_CHECK(query.dtype() == key.dtype() && query.dtype() == value.dtype(),
           "Expected query, key, and value to have the same dtype, but got query.dtype: ", query.dtype(),
           " key.dtype: ", key.dtype(), " and value.dtype: ", value.dtype(), " instead.");
  TT_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2,
           "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: ", query.dim(),
           " key.dim: ", key.dim(), " and value.dim: ", value.dim(), " instead.");
  TT_CHECK(query.is_floating_point(), "scaled_dot_product_attention: query, key and value must be floating point, ",
           "but got ", query.dtype(), "; convert them with .to(torch::kFloat)");
  TT_CHECK(query.size(-1) == key.size(-1),
           "scaled_dot_product_attention: query and key must have the same embedding size (their last dim), but got "
           "query ", query.sizes(), " and key ", key.sizes());
  TT_CHECK(key.size(-2) == value.size(-2),
           "scaled_dot_product_attention: key and value must have the same sequence length (dim -2), but got key ",
           key.sizes(), " and value ", value.sizes());
  const std::vector<int64_t> qk_batch = broadcast_batch(IntArrayRef(query.sizes().data(), query.dim() - 2),
                                                        IntArrayRef(key.sizes().data(), key.dim() - 2));
  TT_CHECK(!qk_batch.empty() || (query.dim() == 2 && key.dim() == 2),
           "scaled_dot_product_attention: the batch dims of query ", query.sizes(), " and key ", key.sizes(),
           " do not broadcast");
  TT_CHECK(dropout_p >= 0.0 && dropout_p <= 1.0, "dropout probability has to be between 0 and 1, but got ",
           dropout_p);
  Tensor mask;
  if (attn_mask.has_value() && attn_mask->defined()) {
    mask = *attn_mask;
    TT_CHECK(!is_causal, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
    TT_CHECK(mask.scalar_type() == kBool || mask.is_floating_point(),
             "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: ",
             mask.dtype(), " and  query.dtype: ", query.dtype(), " instead.");
    std::vector<int64_t> scores_sizes = qk_batch;
    scores_sizes.push_back(query.size(-2));
    scores_sizes.push_back(key.size(-2));
    TT_CHECK(broadcasts_to(mask.sizes(), scores_sizes), "scaled_dot_product_attention: attn_mask of size ",
             mask.sizes(), " does not broadcast to the scores' size ", IntArrayRef(scores_sizes),
             " (batch..., L, S): give it L rows (one per query) and S columns (one per key)");
  }
  const double resolved_scale = scale.has_value() ? *scale : 1.0 / std::sqrt(static_cast<double>(query.size(-1)));
  return std::get<0>(native::scaled_dot_product_attention_math(query, key, value, mask, dropout_p, is_causal,
                                                               resolved_scale));
}

namespace nn {
namespace functional {

MultiheadAttentionForwardFuncOptions::MultiheadAttentionForwardFuncOptions(
    int64_t embed_dim_to_check, int64_t num_heads, Tensor in_proj_weight, Tensor in_proj_bias, Tensor bias_k,
    Tensor bias_v, bool add_zero_attn, double dropout_p, Tensor out_proj_weight, Tensor out_proj_bias)
    : embed_dim_to_check_(embed_dim_to_check),
      num_heads_(num_heads),
      in_proj_weight_(std::move(in_proj_weight)),
      in_proj_bias_(std::move(in_proj_bias)),
      bias_k_(std::move(bias_k)),
      bias_v_(std::move(bias_v)),
      add_zero_attn_(add_zero_attn),
      dropout_p_(dropout_p),
      out_proj_weight_(std::move(out_proj_weight)),
      out_proj_bias_(std::move(out_proj_bias)) {}

namespace {

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  Tensor output = input.matmul(weight.t());
  return bias.defined() ? output + bias : output;
}

// A mask as an additive float mask: kBool true -> -inf (not attended), false -> 0; floats as they are.
Tensor additive_mask(const Tensor& mask, const Tensor& like) {
  if (mask.scalar_type() != kBool) return mask;
  return zeros(mask.sizes(), like.options()).masked_fill(mask, -std::numeric_limits<double>::infinity());
}

// `extra` zero columns on the right: the keys MultiheadAttention appends (bias_k, the zero key) are attended.
Tensor pad_keys(const Tensor& mask, int64_t extra) {
  if (extra == 0) return mask;
  std::vector<int64_t> sizes = mask.sizes().vec();
  sizes.back() = extra;
  return cat({mask, zeros(sizes, mask.options())}, -1);
}

}  // namespace

std::tuple<Tensor, Tensor> multi_head_attention_forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                                        const MultiheadAttentionForwardFuncOptions& options) {
  TT_CHECK(query.dim() == 3 && key.dim() == 3 && value.dim() == 3,
           "multi_head_attention_forward: expected query, key and value of shape (L, N, E), (S, N, kdim) and "
           "(S, N, vdim) (3-D, sequence first), but got query ", query.sizes(), ", key ", key.sizes(), " and value ",
           value.sizes(), "; an unbatched (L, E) sequence needs .unsqueeze(1)");
  const int64_t tgt_len = query.size(0), bsz = query.size(1), embed_dim = query.size(2);
  const int64_t num_heads = options.num_heads();
  TT_CHECK(embed_dim == options.embed_dim_to_check(), "was expecting embedding dimension of ",
           options.embed_dim_to_check(), ", but got ", embed_dim);
  TT_CHECK(num_heads > 0 && embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads");
  TT_CHECK(key.size(0) == value.size(0) && key.size(1) == value.size(1), "key shape ", key.sizes(),
           " does not match value shape ", value.sizes());
  TT_CHECK(key.size(1) == bsz, "multi_head_attention_forward: query has batch size ", bsz, " but key has ",
           key.size(1), " (dim 1 is the batch in the (L, N, E) layout)");
  const int64_t head_dim = embed_dim / num_heads;

  // 1. Project: q = query W_q^T + b_q, and so on; W_q is rows 0..E-1 of in_proj_weight.
  const Tensor& in_bias = options.in_proj_bias();
  auto bias_part = [&](int64_t i) {
    return in_bias.defined() ? in_bias.slice(0, i * embed_dim, (i + 1) * embed_dim) : Tensor();
  };
  Tensor q, k, v;
  if (options.use_separate_proj_weight()) {
    const Tensor &wq = options.q_proj_weight(), &wk = options.k_proj_weight(), &wv = options.v_proj_weight();
    TT_CHECK(wq.defined() && wk.defined() && wv.defined(),
             "use_separate_proj_weight is True but q_proj_weight, k_proj_weight or v_proj_weight is undefined");
    TT_CHECK(wq.sizes() == IntArrayRef({embed_dim, embed_dim}) && wk.sizes() == IntArrayRef({embed_dim, key.size(2)}) &&
                 wv.sizes() == IntArrayRef({embed_dim, value.size(2)}),
             "multi_head_attention_forward: q/k/v_proj_weight must be (E, E), (E, kdim), (E, vdim) = (", embed_dim,
             ", ", embed_dim, "), (", embed_dim, ", ", key.size(2), "), (", embed_dim, ", ", value.size(2),
             "), but got ", wq.sizes(), ", ", wk.sizes(), ", ", wv.sizes());
    q = linear(query, wq, bias_part(0));
    k = linear(key, wk, bias_part(1));
    v = linear(value, wv, bias_part(2));
  } else {
    const Tensor& w = options.in_proj_weight();
    TT_CHECK(w.defined() && w.sizes() == IntArrayRef({3 * embed_dim, embed_dim}),
             "multi_head_attention_forward: in_proj_weight must be (3 E, E) = (", 3 * embed_dim, ", ", embed_dim,
             "), but got ", w.defined() ? w.sizes() : IntArrayRef());
    TT_CHECK(key.size(2) == embed_dim && value.size(2) == embed_dim,
             "multi_head_attention_forward: key and value must have embed_dim = ", embed_dim,
             " features with in_proj_weight, but got key ", key.sizes(), " and value ", value.sizes(),
             "; for other sizes set MultiheadAttentionOptions' kdim and vdim");
    if (query.is_same(key) && key.is_same(value)) {
      // Self-attention: one product with all of in_proj_weight instead of three.
      const std::vector<Tensor> qkv = linear(query, w, in_bias).chunk(3, -1);
      q = qkv[0], k = qkv[1], v = qkv[2];
    } else {
      q = linear(query, w.slice(0, 0, embed_dim), bias_part(0));
      k = linear(key, w.slice(0, embed_dim, 2 * embed_dim), bias_part(1));
      v = linear(value, w.slice(0, 2 * embed_dim), bias_part(2));
    }
  }

  // 2. Learned bias key and value, appended to every sequence (add_bias_kv).
  const Tensor &bias_k = options.bias_k(), &bias_v = options.bias_v();
  TT_CHECK(bias_k.defined() == bias_v.defined(), "bias_k and bias_v must both be defined or both be undefined");
  int64_t appended_keys = 0;
  if (bias_k.defined()) {
    TT_CHECK(!options.static_k().defined(), "bias cannot be added to static key.");
    TT_CHECK(!options.static_v().defined(), "bias cannot be added to static value.");
    k = cat({k, bias_k.expand({1, bsz, embed_dim})}, 0);
    v = cat({v, bias_v.expand({1, bsz, embed_dim})}, 0);
    appended_keys += 1;
  }

  // 3. Heads: (S, N, E) -> (N, H, S, head_dim). LibTorch's static_k/v come as (N * H, S, head_dim).
  q = native::split_heads(q, num_heads);
  k = native::split_heads(k, num_heads);
  v = native::split_heads(v, num_heads);
  for (const Tensor* fixed : {&options.static_k(), &options.static_v()}) {
    if (!fixed->defined()) continue;
    TT_CHECK(fixed->dim() == 3 && fixed->size(0) == bsz * num_heads && fixed->size(2) == head_dim,
             "multi_head_attention_forward: static_k and static_v must be (N * num_heads, S, head_dim) = (",
             bsz * num_heads, ", S, ", head_dim, "), but got ", fixed->sizes());
  }
  if (options.static_k().defined()) k = options.static_k().view({bsz, num_heads, -1, head_dim});
  if (options.static_v().defined()) v = options.static_v().view({bsz, num_heads, -1, head_dim});
  TT_CHECK(k.size(2) == v.size(2), "multi_head_attention_forward: static_k and static_v have different lengths");
  const int64_t given_keys = k.size(2) - appended_keys;
  if (options.add_zero_attn()) {
    k = cat({k, zeros({bsz, num_heads, 1, head_dim}, k.options())}, 2);
    v = cat({v, zeros({bsz, num_heads, 1, head_dim}, v.options())}, 2);
    appended_keys += 1;
  }

  // 4. One additive mask, broadcastable to the scores (N, H, L, S).
  Tensor mask;
  if (options.attn_mask().defined()) {
    Tensor attn_mask = options.attn_mask();
    TT_CHECK(attn_mask.scalar_type() == kBool || attn_mask.is_floating_point(),
             "Only bool and floating types of attn_mask are supported, but got ", attn_mask.dtype());
    if (attn_mask.dim() == 2) {
      TT_CHECK(attn_mask.sizes() == IntArrayRef({tgt_len, given_keys}), "The shape of the 2D attn_mask is ",
               attn_mask.sizes(), ", but should be ", IntArrayRef({tgt_len, given_keys}), ".");
    } else if (attn_mask.dim() == 3) {
      TT_CHECK(attn_mask.sizes() == IntArrayRef({bsz * num_heads, tgt_len, given_keys}),
               "The shape of the 3D attn_mask is ", attn_mask.sizes(), ", but should be ",
               IntArrayRef({bsz * num_heads, tgt_len, given_keys}), ".");
      attn_mask = attn_mask.view({bsz, num_heads, tgt_len, given_keys});
    } else {
      TT_CHECK(false, "attn_mask's dimension ", attn_mask.dim(), " is not supported");
    }
    mask = pad_keys(additive_mask(attn_mask, q), appended_keys);
  }
  if (options.key_padding_mask().defined()) {
    const Tensor& padding = options.key_padding_mask();
    TT_CHECK(padding.sizes() == IntArrayRef({bsz, given_keys}), "expecting key_padding_mask shape of (", bsz, ", ",
             given_keys, "), but got ", padding.sizes());
    TT_CHECK(padding.scalar_type() == kBool || padding.is_floating_point(),
             "only bool and floating types of key_padding_mask are supported, but got ", padding.dtype());
    const Tensor padded = pad_keys(additive_mask(padding, q), appended_keys).view({bsz, 1, 1, -1});
    mask = mask.defined() ? mask + padded : padded;
  }

  // 5. Attention on every head at once, then back to (L, N, E) and the output projection.
  const double dropout_p = options.training() ? options.dropout_p() : 0.0;
  auto [heads, weights] = native::scaled_dot_product_attention_math(
      q, k, v, mask, dropout_p, /*is_causal=*/false, 1.0 / std::sqrt(static_cast<double>(head_dim)));
  const Tensor output = linear(native::merge_heads(heads), options.out_proj_weight(), options.out_proj_bias());
  if (!options.need_weights()) return {output, Tensor()};
  if (options.average_attn_weights()) weights = weights.sum({1}) / num_heads;
  return {output, weights};
}

}  // namespace functional

MultiheadAttentionOptions::MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
    : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions& options_)
    : Cloneable("torch::nn::MultiheadAttention"), options(options_) {
  MultiheadAttentionImpl::reset();
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(const Tensor& query, const Tensor& key,
                                                           const Tensor& value, const Tensor& key_padding_mask,
                                                           bool need_weights, const Tensor& attn_mask,
                                                           bool average_attn_weights) {
  auto func_options = functional::MultiheadAttentionForwardFuncOptions(
                          options.embed_dim(), options.num_heads(), in_proj_weight, in_proj_bias, bias_k, bias_v,
                          options.add_zero_attn(), options.dropout(), out_proj->weight, out_proj->bias)
                          .training(is_training())
                          .key_padding_mask(key_padding_mask)
                          .need_weights(need_weights)
                          .attn_mask(attn_mask)
                          .average_attn_weights(average_attn_weights);
  if (!_qkv_same_embed_dim) {
    func_options.use_separate_proj_weight(true)
        .q_proj_weight(q_proj_weight)
        .k_proj_weight(k_proj_weight)
        .v_proj_weight(v_proj_weight);
  }
  return functional::multi_head_attention_forward(query, key, value, func_options);
}

void MultiheadAttentionImpl::reset() {
  TT_CHECK(options.embed_dim() > 0 && options.num_heads() > 0 && options.kdim() > 0 && options.vdim() > 0,
           "MultiheadAttention: embed_dim, num_heads, kdim and vdim must be positive, but got embed_dim=",
           options.embed_dim(), ", num_heads=", options.num_heads(), ", kdim=", options.kdim(),
           ", vdim=", options.vdim());
  TT_CHECK(options.dropout() >= 0.0 && options.dropout() <= 1.0,
           "dropout probability has to be between 0 and 1, but got ", options.dropout());
  const int64_t embed_dim = options.embed_dim();
  _qkv_same_embed_dim = options.kdim() == embed_dim && options.vdim() == embed_dim;
  head_dim = embed_dim / options.num_heads();
  TT_CHECK(head_dim * options.num_heads() == embed_dim, "embed_dim must be divisible by num_heads");
  if (!_qkv_same_embed_dim) {
    q_proj_weight = register_parameter("q_proj_weight", empty({embed_dim, embed_dim}));
    k_proj_weight = register_parameter("k_proj_weight", empty({embed_dim, options.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", empty({embed_dim, options.vdim()}));
    register_parameter("in_proj_weight", {}, /*requires_grad=*/false);
  } else {
    in_proj_weight = register_parameter("in_proj_weight", empty({3 * embed_dim, embed_dim}));
    register_parameter("q_proj_weight", {}, /*requires_grad=*/false);
    register_parameter("k_proj_weight", {}, /*requires_grad=*/false);
    register_parameter("v_proj_weight", {}, /*requires_grad=*/false);
  }
  if (options.bias()) {
    in_proj_bias = register_parameter("in_proj_bias", empty({3 * embed_dim}));
  } else {
    register_parameter("in_proj_bias", {}, /*requires_grad=*/false);
  }
  out_proj = register_module("out_proj", Linear(LinearOptions(embed_dim, embed_dim).bias(options.bias())));
  if (options.add_bias_kv()) {
    bias_k = register_parameter("bias_k", empty({1, 1, embed_dim}));
    bias_v = register_parameter("bias_v", empty({1, 1, embed_dim}));
  } else {
    bias_k = Tensor();
    bias_v = Tensor();
  }
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  if (_qkv_same_embed_dim) {
    init::xavier_uniform_(in_proj_weight);
  } else {
    init::xavier_uniform_(q_proj_weight);
    init::xavier_uniform_(k_proj_weight);
    init::xavier_uniform_(v_proj_weight);
  }
  if (in_proj_bias.defined()) {
    init::constant_(in_proj_bias, 0.);
    init::constant_(out_proj->bias, 0.);
  }
  if (bias_k.defined()) init::xavier_normal_(bias_k);
  if (bias_v.defined()) init::xavier_normal_(bias_v);
}

}  // namespace nn
}  // namespace tinytorch
