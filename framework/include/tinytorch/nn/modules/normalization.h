#pragma once
// nn::LayerNorm (LibTorch's torch::nn::LayerNorm): normalises each slice over the trailing
// normalized_shape dims, then applies a learned element-wise scale (weight, ones) and shift (bias,
// zeros) when elementwise_affine.
//
//   nn::LayerNorm norm(nn::LayerNormOptions({512}).eps(1e-5).elementwise_affine(true));
//   Tensor y = norm(x);                                     // x (*, 512)
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

struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, elementwise_affine) = true;
};

class LayerNormImpl : public Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape) : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(const LayerNormOptions& options_);

  void reset() override;
  // weight = 1, bias = 0.
  void reset_parameters();
  // "torch::nn::LayerNorm([512], eps=1e-05, elementwise_affine=true)"
  void pretty_print(std::ostream& stream) const override;
  // F::layer_norm with this module's weight, bias and eps.
  Tensor forward(const Tensor& input);

  LayerNormOptions options;
  Tensor weight;  // normalized_shape, or undefined without elementwise_affine
  Tensor bias;
};

TORCH_MODULE(LayerNorm);

}  // namespace nn
}  // namespace tinytorch
