#pragma once
// torch::nn::functional::batch_norm with its option builder (LibTorch's BatchNormFuncOptions):
//   namespace F = torch::nn::functional;
//   F::batch_norm(x, running_mean, running_var, F::BatchNormFuncOptions().weight(w).bias(b).training(true));
// training defaults to false (normalise with the running statistics), momentum to 0.1, eps to 1e-5.
#include <optional>

#include "tinytorch/nn/arg.h"
#include "tinytorch/normalization.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace functional {

struct BatchNormFuncOptions {
  TORCH_ARG(Tensor, weight) = Tensor();
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(bool, training) = false;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(double, eps) = 1e-5;
};

// Refuses, in training, a batch with one value per channel (its variance is undefined).
Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options = {});

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
