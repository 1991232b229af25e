#pragma once
// torch::nn::functional::unfold / fold with their options (LibTorch's torch/nn/options/fold.h and
// torch/nn/functional/fold.h): im2col and col2im on 4-D (or unbatched 3-D) input.
//
//   namespace F = torch::nn::functional;
//   auto cols = F::unfold(x, F::UnfoldFuncOptions({3, 3}).padding(1));          // (N, C 9, H W)
//   auto back = F::fold(cols, F::FoldFuncOptions({H, W}, {3, 3}).padding(1));    // (N, C, H, W)
#include <utility>

#include "tinytorch/acceleration.h"
#include "tinytorch/errors.h"
#include "tinytorch/expanding_array.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct FoldOptions {
  FoldOptions(ExpandingArray<2> output_size, ExpandingArray<2> kernel_size)
      : output_size_(std::move(output_size)), kernel_size_(std::move(kernel_size)) {}
  TORCH_ARG(ExpandingArray<2>, output_size);
  TORCH_ARG(ExpandingArray<2>, kernel_size);
  TORCH_ARG(ExpandingArray<2>, dilation) = 1;
  TORCH_ARG(ExpandingArray<2>, padding) = 0;
  TORCH_ARG(ExpandingArray<2>, stride) = 1;
};

struct UnfoldOptions {
  // Implicit, as LibTorch's: F::unfold(x, {3, 3}).
  UnfoldOptions(ExpandingArray<2> kernel_size) : kernel_size_(std::move(kernel_size)) {}  // NOLINT
  TORCH_ARG(ExpandingArray<2>, kernel_size);
  TORCH_ARG(ExpandingArray<2>, dilation) = 1;
  TORCH_ARG(ExpandingArray<2>, padding) = 0;
  TORCH_ARG(ExpandingArray<2>, stride) = 1;
};

namespace functional {

using FoldFuncOptions = FoldOptions;
using UnfoldFuncOptions = UnfoldOptions;

inline Tensor fold(const Tensor& input, const FoldFuncOptions& options) {
  TT_CHECK(input.dim() == 3 || input.dim() == 2,
           "Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported (got ", input.dim(), "D)");
  return tinytorch::col2im(input, options.output_size(), options.kernel_size(), options.dilation(),
                           options.padding(), options.stride());
}

inline Tensor unfold(const Tensor& input, const UnfoldFuncOptions& options) {
  TT_CHECK(input.dim() == 4 || input.dim() == 3,
           "Input Error: Only 3D or 4D input Tensors are supported (got ", input.dim(), "D)");
  return tinytorch::im2col(input, options.kernel_size(), options.dilation(), options.padding(),
                           options.stride());
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
