// Comparisons written in place (eq_ ... ge_) and their other names (greater, less_equal, ...), the
// logical ops (any dtype in, kBool out) and the bitwise ops (integer and bool dtypes), one table row
// per op (pointwise_binary_kernels.h). The comparisons' kernels are compare.cpp's.
#include <type_traits>

#include "pointwise_binary_kernels.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/pointwise_binary.h"

namespace tinytorch {
namespace {

using pointwise::write_in_place;
using pointwise::write_out;

Tensor number(const Scalar& value) { return detail::wrapped_scalar(value); }
bool is_number(const Tensor& t) { return t.unsafeGetTensorImpl()->is_wrapped_number(); }

// ---------------------------------------------------------------------------------------------
// Comparisons in place: self becomes 1 or 0 in its own dtype. Recorded with LibTorch's nodes
// (EqBackward0 for a number, EqBackward1 for a tensor), whose gradients are zeros.
// ---------------------------------------------------------------------------------------------

struct Comparison {
  Tensor (Tensor::*compare)(const Tensor&) const;
  const OpHandle& tensor_op;
  const OpHandle& number_op;
};

OpHandle eq_op("eq.Tensor"), eq_number_op("eq.Scalar"), ne_op("ne.Tensor"), ne_number_op("ne.Scalar");
OpHandle lt_op("lt.Tensor"), lt_number_op("lt.Scalar"), le_op("le.Tensor"), le_number_op("le.Scalar");
OpHandle gt_op("gt.Tensor"), gt_number_op("gt.Scalar"), ge_op("ge.Tensor"), ge_number_op("ge.Scalar");

const Comparison kEq{&Tensor::eq, eq_op, eq_number_op};
const Comparison kNe{&Tensor::ne, ne_op, ne_number_op};
const Comparison kLt{&Tensor::lt, lt_op, lt_number_op};
const Comparison kLe{&Tensor::le, le_op, le_number_op};
const Comparison kGt{&Tensor::gt, gt_op, gt_number_op};
const Comparison kGe{&Tensor::ge, ge_op, ge_number_op};

Tensor& compare_in_place(const Comparison& comparison, const Tensor& self, const Tensor& other) {
  const OpHandle& handle = is_number(other) ? comparison.number_op : comparison.tensor_op;
  check_in_place(handle, {self, other});
  write_in_place(self, (self.*comparison.compare)(other));
  record_in_place_op(handle, {self, other});
  return const_cast<Tensor&>(self);
}

Tensor& compare_out(const char* name, const Comparison& comparison, Tensor& out, const Tensor& self,
                    const Tensor& other) {
  pointwise::check_out_without_grad(name, {self, other, out});
  return write_out(out, (self.*comparison.compare)(other));
}

tensor_list zero_gradients(const BackwardContext& ctx) {
  return {ctx.needs_input_grad(0) ? zeros_like(ctx.grad()) : Tensor(),
          ctx.needs_input_grad(1) ? zeros_like(ctx.grad()) : Tensor()};
}
const RegisterDerivative eq_derivative("eq.Tensor", {"EqBackward1", nullptr, zero_gradients});
const RegisterDerivative eq_scalar_derivative("eq.Scalar", {"EqBackward0", nullptr, zero_gradients});
const RegisterDerivative ne_derivative("ne.Tensor", {"NeBackward1", nullptr, zero_gradients});
const RegisterDerivative ne_scalar_derivative("ne.Scalar", {"NeBackward0", nullptr, zero_gradients});
const RegisterDerivative lt_derivative("lt.Tensor", {"LtBackward1", nullptr, zero_gradients});
const RegisterDerivative lt_scalar_derivative("lt.Scalar", {"LtBackward0", nullptr, zero_gradients});
const RegisterDerivative le_derivative("le.Tensor", {"LeBackward1", nullptr, zero_gradients});
const RegisterDerivative le_scalar_derivative("le.Scalar", {"LeBackward0", nullptr, zero_gradients});
const RegisterDerivative gt_derivative("gt.Tensor", {"GtBackward1", nullptr, zero_gradients});
const RegisterDerivative gt_scalar_derivative("gt.Scalar", {"GtBackward0", nullptr, zero_gradients});
const RegisterDerivative ge_derivative("ge.Tensor", {"GeBackward1", nullptr, zero_gradients});
const RegisterDerivative ge_scalar_derivative("ge.Scalar", {"GeBackward0", nullptr, zero_gradients});

}  // namespace

// name_ (the in-place form), torch::name_out, and LibTorch's other name `alias` with its own
// in-place and out= forms.
#define TT_COMPARISON(name, alias, row)                                                                      \
  Tensor& Tensor::name##_(const Tensor& other) const { return compare_in_place(row, *this, other); }          \
  Tensor& Tensor::name##_(const Scalar& other) const { return compare_in_place(row, *this, number(other)); }  \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                  \
    return compare_out(#name, row, out, self, other);                                                         \
  }                                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                  \
    return compare_out(#name, row, out, self, number(other));                                                 \
  }                                                                                                           \
  Tensor Tensor::alias(const Tensor& other) const { return name(other); }                                     \
  Tensor Tensor::alias(const Scalar& other) const { return name(other); }                                     \
  Tensor& Tensor::alias##_(const Tensor& other) const { return name##_(other); }                              \
  Tensor& Tensor::alias##_(const Scalar& other) const { return name##_(other); }                              \
  Tensor& alias##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                 \
    return compare_out(#alias, row, out, self, other);                                                        \
  }                                                                                                           \
  Tensor& alias##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                 \
    return compare_out(#alias, row, out, self, number(other));                                                \
  }

TT_COMPARISON(ne, not_equal, kNe)
TT_COMPARISON(lt, less, kLt)
TT_COMPARISON(le, less_equal, kLe)
TT_COMPARISON(gt, greater, kGt)
TT_COMPARISON(ge, greater_equal, kGe)
#undef TT_COMPARISON

// eq has no other name.
Tensor& Tensor::eq_(const Tensor& other) const { return compare_in_place(kEq, *this, other); }
Tensor& Tensor::eq_(const Scalar& other) const { return compare_in_place(kEq, *this, number(other)); }
Tensor& eq_out(Tensor& out, const Tensor& self, const Tensor& other) { return compare_out("eq", kEq, out, self, other); }
Tensor& eq_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return compare_out("eq", kEq, out, self, number(other));
}

