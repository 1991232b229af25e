#pragma once
// Module 17 (Acceleration): the functions a learner writes (framework/src/17_acceleration/) and the
// plain types the given code hands them. Learner files include this header; programs include
// tinytorch/torch.h and call torch::mm, torch::conv2d, torch::im2col, ... (or the measuring helpers in
// tinytorch/acceleration.h) instead.
//
// These kernels reach the ops only in builds that have module 17 (the reference library, and a
// learner's build once module 17 is in it): given code installs them before main() and the ops ask
// them first. Without module 17 every op runs the learner's own loops from modules 01 and 09.
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "tinytorch/scalar.h"
#include "tinytorch/spatial_kernels.h"
#include "tinytorch/tensor.h"

// Put before a loop with a small compile-time trip count (a micro-kernel's MR rows): GCC then unrolls
// it completely and keeps the tile of sums in registers; without it GCC -O3 keeps the tile in memory
// and the kernel runs several times slower (lesson section 5). Clang unrolls such loops on its own.
#if defined(__GNUC__) && !defined(__clang__)
#define TT_UNROLL _Pragma("GCC unroll 16")
#else
#define TT_UNROLL
#endif

// Put before a function (a micro-kernel) to have GCC compile it three times, for x86-64-v4 (AVX-512),
// x86-64-v3 (AVX2 and fused multiply-add: 8 floats, a product and a sum per instruction) and the
// x86-64 baseline (SSE2: 4 floats, no FMA), and call the best this CPU runs, chosen once at load time
// (function multi-versioning, an ifunc). The loops are the same C++; only the instructions change
// (lesson section 5), and with FMA the last bit of a sum can differ from one CPU to another. Other
// compilers and CPUs get the baseline build.
// Not under ThreadSanitizer: GCC instruments the ifunc resolver, which the dynamic loader runs before
// the sanitizer's runtime is relocated, and the program crashes at load (tito's race check builds so).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(__SANITIZE_THREAD__)
#define TT_TARGET_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TT_TARGET_CLONES
#endif

namespace tinytorch {
namespace cpublas {

// C (m x n) = A (m x k) * B (k x n). A and B are read through their element strides (row stride,
// column stride), so transposed and other strided views need no copy; C is written row-major with
// row stride ldc >= n, overwriting what was there (k == 0 gives zeros); C's columns n..ldc-1 are
// never touched. Small products and products of a few rows run gemm_ikj (when B's rows are
// contiguous, or A is one row); the rest run the packed, cache-blocked GEMM on the micro-kernel
// (gemm.cpp). Large products use get_num_threads() threads.
void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_row_stride, int64_t a_col_stride,
          const float* b, int64_t b_row_stride, int64_t b_col_stride, float* c, int64_t ldc);
void gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_row_stride, int64_t a_col_stride,
          const double* b, int64_t b_row_stride, int64_t b_col_stride, double* c, int64_t ldc);
void gemm(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_row_stride, int64_t a_col_stride,
          const int64_t* b, int64_t b_row_stride, int64_t b_col_stride, int64_t* c, int64_t ldc);

// The same product by three plain loops in i, k, j order (lesson section 2), with no blocking: the
// innermost loop walks a row of B and a row of C. Same contract as gemm.
void gemm_ikj(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_row_stride, int64_t a_col_stride,
              const float* b, int64_t b_row_stride, int64_t b_col_stride, float* c, int64_t ldc);

// The float micro-kernels this build can run, best first: "generic" (the learner's portable one)
// and, in the reference library only, the instructor's SIMD extras ("avx512", "avx2").
std::vector<std::string> available_float_kernels();
// Which float micro-kernel gemm uses now (the best available unless set_float_kernel chose one).
std::string float_kernel();
// For tests and benchmarks: force one of available_float_kernels() ("" restores the default).
// Throws for a kernel this build cannot run.
void set_float_kernel(const std::string& name);

// Float products with at most this many multiply-adds (m * n * k) skip packing and read A and B in
// place (gemm_ikj when B's rows are contiguous): the layers of small models, where packing and ragged
// tiles cost more than the arithmetic.
constexpr int64_t kSmallGemmMaxMultiplyAdds = int64_t{1} << 17;

// Products of at most this many rows (m: a single sample through a Linear, a matrix-vector product)
// skip packing too, whatever their size (gemm_ikj when B's rows are contiguous or m is 1): packing B
// reads and writes all of B, as much memory traffic as multiplying it by so few rows, and a
// micro-kernel tile of MR rows would be mostly padding.
constexpr int64_t kGemmFewRows = 4;

// Products with fewer multiply-adds (m * n * k) than this run on one thread. 2^22 multiply-adds are
// 8.4 MFLOP: about 50 us on one core at 170 GFLOP/s, 170 us at 50, several times what waking a sleeping
// worker costs (5-20 us on Linux), so a second thread can only pay off above it.
constexpr int64_t kGemmParallelThreshold = int64_t{1} << 22;

