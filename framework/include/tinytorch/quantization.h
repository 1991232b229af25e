#pragma once
// Module 15 (Quantization): quantized tensors in LibTorch's spelling, and calibration.
//
//   auto q = torch::quantize_per_tensor(x, /*scale=*/0.1, /*zero_point=*/0, torch::kQInt8);
//   q.int_repr();    // the int8 codes, a kChar tensor
//   q.dequantize();  // (code - zero_point) * scale, kFloat
//
// Observers (tinytorch::quantization, the shape of torch.ao.quantization's MinMaxObserver and
// PerChannelMinMaxObserver) watch the tensors that flow through a layer during calibration and
// hand out the scale and zero point that cover what they saw.
#include <cstdint>
#include <optional>
#include <tuple>

#include "tinytorch/nn/arg.h"
#include "tinytorch/qscheme.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// Codes = clamp(zero_point + round(x / scale), qmin, qmax) for a kFloat tensor x; dtype is kQInt8,
// kQUInt8 or kQInt32, whose code range [qmin, qmax] the zero point must lie in.
Tensor quantize_per_tensor(const Tensor& self, double scale, int64_t zero_point, ScalarType dtype);
// One scale (scales: 1-D, any floating dtype) and zero point (zero_points: 1-D kLong) per index along axis.
Tensor quantize_per_channel(const Tensor& self, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            ScalarType dtype);
Tensor dequantize(const Tensor& self);

namespace quantization {

// The code range of a quantized dtype, narrowed by one bit with reduce_range (LibTorch's fbgemm
// backend does this for activations: u8 x s8 products summed in pairs then fit int16).
std::tuple<int64_t, int64_t> quant_range(ScalarType dtype, bool reduce_range = false);

struct MinMaxObserverOptions {
  MinMaxObserverOptions() = default;
  TORCH_ARG(ScalarType, dtype) = kQUInt8;
  TORCH_ARG(QScheme, qscheme) = kPerTensorAffine;  // or kPerTensorSymmetric
  TORCH_ARG(bool, reduce_range) = false;
};

// Running minimum and maximum of everything passed to forward(); calculate_qparams() turns them
// into (scale, zero_point) tensors of one element (kDouble, kLong), as torch.ao's observer does.
class MinMaxObserver {
 public:
  explicit MinMaxObserver(MinMaxObserverOptions options = {});
  Tensor forward(const Tensor& x);  // records x's range; returns x unchanged
  std::tuple<Tensor, Tensor> calculate_qparams() const;
  double min_val() const { return min_val_; }
  double max_val() const { return max_val_; }
  bool observed() const { return observed_; }
  const MinMaxObserverOptions& options() const { return options_; }

 private:
  MinMaxObserverOptions options_;
  double min_val_ = 0, max_val_ = 0;
  bool observed_ = false;
};

struct PerChannelMinMaxObserverOptions {
  PerChannelMinMaxObserverOptions() = default;
  TORCH_ARG(int64_t, ch_axis) = 0;
  TORCH_ARG(ScalarType, dtype) = kQInt8;
  TORCH_ARG(QScheme, qscheme) = kPerChannelAffine;  // or kPerChannelSymmetric
  TORCH_ARG(bool, reduce_range) = false;
};

// The same per index along ch_axis (a Linear weight's output channels with ch_axis 0).
class PerChannelMinMaxObserver {
 public:
  explicit PerChannelMinMaxObserver(PerChannelMinMaxObserverOptions options = {});
  Tensor forward(const Tensor& x);
  std::tuple<Tensor, Tensor> calculate_qparams() const;  // (scales kDouble, zero_points kLong)
  const Tensor& min_val() const { return min_val_; }
  const Tensor& max_val() const { return max_val_; }
  const PerChannelMinMaxObserverOptions& options() const { return options_; }

 private:
  PerChannelMinMaxObserverOptions options_;
  Tensor min_val_, max_val_;  // kDouble, one per channel; undefined before the first forward
};

}  // namespace quantization
}  // namespace tinytorch
