// Module 14 (Profiling), lesson section "2. Counting FLOPs".
// A multiply-add is 2 FLOPs (one multiply, one add); a bias add is 1 FLOP per output element.
// The given code has checked the sizes (tinytorch/profiling.h says what each argument is).
#include <cstdint>

#include "tinytorch/errors.h"
#include "tinytorch/profiling.h"

namespace tinytorch {
namespace profiling {

// TODO: linear_flops(input_sizes (..., in_features), in_features, out_features, bias) -> the FLOPs
//   of one Linear call y = x W^T + b, counted as section 2 counts them (every leading dimension of
//   the input is a row). The checks above are given.
//   Example: ({32, 128}, 128, 64, bias) -> 32 * 64 * (2 * 128 + 1) = 526'336.
int64_t linear_flops(IntArrayRef input_sizes, int64_t in_features, int64_t out_features, bool bias) {
  TT_CHECK(!input_sizes.empty() && input_sizes.back() == in_features, "linear_flops: the input's last size (",
           input_sizes.empty() ? 0 : input_sizes.back(), ") must be in_features (", in_features, ")");
  TT_CHECK(in_features > 0 && out_features > 0, "linear_flops: in_features and out_features must be positive, got ",
           in_features, " and ", out_features);
  // BEGIN SOLUTION name="tinytorch::profiling::linear_flops" lesson="2. Counting FLOPs"
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < input_sizes.size(); ++d) rows *= input_sizes[d];
  const int64_t per_output = 2 * in_features + (bias ? 1 : 0);
  return rows * out_features * per_output;
  // END SOLUTION
}

// TODO: conv2d_flops(shape) -> the FLOPs of one Conv2d call on shape.input_sizes (N, C, H, W), counted
//   as section 2 counts them, with padding, stride, dilation and groups as module 09's convolution
//   applies them (the output size is module 09's). The checks above are given.
//   Example: Conv2d(3, 16, 3) on (1, 3, 32, 32) -> 16 x 30 x 30 outputs x (2 x 27 + 1) = 792'000.
int64_t conv2d_flops(const Conv2dShape& shape) {
  const auto& in = shape.input_sizes;
  TT_CHECK(in.size() == 4, "conv2d_flops: input_sizes must be (N, C, H, W), got ", in.size(), " sizes");
  TT_CHECK(shape.kernel_size.size() == 2 && shape.stride.size() == 2 && shape.padding.size() == 2 &&
               shape.dilation.size() == 2,
           "conv2d_flops: kernel_size, stride, padding and dilation need two sizes each (height, width)");
  TT_CHECK(shape.groups > 0 && in[1] % shape.groups == 0 && shape.out_channels % shape.groups == 0,
           "conv2d_flops: groups (", shape.groups, ") must divide the input channels (", in[1],
           ") and out_channels (", shape.out_channels, ")");
  // BEGIN SOLUTION name="tinytorch::profiling::conv2d_flops" lesson="2. Counting FLOPs"
  int64_t outputs = in[0] * shape.out_channels;
  for (int d = 0; d < 2; ++d) {
    const int64_t size = in[2 + d] + 2 * shape.padding[d] - shape.dilation[d] * (shape.kernel_size[d] - 1) - 1;
    outputs *= size < 0 ? 0 : size / shape.stride[d] + 1;
  }
  const int64_t taps = in[1] / shape.groups * shape.kernel_size[0] * shape.kernel_size[1];
  return outputs * (2 * taps + (shape.bias ? 1 : 0));
  // END SOLUTION
}

}  // namespace profiling
}  // namespace tinytorch
