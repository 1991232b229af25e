#pragma once
// The pooling options (LibTorch's torch/nn/options/pooling.h) and torch::nn::functional's pooling:
//   namespace F = torch::nn::functional;
//   F::max_pool2d(x, F::MaxPool2dFuncOptions(2));   F::avg_pool2d(x, F::AvgPool2dFuncOptions(3).stride(2));
//   F::adaptive_avg_pool2d(x, F::AdaptiveAvgPool2dFuncOptions(1));
// stride defaults to kernel_size.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tinytorch/expanding_array.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/pooling.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, ceil_mode) = false;
};
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;

template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(bool, ceil_mode) = false;
  TORCH_ARG(bool, count_include_pad) = true;
  TORCH_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;

template <typename output_size_t>
struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size) : output_size_(output_size) {}  // NOLINT
  TORCH_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<ExpandingArray<2>>;

namespace functional {

using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using AvgPool1dFuncOptions = AvgPool1dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AdaptiveAvgPool1dFuncOptions = AdaptiveAvgPool1dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;

inline Tensor max_pool1d(const Tensor& input, const MaxPool1dFuncOptions& options) {
  return ::tinytorch::max_pool1d(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.dilation(), options.ceil_mode());
}
inline Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options) {
  return ::tinytorch::max_pool2d(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.dilation(), options.ceil_mode());
}
inline std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, const MaxPool2dFuncOptions& options) {
  return ::tinytorch::max_pool2d_with_indices(input, options.kernel_size(), options.stride(), options.padding(),
                                              options.dilation(), options.ceil_mode());
}
inline Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& options) {
  return ::tinytorch::avg_pool1d(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.ceil_mode(), options.count_include_pad());
}
inline Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options) {
  return ::tinytorch::avg_pool2d(input, options.kernel_size(), options.stride(), options.padding(),
                                 options.ceil_mode(), options.count_include_pad(), options.divisor_override());
}
inline Tensor adaptive_avg_pool1d(const Tensor& input, const AdaptiveAvgPool1dFuncOptions& options) {
  return ::tinytorch::adaptive_avg_pool1d(input, options.output_size());
}
inline Tensor adaptive_avg_pool2d(const Tensor& input, const AdaptiveAvgPool2dFuncOptions& options) {
  return ::tinytorch::adaptive_avg_pool2d(input, options.output_size());
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
