#pragma once
// The probes part 1 gates on besides its accuracies, sizes and timings. Each recomputes what one of
// YOUR modules hands the Olympics from its definition, on the milestone's own model and data, because
// the headline numbers cannot tell (the knockout study, `tito instructor knockout 06`, found each of
// these mistakes passing every other gate):
//   quantized_linear_error  module 15: a ReLU network's activations have zero point 0 and never
//                           leave the calibrated range, so zero-point arithmetic, clamping and
//                           ties never show in the int8 accuracy;
//   pruning_rank_overlap    module 16: pruning each layer by half, or the largest half, still
//                           leaves a global sparsity of exactly 0.5;
//   peak_roof_error         module 14: the roofs the report cites are printed, never gated;
//   linear_forward_error    module 17: products of 1 to 4 rows (single-sample latency) run
//                           module 17's i-k-j loops, which the 512x512 product never reaches;
//   linear_backward_error   module 17: a bias gradient summed wrongly over the batch (module 17's
//                           column sums) changes the trained weights, not the accuracy.
#include <tinytorch/quantized_kernels.h>  // kMinScale, the smallest scale an observer hands out
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../common/forward_probe.h"

namespace milestone {
namespace olympics {

// max over i of |yours[i] - expected[i]| / (1 + |expected[i]|); infinity when yours has a value that
// is not finite or the sizes differ.
inline double largest_relative_error(const std::vector<double>& yours, const std::vector<double>& expected) {
  if (yours.size() != expected.size()) return std::numeric_limits<double>::infinity();
  double error = 0;
  for (size_t i = 0; i < yours.size(); ++i) {
    if (!std::isfinite(yours[i])) return std::numeric_limits<double>::infinity();
    error = std::max(error, std::fabs(yours[i] - expected[i]) / (1 + std::fabs(expected[i])));
  }
  return error;
}

// ---- Module 15: QuantizedLinear against its definition ----

struct AffineParameters {
  double scale = 1;
  int64_t zero_point = 0;
};

// The affine scale and zero point of a range onto the codes [low, high], 0.0 exactly representable.
inline AffineParameters affine_parameters(double min_value, double max_value, int64_t low, int64_t high) {
  const double min_neg = std::min(min_value, 0.0), max_pos = std::max(max_value, 0.0);
  AffineParameters q;
  q.scale = std::max((max_pos - min_neg) / static_cast<double>(high - low), torch::native::kMinScale);
  q.zero_point = std::clamp(low - static_cast<int64_t>(std::nearbyint(min_neg / q.scale)), low, high);
  return q;
}

// x's code: x times the float reciprocal of the scale, ties to even, stopped at the end codes.
inline int64_t affine_code(float x, double scale, int64_t zero_point, int64_t low, int64_t high) {
  const float inverse = 1.0f / static_cast<float>(scale);
  return std::clamp(zero_point + static_cast<int64_t>(std::nearbyint(x * inverse)), low, high);
}

// What QuantizedLinear::from_float(linear, {calibration}) must compute for `inputs` (rows x in):
// weights per output row, symmetric, int8 [-128, 127] (scale max |w| / 127.5, zero point 0);
// activations affine, uint8 [0, 127] over the calibration's range; out = s_a s_w (sum of
// (a - z_a)(w - z_w)) + bias. In double from the float layer's parameters.
inline torch::Tensor quantized_linear_definition(torch::nn::Linear& linear, const torch::Tensor& calibration,
                                                 const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  const torch::Tensor weight = linear->weight.detach().to(torch::kFloat).contiguous();
  const torch::Tensor bias = linear->bias.detach().to(torch::kFloat).contiguous();
  const torch::Tensor x = inputs.to(torch::kFloat).contiguous();
  const int64_t out = weight.size(0), in = weight.size(1), rows = x.size(0);
  const AffineParameters a = affine_parameters(calibration.min().item<double>(), calibration.max().item<double>(), 0, 127);
  std::vector<int64_t> a_codes(static_cast<size_t>(rows * in));
  for (int64_t i = 0; i < rows * in; ++i)
    a_codes[static_cast<size_t>(i)] = affine_code(x.data_ptr<float>()[i], a.scale, a.zero_point, 0, 127);
  std::vector<float> result(static_cast<size_t>(rows * out));
  for (int64_t j = 0; j < out; ++j) {
    const float* w = weight.data_ptr<float>() + j * in;
    double magnitude = 0;
    for (int64_t p = 0; p < in; ++p) magnitude = std::max(magnitude, std::fabs(static_cast<double>(w[p])));
    const double w_scale = std::max(magnitude / 127.5, torch::native::kMinScale);
    std::vector<int64_t> w_codes(static_cast<size_t>(in));
    for (int64_t p = 0; p < in; ++p) w_codes[static_cast<size_t>(p)] = affine_code(w[p], w_scale, 0, -128, 127);
    for (int64_t i = 0; i < rows; ++i) {
      int64_t sum = 0;
      for (int64_t p = 0; p < in; ++p)
        sum += (a_codes[static_cast<size_t>(i * in + p)] - a.zero_point) * w_codes[static_cast<size_t>(p)];
      result[static_cast<size_t>(i * out + j)] =
          static_cast<float>(a.scale * w_scale * static_cast<double>(sum) + bias.data_ptr<float>()[j]);
    }
  }
  return torch::tensor(result).reshape({rows, out});
}

// One row of `in` values that the calibration's scale puts exactly halfway between two codes
// (c + 0.5 for c = 0, 1, 2, ...), where ties to even and half away from zero part.
inline torch::Tensor half_code_row(const torch::Tensor& calibration, int64_t in) {
  const AffineParameters a = affine_parameters(calibration.min().item<double>(), calibration.max().item<double>(), 0, 127);
  const float inverse = 1.0f / static_cast<float>(a.scale);
  std::vector<float> row;
  for (int64_t p = 0; p < in; ++p) {
    const float target = static_cast<float>(p % 100 - a.zero_point) + 0.5f;
    float x = target / inverse;
    for (int nudge = 0; nudge < 8 && x * inverse != target; ++nudge)
      x = std::nextafter(x, x * inverse < target ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
    row.push_back(x);
  }
  return torch::tensor(row).reshape({1, in});
}

// max over the rows of |yours - definition| / (1 + |definition|) for YOUR QuantizedLinear made from
// `linear` and `calibration`, on `inputs`, on inputs 1.5 times as large (codes beyond the calibrated
// range, which must stop at 127) and on a row of half-code values; infinity when yours is not finite.
inline double quantized_layer_error(torch::nn::Linear& linear, const torch::Tensor& calibration,
                                    const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  auto yours = torch::nn::QuantizedLinear::from_float(*linear, {calibration});
  const torch::Tensor probe = torch::cat({inputs, inputs * 1.5, half_code_row(calibration, inputs.size(1))}, 0);
  return largest_relative_error(values_of(yours->forward(probe)),
                                values_of(quantized_linear_definition(linear, calibration, probe)));
}

// quantized_layer_error of every Linear of the float model, each calibrated on the activations that
// reach it from `calibration` and probed on those from `inputs`; and of the first layer calibrated
// on inputs shifted down by a quarter of their largest value (a centred input, as most pipelines
// feed: its zero point is 32, and min / scale is -31.75, which rounds and truncates apart).
inline double quantized_linear_error(torch::nn::Sequential& model, const torch::Tensor& calibration,
                                     const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  double error = 0;
  torch::Tensor seen = calibration, probed = inputs;
  bool first = true;
  for (auto& module : *model) {
    if (auto linear_impl = std::dynamic_pointer_cast<torch::nn::LinearImpl>(module.ptr())) {
      torch::nn::Linear linear(linear_impl);
      error = std::max(error, quantized_layer_error(linear, seen, probed));
      if (first) {
        const double shift = calibration.max().item<double>() / 4;
        error = std::max(error, quantized_layer_error(linear, calibration - shift, inputs - shift));
        first = false;
      }
    }
    seen = module.forward(seen);
    probed = module.forward(probed);
  }
  return error;
}

// ---- Module 17: the products of the model's own shapes ----

// linear_forward_error of every Linear of the float model on the activations that reach it from
// the first 1, 4 and 32 rows of `inputs` (one digit as the latency runs it, a few rows, a training
// batch), each twice, so that the second product lands in memory the first one used.
inline double model_linear_forward_error(torch::nn::Sequential& model, const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  double error = 0;
  for (const int64_t rows : {1, 4, 32}) {
    torch::Tensor x = inputs.narrow(0, 0, rows);
    for (auto& module : *model) {
      if (auto linear_impl = std::dynamic_pointer_cast<torch::nn::LinearImpl>(module.ptr())) {
        torch::nn::Linear linear(linear_impl);
        for (int repeat = 0; repeat < 2; ++repeat) error = std::max(error, linear_forward_error(linear, x));
      }
      x = module.forward(x);
    }
  }
  return error;
}

// The largest relative error (of 1 + |expected|) of the gradients that backward() gives a copy of each
// Linear of the model for the loss sum(layer(x) * g), a training batch x of 32 activations that reach
// the layer and g random: dL/dW = g^T x, dL/db = the column sums of g, in double. Infinity when YOURS
// are not finite.
inline double model_linear_backward_error(torch::nn::Sequential& model, const torch::Tensor& inputs) {
  double error = 0;
  torch::Tensor x = inputs.narrow(0, 0, 32);
  for (auto& module : *model) {
    if (auto linear_impl = std::dynamic_pointer_cast<torch::nn::LinearImpl>(module.ptr())) {
      torch::nn::Linear copy(linear_impl->weight.size(1), linear_impl->weight.size(0));
      {
        torch::NoGradGuard no_grad;
        copy->weight.copy_(linear_impl->weight);
        copy->bias.copy_(linear_impl->bias);
      }
      const torch::Tensor g = torch::randn({x.size(0), linear_impl->weight.size(0)});
      (copy(x.detach()) * g).sum().backward();
      if (!copy->weight.grad().defined() || !copy->bias.grad().defined()) return std::numeric_limits<double>::infinity();
      const int64_t rows = x.size(0), in = x.size(1), out = g.size(1);
      const std::vector<double> xs = values_of(x), gs = values_of(g);
      std::vector<double> weight_grad(static_cast<size_t>(out * in), 0.0), bias_grad(static_cast<size_t>(out), 0.0);
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t o = 0; o < out; ++o) {
          const double gi = gs[static_cast<size_t>(i * out + o)];
          bias_grad[static_cast<size_t>(o)] += gi;
          for (int64_t p = 0; p < in; ++p) weight_grad[static_cast<size_t>(o * in + p)] += gi * xs[static_cast<size_t>(i * in + p)];
        }
      }
      error = std::max({error, largest_relative_error(values_of(copy->weight.grad()), weight_grad),
                        largest_relative_error(values_of(copy->bias.grad()), bias_grad)});
    }
    torch::NoGradGuard no_grad;
    x = module.forward(x);
  }
  return error;
}

// ---- Module 16: global magnitude pruning keeps the largest magnitudes of all layers together ----

// (largest |w| pruned - smallest |w| kept) / mean |w|, over the weights of every Linear together,
// |w| as before pruning: <= 0 when the pruned weights are the smallest ones of the whole model.
inline double pruning_rank_overlap(torch::nn::Sequential& before, torch::nn::Sequential& after) {
  double largest_pruned = 0, smallest_kept = std::numeric_limits<double>::infinity(), sum = 0;
  size_t count = 0;
  const auto weights_before = before->named_parameters(), weights_after = after->named_parameters();
  for (const auto& item : weights_before) {
    if (item.key().find("weight") == std::string::npos) continue;
    const torch::Tensor* pruned_weight = weights_after.find(item.key());
    if (pruned_weight == nullptr) return std::numeric_limits<double>::infinity();  // a parameter went missing
    const std::vector<double> original = values_of(item.value()), now = values_of(*pruned_weight);
    for (size_t i = 0; i < original.size(); ++i) {
      const double magnitude = std::fabs(original[i]);
      if (now[i] == 0) largest_pruned = std::max(largest_pruned, magnitude);
      else smallest_kept = std::min(smallest_kept, magnitude);
      sum += magnitude;
    }
    count += original.size();
  }
  if (!std::isfinite(smallest_kept)) return std::numeric_limits<double>::infinity();  // nothing kept
  return (largest_pruned - smallest_kept) / (sum / static_cast<double>(count));
}

// ---- Module 14: the roofs ----

// The sum of the peak loop's chains after `steps` steps, by definition: chain j starts at
// j * kPeakStart and each step computes acc * kPeakMultiplier + kPeakAddend in float (fused or not:
// the tolerance below covers both roundings).
inline double peak_checksum_definition(int64_t chains, int64_t steps) {
  double sum = 0;
  for (int64_t j = 0; j < chains; ++j) {
    float acc = static_cast<float>(j) * torch::profiling::kPeakStart;
    for (int64_t step = 0; step < steps; ++step) acc = acc * torch::profiling::kPeakMultiplier + torch::profiling::kPeakAddend;
    sum += acc;
  }
  return sum;
}

// The largest relative error of the roofs' FLOP counts (a multiply and an add per chain per step, on
// every thread: 2 chains steps threads) and of the checksums of a 3-step run of YOUR peak loop for
// each instruction set, on 1 thread and on `threads`, against peak_checksum_definition.
inline double peak_roof_error(const std::vector<torch::profiling::PeakFlopsMeasurement>& roofs, int64_t steps,
                              int64_t threads) {
  namespace profiling = torch::profiling;
  double error = 0;
  for (const auto& roof : roofs) {
    const double expected = 2.0 * static_cast<double>(profiling::peak_chains(roof.isa) * steps * roof.threads);
    error = std::max(error, std::fabs(static_cast<double>(roof.flops) - expected) / expected);
  }
  constexpr int64_t kProbeSteps = 3;
  for (const profiling::PeakIsa isa : profiling::supported_peak_isas()) {
    for (const int64_t on : {int64_t{1}, threads}) {
      const profiling::PeakFlopsMeasurement run = profiling::measure_peak_flops(kProbeSteps, 1, isa, on);
      const double expected = peak_checksum_definition(profiling::peak_chains(isa), kProbeSteps);
      error = std::max(error, std::fabs(run.checksum - expected) / std::fabs(expected));
      const double flops = 2.0 * static_cast<double>(profiling::peak_chains(isa) * kProbeSteps * on);
      error = std::max(error, std::fabs(static_cast<double>(run.flops) - flops) / flops);
    }
  }
  return error;
}

}  // namespace olympics
}  // namespace milestone
