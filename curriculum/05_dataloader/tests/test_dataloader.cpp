// Module 05 (DataLoader): the graded tests. Expected values are worked out by hand from small
// datasets whose rows are easy to recognise (row i holds 10*i, 10*i+1, ...). Each case is tagged
// with its points ([points=N], 100 in all) and a topic; hints.json has a hint per case name. Every
// case goes through code the learner writes: TensorDataset::get/size, the samplers' reset/next and
// Stack's apply_batch.
// Every case ends with sizes and values drawn by random_int / random_tensor, the expected rows,
// batches and indices worked out here from memory and plain loops: under `tito grade` they come from
// a secret seed, so only code that computes the answer gets them right (`tito module test` draws
// with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
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

// Rows [begin, end) of a contiguous float matrix, copied from memory without any op under test.
torch::Tensor float_rows(const torch::Tensor& matrix, int64_t begin, int64_t end) {
  const int64_t width = matrix.size(1);
  torch::Tensor rows = torch::empty({end - begin, width});
  std::memcpy(rows.data_ptr<float>(), matrix.data_ptr<float>() + begin * width,
              static_cast<size_t>((end - begin) * width) * sizeof(float));
  return rows;
}

// Row i of a contiguous float matrix as a 1-D tensor, copied from memory.
torch::Tensor float_row(const torch::Tensor& matrix, int64_t i) {
  const float* row = matrix.data_ptr<float>() + i * matrix.size(1);
  return torch::tensor(std::vector<float>(row, row + matrix.size(1)));
}

// Entries [begin, end) of a 1-D int64 tensor, copied from memory.
torch::Tensor long_entries(const torch::Tensor& labels, int64_t begin, int64_t end) {
  const int64_t* values = labels.data_ptr<int64_t>();
  return torch::tensor(std::vector<int64_t>(values + begin, values + end));
}

// What a sequential pass over `size` indices in batches of `batch_size` hands out, worked out here:
// 0, 1, ... in order, every batch full but the last, which holds what is left.
std::vector<Indices> sequential_batches(size_t size, size_t batch_size) {
  std::vector<Indices> batches;
  for (size_t start = 0; start < size; start += batch_size) {
    Indices batch;
    for (size_t i = start; i < std::min(start + batch_size, size); ++i) batch.push_back(i);
    batches.push_back(batch);
  }
  return batches;
}

// The sizes of those batches.
std::vector<size_t> batch_sizes(size_t size, size_t batch_size) {
  std::vector<size_t> sizes;
  for (const Indices& batch : sequential_batches(size, batch_size)) sizes.push_back(batch.size());
  return sizes;
}

std::vector<size_t> sizes_of(const std::vector<Indices>& batches) {
  std::vector<size_t> sizes;
  for (const Indices& batch : batches) sizes.push_back(batch.size());
  return sizes;
}

// A drawn size as the size_t the samplers take.
size_t drawn_count(int64_t low, int64_t high) { return static_cast<size_t>(random_int(low, high)); }

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
  // A drawn number of rows of a drawn width, with one label each.
  const int64_t rows = random_int(1, 12);
  const int64_t width = random_int(1, 4);
  data::datasets::TensorDataset drawn(random_tensor({rows, width}), random_tensor({rows}, 0, 9, torch::kLong));
  REQUIRE(drawn.size().has_value());
  CHECK(*drawn.size() == static_cast<size_t>(rows));
  data::datasets::TensorDataset unlabelled(random_tensor({rows, width, 2}));
  CHECK(unlabelled.size().value() == static_cast<size_t>(rows));
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
  // A drawn dataset without targets and a drawn index; the expected row is read from memory here.
  const int64_t rows = random_int(1, 9), width = random_int(1, 4);
  const torch::Tensor values = random_tensor({rows, width});
  data::datasets::TensorDataset drawn(values);
  const int64_t i = random_int(0, rows - 1);
  data::Example<> drawn_example = drawn.get(static_cast<size_t>(i));
  CHECK_THAT(drawn_example.data, Equals(float_row(values, i)));
  CHECK_FALSE(drawn_example.target.defined());
}

