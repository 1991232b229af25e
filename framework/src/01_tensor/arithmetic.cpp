// + - * / and pow between tensors: type promotion and checks here, the broadcasting loop in the
// learner's elementwise.cpp (native::broadcast_binary_loop), the autograd record at the end and
// each op's derivative declaration after it (tinytorch/derivative.h). add's and mul's with two
// tensors are module 06's to write (06_autograd/gradient_rules.cpp).
#include <cmath>
#include <type_traits>

#include "internal.h"
#include "runtime/fast_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// PyTorch's three tiers: tensors with dims decide, then 0-dim tensors, then wrapped numbers; a
// lower tier only wins when it brings a higher kind (bool < integer < floating).
ScalarType combine_categories(std::optional<ScalarType> higher, std::optional<ScalarType> lower) {
  if (!higher) return *lower;
  if (!lower || isFloatingType(*higher)) return *higher;
  if (*higher == kBool || isFloatingType(*lower)) return promoteTypes(*higher, *lower);
  return *higher;
}

}  // namespace

ScalarType result_type(const Tensor& a, const Tensor& b) {
  std::optional<ScalarType> dimensioned, zero_dim, wrapped;
  for (const Tensor* t : {&a, &b}) {
    ScalarType current = t->scalar_type();
    std::optional<ScalarType>* tier = &dimensioned;
    if (t->unsafeGetTensorImpl()->is_wrapped_number()) {
      tier = &wrapped;
      if (isFloatingType(current)) current = default_dtype();  // `2.5` counts as a float32 number
    } else if (t->dim() == 0) {
      tier = &zero_dim;
    }
    *tier = tier->has_value() ? promoteTypes(**tier, current) : current;
  }
  std::optional<ScalarType> lower_tiers;
  if (zero_dim || wrapped) lower_tiers = combine_categories(zero_dim, wrapped);
  return combine_categories(dimensioned, lower_tiers);
}

ScalarType result_type(const Tensor& a, const Scalar& b) { return result_type(a, detail::wrapped_scalar(b)); }

namespace {

enum class BinaryOp { Add, Sub, Mul, Div, Pow };

template <typename T>
T integer_pow(T base, T exponent) {
  if constexpr (std::is_same_v<T, bool>) {
    return base || !exponent;  // x ** 0 == 1, else x
  } else {
    T result = 1;
    for (T i = 0; i < exponent; ++i) result = static_cast<T>(result * base);
    return result;
  }
}

// Bool arithmetic follows PyTorch: + is logical or, * is logical and.
template <typename T>
T multiply(T p, T q) {
  if constexpr (std::is_same_v<T, bool>) {
    return p && q;
  } else {
    return static_cast<T>(p * q);
  }
}

// Module 17's fast paths (runtime/fast_kernels.h) name the four arithmetic ops their own way.
detail::FastArithmetic fast_op(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return detail::FastArithmetic::Add;
    case BinaryOp::Sub: return detail::FastArithmetic::Sub;
    case BinaryOp::Mul: return detail::FastArithmetic::Mul;
    default: return detail::FastArithmetic::Div;
  }
}

// out = a (op) b with broadcasting, both computed in `dtype` (the promoted type). Records nothing.
// The narrow dtypes compute in int64 or float and convert back: an int8 127 + 1 wraps to -128 on
// the way back exactly as int8 arithmetic would, and Half rounds once per op as LibTorch's does.
Tensor binary_kernel(const Tensor& a, const Tensor& b, ScalarType dtype, BinaryOp op) {
  if (on_device(a, b)) {  // module 22's kernel for the device (tinytorch/dispatch.h)
    const char* name = op == BinaryOp::Add ? "add" : op == BinaryOp::Sub ? "sub" : op == BinaryOp::Mul ? "mul"
                     : op == BinaryOp::Div ? "div" : "pow";
    return device_kernel<Tensor(const Tensor&, const Tensor&, ScalarType)>(name, a, b)(a, b, dtype);
  }
  const ScalarType compute_type = detail::computation_type(dtype);
  if (compute_type != dtype) return detail::as_dtype(binary_kernel(a, b, compute_type, op), dtype);
  Tensor out = empty(infer_size(a.sizes(), b.sizes()), TensorOptions(dtype));
  const Tensor x = detail::as_dtype(a, dtype);
  const Tensor y = detail::as_dtype(b, dtype);
  const auto fast = detail::fast_kernels().binary;
  if (fast != nullptr && op != BinaryOp::Pow && fast(x, y, out, fast_op(op))) return out;
  TT_DISPATCH_ALL_TYPES(dtype, "binary_op", [&] {
    using T = scalar_t;
    T (*fn)(T, T) = nullptr;
    switch (op) {
      case BinaryOp::Add: fn = [](T p, T q) { return static_cast<T>(p + q); }; break;
      case BinaryOp::Sub: fn = [](T p, T q) { return static_cast<T>(p - q); }; break;
      case BinaryOp::Mul: fn = [](T p, T q) { return multiply(p, q); }; break;
      case BinaryOp::Div: fn = [](T p, T q) { return static_cast<T>(p / q); }; break;
      case BinaryOp::Pow:
        if constexpr (std::is_floating_point_v<T>) {
          fn = [](T p, T q) { return static_cast<T>(std::pow(p, q)); };
        } else {
          fn = [](T p, T q) { return integer_pow(p, q); };
        }
        break;
    }
    native::broadcast_binary_loop<T, T>(x, y, out, fn);
  });
  return out;
}

