#pragma once
// Float exp and erfc written as straight-line arithmetic (no branches, no library calls), so that a
// loop calling them vectorises: the given GELU kernels (02_activations/activation_ops.cpp) run these
// instead of one libm call per element (8 ns an element on the course's machine, 12x LibTorch's
// vectorised GELU). Internal: no public header includes this.
//
// Accuracy, checked against double-precision <cmath> in tests/framework/test_vector_math.cpp:
//   exp_float:  relative error below 2e-7 for x in [-87, 88]; 0 below -103.9, +inf above 88.72
//   erfc_float: absolute error below 4e-7 everywhere (Numerical Recipes' Chebyshev fit erfcc, fractional
//               error below 1.2e-7, plus float rounding near erfc = 2), which is what 1 + erf needs in GELU.
#include <cstdint>
#include <cstring>

// On a loop function: GCC compiles it for AVX-512, AVX2 and the baseline, and the program picks the
// widest its CPU runs (an ifunc, resolved once at load). Other compilers get the baseline.
// Not under ThreadSanitizer: GCC instruments the ifunc resolver, which the dynamic loader runs before
// the sanitizer's runtime is relocated, and the program crashes at load (tito's race check builds so).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(__SANITIZE_THREAD__)
#define TT_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TT_VECTOR_CLONES
#endif

namespace tinytorch {
namespace vector_math {

inline float bits_to_float(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline int32_t float_to_bits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// condition ? a : b without a branch (GCC does not if-convert the plain ternary here, and a branch
// stops the loop from vectorising).
inline float select_float(bool condition, float a, float b) {
  const int32_t mask = -static_cast<int32_t>(condition);
  return bits_to_float((float_to_bits(a) & mask) | (float_to_bits(b) & ~mask));
}

// e^x = 2^n e^r with n = round(x / ln 2) and |r| <= ln(2) / 2; e^r by its Taylor series to r^7
// (remainder below 1e-8); 2^n goes straight into the exponent bits. Two scalings keep n up to +-254
// representable, so results near the ends of the range do not overflow in the middle.
inline float exp_float(float x) {
  const float kLog2e = 1.44269504088896341f;
  const float kLn2High = 0.693359375f;  // ln 2 split in two so that n ln 2 is exact for |n| < 256
  const float kLn2Low = -2.12194440e-4f;
  const float kRoundMagic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  x = select_float(x < -104.0f, -104.0f, x);
  x = select_float(x > 89.0f, 89.0f, x);
  const float shifted = x * kLog2e + kRoundMagic;
  const float n = shifted - kRoundMagic;
  const int32_t n_int = float_to_bits(shifted) - float_to_bits(kRoundMagic);
  const float r = (x - n * kLn2High) - n * kLn2Low;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // 2^n as two factors 2^(n/2) 2^(n - n/2), each a normal float for |n| <= 254. The shifts are of
  // unsigned values: for a NaN x, n_int is garbage (the result is NaN from p anyway), and shifting
  // it as a signed int would be undefined behaviour.
  const int32_t half = n_int / 2;
  const float scale_a = bits_to_float(static_cast<int32_t>(static_cast<uint32_t>(half + 127) << 23));
  const float scale_b = bits_to_float(static_cast<int32_t>(static_cast<uint32_t>(n_int - half + 127) << 23));
  return p * scale_a * scale_b;
}

// erfc(x) = t exp(-z^2 + P(t)), z = |x|, t = 1 / (1 + z / 2), and erfc(-z) = 2 - erfc(z).
inline float erfc_float(float x) {
  const float z = bits_to_float(float_to_bits(x) & 0x7fffffff);  // |x|
  const float t = 1.0f / (1.0f + 0.5f * z);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  const float tail = t * exp_float(p - z * z);
  return select_float(x < 0.0f, 2.0f - tail, tail);
}

}  // namespace vector_math
}  // namespace tinytorch