// ---- The instructor's extra (reference library only; empty in every learner build) ----
// Hand-written SIMD micro-kernels (AVX2, AVX-512) and an unpacked AVX2 small-product path that the
// reference library adds to the learner-shaped GEMM above. A learner's build never links them: what
// a learner's build runs is the learner's portable micro-kernel.
struct FloatMicroKernel {
  const char* name;
  int mr, nr;  // the tile of C it computes: mr rows x nr columns (nr <= 32, mr <= 16)
  // c[i * ldc + j] (=, or += when accumulate) sum over p < kc of a_panel[p * mr + i] * b_panel[p * nr + j]
  void (*run)(int64_t kc, const float* a_panel, const float* b_panel, float* c, int64_t ldc, bool accumulate);
  int64_t kc, mc, nc;  // cache blocking that suits it
  // Packs one panel for it (pack_panel's contract, gemm.cpp); null: the portable pack_panel.
  void (*pack)(const float* src, int64_t lane_stride, int64_t depth_stride, int64_t depth, int64_t valid, int width,
               float* out) = nullptr;
};
struct GemmExtras {
  std::vector<FloatMicroKernel> float_kernels;  // best first
  // Declines (false) layouts it cannot read in place.
  bool (*small_gemm)(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs, const float* b,
                     int64_t b_rs, int64_t b_cs, float* c, int64_t ldc) = nullptr;
};
const GemmExtras& gemm_extras();
void install_gemm_extras(const GemmExtras& extras);

}  // namespace cpublas

namespace detail {
// The element-wise operations module 17's fast loops cover.
enum class FastArithmetic { Add, Sub, Mul, Div };
enum class FastComparison { Eq, Ne, Gt, Lt, Ge, Le };
}  // namespace detail

namespace native {

// ---- im2col / col2im (im2col.cpp): the data movement that turns a convolution into one GEMM ----
// im2col unfolds one image (C, H, W), contiguous, into a matrix with C kh kw rows and OH OW columns:
// row (c, i, j) holds, for every output position (y, x), the input pixel that kernel tap (i, j) of
// channel c sees there, image[c][y sh + i dh - ph][x sw + j dw - pw], or 0 in the padding.
// `columns` has row stride `column_row_stride` (>= OH OW), so the columns of several images can sit
// side by side in one matrix. Only g.channels, height, width, kernel, stride, padding, dilation and
// out_h/out_w are read.
void im2col(const float* image, const Conv2dGeometry& g, float* columns, int64_t column_row_stride);
void im2col(const double* image, const Conv2dGeometry& g, double* columns, int64_t column_row_stride);
// col2im is its adjoint: every column entry is ADDED onto the pixel it was copied from (`image` is
// not cleared first); entries that came from the padding go nowhere.
void col2im(const float* columns, int64_t column_row_stride, const Conv2dGeometry& g, float* image);
void col2im(const double* columns, int64_t column_row_stride, const Conv2dGeometry& g, double* image);

// ---- The im2col convolution (conv2d_im2col.cpp): contracts of conv2d_reference and
// conv2d_backward_reference (tinytorch/spatial_kernels.h), computed with im2col, gemm and col2im ----
Tensor conv2d_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);
std::tuple<Tensor, Tensor, Tensor> conv2d_backward_im2col(const Tensor& grad_output, const Tensor& input,
                                                          const Tensor& weight, const Conv2dParams& params,
                                                          const std::array<bool, 3>& output_mask);

// ---- Matrix products on the GEMM (matmul_fast.cpp) ----
// mm / bmm of operands of one numeric dtype; an undefined tensor for shapes they cannot multiply (so
// that module 01's mm reports the error). bmm runs its batches on threads.
Tensor mm_fast(const Tensor& self, const Tensor& mat2);
Tensor bmm_fast(const Tensor& self, const Tensor& mat2);

// ---- Element-wise and reduction loops (elementwise_fast.cpp) ----
// Each computes the whole result (true, or a defined tensor) or declines (false, or undefined) and
// leaves the case to the general loops of module 01.
// out = x (op) y for x, y of out's dtype, broadcastable to out (allocated).
bool binary_fast(const Tensor& x, const Tensor& y, const Tensor& out, detail::FastArithmetic op);
// self = self (op) alpha * other in place (one pass, no temporary: the fused update of an optimizer).
bool binary_in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, detail::FastArithmetic op);
// out (kBool) = x (op) y for x, y of one dtype.
bool compare_fast(const Tensor& x, const Tensor& y, const Tensor& out, detail::FastComparison op);
// self summed over `dims` (wrapped, sorted, unique) in `dtype`.
Tensor sum_fast(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype);

}  // namespace native
}  // namespace tinytorch
