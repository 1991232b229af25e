#pragma once
// The pooling layers, LibTorch's nn::MaxPool1d/2d, nn::AvgPool1d/2d and nn::AdaptiveAvgPool1d/2d.
// They hold no parameters; forward() calls the function of the same name (tinytorch/pooling.h).
//
//   nn::MaxPool2d pool(nn::MaxPool2dOptions(2));             // (N, C, 28, 28) -> (N, C, 14, 14)
//   nn::AdaptiveAvgPool2d gap(nn::AdaptiveAvgPool2dOptions(1));  // (N, C, H, W) -> (N, C, 1, 1)
#include <cstddef>
#include <iosfwd>

#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/pooling.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

// "torch::nn::MaxPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=false)"
template <size_t D, typename Derived>
class MaxPoolImpl : public Cloneable<Derived> {
 public:
  MaxPoolImpl(ExpandingArray<D> kernel_size) : MaxPoolImpl(MaxPoolOptions<D>(kernel_size)) {}  // NOLINT
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  MaxPoolOptions<D> options;
};

class MaxPool1dImpl : public MaxPoolImpl<1, MaxPool1dImpl> {
 public:
  using MaxPoolImpl<1, MaxPool1dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(MaxPool1d);

class MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
 public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
TORCH_MODULE(MaxPool2d);

// "torch::nn::AvgPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0])"
template <size_t D, typename Derived>
class AvgPoolImpl : public Cloneable<Derived> {
 public:
  AvgPoolImpl(ExpandingArray<D> kernel_size) : AvgPoolImpl(AvgPoolOptions<D>(kernel_size)) {}  // NOLINT
  explicit AvgPoolImpl(const AvgPoolOptions<D>& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  AvgPoolOptions<D> options;
};

class AvgPool1dImpl : public AvgPoolImpl<1, AvgPool1dImpl> {
 public:
  using AvgPoolImpl<1, AvgPool1dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool1d);

class AvgPool2dImpl : public AvgPoolImpl<2, AvgPool2dImpl> {
 public:
  using AvgPoolImpl<2, AvgPool2dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool2d);

// "torch::nn::AdaptiveAvgPool2d(output_size=[1, 1])"
template <size_t D, typename Derived>
class AdaptiveAvgPoolImpl : public Cloneable<Derived> {
 public:
  AdaptiveAvgPoolImpl(ExpandingArray<D> output_size)  // NOLINT
      : AdaptiveAvgPoolImpl(AdaptiveAvgPoolOptions<ExpandingArray<D>>(output_size)) {}
  explicit AdaptiveAvgPoolImpl(const AdaptiveAvgPoolOptions<ExpandingArray<D>>& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  AdaptiveAvgPoolOptions<ExpandingArray<D>> options;
};

class AdaptiveAvgPool1dImpl : public AdaptiveAvgPoolImpl<1, AdaptiveAvgPool1dImpl> {
 public:
  using AdaptiveAvgPoolImpl<1, AdaptiveAvgPool1dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool1d);

class AdaptiveAvgPool2dImpl : public AdaptiveAvgPoolImpl<2, AdaptiveAvgPool2dImpl> {
 public:
  using AdaptiveAvgPoolImpl<2, AdaptiveAvgPool2dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool2d);

}  // namespace nn
}  // namespace tinytorch
