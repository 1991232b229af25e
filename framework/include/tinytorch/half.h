#pragma once
// The two 16-bit floating types, LibTorch's c10::Half (IEEE binary16: 1 sign, 5 exponent, 10
// mantissa bits) and c10::BFloat16 (the top half of a float32: 1 sign, 8 exponent, 7 mantissa
// bits). Each stores its bits in `x`, converts to float exactly and from float with
// round-to-nearest-even, as c10's do; arithmetic goes through float, so Half + Half is rounded once
// per operation. Kernels never compute in them: they compute in float and convert the result
// (detail::computation_type).
#include <cstdint>
#include <cstring>
#include <iosfwd>
#include <limits>

namespace tinytorch {
namespace detail {

inline uint32_t float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float float_from_bits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// float -> binary16 with round-to-nearest-even, overflow to infinity, subnormals and NaN kept
// (Maratyszcza's FP16 conversion, the one c10 uses: the float unit does the rounding).
inline uint16_t half_bits_from_float(float value) {
  const float scale_to_inf = float_from_bits(UINT32_C(239) << 23);   // 2^112
  const float scale_to_zero = float_from_bits(UINT32_C(17) << 23);  // 2^-110
  const uint32_t w = float_bits(value);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & UINT32_C(0x80000000);
  float base = (float_from_bits(w & UINT32_C(0x7FFFFFFF)) * scale_to_inf) * scale_to_zero;
  uint32_t bias = shl1_w & UINT32_C(0xFF000000);
  if (bias < UINT32_C(0x71000000)) bias = UINT32_C(0x71000000);
  base = float_from_bits((bias >> 1) + UINT32_C(0x07800000)) + base;
  const uint32_t bits = float_bits(base);
  const uint32_t exp_bits = (bits >> 13) & UINT32_C(0x00007C00);
  const uint32_t mantissa_bits = bits & UINT32_C(0x00000FFF);
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > UINT32_C(0xFF000000) ? UINT32_C(0x7E00) : nonsign));
}

