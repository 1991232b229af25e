// Module 20 (Capstone): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes
// (olympics_metrics.cpp, event_rules.cpp, submission.cpp, olympics_entry.cpp) through the public
// API, tinytorch/olympics.h. Expected values are worked by hand in the comments or computed here in
// double precision from the rules' constants; figures are drawn from the grading seed, so the
// answers cannot be hard-coded. No case asserts a time: latency is checked for its bookkeeping
// (how many calls, which inputs, the summary's order), never for its size.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/olympics.h>

#include <cmath>
#include <string>
#include <vector>

using tinytorch::testing::random_int;
namespace olympics = torch::olympics;
using olympics::Event;

namespace {

olympics::ModelMetrics metrics(double accuracy, double latency_ms, int64_t bytes) {
  olympics::ModelMetrics m;
  m.accuracy = accuracy;
  m.latency_ms_median = latency_ms;
  m.latency_ms_p90 = latency_ms * 1.25;
  m.latency_ms_mean = latency_ms * 1.1;
  m.latency_runs = 100;
  m.memory_bytes = bytes;
  m.parameter_count = bytes / 4;
  return m;
}

// A fraction drawn for grading: k / 1000 with k in [low, high].
double drawn_fraction(int64_t low, int64_t high) { return static_cast<double>(random_int(low, high)) / 1000.0; }

}  // namespace

TEST_CASE("improvements are the optimised model's ratios against the baseline", "[points=10][improvements]") {
  // Hand example (olympics_metrics.cpp): 2 ms -> 0.5 ms, 40,000 -> 10,000 bytes, 0.90 -> 0.89.
  const auto hand = olympics::improvements(metrics(0.90, 2.0, 40000), metrics(0.89, 0.5, 10000));
  CHECK(hand.speedup == Approx(4.0));
  CHECK(hand.compression_ratio == Approx(4.0));
  CHECK(hand.accuracy_delta == Approx(-0.01));

  for (int trial = 0; trial < 5; ++trial) {
    const double base_ms = drawn_fraction(100, 9000), opt_ms = drawn_fraction(100, 9000);
    const int64_t base_bytes = random_int(1000, 1000000), opt_bytes = random_int(1000, 1000000);
    const double base_acc = drawn_fraction(500, 1000), opt_acc = drawn_fraction(500, 1000);
    const auto result = olympics::improvements(metrics(base_acc, base_ms, base_bytes), metrics(opt_acc, opt_ms, opt_bytes));
    INFO("baseline " << base_ms << " ms, " << base_bytes << " B, " << base_acc << "; optimised " << opt_ms << " ms, "
                     << opt_bytes << " B, " << opt_acc);
    CHECK(result.speedup == Approx(base_ms / opt_ms));
    CHECK(result.compression_ratio == Approx(static_cast<double>(base_bytes) / static_cast<double>(opt_bytes)));
    CHECK(result.accuracy_delta == Approx(opt_acc - base_acc).margin(1e-12));
  }
}

