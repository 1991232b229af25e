// Pointwise ops of three operands (lerp, addcmul, addcdiv), dist and isclose, pow's remaining
// spellings (pow_ with a tensor exponent, a number raised to a tensor) and the out= forms of the
// arithmetic of arithmetic.cpp. Each differentiable op computes its result, records ONE op and
// declares LibTorch's node after it; the rules are written with differentiable ops.
#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "pointwise_binary_kernels.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/pointwise_binary.h"
#include "tinytorch/pointwise_unary.h"

namespace tinytorch {
namespace {

using pointwise::check_out_without_grad;
using pointwise::original_for_backward;
using pointwise::write_in_place;
using pointwise::write_out;

Tensor number(const Scalar& value) { return detail::wrapped_scalar(value); }

// PyTorch's promotion over several operands: tensors with dims decide, then 0-dim tensors, then
// wrapped numbers; a lower tier only counts when it brings a higher kind (bool < integer < float).
ScalarType promoted_type(std::initializer_list<Tensor> operands) {
  std::optional<ScalarType> tiers[3];  // dimensioned, 0-dim, wrapped number
  for (const Tensor& t : operands) {
    ScalarType type = t.scalar_type();
    int tier = t.dim() > 0 ? 0 : 1;
    if (t.unsafeGetTensorImpl()->is_wrapped_number()) {
      tier = 2;
      if (isFloatingType(type)) type = default_dtype();
    }
    tiers[tier] = tiers[tier] ? promoteTypes(*tiers[tier], type) : type;
  }
  auto kind = [](ScalarType t) { return t == kBool ? 0 : (isFloatingType(t) ? 2 : 1); };
  std::optional<ScalarType> result;
  for (const std::optional<ScalarType>& tier : tiers) {
    if (!tier) continue;
    if (!result) {
      result = tier;
    } else if (kind(*tier) > kind(*result)) {
      result = promoteTypes(*result, *tier);
    }
  }
  return *result;
}

// The operands broadcast together (LibTorch's error when they cannot be), each contiguous in `type`.
std::vector<Tensor> broadcast_operands(std::initializer_list<Tensor> operands, ScalarType type,
                                       std::vector<int64_t>& shape) {
  shape.clear();
  for (const Tensor& t : operands) shape = infer_size(shape, t.sizes());
  std::vector<Tensor> result;
  for (const Tensor& t : operands) result.push_back(detail::as_contiguous(detail::broadcast_view(t, shape), type));
  return result;
}

// out[i] = fn(a[i], b[i], c[i]) over the broadcast of the three, computed in the computation type
// of `dtype` and returned in `dtype`.
template <typename Fn>
Tensor ternary_map(const Tensor& a, const Tensor& b, const Tensor& c, ScalarType dtype, const char* name, Fn fn) {
  const ScalarType type = detail::computation_type(dtype);
  std::vector<int64_t> shape;
  const std::vector<Tensor> in = broadcast_operands({a, b, c}, type, shape);
  Tensor out = empty(shape, TensorOptions(type));
  TT_DISPATCH_ALL_TYPES(type, name, [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in[0].data_ptr());
    const scalar_t* y = static_cast<const scalar_t*>(in[1].data_ptr());
    const scalar_t* z = static_cast<const scalar_t*>(in[2].data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t i = 0; i < out.numel(); ++i) result[i] = fn(x[i], y[i], z[i]);
  });
  return detail::as_dtype(out, dtype);
}

// Python's dtype names, as LibTorch's lerp errors print them ("expected dtype float for `end`").
std::string dtype_name(ScalarType type) {
  std::ostringstream out;
  out << TypeMeta(type);
  return out.str();
}

// Writes `result` into self and records the op in place, cloning self first when the rule may
// need its old value.
Tensor& record_into(const Tensor& self, const Tensor& result, const OpHandle& op, std::initializer_list<Tensor> inputs,
                    const OpAttributes& attributes = OpAttributes()) {
  check_in_place(op, inputs);
  const Tensor original = original_for_backward(self, inputs);
  write_in_place(self, result);
  record_in_place_op(op, inputs, attributes, original);
  return const_cast<Tensor&>(self);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// lerp: self + weight * (end - self), computed from the nearer end as LibTorch does
// ---------------------------------------------------------------------------------------------

namespace {

template <typename T>
T lerp_value(T self, T end, T weight) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::abs(weight) < T(0.5) ? self + weight * (end - self) : end - (end - self) * (T(1) - weight);
  } else {
    return self;  // unreachable: check_lerp refuses integers
  }
}

void check_lerp(const Tensor& self, const Tensor& end, const Tensor* weight) {
  TT_CHECK(self.scalar_type() == end.scalar_type(), "expected dtype ", dtype_name(self.scalar_type()),
           " for `end` but got dtype ", dtype_name(end.scalar_type()));
  if (weight != nullptr) {
    TT_CHECK(self.scalar_type() == weight->scalar_type(), "expected dtype ", dtype_name(self.scalar_type()),
             " for `weight` but got dtype ", dtype_name(weight->scalar_type()));
  }
  if (!isFloatingType(self.scalar_type()) || self.scalar_type() == kHalf) {
    TT_DISPATCH_FAIL_(self.scalar_type(), weight != nullptr ? "lerp_kernel_tensor" : "lerp_kernel_scalar");
  }
}

Tensor lerp_scalar_kernel(const Tensor& self, const Tensor& end, const Scalar& weight) {
  check_lerp(self, end, nullptr);
  return ternary_map(self, end, self, self.scalar_type(), "lerp_kernel_scalar", [&weight](auto s, auto e, auto) {
    using T = decltype(s);
    return lerp_value<T>(s, e, weight.to<T>());
  });
}

Tensor lerp_tensor_kernel(const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_lerp(self, end, &weight);
  return ternary_map(self, end, weight, self.scalar_type(), "lerp_kernel_tensor",
                     [](auto s, auto e, auto w) { return lerp_value(s, e, w); });
}

OpHandle lerp_scalar_op("lerp.Scalar"), lerp_tensor_op("lerp.Tensor");

OpAttributes with_alpha(const Scalar& alpha) {
  OpAttributes attributes;
  attributes.alpha = alpha;
  return attributes;
}

}  // namespace

Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const {
  Tensor result = lerp_scalar_kernel(*this, end, weight);
  record_op(lerp_scalar_op, {*this, end}, {result}, with_alpha(weight));
  return result;
}
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const {
  Tensor result = lerp_tensor_kernel(*this, end, weight);
  record_op(lerp_tensor_op, {*this, end, weight}, {result});
  return result;
}
Tensor& Tensor::lerp_(const Tensor& end, const Scalar& weight) const {
  return record_into(*this, lerp_scalar_kernel(*this, end, weight), lerp_scalar_op, {*this, end}, with_alpha(weight));
}
Tensor& Tensor::lerp_(const Tensor& end, const Tensor& weight) const {
  return record_into(*this, lerp_tensor_kernel(*this, end, weight), lerp_tensor_op, {*this, end, weight});
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  check_out_without_grad("lerp", {self, end, out});
  return write_out(out, lerp_scalar_kernel(self, end, weight));
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  check_out_without_grad("lerp", {self, end, weight, out});
  return write_out(out, lerp_tensor_kernel(self, end, weight));
}

