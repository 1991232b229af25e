#pragma once
// Module 17 (Acceleration): im2col / col2im as ATen spells them, and helpers to measure module 17's
// kernels against the loops they replace.
//
//   torch::Tensor cols = torch::im2col(x, /*kernel_size=*/{3, 3}, /*dilation=*/1, /*padding=*/1, /*stride=*/1);
//   // x (N, C, H, W) -> cols (N, C kh kw, OH OW); torch::col2im adds them back onto an (H, W) image.
//
//   torch::acceleration::textbook_mm(a, b); // the i-j-k loop of lesson 17, section 2: the yardstick
//   torch::acceleration::naive_mm(a, b);   // module 01's loops, in every build
//   torch::acceleration::fast_mm(a, b);    // module 17's GEMM, in builds that have module 17
//
// Systems numbers: im2col's output holds kh kw times the image's elements for stride 1 (padding
// "same"): 9x for a 3 x 3 kernel, 25x for 5 x 5; col2im reads that many and writes one image.
#include <cstdint>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// input (N, C, H, W) or unbatched (C, H, W), floating -> (N, C kh kw, L) or (C kh kw, L), L = OH OW:
// column l = (y, x) holds every pixel the kernel sees at output position (y, x) (0 in the padding),
// rows ordered (c, i, j). kernel_size, dilation, padding and stride take 2 values ({h, w}).
// Differentiable (its gradient is col2im). Needs module 17 in the build (it runs its im2col).
Tensor im2col(const Tensor& input, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
              IntArrayRef stride);
// The adjoint: input (N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W) with
// {H, W} = output_size; each column entry is added onto the pixel it came from. Differentiable (its
// gradient is im2col).
Tensor col2im(const Tensor& input, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride);

namespace acceleration {

// True when this program runs module 17's kernels (the reference library, or a learner's build with
// module 17 in it); false in a learner's build before module 17, where every op runs the learner's
// loops.
bool fast_kernels_available();

// The matrix product of module 01's loops (native::mm), in every build: self (n x m), mat2 (m x p).
Tensor naive_mm(const Tensor& self, const Tensor& mat2);

// The textbook matrix product, C[i][j] = sum over k of A[i][k] B[k][j] in i-j-k order, for float
// matrices (made contiguous first): B is walked down a column (a stride of p floats) and each sum is one
// float chain the compiler may not reorder, so it neither vectorises nor reuses the cache. The yardstick
// that milestone 06 and scripts/lesson-figures measure module 17's GEMM against (lesson 17, section 2).
Tensor textbook_mm(const Tensor& self, const Tensor& mat2);

// The matrix product of module 17's GEMM (mm on the packed, blocked GEMM) on the same input.
// Throws, naming module 17, in a build without it (fast_kernels_available() is false).
Tensor fast_mm(const Tensor& self, const Tensor& mat2);

}  // namespace acceleration
}  // namespace tinytorch
