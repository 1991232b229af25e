#pragma once
// nn::Flatten: merges dimensions start_dim..end_dim into one (LibTorch's torch::nn::Flatten).
// The defaults keep the batch dimension: (N, 1, 28, 28) -> (N, 784), ready for an nn::Linear.
#include <cstdint>
#include <iosfwd>
#include <utility>
#include <vector>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct FlattenOptions {
  TORCH_ARG(int64_t, start_dim) = 1;
  TORCH_ARG(int64_t, end_dim) = -1;
};

class FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {});
  void reset() override {}
  // "torch::nn::Flatten(start_dim=1, end_dim=-1)"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  FlattenOptions options;
};

TORCH_MODULE(Flatten);

// nn::Unflatten: splits dimension dim into sizes, the inverse of Flatten:
//   nn::Unflatten(nn::UnflattenOptions(1, {16, 5, 5}))   (N, 400) -> (N, 16, 5, 5)
struct UnflattenOptions {
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes) : dim_(dim), sizes_(std::move(sizes)) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(std::vector<int64_t>, sizes);
};

class UnflattenImpl : public Cloneable<UnflattenImpl> {
 public:
  UnflattenImpl(int64_t dim, std::vector<int64_t> sizes) : UnflattenImpl(UnflattenOptions(dim, std::move(sizes))) {}
  explicit UnflattenImpl(UnflattenOptions options_);
  void reset() override {}
  // "torch::nn::Unflatten(dim=1, unflattened_size={16, 5, 5})"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  UnflattenOptions options;
};

TORCH_MODULE(Unflatten);

}  // namespace nn
}  // namespace tinytorch
