// Module 15 (Quantization), given code: calibration observers in the shape of torch.ao.quantization's
// MinMaxObserver and PerChannelMinMaxObserver. They only watch ranges; the scale and zero point come
// from the learner's choose_qparams (quantize_loops.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/quantization.h"
#include "tinytorch/quantized_kernels.h"

namespace tinytorch {
namespace quantization {

namespace {
void check_observed_tensor(const Tensor& x, const char* observer) {
  TT_CHECK(x.defined(), observer, ": forward() got an undefined tensor");
  TT_CHECK(x.is_floating_point(), observer, ": forward() expects a floating tensor, got ", toString(x.scalar_type()));
  TT_CHECK(x.numel() > 0, observer, ": forward() got an empty tensor: there is no range to observe");
}
}  // namespace

MinMaxObserver::MinMaxObserver(MinMaxObserverOptions options) : options_(options) {
  TT_CHECK(options_.qscheme() == kPerTensorAffine || options_.qscheme() == kPerTensorSymmetric,
           "MinMaxObserver: qscheme must be kPerTensorAffine or kPerTensorSymmetric, got ", toString(options_.qscheme()),
           " (use PerChannelMinMaxObserver for per-channel schemes)");
  quant_range(options_.dtype(), options_.reduce_range());  // refuses a dtype that is not quantized
}

Tensor MinMaxObserver::forward(const Tensor& x) {
  check_observed_tensor(x, "MinMaxObserver");
  const double low = x.min().item<double>(), high = x.max().item<double>();
  TT_CHECK(std::isfinite(low) && std::isfinite(high), "MinMaxObserver: the observed tensor holds inf or NaN: "
           "its range cannot be quantized; check the model's inputs and weights");
  min_val_ = observed_ ? std::min(min_val_, low) : low;
  max_val_ = observed_ ? std::max(max_val_, high) : high;
  observed_ = true;
  return x;
}

std::tuple<Tensor, Tensor> MinMaxObserver::calculate_qparams() const {
  TT_CHECK(observed_, "MinMaxObserver: calculate_qparams() before any forward(): run calibration data through the "
           "observer first");
  const auto [low, high] = quant_range(options_.dtype(), options_.reduce_range());
  const native::QParams q =
      native::choose_qparams(min_val_, max_val_, low, high, options_.qscheme() == kPerTensorSymmetric);
  return {tensor({q.scale}, kDouble), tensor({q.zero_point}, kLong)};
}

PerChannelMinMaxObserver::PerChannelMinMaxObserver(PerChannelMinMaxObserverOptions options) : options_(options) {
  TT_CHECK(options_.qscheme() == kPerChannelAffine || options_.qscheme() == kPerChannelSymmetric,
           "PerChannelMinMaxObserver: qscheme must be kPerChannelAffine or kPerChannelSymmetric, got ",
           toString(options_.qscheme()));
  quant_range(options_.dtype(), options_.reduce_range());
}

Tensor PerChannelMinMaxObserver::forward(const Tensor& x) {
  check_observed_tensor(x, "PerChannelMinMaxObserver");
  const int64_t axis = options_.ch_axis();
  TT_CHECK(axis >= 0 && axis < x.dim(), "PerChannelMinMaxObserver: ch_axis ", axis, " is out of range for a tensor of ",
           x.dim(), " dims");
  // Channels first, everything else flattened: the range of each row is its channel's.
  const Tensor rows = x.transpose(0, axis).contiguous().reshape({x.size(axis), -1}).to(kDouble).contiguous();
  const int64_t channels = rows.size(0), per_channel = rows.size(1);
  TT_CHECK(!min_val_.defined() || min_val_.numel() == channels, "PerChannelMinMaxObserver: saw ", min_val_.numel(),
           " channels before, now ", channels);
  if (!min_val_.defined()) {
    min_val_ = full({channels}, std::numeric_limits<double>::infinity(), TensorOptions(kDouble));
    max_val_ = full({channels}, -std::numeric_limits<double>::infinity(), TensorOptions(kDouble));
  }
  const double* values = rows.data_ptr<double>();
  double* mins = min_val_.data_ptr<double>();
  double* maxs = max_val_.data_ptr<double>();
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t i = 0; i < per_channel; ++i) {
      const double v = values[c * per_channel + i];
      TT_CHECK(std::isfinite(v), "PerChannelMinMaxObserver: the observed tensor holds inf or NaN: its range cannot "
               "be quantized; check the model's inputs and weights");
      mins[c] = std::min(mins[c], v);
      maxs[c] = std::max(maxs[c], v);
    }
  }
  return x;
}

std::tuple<Tensor, Tensor> PerChannelMinMaxObserver::calculate_qparams() const {
  TT_CHECK(min_val_.defined(), "PerChannelMinMaxObserver: calculate_qparams() before any forward(): run calibration "
           "data through the observer first");
  const auto [low, high] = quant_range(options_.dtype(), options_.reduce_range());
  const int64_t channels = min_val_.numel();
  Tensor scales = empty({channels}, TensorOptions(kDouble));
  Tensor zero_points = empty({channels}, TensorOptions(kLong));
  const double* mins = min_val_.data_ptr<double>();
  const double* maxs = max_val_.data_ptr<double>();
  for (int64_t c = 0; c < channels; ++c) {
    const native::QParams q =
        native::choose_qparams(mins[c], maxs[c], low, high, options_.qscheme() == kPerChannelSymmetric);
    scales.data_ptr<double>()[c] = q.scale;
    zero_points.data_ptr<int64_t>()[c] = q.zero_point;
  }
  return {scales, zero_points};
}

}  // namespace quantization
}  // namespace tinytorch
