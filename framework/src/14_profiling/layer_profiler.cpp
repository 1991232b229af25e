// Module 14 (Profiling), given code: timing with warm-up, the per-layer profile of a Sequential,
// and the learner's kernels measured for the roofline (roofline_svg.cpp draws it). The counts
// and statistics come from the learner's flop_counting.cpp and latency_statistics.cpp.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "tinytorch/allocator.h"
#include "tinytorch/convolution.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn.h"
#include "tinytorch/nn/modules/activation.h"
#include "tinytorch/profiling.h"

namespace tinytorch {
namespace profiling {

LatencyStats measure_latency(const std::function<void()>& fn, int64_t warmup, int64_t iterations) {
  TT_CHECK(iterations >= 1, "measure_latency: iterations must be at least 1, got ", iterations);
  TT_CHECK(warmup >= 0, "measure_latency: warmup must not be negative, got ", warmup);
  for (int64_t i = 0; i < warmup; ++i) fn();
  std::vector<double> samples_ms;
  samples_ms.reserve(static_cast<size_t>(iterations));
  for (int64_t i = 0; i < iterations; ++i) {
    const auto start = std::chrono::steady_clock::now();
    fn();
    samples_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize_latencies(samples_ms);
}

namespace {

// "torch::nn::Conv2dImpl" -> "Conv2d".
std::string short_type_name(const nn::Module& module) {
  std::string name = module.name();
  const std::string prefix = "torch::nn::";
  if (name.compare(0, prefix.size(), prefix) == 0) name = name.substr(prefix.size());
  const std::string suffix = "Impl";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    name.resize(name.size() - suffix.size());
  }
  return name;
}

int64_t count_parameters(const nn::Module& module) {
  int64_t count = 0;
  for (const Tensor& parameter : module.parameters()) count += parameter.numel();
  return count;
}

// FLOPs of one forward call of a leaf layer that read `input` and produced `output`, or -1 when the
// layer is not one whose cost the profiler knows.
int64_t layer_flops(const std::shared_ptr<nn::Module>& module, const Tensor& input, const Tensor& output) {
  if (auto linear = std::dynamic_pointer_cast<nn::LinearImpl>(module)) {
    return linear_flops(input.sizes(), linear->options.in_features(), linear->options.out_features(),
                        linear->options.bias());
  }
  if (auto conv = std::dynamic_pointer_cast<nn::Conv2dImpl>(module)) {
    const auto& options = conv->options;
    Conv2dShape shape;
    shape.input_sizes = input.dim() == 3 ? std::vector<int64_t>{1, input.size(0), input.size(1), input.size(2)}
                                         : input.sizes().vec();
    shape.out_channels = options.out_channels();
    shape.kernel_size = {options.kernel_size()->at(0), options.kernel_size()->at(1)};
    shape.stride = {options.stride()->at(0), options.stride()->at(1)};
    shape.dilation = {options.dilation()->at(0), options.dilation()->at(1)};
    const ExpandingArray<2> padding =
        nn::functional::conv2d_padding_sizes(options.padding(), shape.kernel_size, shape.stride, shape.dilation);
    shape.padding = {padding->at(0), padding->at(1)};
    shape.groups = options.groups();
    shape.bias = options.bias();
    return conv2d_flops(shape);
  }
  // Pooling: one comparison or add per tap of every window (the average adds a divide).
  if (auto pool = std::dynamic_pointer_cast<nn::MaxPool2dImpl>(module)) {
    return output.numel() * pool->options.kernel_size()->at(0) * pool->options.kernel_size()->at(1);
  }
  if (auto pool = std::dynamic_pointer_cast<nn::AvgPool2dImpl>(module)) {
    return output.numel() * (pool->options.kernel_size()->at(0) * pool->options.kernel_size()->at(1) + 1);
  }
  if (std::dynamic_pointer_cast<nn::AdaptiveAvgPool2dImpl>(module)) return input.numel() + output.numel();
  // Batch normalisation: subtract the mean, scale by 1/std, then gamma and beta: 4 per element
  // (the batch statistics in training add about 4 more, not counted).
  if (std::dynamic_pointer_cast<nn::BatchNorm2dImpl>(module) || std::dynamic_pointer_cast<nn::BatchNorm1dImpl>(module)) {
    return 4 * input.numel();
  }
  if (std::dynamic_pointer_cast<nn::ReLUImpl>(module) || std::dynamic_pointer_cast<nn::LeakyReLUImpl>(module)) {
    return input.numel();  // one comparison (and a multiply for LeakyReLU's negatives) per element
  }
  if (std::dynamic_pointer_cast<nn::FlattenImpl>(module) || std::dynamic_pointer_cast<nn::DropoutImpl>(module)) {
    return 0;  // a view, and (in inference) the identity
  }
  return -1;
}

void profile_steps(nn::SequentialImpl& model, const std::string& prefix, Tensor& activation, int64_t warmup,
                   int64_t iterations, std::vector<LayerProfile>& rows) {
  size_t index = 0;
  for (nn::AnyModule& step : model) {
    const std::string name = prefix + std::to_string(index++);
    const std::shared_ptr<nn::Module> module = step.ptr();
    if (auto nested = std::dynamic_pointer_cast<nn::SequentialImpl>(module)) {
      profile_steps(*nested, name + ".", activation, warmup, iterations, rows);
      continue;
    }
    LayerProfile row;
    row.name = name;
    row.type = short_type_name(*module);
    row.parameters = count_parameters(*module);
    const Tensor input = activation;
    // The first run is measured for memory: what the allocator had to hold above its level before.
    memory::reset_peak_stats();
    const int64_t before = memory::allocator_stats().allocated_bytes;
    Tensor output = step.forward(input);
    row.peak_bytes = memory::allocator_stats().peak_allocated_bytes - before;
    row.output_sizes = output.sizes().vec();
    row.activation_bytes = static_cast<int64_t>(output.nbytes());
    row.flops = layer_flops(module, input, output);
    row.latency = measure_latency([&] { step.forward(input); }, warmup, iterations);
    rows.push_back(std::move(row));
    activation = output;
  }
}

std::string sizes_text(const std::vector<int64_t>& sizes) {
  std::string text = "(";
  for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + ")";
}

}  // namespace

std::vector<LayerProfile> profile_layers(nn::SequentialImpl& model, const Tensor& input, int64_t warmup,
                                         int64_t iterations) {
  TT_CHECK(input.defined(), "profile_layers: the input is undefined; pass a batch shaped as the model expects");
  NoGradGuard no_grad;  // inference: no graph is kept, so the activations are freed as they go
  std::vector<LayerProfile> rows;
  Tensor activation = input;
  profile_steps(model, "", activation, warmup, iterations, rows);
  memory::reset_peak_stats();
  return rows;
}

std::string format_profile(const std::vector<LayerProfile>& rows) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-10s %-14s %-20s %10s %14s %12s %12s %10s\n", "layer", "type", "output",
                "params", "FLOPs", "act. bytes", "peak bytes", "median ms");
  out += line;
  int64_t parameters = 0, flops = 0, activation = 0;
  bool all_known = true;
  double median = 0;
  for (const LayerProfile& row : rows) {
    const std::string flops_text = row.flops < 0 ? "unknown" : std::to_string(row.flops);
    std::snprintf(line, sizeof line, "%-10s %-14s %-20s %10lld %14s %12lld %12lld %10.4f\n", row.name.c_str(),
                  row.type.c_str(), sizes_text(row.output_sizes).c_str(), static_cast<long long>(row.parameters),
                  flops_text.c_str(), static_cast<long long>(row.activation_bytes),
                  static_cast<long long>(row.peak_bytes), row.latency.median_ms);
    out += line;
    parameters += row.parameters;
    if (row.flops < 0) all_known = false; else flops += row.flops;
    activation += row.activation_bytes;
    median += row.latency.median_ms;
  }
  const std::string total_flops = std::to_string(flops) + (all_known ? "" : "+?");
  std::snprintf(line, sizeof line, "%-10s %-14s %-20s %10lld %14s %12lld %12s %10.4f\n", "total", "", "",
                static_cast<long long>(parameters), total_flops.c_str(), static_cast<long long>(activation), "",
                median);
  out += line;
  return out;
}

