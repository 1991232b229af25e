// The fast matrix multiply (tinytorch/gemm.h), in the classic Goto/BLIS shape:
//
//   for jc in steps of NC columns of B:            B block (KC x NC) stays in the L2/L3 cache
//     for pc in steps of KC along k:
//       pack B[pc:pc+KC, jc:jc+NC] into panels of NR columns
//       for ic in steps of MC rows of A (these blocks run on parallel threads):
//         pack A[ic:ic+MC, pc:pc+KC] into panels of MR rows   A block (MC x KC) stays in L2
//         for jr in steps of NR: for ir in steps of MR:       B panel (KC x NR) stays in L1
//           micro-kernel: the MR x NR tile of C += A panel * B panel, accumulated in registers
//
// Packing copies each block once into the exact order the micro-kernel reads it (unit stride,
// zero-padded to whole panels), which is also what makes strided and transposed inputs cost the same
// as contiguous ones. The micro-kernel keeps MR x NR sums in vector registers and does MR * NR / W
// fused multiply-adds per step of k (W = floats per vector): 24 FMAs of 16 floats for AVX-512.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "tinytorch/errors.h"
#include "kernels/gemm.h"
#include "tinytorch/parallel.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TINYTORCH_GEMM_X86 1
#include <immintrin.h>
#endif

namespace tinytorch {
namespace cpublas {
namespace {

// ---- The naive kernel: the learner's triple loop, the ground truth for the fast ones ----

template <typename T>
void naive_gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs,
                int64_t b_cs, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T dot = 0;
      for (int64_t p = 0; p < k; ++p) dot += a[i * a_rs + p * a_cs] * b[p * b_rs + j * b_cs];
      c[i * ldc + j] = dot;
    }
  }
}

// ---- Micro-kernels: c[i * ldc + j] (=|+=) sum over p < kc of a_panel[p * MR + i] * b_panel[p * NR + j] ----

template <typename T>
using MicroKernel = void (*)(int64_t kc, const T* a_panel, const T* b_panel, T* c, int64_t ldc, bool accumulate);

// Portable: plain loops the compiler vectorises with whatever the baseline ISA offers (SSE2 on x86-64).
template <typename T, int MR, int NR>
void micro_kernel_generic(int64_t kc, const T* a_panel, const T* b_panel, T* c, int64_t ldc, bool accumulate) {
  T sums[MR][NR] = {};
  for (int64_t p = 0; p < kc; ++p) {
    const T* a_p = a_panel + p * MR;
    const T* b_p = b_panel + p * NR;
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; ++j) sums[i][j] += a_p[i] * b_p[j];
    }
  }
  for (int i = 0; i < MR; ++i) {
    T* c_i = c + i * ldc;
    for (int j = 0; j < NR; ++j) c_i[j] = accumulate ? c_i[j] + sums[i][j] : sums[i][j];
  }
}

#ifdef TINYTORCH_GEMM_X86
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
#endif

// A micro-kernel with its tile shape and the cache blocking that suits it.
template <typename T>
struct Kernel {
  const char* name;
  int mr, nr;
  MicroKernel<T> run;
  // KC x NR of B (one panel) should sit in L1, MC x KC of A in L2, KC x NC of B in L2/L3.
  int64_t kc = 256, mc = 120, nc = 2048;
};

const std::vector<Kernel<float>>& float_kernels() {
  static const std::vector<Kernel<float>> kernels = [] {
    std::vector<Kernel<float>> list;
#ifdef TINYTORCH_GEMM_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) {
      list.push_back({"avx512", kAvx512Rows, kAvx512Cols, micro_kernel_avx512, 256, 144, 2048});
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
      list.push_back({"avx2", kAvx2Rows, kAvx2Cols, micro_kernel_avx2, 256, 120, 2048});
    }
#endif
    list.push_back({"generic", 4, 8, micro_kernel_generic<float, 4, 8>, 256, 120, 2048});
    return list;
  }();
  return kernels;
}

std::atomic<int> g_forced_float_kernel{-1};  // index into float_kernels(), -1 = the best one

const Kernel<float>& current_float_kernel() {
  const int forced = g_forced_float_kernel.load(std::memory_order_relaxed);
  return float_kernels()[forced < 0 ? 0 : forced];
}

// ---- Packing into per-thread scratch buffers that grow and are kept (no allocation per call) ----

