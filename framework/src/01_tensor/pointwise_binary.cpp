// Element-wise math of two operands, one table row per op: maximum, minimum, fmax, fmin, the
// division family (fmod, remainder, floor_divide, div with a rounding mode), atan2, hypot,
// copysign, nextafter, xlogy, logaddexp(2), heaviside, gcd, lcm. A row names the op's element
// function for each computation type, its result dtype rule and the ops it records; the shared
// machinery below gives every row LibTorch's method, in-place and out= spellings. Each row's
// derivative declaration (LibTorch's node name) follows it. Composites of these (ldexp,
// float_power, the aliases) are at the end.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "pointwise_binary_kernels.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/pointwise_binary.h"
#include "tinytorch/pointwise_unary.h"

namespace tinytorch {
namespace pointwise {

// ---------------------------------------------------------------------------------------------
// The machinery every row shares
// ---------------------------------------------------------------------------------------------

namespace {

template <typename T>
ElementFn<T> kernel_for(const ElementKernels& kernels) {
  if constexpr (std::is_same_v<T, bool>) {
    return kernels.on_bool;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return kernels.on_long;
  } else if constexpr (std::is_same_v<T, float>) {
    return kernels.on_float;
  } else {
    return kernels.on_double;
  }
}

// Integer division by zero is an error in PyTorch (floating division gives inf or NaN).
void check_no_zero_divisor(const Tensor& divisor) {
  const Tensor values = detail::as_contiguous(divisor, kLong);
  const int64_t* data = static_cast<const int64_t*>(values.data_ptr());
  for (int64_t i = 0; i < values.numel(); ++i) TT_CHECK(data[i] != 0, "ZeroDivisionError");
}

const OpHandle& recorded_op(const BinaryOp& op, const Tensor& other) {
  return other.unsafeGetTensorImpl()->is_wrapped_number() ? op.number_op : op.tensor_op;
}

// LibTorch resizes an out= tensor whose shape differs from the result's (it warns when out held
// elements). The TensorImpl is kept, so every handle to `out` sees the new shape.
void resize_out(Tensor& out, IntArrayRef sizes) {
  if (out.sizes().equals(sizes)) return;
  TensorImpl* impl = out.unsafeGetTensorImpl();
  const Tensor fresh = empty(sizes, TensorOptions(out.scalar_type()));
  const auto autograd_meta = impl->autograd_meta();
  *impl = *fresh.unsafeGetTensorImpl();
  impl->set_autograd_meta(autograd_meta);
}

}  // namespace

ScalarType result_dtype(const BinaryOp& op, const Tensor& self, const Tensor& other) {
  const ScalarType dtype = result_type(self, other);
  if (op.result_dtype == ResultDtype::IntegerToFloat && !isFloatingType(dtype)) return default_dtype();
  return dtype;
}

Tensor compute(const BinaryOp& op, const Tensor& self, const Tensor& other) {
  infer_size(self.sizes(), other.sizes());  // a shape error comes before a dtype error, as in LibTorch
  const ScalarType dtype = result_dtype(op, self, other);
  if (dtype == kHalf && !op.has_half_kernel) TT_DISPATCH_FAIL_(dtype, op.kernel_name);
  const ScalarType type = detail::computation_type(dtype);
  const Tensor result = TT_DISPATCH_ALL_TYPES(type, op.kernel_name, [&] {
    const ElementFn<scalar_t> fn = kernel_for<scalar_t>(op.kernels);
    if (fn == nullptr) TT_DISPATCH_FAIL_(dtype, op.kernel_name);
    const Tensor x = detail::as_dtype(self, type);
    const Tensor y = detail::as_dtype(other, type);
    if (op.divides && std::is_integral_v<scalar_t>) check_no_zero_divisor(y);
    return broadcast_map<scalar_t, scalar_t>(x, y, type, fn);
  });
  return detail::as_dtype(result, dtype);
}

Tensor apply(const BinaryOp& op, const Tensor& self, const Tensor& other) {
  Tensor result = compute(op, self, other);
  record_op(recorded_op(op, other), {self, other}, {result});
  return result;
}

Tensor& apply_in_place(const BinaryOp& op, const Tensor& self, const Tensor& other) {
  const OpHandle& handle = recorded_op(op, other);
  check_in_place(handle, {self, other});
  const Tensor original = original_for_backward(self, {self, other});
  write_in_place(self, compute(op, self, other));
  record_in_place_op(handle, {self, other}, OpAttributes(), original);
  return const_cast<Tensor&>(self);
}

Tensor& apply_out(const char* name, const BinaryOp& op, Tensor& out, const Tensor& self, const Tensor& other) {
  check_out_without_grad(name, {self, other, out});
  return write_out(out, compute(op, self, other));
}

const Tensor& write_in_place(const Tensor& self, const Tensor& result) {
  TT_CHECK(result.sizes().equals(self.sizes()), "output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", result.sizes());
  TT_CHECK(canCast(result.scalar_type(), self.scalar_type()), "result type ", toString(result.scalar_type()),
           " can't be cast to the desired output type ", toString(self.scalar_type()));
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  return self;
}

void check_out_without_grad(const char* name, std::initializer_list<Tensor> arguments) {
  if (!GradMode::is_enabled()) return;
  for (const Tensor& argument : arguments) {
    TT_CHECK(!(argument.defined() && argument.requires_grad()), name,
             "(): functions with out=... arguments don't support automatic differentiation, but one of the "
             "arguments requires grad.");
  }
}

Tensor& write_out(Tensor& out, const Tensor& result) {
  TT_CHECK(canCast(result.scalar_type(), out.scalar_type()), "result type ", toString(result.scalar_type()),
           " can't be cast to the desired output type ", toString(out.scalar_type()));
  detail::check_no_internal_overlap(out);
  resize_out(out, result.sizes());
  detail::copy_into(out, result);
  return out;
}

Tensor original_for_backward(const Tensor& self, std::initializer_list<Tensor> inputs) {
  if (!is_recording()) return Tensor();
  const bool any = std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.requires_grad(); });
  if (!any) return Tensor();
  NoGradGuard no_record;
  return self.clone();
}

