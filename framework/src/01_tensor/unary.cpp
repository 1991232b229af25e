// Element-wise functions of one tensor: neg, exp, log, sqrt, abs, clamp, pow(scalar), each with its
// derivative declaration after it (tinytorch/derivative.h).
#include <cmath>
#include <string>
#include <type_traits>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// out[i] = fn(x[i]) with x converted to `dtype` (the output dtype). Records nothing. The narrow
// dtypes compute in int64 or float (detail::computation_type) and convert back.
// LibTorch 1.13's CPU kernels that have no Half version (BFloat16 has them all): the name it refuses with.
const char* half_unsupported_kernel(const char* name) {
  const std::string op(name);
  if (op == "exp" || op == "log" || op == "sqrt") return op == "exp" ? "exp_vml_cpu" : op == "log" ? "log_vml_cpu" : "sqrt_vml_cpu";
  if (op == "clamp") return "clamp_scalar_cpu";
  return nullptr;
}

template <typename Fn>
Tensor map_elements(const Tensor& self, ScalarType dtype, const char* name, Fn fn) {
  if (on_device(self)) return device_kernel<Tensor(const Tensor&, ScalarType)>(name, self)(self, dtype);
  if (dtype == kHalf) {
    const char* kernel = half_unsupported_kernel(name);
    TT_CHECK(kernel == nullptr, "\"", kernel, "\" not implemented for 'Half'");
  }
  const ScalarType compute_type = detail::computation_type(dtype);
  if (compute_type != dtype) return detail::as_dtype(map_elements(self, compute_type, name, fn), dtype);
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
  static OpHandle neg_op("neg");
  record_op(neg_op, {*this}, {result});
  return result;
}

namespace {
const RegisterDerivative neg_derivative("neg", {
    "NegBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list { return {-ctx.grad()}; }});

// 1.0 where the condition holds, 0.0 elsewhere, in `like`'s dtype.
Tensor as_weight(const Tensor& mask, const Tensor& like) { return mask.to(like.scalar_type()); }
}  // namespace

Tensor Tensor::exp() const {
  Tensor result = map_elements(*this, floating_result(*this), "exp", [](auto x) { return std::exp(x); });
  static OpHandle exp_op("exp");
  record_op(exp_op, {*this}, {result});
  return result;
}

namespace {
// exp' = exp: the output is the derivative.
const RegisterDerivative exp_derivative("exp", {
    "ExpBackward0", [](SaveForBackward& save) { save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad() * ctx.saved(0)}; }});
}  // namespace

Tensor Tensor::log() const {
  Tensor result = map_elements(*this, floating_result(*this), "log", [](auto x) { return std::log(x); });
  static OpHandle log_op("log");
  record_op(log_op, {*this}, {result});
  return result;
}

namespace {
const RegisterDerivative log_derivative("log", {
    "LogBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad() / ctx.saved(0)}; }});
}  // namespace

Tensor Tensor::sqrt() const {
  Tensor result = map_elements(*this, floating_result(*this), "sqrt", [](auto x) { return std::sqrt(x); });
  static OpHandle sqrt_op("sqrt");
  record_op(sqrt_op, {*this}, {result});
  return result;
}

namespace {
// sqrt'(x) = 1 / (2 sqrt(x)): from the output.
const RegisterDerivative sqrt_derivative("sqrt", {
    "SqrtBackward0", [](SaveForBackward& save) { save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad() / (ctx.saved(0) * 2)}; }});
}  // namespace

Tensor Tensor::abs() const {
  TT_CHECK(scalar_type() != kBool, "\"abs_cpu\" not implemented for 'Bool'");
  Tensor result = map_elements(*this, scalar_type(), "abs", [](auto x) {
    if constexpr (std::is_same_v<decltype(x), bool>) {
      return x;
    } else {
      return x < 0 ? -x : x;
    }
  });
  static OpHandle abs_op("abs");
  record_op(abs_op, {*this}, {result});
  return result;
}

namespace {
// d|x| = sign(x): +1, -1, and 0 at 0.
const RegisterDerivative abs_derivative("abs", {
    "AbsBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      return {ctx.grad() * (as_weight(self.gt(0), self) - as_weight(self.lt(0), self))};
    }});
}  // namespace

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
  static OpHandle clamp_op("clamp");
  record_op(clamp_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// The gradient passes where the input was inside [min, max] (bounds included), 0 where clamped.
const RegisterDerivative clamp_derivative("clamp", {
    "ClampBackward1", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const OpAttributes& a = ctx.attributes;
      Tensor inside = ones_like(self);
      if (a.min) inside = inside * as_weight(self.ge(*a.min), self);
      if (a.max) inside = inside * as_weight(self.le(*a.max), self);
      return {ctx.grad() * inside};
    }});
}  // namespace

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
  static OpHandle pow_tensor_scalar_op("pow.Tensor_Scalar");
  record_op(pow_tensor_scalar_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// out = self^e for a number e: d self = e * self^(e - 1) (0 when e == 0, even at self == 0).
const RegisterDerivative pow_scalar_derivative("pow.Tensor_Scalar", {
    "PowBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const double e = ctx.attributes.exponent.toDouble();
      if (e == 0.0) return {zeros_like(self)};
      return {ctx.grad() * self.pow(e - 1.0) * e};
    }});
}  // namespace

}  // namespace tinytorch
