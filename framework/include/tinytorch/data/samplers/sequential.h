#pragma once
// Indices 0, 1, 2, ..., size-1 in order: batches {0..B-1}, {B..2B-1}, ... (evaluation, debugging).
#include <cstddef>
#include <optional>
#include <vector>

#include "tinytorch/data/samplers/base.h"

namespace tinytorch {
namespace data {
namespace samplers {

class SequentialSampler : public Sampler<> {
 public:
  explicit SequentialSampler(size_t size) : size_(size) {}

  // Back to index 0 (and to a new size, when given).
  void reset(std::optional<size_t> new_size = std::nullopt) override;  // written by the learner
  std::optional<std::vector<size_t>> next(size_t batch_size) override;  // written by the learner

  // How many indices this epoch has handed out so far.
  size_t index() const noexcept { return index_; }

 private:
  size_t size_;
  size_t index_{0};
};

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
