// Module 20 (Capstone), the given half: the events' names, the machine's description, and the
// submission as JSON in the shape of curriculum/20_capstone/submission.schema.json.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tinytorch/errors.h"
#include "tinytorch/olympics.h"
#include "tinytorch/parallel.h"
#include "tinytorch/utils/json.h"

namespace tinytorch {
namespace olympics {

const std::vector<Event>& all_events() {
  static const std::vector<Event> events = {Event::kLatency, Event::kMemory, Event::kAccuracy, Event::kAllRound};
  return events;
}

std::string event_name(Event event) {
  switch (event) {
    case Event::kLatency: return "latency";
    case Event::kMemory: return "memory";
    case Event::kAccuracy: return "accuracy";
    case Event::kAllRound: return "all_round";
  }
  return "unknown";
}

Event event_from_name(const std::string& name) {
  for (Event event : all_events())
    if (event_name(event) == name) return event;
  TT_CHECK(false, "olympics: there is no event \"", name, "\"; the events are latency, memory, accuracy and all_round");
  return Event::kLatency;
}

bool lower_is_better(Event event) { return event == Event::kLatency || event == Event::kMemory; }

SystemInfo system_info() { return SystemInfo::current(); }

namespace {

// Full precision, and JSON has no NaN or infinity: those are written as null (the schema rejects them).
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string strings(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + utils::json_quoted(values[i]);
  return out + "]";
}

std::string metrics_json(const ModelMetrics& m, const std::string& indent) {
  std::ostringstream out;
  out << "{\n"
      << indent << "  \"accuracy\": " << number(m.accuracy) << ",\n"
      << indent << "  \"latency_ms_median\": " << number(m.latency_ms_median) << ",\n"
      << indent << "  \"latency_ms_p90\": " << number(m.latency_ms_p90) << ",\n"
      << indent << "  \"latency_ms_mean\": " << number(m.latency_ms_mean) << ",\n"
      << indent << "  \"latency_runs\": " << m.latency_runs << ",\n"
      << indent << "  \"memory_bytes\": " << m.memory_bytes << ",\n"
      << indent << "  \"parameter_count\": " << m.parameter_count << "\n"
      << indent << "}";
  return out.str();
}

}  // namespace

std::string submission_json(const Submission& s) {
  std::ostringstream out;
  out << "{\n"
      << "  \"olympics_version\": \"1.0\",\n"
      << "  \"submission_type\": \"torch_olympics\",\n"
      << "  \"timestamp\": " << utils::json_quoted(s.timestamp) << ",\n"
      << "  \"learner\": " << utils::json_quoted(s.learner) << ",\n"
      << "  \"model\": {\"description\": " << utils::json_quoted(s.model_description)
      << ", \"techniques\": " << strings(s.techniques) << "},\n"
      << "  \"events\": " << strings(s.events) << ",\n"
      << "  \"claimed_metrics\": {\n"
      << "    \"baseline\": " << metrics_json(s.baseline, "    ") << ",\n"
      << "    \"optimized\": " << metrics_json(s.optimized, "    ") << "\n"
      << "  },\n"
      << "  \"improvements\": {\"speedup\": " << number(s.improvements.speedup)
      << ", \"compression_ratio\": " << number(s.improvements.compression_ratio)
      << ", \"accuracy_delta\": " << number(s.improvements.accuracy_delta) << "},\n"
      << "  \"system_info\": {\"cpu\": " << utils::json_quoted(s.system.cpu) << ", \"compiler\": " << utils::json_quoted(s.system.compiler)
      << ", \"os\": " << utils::json_quoted(s.system.os) << ", \"threads\": " << s.system.threads << "}\n"
      << "}\n";
  return out.str();
}

void save_submission(const Submission& submission, const std::string& path) {
  std::ofstream out(path);
  out << submission_json(submission);
  TT_CHECK(static_cast<bool>(out), "save_submission: cannot write ", path,
           ": check that its folder exists and is writable");
}

}  // namespace olympics
}  // namespace tinytorch