Tensor as_weight(const Tensor& mask, const Tensor& like) { return mask.to(like.scalar_type()); }

// ---------------------------------------------------------------------------------------------
// Element functions (PyTorch's CPU kernels: BinaryOpsKernel.cpp, BinaryOps.h)
// ---------------------------------------------------------------------------------------------

namespace {

template <typename T>
constexpr bool is_float_v = std::is_floating_point_v<T>;

// a / -1 without the overflow trap of INT64_MIN / -1 (it wraps, as two's complement does).
int64_t negate_wrapping(int64_t a) { return static_cast<int64_t>(0ULL - static_cast<uint64_t>(a)); }

struct Maximum {  // NaN propagates
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      if (a != a || b != b) return std::numeric_limits<T>::quiet_NaN();
    }
    return std::max(a, b);
  }
};
struct Minimum {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      if (a != a || b != b) return std::numeric_limits<T>::quiet_NaN();
    }
    return std::min(a, b);
  }
};
struct Fmax {  // a NaN loses to a number
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      return std::fmax(a, b);
    } else {
      return std::max(a, b);
    }
  }
};
struct Fmin {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      return std::fmin(a, b);
    } else {
      return std::min(a, b);
    }
  }
};
struct Fmod {  // sign of the dividend, as C's %
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      return std::fmod(a, b);
    } else {
      return b == -1 ? 0 : a % b;
    }
  }
};
struct Remainder {  // sign of the divisor, as Python's %
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      T mod = std::fmod(a, b);
      if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
      return mod;
    } else {
      T mod = b == -1 ? 0 : a % b;
      if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
      return mod;
    }
  }
};
struct DivFloor {  // PyTorch's div_floor_floating / div_floor_integer
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      if (b == 0) return a / b;
      const T mod = std::fmod(a, b);
      T quotient = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) quotient -= T(1);
      if (quotient == 0) return std::copysign(T(0), a / b);
      T floored = std::floor(quotient);
      if (quotient - floored > T(0.5)) floored += T(1);
      return floored;
    } else {
      if (b == -1) return negate_wrapping(a);
      const T quotient = a / b;
      return ((a < 0) != (b < 0)) && a % b != 0 ? quotient - 1 : quotient;
    }
  }
};
struct DivTrunc {
  template <typename T>
  static T apply(T a, T b) {
    if constexpr (is_float_v<T>) {
      return std::trunc(a / b);
    } else {
      return b == -1 ? negate_wrapping(a) : a / b;
    }
  }
};
struct Atan2 {
  template <typename T>
  static T apply(T a, T b) { return std::atan2(a, b); }
};
struct Hypot {
  template <typename T>
  static T apply(T a, T b) { return std::hypot(a, b); }
};
struct Copysign {
  template <typename T>
  static T apply(T a, T b) { return std::copysign(a, b); }
};
struct Nextafter {
  template <typename T>
  static T apply(T a, T b) { return std::nextafter(a, b); }
};
struct Xlogy {  // 0 where x == 0 (even for y == 0), NaN where y is NaN
  template <typename T>
  static T apply(T x, T y) {
    if (std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
    if (x == 0) return 0;
    return x * std::log(y);
  }
};
struct Logaddexp {  // log(e^a + e^b) without overflow
  template <typename T>
  static T apply(T a, T b) {
    if (std::isinf(a) && a == b) return a;
    const T m = std::max(a, b);
    return m + std::log1p(std::exp(-std::abs(a - b)));
  }
};
struct Logaddexp2 {
  template <typename T>
  static T apply(T a, T b) {
    if (std::isinf(a) && a == b) return a;
    const T m = std::max(a, b);
    const T inv_log_2 = static_cast<T>(1.0 / std::log(2.0));
    return m + std::log1p(std::exp2(-std::abs(a - b))) * inv_log_2;
  }
};
struct Heaviside {  // values where self == 0
  template <typename T>
  static T apply(T self, T values) { return self == 0 ? values : static_cast<T>(self > 0); }
};
struct Gcd {
  template <typename T>
  static T apply(T a, T b) {
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (a != 0) {
      const T c = a;
      a = b % a;
      b = c;
    }
    return b;
  }
};
struct Lcm {
  template <typename T>
  static T apply(T a, T b) {
    const T g = Gcd::apply(a, b);
    if (g == 0) return 0;
    const T l = a / g * b;
    return l < 0 ? -l : l;
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// The table: one row per op
// ---------------------------------------------------------------------------------------------

namespace {

constexpr ResultDtype kPromoted = ResultDtype::Promoted;
constexpr ResultDtype kToFloat = ResultDtype::IntegerToFloat;
constexpr unsigned kNumbers = kIntegers | kFloats;

OpHandle maximum_op("maximum"), minimum_op("minimum"), fmax_op("fmax"), fmin_op("fmin");
OpHandle fmod_op("fmod.Tensor"), fmod_number_op("fmod.Scalar");
OpHandle remainder_op("remainder.Tensor"), remainder_number_op("remainder.Scalar");
OpHandle floor_divide_op("floor_divide"), floor_divide_number_op("floor_divide.Scalar");
// div with a rounding mode; true division with rounding_mode = nullopt records div.Tensor_mode too.
OpHandle div_rounded_op("div.Tensor_mode_rounded"), div_rounded_number_op("div.Scalar_mode_rounded");
OpHandle atan2_op("atan2"), hypot_op("hypot"), nextafter_op("nextafter");
OpHandle copysign_op("copysign.Tensor"), copysign_number_op("copysign.Scalar");
OpHandle xlogy_op("xlogy.Tensor"), xlogy_number_op("xlogy.Scalar_Other");
OpHandle logaddexp_op("logaddexp"), logaddexp2_op("logaddexp2"), heaviside_op("heaviside");
OpHandle gcd_op("gcd"), lcm_op("lcm");

// kernel name, result dtype, kernels, divides, recorded ops[, has a Half kernel]
const BinaryOp kMaximum{"maximum_cpu", kPromoted, kernels_of<Maximum, kAllKinds>(), false, maximum_op, maximum_op};
const BinaryOp kMinimum{"minimum_cpu", kPromoted, kernels_of<Minimum, kAllKinds>(), false, minimum_op, minimum_op};
const BinaryOp kFmax{"fmax_cpu", kPromoted, kernels_of<Fmax, kAllKinds>(), false, fmax_op, fmax_op};
const BinaryOp kFmin{"fmin_cpu", kPromoted, kernels_of<Fmin, kAllKinds>(), false, fmin_op, fmin_op};
const BinaryOp kFmod{"fmod_cpu", kPromoted, kernels_of<Fmod, kNumbers>(), true, fmod_op, fmod_number_op};
const BinaryOp kRemainder{"remainder_cpu", kPromoted, kernels_of<Remainder, kNumbers>(), true, remainder_op,
                          remainder_number_op};
const BinaryOp kFloorDivide{"div_floor_cpu", kPromoted, kernels_of<DivFloor, kNumbers>(), true, floor_divide_op,
                            floor_divide_number_op};
const BinaryOp kDivFloor{"div_floor_cpu", kPromoted, kernels_of<DivFloor, kNumbers>(), true, div_rounded_op,
                         div_rounded_number_op};
const BinaryOp kDivTrunc{"div_trunc_cpu", kPromoted, kernels_of<DivTrunc, kNumbers>(), true, div_rounded_op,
                         div_rounded_number_op};
const BinaryOp kAtan2{"atan2_cpu", kToFloat, kernels_of<Atan2, kFloats>(), false, atan2_op, atan2_op, false};
const BinaryOp kHypot{"hypot_cpu", kPromoted, kernels_of<Hypot, kFloats>(), false, hypot_op, hypot_op, false};
const BinaryOp kCopysign{"copysign_cpu", kToFloat, kernels_of<Copysign, kFloats>(), false, copysign_op,
                         copysign_number_op};
const BinaryOp kNextafter{"nextafter_cpu", kPromoted, kernels_of<Nextafter, kFloats>(), false, nextafter_op,
                          nextafter_op, false};
const BinaryOp kXlogy{"xlogy_cpu", kToFloat, kernels_of<Xlogy, kFloats>(), false, xlogy_op, xlogy_number_op};
const BinaryOp kLogaddexp{"logaddexp_cpu", kPromoted, kernels_of<Logaddexp, kFloats>(), false, logaddexp_op,
                          logaddexp_op, false};
const BinaryOp kLogaddexp2{"logaddexp2_cpu", kPromoted, kernels_of<Logaddexp2, kFloats>(), false, logaddexp2_op,
                           logaddexp2_op, false};
const BinaryOp kHeaviside{"heaviside_cpu", kPromoted, kernels_of<Heaviside, kAllKinds>(), false, heaviside_op,
                          heaviside_op};
const BinaryOp kGcd{"gcd_cpu", kPromoted, kernels_of<Gcd, kIntegers>(), false, gcd_op, gcd_op};
const BinaryOp kLcm{"lcm_cpu", kPromoted, kernels_of<Lcm, kIntegers>(), false, lcm_op, lcm_op};

Tensor number(const Scalar& value) { return detail::wrapped_scalar(value); }

// The rounding mode's row: "trunc" or "floor"; nullptr for true division.
const BinaryOp* rounding_row(std::optional<std::string_view> rounding_mode) {
  if (!rounding_mode) return nullptr;
  if (*rounding_mode == "trunc") return &kDivTrunc;
  if (*rounding_mode == "floor") return &kDivFloor;
  TT_CHECK(false, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
           std::string(*rounding_mode), "'");
  return nullptr;
}

void check_heaviside(const Tensor& self, const Tensor& values) {
  TT_CHECK(self.scalar_type() == values.scalar_type(),
           "heaviside is not yet implemented for tensors with different dtypes.");
}

}  // namespace
}  // namespace pointwise

using pointwise::apply;
using pointwise::apply_in_place;
using pointwise::apply_out;

// Each op with a tensor `other`: the method, its in-place form and torch::name_out.
#define TT_POINTWISE_BINARY_TENSOR(name, row)                                                             \
  Tensor Tensor::name(const Tensor& other) const { return apply(pointwise::row, *this, other); }          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                             \
    return apply_out(#name, pointwise::row, out, self, other);                                          \
  }
#define TT_POINTWISE_BINARY_IN_PLACE(name, row) \
  Tensor& Tensor::name##_(const Tensor& other) const { return apply_in_place(pointwise::row, *this, other); }
// ... and with a number `other`.
#define TT_POINTWISE_BINARY_NUMBER(name, row)                                                               \
  Tensor Tensor::name(const Scalar& other) const { return apply(pointwise::row, *this, pointwise::number(other)); } \
  Tensor& Tensor::name##_(const Scalar& other) const {                                                       \
    return apply_in_place(pointwise::row, *this, pointwise::number(other));                                  \
  }                                                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                \
    return apply_out(#name, pointwise::row, out, self, pointwise::number(other));                           \
  }

TT_POINTWISE_BINARY_TENSOR(maximum, kMaximum)
TT_POINTWISE_BINARY_TENSOR(minimum, kMinimum)
TT_POINTWISE_BINARY_TENSOR(fmax, kFmax)
TT_POINTWISE_BINARY_TENSOR(fmin, kFmin)
TT_POINTWISE_BINARY_TENSOR(fmod, kFmod)
TT_POINTWISE_BINARY_IN_PLACE(fmod, kFmod)
TT_POINTWISE_BINARY_NUMBER(fmod, kFmod)
TT_POINTWISE_BINARY_TENSOR(remainder, kRemainder)
TT_POINTWISE_BINARY_IN_PLACE(remainder, kRemainder)
TT_POINTWISE_BINARY_NUMBER(remainder, kRemainder)
TT_POINTWISE_BINARY_TENSOR(floor_divide, kFloorDivide)
TT_POINTWISE_BINARY_IN_PLACE(floor_divide, kFloorDivide)
TT_POINTWISE_BINARY_TENSOR(atan2, kAtan2)
TT_POINTWISE_BINARY_IN_PLACE(atan2, kAtan2)
TT_POINTWISE_BINARY_TENSOR(hypot, kHypot)
TT_POINTWISE_BINARY_IN_PLACE(hypot, kHypot)
TT_POINTWISE_BINARY_TENSOR(copysign, kCopysign)
TT_POINTWISE_BINARY_IN_PLACE(copysign, kCopysign)
TT_POINTWISE_BINARY_NUMBER(copysign, kCopysign)
TT_POINTWISE_BINARY_TENSOR(nextafter, kNextafter)
TT_POINTWISE_BINARY_IN_PLACE(nextafter, kNextafter)
TT_POINTWISE_BINARY_TENSOR(xlogy, kXlogy)
TT_POINTWISE_BINARY_IN_PLACE(xlogy, kXlogy)
TT_POINTWISE_BINARY_NUMBER(xlogy, kXlogy)
TT_POINTWISE_BINARY_TENSOR(logaddexp, kLogaddexp)
TT_POINTWISE_BINARY_TENSOR(logaddexp2, kLogaddexp2)
TT_POINTWISE_BINARY_TENSOR(gcd, kGcd)
TT_POINTWISE_BINARY_IN_PLACE(gcd, kGcd)
TT_POINTWISE_BINARY_TENSOR(lcm, kLcm)
TT_POINTWISE_BINARY_IN_PLACE(lcm, kLcm)

#undef TT_POINTWISE_BINARY_TENSOR
#undef TT_POINTWISE_BINARY_IN_PLACE
#undef TT_POINTWISE_BINARY_NUMBER

Tensor Tensor::floor_divide(const Scalar& other) const {
  return apply(pointwise::kFloorDivide, *this, pointwise::number(other));
}
Tensor& Tensor::floor_divide_(const Scalar& other) const {
  return apply_in_place(pointwise::kFloorDivide, *this, pointwise::number(other));
}

Tensor Tensor::arctan2(const Tensor& other) const { return atan2(other); }
Tensor& Tensor::arctan2_(const Tensor& other) const { return atan2_(other); }
Tensor& arctan2_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return apply_out("arctan2", pointwise::kAtan2, out, self, other);
}

