#pragma once
// Module 20 (Capstone): the Torch Olympics. A model enters one or more events under fixed rules,
// with its figures measured, and hands in a submission that `tito olympics submit` measures again:
//
//   olympics::Entry base = olympics::make_baseline(train_images, train_labels);      // yours
//   olympics::Entry mine = olympics::make_optimized(train_images, train_labels);     // yours
//   olympics::ModelMetrics b = olympics::measure_model(base, test_images, test_labels);
//   olympics::ModelMetrics m = olympics::measure_model(mine, test_images, test_labels);
//   olympics::Submission s = olympics::build_submission("alice", mine.description, mine.techniques, b, m);
//   olympics::save_submission(s, "submission.json");   // the schema: curriculum/20_capstone/submission.schema.json
//
// The events (the original TinyTorch's Olympics, with its thresholds):
//   latency    lowest median single-sample latency,  accuracy >= kMinAccuracy
//   memory     fewest bytes kept by the model,       accuracy >= kMinAccuracy
//   accuracy   highest accuracy,                     median latency < kMaxLatencyMs and memory < kMaxMemoryBytes
//   all_round  highest geometric mean of speed-up, compression ratio and accuracy ratio against your
//              own baseline, losing at most kMaxAccuracyDrop of accuracy against it
// LibTorch has no counterpart; these live in tinytorch::olympics (torch::olympics through torch.h's
// namespace alias when this header is included).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tinytorch/tensor.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace olympics {

enum class Event { kLatency, kMemory, kAccuracy, kAllRound };

// The four, in this order (a submission lists its events in it).
const std::vector<Event>& all_events();
std::string event_name(Event event);  // "latency", "memory", "accuracy", "all_round"
// The inverse; an unknown name throws, naming the four.
Event event_from_name(const std::string& name);
// How an event ranks: latency and memory, the lowest score first; accuracy and all_round, the highest.
bool lower_is_better(Event event);

// The rules. curriculum/20_capstone/olympics_rules.json holds the same numbers for tito, which
// re-applies them to what it measures.
constexpr double kMinAccuracy = 0.85;
constexpr double kMaxLatencyMs = 100.0;
constexpr int64_t kMaxMemoryBytes = int64_t{10} << 20;  // 10 MiB
constexpr double kMaxAccuracyDrop = 0.01;              // one percentage point, as a fraction

// A model as it enters: what it computes and what it keeps.
struct Entry {
  std::string description;                           // "64-128-10 MLP, int8 QuantizedLinear"
  std::vector<std::string> techniques;               // "quantization", "pruning", ...
  std::function<Tensor(const Tensor&)> predict;      // images (N, 64) -> logits (N, classes)
  int64_t memory_bytes = 0;                          // bytes of weights as stored (QuantizedLinear::memory_bytes, 4 per fp32 parameter)
  int64_t parameter_count = 0;
};

struct ModelMetrics {
  double accuracy = 0;           // fraction of the test samples answered right, in [0, 1]
  double latency_ms_median = 0;  // single-sample latency (one image a call)
  double latency_ms_p90 = 0;
  double latency_ms_mean = 0;
  int64_t latency_runs = 0;      // timed calls behind the three figures above
  int64_t memory_bytes = 0;
  int64_t parameter_count = 0;
};

// Your entries (olympics_entry.cpp): a baseline, and the model you optimised from it. Both train
// on the given images (N, 64) and labels (N) and must be deterministic under torch::manual_seed.
Entry make_baseline(const Tensor& train_images, const Tensor& train_labels);
Entry make_optimized(const Tensor& train_images, const Tensor& train_labels);

// Measures an entry (olympics_metrics.cpp): accuracy over all of images (N, 64) against labels (N);
// single-sample latency: `warmup` untimed calls, then `runs` timed calls, call i reading image
// i % N alone (a (1, 64) slice), summarised with module 14's profiling::summarize_latencies;
// memory and parameters as the entry declares them.
ModelMetrics measure_model(const Entry& entry, const Tensor& images, const Tensor& labels, int64_t warmup = 10,
                           int64_t runs = 100);

// The optimised model against the baseline (olympics_metrics.cpp):
//   speedup = baseline median latency / optimised median latency (> 1: faster)
//   compression_ratio = baseline bytes / optimised bytes         (> 1: smaller)
//   accuracy_delta = optimised accuracy - baseline accuracy      (< 0: less accurate)
struct Improvements {
  double speedup = 1;
  double compression_ratio = 1;
  double accuracy_delta = 0;
};
Improvements improvements(const ModelMetrics& baseline, const ModelMetrics& optimized);

// Whether `entry` may enter `event` under the rules above (event_rules.cpp). A limit is met AT the
// threshold (accuracy exactly 0.85 qualifies; latency exactly 100 ms does not: "below").
// reason: empty when it qualifies; otherwise which rule failed, with the value and the limit,
//   e.g. "accuracy 0.8100 is below the event's minimum 0.8500".
struct Qualification {
  bool qualifies = false;
  std::string reason;
};
Qualification qualifies_event(Event event, const ModelMetrics& entry, const ModelMetrics& baseline);

// The number an event ranks by (event_rules.cpp): latency: median ms; memory: bytes; accuracy: the
// accuracy; all_round: the geometric mean of speedup, compression_ratio and
// (entry accuracy / baseline accuracy).
double event_score(Event event, const ModelMetrics& entry, const ModelMetrics& baseline);

// Where the entry was measured: module 19's SystemInfo (os, cpu, cpu_count, threads, compiler).
using SystemInfo = utils::benchmark::SystemInfo;
SystemInfo system_info();  // given

struct Submission {
  std::string learner;
  std::string model_description;
  std::vector<std::string> techniques;
  ModelMetrics baseline, optimized;
  Improvements improvements;
  std::vector<std::string> events;  // the names of the events `optimized` qualifies for, in all_events() order
  SystemInfo system;
  std::string timestamp;            // UTC, "2026-12-04T14:23:41Z"
};
// Fills a submission (submission.cpp): improvements of optimized over baseline, and every event
// optimized qualifies for; system and timestamp from system_info() and the clock.
Submission build_submission(const std::string& learner, const std::string& model_description,
                            const std::vector<std::string>& techniques, const ModelMetrics& baseline,
                            const ModelMetrics& optimized);

// Given: the submission as JSON in the schema's shape, and written to a file (throws naming the path).
std::string submission_json(const Submission& submission);
void save_submission(const Submission& submission, const std::string& path);

}  // namespace olympics
}  // namespace tinytorch
