// Module 18 (Memoization), lesson section "2. The cache": what the cache holds and where a new
// position's keys and values go. The buffers and their bookkeeping are given (kv_cache_plumbing.cpp).
#include <tuple>

#include "tinytorch/errors.h"
#include "tinytorch/models/kv_cache.h"

namespace tinytorch {
namespace models {

// TODO: KVCache::memory_bytes (section 2) -- the bytes of every buffer this cache holds: one key
//   and one value buffer per layer, each (B, H, T_max, head_dim), element_size() bytes per element
//   (4 for float). Count what was allocated (T_max positions), not what is filled (length()).
int64_t KVCache::memory_bytes() const {
  // BEGIN SOLUTION name="tinytorch::models::KVCache::memory_bytes" lesson="2. The cache"
  int64_t bytes = 0;
  for (size_t layer = 0; layer < keys_.size(); ++layer) {
    bytes += keys_[layer].numel() * keys_[layer].element_size();
    bytes += values_[layer].numel() * values_[layer].element_size();
  }
  return bytes;
  // END SOLUTION
}

// TODO: KVCache::update (section 2) -- store the new keys and values of `layer`, (B, H, S_new,
//   head_dim) each, as that layer's positions length() .. length() + S_new - 1, in place in its
//   preallocated buffers (nothing is allocated), and return that layer's keys and values of all
//   positions cached so far, 0 .. length() + S_new - 1, as views of the buffers.
//   length() itself does not change here: every layer writes the same positions, and GPT's cached
//   forward calls advance() once all have. Shapes, batch size and a full cache are checked below.
//   Example: length() 3, S_new 1 -> the new keys become position 3; the returned keys have 4 positions.
std::tuple<Tensor, Tensor> KVCache::update(int64_t layer, const Tensor& keys, const Tensor& values) {
  check_layer(layer, "update");
  TT_CHECK(keys.dim() == 4 && keys.sizes() == values.sizes() && keys.size(0) == batch_size_ &&
               keys.size(1) == num_heads_ && keys.size(3) == head_dim_,
           "KVCache::update: expected keys and values of shape (", batch_size_, ", ", num_heads_, ", S_new, ", head_dim_,
           ") (batch, heads, new positions, head_dim), but got ", keys.sizes(), " and ", values.sizes(),
           ": a cache serves one batch size and one model; make another with gpt->make_kv_cache(batch_size)");
  TT_CHECK(length_ + keys.size(2) <= max_length_, "KVCache::update: the cache is full: it holds ", length_, " of ",
           max_length_, " positions and cannot take ", keys.size(2), " more. Call reset() and prefill the last ",
           max_length_, " tokens or fewer again, or make a cache with more positions");
  // BEGIN SOLUTION name="tinytorch::models::KVCache::update" lesson="2. The cache"
  const int64_t new_positions = keys.size(2), filled = length_ + new_positions;
  Tensor& layer_keys = keys_[static_cast<size_t>(layer)];
  Tensor& layer_values = values_[static_cast<size_t>(layer)];
  layer_keys.narrow(2, length_, new_positions).copy_(keys);
  layer_values.narrow(2, length_, new_positions).copy_(values);
  return {layer_keys.narrow(2, 0, filled), layer_values.narrow(2, 0, filled)};
  // END SOLUTION
}

}  // namespace models
}  // namespace tinytorch
