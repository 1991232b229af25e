// Module 17's instructor extra (reference library only, withheld from the release): the int8 GEMM
// behind nn::QuantizedLinear.
//   acc (m x n, int32) = a (m x k, uint8 codes in [0, 127]) * w (n x k, int8 codes)^T
// Both operands are read along k (a dot product per output), so a row of a meets a row of w.
// Kernels, chosen once at run time:
//   avx512_vnni  _mm512_dpbusd_epi32: 64 u8 x s8 products summed in fours into 16 int32 lanes, one instruction;
//   avx2         _mm256_maddubs_epi16 (u8 x s8 products summed in pairs into int16, saturating: exact
//                because codes <= 127 keep |pair| <= 127 * 128 * 2 < 32768), then _mm256_madd_epi16
//                with ones to widen the pairs into int32;
//   otherwise the call declines and the learner's int8_gemm_loops runs.
// Register tile: 2 rows of a x 4 rows of w = 8 accumulators; outputs split over threads by w rows.
#include <immintrin.h>

#include <cstdint>

#include "17_acceleration/extra/extras.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace native {
namespace {

constexpr int64_t kRowsA = 2, kRowsW = 4;

// Scalar dot product for the k tail the vector loop leaves.
inline int32_t dot_tail(const uint8_t* a, const int8_t* w, int64_t from, int64_t k) {
  int32_t sum = 0;
  for (int64_t p = from; p < k; ++p) sum += static_cast<int32_t>(a[p]) * static_cast<int32_t>(w[p]);
  return sum;
}

// Through memory: GCC 12's _mm512_reduce_add_epi32 trips -Wmaybe-uninitialized in its own header.
__attribute__((target("avx512f"))) inline int32_t horizontal_sum_avx512(__m512i v) {
  alignas(64) int32_t lanes[16];
  _mm512_store_si512(lanes, v);
  int32_t sum = 0;
  for (int32_t lane : lanes) sum += lane;
  return sum;
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void tile_vnni(int64_t rows_a, int64_t rows_w, int64_t k,
                                                                       const uint8_t* a, const int8_t* w,
                                                                       int64_t n, int32_t* acc) {
  __m512i sums[kRowsA][kRowsW];
  for (int64_t i = 0; i < kRowsA; ++i)
    for (int64_t j = 0; j < kRowsW; ++j) sums[i][j] = _mm512_setzero_si512();
  const int64_t k_vec = k / 64 * 64;
  for (int64_t p = 0; p < k_vec; p += 64) {
    __m512i a_vec[kRowsA];
    for (int64_t i = 0; i < kRowsA; ++i) a_vec[i] = _mm512_loadu_si512(a + (i < rows_a ? i : 0) * k + p);
    for (int64_t j = 0; j < kRowsW; ++j) {
      const __m512i w_vec = _mm512_loadu_si512(w + (j < rows_w ? j : 0) * k + p);
      for (int64_t i = 0; i < kRowsA; ++i) sums[i][j] = _mm512_dpbusd_epi32(sums[i][j], a_vec[i], w_vec);
    }
  }
  for (int64_t i = 0; i < rows_a; ++i)
    for (int64_t j = 0; j < rows_w; ++j)
      acc[i * n + j] = horizontal_sum_avx512(sums[i][j]) + dot_tail(a + i * k, w + j * k, k_vec, k);
}

__attribute__((target("avx2"))) inline int32_t horizontal_sum_avx2(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(s);
}

__attribute__((target("avx2"))) void tile_avx2(int64_t rows_a, int64_t rows_w, int64_t k, const uint8_t* a,
                                               const int8_t* w, int64_t n, int32_t* acc) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i sums[kRowsA][kRowsW];
  for (int64_t i = 0; i < kRowsA; ++i)
    for (int64_t j = 0; j < kRowsW; ++j) sums[i][j] = _mm256_setzero_si256();
  const int64_t k_vec = k / 32 * 32;
  for (int64_t p = 0; p < k_vec; p += 32) {
    __m256i a_vec[kRowsA];
    for (int64_t i = 0; i < kRowsA; ++i)
      a_vec[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + (i < rows_a ? i : 0) * k + p));
    for (int64_t j = 0; j < kRowsW; ++j) {
      const __m256i w_vec = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + (j < rows_w ? j : 0) * k + p));
      for (int64_t i = 0; i < kRowsA; ++i) {
        const __m256i pairs = _mm256_maddubs_epi16(a_vec[i], w_vec);
        sums[i][j] = _mm256_add_epi32(sums[i][j], _mm256_madd_epi16(pairs, ones));
      }
    }
  }
  for (int64_t i = 0; i < rows_a; ++i)
    for (int64_t j = 0; j < rows_w; ++j)
      acc[i * n + j] = horizontal_sum_avx2(sums[i][j]) + dot_tail(a + i * k, w + j * k, k_vec, k);
}

using TileKernel = void (*)(int64_t, int64_t, int64_t, const uint8_t*, const int8_t*, int64_t, int32_t*);

struct Int8Kernel {
  TileKernel tile;
  const char* name;
};

Int8Kernel pick_kernel() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw")) return {tile_vnni, "avx512_vnni"};
  if (__builtin_cpu_supports("avx2")) return {tile_avx2, "avx2"};
  return {nullptr, "generic"};
}

const Int8Kernel& kernel() {
  static const Int8Kernel chosen = pick_kernel();
  return chosen;
}

}  // namespace

const char* int8_gemm_kernel() { return kernel().name; }

bool int8_gemm_fast(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc) {
  const TileKernel tile = kernel().tile;
  if (tile == nullptr) return false;
  const int64_t w_blocks = (n + kRowsW - 1) / kRowsW;
  // A block of w rows costs m * 4 * k multiply-adds; ask for threads only when there is real work.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 21) / std::max<int64_t>(1, m * kRowsW * k));
  parallel_for(0, w_blocks, grain, [&](int64_t first_block, int64_t last_block) {
    for (int64_t block = first_block; block < last_block; ++block) {
      const int64_t j = block * kRowsW;
      const int64_t rows_w = std::min(kRowsW, n - j);
      for (int64_t i = 0; i < m; i += kRowsA) {
        tile(std::min(kRowsA, m - i), rows_w, k, a + i * k, w + j * k, n, acc + i * n + j);
      }
    }
  });
  return true;
}

}  // namespace native
}  // namespace tinytorch
