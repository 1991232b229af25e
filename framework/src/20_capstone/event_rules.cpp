// Module 20 (Capstone), lesson section "5. The events and their rules".
#include <cmath>
#include <cstdio>
#include <string>

#include "tinytorch/errors.h"
#include "tinytorch/olympics.h"

namespace tinytorch {
namespace olympics {

namespace detail {
// "accuracy 0.8100 is below the event's minimum 0.8500" (external linkage: the starter does not call it yet)
std::string rule_text(const char* what, double value, const char* relation, double limit) {
  char text[160];
  std::snprintf(text, sizeof text, "%s %.4f %s %.4f", what, value, relation, limit);
  return text;
}
}  // namespace detail
using detail::rule_text;

// TODO: qualifies_event -- the rules of section 5 (constants in olympics.h):
//   latency, memory   entry accuracy >= kMinAccuracy
//   accuracy          entry median latency < kMaxLatencyMs AND entry memory_bytes < kMaxMemoryBytes
//   all_round         entry accuracy >= kMinAccuracy AND entry accuracy >= baseline accuracy - kMaxAccuracyDrop
//   A limit written ">=" is met at the threshold; one written "<" is not. When a rule fails, set
//   reason with rule_text, e.g. rule_text("accuracy", 0.81, "is below the event's minimum", kMinAccuracy),
//   rule_text("median latency (ms)", 120, "is not below the event's limit", kMaxLatencyMs),
//   rule_text("memory (bytes)", ..., "is not below the event's limit", ...),
//   rule_text("accuracy", ..., "is more than one point below the baseline's", baseline accuracy).
//   The first failing rule, in the order above, gives the reason; none: qualifies, reason empty.
Qualification qualifies_event(Event event, const ModelMetrics& entry, const ModelMetrics& baseline) {
  Qualification result;
  // BEGIN SOLUTION name="tinytorch::olympics::qualifies_event" lesson="5. The events and their rules"
  switch (event) {
    case Event::kLatency:
    case Event::kMemory:
    case Event::kAllRound:
      if (!(entry.accuracy >= kMinAccuracy)) {
        result.reason = rule_text("accuracy", entry.accuracy, "is below the event's minimum", kMinAccuracy);
      } else if (event == Event::kAllRound && !(entry.accuracy >= baseline.accuracy - kMaxAccuracyDrop)) {
        result.reason = rule_text("accuracy", entry.accuracy, "is more than one point below the baseline's", baseline.accuracy);
      }
      break;
    case Event::kAccuracy:
      if (!(entry.latency_ms_median < kMaxLatencyMs)) {
        result.reason = rule_text("median latency (ms)", entry.latency_ms_median, "is not below the event's limit",
                                  kMaxLatencyMs);
      } else if (!(entry.memory_bytes < kMaxMemoryBytes)) {
        result.reason = rule_text("memory (bytes)", static_cast<double>(entry.memory_bytes),
                                  "is not below the event's limit", static_cast<double>(kMaxMemoryBytes));
      }
      break;
  }
  result.qualifies = result.reason.empty();
  // END SOLUTION
  return result;
}

// TODO: event_score -- what each event ranks by (section 5): latency, the median latency in ms;
//   memory, memory_bytes; accuracy, the accuracy; all_round, the GEOMETRIC mean of three ratios
//   against the baseline: speed-up (baseline median / entry median), compression ratio (baseline
//   bytes / entry bytes) and accuracy ratio (entry accuracy / baseline accuracy):
//   cbrt(speedup * compression * accuracy ratio). Example: 8x faster, 1x smaller, same accuracy -> 2.
double event_score(Event event, const ModelMetrics& entry, const ModelMetrics& baseline) {
  TT_CHECK(event != Event::kAllRound || (entry.latency_ms_median > 0 && entry.memory_bytes > 0 && baseline.accuracy > 0),
           "event_score: the all_round score needs positive latency, memory and baseline accuracy");
  // BEGIN SOLUTION name="tinytorch::olympics::event_score" lesson="5. The events and their rules"
  switch (event) {
    case Event::kLatency: return entry.latency_ms_median;
    case Event::kMemory: return static_cast<double>(entry.memory_bytes);
    case Event::kAccuracy: return entry.accuracy;
    case Event::kAllRound: {
      const double speedup = baseline.latency_ms_median / entry.latency_ms_median;
      const double compression = static_cast<double>(baseline.memory_bytes) / static_cast<double>(entry.memory_bytes);
      const double accuracy_ratio = entry.accuracy / baseline.accuracy;
      return std::cbrt(speedup * compression * accuracy_ratio);
    }
  }
  return 0;
  // END SOLUTION
}

}  // namespace olympics
}  // namespace tinytorch
