// The instructor's extra for module 17 (reference library only; withheld from the student release,
// see curriculum.json "instructor_only"): hand-written SIMD micro-kernels for the learner-shaped GEMM
// (17_acceleration/gemm.cpp), the AVX-512 kernel's packing, and an unpacked AVX2 path for small and
// few-row products. They reach the GEMM through cpublas::install_gemm_extras
// (tinytorch/acceleration_kernels.h), called by extra/registration.cpp, which only the reference
// library's links keep: a learner's build never runs them, it runs the learner's portable kernel.
#include "17_acceleration/extra/extras.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#include <algorithm>

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

// ---- Packing: 16 x 16 blocks transposed in registers ----
// The contract of pack_panel (gemm.cpp): out[p * width + i] = src[p * depth_stride + i * lane_stride]
// for p < depth, i < valid, and zeros in lanes valid..width-1. Lanes are packed 16 at a time (width
// 12 for A's panels, 32 for B's: masked stores keep to the panel):
//   lane_stride == 1 (A^T's rows, a row-major B): one masked load and store per depth step;
//   depth_stride == 1 (a row-major A, B = W^T in Linear's forward): the 16 lanes' rows are read at
//     unit stride, 16 depth steps at a time, and transposed in registers (4 rounds of 16 shuffles)
//     instead of gathering one element per lane at a stride;
//   any other layout: one element at a time.
__attribute__((target("avx512f"))) inline __mmask16 first_lanes(int64_t count) {
  return count >= 16 ? __mmask16(0xFFFF) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1);
}

__attribute__((target("avx512f"))) inline void transpose_16x16(__m512 rows[16]) {
  // The all-lanes masked forms: the same instructions, without the plain forms' undefined source
  // operand that GCC 12 warns about (-Wmaybe-uninitialized).
  constexpr __mmask16 kAll = 0xFFFF;
  __m512 t[16];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_maskz_unpacklo_ps(kAll, rows[2 * i], rows[2 * i + 1]);
    t[2 * i + 1] = _mm512_maskz_unpackhi_ps(kAll, rows[2 * i], rows[2 * i + 1]);
  }
  // rows[4 g + e], 128-bit lane l: rows 4g..4g+3 at column 4l + e.
#pragma GCC unroll 4
  for (int g = 0; g < 4; ++g) {
    rows[4 * g] = _mm512_maskz_shuffle_ps(kAll, t[4 * g], t[4 * g + 2], 0x44);
    rows[4 * g + 1] = _mm512_maskz_shuffle_ps(kAll, t[4 * g], t[4 * g + 2], 0xEE);
    rows[4 * g + 2] = _mm512_maskz_shuffle_ps(kAll, t[4 * g + 1], t[4 * g + 3], 0x44);
    rows[4 * g + 3] = _mm512_maskz_shuffle_ps(kAll, t[4 * g + 1], t[4 * g + 3], 0xEE);
  }
  // Transpose the 4 x 4 grid of 128-bit lanes: column 4l + e gathers lane l of rows[e], rows[4 + e], ...
#pragma GCC unroll 4
  for (int e = 0; e < 4; ++e) {
    const __m512 y0 = _mm512_maskz_shuffle_f32x4(kAll, rows[e], rows[4 + e], 0x88);
    const __m512 y1 = _mm512_maskz_shuffle_f32x4(kAll, rows[e], rows[4 + e], 0xDD);
    const __m512 y2 = _mm512_maskz_shuffle_f32x4(kAll, rows[8 + e], rows[12 + e], 0x88);
    const __m512 y3 = _mm512_maskz_shuffle_f32x4(kAll, rows[8 + e], rows[12 + e], 0xDD);
    t[e] = _mm512_maskz_shuffle_f32x4(kAll, y0, y2, 0x88);
    t[4 + e] = _mm512_maskz_shuffle_f32x4(kAll, y1, y3, 0x88);
    t[8 + e] = _mm512_maskz_shuffle_f32x4(kAll, y0, y2, 0xDD);
    t[12 + e] = _mm512_maskz_shuffle_f32x4(kAll, y1, y3, 0xDD);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) rows[i] = t[i];
}

