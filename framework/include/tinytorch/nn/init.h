#pragma once
// nn::init: LibTorch's in-place weight initialisers (torch::nn::init), drawing from TinyTorch's
// generator (manual_seed makes them reproducible). Each fills `tensor` in place and returns it;
// they run without recording for autograd, as LibTorch's do.
//
// kaiming_uniform_(w, a, mode, nonlinearity) fills U(-bound, bound) with bound = sqrt(3) * gain /
// sqrt(fan), gain = calculate_gain(nonlinearity, a) and fan = fan_in (torch::kFanIn) or fan_out
// (torch::kFanOut). nn::Linear's default, a = sqrt(5) with kLeakyReLU, gives bound = 1 / sqrt(fan_in).
#include <cstdint>
#include <utility>
#include <variant>

#include "tinytorch/enum.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace init {

using NonlinearityType =
    std::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D, enumtype::kConv3D, enumtype::kConvTranspose1D,
                 enumtype::kConvTranspose2D, enumtype::kConvTranspose3D, enumtype::kSigmoid, enumtype::kTanh,
                 enumtype::kReLU, enumtype::kLeakyReLU>;
using FanModeType = std::variant<enumtype::kFanIn, enumtype::kFanOut>;

// The factor that keeps the activations' variance through a layer followed by `nonlinearity`:
// 1 for linear layers, convolutions and sigmoid, 5/3 for tanh, sqrt(2) for ReLU and
// sqrt(2 / (1 + param^2)) for leaky ReLU of negative slope `param`.
double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);

Tensor constant_(Tensor tensor, Scalar value);
// The identity of a convolution: a (out, in, k...) weight of 3 to 5 dimensions gets a 1 at the
// centre of the kernel of each of the first min(out, in) (out, in = out) pairs, 0 elsewhere.
Tensor dirac_(Tensor tensor);
// The identity matrix (ones on the diagonal of a 2-dimensional tensor).
Tensor eye_(Tensor matrix);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
Tensor ones_(Tensor tensor);
// A (semi-)orthogonal matrix times gain: the Q of the QR decomposition of a normal draw, its columns'
// signs fixed so that R has a positive diagonal (Mezzadri's rule, which makes Q uniform). Trailing
// dimensions beyond the first are flattened.
Tensor orthogonal_(Tensor tensor, double gain = 1.0);
// A 2-dimensional tensor of N(0, std) values with ceil(sparsity * rows) zeros in each column.
Tensor sparse_(Tensor tensor, double sparsity, double std = 0.01);
Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                       NonlinearityType nonlinearity = kLeakyReLU);
Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                        NonlinearityType nonlinearity = kLeakyReLU);
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
Tensor zeros_(Tensor tensor);
// fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (receptive field: the
// product of the sizes after the first two, 1 for a Linear weight). Needs at least 2 dimensions.
std::pair<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);

}  // namespace init
}  // namespace nn
}  // namespace tinytorch
