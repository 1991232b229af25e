#pragma once
// nn::BatchNorm1d and nn::BatchNorm2d (LibTorch's): per-channel normalisation with a learned scale
// (weight, starts at 1) and shift (bias, starts at 0), and running statistics kept as buffers
// (running_mean 0, running_var 1, num_batches_tracked 0) for evaluation.
//
//   nn::BatchNorm2d bn(16);                 // or nn::BatchNorm2dOptions(16).momentum(0.01)
//   Tensor y = bn(x);                       // x (N, 16, H, W); training: batch statistics
//   bn->eval(); y = bn(x);                  // evaluation: running statistics
// momentum(std::nullopt) makes the running statistics a cumulative average over the batches seen.
// Parameters: 2 C; buffers: 2 C + 1.
#include <cstdint>
#include <iosfwd>
#include <optional>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/batchnorm.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features) : num_features_(num_features) {}
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;

template <size_t D, typename Derived>
class BatchNormImplBase : public Cloneable<Derived> {
 public:
  explicit BatchNormImplBase(const BatchNormOptions& options_) : options(options_) {}

  // Registers weight, bias and the running statistics, then resets them.
  void reset() override;
  void reset_running_stats();
  void reset_parameters();
  // "torch::nn::BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=true, track_running_stats=true)"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  BatchNormOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;

 protected:
  virtual void check_input_dim(const Tensor& input) const = 0;
};

class BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
 public:
  explicit BatchNorm1dImpl(int64_t num_features) : BatchNorm1dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm1dImpl(const BatchNormOptions& options_);

 protected:
  void check_input_dim(const Tensor& input) const override;  // (N, C) or (N, C, L)
};
TORCH_MODULE(BatchNorm1d);

class BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
 public:
  explicit BatchNorm2dImpl(int64_t num_features) : BatchNorm2dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm2dImpl(const BatchNormOptions& options_);

 protected:
  void check_input_dim(const Tensor& input) const override;  // (N, C, H, W)
};
TORCH_MODULE(BatchNorm2d);

}  // namespace nn
}  // namespace tinytorch