TEST_CASE("TensorDataset get refuses an index past the end", "[points=5][dataset]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  CHECK_THAT(dataset.get(4).data, Equals(torch::tensor({40.0, 41.0})));
  CHECK_THROWS_AS(dataset.get(5), torch::Error);
  // The first index past the end gets the dataset's own message, not the tensor indexing error.
  CHECK_THROWS_WITH(dataset.get(5), Catch::Contains("out of range") && Catch::Contains("size 5"));
  CHECK_THROWS_WITH(dataset.get(10), Catch::Contains("out of range") && Catch::Contains("10") && Catch::Contains("5"));
  // A drawn dataset: its last row is served, the index one past it is refused with the size named.
  const int64_t rows = random_int(1, 12), width = random_int(1, 4);
  const torch::Tensor values = random_tensor({rows, width});
  const torch::Tensor labels = random_tensor({rows}, 0, 9, torch::kLong);
  data::datasets::TensorDataset drawn(values, labels);
  const auto count = static_cast<size_t>(rows);
  CHECK_THAT(drawn.get(count - 1).data, Equals(float_row(values, rows - 1)));
  CHECK_THAT(drawn.get(count - 1).target, Equals(torch::scalar_tensor(labels.data_ptr<int64_t>()[rows - 1], torch::kLong)));
  CHECK_THROWS_AS(drawn.get(count), torch::Error);
  CHECK_THROWS_WITH(drawn.get(count), Catch::Contains("out of range") && Catch::Contains("size " + std::to_string(rows)));
}

TEST_CASE("TensorDataset rows are views into the dataset, not copies", "[points=4][dataset][memory]") {
  data::datasets::TensorDataset dataset(five_rows(), five_labels());
  data::Example<> example = dataset.get(3);
  // Row 3 of a contiguous [5, 2] float tensor starts 3 * 2 elements into the same storage.
  CHECK(example.data.is_alias_of(dataset.data));
  CHECK(example.data.storage_offset() == 6);
  CHECK(example.target.is_alias_of(dataset.targets));
  // A drawn [rows, width] dataset: row i starts i * width elements into the data's storage, and
  // target i i elements into the targets' storage.
  const int64_t rows = random_int(1, 9), width = random_int(1, 5);
  const torch::Tensor values = random_tensor({rows, width});
  data::datasets::TensorDataset drawn(values, random_tensor({rows}, 0, 9, torch::kLong));
  const int64_t i = random_int(0, rows - 1);
  data::Example<> row = drawn.get(static_cast<size_t>(i));
  CHECK(row.data.is_alias_of(drawn.data));
  CHECK(row.data.storage_offset() == i * width);
  CHECK(row.target.is_alias_of(drawn.targets));
  CHECK(row.target.storage_offset() == i);
  CHECK_THAT(row.data, Equals(float_row(values, i)));
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
  // A drawn size and batch size: full batches of consecutive indices, then what is left.
  const size_t size = drawn_count(1, 20), batch_size = drawn_count(1, 6);
  data::samplers::SequentialSampler drawn(size);
  CHECK(drain(drawn, batch_size) == sequential_batches(size, batch_size));
  CHECK_FALSE(drawn.next(batch_size).has_value());
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
  // Drawn sizes: a whole epoch, a reset to start over, and a reset to a new size.
  const size_t size = drawn_count(1, 15), new_size = drawn_count(1, 15), batch_size = drawn_count(1, 5);
  data::samplers::SequentialSampler drawn(size);
  CHECK(drain(drawn, batch_size) == sequential_batches(size, batch_size));
  drawn.reset();
  CHECK(drain(drawn, batch_size) == sequential_batches(size, batch_size));
  drawn.reset(new_size);
  CHECK(drain(drawn, batch_size) == sequential_batches(new_size, batch_size));
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
  // A drawn size and batch size: one batch hands out min(batch_size, size), the epoch all of them.
  const size_t size = drawn_count(1, 20), batch_size = drawn_count(1, 6);
  data::samplers::SequentialSampler drawn(size);
  drawn.next(batch_size);
  CHECK(drawn.index() == std::min(batch_size, size));
  drain(drawn, batch_size);
  CHECK(drawn.index() == size);
  drawn.reset();
  CHECK(drawn.index() == 0);
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
  // A drawn size and batch size: the batches are as long as a sequential pass's, and together
  // they hold every index once.
  const size_t size = drawn_count(1, 30), batch_size = drawn_count(1, 8);
  data::samplers::RandomSampler drawn(static_cast<int64_t>(size));
  const std::vector<Indices> drawn_batches = drain(drawn, batch_size);
  CHECK(sizes_of(drawn_batches) == batch_sizes(size, batch_size));
  Indices every = flatten(drawn_batches);
  std::sort(every.begin(), every.end());
  CHECK(every == zero_to(size));
  CHECK(drawn.index() == size);
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
  // A drawn size (at least 12: of 12! orders, the same twice is no accident) and batch size: the
  // same seed again gives the same order in any batches, a reset a new order of the same indices.
  const size_t size = drawn_count(12, 30), batch_size = drawn_count(1, 8);
  torch::manual_seed(7);
  data::samplers::RandomSampler third(static_cast<int64_t>(size));
  const Indices order_c = flatten(drain(third, size));
  torch::manual_seed(7);
  data::samplers::RandomSampler fourth(static_cast<int64_t>(size));
  CHECK(flatten(drain(fourth, batch_size)) == order_c);
  fourth.reset();
  const Indices order_d = flatten(drain(fourth, batch_size));
  CHECK(order_d != order_c);
  Indices sorted_d = order_d;
  std::sort(sorted_d.begin(), sorted_d.end());
  CHECK(sorted_d == zero_to(size));
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
  // Drawn old and new sizes (different, so keeping the old range shows) and a drawn batch size.
  const size_t old_size = drawn_count(1, 15), new_size = old_size + drawn_count(1, 15), batch_size = drawn_count(1, 6);
  data::samplers::RandomSampler drawn(static_cast<int64_t>(old_size));
  drawn.reset(new_size);
  const std::vector<Indices> drawn_batches = drain(drawn, batch_size);
  CHECK(sizes_of(drawn_batches) == batch_sizes(new_size, batch_size));
  Indices every = flatten(drawn_batches);
  std::sort(every.begin(), every.end());
  CHECK(every == zero_to(new_size));
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
  // A drawn number of drawn rows with drawn labels: the batch is the rows, one under the other.
  const int64_t count = random_int(1, 6), width = random_int(1, 4);
  const torch::Tensor rows = random_tensor({count, width});
  const torch::Tensor labels = random_tensor({count}, 0, 9, torch::kLong);
  std::vector<data::Example<>> drawn;
  for (int64_t i = 0; i < count; ++i)
    drawn.push_back({float_row(rows, i), torch::scalar_tensor(labels.data_ptr<int64_t>()[i], torch::kLong)});
  data::Example<> drawn_batch = data::transforms::Stack<>().apply_batch(drawn);
  CHECK_THAT(drawn_batch.data, Equals(rows));
  CHECK_THAT(drawn_batch.target, Equals(labels));
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
  // A drawn number of drawn rows, without targets, as both example types.
  const int64_t count = random_int(1, 6), width = random_int(1, 4);
  const torch::Tensor rows = random_tensor({count, width});
  std::vector<data::Example<>> drawn;
  std::vector<data::TensorExample> drawn_unlabelled;
  for (int64_t i = 0; i < count; ++i) {
    drawn.push_back({float_row(rows, i), torch::Tensor()});
    drawn_unlabelled.emplace_back(float_row(rows, i));
  }
  data::Example<> drawn_batch = data::transforms::Stack<>().apply_batch(drawn);
  CHECK_THAT(drawn_batch.data, Equals(rows));
  CHECK_FALSE(drawn_batch.target.defined());
  CHECK_THAT(data::transforms::Stack<data::TensorExample>().apply_batch(drawn_unlabelled).data, Equals(rows));
}

