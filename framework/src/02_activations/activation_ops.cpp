// Module 02 (Activations), the given part: the public functions torch::relu, sigmoid, tanh, gelu,
// softmax and log_softmax (dtype and dim checks, then your kernel from activations.cpp, then the
// record for autograd), and the tanh and GELU kernels.
#include <cmath>
#include <string>

#include "../01_tensor/internal.h"
#include "tinytorch/activations.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

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
  return map_floating(self, "GeluKernelImpl", [](auto x) {
    using T = decltype(x);
    return x * static_cast<T>(0.5) * (static_cast<T>(1) + std::erf(x * static_cast<T>(M_SQRT1_2)));
  });
}

}  // namespace native

Tensor relu(const Tensor& self) {
  TT_CHECK(self.scalar_type() != kBool, "Boolean inputs not supported for relu");
  Tensor result = native::relu(detail::as_contiguous(self, self.scalar_type()));
  record_op("relu", {self}, {result});
  return result;
}

Tensor sigmoid(const Tensor& self) {
  Tensor result = native::sigmoid(detail::as_contiguous(self, floating_result(self)));
  record_op("sigmoid", {self}, {result});
  return result;
}

Tensor tanh(const Tensor& self) {
  Tensor result = native::tanh(detail::as_contiguous(self, floating_result(self)));
  record_op("tanh", {self}, {result});
  return result;
}

Tensor gelu(const Tensor& self, const std::string& approximate) {
  TT_CHECK(approximate == "none" || approximate == "tanh",
           "approximate argument must be either none or tanh.");
  TT_CHECK(self.is_floating_point(), "\"GeluKernelImpl\" not implemented for '", toString(self.scalar_type()),
           "'");
  Tensor result = native::gelu(detail::as_contiguous(self, self.scalar_type()), approximate == "tanh");
  OpAttributes attributes;
  attributes.index = approximate == "tanh" ? 1 : 0;  // the backward needs to know which formula ran
  record_op("gelu", {self}, {result}, attributes);
  return result;
}

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor result = softmax_like(self, dim, dtype, "softmax_lastdim_kernel_impl",
                               [](const Tensor& input, int64_t d) { return native::softmax(input, d); });
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim, self.dim());
  attributes.dtype = dtype;
  record_op("softmax", {self}, {result}, attributes);
  return result;
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor result = softmax_like(self, dim, dtype, "log_softmax_lastdim_kernel_impl",
                               [](const Tensor& input, int64_t d) { return native::log_softmax(input, d); });
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim, self.dim());
  attributes.dtype = dtype;
  record_op("log_softmax", {self}, {result}, attributes);
  return result;
}

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
