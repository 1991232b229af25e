// Module 05, learner file: the two samplers. A sampler only hands out indices; the loader fetches
// the examples. next(B) gives the next B indices of the epoch (fewer at the end), then nullopt.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tinytorch/data/samplers/random.h"
#include "tinytorch/data/samplers/sequential.h"
#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {
namespace samplers {

// TODO: SequentialSampler::reset -- adopt new_size when one is given, and go back to index 0.
//   Example: after a whole epoch of 5 indices, reset(3) makes the next epoch hand out 0, 1, 2.
void SequentialSampler::reset(std::optional<size_t> new_size) {
  // BEGIN SOLUTION name="tinytorch::data::samplers::SequentialSampler::reset" lesson="4. Samplers: order and shuffling"
  if (new_size.has_value()) size_ = *new_size;
  index_ = 0;
  // END SOLUTION
}

// TODO: SequentialSampler::next -- the indices index_, index_+1, ... (at most batch_size of them,
// fewer when the epoch has fewer left), advancing index_; nullopt when none are left.
//   Example: size 5, batch_size 2 -> {0, 1}, {2, 3}, {4}, then nullopt.
std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  // BEGIN SOLUTION name="tinytorch::data::samplers::SequentialSampler::next" lesson="4. Samplers: order and shuffling"
  const size_t remaining = size_ - index_;
  if (remaining == 0) return std::nullopt;
  std::vector<size_t> batch(std::min(batch_size, remaining));
  for (size_t& i : batch) i = index_++;
  return batch;
  // END SOLUTION
}

RandomSampler::RandomSampler(int64_t size, ScalarType index_dtype) {
  TT_CHECK(index_dtype == kLong, "RandomSampler: TinyTorch keeps the permutation as Long (int64) only, got ",
           index_dtype);
  TT_CHECK(size >= 0, "RandomSampler: the dataset size must be non-negative, got ", size);
  reset(static_cast<size_t>(size));  // the first epoch's order, drawn now as in LibTorch
}

// TODO: RandomSampler::reset -- a fresh random order of 0..n-1 from TinyTorch's generator (so
// torch::manual_seed makes it reproducible) in indices_ (n is new_size when given, else the current
// order's length), and go back to its start. Example: reset(4) may give the order 2, 0, 3, 1.
void RandomSampler::reset(std::optional<size_t> new_size) {
  // BEGIN SOLUTION name="tinytorch::data::samplers::RandomSampler::reset" lesson="4. Samplers: order and shuffling"
  const int64_t size = new_size.has_value() ? static_cast<int64_t>(*new_size) : indices_.numel();
  indices_ = randperm(size);
  index_ = 0;
  // END SOLUTION
}

// TODO: RandomSampler::next -- the next (at most batch_size) entries of indices_, as size_t,
// advancing index_; nullopt when the permutation is used up.
//   Example: order 2, 0, 3, 1 and batch_size 3 -> {2, 0, 3}, {1}, then nullopt.
std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  // BEGIN SOLUTION name="tinytorch::data::samplers::RandomSampler::next" lesson="4. Samplers: order and shuffling"
  const auto remaining = static_cast<size_t>(indices_.numel() - index_);
  if (remaining == 0) return std::nullopt;
  std::vector<size_t> batch(std::min(batch_size, remaining));
  const int64_t* order = indices_.data_ptr<int64_t>();
  for (size_t k = 0; k < batch.size(); ++k) batch[k] = static_cast<size_t>(order[index_ + static_cast<int64_t>(k)]);
  index_ += static_cast<int64_t>(batch.size());
  return batch;
  // END SOLUTION
}

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
