#pragma once
// nn::QuantizedLinear (module 15): a Linear whose weight is stored as int8 codes and whose product
// runs in integers: y = dequantize(int8 GEMM(quantize(x), W_q)) + b. LibTorch's C++ frontend has no
// quantized modules; this follows torch.ao.nn.quantized.Linear with fbgemm's conventions: weights
// qint8 (per channel symmetric by default), activations quint8 over [0, 127] (reduce_range, so
// that every x86 int8 kernel computes the very same integers), int32 accumulation, float output.
//
//   nn::Linear fc(1024, 1024);
//   auto qfc = nn::QuantizedLinear::from_float(*fc, {calibration_batch});   // observes the inputs
//   Tensor y = qfc(x);                                                       // float in, float out
//   qfc->weight();                                                           // the kQInt8 weight
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/qscheme.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct QuantizedLinearOptions {
  QuantizedLinearOptions() = default;
  // kPerChannelSymmetric (default), kPerChannelAffine, kPerTensorSymmetric or kPerTensorAffine.
  TORCH_ARG(QScheme, weight_qscheme) = kPerChannelSymmetric;
};

class QuantizedLinear;

class QuantizedLinearImpl : public Cloneable<QuantizedLinearImpl> {
 public:
  // Quantizes linear's weight now; the input's scale and zero point come from the observed range of
  // calibration_inputs (each (*, in_features)). With no calibration inputs, each forward chooses
  // them from its own input's range ("dynamic" quantization).
  static QuantizedLinear from_float(const LinearImpl& linear, const std::vector<Tensor>& calibration_inputs = {},
                                    QuantizedLinearOptions options = {});

  QuantizedLinearImpl() = default;
  void reset() override {}
  // "torch::nn::QuantizedLinear(in_features=4, out_features=3, qscheme=per_channel_symmetric)"
  void pretty_print(std::ostream& stream) const override;
  // input (*, in_features), floating -> (*, out_features), kFloat.
  Tensor forward(const Tensor& input);

  Tensor weight() const;  // the quantized weight (kQInt8), as torch.ao's Linear.weight()
  const Tensor& bias() const { return bias_; }
  bool calibrated() const { return calibrated_; }
  double input_scale() const { return input_scale_; }
  int64_t input_zero_point() const { return input_zero_point_; }
  int64_t in_features() const { return in_features_; }
  int64_t out_features() const { return out_features_; }
  // Bytes the layer keeps: int8 weight codes, fp32 bias, and per channel a scale and a zero point
  // (8 + 8 bytes, kDouble and kLong as LibTorch stores them) plus an int32 weight row sum.
  int64_t memory_bytes() const;

 private:
  int64_t in_features_ = 0, out_features_ = 0;
  QScheme weight_qscheme_ = kPerChannelSymmetric;
  Tensor weight_codes_;        // (out, in) kChar
  Tensor weight_scales_;       // (out) kDouble: one per output row even for per-tensor schemes
  Tensor weight_zero_points_;  // (out) kLong
  Tensor weight_row_sums_;     // (out) kInt: sum of each row's codes, for the zero-point correction
  Tensor bias_;                // (out) kFloat, or undefined
  bool calibrated_ = false;
  double input_scale_ = 1.0;
  int64_t input_zero_point_ = 0;
};

// TORCH_MODULE's holder, plus the factory under the holder's name: nn::QuantizedLinear::from_float(...).
class QuantizedLinear : public ModuleHolder<QuantizedLinearImpl> {
 public:
  using ModuleHolder<QuantizedLinearImpl>::ModuleHolder;
  using Impl = QuantizedLinearImpl;
  static QuantizedLinear from_float(const LinearImpl& linear, const std::vector<Tensor>& calibration_inputs = {},
                                    QuantizedLinearOptions options = {}) {
    return QuantizedLinearImpl::from_float(linear, calibration_inputs, options);
  }
};

}  // namespace nn
}  // namespace tinytorch
