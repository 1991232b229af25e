// Module 14 (Profiling), lesson sections "4. This machine's peak" and "5. The roofline".
// Two loops that show what this CPU can do at best: a FLOP-bound loop that never touches memory
// (compiled once per vector instruction set this CPU runs, and run on 1 thread and on all of them),
// and a memory-bound loop that does almost no arithmetic. Every other kernel lies under the roofs
// these draw.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
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

// On the given functions that run the peak loop for one instruction set: GCC and Clang inline the
// loop into them (flatten) and compile it with their target's instructions; GCC also at -O3 whatever
// the build's level, so that the loop over the chains is unrolled and every chain stays in a register
// (module 17, section 5: the same reason as TT_UNROLL). Clang unrolls such loops at -O2 on its own.
#if defined(__GNUC__) && !defined(__clang__)
#define TT_PEAK_LOOP flatten, optimize("O3")
#else
#define TT_PEAK_LOOP flatten
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TT_PEAK_X86_CLONES 1
#else
#define TT_PEAK_X86_CLONES 0
#endif

// TODO: peak_chains_loop<kChains>(steps, multiplier, addend) -> the sum (as double) of kChains
//   independent float chains after `steps` steps (section 4): chain j starts at j * kPeakStart, and
//   every step advances every chain once by one multiply-add, acc = acc * multiplier + addend. Keep
//   the chains in a local array (the compiler holds them in vector registers) and touch no other
//   memory. The given code below compiles this loop once per instruction set, with kChains =
//   peak_chains(isa), and runs it on every thread.
template <int64_t kChains>
inline double peak_chains_loop(int64_t steps, float multiplier, float addend) {
  // BEGIN SOLUTION name="tinytorch::profiling::peak_chains_loop" lesson="4. This machine's peak"
  float acc[kChains];
  for (int64_t j = 0; j < kChains; ++j) acc[j] = static_cast<float>(j) * kPeakStart;
  for (int64_t step = 0; step < steps; ++step) {
    // Independent chains: each multiply-add waits only for its own chain's previous one.
    for (int64_t j = 0; j < kChains; ++j) acc[j] = acc[j] * multiplier + addend;
  }
  double sum = 0;
  for (int64_t j = 0; j < kChains; ++j) sum += acc[j];
  return sum;
  // END SOLUTION
}

namespace {

// The build's baseline instructions: SSE2 on x86-64 (4 floats a register, no FMA).
__attribute__((TT_PEAK_LOOP)) double peak_loop_sse(int64_t steps, float multiplier, float addend) {
  return peak_chains_loop<kPeakRegisters * 4>(steps, multiplier, addend);
}
#if TT_PEAK_X86_CLONES
__attribute__((target("avx2,fma"), TT_PEAK_LOOP)) double peak_loop_avx2(int64_t steps, float multiplier,
                                                                         float addend) {
  return peak_chains_loop<kPeakRegisters * 8>(steps, multiplier, addend);
}
__attribute__((target("avx512f,fma"), TT_PEAK_LOOP)) double peak_loop_avx512(int64_t steps, float multiplier,
                                                                              float addend) {
  return peak_chains_loop<kPeakRegisters * 16>(steps, multiplier, addend);
}
#endif

double peak_loop(PeakIsa isa, int64_t steps, float multiplier, float addend) {
  switch (isa) {
#if TT_PEAK_X86_CLONES
    case PeakIsa::kAvx2Fma:
      return peak_loop_avx2(steps, multiplier, addend);
    case PeakIsa::kAvx512Fma:
      return peak_loop_avx512(steps, multiplier, addend);
#endif
    default:
      return peak_loop_sse(steps, multiplier, addend);
  }
}

// The loop of `isa` on `threads` threads at once (this one and threads - 1 more); returns this
// thread's checksum. Every thread's result is kept and compared: a result nobody reads would let the
// compiler delete that thread's loop.
double run_peak_loop(PeakIsa isa, int64_t threads, int64_t steps, float multiplier, float addend) {
  std::vector<double> checksums(static_cast<size_t>(threads));
  std::vector<std::thread> others;
  for (size_t t = 1; t < checksums.size(); ++t)
    others.emplace_back([&, t] { checksums[t] = peak_loop(isa, steps, multiplier, addend); });
  checksums[0] = peak_loop(isa, steps, multiplier, addend);
  for (std::thread& other : others) other.join();
  for (const double checksum : checksums)
    TT_CHECK(checksum == checksums[0], "measure_peak_flops: two threads ran the same chains to different sums (",
             checksums[0], " and ", checksum, ")");
  return checksums[0];
}

}  // namespace