TEST_CASE("Stack refuses an empty batch and a mix of labelled and unlabelled examples", "[points=3][stack]") {
  CHECK_THROWS_WITH(data::transforms::Stack<>().apply_batch({}), Catch::Contains("empty"));
  std::vector<data::Example<>> mixed = {{torch::tensor({1.0}), torch::scalar_tensor(1)},
                                        {torch::tensor({2.0}), torch::Tensor()}};
  CHECK_THROWS_AS(data::transforms::Stack<>().apply_batch(mixed), torch::Error);
  // A drawn batch with one drawn example missing its target is refused; with all targets it collates.
  const int64_t count = random_int(2, 6);
  const torch::Tensor rows = random_tensor({count, 3});
  const torch::Tensor labels = random_tensor({count}, 0, 9, torch::kLong);
  std::vector<data::Example<>> labelled;
  for (int64_t i = 0; i < count; ++i)
    labelled.push_back({float_row(rows, i), torch::scalar_tensor(labels.data_ptr<int64_t>()[i], torch::kLong)});
  std::vector<data::Example<>> one_unlabelled = labelled;
  one_unlabelled[static_cast<size_t>(random_int(0, count - 1))].target = torch::Tensor();
  CHECK_THROWS_AS(data::transforms::Stack<>().apply_batch(one_unlabelled), torch::Error);
  data::Example<> batch = data::transforms::Stack<>().apply_batch(labelled);
  CHECK_THAT(batch.data, Equals(rows));
  CHECK_THAT(batch.target, Equals(labels));
}