namespace {
// lerp = self + weight * (end - self): d self = grad * (1 - weight), d end = grad * weight,
// d weight = grad * (end - self).
const RegisterDerivative lerp_scalar_derivative("lerp.Scalar", {
    "LerpBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list {
      const double weight = ctx.attributes.alpha.toDouble();
      return {ctx.needs_input_grad(0) ? ctx.grad() * (1.0 - weight) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.grad() * weight : Tensor()};
    }});
const RegisterDerivative lerp_tensor_derivative("lerp.Tensor", {
    "LerpBackward1",
    [](SaveForBackward& save) {
      save.input(0);  // self
      save.input(1);  // end
      save.input(2);  // weight
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Tensor& weight = ctx.saved(2);
      return {ctx.needs_input_grad(0) ? grad * (1 - weight) : Tensor(),
              ctx.needs_input_grad(1) ? grad * weight : Tensor(),
              ctx.needs_input_grad(2) ? grad * (ctx.saved(1) - ctx.saved(0)) : Tensor()};
    }});
}  // namespace

// ---------------------------------------------------------------------------------------------
// addcmul / addcdiv: self + value * tensor1 * tensor2 (or / tensor2), the three promoted together
// ---------------------------------------------------------------------------------------------

namespace {

Tensor addcmul_kernel(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  const ScalarType dtype = promoted_type({self, tensor1, tensor2});
  if (dtype == kBool || dtype == kHalf) TT_DISPATCH_FAIL_(dtype, "addcmul_cpu_out");
  return ternary_map(self, tensor1, tensor2, dtype, "addcmul_cpu_out", [&value](auto s, auto a, auto b) {
    using T = decltype(s);
    if constexpr (std::is_same_v<T, bool>) {
      return s;  // unreachable: bool is refused above
    } else {
      return static_cast<T>(s + value.to<T>() * a * b);
    }
  });
}

Tensor addcdiv_kernel(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  TT_CHECK(!(isIntegralType(tensor1.scalar_type(), true) && isIntegralType(tensor2.scalar_type(), true)),
           "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
           "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
           "* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
           "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
           "* tensor1 / tensor2), for all dtypes.");
  const ScalarType dtype = promoted_type({self, tensor1, tensor2});
  if (dtype == kHalf) TT_DISPATCH_FAIL_(dtype, "addcdiv_cpu_out");
  return ternary_map(self, tensor1, tensor2, dtype, "addcdiv_cpu_out", [&value](auto s, auto a, auto b) {
    using T = decltype(s);
    if constexpr (std::is_same_v<T, bool>) {
      return s;  // unreachable: bool operands are refused above
    } else {
      return static_cast<T>(s + value.to<T>() * a / b);
    }
  });
}

OpHandle addcmul_op("addcmul"), addcdiv_op("addcdiv");

void save_factors(SaveForBackward& save) {
  save.input(1);  // tensor1
  save.input(2);  // tensor2
}

}  // namespace

