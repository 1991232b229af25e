// Module 18 (Memoization), lesson sections "3. Cached attention", "4. Positions and the cached
// forward" and "5. Cached generation": a GPT that computes the keys and values of each position once,
// keeps them in a KVCache, and so runs one new token per step instead of the whole context.
#include <cmath>
#include <tuple>
#include <vector>

#include "tinytorch/attention.h"
#include "tinytorch/autograd.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/models/gpt.h"
#include "tinytorch/models/kv_cache.h"

namespace tinytorch {
namespace models {

// TODO: the cached attention (section 3, "Cached attention"). x holds S_new NEW positions, start =
//   cache.length() .. start + S_new - 1 of their rows; q, k, v below are their queries, keys and
//   values, (B, H, S_new, head_dim). Result: heads_out (B, H, S_new, head_dim), each new query
//   attending over the keys and values of ALL start + S_new positions (this layer's cache plus k and
//   v, which this call stores in the cache), exactly as module 13's uncached forward attends at those
//   positions: module 12's native::scaled_dot_product_attention_math, scale 1 / sqrt(head_dim),
//   dropout_p in training and 0 in eval. Causality is by absolute position: the query at position
//   start + i sees the keys of positions 0 .. start + i and none later.
Tensor CausalSelfAttentionImpl::forward(const Tensor& x, KVCache& cache, int64_t layer) {
  TT_CHECK(x.dim() == 3 && x.size(2) == embed_dim, "CausalSelfAttention: expected an input of shape (B, S, ",
           embed_dim, "), but got ", x.sizes());
  TT_CHECK(cache.num_heads() == num_heads && cache.head_dim() == embed_dim / num_heads,
           "CausalSelfAttention: the cache holds ", cache.num_heads(), " heads of ", cache.head_dim(),
           " features, but this attention has ", num_heads, " of ", embed_dim / num_heads,
           ": make the cache for this model with gpt->make_kv_cache(batch_size)");
  // The new positions' queries, keys and values, split into heads as module 13's forward does.
  const std::vector<Tensor> qkv_new = qkv->forward(x).transpose(0, 1).chunk(3, -1);  // 3 x (S_new, B, d)
  const Tensor q = native::split_heads(qkv_new[0], num_heads);                       // (B, H, S_new, head_dim)
  const Tensor k = native::split_heads(qkv_new[1], num_heads);
  const Tensor v = native::split_heads(qkv_new[2], num_heads);
  Tensor heads_out;  // (B, H, S_new, head_dim)
  // BEGIN SOLUTION name="tinytorch::models::CausalSelfAttentionImpl::forward(x, cache, layer)" lesson="3. Cached attention"
  const int64_t start = cache.length(), new_positions = x.size(1);
  const auto cached = cache.update(layer, k, v);  // keys and values of positions 0 .. start + S_new - 1
  Tensor mask;  // one new query sees every cached key: no mask
  if (new_positions > 1) {
    // future[i][j]: key j lies after query i's absolute position start + i.
    const Tensor future = arange(start + new_positions, kLong).unsqueeze(0) >
                          arange(start, start + new_positions, kLong).unsqueeze(1);
    mask = zeros({new_positions, start + new_positions}, x.options()).masked_fill(future, -INFINITY);
  }
  const double scale = 1.0 / std::sqrt(static_cast<double>(cache.head_dim()));
  heads_out = std::get<0>(native::scaled_dot_product_attention_math(
      q, std::get<0>(cached), std::get<1>(cached), mask, is_training() ? dropout_p : 0.0, /*is_causal=*/false, scale));
  // END SOLUTION
  return resid_dropout->forward(proj->forward(native::merge_heads(heads_out).transpose(0, 1)));
}

// TODO: GPT's cached forward (section 4, "Positions and the cached forward"). tokens (B, S_new) are
//   the positions start = cache.length() .. start + S_new - 1 of their rows, the earlier positions'
//   keys and values being in the cache. Result: logits (B, S_new, V), equal (within float rounding)
//   to the uncached forward(tokens of all positions)'s logits at these positions; afterwards every
//   layer's cache holds the new positions too and cache.length() has grown by S_new. The same modules
//   as forward(tokens) (embeddings, embed_dropout, blocks, final_norm, lm_head); a block's cached
//   forward is blocks[layer]->as<GPTBlockImpl>()->forward(x, cache, layer).
Tensor GPTImpl::forward(const Tensor& tokens, KVCache& cache) {
  TT_CHECK(tokens.dim() == 2 && tokens.scalar_type() == kLong && tokens.size(1) > 0,
           "GPT::forward: expected tokens of shape (B, S_new) with S_new >= 1 and dtype Long, but got ", tokens.sizes(),
           " of ", tokens.scalar_type(), ": pass the new token ids only, e.g. the last sampled token as (B, 1)");
  TT_CHECK(cache.num_layers() == options.num_layers() && cache.num_heads() == options.num_heads() &&
               cache.head_dim() == options.embed_dim() / options.num_heads() &&
               cache.max_length() <= options.max_seq_len(),
           "GPT::forward: this cache (", cache.num_layers(), " layers, ", cache.num_heads(), " heads of ",
           cache.head_dim(), ", ", cache.max_length(), " positions) was not made for this model: use gpt->make_kv_cache(",
           tokens.size(0), ")");
  TT_CHECK(cache.batch_size() == tokens.size(0), "GPT::forward: the cache was made for a batch of ", cache.batch_size(),
           " rows, but the tokens have ", tokens.size(0), ": make one per batch size with gpt->make_kv_cache(",
           tokens.size(0), ")");
  TT_CHECK(cache.length() + tokens.size(1) <= cache.max_length(), "GPT::forward: the KV cache is full: it holds ",
           cache.length(), " of ", cache.max_length(), " positions (max_seq_len) and cannot take ", tokens.size(1),
           " more. Call cache.reset() and prefill the last ", cache.max_length(),
           " tokens or fewer, or build a GPT with a larger max_seq_len");
  const int64_t low = tokens.min().item<int64_t>(), high = tokens.max().item<int64_t>();
  TT_CHECK(low >= 0 && high < options.vocab_size(), "GPT::forward: token ids must lie in [0, ", options.vocab_size(),
           "), but got ", low < 0 ? low : high, ": check the tokenizer's vocabulary size");
  NoGradGuard no_grad;  // the cache is for inference: no graph through its buffers
  // BEGIN SOLUTION name="tinytorch::models::GPTImpl::forward(tokens, cache)" lesson="4. Positions and the cached forward"
  const int64_t start = cache.length(), new_positions = tokens.size(1);
  const Tensor positions = arange(start, start + new_positions, kLong);
  Tensor x = embed_dropout->forward(token_embedding->forward(tokens) + position_embedding->forward(positions));
  for (size_t layer = 0; layer < blocks->size(); ++layer) {
    x = blocks[layer]->as<GPTBlockImpl>()->forward(x, cache, static_cast<int64_t>(layer));
  }
  cache.advance(new_positions);
  return lm_head->forward(final_norm->forward(x));
  // END SOLUTION
}

// TODO: the cached generation loop (section 5, "Cached generation"); gpt->generate(prompt, n,
//   temperature, top_k, true) calls it after its checks. The model is `gpt`: gpt.forward(tokens,
//   cache), gpt.make_kv_cache(B), gpt.options.max_seq_len(); module 13's sample_next_token chooses a
//   token. Result: the prompt (B, S) followed by max_new_tokens tokens, exactly the tokens the
//   uncached loop chooses (it conditions on the last max_seq_len tokens), also past max_seq_len.
//   The point is the cost: the prompt runs through the model once and each later step runs only the
//   newly chosen token, (B, 1), except where section 5 says the cache cannot be kept; no forward
//   runs after the last token is chosen, and max_new_tokens 0 returns the prompt.
Tensor generate_with_kv_cache(GPTImpl& gpt, const Tensor& prompt, int64_t max_new_tokens, double temperature,
                              int64_t top_k) {
  TT_CHECK(prompt.dim() == 2 && prompt.scalar_type() == kLong && prompt.size(1) > 0,
           "GPT::generate: expected a prompt of shape (B, S) with S >= 1 and dtype Long, but got ", prompt.sizes(),
           " of ", prompt.scalar_type(), ": encode at least one token and add a batch dim with unsqueeze(0)");
  TT_CHECK(max_new_tokens >= 0, "GPT::generate: max_new_tokens must be >= 0, but got ", max_new_tokens);
  NoGradGuard no_grad;
  Tensor tokens = prompt;
  // BEGIN SOLUTION name="tinytorch::models::generate_with_kv_cache" lesson="5. Cached generation"
  if (max_new_tokens == 0) return tokens;
  const int64_t window = gpt.options.max_seq_len();
  const auto last_window = [&](const Tensor& all) {
    const int64_t length = all.size(1);
    return length > window ? all.narrow(1, length - window, window) : all;
  };
  KVCache cache = gpt.make_kv_cache(prompt.size(0));
  Tensor last_logits = gpt.forward(last_window(tokens), cache).select(1, -1);  // prefill: (B, V)
  for (int64_t step = 0; step < max_new_tokens; ++step) {
    const Tensor next = sample_next_token(last_logits, temperature, top_k);  // (B, 1)
    tokens = cat({tokens, next}, 1);
    if (step + 1 == max_new_tokens) break;
    if (cache.length() < cache.max_length()) {
      last_logits = gpt.forward(next, cache).select(1, -1);  // one position, attending to all cached ones
    } else {
      cache.reset();  // the window slides: every position moves, recompute it
      last_logits = gpt.forward(last_window(tokens), cache).select(1, -1);
    }
  }
  // END SOLUTION
  return tokens;
}

}  // namespace models
}  // namespace tinytorch
