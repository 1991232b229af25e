#pragma once
// Module 13 (Transformers): a decoder-only GPT. Not a LibTorch class (LibTorch has none): it lives
// under tinytorch::models and is built from LibTorch's pieces (nn::Linear, nn::LayerNorm,
// nn::Dropout, nn::Embedding) the way GPT-2 is.
//
//   models::GPT gpt(models::GPTOptions(/*vocab_size=*/65, /*max_seq_len=*/64).embed_dim(128).num_layers(4));
//   Tensor logits = gpt(tokens);                                        // tokens (B, S) kLong -> (B, S, V)
//   Tensor text = gpt->generate(prompt, /*max_new_tokens=*/50, /*temperature=*/0.8, /*top_k=*/10);
//   Tensor fast = gpt->generate(prompt, 50, 0.8, 10, /*use_kv_cache=*/true);   // module 18 (kv_cache.h)
//
// Architecture (pre-LN, GPT-2): token embedding + learned position embedding, then num_layers blocks
//   x = x + attn(ln1(x), causal_mask(S))      // every position sees itself and the past only
//   x = x + mlp(ln2(x))                       // mlp = Linear(d, r d) -> GELU -> Linear(r d, d)
// then a final LayerNorm and the LM head Linear(d, V, bias=false).
// Systems numbers (d = embed_dim, L = num_layers, V = vocab_size, T = max_seq_len, r = mlp_ratio):
//   parameters  V d + T d + L ((4 + 2 r) d^2 + (9 + r) d) + 2 d + d V
//   FLOPs of one forward over B x S tokens (matrix products only, 2 per multiply-add):
//     L (2 B S (4 + 2 r) d^2 + 4 B S^2 d) + 2 B S d V          (flops_per_forward)
// The learner writes GPTMLP::forward, GPTBlock::forward, sample_next_token and the loop of
// GPT::generate (gpt_learner.cpp); the rest is given (gpt.cpp).
#include <cstdint>
#include <iosfwd>

#include "tinytorch/models/kv_cache.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/container/modulelist.h"
#include "tinytorch/nn/modules/dropout.h"
#include "tinytorch/nn/modules/embedding.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/modules/normalization.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace models {

struct GPTOptions {
  GPTOptions(int64_t vocab_size, int64_t max_seq_len) : vocab_size_(vocab_size), max_seq_len_(max_seq_len) {}
  TORCH_ARG(int64_t, vocab_size);
  TORCH_ARG(int64_t, max_seq_len);  // the longest context; generate() crops to it
  TORCH_ARG(int64_t, embed_dim) = 128;
  TORCH_ARG(int64_t, num_layers) = 4;
  TORCH_ARG(int64_t, num_heads) = 4;
  TORCH_ARG(int64_t, mlp_ratio) = 4;  // the MLP's hidden width is mlp_ratio * embed_dim
  TORCH_ARG(double, dropout) = 0.1;
};

// (S, S) kBool, true where position i may NOT attend to position j (j > i): nn::MultiheadAttention's
// boolean attn_mask convention.
Tensor causal_mask(int64_t seq_len);

// Multi-head self-attention over a batch-first (B, S, d) input with one fused q/k/v projection; the
// attention itself is module 12's (native::scaled_dot_product_attention_math, split/merge_heads).
// attn_mask: undefined, or (S, S) kBool, true = masked out.
class CausalSelfAttentionImpl : public nn::Cloneable<CausalSelfAttentionImpl> {
 public:
  CausalSelfAttentionImpl(int64_t embed_dim, int64_t num_heads, double dropout = 0.0);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x, const Tensor& attn_mask = {});
  // Module 18: x (B, S_new, d) holds the positions cache.length() .. cache.length() + S_new - 1. Their
  // keys and values are appended to `layer`'s cache, and each new query attends to every cached key
  // up to its own position.  [module 18: yours, cached_generation.cpp]
  Tensor forward(const Tensor& x, KVCache& cache, int64_t layer);
  // The softmax-normalised attention of every head, (B, H, S, S): what forward mixes values with.
  Tensor attention_weights(const Tensor& x, const Tensor& attn_mask = {});

  int64_t embed_dim, num_heads;
  double dropout_p;
  nn::Linear qkv = nullptr;   // d -> 3 d: queries, keys and values side by side
  nn::Linear proj = nullptr;  // d -> d: mixes the heads back
  nn::Dropout resid_dropout = nullptr;  // after the projection; the weights' dropout is module 12's
};
TORCH_MODULE(CausalSelfAttention);

