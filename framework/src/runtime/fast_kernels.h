#pragma once
// The hook through which module 17's fast kernels (framework/src/17_acceleration/, the learner's:
// vectorised element-wise and reduction loops, the blocked GEMM, the im2col convolution, and through
// the GEMM the thread pool) reach the given code. Every entry is null unless the program links the
// registration (17_acceleration/registration.cpp): every link of the reference library does
// (framework/CMakeLists.txt keeps the symbol tinytorch_fast_kernels_registration), tito's learner
// builds only once module 17 is in the build. Without them each op runs the learner's own loops at
// every size, as the lessons promise. The int8 GEMM entry is the instructor's extra
// (17_acceleration/extra/), which only the reference library links.
// Internal: no public header includes this, and learner files never see it.
#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "09_convolutions/conv2d_kernels.h"
#include "tinytorch/acceleration_kernels.h"  // FastArithmetic, FastComparison
#include "tinytorch/scalar.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace detail {

// Each kernel either computes the whole result (true, or a defined tensor) or declines (false, or
// an undefined tensor) and leaves the case to the general code; none records anything.
struct FastKernels {
  // out = x (op) y for x, y of out's dtype, broadcastable to out (allocated).
  bool (*binary)(const Tensor& x, const Tensor& y, const Tensor& out, FastArithmetic op) = nullptr;
  // self = self (op) alpha * other in place, with self's dtype unchanged.
  bool (*binary_in_place)(Tensor& self, const Tensor& other, const Scalar& alpha, FastArithmetic op) = nullptr;
  // out (kBool) = x (op) y for x, y of one dtype.
  bool (*compare)(const Tensor& x, const Tensor& y, const Tensor& out, FastComparison op) = nullptr;
  // self summed over `dims` (wrapped, sorted, unique) in `dtype`.
  Tensor (*sum)(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype) = nullptr;
  // Matrix products of operands with one dtype; they decline shapes they cannot multiply, so that
  // the learner's code reports the error.
  Tensor (*mm)(const Tensor& self, const Tensor& mat2) = nullptr;
  Tensor (*bmm)(const Tensor& self, const Tensor& mat2) = nullptr;
  // Same contracts as native::conv2d_reference and native::conv2d_backward_reference.
  Tensor (*conv2d)(const Tensor& input, const Tensor& weight, const Tensor& bias,
                   const native::Conv2dParams& params) = nullptr;
  std::tuple<Tensor, Tensor, Tensor> (*conv2d_backward)(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, const native::Conv2dParams& params,
                                                        const std::array<bool, 3>& output_mask) = nullptr;
  // Same contracts as native::max_pool2d_loops and native::max_pool2d_backward_loops.
  std::tuple<Tensor, Tensor> (*max_pool2d)(const Tensor& input, const native::Pool2dGeometry& g) = nullptr;
  Tensor (*max_pool2d_backward)(const Tensor& grad_output, const Tensor& indices,
                                const native::Pool2dGeometry& g) = nullptr;
  // torch::im2col / col2im on a contiguous floating batch: columns (N, C kh kw, OH OW) from images
  // (N, C, H, W), and back (col2im adds overlapping taps). Only g's image, kernel, stride, padding,
  // dilation and output sizes are read (g.batch = N).
  Tensor (*im2col)(const Tensor& images, const native::Conv2dGeometry& g) = nullptr;
  Tensor (*col2im)(const Tensor& columns, const native::Conv2dGeometry& g) = nullptr;
  // Same contract as native::int8_gemm_loops (acc = a w^T in int32), for activation codes a within
  // [0, 127] (QuantizedLinear's reduce_range): AVX-512 VNNI or AVX2 where the CPU has them.
  bool (*int8_gemm)(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc) = nullptr;
};

const FastKernels& fast_kernels();
// Called once, before main(), by module 17's registration (17_acceleration/registration.cpp) and the
// instructor's extra (17_acceleration/extra/registration.cpp): each sets the entries it has (non-null)
// and leaves the others as they are.
void install_fast_kernels(const FastKernels& kernels);

// While one lives, the table is empty: every op runs the loops of modules 01 and 09, as a learner's
// build before module 17 does (scripts/lesson-figures times those builds with the reference library).
// Not thread-safe: make one only while no other thread runs ops.
class WithoutFastKernels {
 public:
  WithoutFastKernels();
  ~WithoutFastKernels();
  WithoutFastKernels(const WithoutFastKernels&) = delete;
  WithoutFastKernels& operator=(const WithoutFastKernels&) = delete;

 private:
  FastKernels saved_;
};

}  // namespace detail
}  // namespace tinytorch
