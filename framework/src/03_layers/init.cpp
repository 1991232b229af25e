// nn::init: in-place initialisers (given code). Each draws a fresh tensor from TinyTorch's generator
// and copies it in, so the parameter keeps its storage (and every handle to it sees the values).
#include "tinytorch/nn/init.h"

#include <cmath>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"

namespace tinytorch {
namespace nn {
namespace init {

Tensor uniform_(Tensor tensor, double low, double high) {
  NoGradGuard no_grad;
  tensor.copy_(rand(tensor.sizes(), tensor.options()) * (high - low) + low);
  return tensor;
}

Tensor normal_(Tensor tensor, double mean, double std) {
  NoGradGuard no_grad;
  tensor.copy_(randn(tensor.sizes(), tensor.options()) * std + mean);
  return tensor;
}

Tensor constant_(Tensor tensor, Scalar value) {
  NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}

Tensor zeros_(Tensor tensor) { return constant_(std::move(tensor), 0); }
Tensor ones_(Tensor tensor) { return constant_(std::move(tensor), 1); }

std::pair<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor) {
  TT_CHECK(tensor.dim() >= 2, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  int64_t receptive_field = 1;
  for (int64_t d = 2; d < tensor.dim(); ++d) receptive_field *= tensor.size(d);
  return {tensor.size(1) * receptive_field, tensor.size(0) * receptive_field};
}

namespace {
// calculate_gain("leaky_relu", a): the factor that keeps activations' variance through the layer.
double leaky_relu_gain(double a) { return std::sqrt(2.0 / (1.0 + a * a)); }
}  // namespace

Tensor kaiming_uniform_(Tensor tensor, double a) {
  const double fan_in = static_cast<double>(_calculate_fan_in_and_fan_out(tensor).first);
  const double std = leaky_relu_gain(a) / std::sqrt(fan_in);
  const double bound = std::sqrt(3.0) * std;  // U(-b, b) has standard deviation b / sqrt(3)
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a) {
  const double fan_in = static_cast<double>(_calculate_fan_in_and_fan_out(tensor).first);
  return normal_(std::move(tensor), 0, leaky_relu_gain(a) / std::sqrt(fan_in));
}

Tensor xavier_uniform_(Tensor tensor, double gain) {
  const auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
  const double bound = std::sqrt(3.0) * std;
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor xavier_normal_(Tensor tensor, double gain) {
  const auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  return normal_(std::move(tensor), 0, gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
}

}  // namespace init
}  // namespace nn
}  // namespace tinytorch
