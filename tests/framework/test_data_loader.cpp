// The given parts of module 05 (torch::data): torch::stack, torch::randperm, DataLoaderOptions,
// make_data_loader with and without workers, drop_last, map/transforms. The learner-written parts
// (TensorDataset, samplers, Stack) are graded in curriculum/05_dataloader; here they are only used.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace data = torch::data;
using Indices = std::vector<size_t>;

namespace {

std::vector<int64_t> values_of(const torch::Tensor& t) {
  torch::Tensor c = t.contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

std::vector<double> doubles_of(const torch::Tensor& t) {
  torch::Tensor c = t.to(torch::kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

// Example i is {i, i}; get() sleeps a little, longer for some indices than others, so that worker
// threads finish batches out of order and the loader has to put them back in order.
struct SlowDataset : data::datasets::Dataset<SlowDataset> {
  explicit SlowDataset(size_t n, std::shared_ptr<std::atomic<int>> calls = nullptr) : n(n), calls(std::move(calls)) {}
  data::Example<> get(size_t index) override {
    if (calls) ++*calls;
    std::this_thread::sleep_for(std::chrono::microseconds(200 * ((index * 7) % 5)));
    const auto i = static_cast<int64_t>(index);
    return {torch::scalar_tensor(i), torch::scalar_tensor(i)};
  }
  std::optional<size_t> size() const override { return n; }
  size_t n;
  std::shared_ptr<std::atomic<int>> calls;
};

// A dataset whose example 13 cannot be loaded.
struct FailingDataset : data::datasets::Dataset<FailingDataset> {
  data::Example<> get(size_t index) override {
    if (index == 13) throw std::runtime_error("example 13 is corrupt");
    return {torch::scalar_tensor(static_cast<int64_t>(index)), torch::scalar_tensor(0)};
  }
  std::optional<size_t> size() const override { return 20; }
};

struct UnsizedDataset : data::datasets::Dataset<UnsizedDataset> {
  data::Example<> get(size_t) override { return {}; }
  std::optional<size_t> size() const override { return std::nullopt; }
};

// The targets of every batch of one epoch.
template <typename Loader>
std::vector<std::vector<int64_t>> epoch_targets(Loader& loader) {
  std::vector<std::vector<int64_t>> batches;
  for (auto& batch : *loader) batches.push_back(values_of(batch.target));
  return batches;
}

}  // namespace

TEST_CASE("stack joins equal-shaped tensors along a new dimension", "[data][stack]") {
  auto a = torch::tensor({{1, 2, 3}, {4, 5, 6}});
  auto b = torch::tensor({{7, 8, 9}, {10, 11, 12}});
  auto s0 = torch::stack({a, b});
  CHECK(s0.sizes() == std::vector<int64_t>{2, 2, 3});
  CHECK(values_of(s0) == std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto s1 = torch::stack({a, b}, 1);  // [2, 2, 3]: row r holds a[r] then b[r]
  CHECK(values_of(s1) == std::vector<int64_t>{1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12});
  auto s2 = torch::stack({a, b}, -1);  // [2, 3, 2]: element (r, c) holds a[r][c], b[r][c]
  CHECK(s2.sizes() == std::vector<int64_t>{2, 3, 2});
  CHECK(values_of(s2) == std::vector<int64_t>{1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12});
  // 0-dim entries stack into a vector; the result is a fresh tensor, not a view.
  auto labels = torch::stack({torch::scalar_tensor(3), torch::scalar_tensor(1)});
  CHECK(values_of(labels) == std::vector<int64_t>{3, 1});
  CHECK_FALSE(s0.is_alias_of(a));
  // Non-contiguous entries (a transpose) are read through their strides.
  auto t = torch::stack({a.t()});
  CHECK(values_of(t) == std::vector<int64_t>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("stack promotes dtypes and names the entry that does not fit", "[data][stack]") {
  auto mixed = torch::stack({torch::tensor({1, 2}), torch::tensor({0.5, 1.5})});
  CHECK(mixed.scalar_type() == torch::kFloat);
  CHECK(doubles_of(mixed) == std::vector<double>{1.0, 2.0, 0.5, 1.5});
  CHECK_THROWS_WITH(torch::stack(std::vector<torch::Tensor>{}), "stack expects a non-empty TensorList");
  CHECK_THROWS_WITH(torch::stack({torch::zeros({2}), torch::zeros({2}), torch::zeros({3})}),
                    "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 2");
  CHECK_THROWS_WITH(torch::stack({torch::zeros({2})}, 2),
                    Catch::Contains("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
}

TEST_CASE("stack's backward gives each entry its slice of the gradient", "[data][stack][autograd]") {
  auto a = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto b = torch::tensor({3.0, 4.0}, torch::dtype(torch::kDouble).requires_grad(true));
  const auto constant = torch::zeros({2});
  const auto out = torch::stack({a, constant, b}, 1);  // (2, 3), promoted to double
  REQUIRE(out.grad_fn() != nullptr);
  CHECK(out.grad_fn()->name() == "StackBackward0");  // LibTorch's node name
  CHECK(out.grad_fn()->next_edges().size() == 3);
  CHECK_FALSE(out.grad_fn()->next_edges()[1].is_valid());  // the constant needs no gradient
  const auto weight = torch::arange(6, torch::kDouble).reshape({2, 3});
  (out * weight).sum().backward();
  CHECK(doubles_of(a.grad()) == std::vector<double>{0, 3});  // column 0 of the weight
  CHECK(a.grad().scalar_type() == torch::kFloat);             // converted back from the double result
  CHECK(doubles_of(b.grad()) == std::vector<double>{2, 5});  // column 2
  // Without grad mode the result is a plain tensor, as LibTorch's.
  torch::NoGradGuard no_grad;
  CHECK(torch::stack({a, b}).grad_fn() == nullptr);
}

TEST_CASE("randperm is a permutation that manual_seed reproduces", "[data][randperm]") {
  torch::manual_seed(123);
  auto p = torch::randperm(50);
  CHECK(p.scalar_type() == torch::kLong);
  CHECK(p.sizes() == std::vector<int64_t>{50});
  std::vector<int64_t> sorted = values_of(p);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> expected(50);
  for (int64_t i = 0; i < 50; ++i) expected[static_cast<size_t>(i)] = i;
  CHECK(sorted == expected);
  CHECK(values_of(p) != expected);
  torch::manual_seed(123);
  CHECK(values_of(torch::randperm(50)) == values_of(p));
  CHECK(values_of(torch::randperm(50)) != values_of(p));  // the generator moved on
  CHECK(torch::randperm(0).numel() == 0);
  CHECK(values_of(torch::randperm(1)) == std::vector<int64_t>{0});
  CHECK_THROWS_WITH(torch::randperm(-1), Catch::Contains("n must be non-negative"));
  CHECK_THROWS_WITH(torch::randperm(3, torch::kFloat), Catch::Contains("only dtype Long"));
}

TEST_CASE("randperm puts each value in each position about equally often", "[data][randperm]") {
  // 4! = 24 orders; over 24,000 draws each value lands in each of the 4 positions ~6,000 times.
  torch::manual_seed(5);
  int counts[4][4] = {};
  for (int trial = 0; trial < 24000; ++trial) {
    auto v = values_of(torch::randperm(4));
    for (int pos = 0; pos < 4; ++pos) ++counts[pos][v[static_cast<size_t>(pos)]];
  }
  for (auto& row : counts)
    for (int c : row) CHECK(std::abs(c - 6000) < 400);  // > 6 standard deviations (sd ~ 67)
}

TEST_CASE("DataLoaderOptions has LibTorch's defaults and builder", "[data][options]") {
  data::DataLoaderOptions defaults;
  CHECK(defaults.batch_size() == 1);
  CHECK(defaults.workers() == 0);
  CHECK_FALSE(defaults.max_jobs().has_value());
  CHECK(defaults.enforce_ordering());
  CHECK_FALSE(defaults.drop_last());
  auto options = data::DataLoaderOptions(32).drop_last(true).workers(3);
  CHECK(options.batch_size() == 32);
  CHECK(options.drop_last());
  data::FullDataLoaderOptions full(options);
  CHECK(full.max_jobs == 6);  // 2 * workers
  CHECK(data::FullDataLoaderOptions(options.max_jobs(1)).max_jobs == 1);
}

TEST_CASE("make_data_loader counts batches, drops the last one on request and rejects bad input", "[data][loader]") {
  auto rows = torch::arange(10);
  auto count_batches = [&](data::DataLoaderOptions options) {
    auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
        data::datasets::TensorDataset(rows, rows).map(data::transforms::Stack<>()), options);
    std::vector<int64_t> sizes;
    for (auto& batch : *loader) sizes.push_back(batch.data.size(0));
    return sizes;
  };
  CHECK(count_batches(3) == std::vector<int64_t>{3, 3, 3, 1});
  CHECK(count_batches(data::DataLoaderOptions(3).drop_last(true)) == std::vector<int64_t>{3, 3, 3});
  CHECK(count_batches(data::DataLoaderOptions(5).drop_last(true)) == std::vector<int64_t>{5, 5});  // nothing to drop
  CHECK(count_batches(data::DataLoaderOptions(20).drop_last(true)).empty());
  CHECK(count_batches(data::DataLoaderOptions(3).drop_last(true).workers(2)) == std::vector<int64_t>{3, 3, 3});
  CHECK_THROWS_WITH(count_batches(0), Catch::Contains("batch_size must be at least 1"));
  CHECK_THROWS_WITH(data::make_data_loader(UnsizedDataset(), 2),
                    "Expected the dataset to be sized in order to construct the Sampler");
}

TEST_CASE("a loader runs one epoch per range-for and reshuffles between epochs", "[data][loader]") {
  torch::manual_seed(9);
  auto loader = data::make_data_loader(SlowDataset(12).map(data::transforms::Stack<>()), 5);
  auto first = epoch_targets(loader);
  auto second = epoch_targets(loader);
  REQUIRE(first.size() == 3);
  CHECK(first[2].size() == 2);
  CHECK(first != second);
  // Iterator protocol: end() compares equal to an exhausted iterator only.
  auto it = loader->begin();
  CHECK(it != loader->end());
  for (int i = 0; i < 3; ++i) ++it;
  CHECK(it == loader->end());
  CHECK_THROWS_WITH(*it, Catch::Contains("dereference the end"));
}

TEST_CASE("workers yield the same batches in the same order as the main thread", "[data][loader][workers][threads]") {
  for (size_t batch_size : {1, 4, 7}) {
    for (bool shuffle : {false, true}) {
      auto run = [&](size_t workers) {
        torch::manual_seed(2024);
        auto options = data::DataLoaderOptions(batch_size).workers(workers);
        auto dataset = SlowDataset(30).map(data::transforms::Stack<>());
        if (shuffle) {
          auto loader = data::make_data_loader(dataset, options);
          auto epoch1 = epoch_targets(loader);
          auto epoch2 = epoch_targets(loader);
          epoch1.insert(epoch1.end(), epoch2.begin(), epoch2.end());
          return epoch1;
        }
        auto loader = data::make_data_loader<data::samplers::SequentialSampler>(dataset, options);
        return epoch_targets(loader);
      };
      const auto reference = run(0);
      CAPTURE(batch_size, shuffle);
      CHECK(run(1) == reference);
      CHECK(run(2) == reference);
      CHECK(run(4) == reference);
    }
  }
}

TEST_CASE("workers really load ahead, on other threads", "[data][loader][workers][threads]") {
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      SlowDataset(40, calls).map(data::transforms::Stack<>()), data::DataLoaderOptions(2).workers(2));
  // begin() asks for 2 * workers = 4 batches at once, and one more each time one is handed out.
  auto it = loader->begin();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (calls->load() < 10 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(calls->load() == 10);  // 5 batches of 2 examples loaded while we hold only the first
  CHECK(values_of(it->target) == std::vector<int64_t>{0, 1});
  CHECK(loader->options().max_jobs == 4);
  // Leaving an epoch early with workers is an error on the next begin(), as in LibTorch.
  CHECK_THROWS_WITH(loader->begin(), Catch::Contains("another iterator is not yet exhausted"));
}

TEST_CASE("an exception in a worker reaches the loop at its batch", "[data][loader][workers][threads]") {
  for (size_t workers : {0, 2}) {
    auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
        FailingDataset().map(data::transforms::Stack<>()), data::DataLoaderOptions(5).workers(workers));
    std::vector<int64_t> first_ids;
    try {
      for (auto& batch : *loader) first_ids.push_back(values_of(batch.data)[0]);
      FAIL("the corrupt example did not raise");
    } catch (const data::WorkerException& error) {
      // From a worker thread, wrapped as LibTorch wraps it, the original kept inside.
      CHECK(workers > 0);
      CHECK(std::string(error.what()) ==
            "Caught exception in DataLoader worker thread. Original message: example 13 is corrupt");
      CHECK_THROWS_WITH(std::rethrow_exception(error.original_exception), "example 13 is corrupt");
    } catch (const std::runtime_error& error) {
      CHECK(workers == 0);  // loaded on the calling thread: the dataset's own exception
      CHECK(std::string(error.what()) == "example 13 is corrupt");
    }
    CAPTURE(workers);
    CHECK(first_ids == std::vector<int64_t>{0, 5});  // batches before the bad one arrived, in order
  }
}

TEST_CASE("map passes size through and transforms apply per example", "[data][transforms]") {
  auto dataset = data::datasets::TensorDataset(torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}), torch::arange(3));
  auto doubled = dataset.map(data::transforms::TensorLambda<>([](torch::Tensor x) { return x * 2; }));
  CHECK(doubled.size().value() == 3);
  std::vector<data::Example<>> batch = doubled.get_batch(Indices{2, 0});
  CHECK(doubles_of(batch[0].data) == std::vector<double>{10.0, 12.0});
  CHECK(doubles_of(batch[1].data) == std::vector<double>{2.0, 4.0});
  // Normalize keeps LibTorch's [C, 1, 1] mean: flat [2] data becomes [1, 1, 2].
  auto normalized = dataset.map(data::transforms::Normalize<>(1.0, 0.5)).map(data::transforms::Stack<>());
  data::Example<> stacked = normalized.get_batch(Indices{1});
  CHECK(stacked.data.sizes() == std::vector<int64_t>{1, 1, 1, 2});
  CHECK(doubles_of(stacked.data) == std::vector<double>{4.0, 6.0});
  // Per-channel values for a [2, 1, 1] image.
  auto channels = data::transforms::Normalize<>({0.0, 10.0}, {1.0, 2.0});
  CHECK(doubles_of(channels(torch::tensor({{{4.0}}, {{14.0}}}))) == std::vector<double>{4.0, 2.0});
  // A batch lambda sees the whole batch.
  auto count = dataset.map(data::transforms::BatchLambda<std::vector<data::Example<>>, size_t>(
      [](std::vector<data::Example<>> examples) { return examples.size(); }));
  CHECK(count.get_batch(Indices{0, 1, 2}) == 3u);
}

TEST_CASE("TensorDataset constructors check their tensors", "[data][dataset]") {
  CHECK_THROWS_WITH(data::datasets::TensorDataset(torch::zeros({3, 2}), torch::zeros({4})),
                    "TensorDataset: data has 3 examples (size(0)) but targets has 4; give one target per example");
  CHECK_THROWS_WITH(data::datasets::TensorDataset(torch::scalar_tensor(1.0)), Catch::Contains("at least one dimension"));
  data::datasets::TensorDataset from_list(std::vector<torch::Tensor>{torch::zeros({2}), torch::ones({2})});
  CHECK(from_list.data.sizes() == std::vector<int64_t>{2, 2});
  CHECK_FALSE(from_list.targets.defined());
}

namespace {
template <typename Sampler>
std::vector<size_t> whole_epoch(Sampler& sampler, size_t batch_size) {
  std::vector<size_t> all;
  while (auto batch = sampler.next(batch_size)) all.insert(all.end(), batch->begin(), batch->end());
  return all;
}
}  // namespace

TEST_CASE("distributed samplers split the dataset among replicas as LibTorch does", "[data][samplers]") {
  using torch::data::samplers::DistributedRandomSampler;
  using torch::data::samplers::DistributedSequentialSampler;
  using Indices = std::vector<size_t>;
  // 10 examples, 3 replicas: ceil(10 / 3) = 4 each, the last wrapping around to 0 and 1.
  DistributedSequentialSampler rank0(10, 3, 0), rank2(10, 3, 2);
  CHECK(whole_epoch(rank0, 3) == Indices{0, 1, 2, 3});
  CHECK(whole_epoch(rank2, 3) == Indices{8, 9, 0, 1});
  // Without duplicates: floor(10 / 3) = 3 each, index 9 left out.
  DistributedSequentialSampler exact(10, 3, 2, /*allow_duplicates=*/false);
  CHECK(whole_epoch(exact, 10) == Indices{6, 7, 8});
  exact.reset();
  CHECK(exact.next(2) == Indices{6, 7});
  // The random order is one permutation per epoch, shared by the replicas: together they cover it.
  for (size_t epoch : {0, 1}) {
    Indices covered;
    for (size_t rank = 0; rank < 2; ++rank) {
      DistributedRandomSampler sampler(9, 2, rank);
      sampler.set_epoch(epoch);
      sampler.reset();
      const Indices part = whole_epoch(sampler, 4);
      CHECK(part.size() == 5);
      covered.insert(covered.end(), part.begin(), part.end());
    }
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    CHECK(covered == Indices{0, 1, 2, 3, 4, 5, 6, 7, 8});
  }
  DistributedRandomSampler epoch0(9, 1, 0), epoch1(9, 1, 0);
  epoch1.set_epoch(1);
  epoch1.reset();
  CHECK(whole_epoch(epoch0, 9) != whole_epoch(epoch1, 9));
  CHECK_THROWS_WITH(DistributedSequentialSampler(10, 2, 2), Catch::Matchers::Contains("rank 2 is not one of the 2"));
}
