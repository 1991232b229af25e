// Module 19 (Benchmarking), given code: the benchmark report, shaped like the original course's
// TinyMLPerf report (MLPerf Tiny's single-stream results: a model, a division, the system, and per
// benchmark its latency percentiles, throughput, accuracy, memory and whether the targets were met).
// The framework has no JSON library, so this file writes JSON by hand and reads it back with a small
// recursive-descent parser (objects keep their members in order).
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
#include <sys/utsname.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/parallel.h"
#include "tinytorch/utils/benchmark.h"
#include "tinytorch/utils/json.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

// ---- System information ----

SystemInfo SystemInfo::current() {
  SystemInfo info;
  struct utsname names {};
  if (uname(&names) == 0) {
    info.os = std::string(names.sysname) + " " + names.release + " " + names.machine;
  } else {
    info.os = "unknown";
  }
  info.cpu = "unknown";
  std::ifstream cpuinfo("/proc/cpuinfo");  // Linux; elsewhere the CPU stays "unknown"
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.compare(0, 10, "model name") == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) info.cpu = line.substr(colon + 2);
      break;
    }
  }
  info.cpu_count = static_cast<int64_t>(std::thread::hardware_concurrency());
  info.threads = get_num_threads();
#if defined(__clang__)
  info.compiler = "Clang " + std::to_string(__clang_major__) + "." + std::to_string(__clang_minor__) + "." +
                  std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
  info.compiler = "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                  std::to_string(__GNUC_PATCHLEVEL__);
#else
  info.compiler = "unknown";
#endif
  return info;
}

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

// The shortest of %.15g and %.17g that reads back as the same double; NaN is null (JSON has no NaN).
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", value);
  if (std::strtod(text, nullptr) != value) std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string boolean(bool value) { return value ? "true" : "false"; }

}  // namespace

std::string BenchmarkReport::to_json() const {
  std::ostringstream out;
  out << "{\n";
  out << "  \"format\": " << json_quoted(kFormat) << ",\n";
  out << "  \"version\": " << kVersion << ",\n";
  out << "  \"suite\": " << json_quoted("TinyTorch classroom benchmark (MLPerf Tiny shaped, not an official MLPerf result)")
      << ",\n";
  out << "  \"model_name\": " << json_quoted(model_name) << ",\n";
  out << "  \"division\": " << json_quoted(division) << ",\n";
  out << "  \"timestamp\": " << json_quoted(timestamp.empty() ? utc_timestamp() : timestamp) << ",\n";
  out << "  \"system\": {\"os\": " << json_quoted(system.os) << ", \"cpu\": " << json_quoted(system.cpu)
      << ", \"cpu_count\": " << system.cpu_count << ", \"threads\": " << system.threads
      << ", \"compiler\": " << json_quoted(system.compiler) << "},\n";
  out << "  \"benchmarks\": {";
  int64_t compliant = 0;
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    const BenchmarkMetrics& b = benchmarks[i];
    compliant += b.compliant();
    out << (i == 0 ? "\n" : ",\n");
    out << "    " << json_quoted(b.name) << ": {\"scenario\": " << json_quoted(b.scenario) << ", \"samples\": " << b.samples
        << ",\n      \"latency_ms\": {\"mean\": " << number(b.latency_mean_ms) << ", \"p50\": " << number(b.latency_p50_ms)
        << ", \"p90\": " << number(b.latency_p90_ms) << ", \"p99\": " << number(b.latency_p99_ms) << "},\n"
        << "      \"throughput_per_s\": " << number(b.throughput_per_s) << ", \"accuracy\": " << number(b.accuracy)
        << ", \"memory_bytes\": " << b.memory_bytes << ",\n"
        << "      \"target_accuracy\": " << number(b.target_accuracy)
        << ", \"target_latency_ms\": " << number(b.target_latency_ms) << ",\n"
        << "      \"accuracy_met\": " << boolean(b.accuracy_met()) << ", \"latency_met\": " << boolean(b.latency_met())
        << ", \"compliant\": " << boolean(b.compliant()) << ", \"notes\": " << json_quoted(b.notes) << "}";
  }
  out << (benchmarks.empty() ? "},\n" : "\n  },\n");
  const int64_t total = static_cast<int64_t>(benchmarks.size());
  out << "  \"summary\": {\"total_benchmarks\": " << total << ", \"compliant_benchmarks\": " << compliant
      << ", \"compliance_rate\": " << number(total == 0 ? 0.0 : static_cast<double>(compliant) / static_cast<double>(total))
      << ", \"overall_compliant\": " << boolean(total > 0 && compliant == total) << "}\n";
  out << "}\n";
  return out.str();
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

