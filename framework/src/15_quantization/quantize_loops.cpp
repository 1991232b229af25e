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

// TODO: choose_qparams -- the scale and zero point an observer hands out (lesson section 3).
//   First widen the range to contain 0 (min_neg = min(min_val, 0), max_pos = max(max_val, 0)), so
//   that 0.0 (padding, ReLU's zeros) is exactly representable.
//   Affine:    scale = (max_pos - min_neg) / (quant_max - quant_min), at least kMinScale;
//              zero_point = quant_min - round_half_even(min_neg / scale), clamped into [quant_min, quant_max].
//   Symmetric: m = max(-min_neg, max_pos); scale = m / ((quant_max - quant_min) / 2.0), at least
//              kMinScale; zero_point = 0 for signed codes (quant_min < 0), else (quant_min + quant_max + 1) / 2.
//   Example: [-1, 2] onto int8 [-128, 127] (affine) -> scale 3/255 = 0.011765, zero point -43.
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

// TODO: quantize_per_tensor_loop -- one code per element (section 2).
//   codes[i] = clamp(zero_point + nearbyint(input[i] * inv_scale), quant_min, quant_max), with
//   inv_scale = 1.0f / float(scale) computed once in float as LibTorch does; std::nearbyint rounds
//   half to even (2.5 -> 2, 3.5 -> 4). Clamp in int64_t BEFORE narrowing to the code type: 300 must
//   become 127, not wrap around to 44. TT_DISPATCH_CODE_TYPES gives scalar_t = the code type.
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

// TODO: dequantize_per_tensor_loop -- output[i] = (codes[i] - zero_point) * scale (section 2).
//   Subtract in float (float(code) - zero_point), multiply by the double scale, store as float.
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

// TODO: quantize_per_channel_loop and dequantize_per_channel_loop -- as above, with the scale and
//   zero point of element i's channel (section 4). In a contiguous tensor, element i's index along
//   `axis` is (i / inner) % size(axis), where inner is the product of the sizes after axis.
//   Example: a (3, 4) weight with axis 0 has inner = 4: elements 0-3 are channel 0, 4-7 channel 1.
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

// TODO: int8_gemm_loops -- acc[i][j] = sum over p of a[i][p] * w[j][p] (section 5).
//   Widen each code to int32 before multiplying and accumulate in int32: 255 * 127 = 32,385 already
//   overflows int8 and int16 sums of a few such products; k products stay far inside int32.
//   Both a's rows and w's rows are contiguous along p: walk them together (a dot product per output).
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

// TODO: dequantize_int8_linear_output -- real outputs from the int32 accumulators (section 5).
//   sum_p (a - za)(w - zw) = acc - zw * rowsum(a) - za * rowsum(w) + k * za * zw, all in int64
//   (the terms are int32 sums: their combination may leave int32). Then
//   out[i][j] = a_scale * w_scale[j] * that + bias[j] (bias may be nullptr).
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
