// Module 15 (Quantization): the loops behind torch::quantize_per_tensor / quantize_per_channel,
// dequantize(), the observers' scale and zero point, and the quantized Linear's int8 GEMM.
// The given code (quantized_tensor.cpp, observers.cpp, quantized_linear.cpp) has checked the
// arguments; the contracts are in tinytorch/quantized_kernels.h.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "tinytorch/kernels.h"
#include "tinytorch/quantized_kernels.h"

namespace tinytorch {
namespace native {

// TODO: choose_qparams -- the scale and zero point an observer hands out for an observed range
//   [min_val, max_val] and the codes [quant_min, quant_max] (lesson section 3, "Choosing scale and
//   zero point"), as LibTorch's MinMaxObserver chooses them, affine or symmetric.
//   - 0.0 is exactly representable (padding and ReLU's zeros), also when the range excludes it.
//   - The scale is never below kMinScale (an all-zero tensor still gets a usable one).
//   - The zero point is a code inside [quant_min, quant_max]; symmetric: 0 for signed codes
//     (quant_min < 0), (quant_min + quant_max + 1) / 2 for unsigned ones (128 for uint8).
//   Examples: [-1, 2] onto int8 [-128, 127], affine -> scale 3/255 = 0.011765, zero point -43;
//   symmetric -> scale 2/127.5, zero point 0.
QParams choose_qparams(double min_val, double max_val, int64_t quant_min, int64_t quant_max, bool symmetric) {
  QParams q;
  // BEGIN SOLUTION name="tinytorch::native::choose_qparams" lesson="3. Choosing scale and zero point"
  const double min_neg = std::min(min_val, 0.0);
  const double max_pos = std::max(max_val, 0.0);
  if (symmetric) {
    const double magnitude = std::max(-min_neg, max_pos);
    q.scale = std::max(magnitude / ((quant_max - quant_min) / 2.0), kMinScale);
    q.zero_point = quant_min < 0 ? 0 : (quant_min + quant_max + 1) / 2;
  } else {
    q.scale = std::max((max_pos - min_neg) / static_cast<double>(quant_max - quant_min), kMinScale);
    const int64_t zero_point = quant_min - static_cast<int64_t>(std::nearbyint(min_neg / q.scale));
    q.zero_point = std::clamp(zero_point, quant_min, quant_max);
  }
  // END SOLUTION
  return q;
}

// TODO: quantize_per_tensor_loop -- codes[i] = the affine code of input[i] (float) for scale and
//   zero_point (section 2, "Affine quantization"), bit for bit as LibTorch computes it: the value
//   times the float reciprocal of scale, ties rounded to even, and values beyond [quant_min,
//   quant_max] stopped at the end codes (never wrapped around by narrowing). codes' element type is
//   int8, uint8 or int32: TT_DISPATCH_CODE_TYPES(codes.scalar_type(), ...) gives scalar_t.
//   Examples (scale 1, zero point 0, int8): 2.5 -> 2, 3.5 -> 4, 300 -> 127.
void quantize_per_tensor_loop(const Tensor& input, const Tensor& codes, double scale, int64_t zero_point,
                              int64_t quant_min, int64_t quant_max) {
  // BEGIN SOLUTION name="tinytorch::native::quantize_per_tensor_loop" lesson="2. Affine quantization"
  const float* x = input.data_ptr<float>();
  const float inv_scale = 1.0f / static_cast<float>(scale);
  TT_DISPATCH_CODE_TYPES(codes.scalar_type(), "quantize_per_tensor", [&] {
    scalar_t* q = codes.data_ptr<scalar_t>();
    for (int64_t i = 0; i < input.numel(); ++i) {
      const int64_t code = zero_point + static_cast<int64_t>(std::nearbyint(x[i] * inv_scale));
      q[i] = static_cast<scalar_t>(std::clamp(code, quant_min, quant_max));
    }
  });
  // END SOLUTION
}

// TODO: dequantize_per_tensor_loop -- output[i] (float) = the real value code i stands for (section
//   2): (code - zero_point) * scale, the subtraction done in float, the product with the double scale.
//   Example: scale 0.5, zero point -3, code 1 -> 2.0.
void dequantize_per_tensor_loop(const Tensor& codes, const Tensor& output, double scale, int64_t zero_point) {
  // BEGIN SOLUTION name="tinytorch::native::dequantize_per_tensor_loop" lesson="2. Affine quantization"
  float* out = output.data_ptr<float>();
  TT_DISPATCH_CODE_TYPES(codes.scalar_type(), "dequantize", [&] {
    const scalar_t* q = codes.data_ptr<scalar_t>();
    for (int64_t i = 0; i < codes.numel(); ++i) {
      out[i] = static_cast<float>((static_cast<float>(q[i]) - zero_point) * scale);
    }
  });
  // END SOLUTION
}

// TODO: quantize_per_channel_loop and dequantize_per_channel_loop -- as the per-tensor loops, each
//   element with the scale and zero point of its channel: its index along `axis` (section 4,
//   "Per-channel quantization"). scales (double) and zero_points (int64) hold one value per channel;
//   the tensors are contiguous, of any rank, and axis is any of their dims.
//   Example: a (3, 4) weight with axis 0: elements 0-3 are channel 0, 4-7 channel 1, 8-11 channel 2;
//   with axis 1, elements 0, 4 and 8 are channel 0.
void quantize_per_channel_loop(const Tensor& input, const Tensor& codes, const Tensor& scales,
                               const Tensor& zero_points, int64_t axis, int64_t quant_min, int64_t quant_max) {
  // BEGIN SOLUTION name="tinytorch::native::quantize_per_channel_loop" lesson="4. Per-channel quantization"
  const float* x = input.data_ptr<float>();
  const double* channel_scales = scales.data_ptr<double>();
  const int64_t* channel_zero_points = zero_points.data_ptr<int64_t>();
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < input.dim(); ++d) inner *= input.size(d);
  const int64_t channels = input.size(axis);
  TT_DISPATCH_CODE_TYPES(codes.scalar_type(), "quantize_per_channel", [&] {
    scalar_t* q = codes.data_ptr<scalar_t>();
    for (int64_t i = 0; i < input.numel(); ++i) {
      const int64_t c = (i / inner) % channels;
      const float inv_scale = 1.0f / static_cast<float>(channel_scales[c]);
      const int64_t code = channel_zero_points[c] + static_cast<int64_t>(std::nearbyint(x[i] * inv_scale));
      q[i] = static_cast<scalar_t>(std::min(std::max(code, quant_min), quant_max));
    }
  });
  // END SOLUTION
}

void dequantize_per_channel_loop(const Tensor& codes, const Tensor& output, const Tensor& scales,
                                 const Tensor& zero_points, int64_t axis) {
  // BEGIN SOLUTION name="tinytorch::native::dequantize_per_channel_loop" lesson="4. Per-channel quantization"
  float* out = output.data_ptr<float>();
  const double* channel_scales = scales.data_ptr<double>();
  const int64_t* channel_zero_points = zero_points.data_ptr<int64_t>();
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < codes.dim(); ++d) inner *= codes.size(d);
  const int64_t channels = codes.size(axis);
  TT_DISPATCH_CODE_TYPES(codes.scalar_type(), "dequantize", [&] {
    const scalar_t* q = codes.data_ptr<scalar_t>();
    for (int64_t i = 0; i < codes.numel(); ++i) {
      const int64_t c = (i / inner) % channels;
      out[i] = static_cast<float>((static_cast<float>(q[i]) - channel_zero_points[c]) * channel_scales[c]);
    }
  });
  // END SOLUTION
}

