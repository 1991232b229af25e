// `tito olympics submit`'s program: built against the learner's modules (module 20's files
// included) and run in tito's sandbox. It asks the learner's code for its two entries and for its
// submission (the CLAIMS, written to $TITO_OUTPUT_DIR/submission.json), then measures both entries
// ITSELF, with code of its own that uses no learner op for the figures: accuracy from the logits'
// bytes, latency from its own clock, memory as the bytes the allocator holds for each entry after
// it was built. tito compares the claims with these lines:
//   TITO_RESULT {"part":1,"metric":"optimized_latency_ms_median","value":0.041}
#include <tinytorch/torch.h>
#include <tinytorch/olympics.h>
#include <tinytorch/utils/json.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace olympics = torch::olympics;
constexpr uint64_t kSeed = 2020;
constexpr int kWarmup = 20, kRuns = 200;

void report(const std::string& metric, double value) {
  std::printf("TITO_RESULT {\"part\":1,\"metric\":%s,\"value\":%.17g}\n", tinytorch::utils::json_quoted(metric).c_str(),
              value);
  std::fflush(stdout);
}

// The q-th percentile (linear interpolation between ranks), computed here rather than by module 14.
double percentile_of(std::vector<double> samples, double q) {
  std::sort(samples.begin(), samples.end());
  const double position = q / 100.0 * static_cast<double>(samples.size() - 1);
  const size_t low = static_cast<size_t>(position);
  const size_t high = std::min(low + 1, samples.size() - 1);
  return samples[low] + (position - static_cast<double>(low)) * (samples[high] - samples[low]);
}

// Right answers counted from the logits' bytes: the index of each row's largest value.
double accuracy_of(const olympics::Entry& entry, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  const torch::Tensor logits = entry.predict(images).to(torch::kFloat).contiguous();
  const torch::Tensor targets = labels.contiguous();
  const float* z = logits.data_ptr<float>();
  const int64_t* y = targets.data_ptr<int64_t>();
  const int64_t n = logits.size(0), classes = logits.size(1);
  int64_t right = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float* row = z + i * classes;
    right += (std::max_element(row, row + classes) - row) == y[i];
  }
  return static_cast<double>(right) / static_cast<double>(n);
}

// The bytes the allocator holds after `make` minus before: what the entry keeps alive.
template <typename Make>
olympics::Entry built_and_weighed(Make make, int64_t* held_bytes) {
  const int64_t before = torch::memory::allocator_stats().allocated_bytes;
  olympics::Entry entry = make();
  *held_bytes = torch::memory::allocator_stats().allocated_bytes - before;
  return entry;
}

}  // namespace

int main() {
  const char* learner_env = std::getenv("TITO_LEARNER");
  const std::string learner = learner_env && *learner_env ? learner_env : "learner";
  const char* out_env = std::getenv("TITO_OUTPUT_DIR");
  const std::string out_dir = out_env && *out_env ? out_env : ".";
  namespace datasets = torch::data::datasets;
  datasets::TinyDigits train(datasets::default_root(), datasets::TinyDigits::Mode::kTrain);
  datasets::TinyDigits test(datasets::default_root(), datasets::TinyDigits::Mode::kTest);

  std::printf("Building your entries (olympics_entry.cpp) with torch::manual_seed(%llu)\n",
              static_cast<unsigned long long>(kSeed));
  torch::manual_seed(kSeed);
  int64_t baseline_bytes = 0, optimized_bytes = 0;
  const olympics::Entry baseline =
      built_and_weighed([&] { return olympics::make_baseline(train.images(), train.targets()); }, &baseline_bytes);
  const olympics::Entry optimized =
      built_and_weighed([&] { return olympics::make_optimized(train.images(), train.targets()); }, &optimized_bytes);
  std::printf("  baseline:  %s\n  optimized: %s\n", baseline.description.c_str(), optimized.description.c_str());

  // The claims, by your code: measure_model and build_submission.
  const auto claimed_baseline = olympics::measure_model(baseline, test.images(), test.targets());
  const auto claimed_optimized = olympics::measure_model(optimized, test.images(), test.targets());
  const auto submission =
      olympics::build_submission(learner, optimized.description, optimized.techniques, claimed_baseline, claimed_optimized);
  const std::string path = out_dir + "/submission.json";
  olympics::save_submission(submission, path);
  std::printf("Your submission (your measure_model and build_submission): %s\n", path.c_str());

  // tito's own measurement: single images in turns, after a warm-up.
  torch::NoGradGuard no_grad;
  const torch::Tensor images = test.images();
  const int64_t n = images.size(0);
  for (int i = 0; i < kWarmup; ++i) {
    baseline.predict(images.narrow(0, i % n, 1));
    optimized.predict(images.narrow(0, i % n, 1));
  }
  std::vector<double> baseline_ms, optimized_ms;
  auto time_one = [](const olympics::Entry& entry, const torch::Tensor& sample) {
    const auto start = std::chrono::steady_clock::now();
    entry.predict(sample);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  for (int i = 0; i < kRuns; ++i) {
    const torch::Tensor sample = images.narrow(0, i % n, 1);
    baseline_ms.push_back(time_one(baseline, sample));
    optimized_ms.push_back(time_one(optimized, sample));
  }
  report("baseline_accuracy", accuracy_of(baseline, images, test.targets()));
  report("baseline_latency_ms_median", percentile_of(baseline_ms, 50));
  report("baseline_latency_ms_p90", percentile_of(baseline_ms, 90));
  report("baseline_memory_bytes", static_cast<double>(baseline_bytes));
  report("optimized_accuracy", accuracy_of(optimized, images, test.targets()));
  report("optimized_latency_ms_median", percentile_of(optimized_ms, 50));
  report("optimized_latency_ms_p90", percentile_of(optimized_ms, 90));
  report("optimized_memory_bytes", static_cast<double>(optimized_bytes));
  return 0;
}