// ---------------------------------------------------------------------------------------------
// Logical ops: compared in the operands' promoted dtype, any non-zero (NaN too) is true.
// ---------------------------------------------------------------------------------------------

namespace {

template <typename T>
using LogicalFn = bool (*)(T, T);

struct LogicalOp {
  LogicalFn<bool> on_bool;
  LogicalFn<int64_t> on_long;
  LogicalFn<float> on_float;
  LogicalFn<double> on_double;
};

template <typename Op>
constexpr LogicalOp logical_op() {
  return {&Op::template apply<bool>, &Op::template apply<int64_t>, &Op::template apply<float>,
          &Op::template apply<double>};
}
struct And {
  template <typename T>
  static bool apply(T a, T b) { return static_cast<bool>(a) && static_cast<bool>(b); }
};
struct Or {
  template <typename T>
  static bool apply(T a, T b) { return static_cast<bool>(a) || static_cast<bool>(b); }
};
struct Xor {
  template <typename T>
  static bool apply(T a, T b) { return static_cast<bool>(a) != static_cast<bool>(b); }
};
constexpr LogicalOp kAnd = logical_op<And>();
constexpr LogicalOp kOr = logical_op<Or>();
constexpr LogicalOp kXor = logical_op<Xor>();

template <typename T>
LogicalFn<T> logical_fn(const LogicalOp& op) {
  if constexpr (std::is_same_v<T, bool>) {
    return op.on_bool;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return op.on_long;
  } else if constexpr (std::is_same_v<T, float>) {
    return op.on_float;
  } else {
    return op.on_double;
  }
}

Tensor logical(const LogicalOp& op, const Tensor& self, const Tensor& other) {
  infer_size(self.sizes(), other.sizes());
  const ScalarType type = detail::computation_type(result_type(self, other));
  const Tensor x = detail::as_dtype(self, type);
  const Tensor y = detail::as_dtype(other, type);
  return TT_DISPATCH_ALL_TYPES(type, "logical", [&] {
    return pointwise::broadcast_map<scalar_t, bool>(x, y, kBool, logical_fn<scalar_t>(op));
  });
}

}  // namespace