Tensor Tensor::heaviside(const Tensor& values) const {
  pointwise::check_heaviside(*this, values);
  return apply(pointwise::kHeaviside, *this, values);
}
Tensor& Tensor::heaviside_(const Tensor& values) const {
  pointwise::check_heaviside(*this, values);
  return apply_in_place(pointwise::kHeaviside, *this, values);
}
Tensor& heaviside_out(Tensor& out, const Tensor& self, const Tensor& values) {
  pointwise::check_heaviside(self, values);
  return apply_out("heaviside", pointwise::kHeaviside, out, self, values);
}

Tensor remainder(const Scalar& self, const Tensor& other) {
  static OpHandle remainder_scalar_tensor_op("remainder.Scalar_Tensor");
  const Tensor base = pointwise::number(self);
  Tensor result = pointwise::compute(pointwise::kRemainder, base, other);
  record_op(remainder_scalar_tensor_op, {base, other}, {result});
  return result;
}
Tensor& remainder_out(Tensor& out, const Scalar& self, const Tensor& other) {
  return apply_out("remainder", pointwise::kRemainder, out, pointwise::number(self), other);
}

Tensor xlogy(const Scalar& self, const Tensor& other) {
  static OpHandle xlogy_scalar_self_op("xlogy.Scalar_Self");
  const Tensor x = pointwise::number(self);
  Tensor result = pointwise::compute(pointwise::kXlogy, x, other);
  record_op(xlogy_scalar_self_op, {x, other}, {result});
  return result;
}
Tensor& xlogy_out(Tensor& out, const Scalar& self, const Tensor& other) {
  return apply_out("xlogy", pointwise::kXlogy, out, pointwise::number(self), other);
}

