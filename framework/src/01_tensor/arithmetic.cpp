// + - * / and pow between tensors: type promotion and checks here, the broadcasting loop in the
// learner's elementwise.cpp (native::broadcast_binary_loop), the autograd record at the end and
// each op's derivative declaration after it (tinytorch/derivative.h). add's and mul's with two
// tensors are module 06's to write (06_autograd/gradient_rules.cpp).
#include <cmath>
#include <type_traits>

#include "internal.h"
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

using detail::kFastElementwiseMinNumel;

// The common cases of a training step, done without the general loop's per-element index
// arithmetic and function-pointer call: floating tensors, contiguous, and either the same shape,
// one side a single element (a scalar), or one side a row broadcast along the other's leading dims
// (a bias added to a batch), or one column per row (softmax's row sums). The op is a template
// argument, so the loops vectorise.
enum class FastLayout { None, SameShape, ScalarRight, ScalarLeft, RowRight, RowLeft, ColumnRight, ColumnLeft };

// True when `row` has the sizes of `full`'s last dim and 1s (or nothing) before it.
bool is_row_of(const Tensor& row, const Tensor& full) {
  if (full.dim() < 2 || row.dim() == 0 || row.dim() > full.dim()) return false;
  if (row.size(-1) != full.size(-1) || row.numel() != full.size(-1)) return false;
  return true;
}

// True when `column` has `full`'s sizes except a last dim of 1: one value per row of `full`.
bool is_column_of(const Tensor& column, const Tensor& full) {
  if (full.dim() < 1 || column.dim() != full.dim() || column.size(-1) != 1) return false;
  for (int64_t d = 0; d + 1 < full.dim(); ++d) {
    if (column.size(d) != full.size(d)) return false;
  }
  return true;
}

FastLayout fast_layout(const Tensor& x, const Tensor& y, const Tensor& out, ScalarType dtype) {
  if (!isFloatingType(dtype) || out.numel() < kFastElementwiseMinNumel) return FastLayout::None;
  if (!x.is_contiguous() || !y.is_contiguous()) return FastLayout::None;
  const bool x_full = x.sizes().equals(out.sizes());
  const bool y_full = y.sizes().equals(out.sizes());
  if (x_full && y_full) return FastLayout::SameShape;
  if (x_full && y.numel() == 1) return FastLayout::ScalarRight;
  if (y_full && x.numel() == 1) return FastLayout::ScalarLeft;
  if (x_full && is_row_of(y, out)) return FastLayout::RowRight;
  if (y_full && is_row_of(x, out)) return FastLayout::RowLeft;
  if (x_full && is_column_of(y, out)) return FastLayout::ColumnRight;
  if (y_full && is_column_of(x, out)) return FastLayout::ColumnLeft;
  return FastLayout::None;
}

template <typename T, typename Op>
void contiguous_binary_loop(const Tensor& x, const Tensor& y, const Tensor& out, FastLayout layout, Op op) {
  const T* a = static_cast<const T*>(x.data_ptr());
  const T* b = static_cast<const T*>(y.data_ptr());
  T* c = static_cast<T*>(out.data_ptr());
  const int64_t n = out.numel();
  switch (layout) {
    case FastLayout::SameShape:
      for (int64_t i = 0; i < n; ++i) c[i] = op(a[i], b[i]);
      break;
    case FastLayout::ScalarRight: {
      const T scalar = *b;
      for (int64_t i = 0; i < n; ++i) c[i] = op(a[i], scalar);
      break;
    }
    case FastLayout::ScalarLeft: {
      const T scalar = *a;
      for (int64_t i = 0; i < n; ++i) c[i] = op(scalar, b[i]);
      break;
    }
    case FastLayout::RowRight:
    case FastLayout::RowLeft: {
      const int64_t row = out.size(-1);
      for (int64_t start = 0; start < n; start += row) {
        T* c_row = c + start;
        if (layout == FastLayout::RowRight) {
          const T* a_row = a + start;
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a_row[j], b[j]);
        } else {
          const T* b_row = b + start;
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a[j], b_row[j]);
        }
      }
      break;
    }
    case FastLayout::ColumnRight:
    case FastLayout::ColumnLeft: {
      const int64_t row = out.size(-1);
      for (int64_t r = 0, start = 0; start < n; ++r, start += row) {
        T* c_row = c + start;
        if (layout == FastLayout::ColumnRight) {
          const T* a_row = a + start;
          const T value = b[r];
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a_row[j], value);
        } else {
          const T* b_row = b + start;
          const T value = a[r];
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(value, b_row[j]);
        }
      }
      break;
    }
    case FastLayout::None:
      break;
  }
}

