#pragma once
// Module 09 (Convolutions): pooling, as ATen declares it.
//
//   torch::max_pool2d(x, /*kernel_size=*/2)                 (N, C, H, W) -> (N, C, H / 2, W / 2)
//   torch::avg_pool2d(x, 2);  torch::adaptive_avg_pool2d(x, {1, 1})   (global average pooling)
//   input (N, C, H, W) or unbatched (C, H, W); the 1d versions take (N, C, L) or (C, L).
//
// stride defaults to kernel_size (non-overlapping windows); padding must be at most half the
// kernel. Output size: (H + 2 padding - dilation (kernel - 1) - 1) / stride + 1, rounded up with
// ceil_mode. Systems numbers: no parameters; one pass over the input (kernel_h kernel_w reads per
// output); max pooling keeps its int64 indices (N C OH OW x 8 bytes) for backward.
#include <cstdint>
#include <optional>
#include <tuple>

#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  IntArrayRef dilation = 1, bool ceil_mode = false);
// (output, indices): indices (kLong) is where each maximum was, y W + x within its plane.
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride = {}, IntArrayRef padding = 0,
                                                   IntArrayRef dilation = 1, bool ceil_mode = false);
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
// Window i of n over a length L spans [floor(i L / n), ceil((i + 1) L / n)).
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size);

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  IntArrayRef dilation = 1, bool ceil_mode = false);
Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride = {}, IntArrayRef padding = 0,
                  bool ceil_mode = false, bool count_include_pad = true);
Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size);

}  // namespace tinytorch