// ---- div with a rounding mode, and its other names ----

namespace {
OpHandle div_mode_op("div.Tensor_mode"), div_mode_number_op("div.Scalar_mode");

// True division recorded as div's rounding-mode overload (DivBackward2 / DivBackward3), as LibTorch.
Tensor true_division(const Tensor& self, const Tensor& other) {
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = self.div(other);
  }
  const bool number = other.unsafeGetTensorImpl()->is_wrapped_number();
  record_op(number ? div_mode_number_op : div_mode_op, {self, other}, {result});
  return result;
}

Tensor divide_rounding(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  const pointwise::BinaryOp* row = pointwise::rounding_row(rounding_mode);
  return row != nullptr ? apply(*row, self, other) : true_division(self, other);
}

Tensor& divide_rounding_(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  const pointwise::BinaryOp* row = pointwise::rounding_row(rounding_mode);
  if (row != nullptr) return apply_in_place(*row, self, other);
  return const_cast<Tensor&>(self).div_(other);
}
}  // namespace

Tensor Tensor::div(const Tensor& other, std::optional<std::string_view> rounding_mode) const {
  return divide_rounding(*this, other, rounding_mode);
}
Tensor Tensor::div(const Scalar& other, std::optional<std::string_view> rounding_mode) const {
  return divide_rounding(*this, pointwise::number(other), rounding_mode);
}
Tensor& Tensor::div_(const Tensor& other, std::optional<std::string_view> rounding_mode) const {
  return divide_rounding_(*this, other, rounding_mode);
}
Tensor& Tensor::div_(const Scalar& other, std::optional<std::string_view> rounding_mode) const {
  return divide_rounding_(*this, pointwise::number(other), rounding_mode);
}
Tensor Tensor::divide(const Tensor& other) const { return div(other); }
Tensor Tensor::divide(const Scalar& other) const { return div(other); }
Tensor Tensor::divide(const Tensor& other, std::optional<std::string_view> rounding_mode) const {
  return div(other, rounding_mode);
}
Tensor Tensor::divide(const Scalar& other, std::optional<std::string_view> rounding_mode) const {
  return div(other, rounding_mode);
}
Tensor& Tensor::divide_(const Tensor& other) const { return const_cast<Tensor&>(*this).div_(other); }
Tensor& Tensor::divide_(const Scalar& other) const { return const_cast<Tensor&>(*this).div_(other); }
Tensor& Tensor::divide_(const Tensor& other, std::optional<std::string_view> rounding_mode) const {
  return div_(other, rounding_mode);
}
Tensor& Tensor::divide_(const Scalar& other, std::optional<std::string_view> rounding_mode) const {
  return div_(other, rounding_mode);
}
Tensor Tensor::true_divide(const Tensor& other) const { return div(other); }
Tensor Tensor::true_divide(const Scalar& other) const { return div(other); }
Tensor& Tensor::true_divide_(const Tensor& other) const { return const_cast<Tensor&>(*this).div_(other); }
Tensor& Tensor::true_divide_(const Scalar& other) const { return const_cast<Tensor&>(*this).div_(other); }

Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  pointwise::check_out_without_grad("div", {self, other, out});
  return pointwise::write_out(out, self.div(other, rounding_mode));
}
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode) {
  return div_out(out, self, pointwise::number(other), rounding_mode);
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other) { return div_out(out, self, other, std::nullopt); }
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other) { return div_out(out, self, other, std::nullopt); }
Tensor& divide_out(Tensor& out, const Tensor& self, const Tensor& other) { return div_out(out, self, other); }
Tensor& divide_out(Tensor& out, const Tensor& self, const Tensor& other,
                   std::optional<std::string_view> rounding_mode) {
  return div_out(out, self, other, rounding_mode);
}
Tensor& true_divide_out(Tensor& out, const Tensor& self, const Tensor& other) { return div_out(out, self, other); }

