#pragma once
// The declarations of the functions a learner writes in module 09 (Convolutions), with the plain
// structs the given code hands them: the seven-loop convolution and its backward
// (conv2d_loops.cpp), the pooling loops (pooling_loops.cpp) and the batch-normalisation loops
// (batch_norm_loops.cpp). Learner files include this header; public users include tinytorch/torch.h
// and call torch::conv2d, torch::max_pool2d, torch::batch_norm, ... instead. Module 17's im2col
// path, which the learner writes there, replaces the convolution loops in builds that link it.
#include <array>
#include <cstdint>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace native {

// ---- Convolution (conv2d_loops.cpp) ----

// Stride, padding and dilation of a 2-D convolution, each {height, width}.
struct Conv2dParams {
  int64_t stride[2] = {1, 1};
  int64_t padding[2] = {0, 0};
  int64_t dilation[2] = {1, 1};
};

// The shape of one 2-D convolution, every size already expanded to {height, width}: what both the
// seven loops (module 09) and the im2col path (module 17) start from.
struct Conv2dGeometry {
  int64_t batch;                            // N
  int64_t channels, height, width;          // of the input image
  int64_t out_channels;                     // O
  int64_t groups;                           // channels and out_channels split into this many groups
  int64_t group_in, group_out;              // channels / groups (what one output channel sees), O / groups
  int64_t kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t out_h, out_w;                     // of the output
};

// Output size along one dimension: how many placements of a kernel of `kernel` taps, `dilation`
// apart, fit in the input padded by `padding` on both sides, moving by `stride`.
// Example: 28 pixels, kernel 5, stride 1, padding 0, dilation 1 -> 24.   [module 09: yours]
int64_t conv_output_size(int64_t input, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation);

// The geometry of a convolution of input (N, C, H, W) with weight (O, C / groups, kh, kw).
Conv2dGeometry geometry_of(const Tensor& input, const Tensor& weight, const Conv2dParams& params);

// The direct definition, seven nested loops [module 09: yours]: out[n][o][y][x] = bias[o] + sum over c, i, j of
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

// ---- Pooling (pooling_loops.cpp) ----

// One 2-D pooling, every size expanded to {height, width} and checked by the given code.
struct Pool2dGeometry {
  int64_t batch, channels, height, width;  // of the input (N, C, H, W)
  int64_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int64_t out_h, out_w;                    // of the output (N, C, OH, OW)
  bool count_include_pad = true;           // average pooling: divide by the padded window's size
  int64_t divisor_override = 0;            // average pooling: divide by this instead (0: none)
};

// Max pooling of a contiguous (N, C, H, W) input: (output, indices), both (N, C, OH, OW); indices
// (kLong) holds where each maximum came from, as y W + x within its (H, W) plane (LibTorch's).
std::tuple<Tensor, Tensor> max_pool2d_loops(const Tensor& input, const Pool2dGeometry& g);
// grad_input (N, C, H, W): each output's gradient goes to the input its maximum came from.
Tensor max_pool2d_backward_loops(const Tensor& grad_output, const Tensor& indices, const Pool2dGeometry& g);

// Average pooling of a contiguous (N, C, H, W) input: (N, C, OH, OW).
Tensor avg_pool2d_loops(const Tensor& input, const Pool2dGeometry& g);
// grad_input (N, C, H, W): each output's gradient shared out over the window it averaged.
Tensor avg_pool2d_backward_loops(const Tensor& grad_output, const Pool2dGeometry& g);

// ---- Batch normalisation (batch_norm_loops.cpp) ----

// input: contiguous (N, C, S...) of a floating dtype; channel c's values are input[n][c][s] for every
// n and every position s (S = the product of the sizes after C, 1 for a 2-D input). weight and bias
// (C) or undefined (affine(false): scale 1, shift 0); running_mean and running_var (C) or undefined
// (track_running_stats(false)), of input's dtype. Returns (output, mean, invstd), the statistics the
// output was normalised with: in training the batch's, mean and 1 / sqrt(biased variance + eps);
// in evaluation the running ones, running_mean and 1 / sqrt(running_var + eps).
std::tuple<Tensor, Tensor, Tensor> batch_norm_loops(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                                    const Tensor& running_mean, const Tensor& running_var,
                                                    bool training, double momentum, double eps);

// (grad_input, grad_weight, grad_bias) for the forward above, given the mean and invstd it returned;
// grad_output contiguous like input. Each is computed only where output_mask says so.
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_loops(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Tensor& mean,
                                                             const Tensor& invstd, bool training,
                                                             const std::array<bool, 3>& output_mask);

}  // namespace native
}  // namespace tinytorch
