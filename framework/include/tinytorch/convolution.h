#pragma once
// Module 09 (Convolutions): torch::conv2d, as ATen declares it.
//
//   out = torch::conv2d(input, weight, bias, /*stride=*/1, /*padding=*/1);
//   input (N, C, H, W) or unbatched (C, H, W); weight (O, C, kh, kw); bias (O) or none.
//   out (N, O, OH, OW), OH = (H + 2 padding - dilation (kh - 1) - 1) / stride + 1 (OW alike).
//
// stride, padding and dilation take one number (both directions) or two ({height, width}).
// Systems numbers: 2 N O OH OW C kh kw FLOPs forward and twice that backward (one GEMM for the
// weight gradient, one for the input gradient). Module 17's fast path (im2col + GEMM)
// also needs a scratch buffer (the unfolded input, im2col): C kh kw x OH OW elements per image, kh kw
// times the image for stride 1, for as many images at a time as fit in about 256 KiB.
#include <cstdint>
#include <optional>

#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);

// input (N, C, L) or (C, L); weight (O, C / groups, k): the 2-D convolution over a height of 1.
Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = {},
              IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);

// The transposed convolution (the gradient of conv2d with respect to its input, used to upsample):
// input (N, C, H, W), weight (C, O / groups, kh, kw), out (N, O, OH, OW) with
// OH = (H - 1) stride - 2 padding + dilation (kh - 1) + output_padding + 1 (OW alike).
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = {},
                        IntArrayRef stride = 1, IntArrayRef padding = 0, IntArrayRef output_padding = 0,
                        int64_t groups = 1, IntArrayRef dilation = 1);

}  // namespace tinytorch