// ---- Composites, as LibTorch composes them ----

// self * 2^other (MulBackward0).
Tensor Tensor::ldexp(const Tensor& other) const { return mul(::tinytorch::pow(2.0, other)); }
Tensor& Tensor::ldexp_(const Tensor& other) const {
  Tensor& self = const_cast<Tensor&>(*this);
  return mul_out(self, self, ::tinytorch::pow(2.0, other));
}
Tensor& ldexp_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return mul_out(out, self, ::tinytorch::pow(2.0, other));
}

// pow in double precision (PowBackward0/1/2 after the conversions).
Tensor Tensor::float_power(const Tensor& exponent) const { return to(kDouble).pow(exponent.to(kDouble)); }
Tensor Tensor::float_power(const Scalar& exponent) const { return to(kDouble).pow(exponent.toDouble()); }
Tensor float_power(const Scalar& self, const Tensor& exponent) { return pow(self.toDouble(), exponent.to(kDouble)); }

namespace {
void check_float_power_dtype(const char* what, const Tensor& t) {
  TT_CHECK(t.scalar_type() == kDouble, "the ", what, " has dtype ", toString(t.scalar_type()),
           " but the operation's result requires dtype Double");
}
}  // namespace

Tensor& Tensor::float_power_(const Tensor& exponent) const {
  check_float_power_dtype("base given to float_power_", *this);
  return pow_(exponent.to(kDouble));
}
Tensor& Tensor::float_power_(const Scalar& exponent) const {
  check_float_power_dtype("base given to float_power_", *this);
  return pow_(exponent.toDouble());
}
Tensor& float_power_out(Tensor& out, const Tensor& self, const Tensor& exponent) {
  check_float_power_dtype("output given to float_power", out);
  return pow_out(out, self.to(kDouble), exponent.to(kDouble));
}
Tensor& float_power_out(Tensor& out, const Scalar& self, const Tensor& exponent) {
  check_float_power_dtype("output given to float_power", out);
  return pow_out(out, self.toDouble(), exponent.to(kDouble));
}
Tensor& float_power_out(Tensor& out, const Tensor& self, const Scalar& exponent) {
  check_float_power_dtype("output given to float_power", out);
  return pow_out(out, self.to(kDouble), exponent.toDouble());
}