TEST_CASE("one stacked batch of 32 ImageNet images takes 19,267,584 bytes", "[points=2][stack][memory]") {
  // 3 x 224 x 224 = 150,528 floats of 4 bytes = 602,112 bytes per image; x 32 = 19,267,584 B (19.3 MB).
  std::vector<data::Example<>> images(32, data::Example<>(torch::zeros({3, 224, 224}), torch::scalar_tensor(0)));
  data::Example<> batch = data::transforms::Stack<>().apply_batch(images);
  CHECK(batch.data.sizes() == std::vector<int64_t>{32, 3, 224, 224});
  CHECK(batch.data.nbytes() == 19267584u);
  CHECK(batch.target.nbytes() == 32u * 8u);  // int64 labels: 256 bytes, next to nothing
  // A drawn batch of drawn image sizes: B x C x H x W floats of 4 bytes, and B labels of 8.
  const int64_t count = random_int(1, 8), channels = random_int(1, 3), height = random_int(1, 16), width = random_int(1, 16);
  std::vector<data::Example<>> drawn(static_cast<size_t>(count),
                                     data::Example<>(torch::zeros({channels, height, width}), torch::scalar_tensor(0)));
  data::Example<> drawn_batch = data::transforms::Stack<>().apply_batch(drawn);
  CHECK(drawn_batch.data.sizes() == std::vector<int64_t>{count, channels, height, width});
  CHECK(drawn_batch.data.nbytes() == static_cast<size_t>(count * channels * height * width * 4));
  CHECK(drawn_batch.target.nbytes() == static_cast<size_t>(count * 8));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: the DataLoader (your three pieces together; the loader itself is given)
// ---------------------------------------------------------------------------------------------

TEST_CASE("a sequential loader yields stacked batches in order", "[points=8][loader]") {
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
  // A drawn dataset and batch size: batch k holds rows and labels k * B to (k + 1) * B, fewer at the end.
  const int64_t rows = random_int(1, 12), width = random_int(1, 3), batch_size = random_int(1, 5);
  const torch::Tensor values = random_tensor({rows, width});
  const torch::Tensor labels = random_tensor({rows}, 0, 9, torch::kLong);
  auto drawn_loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(values, labels).map(data::transforms::Stack<>()), static_cast<size_t>(batch_size));
  std::vector<data::Example<>> drawn;
  for (auto& batch : *drawn_loader) drawn.push_back(batch);
  REQUIRE(drawn.size() == static_cast<size_t>((rows + batch_size - 1) / batch_size));
  for (size_t k = 0; k < drawn.size(); ++k) {
    const int64_t begin = static_cast<int64_t>(k) * batch_size, end = std::min(begin + batch_size, rows);
    INFO("batch " << k);
    CHECK_THAT(drawn[k].data, Equals(float_rows(values, begin, end)));
    CHECK_THAT(drawn[k].target, Equals(long_entries(labels, begin, end)));
  }
}

TEST_CASE("drop_last skips the short final batch", "[points=4][loader]") {
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(five_rows(), five_labels()).map(data::transforms::Stack<>()),
      data::DataLoaderOptions(2).drop_last(true));
  std::vector<int64_t> sizes;
  for (auto& batch : *loader) sizes.push_back(batch.data.size(0));
  CHECK(sizes == std::vector<int64_t>{2, 2});  // 5 examples: the fifth is dropped
  // A drawn batch size and at least that many rows: rows / B full batches, the rest dropped.
  const int64_t batch_size = random_int(1, 6), rows = random_int(batch_size, 24);
  auto drawn_loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(random_tensor({rows, 2}), random_tensor({rows}, 0, 9, torch::kLong))
          .map(data::transforms::Stack<>()),
      data::DataLoaderOptions(static_cast<size_t>(batch_size)).drop_last(true));
  std::vector<int64_t> drawn_sizes;
  for (auto& batch : *drawn_loader) drawn_sizes.push_back(batch.data.size(0));
  CHECK(drawn_sizes == std::vector<int64_t>(static_cast<size_t>(rows / batch_size), batch_size));
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
  // A drawn dataset and batch size: vectors of B examples (fewer at the end), each its own row.
  const int64_t rows = random_int(1, 12), batch_size = random_int(1, 5);
  const torch::Tensor values = random_tensor({rows, 2});
  const torch::Tensor labels = random_tensor({rows}, 0, 9, torch::kLong);
  auto drawn_loader = data::make_data_loader<data::samplers::SequentialSampler>(
      data::datasets::TensorDataset(values, labels), static_cast<size_t>(batch_size));
  std::vector<size_t> drawn_sizes;
  int64_t next_row = 0;
  for (std::vector<data::Example<>>& batch : *drawn_loader) {
    drawn_sizes.push_back(batch.size());
    for (const data::Example<>& example : batch) {
      INFO("row " << next_row);
      CHECK_THAT(example.data, Equals(float_row(values, next_row)));
      CHECK_THAT(example.target, Equals(torch::scalar_tensor(labels.data_ptr<int64_t>()[next_row], torch::kLong)));
      ++next_row;
    }
  }
  CHECK(drawn_sizes == batch_sizes(static_cast<size_t>(rows), static_cast<size_t>(batch_size)));
}