std::string peak_isa_name(PeakIsa isa) {
  switch (isa) {
    case PeakIsa::kAvx2Fma:
      return "AVX2+FMA";
    case PeakIsa::kAvx512Fma:
      return "AVX-512+FMA";
    default:
#if defined(__x86_64__)
      return "SSE";
#else
      return "baseline";
#endif
  }
}

int64_t peak_isa_lanes(PeakIsa isa) {
  switch (isa) {
    case PeakIsa::kAvx2Fma:
      return 8;
    case PeakIsa::kAvx512Fma:
      return 16;
    default:
      return 4;
  }
}

int64_t peak_chains(PeakIsa isa) { return kPeakRegisters * peak_isa_lanes(isa); }

std::vector<PeakIsa> supported_peak_isas() {
  std::vector<PeakIsa> isas{PeakIsa::kSse};
#if TT_PEAK_X86_CLONES
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) isas.push_back(PeakIsa::kAvx2Fma);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) isas.push_back(PeakIsa::kAvx512Fma);
#endif
  return isas;
}

// TODO: measure_peak_flops(steps, repeats, isa, threads) -> PeakFlopsMeasurement of the loop above
//   (section 4), run by the given run_peak_loop for `isa` on `threads` threads at once. seconds: the
//   fastest of `repeats` timed runs (seconds_since); flops: the FLOPs of one run, every chain of every
//   thread; checksum: what run_peak_loop returns (one thread's sum of chains) after a run.
PeakFlopsMeasurement measure_peak_flops(int64_t steps, int64_t repeats, PeakIsa isa, int64_t threads) {
  TT_CHECK(steps > 0 && repeats > 0, "measure_peak_flops: steps and repeats must be positive, got ", steps, " and ",
           repeats);
  TT_CHECK(threads > 0, "measure_peak_flops: threads must be positive, got ", threads);
  const std::vector<PeakIsa> supported = supported_peak_isas();
  TT_CHECK(std::find(supported.begin(), supported.end(), isa) != supported.end(), "measure_peak_flops: ",
           peak_isa_name(isa), " is not supported by this build or CPU; supported_peak_isas() lists the ones that are");
  const float multiplier = opaque_multiplier;
  const float addend = opaque_addend;
  PeakFlopsMeasurement result;
  result.isa = isa;
  result.threads = threads;
  // BEGIN SOLUTION name="tinytorch::profiling::measure_peak_flops" lesson="4. This machine's peak"
  result.flops = 2 * peak_chains(isa) * steps * threads;  // a multiply and an add per chain per step
  result.seconds = -1;
  for (int64_t run = 0; run < repeats; ++run) {
    const auto start = std::chrono::steady_clock::now();
    result.checksum = run_peak_loop(isa, threads, steps, multiplier, addend);
    const double seconds = seconds_since(start);
    if (result.seconds < 0 || seconds < result.seconds) result.seconds = seconds;
  }
  // END SOLUTION
  return result;
}

std::vector<PeakFlopsMeasurement> measure_peak_roofs(int64_t steps, int64_t repeats, int64_t threads) {
  if (threads <= 0) threads = std::max<int64_t>(1, std::thread::hardware_concurrency());
  std::vector<PeakFlopsMeasurement> roofs;
  for (const PeakIsa isa : supported_peak_isas()) {
    roofs.push_back(measure_peak_flops(steps, repeats, isa, 1));
    if (threads > 1) roofs.push_back(measure_peak_flops(steps, repeats, isa, threads));
  }
  return roofs;
}

std::string format_peak_roofs(const std::vector<PeakFlopsMeasurement>& roofs) {
  std::string text;
  char line[160];
  for (const PeakFlopsMeasurement& roof : roofs) {
    std::snprintf(line, sizeof line, "  %-12s %2lld thread%s %8.1f GFLOP/s  (%lld chains a thread)\n",
                  peak_isa_name(roof.isa).c_str(), static_cast<long long>(roof.threads), roof.threads == 1 ? " " : "s",
                  roof.gflops(), static_cast<long long>(peak_chains(roof.isa)));
    text += line;
  }
  return text;
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
