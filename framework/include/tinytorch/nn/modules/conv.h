#pragma once
// nn::Conv2d: a 2-D convolution layer (LibTorch's torch::nn::Conv2d).
//
// weight is (out_channels, in_channels / groups, kernel_h, kernel_w); bias is (out_channels), or
// undefined with .bias(false). Both start as LibTorch's: weight kaiming_uniform_(a = sqrt(5)),
// i.e. U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = in_channels / groups * kernel_h * kernel_w,
// and bias from the same range. Parameters: out * in / groups * kh * kw + out.
//
//   nn::Conv2d conv(nn::Conv2dOptions(1, 8, 3).padding(1));   // 80 parameters
//   Tensor y = conv(torch::randn({32, 1, 8, 8}));              // (32, 8, 8, 8)
// Only padding_mode(torch::kZeros) is supported; other modes are refused when the layer is built.
#include <cstdint>
#include <iosfwd>
#include <variant>

#include "tinytorch/expanding_array.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/conv.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

template <size_t D>
struct ConvOptions {
  using padding_t = detail::conv_padding_t<D>;
  using padding_mode_t = std::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;

  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}

  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = ExpandingArray<D>(0);
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, transposed) = false;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(padding_mode_t, padding_mode) = enumtype::kZeros();
};

using Conv2dOptions = ConvOptions<2>;

class Conv2dImpl : public Cloneable<Conv2dImpl> {
 public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size)
      : Conv2dImpl(Conv2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv2dImpl(Conv2dOptions options_);

  // Checks the options, registers weight and bias, then calls reset_parameters().
  void reset() override;
  // weight: kaiming_uniform_(a = sqrt(5)); bias: U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
  void reset_parameters();
  // "torch::nn::Conv2d(1, 8, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])"
  void pretty_print(std::ostream& stream) const override;
  // input (N, in_channels, H, W) or (in_channels, H, W) -> (N, out_channels, OH, OW).
  Tensor forward(const Tensor& input);

  Conv2dOptions options;
  Tensor weight;
  Tensor bias;
};

TORCH_MODULE(Conv2d);

// nn::Conv1d: weight (out_channels, in_channels / groups, kernel), input (N, C, L) or (C, L).
using Conv1dOptions = ConvOptions<1>;

class Conv1dImpl : public Cloneable<Conv1dImpl> {
 public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<1> kernel_size)
      : Conv1dImpl(Conv1dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv1dImpl(Conv1dOptions options_);
  void reset() override;
  void reset_parameters();
  // "torch::nn::Conv1d(4, 8, kernel_size=3, stride=1)"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  Conv1dOptions options;
  Tensor weight;
  Tensor bias;
};

TORCH_MODULE(Conv1d);

// nn::ConvTranspose2d (LibTorch's): weight (in_channels, out_channels / groups, kernel_h, kernel_w),
// initialised like Conv2d's with fan_in = out_channels / groups * kernel_h * kernel_w.
template <size_t D>
struct ConvTransposeOptions {
  using padding_mode_t = typename ConvOptions<D>::padding_mode_t;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(padding_mode_t, padding_mode) = enumtype::kZeros();
};
using ConvTranspose2dOptions = ConvTransposeOptions<2>;

class ConvTranspose2dImpl : public Cloneable<ConvTranspose2dImpl> {
 public:
  ConvTranspose2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size)
      : ConvTranspose2dImpl(ConvTranspose2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options_);
  void reset() override;
  void reset_parameters();
  // "torch::nn::ConvTranspose2d(16, 8, kernel_size=[2, 2], stride=[2, 2])"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  ConvTranspose2dOptions options;
  Tensor weight;
  Tensor bias;
};

TORCH_MODULE(ConvTranspose2d);

}  // namespace nn
}  // namespace tinytorch
