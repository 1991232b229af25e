// Module 19 (Benchmarking), given code: the benchmark report, shaped like the original course's
// TinyMLPerf report (MLPerf Tiny's single-stream results: a model, a division, the system, and per
// benchmark its latency percentiles, throughput, accuracy, memory and whether the targets were met).
// nlohmann::json writes it (one member per line) and reads it back; the members keep this order:
//
// {
//   "format": "tinytorch-benchmark-report", "version": 1,
//   "suite": "TinyTorch classroom benchmark (MLPerf Tiny shaped, not an official MLPerf result)",
//   "model_name": "digits-mlp-int8", "division": "open", "timestamp": "2026-12-04T14:03:59Z",
//   "system": {"os": "...", "cpu": "...", "cpu_count": 2, "threads": 2, "compiler": "GCC 12.2.0"},
//   "benchmarks": {
//     "digits": {"scenario": "SingleStream", "samples": 100,
//                "latency_ms": {"mean": 0.052, "p50": 0.05, "p90": 0.061, "p99": 0.09},
//                "throughput_per_s": 19230.8, "accuracy": 0.93, "memory_bytes": 2442,
//                "target_accuracy": 0.85, "target_latency_ms": 1.0,
//                "accuracy_met": true, "latency_met": true, "compliant": true, "notes": ""}},
//   "summary": {"total_benchmarks": 1, "compliant_benchmarks": 1, "compliance_rate": 1.0,
//               "overall_compliant": true}
// }
#include <cmath>
#include <ctime>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "tinytorch/errors.h"
#include "tinytorch/parallel.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// ---- Metrics ----

BenchmarkMetrics BenchmarkMetrics::from_measurement(const std::string& name, const Measurement& latency,
                                                    double accuracy, int64_t memory_bytes, int64_t batch_size) {
  TT_CHECK(batch_size >= 1, "BenchmarkMetrics::from_measurement: batch_size must be at least 1, got ", batch_size);
  TT_CHECK(std::isnan(accuracy) || (accuracy >= 0 && accuracy <= 1), "BenchmarkMetrics::from_measurement: accuracy ",
           accuracy, " is not a fraction in [0, 1] (pass 0.93 for 93%)");
  BenchmarkMetrics metrics;
  metrics.name = name;
  metrics.samples = latency.runs();
  metrics.latency_mean_ms = latency.mean() * 1e3;
  metrics.latency_p50_ms = nearest_rank_percentile(latency.times(), 50) * 1e3;
  metrics.latency_p90_ms = nearest_rank_percentile(latency.times(), 90) * 1e3;
  metrics.latency_p99_ms = nearest_rank_percentile(latency.times(), 99) * 1e3;
  metrics.throughput_per_s = latency.mean() > 0 ? static_cast<double>(batch_size) / latency.mean() : 0.0;
  metrics.accuracy = accuracy;
  metrics.memory_bytes = memory_bytes;
  return metrics;
}

bool BenchmarkMetrics::accuracy_met() const {
  if (std::isnan(target_accuracy)) return true;
  return !std::isnan(accuracy) && accuracy >= target_accuracy;
}

bool BenchmarkMetrics::latency_met() const {
  return std::isnan(target_latency_ms) || latency_p90_ms <= target_latency_ms;
}

// ---- Writing ----

namespace {

constexpr const char* kFormat = "tinytorch-benchmark-report";
constexpr int kVersion = 1;

// ordered_json keeps the members in the order written, so the report reads top-down and the
// benchmarks come back in their order.
using Json = nlohmann::ordered_json;

// JSON has no NaN: an unmet or missing figure is null.
Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

}  // namespace

std::string BenchmarkReport::to_json() const {
  Json benchmark_objects = Json::object();
  int64_t compliant = 0;
  for (const BenchmarkMetrics& b : benchmarks) {
    compliant += b.compliant();
    benchmark_objects[b.name] = {
        {"scenario", b.scenario},
        {"samples", b.samples},
        {"latency_ms",
         {{"mean", number(b.latency_mean_ms)}, {"p50", number(b.latency_p50_ms)}, {"p90", number(b.latency_p90_ms)},
          {"p99", number(b.latency_p99_ms)}}},
        {"throughput_per_s", number(b.throughput_per_s)},
        {"accuracy", number(b.accuracy)},
        {"memory_bytes", b.memory_bytes},
        {"target_accuracy", number(b.target_accuracy)},
        {"target_latency_ms", number(b.target_latency_ms)},
        {"accuracy_met", b.accuracy_met()},
        {"latency_met", b.latency_met()},
        {"compliant", b.compliant()},
        {"notes", b.notes}};
  }
  const int64_t total = static_cast<int64_t>(benchmarks.size());
  const Json report = {
      {"format", kFormat},
      {"version", kVersion},
      {"suite", "TinyTorch classroom benchmark (MLPerf Tiny shaped, not an official MLPerf result)"},
      {"model_name", model_name},
      {"division", division},
      {"timestamp", timestamp.empty() ? utc_timestamp() : timestamp},
      {"system",
       {{"os", system.os}, {"cpu", system.cpu}, {"cpu_count", system.cpu_count}, {"threads", system.threads},
        {"compiler", system.compiler}}},
      {"benchmarks", benchmark_objects},
      {"summary",
       {{"total_benchmarks", total},
        {"compliant_benchmarks", compliant},
        {"compliance_rate", total == 0 ? 0.0 : static_cast<double>(compliant) / static_cast<double>(total)},
        {"overall_compliant", total > 0 && compliant == total}}}};
  // A CPU name or a note with a stray byte that is not UTF-8 is written as U+FFFD instead of making
  // dump() throw (its default, type_error 316).
  return report.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void BenchmarkReport::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  out << to_json();
  out.close();
  TT_CHECK(out.good(), "BenchmarkReport::save: could not write '", path,
           "'; check that its directory exists and is writable");
}