TEST_CASE("qualifies_event applies each event's rules, at their thresholds", "[points=20][rules]") {
  const auto baseline = metrics(0.90, 2.0, 40000);
  // latency and memory: accuracy >= 0.85, met AT the threshold.
  for (Event event : {Event::kLatency, Event::kMemory}) {
    INFO("event " << olympics::event_name(event));
    CHECK(olympics::qualifies_event(event, metrics(olympics::kMinAccuracy, 1.0, 1000), baseline).qualifies);
    CHECK(olympics::qualifies_event(event, metrics(0.95, 500.0, int64_t{1} << 40), baseline).qualifies);  // no other limit
    const auto below = olympics::qualifies_event(event, metrics(0.8499, 1.0, 1000), baseline);
    CHECK_FALSE(below.qualifies);
    CHECK_THAT(below.reason, Catch::Contains("accuracy 0.8499") && Catch::Contains("0.8500"));
  }
  // accuracy: median latency < 100 ms and memory < 10 MiB, NOT met at the thresholds; no accuracy floor.
  CHECK(olympics::qualifies_event(Event::kAccuracy, metrics(0.20, 99.9, olympics::kMaxMemoryBytes - 1), baseline).qualifies);
  const auto slow = olympics::qualifies_event(Event::kAccuracy, metrics(0.99, olympics::kMaxLatencyMs, 1000), baseline);
  CHECK_FALSE(slow.qualifies);
  CHECK_THAT(slow.reason, Catch::Contains("latency") && Catch::Contains("100.0000"));
  const auto large = olympics::qualifies_event(Event::kAccuracy, metrics(0.99, 1.0, olympics::kMaxMemoryBytes), baseline);
  CHECK_FALSE(large.qualifies);
  CHECK_THAT(large.reason, Catch::Contains("memory"));
  // all_round: the accuracy floor, and at most one point below the baseline.
  const double base_acc = drawn_fraction(880, 990);
  const auto drawn_baseline = metrics(base_acc, 2.0, 40000);
  INFO("baseline accuracy " << base_acc);
  CHECK(olympics::qualifies_event(Event::kAllRound, metrics(base_acc - 0.005, 1.0, 1000), drawn_baseline).qualifies);
  CHECK(olympics::qualifies_event(Event::kAllRound, metrics(base_acc + 0.01, 9.0, 90000), drawn_baseline).qualifies);
  const auto lost = olympics::qualifies_event(Event::kAllRound, metrics(base_acc - 0.02, 1.0, 1000), drawn_baseline);
  CHECK_FALSE(lost.qualifies);
  CHECK_THAT(lost.reason, Catch::Contains("baseline"));
  CHECK_FALSE(olympics::qualifies_event(Event::kAllRound, metrics(0.84, 1.0, 1000), metrics(0.845, 2.0, 40000)).qualifies);
  // A qualifying entry has no reason.
  CHECK(olympics::qualifies_event(Event::kLatency, metrics(0.9, 1.0, 1000), baseline).reason.empty());

  // Drawn entries for drawn events, near every threshold: the verdicts against the rules, worked out
  // here in whole thousandths (accuracy) and microseconds (latency), so no rounding decides them. An
  // accuracy exactly one point below the baseline is skipped: there, baseline - 0.01 in floating point
  // decides, not the rule.
  std::vector<int> verdicts, expected_verdicts;
  for (int trial = 0; trial < 16; ++trial) {
    const Event event = olympics::all_events()[static_cast<size_t>(random_int(0, 3))];
    const int64_t base_thousandths = random_int(850, 1000);
    int64_t thousandths = random_int(820, 1000);
    if (thousandths == base_thousandths - 10) ++thousandths;
    const int64_t microseconds = random_int(99000, 101000);
    const int64_t bytes = olympics::kMaxMemoryBytes + random_int(-2000, 2000);
    const auto entry = metrics(static_cast<double>(thousandths) / 1000.0, static_cast<double>(microseconds) / 1000.0, bytes);
    const auto base = metrics(static_cast<double>(base_thousandths) / 1000.0, 2.0, 40000);
    const bool accurate = thousandths >= 850;
    bool expected = accurate;
    if (event == Event::kAccuracy) expected = microseconds < 100000 && bytes < olympics::kMaxMemoryBytes;
    if (event == Event::kAllRound) expected = accurate && thousandths >= base_thousandths - 10;
    const auto result = olympics::qualifies_event(event, entry, base);
    verdicts.push_back(result.qualifies ? 1 : 0);
    expected_verdicts.push_back(expected ? 1 : 0);
    INFO("trial " << trial << ": event " << olympics::event_name(event) << ", accuracy " << entry.accuracy << " (baseline "
                  << base.accuracy << "), " << entry.latency_ms_median << " ms, " << bytes << " bytes");
    CHECK(result.reason.empty() == expected);
  }
  CHECK(verdicts == expected_verdicts);
}

