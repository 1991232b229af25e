// Module 05 (DataLoader): the graded tests. Expected values are worked out by hand from small
// datasets whose rows are easy to recognise (row i holds 10*i, 10*i+1, ...). Each case is tagged
// with its points ([points=N], 100 in all) and a topic; hints.json has a hint per case name. Every
// case goes through code the learner writes: TensorDataset::get/size, the samplers' reset/next and
// Stack's apply_batch.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

using tinytorch::testing::Equals;
using Indices = std::vector<size_t>;
namespace data = torch::data;

namespace {

// 5 examples of 2 features, row i = [10*i, 10*i + 1]; labels 0, 1, 2, 3, 4 (as int64).
torch::Tensor five_rows() {
  return torch::tensor({{0.0, 1.0}, {10.0, 11.0}, {20.0, 21.0}, {30.0, 31.0}, {40.0, 41.0}});
}
torch::Tensor five_labels() { return torch::tensor({0, 1, 2, 3, 4}); }

// Every index a sampler hands out in one epoch, batch by batch.
template <typename Sampler>
std::vector<Indices> drain(Sampler& sampler, size_t batch_size) {
  std::vector<Indices> batches;
  while (auto batch = sampler.next(batch_size)) batches.push_back(*batch);
  return batches;
}

Indices flatten(const std::vector<Indices>& batches) {
  Indices all;
  for (const auto& batch : batches) all.insert(all.end(), batch.begin(), batch.end());
  return all;
}

Indices zero_to(size_t n) {
  Indices all(n);
  for (size_t i = 0; i < n; ++i) all[i] = i;
  return all;
}

// The first feature of every row of a [B, 2] batch: it is 10 * the example's index.
std::vector<int64_t> row_ids(const torch::Tensor& batch_data) {
  std::vector<int64_t> ids;
  for (int64_t r = 0; r < batch_data.size(0); ++r) ids.push_back(static_cast<int64_t>(batch_data[r][0].item<double>()) / 10);
  return ids;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 3: TensorDataset (tensor_dataset.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("TensorDataset size is the number of rows", "[points=5][dataset]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  REQUIRE(dataset.size().has_value());
  CHECK(*dataset.size() == 5);
  // A [3, 2, 2] tensor is 3 examples of 2x2, whatever the other dimensions are.
  data::datasets::TensorDataset images(torch::zeros({3, 2, 2}));
  CHECK(images.size().value() == 3);
}

TEST_CASE("TensorDataset get returns row i of the data and of the targets", "[points=8][dataset]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  data::Example<> first = dataset.get(0);
  CHECK_THAT(first.data, Equals(torch::tensor({0.0, 1.0})));
  CHECK_THAT(first.target, Equals(torch::scalar_tensor(0)));
  data::Example<> last = dataset.get(4);
  CHECK_THAT(last.data, Equals(torch::tensor({40.0, 41.0})));
  CHECK_THAT(last.target, Equals(torch::scalar_tensor(4)));
  // get_batch (given) calls get once per index, in the order asked.
  std::vector<data::Example<>> batch = dataset.get_batch(Indices{3, 1});
  REQUIRE(batch.size() == 2);
  CHECK_THAT(batch[0].data, Equals(torch::tensor({30.0, 31.0})));
  CHECK_THAT(batch[1].target, Equals(torch::scalar_tensor(1)));

  // A drawn dataset and index (secret under `tito grade`); the expected row is read from memory here.
  const int64_t rows = tinytorch::testing::random_int(1, 9), width = tinytorch::testing::random_int(1, 4);
  const torch::Tensor values = tinytorch::testing::random_tensor({rows, width});
  const torch::Tensor labels = tinytorch::testing::random_tensor({rows}, 0, 9, torch::kLong);
  data::datasets::TensorDataset drawn(values, labels);
  const int64_t i = tinytorch::testing::random_int(0, rows - 1);
  const float* row = values.data_ptr<float>() + i * width;
  CHECK_THAT(drawn.get(i).data, Equals(torch::tensor(std::vector<float>(row, row + width))));
  CHECK_THAT(drawn.get(i).target, Equals(torch::scalar_tensor(labels.data_ptr<int64_t>()[i], torch::kLong)));
}

TEST_CASE("TensorDataset without targets leaves the target undefined", "[points=4][dataset]") {
  data::datasets::TensorDataset dataset(five_rows());
  data::Example<> example = dataset.get(2);
  CHECK_THAT(example.data, Equals(torch::tensor({20.0, 21.0})));
  CHECK_FALSE(example.target.defined());
}

TEST_CASE("TensorDataset get refuses an index past the end", "[points=5][dataset]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  CHECK_THAT(dataset.get(4).data, Equals(torch::tensor({40.0, 41.0})));
  CHECK_THROWS_AS(dataset.get(5), torch::Error);
  // The first index past the end gets the dataset's own message, not the tensor indexing error.
  CHECK_THROWS_WITH(dataset.get(5), Catch::Contains("out of range") && Catch::Contains("size 5"));
  CHECK_THROWS_WITH(dataset.get(10), Catch::Contains("out of range") && Catch::Contains("10") && Catch::Contains("5"));
}

TEST_CASE("TensorDataset rows are views into the dataset, not copies", "[points=4][dataset][memory]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  data::Example<> example = dataset.get(3);
  // Row 3 of a contiguous [5, 2] float tensor starts 3 * 2 elements into the same storage.
  CHECK(example.data.is_alias_of(dataset.data));
  CHECK(example.data.storage_offset() == 6);
  CHECK(example.target.is_alias_of(dataset.targets));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: samplers (samplers.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("SequentialSampler hands out 0 to N-1 in batches with a short last batch", "[points=8][sampler]") {
  data::samplers::SequentialSampler sampler(5);
  CHECK(sampler.next(2) == std::optional<Indices>(Indices{0, 1}));
  CHECK(sampler.next(2) == std::optional<Indices>(Indices{2, 3}));
  CHECK(sampler.next(2) == std::optional<Indices>(Indices{4}));  // only one index left
  CHECK_FALSE(sampler.next(2).has_value());                         // the epoch is over
  CHECK_FALSE(sampler.next(2).has_value());                         // and stays over
  // A batch size larger than the dataset gives everything at once.
  data::samplers::SequentialSampler small(3);
  CHECK(small.next(8) == std::optional<Indices>(Indices{0, 1, 2}));
}

TEST_CASE("SequentialSampler reset starts over and adopts a new size", "[points=5][sampler]") {
  data::samplers::SequentialSampler sampler(4);
  CHECK(drain(sampler, 3) == std::vector<Indices>{{0, 1, 2}, {3}});
  sampler.reset();
  CHECK(drain(sampler, 4) == std::vector<Indices>{{0, 1, 2, 3}});
  sampler.reset(2);
  CHECK(drain(sampler, 4) == std::vector<Indices>{{0, 1}});
  sampler.reset(0);
  CHECK_FALSE(sampler.next(1).has_value());  // an empty dataset has no batches
}

TEST_CASE("SequentialSampler index counts the indices handed out", "[points=3][sampler]") {
  data::samplers::SequentialSampler sampler(7);
  CHECK(sampler.index() == 0);
  sampler.next(3);
  CHECK(sampler.index() == 3);
  sampler.next(3);
  sampler.next(3);  // only one was left
  CHECK(sampler.index() == 7);
  sampler.reset();
  CHECK(sampler.index() == 0);
}

TEST_CASE("RandomSampler yields every index exactly once per epoch", "[points=8][sampler][shuffle]") {
  torch::manual_seed(0);
  data::samplers::RandomSampler sampler(10);
  std::vector<Indices> batches = drain(sampler, 3);
  // 10 indices in batches of 3: 3 + 3 + 3 + 1.
  REQUIRE(batches.size() == 4);
  CHECK(batches[0].size() == 3);
  CHECK(batches[3].size() == 1);
  Indices all = flatten(batches);
  std::sort(all.begin(), all.end());
  CHECK(all == zero_to(10));
  CHECK(sampler.index() == 10);
}

TEST_CASE("RandomSampler follows manual_seed and reshuffles on every reset", "[points=6][sampler][shuffle]") {
  torch::manual_seed(42);
  data::samplers::RandomSampler first(20);
  const Indices order_a = flatten(drain(first, 20));
  torch::manual_seed(42);
  data::samplers::RandomSampler second(20);
  CHECK(flatten(drain(second, 7)) == order_a);  // same seed, same order (batch size does not matter)

  // A new epoch is a new permutation: of 20! orders, the same one twice would be a broken reset.
  second.reset();
  const Indices order_b = flatten(drain(second, 20));
  CHECK(order_b != order_a);
  Indices sorted = order_b;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == zero_to(20));
  CHECK(order_a != zero_to(20));  // and the order really is shuffled
}

TEST_CASE("RandomSampler reset with a new size permutes the new range", "[points=4][sampler][shuffle]") {
  torch::manual_seed(3);
  data::samplers::RandomSampler sampler(4);
  sampler.reset(6);
  Indices all = flatten(drain(sampler, 4));
  CHECK(all.size() == 6);
  std::sort(all.begin(), all.end());
  CHECK(all == zero_to(6));
  sampler.reset();  // keeps the new size
  CHECK(flatten(drain(sampler, 100)).size() == 6);
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: collation with Stack (stack.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("Stack collates examples into one batch of data and one of targets", "[points=8][stack]") {
  std::vector<data::Example<>> examples = {
      {torch::tensor({1.0, 2.0}), torch::scalar_tensor(7)},
      {torch::tensor({3.0, 4.0}), torch::scalar_tensor(8)},
      {torch::tensor({5.0, 6.0}), torch::scalar_tensor(9)},
  };
  data::Example<> batch = data::transforms::Stack<>().apply_batch(examples);
  // Three [2] rows become one [3, 2] tensor; three 0-dim labels one [3] tensor.
  CHECK_THAT(batch.data, Equals(torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}})));
  CHECK_THAT(batch.target, Equals(torch::tensor({7, 8, 9})));
}

TEST_CASE("Stack keeps the batch target undefined when the examples have none", "[points=4][stack]") {
  std::vector<data::Example<>> examples = {{torch::tensor({1.0}), torch::Tensor()}, {torch::tensor({2.0}), torch::Tensor()}};
  data::Example<> batch = data::transforms::Stack<>().apply_batch(examples);
  CHECK_THAT(batch.data, Equals(torch::tensor({{1.0}, {2.0}})));
  CHECK_FALSE(batch.target.defined());
  // The target-less example type has its own Stack.
  std::vector<data::TensorExample> unlabelled = {torch::tensor({1, 2}), torch::tensor({3, 4})};
  data::TensorExample stacked = data::transforms::Stack<data::TensorExample>().apply_batch(unlabelled);
  CHECK_THAT(stacked.data, Equals(torch::tensor({{1, 2}, {3, 4}})));
}

TEST_CASE("Stack refuses an empty batch and a mix of labelled and unlabelled examples", "[points=3][stack]") {
  CHECK_THROWS_WITH(data::transforms::Stack<>().apply_batch({}), Catch::Contains("empty"));
  std::vector<data::Example<>> mixed = {{torch::tensor({1.0}), torch::scalar_tensor(1)},
                                        {torch::tensor({2.0}), torch::Tensor()}};
  CHECK_THROWS_AS(data::transforms::Stack<>().apply_batch(mixed), torch::Error);
}

TEST_CASE("one stacked batch of 32 ImageNet images takes 19,267,584 bytes", "[points=2][stack][memory]") {
  // 3 x 224 x 224 = 150,528 floats of 4 bytes = 602,112 bytes per image; x 32 = 19,267,584 B (19.3 MB).
  std::vector<data::Example<>> images(32, data::Example<>(torch::zeros({3, 224, 224}), torch::scalar_tensor(0)));
  data::Example<> batch = data::transforms::Stack<>().apply_batch(images);
  CHECK(batch.data.sizes() == std::vector<int64_t>{32, 3, 224, 224});
  CHECK(batch.data.nbytes() == 19267584u);
  CHECK(batch.target.nbytes() == 32u * 8u);  // int64 labels: 256 bytes, next to nothing
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: the DataLoader (your three pieces together; the loader itself is given)
// ---------------------------------------------------------------------------------------------

TEST_CASE("a sequential loader yields stacked batches in order", "[points=6][loader]") {
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(five_rows(), five_labels()).map(data::transforms::Stack<>()), 2);
  std::vector<data::Example<>> batches;
  for (auto& batch : *loader) batches.push_back(batch);
  REQUIRE(batches.size() == 3);  // ceil(5 / 2)
  CHECK_THAT(batches[0].data, Equals(torch::tensor({{0.0, 1.0}, {10.0, 11.0}})));
  CHECK_THAT(batches[0].target, Equals(torch::tensor({0, 1})));
  CHECK_THAT(batches[1].target, Equals(torch::tensor({2, 3})));
  CHECK_THAT(batches[2].data, Equals(torch::tensor({{40.0, 41.0}})));  // the short last batch
  CHECK_THAT(batches[2].target, Equals(torch::tensor({4})));
}

TEST_CASE("drop_last skips the short final batch", "[points=4][loader]") {
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(five_rows(), five_labels()).map(data::transforms::Stack<>()),
      data::DataLoaderOptions(2).drop_last(true));
  std::vector<int64_t> sizes;
  for (auto& batch : *loader) sizes.push_back(batch.data.size(0));
  CHECK(sizes == std::vector<int64_t>{2, 2});  // 5 examples: the fifth is dropped
}

TEST_CASE("a loader without Stack yields vectors of examples", "[points=3][loader]") {
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(five_rows(), five_labels()), 3);
  std::vector<size_t> sizes;
  for (std::vector<data::Example<>>& batch : *loader) {
    sizes.push_back(batch.size());
    if (sizes.size() == 2) CHECK_THAT(batch[1].data, Equals(torch::tensor({40.0, 41.0})));
  }
  CHECK(sizes == std::vector<size_t>{3, 2});
}

TEST_CASE("a shuffled loader covers the dataset once per epoch in a new order each time", "[points=4][loader][shuffle]") {
  torch::manual_seed(1);
  // 20 rows: row i = [10*i, 10*i + 1], label i.
  std::vector<double> values;
  for (int i = 0; i < 20; ++i) values.insert(values.end(), {10.0 * i, 10.0 * i + 1});
  auto rows = torch::tensor(values).reshape({20, 2});
  auto loader = data::make_data_loader(data::datasets::TensorDataset(rows, torch::arange(20)).map(data::transforms::Stack<>()), 8);
  std::vector<std::vector<int64_t>> epochs;
  for (int epoch = 0; epoch < 2; ++epoch) {
    std::vector<int64_t> seen;
    for (auto& batch : *loader) {
      std::vector<int64_t> ids = row_ids(batch.data);
      // Data and label travel together: row i keeps label i after shuffling.
      CHECK_THAT(batch.target, Equals(torch::tensor(ids)));
      seen.insert(seen.end(), ids.begin(), ids.end());
    }
    epochs.push_back(seen);
  }
  std::vector<int64_t> every_row(20);
  for (int64_t i = 0; i < 20; ++i) every_row[i] = i;
  for (auto seen : epochs) {
    std::sort(seen.begin(), seen.end());
    CHECK(seen == every_row);
  }
  CHECK(epochs[0] != epochs[1]);
}

TEST_CASE("worker threads yield the same batches in the same order as none", "[points=4][loader][workers]") {
  auto dataset = data::datasets::TensorDataset(torch::arange(0, 46).reshape({23, 2}), torch::arange(23));
  auto epoch_targets = [&](size_t workers) {
    torch::manual_seed(11);
    auto loader = data::make_data_loader(dataset.map(data::transforms::Stack<>()),
                                         data::DataLoaderOptions(4).workers(workers));
    std::vector<std::vector<int64_t>> batches;
    for (auto& batch : *loader) {
      const int64_t* t = batch.target.data_ptr<int64_t>();
      batches.emplace_back(t, t + batch.target.numel());
    }
    return batches;
  };
  const auto without = epoch_targets(0);
  CHECK(without.size() == 6);  // 23 examples in batches of 4: 5 full, 1 of 3
  CHECK(epoch_targets(2) == without);
  CHECK(epoch_targets(3) == without);
}

TEST_CASE("Normalize then Stack: per-channel (x - mean) / stddev on every example", "[points=2][loader][transforms]") {
  // Two 1-channel 1x2 images; mean 1 and stddev 2 map 1 -> 0, 3 -> 1, 5 -> 2, 7 -> 3.
  auto images = torch::tensor({{{{1.0, 3.0}}}, {{{5.0, 7.0}}}});
  auto dataset = data::datasets::TensorDataset(images, torch::tensor({0, 1}))
                     .map(data::transforms::Normalize<>(1.0, 2.0))
                     .map(data::transforms::Stack<>());
  data::Example<> batch = dataset.get_batch(Indices{1, 0});
  CHECK_THAT(batch.data, Equals(torch::tensor({{{{2.0, 3.0}}}, {{{0.0, 1.0}}}})));
  CHECK_THAT(batch.target, Equals(torch::tensor({1, 0})));
}