// A parsed JSON value. Objects keep their members in the order written.
struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  const Json* find(const std::string& key) const {
    for (const auto& member : members) {
      if (member.first == key) return &member.second;
    }
    return nullptr;
  }
};

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Json document() {
    Json value = parse_value(0);
    skip_space();
    if (position_ != text_.size()) fail("unexpected text after the JSON value");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    int64_t line = 1, column = 1;
    for (size_t i = 0; i < position_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw Error(detail::str("BenchmarkReport: malformed JSON at line ", line, ", column ", column, ": ", what));
  }

  void skip_space() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }

  bool consume(char expected) {
    skip_space();
    if (position_ < text_.size() && text_[position_] == expected) {
      ++position_;
      return true;
    }
    return false;
  }

  void expect(char expected) {
    if (!consume(expected)) fail(std::string("expected '") + expected + "'");
  }

  bool literal(const char* word) {
    const std::string w(word);
    if (text_.compare(position_, w.size(), w) != 0) return false;
    position_ += w.size();
    return true;
  }

  Json parse_value(int depth) {
    if (depth > 64) fail("nested deeper than 64 levels");
    skip_space();
    if (position_ >= text_.size()) fail("unexpected end of the text");
    Json value;
    const char c = text_[position_];
    if (c == '{') {
      ++position_;
      value.kind = Json::Kind::kObject;
      if (consume('}')) return value;
      do {
        skip_space();
        if (position_ >= text_.size() || text_[position_] != '"') fail("expected a member name in double quotes");
        std::string key = parse_string();
        expect(':');
        value.members.emplace_back(std::move(key), parse_value(depth + 1));
      } while (consume(','));
      expect('}');
    } else if (c == '[') {
      ++position_;
      value.kind = Json::Kind::kArray;
      if (consume(']')) return value;
      do {
        value.items.push_back(parse_value(depth + 1));
      } while (consume(','));
      expect(']');
    } else if (c == '"') {
      value.kind = Json::Kind::kString;
      value.text = parse_string();
    } else if (literal("true")) {
      value.kind = Json::Kind::kBool;
      value.boolean = true;
    } else if (literal("false")) {
      value.kind = Json::Kind::kBool;
    } else if (literal("null")) {
      value.kind = Json::Kind::kNull;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      const char* begin = text_.c_str() + position_;
      char* end = nullptr;
      value.kind = Json::Kind::kNumber;
      value.number = std::strtod(begin, &end);
      if (end == begin) fail("malformed number");
      position_ += static_cast<size_t>(end - begin);
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return value;
  }

  // At an opening quote: the string's text with its escapes resolved (\uXXXX as UTF-8; no surrogate pairs).
  std::string parse_string() {
    ++position_;
    std::string out;
    while (true) {
      if (position_ >= text_.size()) fail("unterminated string");
      const char c = text_[position_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (position_ >= text_.size()) fail("unterminated escape");
      const char e = text_[position_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (position_ + 4 > text_.size()) fail("short \\u escape");
          const unsigned long code = std::strtoul(text_.substr(position_, 4).c_str(), nullptr, 16);
          position_ += 4;
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  const std::string& text_;
  size_t position_ = 0;
};

// Typed access with errors that name the field and what it should be.
const Json& field(const Json& object, const std::string& key, const std::string& where) {
  const Json* value = object.find(key);
  TT_CHECK(value != nullptr, "BenchmarkReport: ", where, " has no \"", key, "\"; add it (see to_json's layout)");
  return *value;
}

std::string string_field(const Json& object, const std::string& key, const std::string& where) {
  const Json& value = field(object, key, where);
  TT_CHECK(value.kind == Json::Kind::kString, "BenchmarkReport: ", where, ".", key, " must be a string");
  return value.text;
}

// A number, or null (NaN) where `nullable`.
double number_field(const Json& object, const std::string& key, const std::string& where, bool nullable = false) {
  const Json& value = field(object, key, where);
  if (nullable && value.kind == Json::Kind::kNull) return std::numeric_limits<double>::quiet_NaN();
  TT_CHECK(value.kind == Json::Kind::kNumber, "BenchmarkReport: ", where, ".", key, " must be a number",
           nullable ? " or null" : "");
  return value.number;
}

int64_t integer_field(const Json& object, const std::string& key, const std::string& where) {
  const double value = number_field(object, key, where);
  TT_CHECK(value == std::floor(value) && std::abs(value) < 9.0e15, "BenchmarkReport: ", where, ".", key,
           " must be a whole number, got ", value);
  return static_cast<int64_t>(value);
}

const Json& object_field(const Json& object, const std::string& key, const std::string& where) {
  const Json& value = field(object, key, where);
  TT_CHECK(value.kind == Json::Kind::kObject, "BenchmarkReport: ", where, ".", key, " must be an object");
  return value;
}

}  // namespace

BenchmarkReport BenchmarkReport::from_json(const std::string& text) {
  const Json root = Parser(text).document();
  TT_CHECK(root.kind == Json::Kind::kObject, "BenchmarkReport: the document must be a JSON object");
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
  for (const auto& member : benchmarks.members) {
    const std::string where = "benchmarks." + member.first;
    const Json& b = member.second;
    TT_CHECK(b.kind == Json::Kind::kObject, "BenchmarkReport: ", where, " must be an object");
    BenchmarkMetrics metrics;
    metrics.name = member.first;
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
    if (const Json* notes = b.find("notes")) {
      TT_CHECK(notes->kind == Json::Kind::kString, "BenchmarkReport: ", where, ".notes must be a string");
      metrics.notes = notes->text;
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
