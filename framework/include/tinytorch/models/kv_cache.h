#pragma once
// Module 18 (Memoization): the key/value cache of a GPT. Not a LibTorch class (LibTorch has no GPT);
// it plays the part of Hugging Face's StaticCache: every layer's keys and values are preallocated
// once, (B, H, T_max, head_dim) each, and generation fills them one position after another.
//
//   models::KVCache cache = gpt->make_kv_cache(/*batch_size=*/1);   // T_max = max_seq_len
//   Tensor logits = gpt->forward(prompt, cache);      // prefill: (B, S0, V), cache.length() == S0
//   logits = gpt->forward(next_token, cache);         // (B, 1, V) at position S0, cache.length() == S0 + 1
//   Tensor text = gpt->generate(prompt, 100, 0.8, 10, /*use_kv_cache=*/true);
//
// Positions 0 .. length() - 1 hold the keys and values of the tokens seen so far; a forward with the
// cache appends its new tokens' keys and values at positions length() .. and then advances length().
// Memory: 2 (keys and values) x L x B x H x T_max x head_dim x bytes per element (memory_bytes()).
// The learner writes update() and memory_bytes() (kv_cache.cpp), and the cached attention, the
// cached forward and the cached generation loop (cached_generation.cpp).
#include <cstdint>
#include <tuple>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace models {

class KVCache {
 public:
  // Zero-filled float buffers, (batch_size, num_heads, max_length, head_dim) for the keys and the
  // values of each of num_layers layers; length() starts at 0.
  KVCache(int64_t num_layers, int64_t batch_size, int64_t num_heads, int64_t max_length, int64_t head_dim);

  int64_t length() const { return length_; }          // positions filled so far
  int64_t max_length() const { return max_length_; }  // T_max: positions the buffers hold
  int64_t num_layers() const { return static_cast<int64_t>(keys_.size()); }
  int64_t batch_size() const { return batch_size_; }
  int64_t num_heads() const { return num_heads_; }
  int64_t head_dim() const { return head_dim_; }

  // Back to length() == 0, for a new prompt. The buffers stay allocated; their old contents are
  // simply overwritten by the next update.
  void reset() { length_ = 0; }
  // Bytes held by every layer's key and value buffers: 2 L B H T_max head_dim element_size.  [module 18: yours]
  int64_t memory_bytes() const;

  // Writes the keys and values (B, H, S_new, head_dim) of S_new new positions of `layer` at positions
  // length() .. length() + S_new - 1, and returns the keys and values of positions 0 .. length() + S_new - 1,
  // (B, H, length() + S_new, head_dim) each: views of the buffers, no copy. Does not change length():
  // every layer writes the same positions, and advance() moves on once all have.  [module 18: yours]
  std::tuple<Tensor, Tensor> update(int64_t layer, const Tensor& keys, const Tensor& values);
  // length() += count, after every layer has written its count new positions.
  void advance(int64_t count);

  // The whole buffers of `layer`, (B, H, T_max, head_dim): positions length() and beyond are stale.
  const Tensor& key_buffer(int64_t layer) const;
  const Tensor& value_buffer(int64_t layer) const;

 private:
  void check_layer(int64_t layer, const char* where) const;

  std::vector<Tensor> keys_, values_;  // one (B, H, T_max, head_dim) buffer per layer
  int64_t batch_size_, num_heads_, max_length_, head_dim_;
  int64_t length_ = 0;
};

}  // namespace models
}  // namespace tinytorch