void check_alpha(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  const ScalarType type = result_type(a, b);
  TT_CHECK(isFloatingType(type) || !alpha.isFloatingPoint(),
           "For integral input tensors, argument alpha must not be a floating point number.");
  TT_CHECK(type == kBool || !alpha.isBoolean(), "Boolean alpha only supported for Boolean results.");
}

void check_not_bool_sub(const Tensor& a, const Tensor& b) {
  TT_CHECK(!(a.scalar_type() == kBool && b.scalar_type() == kBool),
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
           "operator instead.");
}

void check_integer_pow(const Tensor& base, const Tensor& exponent, ScalarType type) {
  if (isFloatingType(type) || exponent.numel() == 0) return;
  const Tensor e = detail::as_contiguous(exponent, kLong);
  const int64_t* data = static_cast<const int64_t*>(e.data_ptr());
  for (int64_t i = 0; i < e.numel(); ++i) {
    TT_CHECK(data[i] >= 0, "Integers to negative integer powers are not allowed.");
  }
  (void)base;
}

// a + alpha * b in the promoted type (alpha == 1 skips the multiply).
Tensor add_kernel(const Tensor& a, const Tensor& b, const Scalar& alpha, BinaryOp op) {
  const ScalarType type = result_type(a, b);
  const bool unit_alpha = alpha.isFloatingPoint() ? alpha.toDouble() == 1.0 : alpha.toLong() == 1;
  const Tensor scaled = unit_alpha ? b : binary_kernel(b, detail::wrapped_scalar(alpha), type, BinaryOp::Mul);
  return binary_kernel(a, scaled, type, op);
}

// The op a binary op records, in place or not: x + 2 is LibTorch's add.Scalar (AddBackward1), x + y
// its add (AddBackward0).
struct BinaryOverloads {
  OpHandle tensor_op;
  OpHandle number_op;
};
BinaryOverloads add_ops{OpHandle("add"), OpHandle("add.Scalar")};
BinaryOverloads sub_ops{OpHandle("sub"), OpHandle("sub.Scalar")};
BinaryOverloads mul_ops{OpHandle("mul"), OpHandle("mul.Scalar")};
BinaryOverloads div_ops{OpHandle("div"), OpHandle("div.Scalar")};

const OpHandle& overload(const Tensor& other, const BinaryOverloads& ops) {
  return other.unsafeGetTensorImpl()->is_wrapped_number() ? ops.number_op : ops.tensor_op;
}

// self's value before an in-place op overwrites it, for a backward that needs it (mul_ and div_
// when `other` requires grad), as LibTorch saves self.clone(); undefined otherwise.
Tensor original_for_backward(const Tensor& self, const Tensor& other) {
  if (!is_recording() || !other.requires_grad()) return Tensor();
  NoGradGuard no_record;
  return self.clone();
}

// Runs an out-of-place kernel result into `self` (the in-place form), with PyTorch's checks.
Tensor& write_in_place(Tensor& self, const Tensor& result, const OpHandle& op, const Tensor& other,
                       const OpAttributes& attributes, const Tensor& original_self = Tensor()) {
  TT_CHECK(canCast(result.scalar_type(), self.scalar_type()), "result type ", toString(result.scalar_type()),
           " can't be cast to the desired output type ", toString(self.scalar_type()));
  TT_CHECK(result.sizes().equals(self.sizes()), "output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", result.sizes());
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  record_in_place_op(op, {self, other}, attributes, original_self);
  return self;
}

OpAttributes with_alpha(const Scalar& alpha) {
  OpAttributes attributes;
  attributes.alpha = alpha;
  return attributes;
}