#define TT_LOGICAL(name, row)                                                                               \
  Tensor Tensor::name(const Tensor& other) const { return logical(row, *this, other); }                      \
  Tensor& Tensor::name##_(const Tensor& other) const {                                                       \
    write_in_place(*this, logical(row, *this, other));                                                       \
    return const_cast<Tensor&>(*this);                                                                       \
  }                                                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                 \
    return write_out(out, logical(row, self, other));                                                        \
  }
TT_LOGICAL(logical_and, kAnd)
TT_LOGICAL(logical_or, kOr)
TT_LOGICAL(logical_xor, kXor)
#undef TT_LOGICAL

// x == 0 is exactly "not x" for every dtype (NaN is truthy, and NaN == 0 is false).
Tensor Tensor::logical_not() const { return eq(0); }
Tensor& Tensor::logical_not_() const {
  write_in_place(*this, eq(0));
  return const_cast<Tensor&>(*this);
}
Tensor& logical_not_out(Tensor& out, const Tensor& self) { return write_out(out, self.eq(0)); }

// ---------------------------------------------------------------------------------------------
// Bitwise ops: rows of the same table as the math ops. Shifts follow LibTorch 1.13 on x86: the
// count is taken modulo the width the CPU shifts in (64 bits for int64, 32 for narrower integers,
// which C++ promotes to int), and a left shift is done unsigned.
// ---------------------------------------------------------------------------------------------

