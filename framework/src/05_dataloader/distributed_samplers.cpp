// The distributed samplers (given code; see tinytorch/data/samplers/distributed.h).
#include <algorithm>
#include <numeric>
#include <random>

#include "tinytorch/data/samplers/distributed.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {
namespace samplers {
namespace {

void check_replicas(size_t num_replicas, size_t rank) {
  TT_CHECK(num_replicas > 0, "a distributed sampler needs num_replicas >= 1, got 0");
  TT_CHECK(rank < num_replicas, "rank ", rank, " is not one of the ", num_replicas,
           " replicas: pass a rank from 0 to num_replicas - 1");
}

}  // namespace

DistributedRandomSampler::DistributedRandomSampler(size_t size, size_t num_replicas, size_t rank,
                                                   bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  check_replicas(num_replicas, rank);
  reset(size_);
}

void DistributedRandomSampler::populate_indices() {
  const size_t local_count = local_sample_count();
  const size_t sample_count = num_replicas_ == 1 ? size_ : local_count * num_replicas_;
  all_indices_.resize(sample_count);
  std::iota(all_indices_.begin(), all_indices_.end(), size_t{0});
  // Padding past the end wraps around to the first indices, so every replica gets as many.
  for (size_t i = size_; i < sample_count; ++i) all_indices_[i] = i - size_;
  begin_index_ = rank_ * local_count;
  end_index_ = begin_index_ + local_count;
  sample_index_ = begin_index_;
}

void DistributedRandomSampler::reset(std::optional<size_t> new_size) {
  size_ = new_size.value_or(size_);
  populate_indices();
  std::mt19937 generator(static_cast<std::mt19937::result_type>(epoch_));
  std::shuffle(all_indices_.begin(), all_indices_.end(), generator);
  sample_index_ = begin_index_;
}

std::optional<std::vector<size_t>> DistributedRandomSampler::next(size_t batch_size) {
  if (sample_index_ == end_index_) return std::nullopt;
  const size_t end = std::min(sample_index_ + batch_size, end_index_);
  std::vector<size_t> batch(all_indices_.begin() + static_cast<std::ptrdiff_t>(sample_index_),
                            all_indices_.begin() + static_cast<std::ptrdiff_t>(end));
  sample_index_ = end;
  return batch;
}

DistributedSequentialSampler::DistributedSequentialSampler(size_t size, size_t num_replicas, size_t rank,
                                                           bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  check_replicas(num_replicas, rank);
  populate_indices();
}

void DistributedSequentialSampler::populate_indices() {
  begin_index_ = rank_ * local_sample_count();
  end_index_ = begin_index_ + local_sample_count();
  sample_index_ = begin_index_;
}

void DistributedSequentialSampler::reset(std::optional<size_t> new_size) {
  const size_t size = new_size.value_or(size_);
  if (size != size_) {
    size_ = size;
    populate_indices();
  } else {
    sample_index_ = begin_index_;
  }
}

std::optional<std::vector<size_t>> DistributedSequentialSampler::next(size_t batch_size) {
  if (sample_index_ == end_index_) return std::nullopt;
  const size_t end = std::min(sample_index_ + batch_size, end_index_);
  std::vector<size_t> batch(end - sample_index_);
  std::iota(batch.begin(), batch.end(), sample_index_);
  for (size_t& index : batch) index %= size_;  // past the end: wrap around (allow_duplicates)
  sample_index_ = end;
  return batch;
}

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