template <typename T>
T* scratch(int slot, int64_t elements) {
  struct Buffer {
    T* data = nullptr;
    int64_t capacity = 0;
    ~Buffer() { std::free(data); }
  };
  thread_local Buffer buffers[2];
  Buffer& buffer = buffers[slot];
  if (buffer.capacity < elements) {
    std::free(buffer.data);
    const size_t bytes = (static_cast<size_t>(elements) * sizeof(T) + 63) / 64 * 64;
    buffer.data = static_cast<T*>(std::aligned_alloc(64, bytes));
    if (buffer.data == nullptr) {
      buffer.capacity = 0;
      throw std::bad_alloc();
    }
    buffer.capacity = elements;
  }
  return buffer.data;
}
constexpr int kPackA = 0, kPackB = 1;

// One packed panel: `valid` lanes (rows of A, or columns of B) of `depth` values each, stored
// k-major and zero-padded to `width` lanes: out[p * width + i] = src[p * depth_stride + i * lane_stride].
template <typename T>
void pack_panel(const T* src, int64_t lane_stride, int64_t depth_stride, int64_t depth, int64_t valid, int width,
                T* out) {
  for (int64_t p = 0; p < depth; ++p) {
    const T* src_p = src + p * depth_stride;
    int64_t i = 0;
    if (lane_stride == 1) {
      std::memcpy(out, src_p, static_cast<size_t>(valid) * sizeof(T));
      i = valid;
    } else {
      for (; i < valid; ++i) out[i] = src_p[i * lane_stride];
    }
    for (; i < width; ++i) out[i] = T(0);
    out += width;
  }
}

// A[0 : rows, 0 : depth] -> consecutive panels of MR rows.
template <typename T>
void pack_a(const T* a, int64_t a_rs, int64_t a_cs, int64_t rows, int64_t depth, int mr, T* out) {
  for (int64_t panel = 0; panel < rows; panel += mr) {
    pack_panel(a + panel * a_rs, a_rs, a_cs, depth, std::min<int64_t>(mr, rows - panel), mr, out + panel * depth);
  }
}

// B[0 : depth, 0 : valid] -> one panel of NR columns.
template <typename T>
void pack_b_panel(const T* b, int64_t b_rs, int64_t b_cs, int64_t depth, int64_t valid, int nr, T* out) {
  pack_panel(b, b_cs, b_rs, depth, valid, nr, out);
}

// ---- The blocked driver ----

template <typename T>
void blocked_gemm(const Kernel<T>& kernel, int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs,
                  const T* b, int64_t b_rs, int64_t b_cs, T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    return;
  }
  const int mr = kernel.mr, nr = kernel.nr;
  const bool use_threads = m * n * k >= kGemmParallelThreshold && get_num_threads() > 1 && !in_parallel_region();
  // Rows per A block: the cache-sized MC, or less so that every thread gets a block.
  int64_t mc = kernel.mc;
  if (use_threads) {
    const int64_t per_thread = divup(divup(m, get_num_threads()), mr) * mr;
    mc = std::max<int64_t>(mr, std::min(mc, per_thread));
  }
  const int64_t row_blocks = divup(m, mc);

  for (int64_t jc = 0; jc < n; jc += kernel.nc) {
    const int64_t nc = std::min(kernel.nc, n - jc);
    const int64_t col_panels = divup(nc, nr);
    for (int64_t pc = 0; pc < k; pc += kernel.kc) {
      const int64_t kc = std::min(kernel.kc, k - pc);
      const bool accumulate = pc > 0;  // the first k block overwrites C, the later ones add to it

      T* b_packed = scratch<T>(kPackB, col_panels * nr * kc);
      const T* b_block = b + pc * b_rs + jc * b_cs;
      auto pack_b_panels = [&](int64_t first, int64_t last) {
        for (int64_t panel = first; panel < last; ++panel) {
          pack_b_panel(b_block + panel * nr * b_cs, b_rs, b_cs, kc, std::min<int64_t>(nr, nc - panel * nr), nr,
                       b_packed + panel * nr * kc);
        }
      };
      if (use_threads) {
        parallel_for(0, col_panels, 1, pack_b_panels);
      } else {
        pack_b_panels(0, col_panels);
      }

      auto multiply_row_blocks = [&](int64_t first_block, int64_t last_block) {
        for (int64_t block = first_block; block < last_block; ++block) {
          const int64_t ic = block * mc;
          const int64_t rows = std::min(mc, m - ic);
          T* a_packed = scratch<T>(kPackA, divup(rows, mr) * mr * kc);
          pack_a(a + ic * a_rs + pc * a_cs, a_rs, a_cs, rows, kc, mr, a_packed);
          for (int64_t jr = 0; jr < nc; jr += nr) {
            const int64_t cols = std::min<int64_t>(nr, nc - jr);
            const T* b_panel = b_packed + jr * kc;
            for (int64_t ir = 0; ir < rows; ir += mr) {
              const int64_t tile_rows = std::min<int64_t>(mr, rows - ir);
              T* c_tile = c + (ic + ir) * ldc + jc + jr;
              const T* a_panel = a_packed + ir * kc;
              if (tile_rows == mr && cols == nr) {
                kernel.run(kc, a_panel, b_panel, c_tile, ldc, accumulate);
                continue;
              }
              // A ragged edge: compute the whole tile aside, keep its valid corner.
              alignas(64) T tile[16 * 32];
              kernel.run(kc, a_panel, b_panel, tile, nr, false);
              for (int64_t i = 0; i < tile_rows; ++i) {
                for (int64_t j = 0; j < cols; ++j) {
                  c_tile[i * ldc + j] = accumulate ? c_tile[i * ldc + j] + tile[i * nr + j] : tile[i * nr + j];
                }
              }
            }
          }
        }
      };
      if (use_threads) {
        parallel_for(0, row_blocks, 1, multiply_row_blocks);
      } else {
        multiply_row_blocks(0, row_blocks);
      }
    }
  }
}

