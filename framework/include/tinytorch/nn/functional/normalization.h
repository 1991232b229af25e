#pragma once
// torch::nn::functional::layer_norm with its option builder (LibTorch's LayerNormFuncOptions):
//   namespace F = torch::nn::functional;
//   F::layer_norm(x, F::LayerNormFuncOptions({d}).weight(w).bias(b).eps(1e-5));
#include <cstdint>
#include <utility>
#include <vector>

#include "tinytorch/nn/arg.h"
#include "tinytorch/normalization.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace functional {

struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, bias) = {};
  TORCH_ARG(double, eps) = 1e-5;
};

inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return ::tinytorch::layer_norm(input, options.normalized_shape(), options.weight(), options.bias(),
                                 options.eps());
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
