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