Tensor Tensor::multiply(const Tensor& other) const { return mul(other); }
Tensor Tensor::multiply(const Scalar& other) const { return mul(other); }
Tensor& Tensor::multiply_(const Tensor& other) const { return const_cast<Tensor&>(*this).mul_(other); }
Tensor& Tensor::multiply_(const Scalar& other) const { return const_cast<Tensor&>(*this).mul_(other); }
Tensor& multiply_out(Tensor& out, const Tensor& self, const Tensor& other) { return mul_out(out, self, other); }
Tensor Tensor::subtract(const Tensor& other, const Scalar& alpha) const { return sub(other, alpha); }
Tensor Tensor::subtract(const Scalar& other, const Scalar& alpha) const { return sub(other, alpha); }
Tensor& Tensor::subtract_(const Tensor& other, const Scalar& alpha) const {
  return const_cast<Tensor&>(*this).sub_(other, alpha);
}
Tensor& Tensor::subtract_(const Scalar& other, const Scalar& alpha) const {
  return const_cast<Tensor&>(*this).sub_(other, alpha);
}
Tensor& subtract_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return sub_out(out, self, other, alpha);
}

// ---------------------------------------------------------------------------------------------
// Derivative declarations (LibTorch's derivatives.yaml), in the table's order
// ---------------------------------------------------------------------------------------------

