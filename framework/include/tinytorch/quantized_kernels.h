#pragma once
// The loops of module 15 (Quantization) that the learner writes (src/15_quantization/quantize_loops.cpp)
// and the given code calls (quantized_tensor.cpp, observers.cpp, quantized_linear.cpp). The given
// code has checked every argument, so a loop may trust them: tensors are contiguous, codes tensors
// have the plain dtype of their quantized type (kChar for kQInt8, kByte for kQUInt8, kInt for kQInt32).
#include <cstdint>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace native {

// A scale and a zero point: real = (code - zero_point) * scale.
struct QParams {
  double scale = 1.0;
  int64_t zero_point = 0;
};

// float32's machine epsilon: the smallest scale an observer hands out (torch.ao's observers clamp to it).
constexpr double kMinScale = 1.1920928955078125e-07;

// Scale and zero point that map [min_val, max_val] (widened to contain 0) onto codes
// [quant_min, quant_max]. Affine: the whole range; symmetric: [-m, m] with m = max(|min|, |max|)
// and the zero point in the middle of the codes (0 for signed codes).
QParams choose_qparams(double min_val, double max_val, int64_t quant_min, int64_t quant_max, bool symmetric);

// codes[i] = clamp(zero_point + round_half_even(input[i] / scale), quant_min, quant_max).
// input: contiguous kFloat; codes: contiguous kChar, kByte or kInt of the same numel.
void quantize_per_tensor_loop(const Tensor& input, const Tensor& codes, double scale, int64_t zero_point,
                              int64_t quant_min, int64_t quant_max);
// output[i] = (codes[i] - zero_point) * scale; output: contiguous kFloat.
void dequantize_per_tensor_loop(const Tensor& codes, const Tensor& output, double scale, int64_t zero_point);

// The same with one (scale, zero point) per index along `axis`: scales is contiguous kDouble and
// zero_points contiguous kLong, both of length input.size(axis).
void quantize_per_channel_loop(const Tensor& input, const Tensor& codes, const Tensor& scales,
                               const Tensor& zero_points, int64_t axis, int64_t quant_min, int64_t quant_max);
void dequantize_per_channel_loop(const Tensor& codes, const Tensor& output, const Tensor& scales,
                                 const Tensor& zero_points, int64_t axis);

// The integer GEMM of a quantized Linear: acc[i][j] = sum over p of a[i][p] * w[j][p], every product
// and sum in int32. a: m x k activation codes (uint8, row-major), w: n x k weight codes (int8,
// row-major, as Linear's weight), acc: m x n (row-major). No zero point is subtracted here.
void int8_gemm_loops(int64_t m, int64_t n, int64_t k, const uint8_t* a, const int8_t* w, int32_t* acc);

// What turns the int32 accumulators of one Linear back into real outputs.
struct Int8LinearOutput {
  int64_t m = 0, n = 0, k = 0;
  const int32_t* acc = nullptr;             // m x n raw sums from the GEMM
  const int32_t* activation_row_sums = nullptr;  // m: sum over p of a[i][p]
  const int32_t* weight_row_sums = nullptr;      // n: sum over p of w[j][p]
  double activation_scale = 1.0;
  int64_t activation_zero_point = 0;
  const double* weight_scales = nullptr;     // n (per channel) or 1 value repeated n times
  const int64_t* weight_zero_points = nullptr;  // n
  const float* bias = nullptr;              // n, or nullptr
  float* out = nullptr;                     // m x n
};
// out[i][j] = a_scale * w_scale[j] * sum_p (a[i][p] - a_zp)(w[j][p] - w_zp[j]) + bias[j], with the
// sum recovered from acc, the row sums and k (expand the product: four terms).
void dequantize_int8_linear_output(const Int8LinearOutput& o);

}  // namespace native
}  // namespace tinytorch
