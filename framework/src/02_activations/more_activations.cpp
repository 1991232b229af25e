// LibTorch's other activations (tinytorch/more_activations.h): silu, mish, softplus, hardtanh, elu
// (and selu, celu), hardsigmoid, hardswish, hardshrink, softshrink, threshold, log_sigmoid. Each is
// a formula over one element with the op's numbers, its record for autograd, and its derivative
// declaration (LibTorch's node name and derivatives.yaml formula) right after it. The in-place and
// out= forms write the same kernel's result (01_tensor/pointwise_unary_writes.h).
//
// The numbers travel to the backward in OpAttributes: alpha holds the op's first number (softplus's
// beta, elu's alpha, the shrinks' lambd, threshold's threshold), exponent its second (softplus's
// threshold, elu's scale, threshold's value), max elu's input_scale, min/max hardtanh's bounds.
#include <algorithm>
#include <cmath>

#include "../01_tensor/internal.h"
#include "../01_tensor/pointwise_unary_writes.h"
#include "tinytorch/activations.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/more_activations.h"

namespace tinytorch {
namespace {

using detail::WriteCheck;

// out[i] = formula(x[i]) in self's dtype (computed in float for Half and BFloat16). Floating inputs
// only unless `integers` (hardtanh, threshold): `formula` is generic over the element type.
template <typename Formula>
Tensor activation_kernel(const Tensor& self, const char* kernel, bool integers, Formula formula) {
  const ScalarType type = self.scalar_type();
  TT_CHECK(self.is_floating_point() || (integers && isIntegralType(type, false)), "\"", kernel,
           "\" not implemented for '", toString(type), "'");
  TT_CHECK(type != kHalf, "\"", kernel, "\" not implemented for 'Half'");
  const ScalarType compute_type = detail::computation_type(type);
  const Tensor input = detail::as_contiguous(self, compute_type);
  Tensor out = empty(self.sizes(), TensorOptions(compute_type));
  TT_DISPATCH_NUMERIC_TYPES(compute_type, kernel, [&] {
    const scalar_t* in = static_cast<const scalar_t*>(input.data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t i = 0; i < out.numel(); ++i) result[i] = static_cast<scalar_t>(formula(in[i]));
  });
  return compute_type == type ? out : native::to_dtype(out, type);
}

Tensor mask_as(const Tensor& mask, const Tensor& like) { return mask.to(like.scalar_type()); }

void save_self(SaveForBackward& save) { save.input(0); }

OpAttributes numbers(const Scalar& first, const Scalar& second = 0) {
  OpAttributes attributes;
  attributes.alpha = first;
  attributes.exponent = second;
  return attributes;
}

// ---- silu ----
Tensor silu_kernel(const Tensor& self) {
  return activation_kernel(self, "silu_cpu", false, [](auto x) {
    using T = decltype(x);
    return x / (T(1) + std::exp(-x));
  });
}
OpHandle silu_op("silu");
const RegisterDerivative silu_derivative("silu", {
    "SiluBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const Tensor s = sigmoid(x);
      return {ctx.grad() * s * (1 + x * (1 - s))};
    }});

// ---- mish ----
Tensor mish_kernel(const Tensor& self) {
  return activation_kernel(self, "mish_cpu", false, [](auto x) {
    using T = decltype(x);
    return x * std::tanh(x > T(20) ? x : std::log1p(std::exp(x)));
  });
}
OpHandle mish_op("mish");
const RegisterDerivative mish_derivative("mish", {
    "MishBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const Tensor t = softplus(x).tanh();
      return {ctx.grad() * (t + x * sigmoid(x) * (1 - t * t))};
    }});

// ---- softplus ----
Tensor softplus_kernel(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  const double b = beta.toDouble(), limit = threshold.toDouble();
  return activation_kernel(self, "softplus_cpu", false, [b, limit](auto x) {
    using T = decltype(x);
    return x * b > limit ? x : static_cast<T>(std::log1p(std::exp(x * b)) / b);
  });
}
OpHandle softplus_op("softplus");
// d/dx log(1 + exp(beta x)) / beta = sigmoid(beta x); 1 past the threshold.
const RegisterDerivative softplus_derivative("softplus", {
    "SoftplusBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const Tensor scaled = x * ctx.attributes.alpha;
      return {ctx.grad() * where(scaled.gt(ctx.attributes.exponent), 1.0, sigmoid(scaled))};
    }});

