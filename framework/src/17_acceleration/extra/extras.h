#pragma once
// The instructor's extra for module 17 (reference library only, withheld from the student release):
// SIMD kernels that extra/registration.cpp installs into the learner-shaped GEMM and the fast-kernel
// table. A learner's build never links any of it.
#include <cstdint>
#include <vector>

#include "tinytorch/acceleration_kernels.h"

namespace tinytorch {
namespace cpublas {

using SmallGemm = bool (*)(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs,
                           const float* b, int64_t b_rs, int64_t b_cs, float* c, int64_t ldc);

// extra/simd_gemm.cpp: the AVX-512 and AVX2 micro-kernels this CPU can run (best first), and the
// unpacked AVX2 small-product path (null without AVX2).
std::vector<FloatMicroKernel> simd_float_micro_kernels();
SmallGemm simd_small_gemm();

}  // namespace cpublas

namespace native {

// extra/int8_gemm.cpp: the int8 GEMM behind nn::QuantizedLinear, same contract as module 15's
// int8_gemm_loops for activation codes within [0, 127]; declines (false) without AVX2.
bool int8_gemm_fast(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc);
// Which int8 kernel int8_gemm_fast runs on this CPU: "avx512_vnni", "avx2" or "generic" (declines).
const char* int8_gemm_kernel();

}  // namespace native
}  // namespace tinytorch
