#pragma once
// torch::nn::functional::conv2d with its option builder, and the option types Conv2d shares
// (LibTorch's torch/nn/options/conv.h): padding as sizes or torch::kValid / torch::kSame, and the
// padding modes torch::kZeros, kReflect, kReplicate, kCircular.
//
//   namespace F = torch::nn::functional;
//   F::conv2d(x, w, F::Conv2dFuncOptions().bias(b).stride(2).padding(1));
#include <cstdint>
#include <variant>

#include "tinytorch/convolution.h"
#include "tinytorch/expanding_array.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace enumtype {
struct kValid {};
struct kSame {};
struct kZeros {};
struct kReflect {};
struct kReplicate {};
struct kCircular {};
}  // namespace enumtype
inline constexpr enumtype::kValid kValid{};
inline constexpr enumtype::kSame kSame{};
inline constexpr enumtype::kZeros kZeros{};
inline constexpr enumtype::kReflect kReflect{};
inline constexpr enumtype::kReplicate kReplicate{};
inline constexpr enumtype::kCircular kCircular{};

namespace nn {
namespace detail {
template <size_t D>
using conv_padding_t = std::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
}  // namespace detail

namespace functional {

struct Conv2dFuncOptions {
  using padding_t = detail::conv_padding_t<2>;
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(ExpandingArray<2>, stride) = 1;
  TORCH_ARG(padding_t, padding) = ExpandingArray<2>(0);
  TORCH_ARG(ExpandingArray<2>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
};

// The padding sizes a padding option stands for: kValid is 0; kSame keeps the output size for
// stride 1, dilation * (kernel - 1) / 2 on each side (an even total only: TinyTorch pads
// symmetrically).
ExpandingArray<2> conv2d_padding_sizes(const Conv2dFuncOptions::padding_t& padding, IntArrayRef kernel_size,
                                       IntArrayRef stride, IntArrayRef dilation);

Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options = {});

struct Conv1dFuncOptions {
  using padding_t = detail::conv_padding_t<1>;
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(ExpandingArray<1>, stride) = 1;
  TORCH_ARG(padding_t, padding) = ExpandingArray<1>(0);
  TORCH_ARG(ExpandingArray<1>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
};

// The padding a 1-D padding option stands for (kValid 0, kSame dilation * (kernel - 1) / 2).
ExpandingArray<1> conv1d_padding_sizes(const Conv1dFuncOptions::padding_t& padding, int64_t kernel_size,
                                       int64_t stride, int64_t dilation);

Tensor conv1d(const Tensor& input, const Tensor& weight, const Conv1dFuncOptions& options = {});

struct ConvTranspose2dFuncOptions {
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(ExpandingArray<2>, stride) = 1;
  TORCH_ARG(ExpandingArray<2>, padding) = 0;
  TORCH_ARG(ExpandingArray<2>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(ExpandingArray<2>, dilation) = 1;
};

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const ConvTranspose2dFuncOptions& options = {});

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