// Linear(d, hidden) -> GELU (exact, erf) -> Linear(hidden, d) -> Dropout.
class GPTMLPImpl : public nn::Cloneable<GPTMLPImpl> {
 public:
  GPTMLPImpl(int64_t embed_dim, int64_t hidden_dim, double dropout = 0.0);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x);  // [module 13: yours]

  int64_t embed_dim, hidden_dim;
  double dropout_p;
  nn::Linear fc = nullptr, proj = nullptr;
  nn::Dropout dropout = nullptr;
};
TORCH_MODULE(GPTMLP);

// One pre-LN block: x + attn(ln1(x), causal mask), then + mlp(ln2(.)).
class GPTBlockImpl : public nn::Cloneable<GPTBlockImpl> {
 public:
  explicit GPTBlockImpl(const GPTOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x);  // (B, S, d) -> (B, S, d)  [module 13: yours]
  // The same block on new positions only, the attention reading and extending `layer`'s cache (module 18).
  Tensor forward(const Tensor& x, KVCache& cache, int64_t layer);

  GPTOptions options;
  nn::LayerNorm ln1 = nullptr;
  CausalSelfAttention attn = nullptr;
  nn::LayerNorm ln2 = nullptr;
  GPTMLP mlp = nullptr;
};
TORCH_MODULE(GPTBlock);

// The next token of every row of logits (B, V), as (B, 1) kLong: temperature 0 is greedy (argmax);
// otherwise logits / temperature, keeping only the top_k largest when top_k > 0, sampled from their
// softmax with torch::multinomial.  [module 13: yours]
Tensor sample_next_token(const Tensor& logits, double temperature = 1.0, int64_t top_k = 0);

class GPTImpl : public nn::Cloneable<GPTImpl> {
 public:
  explicit GPTImpl(const GPTOptions& options_);
  void reset() override;
  // Weights N(0, 0.02), biases 0, LayerNorms 1 and 0 (GPT-2's initialisation).
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  // tokens (B, S) kLong, S <= max_seq_len -> logits (B, S, vocab_size).
  Tensor forward(const Tensor& tokens);
  // Module 18: tokens (B, S_new) kLong at positions cache.length() .. cache.length() + S_new - 1 ->
  // logits (B, S_new, vocab_size), equal to the last S_new positions of forward() on every token so
  // far; their keys and values are appended to the cache and cache.length() grows by S_new. Throws
  // when the cache cannot hold S_new more positions or was made for another batch size or model.
  // [module 18: yours, cached_generation.cpp]
  Tensor forward(const Tensor& tokens, KVCache& cache);
  // An empty cache for this model: num_layers layers of (batch_size, num_heads, max_seq_len, head_dim).
  KVCache make_kv_cache(int64_t batch_size) const;

  // prompt (B, S0) kLong -> (B, S0 + max_new_tokens): one token at a time, each from the logits of the
  // last position given at most the last max_seq_len tokens, chosen by sample_next_token. Runs
  // without recording gradients and in whatever train/eval mode the model is in (call eval() first
  // for deterministic dropout-free output).  [module 13: the loop is yours]
  // use_kv_cache (module 18): prefill a KVCache with the prompt once, then run one token per step
  // (models::generate_with_kv_cache). Same tokens as without the cache; past max_seq_len tokens each
  // step recomputes the last max_seq_len tokens (learned positions are absolute, so the window cannot
  // slide inside the cache), as the uncached loop does.
  Tensor generate(const Tensor& prompt, int64_t max_new_tokens, double temperature = 1.0, int64_t top_k = 0,
                  bool use_kv_cache = false);

  // Every parameter's element count, summed.
  int64_t parameter_count() const;
  // The formula in the header comment: FLOPs of the matrix products of forward() on (batch, seq_len).
  double flops_per_forward(int64_t batch, int64_t seq_len) const;

  GPTOptions options;
  nn::Embedding token_embedding = nullptr;     // (V, d): row t is token t's vector
  nn::Embedding position_embedding = nullptr;  // (T, d): row s is added at position s
  nn::Dropout embed_dropout = nullptr;
  nn::ModuleList blocks = nullptr;  // num_layers GPTBlock
  nn::LayerNorm final_norm = nullptr;
  nn::Linear lm_head = nullptr;  // d -> V, no bias
};
TORCH_MODULE(GPT);

// What gpt->generate(prompt, max_new_tokens, temperature, top_k, /*use_kv_cache=*/true) runs after its
// checks: prefill a cache once, then one token per step.  [module 18: yours, cached_generation.cpp]
Tensor generate_with_kv_cache(GPTImpl& gpt, const Tensor& prompt, int64_t max_new_tokens, double temperature,
                              int64_t top_k);

}  // namespace models
}  // namespace tinytorch
