// Module 18 (Memoization), the given half of the KV cache: the buffers and their bookkeeping, the
// block's residual wiring around the cached attention, and GPT::make_kv_cache. The learner writes
// the cache update and its memory count (kv_cache.cpp), and the cached attention, forward and
// generation loop (cached_generation.cpp).
#include <string>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/models/gpt.h"
#include "tinytorch/models/kv_cache.h"

namespace tinytorch {
namespace models {

// ---- KVCache: the buffers ----

KVCache::KVCache(int64_t num_layers, int64_t batch_size, int64_t num_heads, int64_t max_length, int64_t head_dim)
    : batch_size_(batch_size), num_heads_(num_heads), max_length_(max_length), head_dim_(head_dim) {
  TT_CHECK(num_layers >= 0 && batch_size > 0 && num_heads > 0 && max_length > 0 && head_dim > 0,
           "KVCache: expected num_layers >= 0 and positive batch_size, num_heads, max_length and head_dim, but got "
           "num_layers=", num_layers, ", batch_size=", batch_size, ", num_heads=", num_heads, ", max_length=",
           max_length, ", head_dim=", head_dim, ": make one for a model with gpt->make_kv_cache(batch_size)");
  // Allocated once, here: generation then writes into them and never allocates a cache again.
  for (int64_t layer = 0; layer < num_layers; ++layer) {
    keys_.push_back(zeros({batch_size, num_heads, max_length, head_dim}));
    values_.push_back(zeros({batch_size, num_heads, max_length, head_dim}));
  }
}

void KVCache::check_layer(int64_t layer, const char* where) const {
  TT_CHECK(layer >= 0 && layer < num_layers(), "KVCache::", where, ": layer ", layer, " is out of range: this cache has ",
           num_layers(), " layers (0 .. ", num_layers() - 1, ")");
}

void KVCache::advance(int64_t count) {
  TT_CHECK(count >= 0 && length_ + count <= max_length_, "KVCache::advance: cannot advance by ", count,
           " positions: the cache holds ", length_, " of ", max_length_,
           " positions. Call reset() and prefill the last tokens again, or make a longer cache");
  length_ += count;
}

const Tensor& KVCache::key_buffer(int64_t layer) const {
  check_layer(layer, "key_buffer");
  return keys_[static_cast<size_t>(layer)];
}

const Tensor& KVCache::value_buffer(int64_t layer) const {
  check_layer(layer, "value_buffer");
  return values_[static_cast<size_t>(layer)];
}

// ---- The block and the model around the cached attention ----

// Module 13's pre-LN wiring, with the attention on the new positions reading and extending the cache.
Tensor GPTBlockImpl::forward(const Tensor& x, KVCache& cache, int64_t layer) {
  const Tensor h = x + attn->forward(ln1->forward(x), cache, layer);
  return h + mlp->forward(ln2->forward(h));
}

KVCache GPTImpl::make_kv_cache(int64_t batch_size) const {
  TT_CHECK(batch_size > 0, "GPT::make_kv_cache: batch_size must be positive, but got ", batch_size);
  return KVCache(options.num_layers(), batch_size, options.num_heads(), options.max_seq_len(),
                 options.embed_dim() / options.num_heads());
}

}  // namespace models
}  // namespace tinytorch
