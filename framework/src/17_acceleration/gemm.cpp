// Module 17 (Acceleration), lesson sections "2. Loop order and cache lines" to "5. The micro-kernel
// and vectorisation": the fast matrix multiply behind mm, bmm, Linear and the im2col convolution
// (declared in tinytorch/acceleration_kernels.h), in the classic Goto/BLIS shape that section 3
// draws: blocks of B and A sized for the caches, packed into panels, and a micro-kernel that computes
// one register tile of C from one A panel and one B panel.
//
// The given code below your functions: the micro-kernel table (your portable kernel, plus the
// reference library's SIMD extras, never in your build), per-thread scratch buffers, and the public
// entry points cpublas::gemm / available_float_kernels / set_float_kernel.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/errors.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace cpublas {

// TODO: gemm_ikj -- C (m x n) = A (m x k) B (k x n) by three plain loops in the i-k-j order of
//   section 2 ("Loop order and cache lines"), the order whose innermost loop is unit stride when B's
//   rows are contiguous. A's row stride is a_rs and its column stride a_cs (B's: b_rs, b_cs); any
//   strides, including a transposed view's. C is row-major with row stride ldc >= n.
//   C's old contents do not count, and only the first n columns of each row of C are yours: columns
//   n..ldc-1 may belong to another matrix and must stay untouched. k == 0 gives zeros. m, n >= 1.
//   Example: A = [[1, 2]], B = [[3], [4]] -> C = [[11]].
TT_TARGET_CLONES void gemm_ikj(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs,
                               const float* b, int64_t b_rs, int64_t b_cs, float* c, int64_t ldc) {
  // BEGIN SOLUTION name="tinytorch::cpublas::gemm_ikj" lesson="2. Loop order and cache lines"
  for (int64_t i = 0; i < m; ++i) {
    float* c_i = c + i * ldc;
    std::fill(c_i, c_i + n, 0.0f);
    for (int64_t p = 0; p < k; ++p) {
      const float a_ip = a[i * a_rs + p * a_cs];
      const float* b_p = b + p * b_rs;
      if (b_cs == 1) {
        for (int64_t j = 0; j < n; ++j) c_i[j] += a_ip * b_p[j];
      } else {
        for (int64_t j = 0; j < n; ++j) c_i[j] += a_ip * b_p[j * b_cs];
      }
    }
  }
  // END SOLUTION
}