// TODO: int8_gemm_loops -- acc (m x n, int32) = the exact integer products a (m x k, uint8 codes)
//   times w (n x k, int8 codes) transposed: acc[i][j] = sum over p of a[i][p] * w[j][p] (section 5,
//   "The integer GEMM"). All contiguous, row-major. Exact: one product already reaches 255 * -128 =
//   -32,640, beyond int8, and a sum of two such products overflows int16; k products fit in int32.
void int8_gemm_loops(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc) {
  // BEGIN SOLUTION name="tinytorch::native::int8_gemm_loops" lesson="5. The integer GEMM"
  for (int64_t i = 0; i < m; ++i) {
    const uint8_t* a_row = a + i * k;
    for (int64_t j = 0; j < n; ++j) {
      const int8_t* w_row = w + j * k;
      int32_t sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += static_cast<int32_t>(a_row[p]) * static_cast<int32_t>(w_row[p]);
      acc[i * n + j] = sum;
    }
  }
  // END SOLUTION
}

// TODO: dequantize_int8_linear_output -- the real outputs of the quantized Linear from the int32
//   accumulators of the raw codes (section 5): out[i][j] = a_scale * w_scale[j] * (sum over p of
//   (a[i][p] - za) (w[j][p] - zw[j])) + bias[j], with bias possibly nullptr. The struct (see
//   tinytorch/quantized_kernels.h) brings acc, both row sums, both zero points and scales, and k; the
//   centred sum is exact, and its terms may leave the int32 range.
void dequantize_int8_linear_output(const Int8LinearOutput& o) {
  // BEGIN SOLUTION name="tinytorch::native::dequantize_int8_linear_output" lesson="5. The integer GEMM"
  for (int64_t i = 0; i < o.m; ++i) {
    for (int64_t j = 0; j < o.n; ++j) {
      const int64_t za = o.activation_zero_point, zw = o.weight_zero_points[j];
      const int64_t centred = static_cast<int64_t>(o.acc[i * o.n + j]) - zw * o.activation_row_sums[i] -
                              za * o.weight_row_sums[j] + o.k * za * zw;
      const double value = o.activation_scale * o.weight_scales[j] * static_cast<double>(centred);
      o.out[i * o.n + j] = static_cast<float>(value + (o.bias != nullptr ? o.bias[j] : 0.0f));
    }
  }
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
