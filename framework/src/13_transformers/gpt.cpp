// Module 13 (Transformers), the given half of the GPT: construction, initialisation, the attention,
// the embedding and head of forward, the checks of generate, and the parameter and FLOP counts. The
// learner writes the MLP, the block's residual wiring, sampling and the generation loop
// (gpt_learner.cpp).
#include <cmath>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "tinytorch/activations.h"
#include "tinytorch/attention.h"
#include "tinytorch/autograd.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/models/gpt.h"
#include "tinytorch/nn/init.h"

namespace tinytorch {
namespace models {

Tensor causal_mask(int64_t seq_len) {
  TT_CHECK(seq_len >= 0, "causal_mask: seq_len must be non-negative, but got ", seq_len);
  const Tensor positions = arange(seq_len, kLong);
  return positions.unsqueeze(0).gt(positions.unsqueeze(1));  // [i][j] = j > i
}

// ---- CausalSelfAttention ----

CausalSelfAttentionImpl::CausalSelfAttentionImpl(int64_t embed_dim_, int64_t num_heads_, double dropout)
    : embed_dim(embed_dim_), num_heads(num_heads_), dropout_p(dropout) {
  reset();
}

void CausalSelfAttentionImpl::reset() {
  TT_CHECK(num_heads > 0 && embed_dim > 0 && embed_dim % num_heads == 0, "embed_dim must be divisible by num_heads",
           " (got embed_dim=", embed_dim, ", num_heads=", num_heads, "): choose num_heads among embed_dim's divisors");
  qkv = register_module("qkv", nn::Linear(embed_dim, 3 * embed_dim));
  proj = register_module("proj", nn::Linear(embed_dim, embed_dim));
  resid_dropout = register_module("resid_dropout", nn::Dropout(dropout_p));
}

void CausalSelfAttentionImpl::pretty_print(std::ostream& stream) const {
  stream << "tinytorch::models::CausalSelfAttention(embed_dim=" << embed_dim << ", num_heads=" << num_heads
         << ", dropout=" << dropout_p << ")";
}

namespace {
// (output (B, S, d) before the output projection, weights (B, H, S, S)) by module 12's attention:
// the heads are split and merged by its split_heads / merge_heads, which work on (S, B, d).
std::tuple<Tensor, Tensor> attend(CausalSelfAttentionImpl& attention, const Tensor& x, const Tensor& attn_mask,
                                  double dropout_p) {
  const int64_t embed_dim = attention.embed_dim, num_heads = attention.num_heads;
  TT_CHECK(x.dim() == 3 && x.size(2) == embed_dim, "CausalSelfAttention: expected an input of shape (B, S, ",
           embed_dim, "), but got ", x.sizes());
  const int64_t seq = x.size(1), head_dim = embed_dim / num_heads;
  TT_CHECK(!attn_mask.defined() || (attn_mask.scalar_type() == kBool && attn_mask.dim() == 2 &&
                                    attn_mask.size(0) == seq && attn_mask.size(1) == seq),
           "CausalSelfAttention: attn_mask must be a (", seq, ", ", seq, ") bool tensor (true = masked), but got ",
           attn_mask.sizes(), " of ", attn_mask.scalar_type(), ": build it with models::causal_mask(", seq, ")");
  const std::vector<Tensor> qkv = attention.qkv->forward(x).transpose(0, 1).chunk(3, -1);  // 3 x (S, B, d)
  // true = masked here; module 12's attention adds a float mask: -inf where masked, 0 elsewhere.
  const Tensor additive_mask =
      attn_mask.defined() ? zeros({seq, seq}, x.options()).masked_fill(attn_mask, -INFINITY) : Tensor();
  auto [heads_out, weights] = native::scaled_dot_product_attention_math(
      native::split_heads(qkv[0], num_heads), native::split_heads(qkv[1], num_heads),
      native::split_heads(qkv[2], num_heads), additive_mask, dropout_p, /*is_causal=*/false,
      1.0 / std::sqrt(static_cast<double>(head_dim)));
  return {native::merge_heads(heads_out).transpose(0, 1), weights};
}
}  // namespace

Tensor CausalSelfAttentionImpl::attention_weights(const Tensor& x, const Tensor& attn_mask) {
  return std::get<1>(attend(*this, x, attn_mask, 0.0));
}

Tensor CausalSelfAttentionImpl::forward(const Tensor& x, const Tensor& attn_mask) {
  const Tensor mixed = std::get<0>(attend(*this, x, attn_mask, is_training() ? dropout_p : 0.0));
  return resid_dropout->forward(proj->forward(mixed));
}

// ---- GPTMLP ----

GPTMLPImpl::GPTMLPImpl(int64_t embed_dim_, int64_t hidden_dim_, double dropout)
    : embed_dim(embed_dim_), hidden_dim(hidden_dim_), dropout_p(dropout) {
  reset();
}

void GPTMLPImpl::reset() {
  fc = register_module("fc", nn::Linear(embed_dim, hidden_dim));
  proj = register_module("proj", nn::Linear(hidden_dim, embed_dim));
  dropout = register_module("dropout", nn::Dropout(dropout_p));
}

void GPTMLPImpl::pretty_print(std::ostream& stream) const {
  stream << "tinytorch::models::GPTMLP(embed_dim=" << embed_dim << ", hidden_dim=" << hidden_dim
         << ", dropout=" << dropout_p << ")";
}

// ---- GPTBlock ----

GPTBlockImpl::GPTBlockImpl(const GPTOptions& options_) : options(options_) { reset(); }

void GPTBlockImpl::reset() {
  const int64_t d = options.embed_dim();
  ln1 = register_module("ln1", nn::LayerNorm(nn::LayerNormOptions({d})));
  attn = register_module("attn", CausalSelfAttention(d, options.num_heads(), options.dropout()));
  ln2 = register_module("ln2", nn::LayerNorm(nn::LayerNormOptions({d})));
  mlp = register_module("mlp", GPTMLP(d, options.mlp_ratio() * d, options.dropout()));
}

void GPTBlockImpl::pretty_print(std::ostream& stream) const { stream << "tinytorch::models::GPTBlock"; }

// ---- GPT ----

GPTImpl::GPTImpl(const GPTOptions& options_) : options(options_) { reset(); }

void GPTImpl::reset() {
  const int64_t d = options.embed_dim();
  TT_CHECK(options.vocab_size() > 0, "GPTOptions: vocab_size must be positive, but got ", options.vocab_size());
  TT_CHECK(options.max_seq_len() > 0, "GPTOptions: max_seq_len must be positive, but got ", options.max_seq_len());
  TT_CHECK(options.num_layers() >= 0, "GPTOptions: num_layers must be non-negative, but got ", options.num_layers());
  TT_CHECK(options.mlp_ratio() > 0, "GPTOptions: mlp_ratio must be positive, but got ", options.mlp_ratio());
  TT_CHECK(d > 0 && options.num_heads() > 0 && d % options.num_heads() == 0,
           "GPTOptions: embed_dim must be divisible by num_heads (got embed_dim=", d,
           ", num_heads=", options.num_heads(), "): choose num_heads among embed_dim's divisors");
  token_embedding = register_module("token_embedding", nn::Embedding(options.vocab_size(), d));
  position_embedding = register_module("position_embedding", nn::Embedding(options.max_seq_len(), d));
  embed_dropout = register_module("embed_dropout", nn::Dropout(options.dropout()));
  blocks = register_module("blocks", nn::ModuleList());
  for (int64_t layer = 0; layer < options.num_layers(); ++layer) blocks->push_back(GPTBlock(options));
  final_norm = register_module("final_norm", nn::LayerNorm(nn::LayerNormOptions({d})));
  lm_head = register_module("lm_head", nn::Linear(nn::LinearOptions(d, options.vocab_size()).bias(false)));
  reset_parameters();
}

void GPTImpl::reset_parameters() {
  NoGradGuard no_grad;
  for (auto& named : named_parameters()) {
    const std::string& name = named.key();
    Tensor& p = named.value();
    const bool is_norm = name.find("ln") != std::string::npos || name.find("final_norm") != std::string::npos;
    const bool is_bias = name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0;
    if (is_norm && !is_bias) {
      nn::init::ones_(p);
    } else if (is_bias) {
      nn::init::zeros_(p);
    } else {
      nn::init::normal_(p, 0.0, 0.02);
    }
  }
}

void GPTImpl::pretty_print(std::ostream& stream) const {
  stream << "tinytorch::models::GPT(vocab_size=" << options.vocab_size() << ", max_seq_len=" << options.max_seq_len()
         << ", embed_dim=" << options.embed_dim() << ", num_layers=" << options.num_layers()
         << ", num_heads=" << options.num_heads() << ", mlp_ratio=" << options.mlp_ratio()
         << ", dropout=" << options.dropout() << ")";
}

Tensor GPTImpl::forward(const Tensor& tokens) {
  TT_CHECK(tokens.dim() == 2 && tokens.scalar_type() == kLong,
           "GPT::forward: expected tokens of shape (B, S) and dtype Long, but got ", tokens.sizes(), " of ",
           tokens.scalar_type(), ": pass token ids, e.g. torch::tensor({{1, 2, 3}}) (add a batch dim with unsqueeze(0))");
  const int64_t seq = tokens.size(1);
  TT_CHECK(seq <= options.max_seq_len(), "GPT::forward: a sequence of ", seq, " tokens is longer than max_seq_len=",
           options.max_seq_len(), ": crop it to the last ", options.max_seq_len(), " tokens or build a GPT with a larger max_seq_len");
  if (tokens.numel() > 0) {
    const int64_t low = tokens.min().item<int64_t>(), high = tokens.max().item<int64_t>();
    TT_CHECK(low >= 0 && high < options.vocab_size(), "GPT::forward: token ids must lie in [0, ",
             options.vocab_size(), "), but got ", low < 0 ? low : high, ": check the tokenizer's vocabulary size");
  }
  const Tensor positions = arange(seq, kLong);
  // (B, S, d) + (S, d), broadcast over the batch.
  Tensor x = embed_dropout->forward(token_embedding->forward(tokens) + position_embedding->forward(positions));
  for (const auto& block : *blocks) x = block->as<GPTBlockImpl>()->forward(x);
  return lm_head->forward(final_norm->forward(x));
}

int64_t GPTImpl::parameter_count() const {
  int64_t count = 0;
  for (const Tensor& p : parameters()) count += p.numel();
  return count;
}

double GPTImpl::flops_per_forward(int64_t batch, int64_t seq_len) const {
  const double b = static_cast<double>(batch), s = static_cast<double>(seq_len);
  const double d = static_cast<double>(options.embed_dim()), v = static_cast<double>(options.vocab_size());
  const double r = static_cast<double>(options.mlp_ratio()), layers = static_cast<double>(options.num_layers());
  const double per_layer = 2 * b * s * (4 + 2 * r) * d * d  // q/k/v, output projection, the MLP's two Linears
                           + 4 * b * s * s * d;              // q k^T and weights v, over all heads
  return layers * per_layer + 2 * b * s * d * v;             // + the LM head
}

}  // namespace models
}  // namespace tinytorch