// binary16 -> float, exact.
inline float float_from_half_bits(uint16_t half) {
  const uint32_t w = static_cast<uint32_t>(half) << 16;
  const uint32_t sign = w & UINT32_C(0x80000000);
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = UINT32_C(0xE0) << 23;
  const float exp_scale = float_from_bits(UINT32_C(0x7800000));  // 2^-112
  const float normalized = float_from_bits((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = UINT32_C(126) << 23;
  const float denormalized = float_from_bits((two_w >> 17) | magic_mask) - 0.5f;
  const uint32_t denormalized_cutoff = UINT32_C(1) << 27;
  return float_from_bits(sign | (two_w < denormalized_cutoff ? float_bits(denormalized) : float_bits(normalized)));
}

// float -> bfloat16: round to nearest even on the dropped 16 bits; every NaN becomes the quiet 0x7FC0.
inline uint16_t bfloat16_bits_from_float(float value) {
  const uint32_t bits = float_bits(value);
  if ((bits & UINT32_C(0x7FFFFFFF)) > UINT32_C(0x7F800000)) return UINT16_C(0x7FC0);
  const uint32_t rounding_bias = ((bits >> 16) & 1) + UINT32_C(0x7FFF);
  return static_cast<uint16_t>((bits + rounding_bias) >> 16);
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x;  // the bits, as c10::Half

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  Half(float value) : x(detail::half_bits_from_float(value)) {}  // NOLINT: implicit, like c10
  operator float() const { return detail::float_from_half_bits(x); }  // NOLINT
};

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  BFloat16(float value) : x(detail::bfloat16_bits_from_float(value)) {}  // NOLINT
  operator float() const { return detail::float_from_bits(static_cast<uint32_t>(x) << 16); }  // NOLINT
};

// c10's arithmetic: two 16-bit values give the same type (computed in float, rounded once); with a
// float the result is float, with a double double, with an integer the 16-bit type.
#define TINYTORCH_REDUCED_FLOAT_OPERATORS(T)                                                  \
  inline T operator+(const T& a, const T& b) { return static_cast<float>(a) + static_cast<float>(b); } \
  inline T operator-(const T& a, const T& b) { return static_cast<float>(a) - static_cast<float>(b); } \
  inline T operator*(const T& a, const T& b) { return static_cast<float>(a) * static_cast<float>(b); } \
  inline T operator/(const T& a, const T& b) { return static_cast<float>(a) / static_cast<float>(b); } \
  inline T operator-(const T& a) { return -static_cast<float>(a); }                          \
  inline T& operator+=(T& a, const T& b) { return a = a + b; }                                \
  inline T& operator-=(T& a, const T& b) { return a = a - b; }                                \
  inline T& operator*=(T& a, const T& b) { return a = a * b; }                                \
  inline T& operator/=(T& a, const T& b) { return a = a / b; }                                \
  inline float operator+(T a, float b) { return static_cast<float>(a) + b; }                  \
  inline float operator-(T a, float b) { return static_cast<float>(a) - b; }                  \
  inline float operator*(T a, float b) { return static_cast<float>(a) * b; }                  \
  inline float operator/(T a, float b) { return static_cast<float>(a) / b; }                  \
  inline float operator+(float a, T b) { return a + static_cast<float>(b); }                  \
  inline float operator-(float a, T b) { return a - static_cast<float>(b); }                  \
  inline float operator*(float a, T b) { return a * static_cast<float>(b); }                  \
  inline float operator/(float a, T b) { return a / static_cast<float>(b); }                  \
  inline float& operator+=(float& a, const T& b) { return a += static_cast<float>(b); }       \
  inline float& operator-=(float& a, const T& b) { return a -= static_cast<float>(b); }       \
  inline float& operator*=(float& a, const T& b) { return a *= static_cast<float>(b); }       \
  inline float& operator/=(float& a, const T& b) { return a /= static_cast<float>(b); }       \
  inline double operator+(T a, double b) { return static_cast<double>(a) + b; }               \
  inline double operator-(T a, double b) { return static_cast<double>(a) - b; }               \
  inline double operator*(T a, double b) { return static_cast<double>(a) * b; }               \
  inline double operator/(T a, double b) { return static_cast<double>(a) / b; }               \
  inline double operator+(double a, T b) { return a + static_cast<double>(b); }               \
  inline double operator-(double a, T b) { return a - static_cast<double>(b); }               \
  inline double operator*(double a, T b) { return a * static_cast<double>(b); }               \
  inline double operator/(double a, T b) { return a / static_cast<double>(b); }               \
  inline T operator+(T a, int b) { return a + static_cast<T>(static_cast<float>(b)); }        \
  inline T operator-(T a, int b) { return a - static_cast<T>(static_cast<float>(b)); }        \
  inline T operator*(T a, int b) { return a * static_cast<T>(static_cast<float>(b)); }        \
  inline T operator/(T a, int b) { return a / static_cast<T>(static_cast<float>(b)); }        \
  inline T operator+(int a, T b) { return static_cast<T>(static_cast<float>(a)) + b; }        \
  inline T operator-(int a, T b) { return static_cast<T>(static_cast<float>(a)) - b; }        \
  inline T operator*(int a, T b) { return static_cast<T>(static_cast<float>(a)) * b; }        \
  inline T operator/(int a, T b) { return static_cast<T>(static_cast<float>(a)) / b; }        \
  inline T operator+(T a, int64_t b) { return a + static_cast<T>(static_cast<float>(b)); }    \
  inline T operator-(T a, int64_t b) { return a - static_cast<T>(static_cast<float>(b)); }    \
  inline T operator*(T a, int64_t b) { return a * static_cast<T>(static_cast<float>(b)); }    \
  inline T operator/(T a, int64_t b) { return a / static_cast<T>(static_cast<float>(b)); }    \
  inline T operator+(int64_t a, T b) { return static_cast<T>(static_cast<float>(a)) + b; }    \
  inline T operator-(int64_t a, T b) { return static_cast<T>(static_cast<float>(a)) - b; }    \
  inline T operator*(int64_t a, T b) { return static_cast<T>(static_cast<float>(a)) * b; }    \
  inline T operator/(int64_t a, T b) { return static_cast<T>(static_cast<float>(a)) / b; }

TINYTORCH_REDUCED_FLOAT_OPERATORS(Half)
TINYTORCH_REDUCED_FLOAT_OPERATORS(BFloat16)
#undef TINYTORCH_REDUCED_FLOAT_OPERATORS

// Streams the value as a float: `std::cout << h` prints 1.5.
std::ostream& operator<<(std::ostream& out, const Half& value);
std::ostream& operator<<(std::ostream& out, const BFloat16& value);

}  // namespace tinytorch

namespace std {
template <>
class numeric_limits<tinytorch::Half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr tinytorch::Half min() { return {0x0400, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half lowest() { return {0xFBFF, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half max() { return {0x7BFF, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half epsilon() { return {0x1400, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half round_error() { return {0x3800, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half infinity() { return {0x7C00, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half quiet_NaN() { return {0x7E00, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half signaling_NaN() { return {0x7D00, tinytorch::Half::from_bits()}; }
  static constexpr tinytorch::Half denorm_min() { return {0x0001, tinytorch::Half::from_bits()}; }
};

template <>
class numeric_limits<tinytorch::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr bool is_iec559 = false;
  static constexpr bool is_bounded = true;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr tinytorch::BFloat16 min() { return {0x0080, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 lowest() { return {0xFF7F, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 max() { return {0x7F7F, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 epsilon() { return {0x3C00, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 round_error() { return {0x3F00, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 infinity() { return {0x7F80, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 quiet_NaN() { return {0x7FC0, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 signaling_NaN() { return {0x7F80, tinytorch::BFloat16::from_bits()}; }
  static constexpr tinytorch::BFloat16 denorm_min() { return {0x0001, tinytorch::BFloat16::from_bits()}; }
};
}  // namespace std