// out = a (op) b with broadcasting, both computed in `dtype` (the promoted type). Records nothing.
Tensor binary_kernel(const Tensor& a, const Tensor& b, ScalarType dtype, BinaryOp op) {
  Tensor out = empty(infer_size(a.sizes(), b.sizes()), TensorOptions(dtype));
  const Tensor x = detail::as_dtype(a, dtype);
  const Tensor y = detail::as_dtype(b, dtype);
  const FastLayout layout = op == BinaryOp::Pow ? FastLayout::None : fast_layout(x, y, out, dtype);
  if (layout != FastLayout::None) {
    TT_DISPATCH_FLOATING_TYPES(dtype, "binary_op", [&] {
      using T = scalar_t;
      switch (op) {
        case BinaryOp::Add: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p + q; });
        case BinaryOp::Sub: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p - q; });
        case BinaryOp::Mul: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p * q; });
        case BinaryOp::Div: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p / q; });
        case BinaryOp::Pow: break;
      }
    });
    return out;
  }
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

// The name an op records: x + 2 is LibTorch's add.Scalar (AddBackward1), x + y its add (AddBackward0).
const char* overload(const Tensor& other, const char* tensor_op, const char* number_op) {
  return other.unsafeGetTensorImpl()->is_wrapped_number() ? number_op : tensor_op;
}

// self's value before an in-place op overwrites it, for a backward that needs it (mul_ and div_
// when `other` requires grad), as LibTorch saves self.clone(); undefined otherwise.
Tensor original_for_backward(const Tensor& self, const Tensor& other) {
  if (!is_recording() || !other.requires_grad()) return Tensor();
  NoGradGuard no_record;
  return self.clone();
}

// Runs an out-of-place kernel result into `self` (the in-place form), with PyTorch's checks.
Tensor& write_in_place(Tensor& self, const Tensor& result, const char* name, const Tensor& other,
                       const OpAttributes& attributes, const Tensor& original_self = Tensor()) {
  TT_CHECK(canCast(result.scalar_type(), self.scalar_type()), "result type ", toString(result.scalar_type()),
           " can't be cast to the desired output type ", toString(self.scalar_type()));
  TT_CHECK(result.sizes().equals(self.sizes()), "output with shape ", self.sizes(),
           " doesn't match the broadcast shape ", result.sizes());
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  record_in_place_op(name, {self, other}, attributes, original_self);
  return self;
}

OpAttributes with_alpha(const Scalar& alpha) {
  OpAttributes attributes;
  attributes.alpha = alpha;
  return attributes;
}