namespace {

// TODO: pack_panel -- copy one panel into the order the micro-kernel reads it (section 4, "Packing").
//   Input: `valid` lanes (rows of A, or columns of B) of `depth` values each, starting at src;
//   consecutive lanes are lane_stride elements apart and consecutive depth steps depth_stride apart
//   (any strides: a transposed or sliced operand). Output: `depth * width` values, depth-major (all
//   `width` lanes of depth step 0, then of step 1, ...), the lanes from valid to width-1 zero, so that
//   a ragged panel computes zeros in the kernel's extra rows or columns. valid <= width.
//   Example: src = [[1, 2], [3, 4], [5, 6]] (3 x 2, row-major), lanes = its 3 rows (lane_stride 2),
//   depth 2 (depth_stride 1), valid 3, width 4 -> out = [1, 3, 5, 0, 2, 4, 6, 0].
template <typename T>
void pack_panel(const T* src, int64_t lane_stride, int64_t depth_stride, int64_t depth, int64_t valid, int width,
                T* out) {
  // BEGIN SOLUTION name="tinytorch::cpublas::pack_panel" lesson="4. Packing"
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
  // END SOLUTION
}

// TODO: micro_kernel_generic -- the MR x NR tile of C as the product of one packed A panel (kc depth
//   steps of MR values, as pack_panel lays them out) and one packed B panel (kc steps of NR values)
//   (section 5, "The micro-kernel and vectorisation"). The tile starts at c with row stride ldc and is
//   written whole: overwritten when accumulate is false, added to when it is true (the k blocks after
//   the first). Doubles (4 x 8) and int64 (4 x 4) run the same template, so integer products are exact.
//   Speed is part of the job: section 5 explains what keeps the tile in registers and what the given
//   TT_UNROLL (acceleration_kernels.h) and TT_TARGET_CLONES (on the declaration) are for.
//   Example: MR = NR = 1, kc = 2, a_panel = [1, 2], b_panel = [3, 4], c = [10], accumulate -> c = [21].
template <typename T, int MR, int NR>
TT_TARGET_CLONES void micro_kernel_generic(int64_t kc, const T* a_panel, const T* b_panel, T* c, int64_t ldc, bool accumulate) {
  // BEGIN SOLUTION name="tinytorch::cpublas::micro_kernel_generic" lesson="5. The micro-kernel and vectorisation"
  T sums[MR][NR] = {};
  for (int64_t p = 0; p < kc; ++p) {
    const T* a_p = a_panel + p * MR;
    const T* b_p = b_panel + p * NR;
    TT_UNROLL
    for (int i = 0; i < MR; ++i) {
      for (int j = 0; j < NR; ++j) sums[i][j] += a_p[i] * b_p[j];
    }
  }
  for (int i = 0; i < MR; ++i) {
    T* c_i = c + i * ldc;
    for (int j = 0; j < NR; ++j) c_i[j] = accumulate ? c_i[j] + sums[i][j] : sums[i][j];
  }
  // END SOLUTION
}

// ---- Given: the micro-kernel table and the scratch buffers ----

// A micro-kernel with its tile shape, the cache blocking that suits it (KC x NR of B, one panel,
// should sit in L1, MC x KC of A in L2, KC x NC of B in L2/L3: section 3 derives them) and the
// packing routine that fills its panels: your pack_panel for your kernels (the reference library's
// SIMD kernels bring one that transposes 16 x 16 blocks in vector registers).
template <typename T>
struct Kernel {
  const char* name;
  int mr, nr;
  void (*run)(int64_t kc, const T* a_panel, const T* b_panel, T* c, int64_t ldc, bool accumulate);
  int64_t kc, mc, nc;
  void (*pack)(const T* src, int64_t lane_stride, int64_t depth_stride, int64_t depth, int64_t valid, int width,
               T* out);
};

// The largest tile any kernel computes (the ragged-edge buffer's size).
constexpr int kMaxTileRows = 16, kMaxTileCols = 32;

// Your portable kernel: 6 x 16 floats = 96 sums (24 SSE registers' worth; GCC keeps them in
// registers or L1), 4 x 8 doubles, 4 x 4 int64s.
constexpr int kFloatRows = 6, kFloatCols = 16;

const std::vector<Kernel<float>>& float_kernels() {
  static const std::vector<Kernel<float>> kernels = [] {
    std::vector<Kernel<float>> list;
    for (const FloatMicroKernel& extra : gemm_extras().float_kernels) {  // reference library only
      if (extra.mr <= kMaxTileRows && extra.nr <= kMaxTileCols) {
        list.push_back({extra.name, extra.mr, extra.nr, extra.run, extra.kc, extra.mc, extra.nc,
                        extra.pack != nullptr ? extra.pack : pack_panel<float>});
      }
    }
    list.push_back({"generic", kFloatRows, kFloatCols, micro_kernel_generic<float, kFloatRows, kFloatCols>, 256, 120,
                    2048, pack_panel<float>});
    return list;
  }();
  return kernels;
}

std::atomic<int> g_forced_float_kernel{-1};  // index into float_kernels(), -1 = the best one

const Kernel<float>& current_float_kernel() {
  const int forced = g_forced_float_kernel.load(std::memory_order_relaxed);
  return float_kernels()[forced < 0 ? 0 : forced];
}

const Kernel<double>& double_kernel() {
  static const Kernel<double> kernel{"generic", 4, 8, micro_kernel_generic<double, 4, 8>, 256, 96, 1024,
                                     pack_panel<double>};
  return kernel;
}
const Kernel<int64_t>& long_kernel() {
  static const Kernel<int64_t> kernel{"generic", 4, 4, micro_kernel_generic<int64_t, 4, 4>, 256, 96, 1024,
                                      pack_panel<int64_t>};
  return kernel;
}

// Per-thread scratch buffers that grow and are kept (no allocation per call): slot kPackA holds a
// thread's packed A block, kPackB the packed B block. thread_local: each thread packs its own A.
[[maybe_unused]] constexpr int kPackA = 0, kPackB = 1;
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

// TODO: blocked_gemm -- C (m x n, row stride ldc) = A (m x k) B (k x n), overwriting C, by the
//   cache-blocked, packed algorithm of section 3 ("Cache blocking"), for m, n, k > 0 (the caller
//   handled the empty cases). A and B are read through their strides (a_rs, a_cs, b_rs, b_cs).
//   The kernel brings the tile shape (kernel.mr x kernel.nr), the block sizes (kernel.kc, kernel.mc,
//   kernel.nc), its packing routine (kernel.pack: pack_panel's contract) and its micro-kernel
//   (kernel.run: micro_kernel_generic's contract). Packed blocks go in the given per-thread scratch
//   buffers, scratch<T>(kPackB, elements) and scratch<T>(kPackA, elements); a returned pointer stays
//   valid until the same thread asks that slot for more.
//   - Any m, n, k: the blocks and tiles at the edges are partial, and nothing outside C's m x n
//     elements may be written (the kernel always writes a whole mr x nr tile; kMaxTileRows x
//     kMaxTileCols bounds every kernel's tile).
//   - Each block of B is packed once per block, never once per tile (section 4 says why).
//   - Threads (section 6, "Threads"): when m * n * k >= kGemmParallelThreshold, get_num_threads() > 1
//     and !in_parallel_region(), the work is shared between threads with the given parallel_for
//     (tinytorch/parallel.h), every thread getting a share of C's rows; no two threads write the
//     same element of C or of a scratch buffer. The result equals the one-thread result.
template <typename T>
void blocked_gemm(const Kernel<T>& kernel, int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs,
                  const T* b, int64_t b_rs, int64_t b_cs, T* c, int64_t ldc) {
  // BEGIN SOLUTION name="tinytorch::cpublas::blocked_gemm" lesson="3. Cache blocking"
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
          kernel.pack(b_block + panel * nr * b_cs, b_cs, b_rs, kc, std::min<int64_t>(nr, nc - panel * nr), nr,
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
          for (int64_t panel = 0; panel < rows; panel += mr) {
            kernel.pack(a + (ic + panel) * a_rs + pc * a_cs, a_rs, a_cs, kc, std::min<int64_t>(mr, rows - panel),
                        mr, a_packed + panel * kc);
          }
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
              alignas(64) T tile[kMaxTileRows * kMaxTileCols];
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
  // END SOLUTION
}

// ---- Given: the entry points ----

template <typename T>
void zero_rows(int64_t m, int64_t n, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
}

}  // namespace

void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t b_rs,
          int64_t b_cs, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) return zero_rows(m, n, c, ldc);
  const Kernel<float>& kernel = current_float_kernel();
  const bool few_rows = m <= kGemmFewRows;
  if (few_rows || m * n * k <= kSmallGemmMaxMultiplyAdds) {
    // Small products, and products of a few rows, read A and B in place: the instructor's SIMD path
    // (reference library, with a SIMD kernel chosen; it declines layouts and shapes that run faster
    // packed), else your i-k-j loops when B's rows are contiguous, or for a single row whatever B's
    // layout (each element of B is then read once, where packing would read it, write it and run a
    // 6-row tile that is 5/6 padding).
    const auto small = gemm_extras().small_gemm;
    const bool simd = small != nullptr && std::strcmp(kernel.name, "generic") != 0;
    auto unpacked = [&](int64_t first_col, int64_t last_col) {
      const float* b_cols = b + first_col * b_cs;
      float* c_cols = c + first_col;
      if (simd) return small(m, last_col - first_col, k, a, a_rs, a_cs, b_cols, b_rs, b_cs, c_cols, ldc);
      if (b_cs != 1 && m != 1) return false;
      gemm_ikj(m, last_col - first_col, k, a, a_rs, a_cs, b_cols, b_rs, b_cs, c_cols, ldc);
      return true;
    };
    if (few_rows && m * n * k >= kGemmParallelThreshold && get_num_threads() > 1 && !in_parallel_region()) {
      // A wide few-row product (a matrix-vector product): the threads split C's columns.
      std::atomic<bool> declined{false};
      parallel_for(0, n, 64, [&](int64_t first, int64_t last) {
        if (!unpacked(first, last)) declined = true;
      });
      if (!declined) return;
    } else if (unpacked(0, n)) {
      return;
    }
  }
  blocked_gemm(kernel, m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_rs, int64_t a_cs, const double* b,
          int64_t b_rs, int64_t b_cs, double* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) return zero_rows(m, n, c, ldc);
  blocked_gemm(double_kernel(), m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}
void gemm(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_rs, int64_t a_cs, const int64_t* b,
          int64_t b_rs, int64_t b_cs, int64_t* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) return zero_rows(m, n, c, ldc);
  blocked_gemm(long_kernel(), m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
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
  TT_CHECK(false, "gemm kernel '", name, "' is not available in this build; choose one of: ", available);
}

}  // namespace cpublas
}  // namespace tinytorch