namespace {

using pointwise::as_weight;

void save_inputs(SaveForBackward& save) {
  save.input(0);  // self
  save.input(1);  // other
}

// maximum / minimum: the gradient goes to the larger (smaller) input, half to each where they tie.
tensor_list extremum_backward(const BackwardContext& ctx, bool largest) {
  const Tensor& grad = ctx.grad();
  const Tensor& self = ctx.saved(0);
  const Tensor& other = ctx.saved(1);
  const Tensor shared = where(self.eq(other), grad / 2, grad);
  const Tensor self_loses = largest ? self.lt(other) : self.gt(other);
  const Tensor other_loses = largest ? self.gt(other) : self.lt(other);
  return {ctx.needs_input_grad(0) ? shared.masked_fill(self_loses, 0) : Tensor(),
          ctx.needs_input_grad(1) ? shared.masked_fill(other_loses, 0) : Tensor()};
}
const RegisterDerivative maximum_derivative("maximum", {
    "MaximumBackward0", save_inputs, [](const BackwardContext& ctx) { return extremum_backward(ctx, true); }});
const RegisterDerivative minimum_derivative("minimum", {
    "MinimumBackward0", save_inputs, [](const BackwardContext& ctx) { return extremum_backward(ctx, false); }});

// fmax / fmin: self gets the gradient where it was chosen (it won, or other was NaN), other elsewhere.
tensor_list nan_ignoring_extremum_backward(const BackwardContext& ctx, bool largest) {
  const Tensor& grad = ctx.grad();
  const Tensor& self = ctx.saved(0);
  const Tensor& other = ctx.saved(1);
  const Tensor self_chosen = (largest ? self.ge(other) : self.le(other)).logical_or(other.ne(other));
  return {ctx.needs_input_grad(0) ? grad.masked_fill(self_chosen.logical_not(), 0) : Tensor(),
          ctx.needs_input_grad(1) ? grad.masked_fill(self_chosen, 0) : Tensor()};
}
const RegisterDerivative fmax_derivative("fmax", {
    "FmaxBackward0", save_inputs, [](const BackwardContext& ctx) { return nan_ignoring_extremum_backward(ctx, true); }});
const RegisterDerivative fmin_derivative("fmin", {
    "FminBackward0", save_inputs, [](const BackwardContext& ctx) { return nan_ignoring_extremum_backward(ctx, false); }});

// self - other * q with q the rounded quotient: d self = grad, d other = -grad * q.
tensor_list modulo_backward(const BackwardContext& ctx, const char* rounding) {
  const Tensor& grad = ctx.grad();
  return {ctx.needs_input_grad(0) ? grad : Tensor(),
          ctx.needs_input_grad(1) ? -grad * ctx.saved(0).div(ctx.saved(1), rounding) : Tensor()};
}
tensor_list self_passes_through(const BackwardContext& ctx) { return {ctx.grad(), Tensor()}; }
const RegisterDerivative fmod_derivative("fmod.Tensor", {
    "FmodBackward1", save_inputs, [](const BackwardContext& ctx) { return modulo_backward(ctx, "trunc"); }});
const RegisterDerivative fmod_scalar_derivative("fmod.Scalar", {"FmodBackward0", nullptr, self_passes_through});
const RegisterDerivative remainder_derivative("remainder.Tensor", {
    "RemainderBackward1", save_inputs, [](const BackwardContext& ctx) { return modulo_backward(ctx, "floor"); }});
const RegisterDerivative remainder_scalar_derivative("remainder.Scalar",
                                                     {"RemainderBackward0", nullptr, self_passes_through});

// Ops LibTorch gives a torch::autograd::NotImplemented node: backward through them fails.
template <const char* kMessage>
tensor_list not_implemented(const BackwardContext&) {
  throw Error(kMessage);
}
constexpr char kFloorDivideMessage[] = "derivative for aten::floor_divide is not implemented";
constexpr char kRemainderMessage[] = "derivative for aten::remainder is not implemented";
constexpr char kHeavisideMessage[] = "derivative for aten::heaviside is not implemented";
constexpr char kNextafterMessage[] = "the derivative for 'nextafter' is not implemented.";
const RegisterDerivative floor_divide_derivative("floor_divide", {
    "torch::autograd::NotImplemented", nullptr, not_implemented<kFloorDivideMessage>});
const RegisterDerivative floor_divide_scalar_derivative("floor_divide.Scalar", {
    "torch::autograd::NotImplemented", nullptr, not_implemented<kFloorDivideMessage>});
const RegisterDerivative remainder_scalar_tensor_derivative("remainder.Scalar_Tensor", {
    "torch::autograd::NotImplemented", nullptr, not_implemented<kRemainderMessage>});
const RegisterDerivative heaviside_derivative("heaviside", {
    "torch::autograd::NotImplemented", nullptr, not_implemented<kHeavisideMessage>});
const RegisterDerivative nextafter_derivative("nextafter", {"NextafterBackward0", nullptr,
                                                            not_implemented<kNextafterMessage>});

// div with a rounding mode is piecewise constant: zero gradients (grad * 0, as LibTorch).
tensor_list rounded_division_backward(const BackwardContext& ctx) {
  return {ctx.needs_input_grad(0) ? ctx.grad() * 0 : Tensor(), ctx.needs_input_grad(1) ? ctx.grad() * 0 : Tensor()};
}
const RegisterDerivative div_rounded_derivative("div.Tensor_mode_rounded", {
    "DivBackward2", nullptr, rounded_division_backward});
const RegisterDerivative div_rounded_scalar_derivative("div.Scalar_mode_rounded", {
    "DivBackward3", nullptr, rounded_division_backward});
// rounding_mode = nullopt: true division, d self = grad / other, d other = -grad * self / other^2.
tensor_list true_division_backward(const BackwardContext& ctx) {
  const Tensor& grad = ctx.grad();
  const Tensor& self = ctx.saved(0);
  const Tensor& other = ctx.saved(1);
  return {ctx.needs_input_grad(0) ? grad / other : Tensor(),
          ctx.needs_input_grad(1) ? -grad * self / (other * other) : Tensor()};
}
const RegisterDerivative div_mode_derivative("div.Tensor_mode", {"DivBackward2", save_inputs, true_division_backward});
const RegisterDerivative div_mode_scalar_derivative("div.Scalar_mode", {"DivBackward3", save_inputs,
                                                                         true_division_backward});

// atan2(y, x): d y = grad * x / (x^2 + y^2), d x = -grad * y / (x^2 + y^2).
const RegisterDerivative atan2_derivative("atan2", {
    "Atan2Backward0", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor& other = ctx.saved(1);
      const Tensor scaled = ctx.grad() / (self * self + other * other);
      return {ctx.needs_input_grad(0) ? scaled * other : Tensor(), ctx.needs_input_grad(1) ? -scaled * self : Tensor()};
    }});