// Calls visit(offset) with the element offset of every element of `t`, in row-major order of its
// sizes, walking its strides (the innermost dim in a tight loop).
template <typename Visit>
void for_each_offset(const Tensor& t, Visit visit) {
  const int64_t ndim = t.dim();
  if (ndim == 0) return visit(int64_t{0});
  const int64_t inner_size = t.size(-1);
  const int64_t inner_stride = t.stride(-1);
  std::vector<int64_t> index(ndim - 1, 0);
  for (int64_t done = 0, n = t.numel(); done < n; done += inner_size) {
    int64_t base = 0;
    for (int64_t d = 0; d < ndim - 1; ++d) base += index[d] * t.stride(d);
    for (int64_t j = 0; j < inner_size; ++j) visit(base + j * inner_stride);
    for (int64_t d = ndim - 2; d >= 0; --d) {  // next row, like an odometer
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
}

// self = self (op) alpha * other in one pass with no temporary, for a floating contiguous self and
// an operand of self's sizes and dtype (any strides: a transposed weight gradient) or of one
// element: every gradient accumulation and optimizer update takes this path. Records the op as
// `name` when it ran; returns false to leave the op to the general path (broadcasting, dtype
// changes, partially overlapping operands).
// Module 01's tests use no in-place arithmetic, so they keep running the learner's loop.
bool in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, BinaryOp op, const char* name,
                   const Tensor& original_self = Tensor()) {
  const ScalarType type = self.scalar_type();
  if (!isFloatingType(type) || !self.is_contiguous() || self.numel() == 0) return false;
  if (result_type(self, other) != type) return false;
  const bool same_shape = other.sizes().equals(self.sizes()) && other.scalar_type() == type;
  const bool scalar = other.numel() == 1 && other.dim() <= self.dim();
  if (!same_shape && !scalar) return false;
  // An operand that shares storage with self must be self exactly; any other view of it would
  // read elements this loop has already written.
  if (other.storage().unsafeGetStorageImpl() == self.storage().unsafeGetStorageImpl() &&
      !(other.data_ptr() == self.data_ptr() && other.is_contiguous())) {
    return false;
  }
  const Tensor operand = same_shape ? other : detail::as_dtype(other, type);
  TT_DISPATCH_FLOATING_TYPES(type, "in_place_op", [&] {
    using T = scalar_t;
    T* s = static_cast<T*>(self.data_ptr());
    const T* o = static_cast<const T*>(operand.data_ptr());
    const int64_t n = self.numel();
    const T factor = static_cast<T>(alpha.toDouble());
    const bool unit = alpha.toDouble() == 1.0;
    const auto run = [&](auto element_op) {
      if (!same_shape) {
        const T value = *o;
        for (int64_t i = 0; i < n; ++i) s[i] = element_op(s[i], value);
      } else if (operand.is_contiguous()) {
        for (int64_t i = 0; i < n; ++i) s[i] = element_op(s[i], o[i]);
      } else {
        int64_t i = 0;
        for_each_offset(operand, [&](int64_t offset) {
          s[i] = element_op(s[i], o[offset]);
          ++i;
        });
      }
    };
    switch (op) {
      case BinaryOp::Add:
        if (unit) return run([](T p, T q) { return p + q; });
        return run([factor](T p, T q) { return p + factor * q; });
      case BinaryOp::Sub:
        if (unit) return run([](T p, T q) { return p - q; });
        return run([factor](T p, T q) { return p - factor * q; });
      case BinaryOp::Mul: return run([](T p, T q) { return p * q; });
      case BinaryOp::Div: return run([](T p, T q) { return p / q; });
      case BinaryOp::Pow: break;
    }
  });
  record_in_place_op(name, {self, other}, with_alpha(alpha), original_self);
  return true;
}

}  // namespace

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const {
  check_alpha(*this, other, alpha);
  Tensor result = add_kernel(*this, other, alpha, BinaryOp::Add);
  record_op(overload(other, "add", "add.Scalar"), {*this, other}, {result}, with_alpha(alpha));
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
  record_op(overload(other, "sub", "sub.Scalar"), {*this, other}, {result}, with_alpha(alpha));
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
  record_op(overload(other, "mul", "mul.Scalar"), {*this, other}, {result});
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
  record_op(overload(other, "div", "div.Scalar"), {*this, other}, {result});
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
  record_op("pow.Tensor_Tensor", {*this, exponent}, {result});
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
  const char* name = overload(other, "add", "add.Scalar");
  check_in_place(name, {*this, other});
  if (in_place_fast(*this, other, alpha, BinaryOp::Add, name)) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Add), name, other, with_alpha(alpha));
}

Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) {
  check_not_bool_sub(*this, other);
  check_alpha(*this, other, alpha);
  const char* name = overload(other, "sub", "sub.Scalar");
  check_in_place(name, {*this, other});
  if (in_place_fast(*this, other, alpha, BinaryOp::Sub, name)) return *this;
  return write_in_place(*this, add_kernel(*this, other, alpha, BinaryOp::Sub), name, other, with_alpha(alpha));
}

Tensor& Tensor::mul_(const Tensor& other) {
  const char* name = overload(other, "mul", "mul.Scalar");
  check_in_place(name, {*this, other});
  const Tensor original = original_for_backward(*this, other);
  if (in_place_fast(*this, other, 1, BinaryOp::Mul, name, original)) return *this;
  return write_in_place(*this, binary_kernel(*this, other, result_type(*this, other), BinaryOp::Mul), name, other,
                        OpAttributes(), original);
}

Tensor& Tensor::div_(const Tensor& other) {
  const char* name = overload(other, "div", "div.Scalar");
  check_in_place(name, {*this, other});
  const Tensor original = original_for_backward(*this, other);
  if (in_place_fast(*this, other, 1, BinaryOp::Div, name, original)) return *this;
  ScalarType type = result_type(*this, other);
  if (!isFloatingType(type)) type = default_dtype();
  return write_in_place(*this, binary_kernel(*this, other, type, BinaryOp::Div), name, other, OpAttributes(), original);
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
