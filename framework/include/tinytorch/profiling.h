#pragma once
// Module 14 (Profiling): what a model costs and what this machine can do.
//
//   What a layer costs       linear_flops, conv2d_flops (learner), profile_layers (per layer of a
//                            Sequential: parameters, FLOPs, activation bytes, allocator peak, latency)
//   How long code takes      percentile, summarize_latencies (learner), measure_latency (warm-up first)
//   What this machine can do measure_peak_flops (a register-blocked multiply-add loop, compiled per
//                            instruction set and run on 1 or all threads by given code),
//                            measure_triad_bandwidth (STREAM's triad) (learner); measure_peak_roofs
//   Which limit binds        arithmetic_intensity, roofline_attainable (learner), save_roofline_svg
//
// LibTorch has no counterpart for these (its profiler is in tinytorch/autograd/profiler.h, under
// LibTorch's names); they live in tinytorch::profiling (torch::profiling through torch.h).
// FLOP convention, as in most papers and in fvcore: a multiply-add is 2 FLOPs; a bias add is 1
// FLOP per output element; comparisons (max pooling) count 1 per tap.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
class SequentialImpl;
}  // namespace nn

namespace profiling {

// ---- FLOPs (learner: flop_counting.cpp) ----

// FLOPs of nn::Linear(in_features, out_features, bias) on an input of input_sizes (..., in_features):
// every leading dimension (batch, sequence) is a row; each row computes out_features dot products of
// length in_features (2 in_features FLOPs each) plus one bias add per output when bias is true.
//   linear_flops({32, 128}, 128, 64, true) == 32 * 64 * (2 * 128 + 1) == 526'336
int64_t linear_flops(IntArrayRef input_sizes, int64_t in_features, int64_t out_features, bool bias);

// The geometry of one Conv2d call, padding already resolved to sizes (kSame/kValid -> numbers).
struct Conv2dShape {
  std::vector<int64_t> input_sizes;  // (N, C, H, W)
  int64_t out_channels = 0;
  std::vector<int64_t> kernel_size{1, 1};
  std::vector<int64_t> stride{1, 1};
  std::vector<int64_t> padding{0, 0};
  std::vector<int64_t> dilation{1, 1};
  int64_t groups = 1;
  bool bias = true;
};

// FLOPs of the convolution: N * out_channels * OH * OW outputs, each a dot product of
// (C / groups) * kernel_h * kernel_w taps (2 FLOPs a tap) plus the bias add; OH and OW follow
// LibTorch's output-size formula (padding, dilation and stride).
//   Conv2d(3, 16, 3) on (1, 3, 32, 32): 16 * 30 * 30 * (2 * 27 + 1) == 792'000
int64_t conv2d_flops(const Conv2dShape& shape);

// ---- Latency statistics (learner: latency_statistics.cpp) ----

// The q-th percentile (0 <= q <= 100) of samples, interpolated linearly between the two nearest
// ranks of the sorted samples (numpy.percentile's default): position q / 100 * (n - 1).
//   percentile({5, 1, 3}, 50) == 3; percentile({1, 2, 3, 4}, 50) == 2.5; percentile({1, 2, 3, 4}, 90) == 3.7
double percentile(std::vector<double> samples, double q);

struct LatencyStats {
  int64_t count = 0;
  double mean_ms = 0, min_ms = 0, max_ms = 0;
  double median_ms = 0, p10_ms = 0, p90_ms = 0, p99_ms = 0;
};
// count, mean, min, max and the 50th, 10th, 90th and 99th percentiles of samples_ms (not empty).
LatencyStats summarize_latencies(const std::vector<double>& samples_ms);

// Runs fn `warmup` times untimed (caches, the allocator's free lists and the branch predictors
// settle), then `iterations` times timed one by one; returns summarize_latencies of those times.
LatencyStats measure_latency(const std::function<void()>& fn, int64_t warmup = 10, int64_t iterations = 100);

// ---- This machine (learner: machine_measurements.cpp) ----

// The peak-FLOPs loop: `chains` independent float chains acc = acc * kPeakMultiplier + kPeakAddend
// (a multiply and an add: 2 FLOPs a step), chain j starting at j * kPeakStart. One chain waits for its
// previous result every step (the multiply-add's latency, about 4 cycles); the CPU needs latency x
// (vector units) chains of full vector registers in flight to start a multiply-add on every unit every
// cycle. The given code compiles the learner's loop once per instruction set (GCC/Clang target
// attributes) with kPeakRegisters vector registers of chains each, and runs it on 1 or more threads.
enum class PeakIsa {
  kSse,        // x86-64's baseline: 4 floats a register, a separate multiply and add (no FMA)
  kAvx2Fma,    // x86-64-v3: 8 floats a register, fused multiply-add (one instruction, 2 FLOPs a lane)
  kAvx512Fma,  // x86-64-v4: 16 floats a register, fused multiply-add
};
// 12 vector registers of chains: enough for 2-3 units of latency 4-6 cycles, and x86-64 has 16 (32
// with AVX-512), leaving room for the multiplier and the addend.
constexpr int64_t kPeakRegisters = 12;
constexpr float kPeakMultiplier = 0.999f;
constexpr float kPeakAddend = 0.001f;
constexpr float kPeakStart = 0.01f;

// "SSE", "AVX2+FMA", "AVX-512+FMA" (on other architectures kSse is the compiler's baseline).
std::string peak_isa_name(PeakIsa isa);
// Floats in one vector register of that instruction set: 4, 8, 16.
int64_t peak_isa_lanes(PeakIsa isa);
// The chains the loop runs for that instruction set: kPeakRegisters x lanes (48, 96, 192).
int64_t peak_chains(PeakIsa isa);
// The instruction sets this build can compile the loop for and this CPU runs, narrowest first.
std::vector<PeakIsa> supported_peak_isas();

struct PeakFlopsMeasurement {
  PeakIsa isa = PeakIsa::kSse;
  int64_t threads = 1;
  int64_t flops = 0;       // FLOPs of one timed run of the loop, all threads together
  double seconds = 0;      // the fastest of the runs
  double checksum = 0;     // sum of one thread's chains after a run (proves the loop ran)
  double gflops() const { return seconds > 0 ? flops / seconds / 1e9 : 0.0; }
};
// Runs the loop of `isa` (an entry of supported_peak_isas()) for `steps` steps per chain on `threads`
// threads at once, `repeats` times, and keeps the fastest run. The default is the SSE loop on 1 thread.
PeakFlopsMeasurement measure_peak_flops(int64_t steps = 2'000'000, int64_t repeats = 5, PeakIsa isa = PeakIsa::kSse,
                                        int64_t threads = 1);
// The roofs of this machine: measure_peak_flops for every supported instruction set, on 1 thread and
// on `threads` threads (default: every hardware thread; one row when that is 1), narrowest first.
std::vector<PeakFlopsMeasurement> measure_peak_roofs(int64_t steps = 2'000'000, int64_t repeats = 5,
                                                     int64_t threads = 0);
// One line per roof, indented by two spaces: "  AVX2+FMA      1 thread     132.4 GFLOP/s  (96 chains a thread)".
std::string format_peak_roofs(const std::vector<PeakFlopsMeasurement>& roofs);

// STREAM's triad a[i] = b[i] + kTriadScalar * c[i] over float arrays with b[i] = i % 7 and
// c[i] = i % 3: two arrays read and one written per element.
constexpr float kTriadScalar = 0.5f;

struct BandwidthMeasurement {
  int64_t bytes = 0;     // bytes moved by one run of the triad (reads and writes)
  double seconds = 0;    // the fastest of the runs
  double checksum = 0;   // sum of a after the last run
  double gb_per_s() const { return seconds > 0 ? bytes / seconds / 1e9 : 0.0; }
};
// `elements` should make the three arrays far larger than the last-level cache (the default is
// 3 x 64 MiB), else this measures the cache.
BandwidthMeasurement measure_triad_bandwidth(int64_t elements = 16 << 20, int64_t repeats = 5);

// FLOPs per byte moved between memory and the processor (bytes > 0).
double arithmetic_intensity(double flops, double bytes);
// The roofline: the GFLOP/s a kernel of the given intensity can reach, at most the peak and at most
// what the bandwidth can feed (intensity x GB/s).
double roofline_attainable(double intensity, double peak_gflops, double bandwidth_gb_per_s);

// ---- Given: profiles, the roofline plot ----

// One row of profile_layers. flops is -1 for a layer whose cost the profiler does not know.
struct LayerProfile {
  std::string name;             // path in the model: "0", "features.2"
  std::string type;             // "Linear", "Conv2d", ... (Module::name() without "torch::nn::")
  std::vector<int64_t> output_sizes;
  int64_t parameters = 0;
  int64_t flops = -1;
  int64_t activation_bytes = 0;  // the output the layer hands on (kept for backward in training)
  int64_t peak_bytes = 0;        // allocator peak above what was in use before the layer ran
  LatencyStats latency;
};

// Runs the layers of `model` one by one from `input` (nested Sequentials are entered), in
// inference mode (NoGradGuard), and profiles each. Leaves the allocator's peak statistics reset.
std::vector<LayerProfile> profile_layers(nn::SequentialImpl& model, const Tensor& input, int64_t warmup = 3,
                                         int64_t iterations = 10);
// The rows as an aligned text table with a total line.
std::string format_profile(const std::vector<LayerProfile>& rows);

struct RooflinePoint {
  std::string label;
  double intensity = 0;   // FLOPs per byte
  double gflops = 0;      // measured
};
// The kernels a learner wrote, timed here: matmul (torch::mm), a convolution and an element-wise
// add, with their intensities from their minimum traffic (each operand read once, result written once).
std::vector<RooflinePoint> measure_kernel_points(int64_t warmup = 2, int64_t iterations = 5);
// A log-log roofline: the memory slope, the compute roof, the ridge point, and the points.
void save_roofline_svg(const std::string& path, double peak_gflops, double bandwidth_gb_per_s,
                       const std::vector<RooflinePoint>& points);

}  // namespace profiling
}  // namespace tinytorch
