// Element-wise functions of one tensor: neg, exp, log, sqrt, abs, clamp, pow(scalar).
#include <cmath>
#include <type_traits>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// out[i] = fn(x[i]) with x converted to `dtype` (the output dtype). Records nothing.
template <typename Fn>
Tensor map_elements(const Tensor& self, ScalarType dtype, const char* name, Fn fn) {
  const Tensor input = detail::as_contiguous(self, dtype);
  Tensor out = empty(self.sizes(), TensorOptions(dtype));
  TT_DISPATCH_ALL_TYPES(dtype, name, [&] {
    const scalar_t* in = static_cast<const scalar_t*>(input.data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t i = 0; i < out.numel(); ++i) result[i] = static_cast<scalar_t>(fn(in[i]));
  });
  return out;
}

// exp/log/sqrt of an integer tensor are floating (the default dtype), as in PyTorch.
ScalarType floating_result(const Tensor& t) { return isFloatingType(t.scalar_type()) ? t.scalar_type() : default_dtype(); }

}  // namespace

Tensor Tensor::neg() const {
  TT_CHECK(scalar_type() != kBool,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
           "the `~` or `logical_not()` operator instead.");
  Tensor result = map_elements(*this, scalar_type(), "neg", [](auto x) { return -x; });
  record_op("neg", {*this}, {result});
  return result;
}

Tensor Tensor::exp() const {
  Tensor result = map_elements(*this, floating_result(*this), "exp", [](auto x) { return std::exp(x); });
  record_op("exp", {*this}, {result});
  return result;
}

Tensor Tensor::log() const {
  Tensor result = map_elements(*this, floating_result(*this), "log", [](auto x) { return std::log(x); });
  record_op("log", {*this}, {result});
  return result;
}

Tensor Tensor::sqrt() const {
  Tensor result = map_elements(*this, floating_result(*this), "sqrt", [](auto x) { return std::sqrt(x); });
  record_op("sqrt", {*this}, {result});
  return result;
}

Tensor Tensor::abs() const {
  Tensor result = map_elements(*this, scalar_type(), "abs", [](auto x) {
    if constexpr (std::is_same_v<decltype(x), bool>) {
      return x;
    } else {
      return x < 0 ? -x : x;
    }
  });
  record_op("abs", {*this}, {result});
  return result;
}

Tensor Tensor::clamp(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  TT_CHECK(min.has_value() || max.has_value(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  ScalarType type = scalar_type();
  if (min) type = result_type(*this, *min);
  if (max) type = promoteTypes(type, result_type(*this, *max));
  const double lo = min ? min->toDouble() : 0.0, hi = max ? max->toDouble() : 0.0;
  Tensor result = map_elements(*this, type, "clamp", [&](auto x) {
    using T = decltype(x);
    if (std::isnan(static_cast<double>(x))) return x;  // NaN stays NaN, as in PyTorch
    if (min && static_cast<double>(x) < lo) x = static_cast<T>(lo);
    if (max && static_cast<double>(x) > hi) x = static_cast<T>(hi);
    return x;
  });
  OpAttributes attributes;
  attributes.min = min;
  attributes.max = max;
  record_op("clamp", {*this}, {result}, attributes);
  return result;
}

Tensor Tensor::pow(const Scalar& exponent) const {
  const ScalarType type = result_type(*this, exponent);
  TT_CHECK(isFloatingType(type) || exponent.toLong() >= 0, "Integers to negative integer powers are not allowed.");
  Tensor result = map_elements(*this, type, "pow", [&](auto x) {
    using T = decltype(x);
    if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(std::pow(x, static_cast<T>(exponent.toDouble())));
    } else {
      T product = 1;
      for (int64_t i = 0; i < exponent.toLong(); ++i) product = static_cast<T>(product * x);
      return product;
    }
  });
  OpAttributes attributes;
  attributes.exponent = exponent;
  record_op("pow", {*this}, {result}, attributes);
  return result;
}

}  // namespace tinytorch