namespace {

struct BitAnd {
  template <typename T>
  static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct BitOr {
  template <typename T>
  static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct BitXor {
  template <typename T>
  static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};
template <int kBits>
struct LeftShift {
  template <typename T>
  static T apply(T a, T b) {
    return static_cast<T>(static_cast<uint64_t>(a) << (static_cast<uint64_t>(b) & (kBits - 1)));
  }
};
template <int kBits>
struct RightShift {
  template <typename T>
  static T apply(T a, T b) { return static_cast<T>(a >> (static_cast<uint64_t>(b) & (kBits - 1))); }
};

// Integer ops have no derivative: these records only reach an observer such as the profiler.
OpHandle bitwise_and_op("bitwise_and"), bitwise_or_op("bitwise_or"), bitwise_xor_op("bitwise_xor");
OpHandle left_shift_op("bitwise_left_shift"), right_shift_op("bitwise_right_shift");

using pointwise::BinaryOp;
using pointwise::kernels_of;
constexpr pointwise::ResultDtype kPromoted = pointwise::ResultDtype::Promoted;
constexpr unsigned kBitKinds = pointwise::kBools | pointwise::kIntegers;

// kernel name, result dtype, kernels, divides, recorded ops (as in pointwise_binary.cpp's table)
const BinaryOp kBitwiseAnd{"bitwise_and_cpu", kPromoted, kernels_of<BitAnd, kBitKinds>(), false, bitwise_and_op,
                           bitwise_and_op};
const BinaryOp kBitwiseOr{"bitwise_or_cpu", kPromoted, kernels_of<BitOr, kBitKinds>(), false, bitwise_or_op,
                          bitwise_or_op};
const BinaryOp kBitwiseXor{"bitwise_xor_cpu", kPromoted, kernels_of<BitXor, kBitKinds>(), false, bitwise_xor_op,
                           bitwise_xor_op};
const BinaryOp kLeftShift64{"lshift_cpu", kPromoted, kernels_of<LeftShift<64>, pointwise::kIntegers>(), false,
                            left_shift_op, left_shift_op};
const BinaryOp kLeftShift32{"lshift_cpu", kPromoted, kernels_of<LeftShift<32>, pointwise::kIntegers>(), false,
                            left_shift_op, left_shift_op};
const BinaryOp kRightShift64{"rshift_cpu", kPromoted, kernels_of<RightShift<64>, pointwise::kIntegers>(), false,
                             right_shift_op, right_shift_op};
const BinaryOp kRightShift32{"rshift_cpu", kPromoted, kernels_of<RightShift<32>, pointwise::kIntegers>(), false,
                             right_shift_op, right_shift_op};

const BinaryOp& left_shift_row(const Tensor& self, const Tensor& other) {
  return result_type(self, other) == kLong ? kLeftShift64 : kLeftShift32;
}
const BinaryOp& right_shift_row(const Tensor& self, const Tensor& other) {
  return result_type(self, other) == kLong ? kRightShift64 : kRightShift32;
}
const BinaryOp& and_row(const Tensor&, const Tensor&) { return kBitwiseAnd; }
const BinaryOp& or_row(const Tensor&, const Tensor&) { return kBitwiseOr; }
const BinaryOp& xor_row(const Tensor&, const Tensor&) { return kBitwiseXor; }

}  // namespace

// The method, in-place form and out= form with a tensor or a number `other`, and the function and
// out= form with a number `self`.
#define TT_BITWISE(name, row_of)                                                                           \
  Tensor Tensor::name(const Tensor& other) const { return pointwise::apply(row_of(*this, other), *this, other); } \
  Tensor Tensor::name(const Scalar& other) const { return name(number(other)); }                              \
  Tensor& Tensor::name##_(const Tensor& other) const {                                                        \
    return pointwise::apply_in_place(row_of(*this, other), *this, other);                                     \
  }                                                                                                           \
  Tensor& Tensor::name##_(const Scalar& other) const { return name##_(number(other)); }                      \
  Tensor name(const Scalar& self, const Tensor& other) { return number(self).name(other); }                   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                  \
    return pointwise::apply_out(#name, row_of(self, other), out, self, other);                                \
  }                                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                  \
    return name##_out(out, self, number(other));                                                              \
  }                                                                                                           \
  Tensor& name##_out(Tensor& out, const Scalar& self, const Tensor& other) {                                  \
    return name##_out(out, number(self), other);                                                              \
  }
TT_BITWISE(bitwise_and, and_row)
TT_BITWISE(bitwise_or, or_row)
TT_BITWISE(bitwise_xor, xor_row)
TT_BITWISE(bitwise_left_shift, left_shift_row)
TT_BITWISE(bitwise_right_shift, right_shift_row)
#undef TT_BITWISE

// ~x is x ^ (all ones): -1 for integers, true for bool.
namespace {
Tensor all_ones_like(const Tensor& self) {
  const ScalarType dtype = self.scalar_type();
  if (!isIntegralType(dtype, /*include_bool=*/true)) TT_DISPATCH_FAIL_(dtype, "bitwise_not_cpu");
  return dtype == kBool ? number(true) : number(-1);
}
}  // namespace

Tensor Tensor::bitwise_not() const { return bitwise_xor(all_ones_like(*this)); }
Tensor& Tensor::bitwise_not_() const { return bitwise_xor_(all_ones_like(*this)); }
Tensor& bitwise_not_out(Tensor& out, const Tensor& self) { return bitwise_xor_out(out, self, all_ones_like(self)); }

}  // namespace tinytorch
