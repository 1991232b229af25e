#pragma once
// Scalar: one number of any dtype (LibTorch's c10::Scalar), e.g. the `2` in `t * 2` or `fill_(0.5)`.
#include <cstdint>
#include <iosfwd>
#include <type_traits>

#include "tinytorch/scalar_type.h"

namespace tinytorch {

class Scalar {
 public:
  Scalar() : Scalar(int64_t{0}) {}
  Scalar(bool v) : kind_(kBool) { value_.i = v; }  // NOLINT: implicit, like LibTorch
  // Any other integer type is an int64 scalar, any floating type a double one.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : kind_(kLong) { value_.i = static_cast<int64_t>(v); }  // NOLINT
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : kind_(kDouble) { value_.d = static_cast<double>(v); }  // NOLINT
  // The 16-bit floating types are floating scalars, as in LibTorch.
  Scalar(Half v) : Scalar(static_cast<double>(static_cast<float>(v))) {}       // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<double>(static_cast<float>(v))) {}   // NOLINT

  bool isFloatingPoint() const { return kind_ == kDouble; }
  bool isIntegral(bool include_bool) const { return kind_ == kLong || (include_bool && kind_ == kBool); }
  bool isBoolean() const { return kind_ == kBool; }
  // The dtype this number has on its own: Bool, Long or Double.
  ScalarType type() const { return kind_; }

  double toDouble() const { return kind_ == kDouble ? value_.d : static_cast<double>(value_.i); }
  int64_t toLong() const { return kind_ == kDouble ? static_cast<int64_t>(value_.d) : value_.i; }
  bool toBool() const { return kind_ == kDouble ? value_.d != 0 : value_.i != 0; }
  float toFloat() const { return static_cast<float>(toDouble()); }
  int32_t toInt() const { return static_cast<int32_t>(toLong()); }
  int16_t toShort() const { return static_cast<int16_t>(toLong()); }
  int8_t toChar() const { return static_cast<int8_t>(toLong()); }
  uint8_t toByte() const { return static_cast<uint8_t>(toLong()); }
  Half toHalf() const { return Half(toFloat()); }
  BFloat16 toBFloat16() const { return BFloat16(toFloat()); }
  template <typename T> T to() const;

  Scalar operator-() const;

 private:
  ScalarType kind_;
  union {
    double d;
    int64_t i;
  } value_;
};

template <> inline double Scalar::to<double>() const { return toDouble(); }
template <> inline float Scalar::to<float>() const { return toFloat(); }
template <> inline int64_t Scalar::to<int64_t>() const { return toLong(); }
template <> inline int Scalar::to<int>() const { return static_cast<int>(toLong()); }
template <> inline bool Scalar::to<bool>() const { return toBool(); }
template <> inline int16_t Scalar::to<int16_t>() const { return static_cast<int16_t>(toLong()); }
template <> inline int8_t Scalar::to<int8_t>() const { return static_cast<int8_t>(toLong()); }
template <> inline uint8_t Scalar::to<uint8_t>() const { return static_cast<uint8_t>(toLong()); }
template <> inline Half Scalar::to<Half>() const { return Half(toFloat()); }
template <> inline BFloat16 Scalar::to<BFloat16>() const { return BFloat16(toFloat()); }

inline Scalar Scalar::operator-() const {
  if (kind_ == kDouble) return Scalar(-value_.d);
  return Scalar(-value_.i);
}

// Prints like LibTorch: 2, 2.5, true.
std::ostream& operator<<(std::ostream& out, const Scalar& s);

}  // namespace tinytorch
