// Module 19's given parts: the Timer's three ways of running a statement (how many calls, how they
// are grouped, warm-up), the Measurement's checks and printing, Student's t CDF and the incomplete
// beta function against known values, the JSON report's round trip and its errors, and the Pareto SVG.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "test_helpers.h"
#include "tinytorch/utils/benchmark.h"

namespace {

namespace B = torch::utils::benchmark;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t count_of(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("Timer::repeat warms up, then times each block of calls", "[benchmark][timer]") {
  int64_t calls = 0;
  const B::Timer timer([&] { ++calls; }, "count", "calls");
  const B::Measurement m = timer.repeat(7, 3, 5);
  CHECK(calls == 5 + 7 * 3);
  CHECK(m.runs() == 7);
  CHECK(m.number_per_run() == 3);
  CHECK(m.label() == "count");
  CHECK(m.description() == "calls");
  for (size_t i = 0; i < m.times().size(); ++i) CHECK(m.times()[i] == Approx(m.raw_times()[i] / 3));
  CHECK_THROWS_WITH(timer.repeat(0), Catch::Contains("repeat must be at least 1"));
  CHECK_THROWS_WITH(B::Timer(std::function<void()>{}), Catch::Contains("statement is empty"));
}

TEST_CASE("repeat_interleaved times the statements in turn", "[benchmark][timer]") {
  std::string order;
  const std::vector<B::Timer> timers{B::Timer([&] { order += 'a'; }, "a"), B::Timer([&] { order += 'b'; }, "b")};
  const std::vector<B::Measurement> ms = B::repeat_interleaved(timers, 3, 2, 1);
  CHECK(order == "ab" "aabb" "aabb" "aabb");  // warm-up of each, then one block of 2 calls per timer per round
  REQUIRE(ms.size() == 2);
  CHECK(ms[0].label() == "a");
  CHECK(ms[1].runs() == 3);
  CHECK(ms[1].number_per_run() == 2);
  CHECK_THROWS_WITH(B::repeat_interleaved({}, 3), Catch::Contains("no timers"));
}

TEST_CASE("Timer::timeit runs one block after PyTorch's warm-up", "[benchmark][timer]") {
  int64_t calls = 0;
  const B::Timer timer([&] { ++calls; });
  const B::Measurement m = timer.timeit(1000);
  CHECK(calls == 10 + 1000);  // warm-up max(1000 / 100, 2)
  CHECK(m.runs() == 1);
  CHECK(m.number_per_run() == 1000);
  calls = 0;
  timer.timeit(5);
  CHECK(calls == 2 + 5);
}

TEST_CASE("Timer::blocked_autorange measures at least min_run_time in blocks of 10^k calls", "[benchmark][timer]") {
  int64_t calls = 0;
  volatile double sink = 0;
  const B::Timer timer([&] {
    ++calls;
    for (int i = 0; i < 200; ++i) sink = sink + std::sqrt(static_cast<double>(i));
  });
  const double min_run_time = 0.02;
  const B::Measurement m = timer.blocked_autorange(min_run_time);
  double total = 0;
  for (double raw : m.raw_times()) total += raw;
  CHECK(total >= min_run_time);
  const double exponent = std::log10(static_cast<double>(m.number_per_run()));
  CHECK(exponent == Approx(std::round(exponent)));
  CHECK(calls > m.runs() * m.number_per_run());  // the trial blocks ran first
  CHECK(m.runs() >= 1);
}

TEST_CASE("Measurement checks its times and prints like PyTorch's", "[benchmark][measurement]") {
  CHECK_THROWS_WITH(B::Measurement(1, {}), Catch::Contains("no times"));
  CHECK_THROWS_WITH(B::Measurement(0, {1.0}), Catch::Contains("number_per_run must be at least 1"));
  CHECK_THROWS_WITH(B::Measurement(1, {1.0, -2.0}), Catch::Contains("finite and >= 0"));
  const B::Measurement m(10, {0.020, 0.021, 0.022, 0.030}, "mm 256", "reference loops");
  const std::string text = m.str();
  CHECK(text.find("mm 256: reference loops") == 0);
  CHECK(text.find("Median: 2.15 ms") != std::string::npos);
  CHECK(text.find("4 measurements, 10 runs per measurement") != std::string::npos);
  CHECK(test_helpers::printed(m) == text);
  const torch::profiling::LatencyStats stats = m.latency_stats();
  CHECK(stats.count == 4);
  CHECK(stats.max_ms == Approx(3.0));
}

TEST_CASE("Student's t CDF and the incomplete beta function match known values", "[benchmark][t]") {
  // I_x(a, b) closed forms: I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b.
  CHECK(B::regularized_incomplete_beta(0.3, 1, 1) == Approx(0.3).epsilon(1e-14));
  CHECK(B::regularized_incomplete_beta(0.7, 3.5, 1) == Approx(std::pow(0.7, 3.5)).epsilon(1e-13));
  CHECK(B::regularized_incomplete_beta(0.2, 1, 4) == Approx(1 - std::pow(0.8, 4)).epsilon(1e-13));
  CHECK(B::regularized_incomplete_beta(0.3, 2, 3) == Approx(0.3483).epsilon(1e-12));  // 1 - 0.7^3 (1 + 3 x 0.3) ... = 0.3483
  CHECK(B::regularized_incomplete_beta(0, 2, 3) == 0);
  CHECK(B::regularized_incomplete_beta(1, 2, 3) == 1);
  // df = 1 is the Cauchy distribution: 1/2 + atan(t) / pi.
  for (double t : {-30.0, -2.0, -0.5, 0.0, 0.25, 1.0, 7.0}) {
    CHECK(B::student_t_cdf(t, 1) == Approx(0.5 + std::atan(t) / 3.14159265358979323846).margin(1e-13));
  }
  // df = 2: 1/2 + t / (2 sqrt(2 + t^2)).
  for (double t : {-4.0, -1.0, 0.5, 3.0}) {
    CHECK(B::student_t_cdf(t, 2) == Approx(0.5 + t / (2 * std::sqrt(2 + t * t))).margin(1e-13));
  }
  CHECK(B::student_t_cdf(2.228138851986, 10) == Approx(0.975).margin(1e-12));
  CHECK(B::student_t_cdf(-2.042272456301, 30) == Approx(0.025).margin(1e-12));
  // Far tails keep their digits: P(T_10 <= -50) = 1.2372e-13 (not 0 from 1 - 0.99999...).
  CHECK(B::student_t_cdf(-50, 10) == Approx(1.23716e-13).epsilon(1e-3));
  CHECK(B::student_t_cdf(std::numeric_limits<double>::infinity(), 3) == 1.0);
  CHECK_THROWS_WITH(B::student_t_cdf(1, 0), Catch::Contains("degrees of freedom must be positive"));
  CHECK_THROWS_WITH(B::student_t_quantile(1.0, 5), Catch::Contains("probability must be in (0, 1)"));
}

TEST_CASE("BenchmarkReport writes MLPerf-Tiny-shaped JSON and reads it back", "[benchmark][report]") {
  B::BenchmarkReport report;
  report.model_name = "digits \"mlp\" int8";
  report.division = "closed";
  report.timestamp = "2026-12-04T14:00:00Z";
  report.system = B::SystemInfo::current();
  CHECK(!report.system.os.empty());
  CHECK(report.system.cpu_count >= 1);
  CHECK(report.system.threads >= 1);
  B::BenchmarkMetrics digits = B::BenchmarkMetrics::from_measurement(
      "digits", B::Measurement(1, {0.001, 0.002, 0.003, 0.004, 0.010}), 0.93, 2442, 4);
  CHECK(digits.samples == 5);
  CHECK(digits.latency_mean_ms == Approx(4.0));
  CHECK(digits.latency_p50_ms == Approx(3.0));
  CHECK(digits.latency_p90_ms == Approx(10.0));
  CHECK(digits.throughput_per_s == Approx(1000.0));  // 4 samples per query, 4 ms a query
  digits.target_accuracy = 0.85;
  digits.target_latency_ms = 5;
  digits.notes = "memory: int8 weights + scales\n";
  CHECK(digits.accuracy_met());
  CHECK_FALSE(digits.latency_met());  // p90 10 ms > 5 ms
  B::BenchmarkMetrics kws = B::BenchmarkMetrics::from_measurement("keyword_spotting", B::Measurement(1, {0.5, 0.25}));
  CHECK(kws.compliant());  // no targets, nothing to miss
  report.benchmarks = {digits, kws};

  const std::string json = report.to_json();
  CHECK(json.find("\"format\": \"tinytorch-benchmark-report\"") != std::string::npos);
  CHECK(json.find("\"accuracy\": null") != std::string::npos);  // kws has no accuracy
  CHECK(json.find("\"compliant_benchmarks\": 1") != std::string::npos);
  CHECK(json.find("\"overall_compliant\": false") != std::string::npos);

  const std::string path = "benchmark_report_test.json";
  report.save(path);
  const B::BenchmarkReport back = B::BenchmarkReport::load(path);
  std::remove(path.c_str());
  CHECK(back.model_name == report.model_name);
  CHECK(back.division == "closed");
  CHECK(back.timestamp == report.timestamp);
  CHECK(back.system.cpu == report.system.cpu);
  CHECK(back.system.compiler == report.system.compiler);
  REQUIRE(back.benchmarks.size() == 2);
  CHECK(back.benchmarks[0].name == "digits");
  CHECK(back.benchmarks[0].latency_p90_ms == digits.latency_p90_ms);  // doubles round-trip exactly
  CHECK(back.benchmarks[0].latency_mean_ms == digits.latency_mean_ms);
  CHECK(back.benchmarks[0].accuracy == 0.93);
  CHECK(back.benchmarks[0].memory_bytes == 2442);
  CHECK(back.benchmarks[0].notes == digits.notes);
  CHECK(back.benchmarks[1].name == "keyword_spotting");
  CHECK(std::isnan(back.benchmarks[1].accuracy));
  CHECK(std::isnan(back.benchmarks[1].target_latency_ms));
  CHECK(back.to_json() == json);  // write -> read -> write is the identity
}

TEST_CASE("BenchmarkReport's reader names what is wrong and where", "[benchmark][report]") {
  CHECK_THROWS_WITH(B::BenchmarkReport::from_json("{\n  \"format\": \"tinytorch-benchmark-report\",\n  \"version\": 1,,"),
                    Catch::Contains("line 3, column 16"));
  CHECK_THROWS_WITH(B::BenchmarkReport::from_json("{\"format\": \"other\"}"), Catch::Contains("format is \"other\""));
  CHECK_THROWS_WITH(B::BenchmarkReport::from_json("{\"format\": \"tinytorch-benchmark-report\", \"version\": 1}"),
                    Catch::Contains("the report has no \"model_name\""));
  B::BenchmarkReport report;
  report.model_name = "m";
  report.benchmarks.push_back(B::BenchmarkMetrics::from_measurement("b", B::Measurement(1, {1.0, 2.0})));
  std::string json = report.to_json();
  json.replace(json.find("\"samples\": 2"), 12, "\"samples\": \"2\"");
  CHECK_THROWS_WITH(B::BenchmarkReport::from_json(json), Catch::Contains("benchmarks.b.samples must be a number"));
  std::string division = report.to_json();
  division.replace(division.find("\"open\""), 6, "\"edge\"");
  CHECK_THROWS_WITH(B::BenchmarkReport::from_json(division), Catch::Contains("\"closed\" and \"open\""));
  CHECK_THROWS_WITH(B::BenchmarkReport::load("no/such/report.json"), Catch::Contains("cannot open"));
}

TEST_CASE("save_pareto_svg draws the frontier apart from the dominated points", "[benchmark][pareto]") {
  const std::string path = "pareto_test.svg";
  B::save_pareto_svg(path, {{"fp32", 5, 0.80}, {"int8", 40, 0.94}, {"pruned", 40, 0.70}, {"distilled", 12, 0.90}},
                     "latency (ms)", B::Goal::kMinimize, "accuracy", B::Goal::kMaximize, "Digits");
  const std::string svg = read_file(path);
  std::remove(path.c_str());
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(count_of(svg, "<circle") == 4);
  CHECK(count_of(svg, "(Pareto)") == 3);
  CHECK(svg.find("Digits: 3 of 4 points on the Pareto frontier") != std::string::npos);
  CHECK(svg.find("latency (ms)  (lower is better)") != std::string::npos);
  CHECK(count_of(svg, "<polyline") == 1);
  CHECK_THROWS_WITH(B::save_pareto_svg(path, {}, "x", B::Goal::kMinimize, "y", B::Goal::kMaximize),
                    Catch::Contains("no points"));
}

TEST_CASE("Comparison prints the speed-up, its interval and the test", "[benchmark][compare]") {
  const B::Comparison c = B::compare(B::Measurement(1, {10.0, 10.4, 9.8, 10.2, 10.1, 9.9}),
                                     B::Measurement(1, {5.1, 4.9, 5.0, 5.2, 4.8, 5.0}));
  CHECK(c.str().find("2.01x faster (95% CI 1.95x to 2.08x), Welch t = 48.1") == 0);
  const B::Comparison slower = B::compare(B::Measurement(1, {5.1, 4.9, 5.0, 5.2, 4.8, 5.0}),
                                          B::Measurement(1, {10.0, 10.4, 9.8, 10.2, 10.1, 9.9}));
  CHECK(slower.str().find("2.01x slower (95% CI 1.95x to 2.08x)") == 0);
}

TEST_CASE("Compare tabulates measurements per label in one unit", "[benchmark][compare]") {
  const B::Compare table({B::Measurement(10, {75e-6, 76e-6, 77e-6}, "mm", "64"),
                          B::Measurement(10, {150e-6, 152e-6, 154e-6}, "mm", "80"),
                          B::Measurement(1, {3e-3}, "conv", "3x3")});
  const std::string text = table.str();
  CHECK(text.find("[") == 0);
  CHECK(count_of(text, " mm ") == 1);
  CHECK(count_of(text, " conv ") == 1);
  CHECK(text.find("7.6 +- ") != std::string::npos);   // mean 7.6 us and its t interval
  CHECK(text.find("15.2 +- ") != std::string::npos);
  CHECK(text.find("3000") != std::string::npos);      // one time: a mean, no interval
  CHECK(text.find("3 x 10") != std::string::npos);
  CHECK(text.find("Times are in microseconds (us).") != std::string::npos);
  CHECK(text.find("mm") < text.find("conv"));
  CHECK_THROWS_WITH(B::Compare({}), Catch::Contains("no measurements"));
}