// ---- hardtanh ----
Tensor hardtanh_kernel(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  TT_CHECK(self.scalar_type() != kBool, "Bool inputs not supported for hardtanh");
  TT_CHECK(self.scalar_type() != kHalf, "\"clamp_scalar_cpu\" not implemented for 'Half'");
  const double lo = min_val.toDouble(), hi = max_val.toDouble();
  return activation_kernel(self, "hardtanh", true, [lo, hi](auto x) {
    using T = decltype(x);
    if (static_cast<double>(x) < lo) return static_cast<T>(lo);
    if (static_cast<double>(x) > hi) return static_cast<T>(hi);
    return x;  // NaN stays NaN
  });
}
OpAttributes hardtanh_bounds(const Scalar& min_val, const Scalar& max_val) {
  OpAttributes attributes;
  attributes.min = min_val;
  attributes.max = max_val;
  return attributes;
}
OpHandle hardtanh_op("hardtanh");
// The gradient passes strictly inside (min_val, max_val).
const RegisterDerivative hardtanh_derivative("hardtanh", {
    "HardtanhBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const Tensor& grad = ctx.grad();
      return {grad * mask_as(x.gt(*ctx.attributes.min), grad) * mask_as(x.lt(*ctx.attributes.max), grad)};
    }});

// ---- elu (selu and celu are elu with fixed numbers) ----
OpAttributes elu_numbers(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  OpAttributes attributes = numbers(alpha, scale);
  attributes.max = input_scale;
  return attributes;
}
Tensor elu_kernel(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  const double a = alpha.toDouble(), s = scale.toDouble(), in_s = input_scale.toDouble();
  return activation_kernel(self, "elu_cpu", false, [a, s, in_s](auto x) {
    using T = decltype(x);
    return x > T(0) ? static_cast<T>(x * s) : static_cast<T>(std::expm1(x * in_s) * a * s);
  });
}
OpHandle elu_op("elu");
OpHandle elu_in_place_op("elu_");
OpHandle celu_op("celu");
OpHandle celu_in_place_op("celu_");
tensor_list elu_backward(const BackwardContext& ctx) {
  const Tensor& x = ctx.saved(0);
  const double alpha = ctx.attributes.alpha.toDouble(), scale = ctx.attributes.exponent.toDouble();
  const double input_scale = ctx.attributes.max->toDouble();
  const Tensor negative_slope = (x * input_scale).exp() * (input_scale * alpha * scale);
  return {ctx.grad() * where(x.gt(0), scale, negative_slope)};
}
const RegisterDerivative elu_derivative("elu", {"EluBackward0", save_self, elu_backward});
const RegisterDerivative elu_in_place_derivative("elu_", {"EluBackward1", save_self, elu_backward});
const RegisterDerivative celu_derivative("celu", {"CeluBackward0", save_self, elu_backward});
const RegisterDerivative celu_in_place_derivative("celu_", {"CeluBackward1", save_self, elu_backward});

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

// celu(x, alpha) = elu(x, alpha, 1, 1 / alpha).
OpAttributes celu_numbers(const Scalar& alpha) { return elu_numbers(alpha, 1.0, 1.0 / alpha.toDouble()); }

// ---- hardsigmoid, hardswish ----
Tensor hardsigmoid_kernel(const Tensor& self) {
  return activation_kernel(self, "hardsigmoid_cpu", false, [](auto x) {
    using T = decltype(x);
    return std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
  });
}
Tensor hardswish_kernel(const Tensor& self) {
  return activation_kernel(self, "hardswish_cpu", false, [](auto x) {
    using T = decltype(x);
    return x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
  });
}
OpHandle hardsigmoid_op("hardsigmoid");
OpHandle hardswish_op("hardswish");
// Slope 1/6 strictly inside (-3, 3).
const RegisterDerivative hardsigmoid_derivative("hardsigmoid", {
    "HardsigmoidBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const Tensor& grad = ctx.grad();
      return {grad * mask_as(x.gt(-3), grad) * mask_as(x.lt(3), grad) / 6};
    }});
// 0 below -3, x / 3 + 1/2 on [-3, 3], 1 above.
const RegisterDerivative hardswish_derivative("hardswish", {
    "HardswishBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      return {ctx.grad() * where(x.lt(-3), 0.0, where(x.le(3), x / 3 + 0.5, ones_like(x)))};
    }});