TEST_CASE("event_score ranks each event by its own measure", "[points=15][score]") {
  const auto baseline = metrics(0.90, 8.0, 40000);
  const auto entry = metrics(0.90, 1.0, 40000);
  CHECK(olympics::event_score(Event::kLatency, entry, baseline) == Approx(1.0));
  CHECK(olympics::event_score(Event::kMemory, entry, baseline) == Approx(40000.0));
  CHECK(olympics::event_score(Event::kAccuracy, entry, baseline) == Approx(0.90));
  // Hand example: 8x faster, same size, same accuracy -> the cube root of 8 = 2 (the arithmetic mean would say 3.33).
  CHECK(olympics::event_score(Event::kAllRound, entry, baseline) == Approx(2.0));
  for (int trial = 0; trial < 5; ++trial) {
    const auto b = metrics(drawn_fraction(850, 990), drawn_fraction(500, 9000), random_int(5000, 500000));
    const auto e = metrics(drawn_fraction(850, 990), drawn_fraction(500, 9000), random_int(5000, 500000));
    const double expected = std::cbrt((b.latency_ms_median / e.latency_ms_median) *
                                      (static_cast<double>(b.memory_bytes) / static_cast<double>(e.memory_bytes)) *
                                      (e.accuracy / b.accuracy));
    INFO("baseline " << b.latency_ms_median << " ms " << b.memory_bytes << " B " << b.accuracy << "; entry "
                     << e.latency_ms_median << " ms " << e.memory_bytes << " B " << e.accuracy);
    CHECK(olympics::event_score(Event::kAllRound, e, b) == Approx(expected));
    CHECK(olympics::event_score(Event::kMemory, e, b) == Approx(static_cast<double>(e.memory_bytes)));
  }
  CHECK(olympics::lower_is_better(Event::kLatency));
  CHECK_FALSE(olympics::lower_is_better(Event::kAllRound));
}

TEST_CASE("measure_model scores every image once, then times single images after a warm-up", "[points=20][measure]") {
  const int64_t n = random_int(7, 12), warmup = random_int(2, 6), runs = random_int(20, 40);
  // Image i holds the value i in every feature; the fake model answers class (i % 3) for it and
  // records which images each call received.
  torch::Tensor images = torch::arange(n, torch::kFloat).unsqueeze(1).expand({n, 64}).contiguous();
  std::vector<int64_t> label_values;
  int64_t right = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t label = (i % 2 == 0) ? i % 3 : (i + 1) % 3;  // even images labelled as answered
    label_values.push_back(label);
    right += label == i % 3;
  }
  const torch::Tensor labels = torch::tensor(label_values, torch::kLong);
  std::vector<std::vector<int64_t>> calls;
  olympics::Entry entry;
  entry.memory_bytes = random_int(100, 100000);
  entry.parameter_count = random_int(10, 1000);
  entry.predict = [&calls](const torch::Tensor& x) {
    std::vector<int64_t> rows;
    std::vector<float> logits(static_cast<size_t>(x.size(0) * 3), 0.0f);
    const torch::Tensor dense = x.contiguous();
    for (int64_t r = 0; r < x.size(0); ++r) {
      const int64_t image = static_cast<int64_t>(dense.data_ptr<float>()[r * x.size(1)]);
      rows.push_back(image);
      logits[static_cast<size_t>(r * 3 + image % 3)] = 1.0f;
    }
    calls.push_back(rows);
    return torch::tensor(logits, torch::kFloat).reshape({x.size(0), 3});
  };
  const olympics::ModelMetrics m = olympics::measure_model(entry, images, labels, warmup, runs);
  INFO(n << " images, warmup " << warmup << ", runs " << runs);
  CHECK(m.accuracy == Approx(static_cast<double>(right) / static_cast<double>(n)));
  REQUIRE(calls.size() == static_cast<size_t>(1 + warmup + runs));
  // One call over the whole set, then single images: warm-up call i reads image i % n, timed run i image i % n.
  std::vector<int64_t> all(n);
  for (int64_t i = 0; i < n; ++i) all[static_cast<size_t>(i)] = i;
  size_t whole = 0;
  for (const auto& call : calls) whole += call.size() == static_cast<size_t>(n) && call == all;
  CHECK(whole >= 1);
  std::vector<int64_t> timed;
  for (size_t c = calls.size() - static_cast<size_t>(runs); c < calls.size(); ++c) {
    REQUIRE(calls[c].size() == 1);
    timed.push_back(calls[c][0]);
  }
  std::vector<int64_t> expected_timed;
  for (int64_t i = 0; i < runs; ++i) expected_timed.push_back(i % n);
  CHECK(timed == expected_timed);
  CHECK(m.latency_runs == runs);
  CHECK(m.latency_ms_median > 0);
  CHECK(m.latency_ms_median <= m.latency_ms_p90);
  CHECK(m.latency_ms_mean > 0);
  CHECK(m.memory_bytes == entry.memory_bytes);
  CHECK(m.parameter_count == entry.parameter_count);
}

