#pragma once
// The CPU matrix-multiply kernels the reference framework's mm/bmm call (LibTorch's
// at::native::cpublas::gemm plays this role there).
//
//   C (m x n) = A (m x k) * B (k x n)
//
// A and B are read through their element strides (so transposed and other strided views need no
// copy); C is written row-major with row stride ldc, overwriting what was there (k == 0 gives zeros).
//
// gemm is the fast kernel: it copies blocks of A and B into packed panels that fit the caches,
// and a register-blocked micro-kernel (AVX-512 or AVX2+FMA when the CPU has them, chosen at run time;
// portable C++ otherwise) multiplies them. Large products use get_num_threads() threads.
// gemm_reference is the plain triple loop the learner writes in module 01: the correctness tests
// compare every fast path against it, and the benchmark reports its speed for comparison.
#include <cstdint>
#include <string>
#include <vector>

namespace tinytorch {
namespace cpublas {

void gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_row_stride, int64_t a_col_stride,
          const float* b, int64_t b_row_stride, int64_t b_col_stride, float* c, int64_t ldc);
void gemm(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_row_stride, int64_t a_col_stride,
          const double* b, int64_t b_row_stride, int64_t b_col_stride, double* c, int64_t ldc);
void gemm(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_row_stride, int64_t a_col_stride,
          const int64_t* b, int64_t b_row_stride, int64_t b_col_stride, int64_t* c, int64_t ldc);

void gemm_reference(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_row_stride, int64_t a_col_stride,
                    const float* b, int64_t b_row_stride, int64_t b_col_stride, float* c, int64_t ldc);
void gemm_reference(int64_t m, int64_t n, int64_t k, const double* a, int64_t a_row_stride, int64_t a_col_stride,
                    const double* b, int64_t b_row_stride, int64_t b_col_stride, double* c, int64_t ldc);
void gemm_reference(int64_t m, int64_t n, int64_t k, const int64_t* a, int64_t a_row_stride,
                    int64_t a_col_stride, const int64_t* b, int64_t b_row_stride, int64_t b_col_stride, int64_t* c,
                    int64_t ldc);

// The float micro-kernels this CPU can run, best first: a subset of {"avx512", "avx2", "generic"}.
std::vector<std::string> available_float_kernels();
// Which float micro-kernel gemm uses now (the best available unless set_float_kernel chose one).
std::string float_kernel();
// For tests and benchmarks: force one of available_float_kernels() ("" restores the default).
// Throws for a kernel this CPU cannot run.
void set_float_kernel(const std::string& name);

// Float products with at most this many multiply-adds (m * n * k) skip packing and read A and B in
// place (when B's rows or columns are contiguous): the layers of small models, where packing and
// ragged tiles cost more than the arithmetic. Check with `scripts/bench --case matmul_64
// --case mlp_64_32_10` when changing it.
constexpr int64_t kSmallGemmMaxMultiplyAdds = int64_t{1} << 17;

// Products with fewer multiply-adds (m * n * k) than this run on one thread. 2^22 multiply-adds take
// about 25 us on one core at 170 GFLOP/s, several times what waking a sleeping worker costs (5-20 us
// on Linux), so a second thread can only pay off above it. Check with
// `scripts/bench --case matmul_256 --case matmul_64` (1 vs 2 threads) when changing it.
constexpr int64_t kGemmParallelThreshold = int64_t{1} << 22;

}  // namespace cpublas
}  // namespace tinytorch
