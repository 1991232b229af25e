#pragma once
// Module 13 (Transformers): the loops the learner writes for layer normalisation
// (layer_norm_loops.cpp). Learner files include this header; public users include tinytorch/torch.h
// and call torch::layer_norm / nn::LayerNorm instead.
#include <array>
#include <cstdint>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace native {

// input: contiguous, a floating dtype, seen as `rows` slices of `features` values each (features =
// the product of normalized_shape, rows = numel / features). weight and bias: contiguous, `features`
// values, or undefined (scale 1, shift 0). Returns (output, mean, rstd): output like input; mean and
// rstd (rows) of input's dtype, each slice's mean and 1 / sqrt(biased variance + eps).
std::tuple<Tensor, Tensor, Tensor> layer_norm_loops(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                                    int64_t rows, int64_t features, double eps);

// (grad_input, grad_weight, grad_bias) of the forward above, given the mean and rstd it returned;
// grad_output contiguous like input. Each is computed only where output_mask says so (undefined
// otherwise); grad_weight and grad_bias have `features` values.
std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_loops(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Tensor& mean,
                                                             const Tensor& rstd, int64_t rows, int64_t features,
                                                             const std::array<bool, 3>& output_mask);

}  // namespace native
}  // namespace tinytorch