Tensor Tensor::addcmul(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) const {
  Tensor result = addcmul_kernel(*this, tensor1, tensor2, value);
  record_op(addcmul_op, {*this, tensor1, tensor2}, {result}, with_alpha(value));
  return result;
}
Tensor& Tensor::addcmul_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) const {
  return record_into(*this, addcmul_kernel(*this, tensor1, tensor2, value), addcmul_op, {*this, tensor1, tensor2},
                     with_alpha(value));
}
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  check_out_without_grad("addcmul", {self, tensor1, tensor2, out});
  return write_out(out, addcmul_kernel(self, tensor1, tensor2, value));
}
Tensor Tensor::addcdiv(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) const {
  Tensor result = addcdiv_kernel(*this, tensor1, tensor2, value);
  record_op(addcdiv_op, {*this, tensor1, tensor2}, {result}, with_alpha(value));
  return result;
}
Tensor& Tensor::addcdiv_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) const {
  return record_into(*this, addcdiv_kernel(*this, tensor1, tensor2, value), addcdiv_op, {*this, tensor1, tensor2},
                     with_alpha(value));
}
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  check_out_without_grad("addcdiv", {self, tensor1, tensor2, out});
  return write_out(out, addcdiv_kernel(self, tensor1, tensor2, value));
}

namespace {
// addcmul: d self = grad, d tensor1 = grad * tensor2 * value, d tensor2 = grad * tensor1 * value.
const RegisterDerivative addcmul_derivative("addcmul", {
    "AddcmulBackward0", save_factors, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Scalar& value = ctx.attributes.alpha;
      return {ctx.needs_input_grad(0) ? grad : Tensor(),
              ctx.needs_input_grad(1) ? grad * (ctx.saved(1) * value) : Tensor(),
              ctx.needs_input_grad(2) ? grad * (ctx.saved(0) * value) : Tensor()};
    }});