// ---- hardshrink, softshrink ----
Tensor hardshrink_kernel(const Tensor& self, const Scalar& lambd) {
  const double l = lambd.toDouble();
  return activation_kernel(self, "hardshrink_cpu", false, [l](auto x) {
    using T = decltype(x);
    return (x >= -l && x <= l) ? T(0) : x;
  });
}
Tensor softshrink_kernel(const Tensor& self, const Scalar& lambd) {
  const double l = lambd.toDouble();
  TT_CHECK(l >= 0, "lambda must be greater or equal to 0, but found to be ", l, ".");
  return activation_kernel(self, "softshrink_cpu", false, [l](auto x) {
    using T = decltype(x);
    return x > l ? static_cast<T>(x - l) : (x < -l ? static_cast<T>(x + l) : T(0));
  });
}
OpHandle hardshrink_op("hardshrink");
OpHandle softshrink_op("softshrink");
// Both pass the gradient where |x| > lambd.
tensor_list shrink_backward(const BackwardContext& ctx) {
  const Tensor& x = ctx.saved(0);
  const Tensor& grad = ctx.grad();
  const double lambd = ctx.attributes.alpha.toDouble();
  return {grad * (mask_as(x.lt(-lambd), grad) + mask_as(x.gt(lambd), grad))};
}
const RegisterDerivative hardshrink_derivative("hardshrink", {"HardshrinkBackward0", save_self, shrink_backward});
const RegisterDerivative softshrink_derivative("softshrink", {"SoftshrinkBackward0", save_self, shrink_backward});

// ---- threshold ----
Tensor threshold_kernel(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  TT_CHECK(self.scalar_type() != kBool, "\"threshold_cpu\" not implemented for 'Bool'");
  const double limit = threshold.toDouble(), replacement = value.toDouble();
  return activation_kernel(self, "threshold_cpu", true, [limit, replacement](auto x) {
    using T = decltype(x);
    return static_cast<double>(x) <= limit ? static_cast<T>(replacement) : x;
  });
}
OpHandle threshold_op("threshold");
OpHandle threshold_in_place_op("threshold_");
tensor_list threshold_backward(const BackwardContext& ctx) {
  const Tensor& x = ctx.saved(0);
  return {ctx.grad() * mask_as(x.gt(ctx.attributes.alpha), ctx.grad())};
}
const RegisterDerivative threshold_derivative("threshold", {"ThresholdBackward0", save_self, threshold_backward});
const RegisterDerivative threshold_in_place_derivative("threshold_", {"ThresholdBackward1", save_self, threshold_backward});

// ---- log_sigmoid ----
Tensor log_sigmoid_kernel(const Tensor& self) {
  return activation_kernel(self, "log_sigmoid_cpu", false, [](auto x) {
    using T = decltype(x);
    return std::min(x, T(0)) - std::log1p(std::exp(-std::abs(x)));
  });
}
OpHandle log_sigmoid_op("log_sigmoid");
// d log(sigmoid(x)) = 1 - sigmoid(x) = sigmoid(-x).
const RegisterDerivative log_sigmoid_derivative("log_sigmoid", {
    "LogSigmoidBackward0", save_self, [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad() * sigmoid(-ctx.saved(0))};
    }});

Tensor record(const OpHandle& op, const Tensor& self, Tensor result, const OpAttributes& attributes = OpAttributes()) {
  record_op(op, {self}, {result}, attributes);
  return result;
}

}  // namespace

Tensor silu(const Tensor& self) { return record(silu_op, self, silu_kernel(self)); }
Tensor& silu_(Tensor& self) {
  return detail::write_in_place(self, silu_op, true, WriteCheck::Exact, [&] { return silu_kernel(self); });
}
Tensor& silu_out(Tensor& out, const Tensor& self) {
  return detail::write_out(out, self, "silu", WriteCheck::Exact, [&] { return silu_kernel(self); });
}

