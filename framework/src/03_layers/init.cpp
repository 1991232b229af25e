// nn::init: in-place initialisers (given code). Each draws a fresh tensor from TinyTorch's generator
// and copies it in, so the parameter keeps its storage (and every handle to it sees the values).
#include "tinytorch/nn/init.h"

#include <algorithm>
#include <cmath>
#include <variant>

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

double calculate_gain(NonlinearityType nonlinearity, double param) {
  if (std::holds_alternative<enumtype::kTanh>(nonlinearity)) return 5.0 / 3.0;
  if (std::holds_alternative<enumtype::kReLU>(nonlinearity)) return std::sqrt(2.0);
  if (std::holds_alternative<enumtype::kLeakyReLU>(nonlinearity)) return std::sqrt(2.0 / (1 + param * param));
  return 1.0;  // linear, convolutions, sigmoid
}

namespace {
// He et al.: std = gain / sqrt(fan), fan_in to keep the forward pass's variance, fan_out the backward's.
double kaiming_std(const Tensor& tensor, double a, const FanModeType& mode, const NonlinearityType& nonlinearity) {
  const auto [fan_in, fan_out] = _calculate_fan_in_and_fan_out(tensor);
  const double fan = static_cast<double>(std::holds_alternative<enumtype::kFanIn>(mode) ? fan_in : fan_out);
  return calculate_gain(nonlinearity, a) / std::sqrt(fan);
}
}  // namespace

Tensor kaiming_uniform_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  const double bound = std::sqrt(3.0) * kaiming_std(tensor, a, mode, nonlinearity);  // U(-b, b) has std b / sqrt(3)
  return uniform_(std::move(tensor), -bound, bound);
}

Tensor kaiming_normal_(Tensor tensor, double a, FanModeType mode, NonlinearityType nonlinearity) {
  const double std = kaiming_std(tensor, a, mode, nonlinearity);
  return normal_(std::move(tensor), 0, std);
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

Tensor eye_(Tensor matrix) {
  NoGradGuard no_grad;
  TT_CHECK(matrix.dim() == 2, "Only tensors with 2 dimensions are supported");
  matrix.copy_(eye(matrix.size(0), matrix.size(1), matrix.options()));
  return matrix;
}

Tensor dirac_(Tensor tensor) {
  NoGradGuard no_grad;
  const int64_t dims = tensor.dim();
  TT_CHECK(dims >= 3 && dims <= 5, "Only tensors with 3, 4, or 5 dimensions are supported");
  // Built in double, then copied in: one code path whatever the parameter's dtype.
  Tensor identity = zeros(tensor.sizes(), kDouble);
  double* data = identity.data_ptr<double>();
  const int64_t kernel_numel = tensor.numel() / (tensor.size(0) * tensor.size(1));
  int64_t kernel_centre = 0;  // flat offset of the kernel's centre, size / 2 in every spatial dim
  for (int64_t d = 2; d < dims; ++d) kernel_centre = kernel_centre * tensor.size(d) + tensor.size(d) / 2;
  for (int64_t channel = 0; channel < std::min(tensor.size(0), tensor.size(1)); ++channel) {
    data[(channel * tensor.size(1) + channel) * kernel_numel + kernel_centre] = 1;
  }
  tensor.copy_(identity);
  return tensor;
}

Tensor orthogonal_(Tensor tensor, double gain) {
  NoGradGuard no_grad;
  TT_CHECK(tensor.dim() >= 2, "Only tensors with 2 or more dimensions are supported");
  const int64_t rows = tensor.size(0);
  const int64_t columns = tensor.numel() / rows;
  Tensor flattened = randn({rows, columns});
  // QR of the tall orientation: m >= n, Q is m x n with orthonormal columns.
  const bool wide = rows < columns;
  if (wide) flattened = flattened.t();
  const int64_t m = flattened.size(0);
  const int64_t n = flattened.size(1);
  Tensor q = flattened.to(kDouble).contiguous();
  double* a = q.data_ptr<double>();
  // Modified Gram-Schmidt: column j loses its components along the earlier (already orthonormal)
  // columns, then is normalised. Its norm is R[j][j] > 0, so this Q is already the one LibTorch gets
  // after multiplying the Householder Q by sign(diag(R)).
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t k = 0; k < j; ++k) {
      double projection = 0;
      for (int64_t i = 0; i < m; ++i) projection += a[i * n + k] * a[i * n + j];
      for (int64_t i = 0; i < m; ++i) a[i * n + j] -= projection * a[i * n + k];
    }
    double norm = 0;
    for (int64_t i = 0; i < m; ++i) norm += a[i * n + j] * a[i * n + j];
    norm = std::sqrt(norm);
    for (int64_t i = 0; i < m; ++i) a[i * n + j] = norm > 0 ? a[i * n + j] / norm : 0.0;
  }
  if (wide) q = q.t();
  tensor.view_as(q).copy_(q);
  tensor.mul_(gain);
  return tensor;
}

Tensor sparse_(Tensor tensor, double sparsity, double std) {
  NoGradGuard no_grad;
  TT_CHECK(tensor.dim() == 2, "Only tensors with 2 dimensions are supported");
  const int64_t rows = tensor.size(0);
  const int64_t columns = tensor.size(1);
  const auto zeros_per_column = static_cast<int64_t>(std::ceil(sparsity * static_cast<double>(rows)));
  normal_(tensor, 0, std);
  Tensor keep = ones({rows, columns}, kDouble);
  double* k = keep.data_ptr<double>();
  for (int64_t column = 0; column < columns; ++column) {
    // A random permutation of the rows (the order of uniform draws); its first entries are zeroed.
    const Tensor permutation = rand({rows}).argsort().contiguous();
    const int64_t* row = permutation.data_ptr<int64_t>();
    for (int64_t i = 0; i < std::min(zeros_per_column, rows); ++i) k[row[i] * columns + column] = 0;
  }
  tensor.mul_(keep.to(tensor.scalar_type()));
  return tensor;
}

}  // namespace init
}  // namespace nn
}  // namespace tinytorch
