#pragma once
// Module 17's fast kernels (the reference library's; see runtime/fast_kernels.h for how they reach
// the ops). registration.cpp installs them; each has the contract of its FastKernels entry.
#include <array>
#include <tuple>
#include <vector>

#include "09_convolutions/conv2d_kernels.h"
#include "runtime/fast_kernels.h"

namespace tinytorch {
namespace native {

bool binary_fast(const Tensor& x, const Tensor& y, const Tensor& out, detail::FastArithmetic op);
bool binary_in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, detail::FastArithmetic op);
bool compare_fast(const Tensor& x, const Tensor& y, const Tensor& out, detail::FastComparison op);
Tensor sum_fast(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype);

// The blocked GEMM (kernels/gemm.h) behind mm and bmm.
Tensor mm_fast(const Tensor& self, const Tensor& mat2);
Tensor bmm_fast(const Tensor& self, const Tensor& mat2);

// The im2col convolution (kernels/conv2d_im2col.cpp).
Tensor conv2d_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);
std::tuple<Tensor, Tensor, Tensor> conv2d_backward_im2col(const Tensor& grad_output, const Tensor& input,
                                                          const Tensor& weight, const Conv2dParams& params,
                                                          const std::array<bool, 3>& output_mask);

// The int8 GEMM of the quantized Linear (kernels/int8_gemm.cpp).
bool int8_gemm_fast(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc);
// Which int8 kernel int8_gemm_fast runs on this CPU: "avx512_vnni", "avx2" or "generic" (declines).
const char* int8_gemm_kernel();

}  // namespace native
}  // namespace tinytorch
