#pragma once
// torch::nn::functional's dropout (LibTorch's DropoutFuncOptions, Dropout2dFuncOptions):
//   namespace F = torch::nn::functional;
//   F::dropout(x, F::DropoutFuncOptions().p(0.2).training(is_training()));
//   F::dropout2d(x, F::Dropout2dFuncOptions().p(0.1));    // zeroes whole channels of (N, C, H, W)
// training defaults to true, as in LibTorch.
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// Zeroes whole feature maps: input (N, C, ...) keeps or drops each (n, c) slice together, with
// probability 1 - p / p, and scales the kept ones by 1 / (1 - p) (LibTorch's feature_dropout).
Tensor feature_dropout(const Tensor& input, double p, bool train);

namespace nn {
namespace functional {

struct DropoutFuncOptions {
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(bool, inplace) = false;
};
using Dropout2dFuncOptions = DropoutFuncOptions;

Tensor dropout(Tensor input, const DropoutFuncOptions& options = {});
// input (N, C, H, W), or (C, H, W) unbatched.
Tensor dropout2d(Tensor input, const Dropout2dFuncOptions& options = {});

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
