#pragma once
// Module 09 (Convolutions): torch::batch_norm, as ATen declares it.
//
//   out = torch::batch_norm(x, weight, bias, running_mean, running_var, /*training=*/true,
//                           /*momentum=*/0.1, /*eps=*/1e-5, /*cudnn_enabled=*/false);
//   x (N, C, ...): every channel c is normalised over its N x (H x W ...) values, then scaled by
//   weight[c] and shifted by bias[c] (either may be undefined: 1 and 0).
// Training normalises with the batch's statistics and, where running_mean/running_var are defined,
// updates them in place: running = (1 - momentum) running + momentum batch, with the unbiased
// variance. Evaluation (training = false) normalises with the running statistics.
// Systems numbers: two passes over x forward (statistics, then normalise), two backward; 2 C
// parameters and 2 C running statistics; backward keeps x (the whole activation) alive.
#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                  const Tensor& running_var, bool training, double momentum, double eps, bool cudnn_enabled = false);

}  // namespace tinytorch

namespace tinytorch {

// Module 13 (Transformers): torch::layer_norm, as ATen declares it.
//
//   out = torch::layer_norm(x, /*normalized_shape=*/{d}, weight, bias, /*eps=*/1e-5);
//   x (*, normalized_shape...): every slice over the trailing normalized_shape dims is normalised by
//   its own mean and biased variance, then scaled by weight and shifted by bias (both of
//   normalized_shape, or undefined: 1 and 0). Unlike batch_norm there are no running statistics:
//   training and evaluation compute the same thing.
// Systems numbers: two passes over x forward (statistics, then normalise), two backward; 2 d
// parameters; backward keeps x plus one mean and one 1/std per slice.
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight = {},
                  const Tensor& bias = {}, double eps = 1e-5, bool cudnn_enable = true);

}  // namespace tinytorch