__attribute__((target("avx512f"))) void pack_avx512(const float* src, int64_t lane_stride, int64_t depth_stride,
                                                    int64_t depth, int64_t valid, int width, float* out) {
  if (lane_stride == 1) {
    for (int64_t p = 0; p < depth; ++p) {
      const float* src_p = src + p * depth_stride;
      float* out_p = out + p * width;
      for (int lane = 0; lane < width; lane += 16) {
        const __m512 values = _mm512_maskz_loadu_ps(first_lanes(valid - lane), src_p + lane);
        _mm512_mask_storeu_ps(out_p + lane, first_lanes(width - lane), values);
      }
    }
    return;
  }
  if (depth_stride == 1) {
    for (int lane = 0; lane < width; lane += 16) {
      const __mmask16 store = first_lanes(width - lane);
      const int64_t lanes_here = std::min<int64_t>(16, std::max<int64_t>(0, valid - lane));
      for (int64_t p = 0; p < depth; p += 16) {
        const int64_t steps = std::min<int64_t>(16, depth - p);
        const __mmask16 load = first_lanes(steps);
        __m512 rows[16];
        const float* block = src + lane * lane_stride + p;
        for (int i = 0; i < 16; ++i) {
          rows[i] = i < lanes_here ? _mm512_maskz_loadu_ps(load, block + i * lane_stride) : _mm512_setzero_ps();
        }
        transpose_16x16(rows);
        float* out_p = out + p * width + lane;
        for (int64_t q = 0; q < steps; ++q) _mm512_mask_storeu_ps(out_p + q * width, store, rows[q]);
      }
    }
    return;
  }
  for (int64_t p = 0; p < depth; ++p) {
    const float* src_p = src + p * depth_stride;
    for (int64_t i = 0; i < width; ++i) out[p * width + i] = i < valid ? src_p[i * lane_stride] : 0.0f;
  }
}

// ---- Small products and few rows: no packing ----
// Below a few hundred thousand multiply-adds (the layers of a small MLP), or with at most a few rows
// of A (kGemmFewRows: a single sample's Linear), packing and the ragged edges of MR x NR tiles cost
// more than the multiply. These loops read A and B in place:
//   B rows contiguous (b_cs == 1): up to 6 rows of C at a time, each a sum of rows of B scaled by A's
//     elements, 16 columns at a time in 2 ymm accumulators per row (B read once per 6 rows);
//   B columns contiguous (b_rs == 1, B = W.t() as in Linear's forward) and A rows contiguous: each
//     element of C is a dot product of two contiguous rows, 8 lanes at a time, 2 x 4 (or 1 x 8)
//     elements of C at a time.
// Returns false for any other layout, which then takes the packed path.
__attribute__((target("avx2,fma"))) inline float horizontal_sum(__m256 lanes) {
  __m128 half = _mm_add_ps(_mm256_castps256_ps128(lanes), _mm256_extractf128_ps(lanes, 1));
  half = _mm_add_ps(half, _mm_movehl_ps(half, half));
  half = _mm_add_ss(half, _mm_movehdup_ps(half));
  return _mm_cvtss_f32(half);
}

// ROWS rows of C (A's rows a, a + a_rs, ...) from a B with contiguous rows.
template <int ROWS>
__attribute__((target("avx2,fma"))) void scaled_rows_avx2(int64_t n, int64_t k, const float* a, int64_t a_rs,
                                                           int64_t a_cs, const float* b, int64_t b_rs, float* c,
                                                           int64_t ldc) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m256 left[ROWS], right[ROWS];
#pragma GCC unroll 6
    for (int r = 0; r < ROWS; ++r) left[r] = right[r] = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; ++p) {
      const float* b_p = b + p * b_rs + j;
      const __m256 b_left = _mm256_loadu_ps(b_p), b_right = _mm256_loadu_ps(b_p + 8);
#pragma GCC unroll 6
      for (int r = 0; r < ROWS; ++r) {
        const __m256 a_rp = _mm256_broadcast_ss(a + r * a_rs + p * a_cs);
        left[r] = _mm256_fmadd_ps(a_rp, b_left, left[r]);
        right[r] = _mm256_fmadd_ps(a_rp, b_right, right[r]);
      }
    }
#pragma GCC unroll 6
    for (int r = 0; r < ROWS; ++r) {
      _mm256_storeu_ps(c + r * ldc + j, left[r]);
      _mm256_storeu_ps(c + r * ldc + j + 8, right[r]);
    }
  }
  for (; j + 8 <= n; j += 8) {
    __m256 sums[ROWS];
#pragma GCC unroll 6
    for (int r = 0; r < ROWS; ++r) sums[r] = _mm256_setzero_ps();
    for (int64_t p = 0; p < k; ++p) {
      const __m256 b_p = _mm256_loadu_ps(b + p * b_rs + j);
#pragma GCC unroll 6
      for (int r = 0; r < ROWS; ++r) sums[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + r * a_rs + p * a_cs), b_p, sums[r]);
    }
#pragma GCC unroll 6
    for (int r = 0; r < ROWS; ++r) _mm256_storeu_ps(c + r * ldc + j, sums[r]);
  }
  for (; j < n; ++j) {
    for (int r = 0; r < ROWS; ++r) {
      float sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += a[r * a_rs + p * a_cs] * b[p * b_rs + j];
      c[r * ldc + j] = sum;
    }
  }
}