// self = self (op) alpha * other by module 17's in-place kernel (every gradient accumulation and
// optimizer update, in builds that have it). Records the op as `handle` when it ran; returns false to
// leave the op to the general path, which runs the learner's loop.
bool in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, BinaryOp op, const OpHandle& handle,
                   const Tensor& original_self = Tensor()) {
  const auto fast = detail::fast_kernels().binary_in_place;
  // Half and BFloat16 are floating but have no fast loop: they compute in float on the general path.
  if (fast == nullptr || op == BinaryOp::Pow || isReducedFloatingType(self.scalar_type()) || on_device(self, other) ||
      !fast(self, other, alpha, fast_op(op))) {
    return false;
  }
  record_in_place_op(handle, {self, other}, with_alpha(alpha), original_self);
  return true;
}

}  // namespace

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const {
  check_alpha(*this, other, alpha);
  Tensor result = add_kernel(*this, other, alpha, BinaryOp::Add);
  record_op(overload(other, add_ops), {*this, other}, {result}, with_alpha(alpha));
  return result;
}

namespace {
// x + number (AddBackward1): d self = grad; the number gets none.
const RegisterDerivative add_scalar_derivative("add.Scalar", {
    "AddBackward1", nullptr, [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad(), Tensor()}; }});
}  // namespace

Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const {
  check_not_bool_sub(*this, other);
  check_alpha(*this, other, alpha);
  Tensor result = add_kernel(*this, other, alpha, BinaryOp::Sub);
  record_op(overload(other, sub_ops), {*this, other}, {result}, with_alpha(alpha));
  return result;
}

namespace {
// out = self - alpha * other: d self = grad, d other = -alpha * grad.
tensor_list sub_backward(const BackwardContext& ctx) {
  const Tensor& grad = ctx.grad();
  const double alpha = ctx.attributes.alpha.toDouble();
  return {grad, ctx.needs_input_grad(1) ? (alpha == 1.0 ? -grad : grad * -alpha) : Tensor()};
}
const RegisterDerivative sub_derivative("sub", {"SubBackward0", nullptr, sub_backward});
const RegisterDerivative sub_scalar_derivative("sub.Scalar", {"SubBackward1", nullptr, sub_backward});
}  // namespace

Tensor Tensor::mul(const Tensor& other) const {
  Tensor result = binary_kernel(*this, other, result_type(*this, other), BinaryOp::Mul);
  record_op(overload(other, mul_ops), {*this, other}, {result});
  return result;
}

namespace {
// x * number (MulBackward1): d self = grad * number.
const RegisterDerivative mul_scalar_derivative("mul.Scalar", {
    "MulBackward1", [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad() * ctx.saved(0), Tensor()}; }});
}  // namespace

Tensor Tensor::div(const Tensor& other) const {
  // True division: integer and bool inputs give the default float dtype (7 / 2 == 3.5).
  ScalarType type = result_type(*this, other);
  if (!isFloatingType(type)) type = default_dtype();
  Tensor result = binary_kernel(*this, other, type, BinaryOp::Div);
  record_op(overload(other, div_ops), {*this, other}, {result});
  return result;
}

namespace {
// out = self / other: d self = grad / other, d other = -grad * self / other^2.
void save_div(SaveForBackward& save) {
  save.input(0);  // self (before the op, for div_)
  save.input(1);  // other
}
tensor_list div_backward(const BackwardContext& ctx) {
  const Tensor& grad = ctx.grad();
  const Tensor& self = ctx.saved(0);
  const Tensor& other = ctx.saved(1);
  return {ctx.needs_input_grad(0) ? grad / other : Tensor(),
          ctx.needs_input_grad(1) ? -grad * self / (other * other) : Tensor()};
}
const RegisterDerivative div_derivative("div", {"DivBackward0", save_div, div_backward});
const RegisterDerivative div_scalar_derivative("div.Scalar", {"DivBackward1", save_div, div_backward});
}  // namespace

Tensor Tensor::pow(const Tensor& exponent) const {
  const ScalarType type = result_type(*this, exponent);
  check_integer_pow(*this, exponent, type);
  Tensor result = binary_kernel(*this, exponent, type, BinaryOp::Pow);
  static OpHandle pow_tensor_tensor_op("pow.Tensor_Tensor");
  record_op(pow_tensor_tensor_op, {*this, exponent}, {result});
  return result;
}

