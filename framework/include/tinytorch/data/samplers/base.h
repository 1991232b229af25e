#pragma once
// A sampler decides which examples go into each batch, and in what order (LibTorch's
// torch::data::samplers::Sampler). The loader asks next(batch_size) for the indices of the next batch
// until it answers nullopt (the epoch is over), and calls reset() at the start of every epoch.
// LibTorch's samplers also have save()/load() for checkpoints; TinyTorch has no serialisation yet.
#include <cstddef>
#include <optional>
#include <vector>

namespace tinytorch {
namespace data {
namespace samplers {

template <typename BatchRequest = std::vector<size_t>>
class Sampler {
 public:
  using BatchRequestType = BatchRequest;

  virtual ~Sampler() = default;

  // Starts a new epoch; `new_size`, when given, is the dataset's new length.
  virtual void reset(std::optional<size_t> new_size) = 0;

  // The indices of the next batch (at most batch_size; fewer for the last one), or nullopt once
  // every index of the epoch has been handed out.
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
};

}  // namespace samplers
}  // namespace data
}  // namespace tinytorch
