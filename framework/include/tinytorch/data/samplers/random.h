#pragma once
// Every index 0..size-1 exactly once per epoch, in a random order that is new each epoch: reset()
// draws a fresh permutation with torch::randperm, so torch::manual_seed(s) makes the order
// reproducible. Shuffling stops a model from learning the order of the data (all the 0s, then all
// the 1s...) instead of the data.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tinytorch/data/samplers/base.h"
#include "tinytorch/scalar_type.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace samplers {

class RandomSampler : public Sampler<> {
 public:
  // Draws the first permutation (LibTorch's index_dtype argument: kLong is the only one we support).
  explicit RandomSampler(int64_t size, ScalarType index_dtype = kLong);

  // A fresh permutation of 0..size-1 (of new_size, when given), and back to its start.
  void reset(std::optional<size_t> new_size = std::nullopt) override;  // written by the learner
  // The next batch_size entries of the permutation.
  std::optional<std::vector<size_t>> next(size_t batch_size) override;  // written by the learner

  size_t index() const noexcept { return static_cast<size_t>(index_); }

 private:
  Tensor indices_;  // the permutation of this epoch, kLong
  int64_t index_ = 0;
};

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
