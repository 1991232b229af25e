// + - * / and pow between tensors: type promotion and checks here, the broadcasting loop in the
// learner's elementwise.cpp (native::broadcast_binary_loop), the autograd record at the end.
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
Tensor binary_kernel(const Tensor& a, const Tensor& b, ScalarType dtype, BinaryOp op) {
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

// Runs an out-of-place kernel result into `self` (the in-place form), with PyTorch's checks.
Tensor& write_in_place(Tensor& self, const Tensor& result, const char* name, const Tensor& other,
                       const OpAttributes& attributes) {
  TT_CHECK(canCast(result.scalar_type(), self.scalar_type()), "result type ", toString(result.scalar_type()),
           " can't be cast to the desired output type ", toString(self.scalar_type()));
  TT_CHECK(result.sizes().equals(self.sizes()), "output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", result.sizes());
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  record_op(name, {self, other}, {self}, attributes);
  return self;
}

OpAttributes with_alpha(const Scalar& alpha) {
  OpAttributes attributes;
  attributes.alpha = alpha;
  return attributes;
}

// self = self (op) alpha * other by module 17's in-place kernel (every gradient accumulation and
// optimizer update, in builds that have it). Records the op as `name` when it ran; returns false to
// leave the op to the general path, which runs the learner's loop.
bool in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, BinaryOp op, const char* name) {
  const auto fast = detail::fast_kernels().binary_in_place;
  if (fast == nullptr || op == BinaryOp::Pow || !fast(self, other, alpha, fast_op(op))) return false;
  record_op(name, {self, other}, {self}, with_alpha(alpha));
  return true;
}

}  // namespace

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const {
  check_alpha(*this, other, alpha);
  Tensor result = add_kernel(*this, other, alpha, BinaryOp::Add);
  record_op("add", {*this, other}, {result}, with_alpha(alpha));
  return result;
}

Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const {
  check_not_bool_sub(*this, other);
  check_alpha(*this, other, alpha);
  Tensor result = add_kernel(*this, other, alpha, BinaryOp::Sub);
  record_op("sub", {*this, other}, {result}, with_alpha(alpha));
  return result;
}

Tensor Tensor::mul(const Tensor& other) const {
  Tensor result = binary_kernel(*this, other, result_type(*this, other), BinaryOp::Mul);
  record_op("mul", {*this, other}, {result});
  return result;
}

Tensor Tensor::div(const Tensor& other) const {
  // True division: integer and bool inputs give the default float dtype (7 / 2 == 3.5).
  ScalarType type = result_type(*this, other);
  if (!isFloatingType(type)) type = default_dtype();
  Tensor result = binary_kernel(*this, other, type, BinaryOp::Div);
  record_op("div", {*this, other}, {result});
  return result;
}

Tensor Tensor::pow(const Tensor& exponent) const {
  const ScalarType type = result_type(*this, exponent);
  check_integer_pow(*this, exponent, type);
  Tensor result = binary_kernel(*this, exponent, type, BinaryOp::Pow);
  record_op("pow", {*this, exponent}, {result});
  return result;
}

Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return add(detail::wrapped_scalar(other), alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return sub(detail::wrapped_scalar(other), alpha); }
Tensor Tensor::mul(const Scalar& other) const { return mul(detail::wrapped_scalar(other)); }
Tensor Tensor::div(const Scalar& other) const { return div(detail::wrapped_scalar(other)); }

Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) {
  check_alpha(*this, other, alpha);
  if (in_place_fast(*this, other, alpha, BinaryOp::Add, "add_")) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Add), "add_", other, with_alpha(alpha));
}

Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) {
  check_not_bool_sub(*this, other);
  check_alpha(*this, other, alpha);
  if (in_place_fast(*this, other, alpha, BinaryOp::Sub, "sub_")) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Sub), "sub_", other, with_alpha(alpha));
}

Tensor& Tensor::mul_(const Tensor& other) {
  if (in_place_fast(*this, other, 1, BinaryOp::Mul, "mul_")) return *this;
  return write_in_place(*this, binary_kernel(*this, other, result_type(*this, other), BinaryOp::Mul), "mul_", other,
                        OpAttributes());
}

Tensor& Tensor::div_(const Tensor& other) {
  if (in_place_fast(*this, other, 1, BinaryOp::Div, "div_")) return *this;
  ScalarType type = result_type(*this, other);
  if (!isFloatingType(type)) type = default_dtype();
  return write_in_place(*this, binary_kernel(*this, other, type, BinaryOp::Div), "div_", other, OpAttributes());
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