Tensor mish(const Tensor& self) { return record(mish_op, self, mish_kernel(self)); }
Tensor& mish_(Tensor& self) {
  return detail::write_in_place(self, mish_op, true, WriteCheck::Exact, [&] { return mish_kernel(self); });
}
Tensor& mish_out(Tensor& out, const Tensor& self) {
  return detail::write_out(out, self, "mish", WriteCheck::Exact, [&] { return mish_kernel(self); });
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return record(softplus_op, self, softplus_kernel(self, beta, threshold), numbers(beta, threshold));
}
Tensor& softplus_out(Tensor& out, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return detail::write_out(out, self, "softplus", WriteCheck::Exact,
                           [&] { return softplus_kernel(self, beta, threshold); });
}

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return record(hardtanh_op, self, hardtanh_kernel(self, min_val, max_val), hardtanh_bounds(min_val, max_val));
}
Tensor& hardtanh_(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return detail::write_in_place(self, hardtanh_op, true, WriteCheck::Exact,
                                [&] { return hardtanh_kernel(self, min_val, max_val); },
                                hardtanh_bounds(min_val, max_val));
}
Tensor& hardtanh_out(Tensor& out, const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  return detail::write_out(out, self, "hardtanh", WriteCheck::Exact,
                           [&] { return hardtanh_kernel(self, min_val, max_val); });
}

Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return record(elu_op, self, elu_kernel(self, alpha, scale, input_scale), elu_numbers(alpha, scale, input_scale));
}
Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return detail::write_in_place(self, elu_in_place_op, true, WriteCheck::Exact,
                                [&] { return elu_kernel(self, alpha, scale, input_scale); },
                                elu_numbers(alpha, scale, input_scale));
}
Tensor& elu_out(Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return detail::write_out(out, self, "elu", WriteCheck::Exact,
                           [&] { return elu_kernel(self, alpha, scale, input_scale); });
}
Tensor selu(const Tensor& self) { return elu(self, kSeluAlpha, kSeluScale, 1); }
Tensor& selu_(Tensor& self) { return elu_(self, kSeluAlpha, kSeluScale, 1); }
Tensor celu(const Tensor& self, const Scalar& alpha) {
  const OpAttributes elu_form = celu_numbers(alpha);
  return record(celu_op, self, elu_kernel(self, alpha, 1.0, *elu_form.max), elu_form);
}
Tensor& celu_(Tensor& self, const Scalar& alpha) {
  const OpAttributes elu_form = celu_numbers(alpha);
  return detail::write_in_place(self, celu_in_place_op, true, WriteCheck::Exact,
                                [&] { return elu_kernel(self, alpha, 1.0, *elu_form.max); }, elu_form);
}
Tensor& celu_out(Tensor& out, const Tensor& self, const Scalar& alpha) {
  return detail::write_out(out, self, "celu", WriteCheck::Exact,
                           [&] { return elu_kernel(self, alpha, 1.0, 1.0 / alpha.toDouble()); });
}

Tensor hardsigmoid(const Tensor& self) { return record(hardsigmoid_op, self, hardsigmoid_kernel(self)); }
Tensor& hardsigmoid_(Tensor& self) {
  return detail::write_in_place(self, hardsigmoid_op, true, WriteCheck::Exact, [&] { return hardsigmoid_kernel(self); });
}
Tensor& hardsigmoid_out(Tensor& out, const Tensor& self) {
  return detail::write_out(out, self, "hardsigmoid", WriteCheck::Exact, [&] { return hardsigmoid_kernel(self); });
}
Tensor hardswish(const Tensor& self) { return record(hardswish_op, self, hardswish_kernel(self)); }
Tensor& hardswish_(Tensor& self) {
  return detail::write_in_place(self, hardswish_op, true, WriteCheck::Exact, [&] { return hardswish_kernel(self); });
}
Tensor& hardswish_out(Tensor& out, const Tensor& self) {
  return detail::write_out(out, self, "hardswish", WriteCheck::Exact, [&] { return hardswish_kernel(self); });
}

Tensor Tensor::hardshrink(const Scalar& lambd) const {
  return record(hardshrink_op, *this, hardshrink_kernel(*this, lambd), numbers(lambd));
}
Tensor& hardshrink_out(Tensor& out, const Tensor& self, const Scalar& lambd) {
  return detail::write_out(out, self, "hardshrink", WriteCheck::Exact, [&] { return hardshrink_kernel(self, lambd); });
}
Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  return record(softshrink_op, self, softshrink_kernel(self, lambd), numbers(lambd));
}
Tensor& softshrink_out(Tensor& out, const Tensor& self, const Scalar& lambd) {
  return detail::write_out(out, self, "softshrink", WriteCheck::Exact, [&] { return softshrink_kernel(self, lambd); });
}

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  return record(threshold_op, self, threshold_kernel(self, threshold, value), numbers(threshold, value));
}
Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value) {
  return detail::write_in_place(self, threshold_in_place_op, true, WriteCheck::Exact,
                                [&] { return threshold_kernel(self, threshold, value); }, numbers(threshold, value));
}
Tensor& threshold_out(Tensor& out, const Tensor& self, const Scalar& threshold, const Scalar& value) {
  return detail::write_out(out, self, "threshold", WriteCheck::Exact,
                           [&] { return threshold_kernel(self, threshold, value); });
}

Tensor log_sigmoid(const Tensor& self) { return record(log_sigmoid_op, self, log_sigmoid_kernel(self)); }
Tensor& log_sigmoid_out(Tensor& out, const Tensor& self) {
  return detail::write_out(out, self, "log_sigmoid", WriteCheck::Exact, [&] { return log_sigmoid_kernel(self); });
}

}  // namespace tinytorch