// hypot = sqrt(a^2 + b^2): d a = grad * a / hypot.
const RegisterDerivative hypot_derivative("hypot", {
    "HypotBackward0",
    [](SaveForBackward& save) {
      save_inputs(save);
      save.output(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor scaled = ctx.grad() / ctx.saved(2);
      return {ctx.needs_input_grad(0) ? scaled * ctx.saved(0) : Tensor(),
              ctx.needs_input_grad(1) ? scaled * ctx.saved(1) : Tensor()};
    }});

// copysign: d self = grad * (result / self), 0 where self == 0; other gets zeros.
void save_self_and_result(SaveForBackward& save) {
  save.input(0);
  save.output(0);
}
tensor_list copysign_backward(const BackwardContext& ctx) {
  const Tensor& self = ctx.saved(0);
  const Tensor ratio = (ctx.saved(1) / self).masked_fill(self.eq(0), 0);
  return {ctx.needs_input_grad(0) ? ctx.grad() * ratio : Tensor(),
          ctx.needs_input_grad(1) ? zeros_like(ctx.grad()) : Tensor()};
}
const RegisterDerivative copysign_derivative("copysign.Tensor", {"CopysignBackward0", save_self_and_result,
                                                                 copysign_backward});
const RegisterDerivative copysign_scalar_derivative("copysign.Scalar", {"CopysignBackward1", save_self_and_result,
                                                                        copysign_backward});

// xlogy(x, y) = x log y: d x = log y (0 where x == 0 and y <= 0), d y = grad * x / y.
Tensor xlogy_self_grad(const Tensor& grad, const Tensor& self, const Tensor& other) {
  return xlogy(grad, other).masked_fill(self.eq(0).logical_and(other.le(0)), 0);
}
const RegisterDerivative xlogy_derivative("xlogy.Tensor", {
    "XlogyBackward0", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor& other = ctx.saved(1);
      return {ctx.needs_input_grad(0) ? xlogy_self_grad(ctx.grad(), self, other) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.grad() * self / other : Tensor()};
    }});
const RegisterDerivative xlogy_scalar_self_derivative("xlogy.Scalar_Self", {
    "XlogyBackward1", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      return {Tensor(), ctx.grad() * ctx.saved(0) / ctx.saved(1)};
    }});
const RegisterDerivative xlogy_scalar_other_derivative("xlogy.Scalar_Other", {
    "XlogyBackward2", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      return {xlogy_self_grad(ctx.grad(), ctx.saved(0), ctx.saved(1)), Tensor()};
    }});

// logaddexp: d a = grad / (1 + e^(b - a)); logaddexp2 the same in base 2.
const RegisterDerivative logaddexp_derivative("logaddexp", {
    "LogaddexpBackward0", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& a = ctx.saved(0);
      const Tensor& b = ctx.saved(1);
      return {ctx.needs_input_grad(0) ? ctx.grad() / ((b - a).exp() + 1) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.grad() / ((a - b).exp() + 1) : Tensor()};
    }});
const RegisterDerivative logaddexp2_derivative("logaddexp2", {
    "Logaddexp2Backward0", save_inputs, [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& a = ctx.saved(0);
      const Tensor& b = ctx.saved(1);
      return {ctx.needs_input_grad(0) ? ctx.grad() / (pow(2, b - a) + 1) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.grad() / (pow(2, a - b) + 1) : Tensor()};
    }});

}  // namespace
}  // namespace tinytorch