std::vector<RooflinePoint> measure_kernel_points(int64_t warmup, int64_t iterations) {
  NoGradGuard no_grad;
  std::vector<RooflinePoint> points;
  const auto add_point = [&](const std::string& label, double flops, double bytes, const std::function<void()>& fn) {
    const LatencyStats latency = measure_latency(fn, warmup, iterations);
    points.push_back({label, arithmetic_intensity(flops, bytes), flops / (latency.median_ms * 1e-3) / 1e9});
  };
  constexpr double kFloatBytes = 4;
  {  // matmul: (n, n) @ (n, n); each matrix read once and the product written once at best
    const int64_t n = 256;
    const Tensor a = rand({n, n}), b = rand({n, n});
    add_point("matmul 256", 2.0 * n * n * n, 3.0 * n * n * kFloatBytes, [&] { mm(a, b); });
  }
  {  // a LeNet-sized convolution: 16 -> 32 channels, 3 x 3, padding 1, on 8 images of 16 x 16
    const Tensor input = rand({8, 16, 16, 16}), weight = rand({32, 16, 3, 3}), bias = rand({32});
    Conv2dShape shape;
    shape.input_sizes = {8, 16, 16, 16};
    shape.out_channels = 32;
    shape.kernel_size = {3, 3};
    shape.padding = {1, 1};
    const double bytes = static_cast<double>(input.numel() + weight.numel() + bias.numel() + 8 * 32 * 16 * 16) *
                         kFloatBytes;
    add_point("conv2d 16->32", static_cast<double>(conv2d_flops(shape)), bytes,
              [&] { conv2d(input, weight, bias, 1, 1); });
  }
  {  // element-wise add of two 1 Mi-element vectors: 1 FLOP for 12 bytes
    const int64_t n = 1 << 20;
    const Tensor a = rand({n}), b = rand({n});
    add_point("add 1M", static_cast<double>(n), 3.0 * n * kFloatBytes, [&] { add(a, b); });
  }
  return points;
}

}  // namespace profiling
}  // namespace tinytorch
