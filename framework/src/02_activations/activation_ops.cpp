// Module 02 (Activations), the given part: the public functions torch::relu, sigmoid, tanh, gelu,
// softmax and log_softmax (dtype and dim checks, then your kernel from activations.cpp, then the
// record for autograd, then the derivative declaration), and the tanh and GELU kernels. relu's
// derivative is module 06's to write (06_autograd/gradient_rules.cpp). Saved outputs make most of
// them cheap: sigmoid' = y (1 - y), tanh' = 1 - y^2.
#include <cmath>
#include <string>

#include "../01_tensor/internal.h"
#include "tinytorch/activations.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"
#include "runtime/vector_math.h"

namespace tinytorch {
namespace {

// sigmoid, tanh: integer and bool inputs compute in the default float dtype, as in LibTorch.
ScalarType floating_result(const Tensor& t) {
  return isFloatingType(t.scalar_type()) ? t.scalar_type() : default_dtype();
}

// out[i] = fn(in[i]) for a contiguous floating tensor: the shape of the given kernels below.
template <typename Fn>
Tensor map_floating(const Tensor& self, const char* name, Fn fn) {
  Tensor out = empty(self.sizes(), self.options());
  TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), name, [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) result[i] = fn(in[i]);
  });
  return out;
}

// softmax and log_softmax share their checks: the dtype (converted first when `dtype` is given),
// the dim, and a 0-dim input, which the kernels see as a 1-element vector.
template <typename Kernel>
Tensor softmax_like(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, const char* name,
                    Kernel kernel) {
  const ScalarType type = dtype.value_or(self.scalar_type());
  TT_CHECK(isFloatingType(type), "\"", name, "\" not implemented for '", toString(type), "'");
  const int64_t wrapped = maybe_wrap_dim(dim, self.dim());
  Tensor input = detail::as_contiguous(self, type);
  if (self.dim() == 0) {
    const Tensor as_vector = native::make_view(input, {1}, {1}, 0);
    const Tensor result = kernel(as_vector, 0);
    return native::make_view(result, {}, {}, 0);
  }
  return kernel(input, wrapped);
}

}  // namespace

namespace native {

// tanh(x) from <cmath>: already stable, since it saturates to +-1 instead of overflowing.
Tensor tanh(const Tensor& self) {
  return map_floating(self, "tanh", [](auto x) { return std::tanh(x); });
}

// Exact float GELU and its gradient in the branch-free float erfc and exp, which vectorise:
// x Phi(x) = x erfc(-x / sqrt 2) / 2 and grad (Phi(x) + x phi(x)).
TT_VECTOR_CLONES void gelu_float_loop(const float* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = 0.5f * in[i] * vector_math::erfc_float(in[i] * -static_cast<float>(M_SQRT1_2));
  }
}

TT_VECTOR_CLONES void gelu_backward_float_loop(const float* grad, const float* in, float* out, int64_t n) {
  const float inverse_sqrt_2pi = static_cast<float>(0.5 * M_2_SQRTPI * M_SQRT1_2);
  for (int64_t i = 0; i < n; ++i) {
    const float v = in[i];
    const float cdf = 0.5f * vector_math::erfc_float(v * -static_cast<float>(M_SQRT1_2));
    const float pdf = vector_math::exp_float(-0.5f * v * v) * inverse_sqrt_2pi;
    out[i] = grad[i] * (cdf + v * pdf);
  }
}

// GELU weights x by the probability that a standard normal falls below x.
//   exact ("none"): 0.5 x (1 + erf(x / sqrt 2))
//   "tanh":         0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
Tensor gelu(const Tensor& self, bool tanh_approximation) {
  if (tanh_approximation) {
    return map_floating(self, "GeluKernelImpl", [](auto x) {
      using T = decltype(x);
      const T k_beta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5);  // sqrt(2 / pi)
      const T k_kappa = static_cast<T>(0.044715);
      const T inner = k_beta * (x + k_kappa * x * x * x);
      return static_cast<T>(0.5) * x * (static_cast<T>(1) + std::tanh(inner));
    });
  }
  if (self.scalar_type() == kFloat) {
    Tensor out = empty(self.sizes(), self.options());
    gelu_float_loop(self.data_ptr<float>(), out.data_ptr<float>(), self.numel());
    return out;
  }
  return map_floating(self, "GeluKernelImpl", [](auto x) {
    using T = decltype(x);
    return x * static_cast<T>(0.5) * (static_cast<T>(1) + std::erf(x * static_cast<T>(M_SQRT1_2)));
  });
}