TEST_CASE("a shuffled loader covers the dataset once per epoch in a new order each time", "[points=6][loader][shuffle]") {
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
  // A drawn number of rows (row i = [10*i, 10*i + 1] again) with drawn labels, in drawn batches:
  // every batch's labels are those of its rows, and one epoch holds every row once.
  const int64_t drawn_rows = random_int(1, 30), batch_size = random_int(1, 8);
  const torch::Tensor drawn_labels = random_tensor({drawn_rows}, 0, 99, torch::kLong);
  std::vector<double> drawn_values;
  for (int64_t i = 0; i < drawn_rows; ++i) drawn_values.insert(drawn_values.end(), {10.0 * i, 10.0 * i + 1});
  auto drawn_loader = data::make_data_loader(
      data::datasets::TensorDataset(torch::tensor(drawn_values).reshape({drawn_rows, 2}), drawn_labels)
          .map(data::transforms::Stack<>()),
      static_cast<size_t>(batch_size));
  std::vector<int64_t> seen;
  for (auto& batch : *drawn_loader) {
    const std::vector<int64_t> ids = row_ids(batch.data);
    std::vector<int64_t> their_labels;
    for (int64_t id : ids) their_labels.push_back(drawn_labels.data_ptr<int64_t>()[id]);
    CHECK_THAT(batch.target, Equals(torch::tensor(their_labels)));
    seen.insert(seen.end(), ids.begin(), ids.end());
  }
  std::sort(seen.begin(), seen.end());
  std::vector<int64_t> every_drawn_row(static_cast<size_t>(drawn_rows));
  for (int64_t i = 0; i < drawn_rows; ++i) every_drawn_row[static_cast<size_t>(i)] = i;
  CHECK(seen == every_drawn_row);
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
  // Drawn images, per-channel means and power-of-two stddevs (so (x - mean) / stddev is exact in
  // float), and a drawn list of indices; the expected batch is worked out value by value here.
  const int64_t count = random_int(1, 4), channels = random_int(1, 3), height = random_int(1, 3), width = random_int(1, 3);
  const torch::Tensor drawn_images = random_tensor({count, channels, height, width});
  const torch::Tensor labels = random_tensor({count}, 0, 9, torch::kLong);
  std::vector<double> means, stddevs;
  for (int64_t c = 0; c < channels; ++c) {
    means.push_back(static_cast<double>(random_int(-8, 8)) / 8);
    stddevs.push_back(static_cast<double>(int64_t{1} << random_int(0, 3)) / 2);  // 0.5, 1, 2 or 4
  }
  auto drawn = data::datasets::TensorDataset(drawn_images, labels)
                   .map(data::transforms::Normalize<>(means, stddevs))
                   .map(data::transforms::Stack<>());
  Indices picked;
  const int64_t picks = random_int(1, 4);
  for (int64_t k = 0; k < picks; ++k) picked.push_back(static_cast<size_t>(random_int(0, count - 1)));
  const int64_t image_size = channels * height * width, plane = height * width;
  torch::Tensor expected_data = torch::empty({picks, channels, height, width});
  std::vector<int64_t> expected_labels;
  for (int64_t k = 0; k < picks; ++k) {
    const auto image = static_cast<int64_t>(picked[static_cast<size_t>(k)]);
    for (int64_t v = 0; v < image_size; ++v) {
      const auto c = static_cast<size_t>(v / plane);
      const double x = drawn_images.data_ptr<float>()[image * image_size + v];
      expected_data.data_ptr<float>()[k * image_size + v] = static_cast<float>((x - means[c]) / stddevs[c]);
    }
    expected_labels.push_back(labels.data_ptr<int64_t>()[image]);
  }
  data::Example<> drawn_batch = drawn.get_batch(picked);
  CHECK_THAT(drawn_batch.data, AllClose(expected_data, 1e-6, 1e-6));
  CHECK_THAT(drawn_batch.target, Equals(torch::tensor(expected_labels)));
}