// ROWS x COLS elements of C, each the dot product of one of A's rows (a + r a_rs) and one of B's
// columns (b + q b_cs), both contiguous and k long.
template <int ROWS, int COLS>
__attribute__((target("avx2,fma"))) void dot_block_avx2(const float* a, int64_t a_rs, const float* b, int64_t b_cs,
                                                         int64_t k, float* c, int64_t ldc) {
  const int64_t k_vector = k / 8 * 8;
  __m256 sums[ROWS][COLS];
#pragma GCC unroll 2
  for (int r = 0; r < ROWS; ++r) {
#pragma GCC unroll 8
    for (int q = 0; q < COLS; ++q) sums[r][q] = _mm256_setzero_ps();
  }
  for (int64_t p = 0; p < k_vector; p += 8) {
    __m256 a_p[ROWS];
#pragma GCC unroll 2
    for (int r = 0; r < ROWS; ++r) a_p[r] = _mm256_loadu_ps(a + r * a_rs + p);
#pragma GCC unroll 8
    for (int q = 0; q < COLS; ++q) {
      const __m256 b_q = _mm256_loadu_ps(b + q * b_cs + p);
#pragma GCC unroll 2
      for (int r = 0; r < ROWS; ++r) sums[r][q] = _mm256_fmadd_ps(a_p[r], b_q, sums[r][q]);
    }
  }
  for (int r = 0; r < ROWS; ++r) {
    for (int q = 0; q < COLS; ++q) {
      float sum = horizontal_sum(sums[r][q]);
      for (int64_t p = k_vector; p < k; ++p) sum += a[r * a_rs + p] * b[q * b_cs + p];
      c[r * ldc + q] = sum;
    }
  }
}

// Set by simd_small_gemm: the packed path has the AVX-512 kernel and packing.
bool prefer_packed = false;

// One element of C: the dot product of A's row a_i and B's column b_j (both contiguous, k long).
__attribute__((target("avx2,fma"))) inline float dot_avx2(const float* a_i, const float* b_j, int64_t k) {
  const int64_t k_vector = k / 8 * 8;
  __m256 lanes = _mm256_setzero_ps();
  for (int64_t p = 0; p < k_vector; p += 8) {
    lanes = _mm256_fmadd_ps(_mm256_loadu_ps(a_i + p), _mm256_loadu_ps(b_j + p), lanes);
  }
  float sum = horizontal_sum(lanes);
  for (int64_t p = k_vector; p < k; ++p) sum += a_i[p] * b_j[p];
  return sum;
}

__attribute__((target("avx2,fma"))) bool small_gemm_avx2(int64_t m, int64_t n, int64_t k, const float* a,
                                                          int64_t a_rs, int64_t a_cs, const float* b, int64_t b_rs,
                                                          int64_t b_cs, float* c, int64_t ldc) {
  if (b_cs == 1) {
    int64_t i = 0;
    for (; i + 6 <= m; i += 6) scaled_rows_avx2<6>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc);
    switch (m - i) {
      case 5: scaled_rows_avx2<5>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc); break;
      case 4: scaled_rows_avx2<4>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc); break;
      case 3: scaled_rows_avx2<3>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc); break;
      case 2: scaled_rows_avx2<2>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc); break;
      case 1: scaled_rows_avx2<1>(n, k, a + i * a_rs, a_rs, a_cs, b, b_rs, c + i * ldc, ldc); break;
      default: break;
    }
    return true;
  }
  if (b_rs == 1 && a_cs == 1) {
    // A product of at least one 12 x 32 tile and 16 steps of k (attention's q k^T per head) runs
    // faster packed, on the AVX-512 micro-kernel: a dot product ends in a horizontal sum per element.
    if (prefer_packed && m > kGemmFewRows && m >= 12 && n >= 32 && k >= 16) return false;
    // Rows in blocks of 4 (their 4 x k values, and each group of B's columns, stay in L1 while they
    // are reused); within a block, 2 rows x 4 columns of C at a time (8 independent sums: enough to
    // keep both FMA units busy), or 1 row x 8 columns for a single row.
    for (int64_t i0 = 0; i0 < m; i0 += 4) {
      const int64_t rows = std::min<int64_t>(4, m - i0);
      int64_t j = 0;
      if (rows == 1) {
        for (; j + 8 <= n; j += 8) dot_block_avx2<1, 8>(a + i0 * a_rs, a_rs, b + j * b_cs, b_cs, k, c + i0 * ldc + j, ldc);
      }
      for (; j + 4 <= n; j += 4) {
        int64_t i = i0;
        for (; i + 2 <= i0 + rows; i += 2) {
          dot_block_avx2<2, 4>(a + i * a_rs, a_rs, b + j * b_cs, b_cs, k, c + i * ldc + j, ldc);
        }
        if (i < i0 + rows) dot_block_avx2<1, 4>(a + i * a_rs, a_rs, b + j * b_cs, b_cs, k, c + i * ldc + j, ldc);
      }
      for (; j < n; ++j) {
        for (int64_t i = i0; i < i0 + rows; ++i) c[i * ldc + j] = dot_avx2(a + i * a_rs, b + j * b_cs, k);
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
    list.push_back({"avx512", kAvx512Rows, kAvx512Cols, micro_kernel_avx512, 256, 144, 2048, pack_avx512});
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    list.push_back({"avx2", kAvx2Rows, kAvx2Cols, micro_kernel_avx2, 256, 120, 2048});
  }
  return list;
}

SmallGemm simd_small_gemm() {
  __builtin_cpu_init();
  prefer_packed = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
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