namespace {
// out = self^exponent, both tensors: d self = e * self^(e - 1), d exponent = out * log(self),
// taken as 0 where self == 0 (as LibTorch does) instead of 0 * -inf.
const RegisterDerivative pow_tensor_derivative("pow.Tensor_Tensor", {
    "PowBackward1",
    [](SaveForBackward& save) {
      save.input(0);   // self
      save.input(1);   // exponent
      save.output(0);  // result
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Tensor& self = ctx.saved(0);
      const Tensor& exponent = ctx.saved(1);
      tensor_list result(2);
      if (ctx.needs_input_grad(0)) result[0] = grad * exponent * self.pow(exponent - 1);
      if (ctx.needs_input_grad(1)) {
        const Tensor safe_log = (self + self.eq(0).to(self.scalar_type())).log();  // log(1) = 0 where self == 0
        result[1] = grad * ctx.saved(2) * safe_log;
      }
      return result;
    }});
}  // namespace

Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return add(detail::wrapped_scalar(other), alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return sub(detail::wrapped_scalar(other), alpha); }
Tensor Tensor::mul(const Scalar& other) const { return mul(detail::wrapped_scalar(other)); }
Tensor Tensor::div(const Scalar& other) const { return div(detail::wrapped_scalar(other)); }

// In-place ops record the derivative of their out-of-place form, after refusing (before anything
// is written) what autograd cannot follow, such as an in-place op on a leaf that requires grad.
Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) {
  check_alpha(*this, other, alpha);
  const OpHandle& op = overload(other, add_ops);
  check_in_place(op, {*this, other});
  if (in_place_fast(*this, other, alpha, BinaryOp::Add, op)) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Add), op, other, with_alpha(alpha));
}

Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) {
  check_not_bool_sub(*this, other);
  check_alpha(*this, other, alpha);
  const OpHandle& op = overload(other, sub_ops);
  check_in_place(op, {*this, other});
  if (in_place_fast(*this, other, alpha, BinaryOp::Sub, op)) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Sub), op, other, with_alpha(alpha));
}

Tensor& Tensor::mul_(const Tensor& other) {
  const OpHandle& op = overload(other, mul_ops);
  check_in_place(op, {*this, other});
  const Tensor original = original_for_backward(*this, other);
  if (in_place_fast(*this, other, 1, BinaryOp::Mul, op, original)) return *this;
  return write_in_place(*this, binary_kernel(*this, other, result_type(*this, other), BinaryOp::Mul), op, other,
                        OpAttributes(), original);
}

Tensor& Tensor::div_(const Tensor& other) {
  const OpHandle& op = overload(other, div_ops);
  check_in_place(op, {*this, other});
  const Tensor original = original_for_backward(*this, other);
  if (in_place_fast(*this, other, 1, BinaryOp::Div, op, original)) return *this;
  ScalarType type = result_type(*this, other);
  if (!isFloatingType(type)) type = default_dtype();
  return write_in_place(*this, binary_kernel(*this, other, type, BinaryOp::Div), op, other, OpAttributes(), original);
}

Tensor& Tensor::add_(const Scalar& other, const Scalar& alpha) { return add_(detail::wrapped_scalar(other), alpha); }
Tensor& Tensor::sub_(const Scalar& other, const Scalar& alpha) { return sub_(detail::wrapped_scalar(other), alpha); }
Tensor& Tensor::mul_(const Scalar& other) { return mul_(detail::wrapped_scalar(other)); }
Tensor& Tensor::div_(const Scalar& other) { return div_(detail::wrapped_scalar(other)); }

// ---- Operators ----

Tensor operator+(const Tensor& a, const Tensor& b) { return a.add(b); }
Tensor operator+(const Tensor& a, const Scalar& b) { return a.add(b); }
Tensor operator+(const Scalar& a, const Tensor& b) { return b.add(a); }
Tensor operator-(const Tensor& a, const Tensor& b) { return a.sub(b); }
Tensor operator-(const Tensor& a, const Scalar& b) { return a.sub(b); }
Tensor operator-(const Scalar& a, const Tensor& b) { return detail::wrapped_scalar(a).sub(b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return a.mul(b); }
Tensor operator*(const Tensor& a, const Scalar& b) { return a.mul(b); }
Tensor operator*(const Scalar& a, const Tensor& b) { return b.mul(a); }
Tensor operator/(const Tensor& a, const Tensor& b) { return a.div(b); }
Tensor operator/(const Tensor& a, const Scalar& b) { return a.div(b); }
Tensor operator/(const Scalar& a, const Tensor& b) { return detail::wrapped_scalar(a).div(b); }

}  // namespace tinytorch