// d GELU(x) = Phi(x) + x phi(x) for the exact form, times grad, in one pass (LibTorch's
// gelu_backward): x and grad contiguous, of one floating dtype and shape.
Tensor gelu_backward_exact(const Tensor& grad, const Tensor& x) {
  Tensor out = empty(x.sizes(), x.options());
  if (x.scalar_type() == kFloat) {
    gelu_backward_float_loop(grad.data_ptr<float>(), x.data_ptr<float>(), out.data_ptr<float>(), x.numel());
    return out;
  }
  TT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "GeluBackwardKernelImpl", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(x.data_ptr());
    const scalar_t* g = static_cast<const scalar_t*>(grad.data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    const double inverse_sqrt_2pi = 0.5 * M_2_SQRTPI * M_SQRT1_2;
    for (int64_t i = 0; i < out.numel(); ++i) {
      const double v = in[i];
      result[i] = static_cast<scalar_t>(g[i] * (0.5 * std::erfc(-v * M_SQRT1_2) + v * std::exp(-0.5 * v * v) * inverse_sqrt_2pi));
    }
  });
  return out;
}

}  // namespace native

Tensor relu(const Tensor& self) {
  TT_CHECK(self.scalar_type() != kBool, "Boolean inputs not supported for relu");
  Tensor result = on_device(self) ? device_kernel<Tensor(const Tensor&, ScalarType)>("relu", self)(self, self.scalar_type())
                                  : native::relu(detail::as_contiguous(self, self.scalar_type()));
  static OpHandle relu_op("relu");
  record_op(relu_op, {self}, {result});
  return result;
}

// max(0, x) + negative_slope min(0, x): a small slope instead of ReLU's zero for x < 0, so that a
// unit pushed negative still gets a gradient.
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  TT_CHECK(self.is_floating_point(), "\"leaky_relu_cpu\" not implemented for '", toString(self.scalar_type()), "'");
  const double slope = negative_slope.to<double>();
  Tensor result = map_floating(detail::as_contiguous(self, self.scalar_type()), "leaky_relu_cpu", [slope](auto x) {
    using T = decltype(x);
    return x > T(0) ? x : static_cast<T>(x * slope);
  });
  OpAttributes attributes;
  attributes.alpha = negative_slope;
  static OpHandle leaky_relu_op("leaky_relu");
  record_op(leaky_relu_op, {self}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative leaky_relu_derivative("leaky_relu", {
    "LeakyReluBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      const double slope = ctx.attributes.alpha.to<double>();
      const Tensor positive = (x > 0).to(ctx.grad().scalar_type());
      return {ctx.grad() * (positive + (1 - positive) * slope)};
    }});
}  // namespace

Tensor sigmoid(const Tensor& self) {
  Tensor result = on_device(self)
                      ? device_kernel<Tensor(const Tensor&, ScalarType)>("sigmoid", self)(self, floating_result(self))
                      : native::sigmoid(detail::as_contiguous(self, floating_result(self)));
  static OpHandle sigmoid_op("sigmoid");
  record_op(sigmoid_op, {self}, {result});
  return result;
}

namespace {
void save_result(SaveForBackward& save) { save.output(0); }

const RegisterDerivative sigmoid_derivative("sigmoid", {
    "SigmoidBackward0", save_result, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& y = ctx.saved(0);
      return {ctx.grad() * y * (1 - y)};
    }});
}  // namespace

Tensor tanh(const Tensor& self) {
  Tensor result = on_device(self)
                      ? device_kernel<Tensor(const Tensor&, ScalarType)>("tanh", self)(self, floating_result(self))
                      : native::tanh(detail::as_contiguous(self, floating_result(self)));
  static OpHandle tanh_op("tanh");
  record_op(tanh_op, {self}, {result});
  return result;
}

namespace {
const RegisterDerivative tanh_derivative("tanh", {
    "TanhBackward0", save_result, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& y = ctx.saved(0);
      return {ctx.grad() * (1 - y * y)};
    }});
}  // namespace