// addcdiv: d tensor1 = grad * value / tensor2, d tensor2 = -grad * value * tensor1 / tensor2^2.
const RegisterDerivative addcdiv_derivative("addcdiv", {
    "AddcdivBackward0", save_factors, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Scalar& value = ctx.attributes.alpha;
      const Tensor& tensor1 = ctx.saved(0);
      const Tensor& tensor2 = ctx.saved(1);
      return {ctx.needs_input_grad(0) ? grad : Tensor(),
              ctx.needs_input_grad(1) ? grad * (value / tensor2) : Tensor(),
              ctx.needs_input_grad(2) ? -grad * value * tensor1 / (tensor2 * tensor2) : Tensor()};
    }});
}  // namespace

// ---------------------------------------------------------------------------------------------
// dist: the p-norm of self - other, one 0-dim result (DistBackward0)
// ---------------------------------------------------------------------------------------------

namespace {

OpHandle dist_op("dist");

Tensor dist_kernel(const Tensor& self, const Tensor& other, const Scalar& p) {
  NoGradGuard kernel_only;
  const Tensor difference = self - other;
  TT_CHECK(difference.is_floating_point(), "norm(): input dtype should be either floating point or complex. Got ",
           toString(difference.scalar_type()), " instead.");
  return difference.norm(p);
}

// +1, -1 or 0, in x's dtype.
Tensor sign_of(const Tensor& x) { return x.gt(0).to(x.scalar_type()) - x.lt(0).to(x.scalar_type()); }

// LibTorch's norm_backward for a norm of all elements: d x = grad * d||x||_p / dx.
Tensor norm_backward(const Tensor& grad, const Tensor& x, double p, const Tensor& norm) {
  const Tensor sign = sign_of(x);
  if (p == 0.0) return zeros_like(x);
  if (p == 1.0) return sign * grad;
  if (p == 2.0) return grad * (x / norm).masked_fill(norm.eq(0), 0);
  if (std::isinf(p)) {
    const Tensor is_extreme = x.abs().eq(norm).logical_or(x.ne(x)).to(x.scalar_type());
    return sign * (grad / is_extreme.sum()) * is_extreme;
  }
  if (p < 1.0) {
    const Tensor scaled = sign * x.abs().pow(p - 1).masked_fill(x.eq(0), 0);
    return scaled * grad * norm.pow(1 - p);
  }
  const Tensor scaled = p < 2.0 ? sign * x.abs().pow(p - 1) : x * x.abs().pow(p - 2);
  return scaled * (grad / norm.pow(p - 1)).masked_fill(norm.eq(0), 0);
}

}  // namespace

Tensor Tensor::dist(const Tensor& other, const Scalar& p) const {
  Tensor result = dist_kernel(*this, other, p);
  OpAttributes attributes;
  attributes.exponent = p;
  record_op(dist_op, {*this, other}, {result}, attributes);
  return result;
}
Tensor& dist_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& p) {
  check_out_without_grad("dist", {self, other, out});
  return write_out(out, dist_kernel(self, other, p));
}

namespace {
const RegisterDerivative dist_derivative("dist", {
    "DistBackward0",
    [](SaveForBackward& save) {
      save.input(0);   // self
      save.input(1);   // other
      save.output(0);  // the norm
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor d = norm_backward(ctx.grad(), ctx.saved(0) - ctx.saved(1), ctx.attributes.exponent.toDouble(),
                                     ctx.saved(2));
      return {ctx.needs_input_grad(0) ? d : Tensor(), ctx.needs_input_grad(1) ? -d : Tensor()};
    }});
}  // namespace

