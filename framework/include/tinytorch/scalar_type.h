#pragma once
// Element types (LibTorch's c10::ScalarType) and the dtype object a tensor reports (caffe2::TypeMeta).
#include <cstdint>
#include <iosfwd>

namespace tinytorch {

// TinyTorch's dtypes. The first four are the ones every op computes in; Byte, Char and Int (uint8,
// int8, int32) and the quantized QInt8, QUInt8, QInt32 arrived with module 15 (Quantization) to hold
// integer codes: they are created, copied, converted and printed, and arithmetic refuses them.
enum class ScalarType : int8_t { Bool, Long, Float, Double, Byte, Char, Int, QInt8, QUInt8, QInt32 };

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
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;

// The dtype of tensors created without one, as torch::get_default_dtype() (float32).
constexpr ScalarType default_dtype() { return kFloat; }

// Bytes per element: the "itemsize" that turns element counts into memory.
constexpr int64_t elementSize(ScalarType t) {
  switch (t) {
    case kBool: case kByte: case kChar: case kQInt8: case kQUInt8: return 1;
    case kInt: case kFloat: case kQInt32: return 4;
    case kLong: case kDouble: return 8;
  }
  return 0;
}
constexpr bool isFloatingType(ScalarType t) { return t == kFloat || t == kDouble; }
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == kLong || t == kInt || t == kChar || t == kByte || (include_bool && t == kBool);
}
// The quantized dtypes (LibTorch's isQIntType): integer codes plus a scale and zero point.
constexpr bool isQIntType(ScalarType t) { return t == kQInt8 || t == kQUInt8 || t == kQInt32; }
// The plain integer type that holds a quantized dtype's codes (LibTorch's toUnderlying).
constexpr ScalarType toUnderlying(ScalarType t) {
  return t == kQInt8 ? kChar : t == kQUInt8 ? kByte : t == kQInt32 ? kInt : t;
}

// LibTorch's names: toString(kFloat) == "Float"; streaming a ScalarType prints the same.
const char* toString(ScalarType t);
std::ostream& operator<<(std::ostream& out, ScalarType t);

// Position on PyTorch's promotion lattice: Bool < Byte, Char < Int < Long < Float < Double.
constexpr int promotion_rank(ScalarType t) {
  switch (t) {
    case kBool: return 0;
    case kByte: case kChar: return 1;
    case kInt: return 2;
    case kLong: return 3;
    case kFloat: return 4;
    case kDouble: return 5;
    default: return -1;  // quantized types take no part in promotion
  }
}
// The smallest type both a and b convert to without loss of kind (PyTorch's promoteTypes). uint8
// with int8 needs a signed type wider than both: PyTorch's is int16, which TinyTorch lacks, so Int.
constexpr ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if ((a == kByte && b == kChar) || (a == kChar && b == kByte)) return kInt;
  return promotion_rank(a) < promotion_rank(b) ? b : a;
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

}  // namespace tinytorch