const Kernel<double>& double_kernel() {
  static const Kernel<double> kernel{"generic", 4, 4, micro_kernel_generic<double, 4, 4>, 256, 96, 1024};
  return kernel;
}
const Kernel<int64_t>& long_kernel() {
  static const Kernel<int64_t> kernel{"generic", 4, 4, micro_kernel_generic<int64_t, 4, 4>, 256, 96, 1024};
  return kernel;
}

}  // namespace

void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t b_rs,
          int64_t b_cs, float* c, int64_t ldc) {
  const Kernel<float>& kernel = current_float_kernel();
#ifdef TINYTORCH_GEMM_X86
  const bool vector_kernel = std::strcmp(kernel.name, "generic") != 0;  // so AVX2 is there
  if (vector_kernel && m > 0 && n > 0 && k > 0 && m * n * k <= kSmallGemmMaxMultiplyAdds &&
      small_gemm_avx2(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc)) {
    return;
  }
#endif
  blocked_gemm(kernel, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_rs, int64_t a_cs, const double* b,
          int64_t b_rs, int64_t b_cs, double* c, int64_t ldc) {
  blocked_gemm(double_kernel(), m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_rs, int64_t a_cs, const int64_t* b,
          int64_t b_rs, int64_t b_cs, int64_t* c, int64_t ldc) {
  blocked_gemm(long_kernel(), m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}

void gemm_reference(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs, const float* b,
                    int64_t b_rs, int64_t b_cs, float* c, int64_t ldc) {
  naive_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm_reference(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_rs, int64_t a_cs, const double* b,
                    int64_t b_rs, int64_t b_cs, double* c, int64_t ldc) {
  naive_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm_reference(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_rs, int64_t a_cs, const int64_t* b,
                    int64_t b_rs, int64_t b_cs, int64_t* c, int64_t ldc) {
  naive_gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}

std::vector<std::string> available_float_kernels() {
  std::vector<std::string> names;
  for (const Kernel<float>& kernel : float_kernels()) names.emplace_back(kernel.name);
  return names;
}

std::string float_kernel() { return current_float_kernel().name; }

void set_float_kernel(const std::string& name) {
  if (name.empty()) {
    g_forced_float_kernel.store(-1);
    return;
  }
  const auto& kernels = float_kernels();
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (name == kernels[i].name) {
      g_forced_float_kernel.store(static_cast<int>(i));
      return;
    }
  }
  std::string available;
  for (const Kernel<float>& kernel : kernels) available += std::string(available.empty() ? "" : ", ") + kernel.name;
  TT_CHECK(false, "gemm kernel '", name, "' is not available on this CPU; choose one of: ", available);
}

}  // namespace cpublas
}  // namespace tinytorch
