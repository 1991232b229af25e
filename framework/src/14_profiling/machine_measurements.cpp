// Module 14 (Profiling), lesson sections "4. This machine's peak" and "5. The roofline".
// Two loops that show what this CPU can do at best, compiled with the flags every kernel of the
// framework gets: a FLOP-bound loop that never touches memory, and a memory-bound loop that does
// almost no arithmetic. Every other kernel lies under the roofline these two draw.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/profiling.h"

namespace tinytorch {
namespace profiling {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Read through volatile, so that the compiler cannot fold the whole loop at compile time.
volatile float opaque_multiplier = kPeakMultiplier;
volatile float opaque_addend = kPeakAddend;
volatile float opaque_triad_scalar = kTriadScalar;

}  // namespace

// TODO: measure_peak_flops(steps, repeats) -> PeakFlopsMeasurement of the FLOP-bound loop of
//   section 4: kPeakAccumulators independent float chains, chain j starting at j * kPeakStart, each
//   advanced `steps` times by one multiply-add with the multiplier and addend read above.
//   seconds: the fastest of `repeats` timed runs (seconds_since); flops: the FLOPs of one run;
//   checksum: the sum of the chains (as double) after a run, so a skipped step shows.
PeakFlopsMeasurement measure_peak_flops(int64_t steps, int64_t repeats) {
  TT_CHECK(steps > 0 && repeats > 0, "measure_peak_flops: steps and repeats must be positive, got ", steps, " and ",
           repeats);
  const float multiplier = opaque_multiplier;
  const float addend = opaque_addend;
  PeakFlopsMeasurement result;
  // BEGIN SOLUTION name="tinytorch::profiling::measure_peak_flops" lesson="4. This machine's peak"
  result.flops = 2 * kPeakAccumulators * steps;
  result.seconds = -1;
  for (int64_t run = 0; run < repeats; ++run) {
    float acc[kPeakAccumulators];
    for (int64_t j = 0; j < kPeakAccumulators; ++j) acc[j] = static_cast<float>(j) * kPeakStart;
    const auto start = std::chrono::steady_clock::now();
    for (int64_t step = 0; step < steps; ++step) {
      // Independent chains: each multiply-add waits only for its own chain's previous one.
      for (int64_t j = 0; j < kPeakAccumulators; ++j) acc[j] = acc[j] * multiplier + addend;
    }
    const double seconds = seconds_since(start);
    if (result.seconds < 0 || seconds < result.seconds) result.seconds = seconds;
    double sum = 0;
    for (int64_t j = 0; j < kPeakAccumulators; ++j) sum += acc[j];
    result.checksum = sum;
  }
  // END SOLUTION
  return result;
}

// TODO: measure_triad_bandwidth(elements, repeats) -> BandwidthMeasurement of STREAM's triad
//   a[i] = b[i] + scalar * c[i] over the arrays above (section 4). seconds: the fastest of `repeats`
//   timed runs; bytes: what one run moves between memory and the core, reads and writes (4 bytes a
//   float); checksum: the sum of a (as double) after the last run.
BandwidthMeasurement measure_triad_bandwidth(int64_t elements, int64_t repeats) {
  TT_CHECK(elements > 0 && repeats > 0, "measure_triad_bandwidth: elements and repeats must be positive, got ",
           elements, " and ", repeats);
  // Written once before timing: the first touch of a page costs a page fault, not bandwidth.
  std::vector<float> a(static_cast<size_t>(elements), 0.0f), b(a.size()), c(a.size());
  for (int64_t i = 0; i < elements; ++i) {
    b[static_cast<size_t>(i)] = static_cast<float>(i % 7);
    c[static_cast<size_t>(i)] = static_cast<float>(i % 3);
  }
  const float scalar = opaque_triad_scalar;
  BandwidthMeasurement result;
  // BEGIN SOLUTION name="tinytorch::profiling::measure_triad_bandwidth" lesson="4. This machine's peak"
  float* out = a.data();
  const float* first = b.data();
  const float* second = c.data();
  result.bytes = 3 * elements * static_cast<int64_t>(sizeof(float));  // read b and c, write a
  result.seconds = -1;
  for (int64_t run = 0; run < repeats; ++run) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < elements; ++i) out[i] = first[i] + scalar * second[i];
    const double seconds = seconds_since(start);
    if (result.seconds < 0 || seconds < result.seconds) result.seconds = seconds;
  }
  double sum = 0;
  for (int64_t i = 0; i < elements; ++i) sum += out[i];
  result.checksum = sum;
  // END SOLUTION
  return result;
}

// TODO: arithmetic_intensity(flops, bytes) -> FLOPs per byte moved, in FLOP/B (section 5).
double arithmetic_intensity(double flops, double bytes) {
  TT_CHECK(bytes > 0, "arithmetic_intensity: bytes must be positive, got ", bytes,
           "; count the bytes the kernel reads and writes");
  TT_CHECK(flops >= 0, "arithmetic_intensity: flops must not be negative, got ", flops);
  // BEGIN SOLUTION name="tinytorch::profiling::arithmetic_intensity" lesson="5. The roofline"
  return flops / bytes;
  // END SOLUTION
}

// TODO: roofline_attainable(intensity FLOP/B, peak GFLOP/s, bandwidth GB/s) -> the roofline's bound
//   at that intensity, in GFLOP/s (section 5): the most a kernel of that intensity can reach on a
//   machine with this peak and this bandwidth.
double roofline_attainable(double intensity, double peak_gflops, double bandwidth_gb_per_s) {
  TT_CHECK(intensity >= 0 && peak_gflops > 0 && bandwidth_gb_per_s > 0,
           "roofline_attainable: intensity must not be negative and the peak and bandwidth must be positive, got ",
           intensity, ", ", peak_gflops, " and ", bandwidth_gb_per_s);
  // BEGIN SOLUTION name="tinytorch::profiling::roofline_attainable" lesson="5. The roofline"
  return std::min(peak_gflops, intensity * bandwidth_gb_per_s);
  // END SOLUTION
}

}  // namespace profiling
}  // namespace tinytorch
