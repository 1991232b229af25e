#pragma once
// Module 09's convolution kernels, internal to the framework (no public header offers them: they are
// what the lessons ask learners to write). The definition's loops live in conv2d.cpp; module 17's fast
// im2col path (framework/src/kernels/conv2d_im2col.cpp) replaces them through runtime/fast_kernels.h.
#include <array>
#include <cstdint>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace native {

// Stride, padding and dilation of a 2-D convolution, each {height, width}.
struct Conv2dParams {
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};
};

// The shape of one 2-D convolution, every size already expanded to {height, width}.
struct Conv2dGeometry {
  int64_t channels, height, width;          // of the input image
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t out_h, out_w;                     // of the output
};

// The geometry of a convolution of input (N, C, H, W) with weight (O, C / groups, kh, kw).
Conv2dGeometry geometry_of(const Tensor& input, const Tensor& weight, const Conv2dParams& params);

// The direct definition, seven nested loops: out[n][o][y][x] = bias[o] + sum over c, i, j of
// input[n][c][y stride + i dilation - padding][x stride + j dilation - padding] * weight[o][c][i][j]
// (input positions outside the image count as 0). input (N, C, H, W) and weight contiguous, of one
// floating dtype; bias undefined or (O). The fast path is tested against it.
Tensor conv2d_reference(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);

// Its gradients for grad_output (N, O, OH, OW), read through its strides: (grad_input, grad_weight,
// grad_bias), each computed only where output_mask says so (undefined otherwise), by the same loops.
std::tuple<Tensor, Tensor, Tensor> conv2d_backward_reference(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Conv2dParams& params,
                                                             const std::array<bool, 3>& output_mask);

// The kernel a build runs: module 17's fast path when the build has it, else the loops above.
Tensor conv2d_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);
std::tuple<Tensor, Tensor, Tensor> conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                   const Tensor& weight, const Conv2dParams& params,
                                                   const std::array<bool, 3>& output_mask);

}  // namespace native
}  // namespace tinytorch
