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

// TODO: the cached attention (section 3). x holds S_new NEW positions, start = cache.length() ..
//   start + S_new - 1; q, k, v below are their queries, keys and values, (B, H, S_new, head_dim).
//   1. Append k and v to this layer's cache (cache.update) and take back the keys and values of all
//      start + S_new positions.
//   2. Attend: each new query against ALL those keys, with module 12's
//      native::scaled_dot_product_attention_math (scale 1 / sqrt(head_dim); dropout_p as the
//      uncached forward passes it: dropout_p in training, 0 in eval), giving heads_out (B, H, S_new, head_dim).
//   3. The mask, a (S_new, start + S_new) float tensor of 0 and -inf: query i sits at ABSOLUTE position
//      start + i and may see keys 0 .. start + i, not beyond. For S_new == 1 it sees every key (no
//      mask needed); a prefill of several tokens needs it, and models::causal_mask(S_new) is the
//      right one only when start == 0.
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

// TODO: GPT's cached forward (section 4). tokens (B, S_new) are the positions start = cache.length() ..
//   start + S_new - 1 of their rows.
//   1. Embed them: token embedding + the position embedding of THEIR positions (start .., not 0 ..),
//      then embed_dropout, as forward(tokens) does.
//   2. Run every block with the cache: blocks[layer]->as<GPTBlockImpl>()->forward(x, cache, layer).
//   3. Tell the cache that S_new more positions are filled (cache.advance), once, after all layers.
//   4. final_norm, then lm_head: logits (B, S_new, V).
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

// TODO: the cached generation loop (section 5); gpt->generate(prompt, n, temperature, top_k, true)
//   calls it after its checks. The model is `gpt`: gpt.forward(tokens, cache), gpt.make_kv_cache(B),
//   gpt.options.max_seq_len(). The tokens returned must be the ones the uncached loop chooses.
//   1. Prefill: a cache for the batch (make_kv_cache), then ONE forward over the prompt (its last
//      max_seq_len tokens if it is longer); the last position's logits give the first new token.
//   2. Then each step: sample the next token (sample_next_token on the last logits (B, V)), append it
//      (torch::cat along dim 1) and run forward on that token ALONE, (B, 1), with the cache.
//   3. When the cache is full (cache.length() == cache.max_length()) the window must slide, and
//      learned positions are absolute: every cached key belongs to a position that has now moved.
//      reset() the cache and run the last max_seq_len tokens again (what the uncached loop does).
//   Run no forward after the last token is chosen.
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
