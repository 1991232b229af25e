#pragma once
// nn::init: LibTorch's in-place weight initialisers (torch::nn::init), drawing from TinyTorch's
// generator (manual_seed makes them reproducible). Each fills `tensor` in place and returns it;
// they run without recording for autograd, as LibTorch's do.
//
// kaiming_uniform_(w, a) fills U(-bound, bound) with bound = gain * sqrt(3 / fan_in) and
// gain = sqrt(2 / (1 + a^2)). nn::Linear's default, a = sqrt(5), gives bound = 1 / sqrt(fan_in).
// This is a subset of LibTorch's: kaiming_* always use fan_in and the leaky_relu gain.
#include <cstdint>
#include <utility>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace init {

Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
Tensor constant_(Tensor tensor, Scalar value);
Tensor zeros_(Tensor tensor);
Tensor ones_(Tensor tensor);
Tensor kaiming_uniform_(Tensor tensor, double a = 0);
Tensor kaiming_normal_(Tensor tensor, double a = 0);
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
// fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (receptive field: the
// product of the sizes after the first two, 1 for a Linear weight). Needs at least 2 dimensions.
std::pair<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);

}  // namespace init
}  // namespace nn
}  // namespace tinytorch
