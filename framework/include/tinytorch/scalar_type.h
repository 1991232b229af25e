#pragma once
// Element types (LibTorch's c10::ScalarType) and the dtype object a tensor reports (caffe2::TypeMeta).
#include <cstdint>
#include <iosfwd>

#include "tinytorch/half.h"

namespace tinytorch {

// TinyTorch's dtypes. The first four are the ones every kernel computes in; Byte, Char and Int
// (uint8, int8, int32) and the quantized QInt8, QUInt8, QInt32 arrived with module 15 (Quantization)
// to hold integer codes; Short (int16), Half and BFloat16 came last. The narrow ones are stored as
// themselves and computed in int64 or float (detail::computation_type). New dtypes go at the end:
// the numbers are the dtype codes of saved archives.
enum class ScalarType : int8_t { Bool, Long, Float, Double, Byte, Char, Int, QInt8, QUInt8, QInt32, Short, Half, BFloat16 };

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat64 = ScalarType::Double;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kUInt8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kInt8 = ScalarType::Char;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt16 = ScalarType::Short;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
// LibTorch's Rust-style short names (torch/types.h).
constexpr ScalarType kU8 = kByte;
constexpr ScalarType kI8 = kChar;
constexpr ScalarType kI16 = kShort;
constexpr ScalarType kI32 = kInt;
constexpr ScalarType kI64 = kLong;
constexpr ScalarType kF16 = kHalf;
constexpr ScalarType kF32 = kFloat;
constexpr ScalarType kF64 = kDouble;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;

// The dtype of tensors created without one, as torch::get_default_dtype() (float32).
constexpr ScalarType default_dtype() { return kFloat; }

// Bytes per element: the "itemsize" that turns element counts into memory.
constexpr int64_t elementSize(ScalarType t) {
  switch (t) {
    case kBool: case kByte: case kChar: case kQInt8: case kQUInt8: return 1;
    case kShort: case kHalf: case kBFloat16: return 2;
    case kInt: case kFloat: case kQInt32: return 4;
    case kLong: case kDouble: return 8;
  }
  return 0;
}
constexpr bool isFloatingType(ScalarType t) { return t == kFloat || t == kDouble || t == kHalf || t == kBFloat16; }
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == kLong || t == kInt || t == kShort || t == kChar || t == kByte || (include_bool && t == kBool);
}
constexpr bool isComplexType(ScalarType /*t*/) { return false; }  // TinyTorch has no complex dtypes
// The 16-bit floating types, which kernels compute in float.
constexpr bool isReducedFloatingType(ScalarType t) { return t == kHalf || t == kBFloat16; }
// The quantized dtypes (LibTorch's isQIntType): integer codes plus a scale and zero point.
constexpr bool isQIntType(ScalarType t) { return t == kQInt8 || t == kQUInt8 || t == kQInt32; }
// The plain integer type that holds a quantized dtype's codes (LibTorch's toUnderlying).
constexpr ScalarType toUnderlying(ScalarType t) {
  return t == kQInt8 ? kChar : t == kQUInt8 ? kByte : t == kQInt32 ? kInt : t;
}

// LibTorch's names: toString(kFloat) == "Float"; streaming a ScalarType prints the same.
const char* toString(ScalarType t);
std::ostream& operator<<(std::ostream& out, ScalarType t);

namespace detail {
// Row/column of PyTorch's promotion table below; -1 for the quantized types.
constexpr int promotion_index(ScalarType t) {
  switch (t) {
    case kByte: return 0;
    case kChar: return 1;
    case kShort: return 2;
    case kInt: return 3;
    case kLong: return 4;
    case kHalf: return 5;
    case kFloat: return 6;
    case kDouble: return 7;
    case kBool: return 8;
    case kBFloat16: return 9;
    default: return -1;
  }
}
}  // namespace detail

// The smallest type both a and b convert to without loss of kind: PyTorch's promoteTypes table
// (c10/core/ScalarType.h). uint8 with int8 is int16; Half with BFloat16 is Float. A quantized type
// takes no part: the other type wins.
constexpr ScalarType promoteTypes(ScalarType a, ScalarType b) {
  constexpr ScalarType u1 = kByte, i1 = kChar, i2 = kShort, i4 = kInt, i8 = kLong, f2 = kHalf, f4 = kFloat,
                       f8 = kDouble, b1 = kBool, bf = kBFloat16;
  constexpr ScalarType table[10][10] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf */
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
  };
  const int ia = detail::promotion_index(a), ib = detail::promotion_index(b);
  if (ia < 0) return ib < 0 ? a : b;
  if (ib < 0) return a;
  return table[ia][ib];
}

// Whether a value of type `from` may be written into a tensor of type `to` by an in-place op
// (PyTorch's canCast: no floating -> integral, no non-bool -> bool).
constexpr bool canCast(ScalarType from, ScalarType to) {
  if (isFloatingType(from) && !isFloatingType(to)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

// What t.dtype() returns, like caffe2::TypeMeta: compares equal to a ScalarType and streams as the
// C++ type name ("float", "double", "long int", "bool").
class TypeMeta {
 public:
  constexpr TypeMeta(ScalarType t = default_dtype()) : type_(t) {}  // NOLINT: implicit like LibTorch
  constexpr ScalarType toScalarType() const { return type_; }
  constexpr int64_t itemsize() const { return elementSize(type_); }
  const char* name() const;

  friend constexpr bool operator==(TypeMeta a, TypeMeta b) { return a.type_ == b.type_; }
  friend constexpr bool operator!=(TypeMeta a, TypeMeta b) { return a.type_ != b.type_; }
  friend constexpr bool operator==(TypeMeta a, ScalarType b) { return a.type_ == b; }
  friend constexpr bool operator!=(TypeMeta a, ScalarType b) { return a.type_ != b; }
  friend constexpr bool operator==(ScalarType a, TypeMeta b) { return a == b.type_; }
  friend constexpr bool operator!=(ScalarType a, TypeMeta b) { return a != b.type_; }

 private:
  ScalarType type_;
};
std::ostream& operator<<(std::ostream& out, TypeMeta dtype);

// The C++ element type of each dtype and back, for templated kernels.
template <typename T> struct CppTypeToScalarType;
template <> struct CppTypeToScalarType<bool> { static constexpr ScalarType value = kBool; };
template <> struct CppTypeToScalarType<int64_t> { static constexpr ScalarType value = kLong; };
template <> struct CppTypeToScalarType<float> { static constexpr ScalarType value = kFloat; };
template <> struct CppTypeToScalarType<double> { static constexpr ScalarType value = kDouble; };
template <> struct CppTypeToScalarType<uint8_t> { static constexpr ScalarType value = kByte; };
template <> struct CppTypeToScalarType<int8_t> { static constexpr ScalarType value = kChar; };
template <> struct CppTypeToScalarType<int32_t> { static constexpr ScalarType value = kInt; };
template <> struct CppTypeToScalarType<int16_t> { static constexpr ScalarType value = kShort; };
template <> struct CppTypeToScalarType<Half> { static constexpr ScalarType value = kHalf; };
template <> struct CppTypeToScalarType<BFloat16> { static constexpr ScalarType value = kBFloat16; };

}  // namespace tinytorch
