#pragma once
// Module 09 (Convolutions): torch::conv2d, as ATen declares it.
//
//   out = torch::conv2d(input, weight, bias, /*stride=*/1, /*padding=*/1);
//   input (N, C, H, W) or unbatched (C, H, W); weight (O, C, kh, kw); bias (O) or none.
//   out (N, O, OH, OW), OH = (H + 2 padding - dilation (kh - 1) - 1) / stride + 1 (OW alike).
//
// stride, padding and dilation take one number (both directions) or two ({height, width}).
// Systems numbers: 2 N O OH OW C kh kw FLOPs forward and twice that backward (one GEMM for the
// weight gradient, one for the input gradient). The fast path's scratch buffer (the unfolded
// input, im2col) holds C kh kw x OH OW elements per image, kh kw times the image for stride 1; it
// unfolds as many images at a time as fit in about 256 KiB (the whole batch for 8x8 digits).
#include <array>
#include <cstdint>
#include <optional>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {

// groups must be 1 for now.
Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);

namespace native {

// Stride, padding and dilation of a 2-D convolution, each {height, width}.
struct Conv2dParams {
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};
};

// The direct definition, seven nested loops: out[n][o][y][x] = bias[o] + sum over c, i, j of
// input[n][c][y stride + i dilation - padding][x stride + j dilation - padding] * weight[o][c][i][j]
// (input positions outside the image count as 0). input (N, C, H, W) and weight contiguous, of one
// floating dtype; bias undefined or (O). The fast path is tested against it.
Tensor conv2d_reference(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);

// The fast path: im2col of a chunk of the batch, one GEMM per chunk (and group), then a reorder into
// (N, O, OH, OW) that also adds the bias. Same contract as conv2d_reference.
Tensor conv2d_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params);

// Gradients of conv2d_im2col for grad_output (N, O, OH, OW): (grad_input, grad_weight, grad_bias),
// each computed only where output_mask says so (undefined otherwise).
std::tuple<Tensor, Tensor, Tensor> conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                   const Tensor& weight, const Conv2dParams& params,
                                                   const std::array<bool, 3>& output_mask);

}  // namespace native
}  // namespace tinytorch
