// Factories from a tensor (new_zeros, new_full, ...), the dtype conversions toType / to(other) /
// type_as, and logspace. The random fills and factories are in random.cpp.
#include <cmath>

#include "internal.h"
#include "tinytorch/kernels.h"
#include "tinytorch/tensor_factories.h"

namespace tinytorch {
namespace {

// options with self's dtype where they name none: what every new_* method creates with.
TensorOptions with_dtype_of(const Tensor& self, const TensorOptions& options) {
  return options.dtype(options.dtype_opt().value_or(self.scalar_type()));
}

}  // namespace

Tensor Tensor::toType(ScalarType t) const { return to(t); }

Tensor Tensor::to(const Tensor& other, bool non_blocking, bool copy) const {
  return to(other.scalar_type(), non_blocking, copy);
}

Tensor Tensor::type_as(const Tensor& other) const { return to(other.scalar_type()); }

bool Tensor::is_signed() const {
  TT_CHECK(!isQIntType(scalar_type()), "isSignedType not supported for quantized types");
  return scalar_type() != kByte && scalar_type() != kBool;
}

Tensor Tensor::new_empty(IntArrayRef size, TensorOptions options) const {
  return empty(size, with_dtype_of(*this, options));
}

Tensor Tensor::new_empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options) const {
  return empty_strided(size, stride, with_dtype_of(*this, options));
}

// The fill value takes self's dtype (not the value's, as torch::full would): int.new_full({2}, 2.5) is {2, 2}.
Tensor Tensor::new_full(IntArrayRef size, const Scalar& fill_value, TensorOptions options) const {
  return full(size, fill_value, with_dtype_of(*this, options));
}

Tensor Tensor::new_zeros(IntArrayRef size, TensorOptions options) const {
  return zeros(size, with_dtype_of(*this, options));
}

Tensor Tensor::new_ones(IntArrayRef size, TensorOptions options) const {
  return ones(size, with_dtype_of(*this, options));
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, TensorOptions options) {
  TT_CHECK(steps >= 0, "number of steps must be non-negative");
  const ScalarType dtype = options.dtype().toScalarType();
  Tensor values = empty({steps}, kDouble);
  double* data = values.data_ptr<double>();
  const double a = start.toDouble(), b = end.toDouble();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  // As linspace (and LibTorch), the second half counts back from the end, so the last exponent is `end`.
  for (int64_t i = 0; i < steps; ++i) {
    const double exponent = i < steps / 2 ? a + step * static_cast<double>(i)
                                          : b - step * static_cast<double>(steps - 1 - i);
    data[i] = std::pow(base, steps == 1 ? a : exponent);
  }
  Tensor result = detail::as_dtype(values, dtype);
  if (options.requires_grad()) result.requires_grad_(true);
  return result;
}

}  // namespace tinytorch
