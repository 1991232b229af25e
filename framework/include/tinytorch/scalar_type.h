#pragma once
// Element types (LibTorch's c10::ScalarType) and the dtype object a tensor reports (caffe2::TypeMeta).
#include <cstdint>
#include <iosfwd>

namespace tinytorch {

// The four dtypes of TinyTorch, ordered by PyTorch's promotion lattice: Bool < Long < Float < Double.
enum class ScalarType : int8_t { Bool, Long, Float, Double };

constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat64 = ScalarType::Double;
constexpr ScalarType kDouble = ScalarType::Double;

// The dtype of tensors created without one, as torch::get_default_dtype() (float32).
constexpr ScalarType default_dtype() { return kFloat; }

// Bytes per element: the "itemsize" that turns element counts into memory.
constexpr int64_t elementSize(ScalarType t) {
  return t == kBool ? 1 : t == kFloat ? 4 : 8;
}
constexpr bool isFloatingType(ScalarType t) { return t == kFloat || t == kDouble; }
constexpr bool isIntegralType(ScalarType t, bool include_bool) {
  return t == kLong || (include_bool && t == kBool);
}

// LibTorch's names: toString(kFloat) == "Float"; streaming a ScalarType prints the same.
const char* toString(ScalarType t);
std::ostream& operator<<(std::ostream& out, ScalarType t);

// The smallest type both a and b convert to without loss of kind (PyTorch's promoteTypes).
constexpr ScalarType promoteTypes(ScalarType a, ScalarType b) { return a < b ? b : a; }

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

}  // namespace tinytorch