// ---- Reading ----

namespace {

// Typed access with errors that name the field and what it should be.
const Json& field(const Json& object, const std::string& key, const std::string& where) {
  const auto value = object.find(key);
  TT_CHECK(value != object.end(), "BenchmarkReport: ", where, " has no \"", key, "\"; add it (see to_json's layout)");
  return *value;
}

std::string string_field(const Json& object, const std::string& key, const std::string& where) {
  const Json& value = field(object, key, where);
  TT_CHECK(value.is_string(), "BenchmarkReport: ", where, ".", key, " must be a string");
  return value.get<std::string>();
}

// A number, or null (NaN) where `nullable`.
double number_field(const Json& object, const std::string& key, const std::string& where, bool nullable = false) {
  const Json& value = field(object, key, where);
  if (nullable && value.is_null()) return std::numeric_limits<double>::quiet_NaN();
  TT_CHECK(value.is_number(), "BenchmarkReport: ", where, ".", key, " must be a number", nullable ? " or null" : "");
  return value.get<double>();
}

int64_t integer_field(const Json& object, const std::string& key, const std::string& where) {
  const double value = number_field(object, key, where);
  TT_CHECK(value == std::floor(value) && std::abs(value) < 9.0e15, "BenchmarkReport: ", where, ".", key,
           " must be a whole number, got ", value);
  return static_cast<int64_t>(value);
}

const Json& object_field(const Json& object, const std::string& key, const std::string& where) {
  const Json& value = field(object, key, where);
  TT_CHECK(value.is_object(), "BenchmarkReport: ", where, ".", key, " must be an object");
  return value;
}

// The parsed document; nlohmann's message names the line and column of a syntax error.
Json parse_report(const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& error) {
    throw Error(detail::str("BenchmarkReport: malformed JSON: ", error.what()));
  }
}

}  // namespace

BenchmarkReport BenchmarkReport::from_json(const std::string& text) {
  const Json root = parse_report(text);
  TT_CHECK(root.is_object(), "BenchmarkReport: the document must be a JSON object");
  const std::string format = string_field(root, "format", "the report");
  TT_CHECK(format == kFormat, "BenchmarkReport: format is \"", format, "\", expected \"", kFormat, "\"");
  const int64_t version = integer_field(root, "version", "the report");
  TT_CHECK(version == kVersion, "BenchmarkReport: version ", version, " is not supported (this reader knows ",
           kVersion, ")");
  BenchmarkReport report;
  report.model_name = string_field(root, "model_name", "the report");
  report.division = string_field(root, "division", "the report");
  TT_CHECK(report.division == "closed" || report.division == "open", "BenchmarkReport: division is \"",
           report.division, "\"; MLPerf's divisions are \"closed\" and \"open\"");
  report.timestamp = string_field(root, "timestamp", "the report");
  const Json& system = object_field(root, "system", "the report");
  report.system.os = string_field(system, "os", "system");
  report.system.cpu = string_field(system, "cpu", "system");
  report.system.cpu_count = integer_field(system, "cpu_count", "system");
  report.system.threads = integer_field(system, "threads", "system");
  report.system.compiler = string_field(system, "compiler", "system");
  const Json& benchmarks = object_field(root, "benchmarks", "the report");
  for (const auto& member : benchmarks.items()) {
    const std::string where = "benchmarks." + member.key();
    const Json& b = member.value();
    TT_CHECK(b.is_object(), "BenchmarkReport: ", where, " must be an object");
    BenchmarkMetrics metrics;
    metrics.name = member.key();
    metrics.scenario = string_field(b, "scenario", where);
    metrics.samples = integer_field(b, "samples", where);
    const Json& latency = object_field(b, "latency_ms", where);
    metrics.latency_mean_ms = number_field(latency, "mean", where + ".latency_ms");
    metrics.latency_p50_ms = number_field(latency, "p50", where + ".latency_ms");
    metrics.latency_p90_ms = number_field(latency, "p90", where + ".latency_ms");
    metrics.latency_p99_ms = number_field(latency, "p99", where + ".latency_ms");
    metrics.throughput_per_s = number_field(b, "throughput_per_s", where);
    metrics.accuracy = number_field(b, "accuracy", where, true);
    metrics.memory_bytes = integer_field(b, "memory_bytes", where);
    metrics.target_accuracy = number_field(b, "target_accuracy", where, true);
    metrics.target_latency_ms = number_field(b, "target_latency_ms", where, true);
    if (const auto notes = b.find("notes"); notes != b.end()) {
      TT_CHECK(notes->is_string(), "BenchmarkReport: ", where, ".notes must be a string");
      metrics.notes = notes->get<std::string>();
    }
    report.benchmarks.push_back(std::move(metrics));
  }
  return report;
}

BenchmarkReport BenchmarkReport::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TT_CHECK(in.good(), "BenchmarkReport::load: cannot open '", path, "'; check the path (BenchmarkReport::save wrote it?)");
  std::stringstream text;
  text << in.rdbuf();
  return from_json(text.str());
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
