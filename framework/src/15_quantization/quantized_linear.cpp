// Module 15 (Quantization), given code: nn::QuantizedLinear. It checks, allocates and moves data;
// the arithmetic is the learner's (quantize_loops.cpp): choose_qparams through the observers,
// quantize_per_tensor_loop for the activations, int8_gemm_loops for the product (module 17's
// int8_gemm replaces it once module 17 is in the build), dequantize_int8_linear_output for the result.
#include <ostream>

#include "runtime/fast_kernels.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/modules/quantized_linear.h"
#include "tinytorch/quantization.h"
#include "tinytorch/quantized_kernels.h"

namespace tinytorch {
namespace nn {

namespace {
// Activations are quint8 over [0, 127] (reduce_range): see the header.
constexpr int64_t kActivationMin = 0, kActivationMax = 127;
}  // namespace

QuantizedLinear QuantizedLinearImpl::from_float(const LinearImpl& linear, const std::vector<Tensor>& calibration_inputs,
                                                QuantizedLinearOptions options) {
  TT_CHECK(linear.weight.defined() && linear.weight.dim() == 2,
           "QuantizedLinear::from_float: the Linear has no 2-D weight (was it constructed?)");
  auto layer = std::make_shared<QuantizedLinearImpl>();
  layer->in_features_ = linear.weight.size(1);
  layer->out_features_ = linear.weight.size(0);
  layer->weight_qscheme_ = options.weight_qscheme();
  const int64_t n = layer->out_features_;
  const Tensor weight = linear.weight.detach().to(kFloat).contiguous();

  // Weight: observe, then quantize with the learner's scale and zero point.
  Tensor quantized;
  const QScheme scheme = options.weight_qscheme();
  if (scheme == kPerChannelSymmetric || scheme == kPerChannelAffine) {
    quantization::PerChannelMinMaxObserver observer(
        quantization::PerChannelMinMaxObserverOptions().ch_axis(0).dtype(kQInt8).qscheme(scheme));
    observer.forward(weight);
    auto [scales, zero_points] = observer.calculate_qparams();
    quantized = quantize_per_channel(weight, scales, zero_points, 0, kQInt8);
    layer->weight_scales_ = scales;
    layer->weight_zero_points_ = zero_points;
  } else {
    TT_CHECK(scheme == kPerTensorSymmetric || scheme == kPerTensorAffine,
             "QuantizedLinear::from_float: unsupported weight_qscheme ", toString(scheme));
    quantization::MinMaxObserver observer(quantization::MinMaxObserverOptions().dtype(kQInt8).qscheme(scheme));
    observer.forward(weight);
    auto [scale, zero_point] = observer.calculate_qparams();
    quantized = quantize_per_tensor(weight, scale.item<double>(), zero_point.item<int64_t>(), kQInt8);
    layer->weight_scales_ = full({n}, scale.item<double>(), TensorOptions(kDouble));
    layer->weight_zero_points_ = full({n}, zero_point.item<int64_t>(), TensorOptions(kLong));
  }
  layer->weight_codes_ = quantized.int_repr();
  layer->weight_row_sums_ = empty({n}, TensorOptions(kInt));
  const int8_t* codes = layer->weight_codes_.data_ptr<int8_t>();
  int32_t* row_sums = layer->weight_row_sums_.data_ptr<int32_t>();
  for (int64_t j = 0; j < n; ++j) {
    int32_t sum = 0;
    for (int64_t p = 0; p < layer->in_features_; ++p) sum += codes[j * layer->in_features_ + p];
    row_sums[j] = sum;
  }
  if (linear.bias.defined()) layer->bias_ = linear.bias.detach().to(kFloat).contiguous().clone();

  // Activations: the range every calibration input covered.
  if (!calibration_inputs.empty()) {
    quantization::MinMaxObserver observer(
        quantization::MinMaxObserverOptions().dtype(kQUInt8).qscheme(kPerTensorAffine).reduce_range(true));
    for (const Tensor& x : calibration_inputs) observer.forward(x);
    auto [scale, zero_point] = observer.calculate_qparams();
    layer->input_scale_ = scale.item<double>();
    layer->input_zero_point_ = zero_point.item<int64_t>();
    layer->calibrated_ = true;
  }
  return QuantizedLinear(layer);
}

Tensor QuantizedLinearImpl::weight() const {
  TT_CHECK(weight_codes_.defined(), "QuantizedLinear: make one with nn::QuantizedLinear::from_float(linear, inputs)");
  const Tensor real = weight_codes_.to(kFloat);  // codes as numbers; requantized with the same parameters below
  if (weight_qscheme_ == kPerChannelSymmetric || weight_qscheme_ == kPerChannelAffine) {
    return quantize_per_channel(
        (real - weight_zero_points_.to(kFloat).unsqueeze(1)) * weight_scales_.to(kFloat).unsqueeze(1),
        weight_scales_, weight_zero_points_, 0, kQInt8);
  }
  const double scale = weight_scales_[0].item<double>();
  const int64_t zero_point = weight_zero_points_[0].item<int64_t>();
  return quantize_per_tensor((real - static_cast<double>(zero_point)) * scale, scale, zero_point, kQInt8);
}

Tensor QuantizedLinearImpl::forward(const Tensor& input) {
  TT_CHECK(weight_codes_.defined(), "QuantizedLinear: make one with nn::QuantizedLinear::from_float(linear, inputs)");
  TT_CHECK(input.defined() && input.dim() >= 1 && input.is_floating_point(),
           "QuantizedLinear: expects a floating input of shape (*, ", in_features_, ")");
  const int64_t k = in_features_, n = out_features_;
  TT_CHECK(input.size(-1) == k, "mat1 and mat2 shapes cannot be multiplied (", input.numel() / std::max<int64_t>(1, input.size(-1)),
           "x", input.size(-1), " and ", k, "x", n, ")");
  const Tensor x = input.to(kFloat).contiguous().reshape({-1, k});
  const int64_t m = x.size(0);

  // 1. Activations to uint8 codes, with the calibrated parameters or this batch's own range.
  native::QParams q{input_scale_, input_zero_point_};
  if (!calibrated_ && m > 0) {
    q = native::choose_qparams(x.min().item<double>(), x.max().item<double>(), kActivationMin, kActivationMax, false);
  }
  Tensor a_codes = empty({m, k}, TensorOptions(kByte));
  native::quantize_per_tensor_loop(x, a_codes, q.scale, q.zero_point, kActivationMin, kActivationMax);
  Tensor a_row_sums = empty({m}, TensorOptions(kInt));
  const uint8_t* a = a_codes.data_ptr<uint8_t>();
  for (int64_t i = 0; i < m; ++i) {
    int32_t sum = 0;
    for (int64_t p = 0; p < k; ++p) sum += a[i * k + p];
    a_row_sums.data_ptr<int32_t>()[i] = sum;
  }

  // 2. The integer product: int32 accumulators.
  Tensor acc = empty({m, n}, TensorOptions(kInt));
  const auto fast = ::tinytorch::detail::fast_kernels().int8_gemm;
  if (fast == nullptr || !fast(m, n, k, a, weight_codes_.data_ptr<int8_t>(), acc.data_ptr<int32_t>())) {
    native::int8_gemm_loops(m, n, k, a, weight_codes_.data_ptr<int8_t>(), acc.data_ptr<int32_t>());
  }

  // 3. Back to real numbers, zero points corrected, bias added.
  Tensor out = empty({m, n}, TensorOptions(kFloat));
  native::Int8LinearOutput o;
  o.m = m;
  o.n = n;
  o.k = k;
  o.acc = acc.data_ptr<int32_t>();
  o.activation_row_sums = a_row_sums.data_ptr<int32_t>();
  o.weight_row_sums = weight_row_sums_.data_ptr<int32_t>();
  o.activation_scale = q.scale;
  o.activation_zero_point = q.zero_point;
  o.weight_scales = weight_scales_.data_ptr<double>();
  o.weight_zero_points = weight_zero_points_.data_ptr<int64_t>();
  o.bias = bias_.defined() ? bias_.data_ptr<float>() : nullptr;
  o.out = out.data_ptr<float>();
  native::dequantize_int8_linear_output(o);

  std::vector<int64_t> out_sizes = input.sizes().vec();
  out_sizes.back() = n;
  return out.reshape(out_sizes);
}

int64_t QuantizedLinearImpl::memory_bytes() const {
  const int64_t bias_bytes = bias_.defined() ? bias_.numel() * 4 : 0;
  return in_features_ * out_features_ + bias_bytes + out_features_ * (8 + 8 + 4);
}

void QuantizedLinearImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::QuantizedLinear(in_features=" << in_features_ << ", out_features=" << out_features_
         << ", qscheme=" << toString(weight_qscheme_) << ")";
}

}  // namespace nn
}  // namespace tinytorch
