// The instructor's extra for module 17 (reference library only; withheld from the student release,
// see curriculum.json "instructor_only"): hand-written SIMD micro-kernels for the learner-shaped GEMM
// (17_acceleration/gemm.cpp) and an unpacked AVX2 path for small products. They reach the GEMM
// through cpublas::install_gemm_extras (tinytorch/acceleration_kernels.h), called by
// extra/registration.cpp, which only the reference library's links keep: a learner's build never
// runs them, it runs the learner's portable micro-kernel.
#include "17_acceleration/extra/extras.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

namespace tinytorch {
namespace cpublas {
namespace {

// AVX-512: 12 rows x 32 columns = 24 zmm accumulators; per k, 2 loads of B and 12 broadcasts of A.
constexpr int kAvx512Rows = 12, kAvx512Cols = 32;
__attribute__((target("avx512f,fma"))) void micro_kernel_avx512(int64_t kc, const float* a_panel,
                                                                 const float* b_panel, float* c, int64_t ldc,
                                                                 bool accumulate) {
  __m512 left[kAvx512Rows], right[kAvx512Rows];  // columns 0-15 and 16-31 of each row
#pragma GCC unroll 12
  for (int i = 0; i < kAvx512Rows; ++i) left[i] = right[i] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m512 b_left = _mm512_loadu_ps(b_panel + p * kAvx512Cols);
    const __m512 b_right = _mm512_loadu_ps(b_panel + p * kAvx512Cols + 16);
    const float* a_p = a_panel + p * kAvx512Rows;
#pragma GCC unroll 12
    for (int i = 0; i < kAvx512Rows; ++i) {
      const __m512 a_i = _mm512_set1_ps(a_p[i]);
      left[i] = _mm512_fmadd_ps(a_i, b_left, left[i]);
      right[i] = _mm512_fmadd_ps(a_i, b_right, right[i]);
    }
  }
#pragma GCC unroll 12
  for (int i = 0; i < kAvx512Rows; ++i) {
    float* c_i = c + i * ldc;
    if (accumulate) {
      left[i] = _mm512_add_ps(left[i], _mm512_loadu_ps(c_i));
      right[i] = _mm512_add_ps(right[i], _mm512_loadu_ps(c_i + 16));
    }
    _mm512_storeu_ps(c_i, left[i]);
    _mm512_storeu_ps(c_i + 16, right[i]);
  }
}

// AVX2 + FMA: 6 rows x 16 columns = 12 ymm accumulators (of 16 registers).
constexpr int kAvx2Rows = 6, kAvx2Cols = 16;
__attribute__((target("avx2,fma"))) void micro_kernel_avx2(int64_t kc, const float* a_panel, const float* b_panel,
                                                            float* c, int64_t ldc, bool accumulate) {
  __m256 left[kAvx2Rows], right[kAvx2Rows];
#pragma GCC unroll 6
  for (int i = 0; i < kAvx2Rows; ++i) left[i] = right[i] = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m256 b_left = _mm256_loadu_ps(b_panel + p * kAvx2Cols);
    const __m256 b_right = _mm256_loadu_ps(b_panel + p * kAvx2Cols + 8);
    const float* a_p = a_panel + p * kAvx2Rows;
#pragma GCC unroll 6
    for (int i = 0; i < kAvx2Rows; ++i) {
      const __m256 a_i = _mm256_broadcast_ss(a_p + i);
      left[i] = _mm256_fmadd_ps(a_i, b_left, left[i]);
      right[i] = _mm256_fmadd_ps(a_i, b_right, right[i]);
    }
  }
#pragma GCC unroll 6
  for (int i = 0; i < kAvx2Rows; ++i) {
    float* c_i = c + i * ldc;
    if (accumulate) {
      left[i] = _mm256_add_ps(left[i], _mm256_loadu_ps(c_i));
      right[i] = _mm256_add_ps(right[i], _mm256_loadu_ps(c_i + 8));
    }
    _mm256_storeu_ps(c_i, left[i]);
    _mm256_storeu_ps(c_i + 8, right[i]);
  }
}

// ---- Small products: no packing ----
// Below a few hundred thousand multiply-adds (the layers of a small MLP) packing and the ragged
// edges of MR x NR tiles cost more than the multiply. These loops read A and B in place:
//   B rows contiguous (b_cs == 1): each row of C is a sum of rows of B scaled by A's elements, built
//     32 columns at a time in 4 ymm accumulators;
//   B columns contiguous (b_rs == 1, B = W.t() as in Linear's forward) and A rows contiguous: each
//     element of C is a dot product of two contiguous rows, 8 lanes at a time.
// Returns false for any other layout, which then takes the packed path.
__attribute__((target("avx2,fma"))) inline float horizontal_sum(__m256 lanes) {
  __m128 half = _mm_add_ps(_mm256_castps256_ps128(lanes), _mm256_extractf128_ps(lanes, 1));
  half = _mm_add_ps(half, _mm_movehl_ps(half, half));
  half = _mm_add_ss(half, _mm_movehdup_ps(half));
  return _mm_cvtss_f32(half);
}

__attribute__((target("avx2,fma"))) bool small_gemm_avx2(int64_t m, int64_t n, int64_t k, const float* a,
                                                          int64_t a_rs, int64_t a_cs, const float* b, int64_t b_rs,
                                                          int64_t b_cs, float* c, int64_t ldc) {
  if (b_cs == 1) {
    for (int64_t i = 0; i < m; ++i) {
      const float* a_i = a + i * a_rs;
      float* c_i = c + i * ldc;
      int64_t j = 0;
      for (; j + 32 <= n; j += 32) {
        __m256 sums[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int64_t p = 0; p < k; ++p) {
          const __m256 a_ip = _mm256_set1_ps(a_i[p * a_cs]);
          const float* b_p = b + p * b_rs + j;
#pragma GCC unroll 4
          for (int q = 0; q < 4; ++q) sums[q] = _mm256_fmadd_ps(a_ip, _mm256_loadu_ps(b_p + 8 * q), sums[q]);
        }
#pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) _mm256_storeu_ps(c_i + j + 8 * q, sums[q]);
      }
      for (; j + 8 <= n; j += 8) {
        __m256 sum = _mm256_setzero_ps();
        for (int64_t p = 0; p < k; ++p) {
          sum = _mm256_fmadd_ps(_mm256_set1_ps(a_i[p * a_cs]), _mm256_loadu_ps(b + p * b_rs + j), sum);
        }
        _mm256_storeu_ps(c_i + j, sum);
      }
      for (; j < n; ++j) {
        float sum = 0;
        for (int64_t p = 0; p < k; ++p) sum += a_i[p * a_cs] * b[p * b_rs + j];
        c_i[j] = sum;
      }
    }
    return true;
  }
  if (b_rs == 1 && a_cs == 1) {
    // Four columns of C at a time, so that each load of A's row feeds four products.
    const int64_t k_vector = k / 8 * 8;
    for (int64_t i = 0; i < m; ++i) {
      const float* a_i = a + i * a_rs;
      float* c_i = c + i * ldc;
      int64_t j = 0;
      for (; j + 4 <= n; j += 4) {
        const float* b_j = b + j * b_cs;
        __m256 lanes[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
        for (int64_t p = 0; p < k_vector; p += 8) {
          const __m256 a_p = _mm256_loadu_ps(a_i + p);
#pragma GCC unroll 4
          for (int q = 0; q < 4; ++q) lanes[q] = _mm256_fmadd_ps(a_p, _mm256_loadu_ps(b_j + q * b_cs + p), lanes[q]);
        }
#pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) {
          float sum = horizontal_sum(lanes[q]);
          for (int64_t p = k_vector; p < k; ++p) sum += a_i[p] * b_j[q * b_cs + p];
          c_i[j + q] = sum;
        }
      }
      for (; j < n; ++j) {
        const float* b_j = b + j * b_cs;
        __m256 lanes = _mm256_setzero_ps();
        for (int64_t p = 0; p < k_vector; p += 8) {
          lanes = _mm256_fmadd_ps(_mm256_loadu_ps(a_i + p), _mm256_loadu_ps(b_j + p), lanes);
        }
        float sum = horizontal_sum(lanes);
        for (int64_t p = k_vector; p < k; ++p) sum += a_i[p] * b_j[p];
        c_i[j] = sum;
      }
    }
    return true;
  }
  return false;
}

}  // namespace

std::vector<FloatMicroKernel> simd_float_micro_kernels() {
  std::vector<FloatMicroKernel> list;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) {
    list.push_back({"avx512", kAvx512Rows, kAvx512Cols, micro_kernel_avx512, 256, 144, 2048});
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    list.push_back({"avx2", kAvx2Rows, kAvx2Cols, micro_kernel_avx2, 256, 120, 2048});
  }
  return list;
}

SmallGemm simd_small_gemm() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return small_gemm_avx2;
  return nullptr;
}

}  // namespace cpublas
}  // namespace tinytorch

#else

namespace tinytorch {
namespace cpublas {
std::vector<FloatMicroKernel> simd_float_micro_kernels() { return {}; }
SmallGemm simd_small_gemm() { return nullptr; }
}  // namespace cpublas
}  // namespace tinytorch

#endif
