// Module 20 (Capstone), lesson sections "3. Measuring an entry" and "4. Against your baseline".
#include <chrono>
#include <cstdint>
#include <vector>

#include "tinytorch/autograd.h"
#include "tinytorch/errors.h"
#include "tinytorch/olympics.h"
#include "tinytorch/profiling.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace olympics {

// TODO: measure_model -- the figures an entry is judged by, measured as tito measures them (section 3,
//   "Measuring an entry"), images (N, features) and labels (N):
//   - accuracy: the fraction of images whose answer (the class of the largest logit) equals the
//     label, from ONE entry.predict call over all N images;
//   - latency: `warmup` untimed calls, then `runs` calls timed one by one on a monotonic clock, in
//     milliseconds, around predict only; in both, call i predicts image i % N alone (a batch of 1);
//     the median, p90 and mean of the timed samples by module 14's profiling::summarize_latencies,
//     and latency_runs = runs;
//   - memory_bytes and parameter_count: the entry's own.
//   Example: 4 images, labels [0, 1, 2, 3], logits whose argmaxes are [0, 1, 2, 0] -> accuracy 0.75.
ModelMetrics measure_model(const Entry& entry, const Tensor& images, const Tensor& labels, int64_t warmup,
                           int64_t runs) {
  TT_CHECK(static_cast<bool>(entry.predict), "measure_model: the entry has no predict function");
  TT_CHECK(images.dim() == 2 && labels.dim() == 1 && images.size(0) == labels.size(0) && images.size(0) > 0,
           "measure_model: expected images (N, features) and labels (N) with N > 0, but got ", images.sizes(), " and ",
           labels.sizes());
  TT_CHECK(warmup >= 0 && runs > 0, "measure_model: warmup must be >= 0 and runs > 0, got ", warmup, " and ", runs);
  NoGradGuard no_grad;
  ModelMetrics metrics;
  // BEGIN SOLUTION name="tinytorch::olympics::measure_model" lesson="3. Measuring an entry"
  const Tensor answers = entry.predict(images).argmax(1);
  metrics.accuracy = answers.eq(labels).to(kDouble).mean().item<double>();
  const int64_t n = images.size(0);
  for (int64_t i = 0; i < warmup; ++i) entry.predict(images.narrow(0, i % n, 1));
  std::vector<double> samples_ms;
  samples_ms.reserve(static_cast<size_t>(runs));
  for (int64_t i = 0; i < runs; ++i) {
    const Tensor sample = images.narrow(0, i % n, 1);
    const auto start = std::chrono::steady_clock::now();
    entry.predict(sample);
    samples_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  const profiling::LatencyStats stats = profiling::summarize_latencies(samples_ms);
  metrics.latency_ms_median = stats.median_ms;
  metrics.latency_ms_p90 = stats.p90_ms;
  metrics.latency_ms_mean = stats.mean_ms;
  metrics.latency_runs = runs;
  metrics.memory_bytes = entry.memory_bytes;
  metrics.parameter_count = entry.parameter_count;
  // END SOLUTION
  return metrics;
}

// TODO: improvements -- the optimised model against the baseline (section 4), each a ratio that is
//   above 1 when the optimised model is better: speedup = baseline median latency / optimised
//   median latency; compression_ratio = baseline bytes / optimised bytes; accuracy_delta =
//   optimised accuracy - baseline accuracy (a difference, negative when accuracy was lost).
//   Example: baseline 2 ms, 40,000 bytes, 0.90; optimised 0.5 ms, 10,000 bytes, 0.89 ->
//   speedup 4, compression_ratio 4, accuracy_delta -0.01.
Improvements improvements(const ModelMetrics& baseline, const ModelMetrics& optimized) {
  TT_CHECK(baseline.latency_ms_median > 0 && optimized.latency_ms_median > 0,
           "improvements: latencies must be positive (measure both models first), got ", baseline.latency_ms_median,
           " and ", optimized.latency_ms_median);
  TT_CHECK(baseline.memory_bytes > 0 && optimized.memory_bytes > 0,
           "improvements: memory_bytes must be positive, got ", baseline.memory_bytes, " and ", optimized.memory_bytes);
  Improvements result;
  // BEGIN SOLUTION name="tinytorch::olympics::improvements" lesson="4. Against your baseline"
  result.speedup = baseline.latency_ms_median / optimized.latency_ms_median;
  result.compression_ratio = static_cast<double>(baseline.memory_bytes) / static_cast<double>(optimized.memory_bytes);
  result.accuracy_delta = optimized.accuracy - baseline.accuracy;
  // END SOLUTION
  return result;
}

}  // namespace olympics
}  // namespace tinytorch