// ---------------------------------------------------------------------------------------------
// isclose: |self - other| <= atol + rtol * |other|, or equal (NaNs equal when equal_nan)
// ---------------------------------------------------------------------------------------------

Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  TT_CHECK(scalar_type() == other.scalar_type(), ::tinytorch::toString(scalar_type()), " did not match ",
           ::tinytorch::toString(other.scalar_type()));
  TT_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  TT_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  // Integers and bool are compared through the default float dtype, as PyTorch's rtol * other is.
  const ScalarType type = is_floating_point() ? detail::computation_type(scalar_type()) : default_dtype();
  std::vector<int64_t> shape;
  const std::vector<Tensor> in = broadcast_operands({*this, other}, type, shape);
  Tensor out = empty(shape, TensorOptions(kBool));
  bool* result = static_cast<bool*>(out.data_ptr());
  TT_DISPATCH_FLOATING_TYPES(type, "isclose", [&] {
    using T = scalar_t;
    const T* a = static_cast<const T*>(in[0].data_ptr());
    const T* b = static_cast<const T*>(in[1].data_ptr());
    const T relative = static_cast<T>(rtol);
    const T absolute = static_cast<T>(atol);
    for (int64_t i = 0; i < out.numel(); ++i) {
      bool close = a[i] == b[i] || (equal_nan && std::isnan(a[i]) && std::isnan(b[i]));
      if (!close && (rtol != 0 || atol != 0)) {
        const T actual = std::abs(a[i] - b[i]);
        close = std::isfinite(actual) && actual <= absolute + std::abs(relative * b[i]);
      }
      result[i] = close;
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// pow: in place with a tensor exponent, and a number raised to a tensor (arithmetic.cpp's kernel)
// ---------------------------------------------------------------------------------------------

Tensor& Tensor::pow_(const Tensor& exponent) const {
  static OpHandle pow_tensor_tensor_op("pow.Tensor_Tensor");  // PowBackward1, declared in arithmetic.cpp
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = pow(exponent);
  }
  return record_into(*this, result, pow_tensor_tensor_op, {*this, exponent});
}

Tensor pow(const Scalar& self, const Tensor& exponent) {
  static OpHandle pow_scalar_op("pow.Scalar");
  const Tensor base = number(self);
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = base.pow(exponent);
  }
  record_op(pow_scalar_op, {base, exponent}, {result});
  return result;
}

namespace {
// base^exponent for a number base: d exponent = grad * result * log(base), 0 where base == 0 and
// exponent >= 0 (the limit, instead of 0 * -inf).
const RegisterDerivative pow_scalar_derivative("pow.Scalar", {
    "PowBackward2",
    [](SaveForBackward& save) {
      save.input(0);   // the base, a 0-dim tensor
      save.input(1);   // exponent
      save.output(0);  // result
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& base = ctx.saved(0);
      const Tensor& exponent = ctx.saved(1);
      Tensor grad = ctx.grad() * ctx.saved(2) * base.log();
      if (base.item<double>() == 0.0) grad = grad.masked_fill(exponent.ge(0), 0);
      return {Tensor(), grad};
    }});
}  // namespace

// ---------------------------------------------------------------------------------------------
// out= forms of arithmetic.cpp's ops
// ---------------------------------------------------------------------------------------------

Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_out_without_grad("add", {self, other, out});
  return write_out(out, self.add(other, alpha));
}
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_out(out, self, number(other), alpha);
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_out_without_grad("sub", {self, other, out});
  return write_out(out, self.sub(other, alpha));
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub_out(out, self, number(other), alpha);
}
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other) {
  check_out_without_grad("mul", {self, other, out});
  return write_out(out, self.mul(other));
}
Tensor& mul_out(Tensor& out, const Tensor& self, const Scalar& other) { return mul_out(out, self, number(other)); }
Tensor& pow_out(Tensor& out, const Tensor& self, const Tensor& exponent) {
  check_out_without_grad("pow", {self, exponent, out});
  return write_out(out, self.pow(exponent));
}
Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent) {
  check_out_without_grad("pow", {exponent, out});
  return write_out(out, pow(self, exponent));
}

}  // namespace tinytorch