Tensor gelu(const Tensor& self, const std::string& approximate) {
  TT_CHECK(approximate == "none" || approximate == "tanh",
           "approximate argument must be either none or tanh.");
  TT_CHECK(self.is_floating_point(), "\"GeluKernelImpl\" not implemented for '", toString(self.scalar_type()),
           "'");
  Tensor result = native::gelu(detail::as_contiguous(self, self.scalar_type()), approximate == "tanh");
  OpAttributes attributes;
  attributes.index = approximate == "tanh" ? 1 : 0;  // the backward needs to know which formula ran
  static OpHandle gelu_op("gelu");
  record_op(gelu_op, {self}, {result}, attributes);
  return result;
}

namespace {
// Exact GELU x * Phi(x): Phi(x) + x * phi(x), one fused kernel. Tanh form: product rule on
// 0.5 x (1 + tanh(inner)).
const RegisterDerivative gelu_derivative("gelu", {
    "GeluBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& x = ctx.saved(0);
      if (ctx.attributes.index == 0) {
        const Tensor grad = ctx.grad();
        if (grad.sizes().equals(x.sizes()) && grad.scalar_type() == x.scalar_type()) {
          return {native::gelu_backward_exact(grad.contiguous(), x.contiguous())};
        }
        return {grad * native::gelu_backward_exact(ones_like(x), x.contiguous())};
      }
      const double beta = M_SQRT2 * M_2_SQRTPI * 0.5;  // sqrt(2 / pi)
      const double kappa = 0.044715;
      const Tensor inner_t = tanh((x + x * x * x * kappa) * beta);
      const Tensor left_derivative = (inner_t + 1) * 0.5;
      const Tensor right_derivative = x * 0.5 * (1 - inner_t * inner_t) * ((x * x * (3 * kappa) + 1) * beta);
      return {ctx.grad() * (left_derivative + right_derivative)};
    }});
}  // namespace

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor result = on_device(self) ? device_kernel<Tensor(const Tensor&, int64_t, std::optional<ScalarType>)>(
                                        "softmax", self)(self, maybe_wrap_dim(dim, self.dim()), dtype)
                                  : softmax_like(self, dim, dtype, "softmax_lastdim_kernel_impl",
                                                 [](const Tensor& input, int64_t d) { return native::softmax(input, d); });
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim, self.dim());
  attributes.dtype = dtype;
  static OpHandle softmax_op("softmax");
  record_op(softmax_op, {self}, {result}, attributes);
  return result;
}

namespace {
// y = softmax(x): dx = y * (g - sum(g * y)) along dim: the Jacobian applied without building it.
const RegisterDerivative softmax_derivative("softmax", {
    "SoftmaxBackward0", save_result, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& y = ctx.saved(0);
      const Tensor& g = ctx.grad();
      return {y * (g - (g * y).sum({ctx.attributes.dim}, /*keepdim=*/true))};
    }});
}  // namespace

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor result =
      on_device(self)
          ? device_kernel<Tensor(const Tensor&, int64_t, std::optional<ScalarType>)>("log_softmax", self)(
                self, maybe_wrap_dim(dim, self.dim()), dtype)
          : softmax_like(self, dim, dtype, "log_softmax_lastdim_kernel_impl",
                         [](const Tensor& input, int64_t d) { return native::log_softmax(input, d); });
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim, self.dim());
  attributes.dtype = dtype;
  static OpHandle log_softmax_op("log_softmax");
  record_op(log_softmax_op, {self}, {result}, attributes);
  return result;
}

namespace {
// y = log_softmax(x): dx = g - softmax(x) * sum(g) along dim, with softmax(x) = exp(y).
const RegisterDerivative log_softmax_derivative("log_softmax", {
    "LogSoftmaxBackward0", save_result, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& g = ctx.grad();
      return {g - ctx.saved(0).exp() * g.sum({ctx.attributes.dim}, /*keepdim=*/true)};
    }});
}  // namespace

Tensor Tensor::relu() const { return ::tinytorch::relu(*this); }
Tensor Tensor::sigmoid() const { return ::tinytorch::sigmoid(*this); }
Tensor Tensor::tanh() const { return ::tinytorch::tanh(*this); }
Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return ::tinytorch::softmax(*this, dim, dtype);
}
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return ::tinytorch::log_softmax(*this, dim, dtype);
}

}  // namespace tinytorch