TEST_CASE("build_submission claims exactly the events its figures earn", "[points=15][submission]") {
  const double base_acc = drawn_fraction(900, 990);
  const auto baseline = metrics(base_acc, 4.0, 40000);
  // Loses 3 to 5 points: still above 0.85, so latency and memory; fast and small, so accuracy; not all_round.
  const auto optimized = metrics(base_acc - drawn_fraction(30, 50), 1.0, 10000);
  const olympics::Submission s = olympics::build_submission("ada", "an MLP", {"quantization"}, baseline, optimized);
  INFO("baseline accuracy " << base_acc << ", optimised " << optimized.accuracy);
  CHECK(s.events == std::vector<std::string>{"latency", "memory", "accuracy"});
  CHECK(s.improvements.speedup == Approx(4.0));
  CHECK(s.improvements.compression_ratio == Approx(4.0));
  CHECK(s.improvements.accuracy_delta == Approx(optimized.accuracy - base_acc));
  CHECK(s.learner == "ada");
  const std::string json = olympics::submission_json(s);
  CHECK_THAT(json, Catch::Contains("\"events\": [\"latency\", \"memory\", \"accuracy\"]"));
  // Below the floor: no latency, memory or all_round; still the accuracy event.
  const auto weak = olympics::build_submission("ada", "an MLP", {}, baseline, metrics(0.80, 1.0, 10000));
  CHECK(weak.events == std::vector<std::string>{"accuracy"});
  // A model that earns everything.
  const auto strong = olympics::build_submission("ada", "an MLP", {}, baseline, metrics(base_acc, 1.0, 10000));
  CHECK(strong.events == std::vector<std::string>{"latency", "memory", "accuracy", "all_round"});
}

TEST_CASE("your entries train on TinyDigits and your optimised entry earns an event", "[points=20][entry]") {
  namespace datasets = torch::data::datasets;
  auto train = datasets::TinyDigits(datasets::default_root(), datasets::TinyDigits::Mode::kTrain);
  auto test = datasets::TinyDigits(datasets::default_root(), datasets::TinyDigits::Mode::kTest);
  torch::manual_seed(static_cast<uint64_t>(random_int(0, 1000)));
  const olympics::Entry baseline = olympics::make_baseline(train.images(), train.targets());
  const olympics::Entry optimized = olympics::make_optimized(train.images(), train.targets());
  REQUIRE(static_cast<bool>(baseline.predict));
  REQUIRE(static_cast<bool>(optimized.predict));
  CHECK_FALSE(optimized.description.empty());
  const auto b = olympics::measure_model(baseline, test.images(), test.targets(), 5, 30);
  const auto m = olympics::measure_model(optimized, test.images(), test.targets(), 5, 30);
  INFO("baseline accuracy " << b.accuracy << ", " << b.memory_bytes << " bytes; optimised " << m.accuracy << ", "
                            << m.memory_bytes << " bytes");
  CHECK(b.accuracy >= olympics::kMinAccuracy);
  CHECK(m.memory_bytes > 0);
  CHECK(m.parameter_count > 0);
  bool earns = false;
  for (Event event : olympics::all_events()) earns = earns || olympics::qualifies_event(event, m, b).qualifies;
  CHECK(earns);
  CHECK(m.accuracy >= olympics::kMinAccuracy);
  // Both entries answer any batch, not only the whole set and single images: a drawn slice of the test
  // images gives one row of 10 logits per image.
  for (const olympics::Entry* model : {&baseline, &optimized}) {
    const int64_t count = random_int(2, 100), first = random_int(0, test.images().size(0) - count);
    const torch::Tensor slice = test.images().narrow(0, first, count);
    CHECK(model->predict(slice).sizes() == std::vector<int64_t>{count, 10});
  }
}
