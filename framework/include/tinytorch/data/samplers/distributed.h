#pragma once
// Samplers for data-parallel training (LibTorch's torch::data::samplers::DistributedSampler and its
// two subclasses): each of num_replicas processes sees its own share of the dataset, the share of
// replica `rank` being the indices [rank * n, (rank + 1) * n) of the epoch's order, n =
// local_sample_count(). With allow_duplicates (the default) n = ceil(size / num_replicas) and the
// order wraps around to the first indices so that every replica gets n; without, n = size /
// num_replicas and the last size % num_replicas indices of the order are left out.
//
//   samplers::DistributedSequentialSampler rank1(/*size=*/10, /*num_replicas=*/3, /*rank=*/1);
//   rank1.next(10)   // {4, 5, 6, 7}
//   samplers::DistributedRandomSampler shuffled(10, 3, 1);
//   shuffled.set_epoch(epoch); shuffled.reset();  // every replica shuffles with the same seed (the epoch)
#include <cstddef>
#include <optional>
#include <vector>

#include "tinytorch/data/samplers/base.h"

namespace tinytorch {
namespace data {
namespace samplers {

template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
 public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true)
      : size_(size), num_replicas_(num_replicas), rank_(rank), epoch_(0), allow_duplicates_(allow_duplicates) {}

  // The epoch seeds the random order; set it before reset() at the start of each epoch.
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

 protected:
  size_t local_sample_count() {
    return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_ : size_ / num_replicas_;
  }

  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_;
  bool allow_duplicates_;
};

// This replica's share of a permutation that every replica computes alike (std::mt19937 seeded
// with the epoch, then std::shuffle).
class DistributedRandomSampler : public DistributedSampler<> {
 public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true);
  // Shuffles again with the current epoch as the seed (and a new size, when given).
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  // The position in the epoch's order of the next index to hand out.
  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();

  size_t begin_index_ = 0;
  size_t end_index_ = 0;
  size_t sample_index_ = 0;
  std::vector<size_t> all_indices_;
};

// This replica's share of 0, 1, ..., size - 1 in order.
class DistributedSequentialSampler : public DistributedSampler<> {
 public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true);
  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();

  size_t begin_index_ = 0;
  size_t end_index_ = 0;
  size_t sample_index_ = 0;
};

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
