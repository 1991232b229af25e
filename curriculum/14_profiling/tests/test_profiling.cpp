// Module 14 (Profiling): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes:
// the FLOP counts (flop_counting.cpp), the latency statistics (latency_statistics.cpp) and the
// machine measurements and roofline (machine_measurements.cpp), directly or through the given
// profiler. Expected values are worked by hand in the comments or computed here by an independent
// oracle: FLOPs by enumerating the positions a window fits (not the output-size formula), loops
// replayed value by value, percentiles from the ranks.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::random_int;
namespace P = torch::profiling;

namespace {

// How many windows of `extent` input positions (the dilated kernel) start at 0, s, 2s, ... and end
// inside a padded line of `size + 2 padding` positions, counted one by one.
int64_t placements(int64_t size, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation) {
  const int64_t extent = dilation * (kernel - 1) + 1;
  int64_t count = 0;
  for (int64_t start = 0; start + extent <= size + 2 * padding; start += stride) ++count;
  return count;
}

int64_t conv_oracle(const P::Conv2dShape& s) {
  const int64_t outputs = s.input_sizes[0] * s.out_channels *
                          placements(s.input_sizes[2], s.kernel_size[0], s.stride[0], s.padding[0], s.dilation[0]) *
                          placements(s.input_sizes[3], s.kernel_size[1], s.stride[1], s.padding[1], s.dilation[1]);
  int64_t per_output = 0;  // multiply and add per tap, then the bias
  for (int64_t tap = 0; tap < s.input_sizes[1] / s.groups * s.kernel_size[0] * s.kernel_size[1]; ++tap) per_output += 2;
  return outputs * (per_output + (s.bias ? 1 : 0));
}

P::Conv2dShape conv_shape(Sizes input, int64_t out_channels, int64_t kernel, int64_t stride = 1, int64_t padding = 0,
                          int64_t dilation = 1, int64_t groups = 1, bool bias = true) {
  P::Conv2dShape shape;
  shape.input_sizes = input;
  shape.out_channels = out_channels;
  shape.kernel_size = {kernel, kernel};
  shape.stride = {stride, stride};
  shape.padding = {padding, padding};
  shape.dilation = {dilation, dilation};
  shape.groups = groups;
  shape.bias = bias;
  return shape;
}

// The rank-based percentile, with the sorted copy made here.
double percentile_oracle(std::vector<double> samples, double q) {
  std::sort(samples.begin(), samples.end());
  const double position = q / 100.0 * static_cast<double>(samples.size() - 1);
  const auto low = static_cast<size_t>(position);
  const size_t high = std::min(low + 1, samples.size() - 1);
  return samples[low] * (1 - (position - low)) + samples[high] * (position - low);
}

// Unsorted samples in [0.5, 3) ms, as a timing loop produces them.
std::vector<double> drawn_samples(int64_t n) {
  std::vector<double> samples;
  for (int64_t i = 0; i < n; ++i) samples.push_back(0.5 + static_cast<double>(random_int(0, 2000)) / 800.0);
  return samples;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: counting FLOPs (flop_counting.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("linear FLOPs count two per multiply-add and one per bias", "[points=10][flops]") {
  CHECK(P::linear_flops(Sizes{32, 128}, 128, 64, true) == 526'336);   // 32 x 64 x (2 x 128 + 1)
  CHECK(P::linear_flops(Sizes{32, 128}, 128, 64, false) == 524'288);  // 32 x 64 x 256
  CHECK(P::linear_flops(Sizes{1, 784}, 784, 10, true) == 15'690);     // 10 x (2 x 784 + 1)
  CHECK(P::linear_flops(Sizes{4, 10, 16}, 16, 8, true) == 10'560);    // 40 rows x 8 x 33: a sequence is rows too
  CHECK(P::linear_flops(Sizes{16}, 16, 8, false) == 256);             // one row
  const int64_t batch = random_int(1, 64), positions = random_int(1, 12);
  const int64_t in = random_int(1, 300), out = random_int(1, 300);
  const bool bias = random_int(0, 1) == 1;
  int64_t expected = 0;
  for (int64_t row = 0; row < batch * positions; ++row) expected += out * (in + in + (bias ? 1 : 0));
  CHECK(P::linear_flops(Sizes{batch, positions, in}, in, out, bias) == expected);
  CHECK_THROWS_WITH(P::linear_flops(Sizes{2, 5}, 4, 3, true), Catch::Contains("must be in_features"));
}

TEST_CASE("conv2d FLOPs follow the output size with padding, stride, dilation and groups", "[points=15][flops]") {
  // Conv2d(3, 16, 3) on one 32 x 32 image: 16 x 30 x 30 outputs, 27 taps each.
  CHECK(P::conv2d_flops(conv_shape({1, 3, 32, 32}, 16, 3)) == 792'000);
  // Padding 1 keeps 32 x 32: 16 x 32 x 32 x 55.
  CHECK(P::conv2d_flops(conv_shape({1, 3, 32, 32}, 16, 3, 1, 1)) == 901'120);
  // Stride 2 with padding 1: 16 x 16 positions.
  CHECK(P::conv2d_flops(conv_shape({1, 3, 32, 32}, 16, 3, 2, 1)) == 225'280);
  // ResNet's stem, Conv2d(3, 64, 7, stride 2, padding 3) on 224: 112 x 112, 147 taps, no bias.
  CHECK(P::conv2d_flops(conv_shape({1, 3, 224, 224}, 64, 7, 2, 3, 1, 1, false)) == 64LL * 112 * 112 * 294);
  // Depthwise (groups = channels): each output reads one channel's 9 taps.
  CHECK(P::conv2d_flops(conv_shape({2, 8, 10, 10}, 8, 3, 1, 1, 1, 8)) == 2LL * 8 * 10 * 10 * 19);
  // Dilation 2 on 7 x 7: the kernel spans 5, 3 x 3 positions.
  CHECK(P::conv2d_flops(conv_shape({1, 1, 7, 7}, 1, 3, 1, 0, 2, 1, false)) == 9 * 18);
  // Rectangular kernels and strides, drawn.
  P::Conv2dShape shape = conv_shape({random_int(1, 4), 6, random_int(9, 40), random_int(9, 40)}, 4, 3);
  shape.kernel_size = {random_int(1, 4), random_int(1, 4)};
  shape.stride = {random_int(1, 3), random_int(1, 3)};
  shape.padding = {random_int(0, 2), random_int(0, 2)};
  shape.dilation = {random_int(1, 2), random_int(1, 2)};
  shape.groups = random_int(0, 1) == 1 ? 2 : 1;
  shape.bias = random_int(0, 1) == 1;
  CHECK(P::conv2d_flops(shape) == conv_oracle(shape));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: timing (latency_statistics.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("percentile sorts the samples and interpolates between ranks", "[points=10][latency]") {
  CHECK(P::percentile({5, 1, 3}, 50) == Approx(3));        // sorted 1, 3, 5: the middle
  CHECK(P::percentile({4, 1, 3, 2}, 50) == Approx(2.5));   // between 2 and 3
  CHECK(P::percentile({1, 2, 3, 4}, 90) == Approx(3.7));   // position 2.7
  CHECK(P::percentile({9, 7, 8}, 0) == Approx(7));
  CHECK(P::percentile({9, 7, 8}, 100) == Approx(9));
  CHECK(P::percentile({2.5}, 99) == Approx(2.5));
  const std::vector<double> samples = drawn_samples(random_int(5, 40));
  for (double q : {10.0, 50.0, 90.0, 99.0}) {
    INFO("q = " << q);
    CHECK(P::percentile(samples, q) == Approx(percentile_oracle(samples, q)).epsilon(1e-12));
  }
}

TEST_CASE("summarize_latencies reports count, mean, extremes and percentiles", "[points=8][latency]") {
  const P::LatencyStats hand = P::summarize_latencies({3, 1, 2, 10});
  CHECK(hand.count == 4);
  CHECK(hand.mean_ms == Approx(4));
  CHECK(hand.min_ms == Approx(1));
  CHECK(hand.max_ms == Approx(10));
  CHECK(hand.median_ms == Approx(2.5));  // one slow outlier moves the mean, not the median
  CHECK(hand.p90_ms == Approx(7.9));     // position 2.7 between 3 and 10
  const std::vector<double> samples = drawn_samples(random_int(10, 60));
  const P::LatencyStats stats = P::summarize_latencies(samples);
  double sum = 0;
  for (double s : samples) sum += s;
  CHECK(stats.count == static_cast<int64_t>(samples.size()));
  CHECK(stats.mean_ms == Approx(sum / samples.size()));
  CHECK(stats.min_ms == Approx(*std::min_element(samples.begin(), samples.end())));
  CHECK(stats.max_ms == Approx(*std::max_element(samples.begin(), samples.end())));
  CHECK(stats.median_ms == Approx(percentile_oracle(samples, 50)));
  CHECK(stats.p10_ms == Approx(percentile_oracle(samples, 10)));
  CHECK(stats.p90_ms == Approx(percentile_oracle(samples, 90)));
  CHECK(stats.p99_ms == Approx(percentile_oracle(samples, 99)));
}

TEST_CASE("measure_latency warms up, then times each call", "[points=4][latency]") {
  int calls = 0;
  const int64_t warmup = random_int(0, 5), iterations = random_int(3, 12);
  const P::LatencyStats stats = P::measure_latency([&] { ++calls; }, warmup, iterations);
  CHECK(calls == warmup + iterations);
  CHECK(stats.count == iterations);
  CHECK(stats.min_ms >= 0);
  CHECK(stats.min_ms <= stats.median_ms);
  CHECK(stats.median_ms <= stats.max_ms);
  CHECK_THROWS_WITH(P::measure_latency([] {}, 0, 0), Catch::Contains("iterations must be at least 1"));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: this machine's peak (machine_measurements.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("the peak-FLOPs loop runs every chain for every step", "[points=15][machine]") {
  // Few enough steps that the chains have not yet settled at their fixed point (1.0): the
  // checksum depends on how many steps ran. Every instruction set this CPU runs, on 1 and 2 threads.
  const int64_t steps = random_int(1000, 3000);
  for (const P::PeakIsa isa : P::supported_peak_isas()) {
    // With FMA the multiply-add is rounded once (std::fma), without it twice.
    const bool fused = isa != P::PeakIsa::kSse;
    double expected = 0;
    for (int64_t j = 0; j < P::peak_chains(isa); ++j) {
      float acc = static_cast<float>(j) * P::kPeakStart;
      for (int64_t step = 0; step < steps; ++step)
        acc = fused ? std::fma(acc, P::kPeakMultiplier, P::kPeakAddend) : acc * P::kPeakMultiplier + P::kPeakAddend;
      expected += acc;
    }
    for (const int64_t threads : {int64_t{1}, int64_t{2}}) {
      INFO(P::peak_isa_name(isa) << " on " << threads << " thread(s), " << P::peak_chains(isa) << " chains, " << steps
                                 << " steps");
      const P::PeakFlopsMeasurement peak = P::measure_peak_flops(steps, 2, isa, threads);
      LABEL_CHECKS("what one run counts");
      // a multiply and an add per chain per step, on every thread
      CHECK(peak.flops == 2 * P::peak_chains(isa) * steps * threads);
      CHECK(peak.seconds > 0);
      CHECK(peak.gflops() > 0);
      LABEL_CHECKS("the chains' checksum");
      CHECK(peak.checksum == Approx(expected).epsilon(1e-6));
    }
  }
}

TEST_CASE("the triad reads two arrays and writes one", "[points=13][machine]") {
  const int64_t elements = random_int(50'000, 200'000);
  const P::BandwidthMeasurement triad = P::measure_triad_bandwidth(elements, 2);
  CHECK(triad.bytes == elements * 12);  // b and c read, a written: 3 floats of 4 bytes per element
  CHECK(triad.seconds > 0);
  CHECK(triad.gb_per_s() > 0);
  double expected = 0;  // a[i] = (i % 7) + 0.5 (i % 3), exact in float
  for (int64_t i = 0; i < elements; ++i) expected += static_cast<double>(i % 7) + 0.5 * static_cast<double>(i % 3);
  CHECK(triad.checksum == Approx(expected).epsilon(1e-12));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: the roofline (machine_measurements.cpp, then the given plot)
// ---------------------------------------------------------------------------------------------

TEST_CASE("arithmetic intensity and the roofline bound", "[points=10][roofline]") {
  // Linear(1000, 500) at batch 1: 1 MFLOP over 2 MB of weights.
  CHECK(P::arithmetic_intensity(1e6, 2e6) == Approx(0.5));
  CHECK(P::arithmetic_intensity(32e6, 2e6) == Approx(16));
  const double peak = static_cast<double>(random_int(20, 200)), bandwidth = static_cast<double>(random_int(5, 40));
  const double ridge = peak / bandwidth;
  CHECK(P::roofline_attainable(ridge / 4, peak, bandwidth) == Approx(peak / 4));  // memory-bound
  CHECK(P::roofline_attainable(ridge, peak, bandwidth) == Approx(peak));          // the ridge itself
  CHECK(P::roofline_attainable(ridge * 8, peak, bandwidth) == Approx(peak));      // compute-bound
  CHECK(P::roofline_attainable(0, peak, bandwidth) == Approx(0));
  CHECK_THROWS_WITH(P::arithmetic_intensity(1, 0), Catch::Contains("bytes must be positive"));
  // The given plot puts the learner's kernels under the learner's roof.
  const std::vector<P::RooflinePoint> points = P::measure_kernel_points(0, 1);
  REQUIRE(points.size() == 3);
  CHECK(points[0].intensity == Approx(2.0 * 256 / 12));  // matmul 256: 2 n^3 / (3 n^2 x 4 B)
  CHECK(points[2].intensity == Approx(1.0 / 12));        // add: 1 FLOP per 12 bytes
  const std::string path = "roofline_test.svg";
  P::save_roofline_svg(path, peak, bandwidth, points);
  std::ifstream file(path);
  std::stringstream svg;
  svg << file.rdbuf();
  CHECK(svg.str().find("<svg") != std::string::npos);
  CHECK(svg.str().find("matmul 256") != std::string::npos);
  std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------------------
// Section 6: a whole model, layer by layer (the given profiler over the learner's counts)
// ---------------------------------------------------------------------------------------------

TEST_CASE("the layer profile of a small CNN", "[points=15][profile]") {
  const int64_t channels = random_int(2, 6), size = 2 * random_int(4, 8), batch = random_int(1, 4);
  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, channels, 3).padding(1)),
                              torch::nn::ReLU(), torch::nn::MaxPool2d(2), torch::nn::Flatten(),
                              torch::nn::Linear(channels * size * size / 4, 10), torch::nn::Sigmoid());
  const torch::Tensor input = tinytorch::testing::random_tensor({batch, 1, size, size});
  const std::vector<P::LayerProfile> rows = P::profile_layers(*model, input, 1, 3);
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].type == "Conv2d");
  CHECK(rows[0].parameters == channels * 9 + channels);
  CHECK(rows[0].flops == conv_oracle(conv_shape({batch, 1, size, size}, channels, 3, 1, 1)));
  CHECK(rows[0].output_sizes == Sizes{batch, channels, size, size});
  CHECK(rows[0].activation_bytes == batch * channels * size * size * 4);
  CHECK(rows[0].peak_bytes >= rows[0].activation_bytes);
  CHECK(rows[0].latency.count == 3);
  CHECK(rows[1].flops == batch * channels * size * size);  // ReLU: one comparison per element
  CHECK(rows[2].flops == batch * channels * size * size);  // MaxPool2d(2): 4 taps per output, a quarter of the outputs
  CHECK(rows[3].flops == 0);                               // Flatten is a view
  const int64_t features = channels * size * size / 4;
  CHECK(rows[4].parameters == features * 10 + 10);
  CHECK(rows[4].flops == batch * 10 * (2 * features + 1));
  CHECK(rows[5].flops == -1);  // Sigmoid: the profiler does not count it and says so
  const std::string table = P::format_profile(rows);
  CHECK(table.find("unknown") != std::string::npos);
  CHECK(table.find("+?") != std::string::npos);  // the total is a lower bound
}
