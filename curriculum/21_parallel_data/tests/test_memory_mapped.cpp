// Module 21 (Parallel data loading): the graded tests of MemoryMappedDataset, the dataset whose
// records stay in their files. 15 points here; test_parallel_loading.cpp has the other 85. Each case
// is tagged with its points and the topic [mmap]; hints.json has a hint per case name. Every case
// goes through code the learner writes: count_records, record, get, size and the two-file
// constructor's check.
// Each case writes its own small files (into the temp dir) from values drawn by random_int /
// random_tensor, and works the expected records out from those values in memory with plain loops:
// under `tito grade` they come from a secret seed, so only code that computes the answer gets them
// right (`tito module test` draws with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using torch::data::datasets::MemoryMappedDataset;
using torch::data::datasets::RecordFileOptions;
using Catch::Matchers::Contains;
using Bytes = std::vector<unsigned char>;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the temp dir, removed with its files at the end of the case.
struct ScratchDir {
  ScratchDir() {
    std::string name = (fs::temp_directory_path() / "tinytorch-mmap-XXXXXX").string();
    REQUIRE(mkdtemp(name.data()) != nullptr);
    path = name;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
  fs::path path;
};

// Writes `header` and then the elements of `values` as they lie in memory (row-major, native byte order).
void write_file(const std::string& path, const Bytes& header, const torch::Tensor& values) {
  const torch::Tensor flat = values.contiguous();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  out.write(static_cast<const char*>(flat.data_ptr()),
            static_cast<std::streamsize>(flat.numel() * static_cast<int64_t>(flat.element_size())));
  REQUIRE(out.good());
}

// `count` records of `rows` x `columns` floats, drawn; record i is drawn[i].
torch::Tensor drawn_records(int64_t count, int64_t rows, int64_t columns) {
  return random_tensor({count, rows, columns});
}

// Record i of a contiguous [N, ...] float tensor as its own tensor, copied from memory.
torch::Tensor float_record(const torch::Tensor& records, int64_t i) {
  const int64_t elements = records.numel() / records.size(0);
  const float* first = records.data_ptr<float>() + i * elements;
  std::vector<int64_t> shape(records.sizes().begin() + 1, records.sizes().end());
  return torch::tensor(std::vector<float>(first, first + elements)).reshape(shape);
}

// Random labels in [0, 9] as int64, one per record.
torch::Tensor drawn_labels(int64_t count) { return random_tensor({count}, 0, 9, torch::kLong); }

// A header of `size` bytes that no record could be mistaken for (0xAB everywhere).
Bytes header_of(int64_t size) { return Bytes(static_cast<size_t>(size), 0xAB); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 7: Datasets larger than memory (memory_mapped_dataset.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("MemoryMappedDataset size counts the records in the file", "[points=2][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(3, 9), rows = random_int(2, 4), columns = random_int(2, 5);
  write_file(scratch.file("features.bin"), {}, drawn_records(count, rows, columns));
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {rows, columns}));
  CHECK(dataset.size() == std::optional<size_t>(static_cast<size_t>(count)));

  // The arithmetic alone: a header, then records of 4-byte floats.
  const int64_t header = 4 * random_int(1, 6), many = random_int(10, 1000);
  const auto options = RecordFileOptions("any.bin", {rows, columns}).header_bytes(header);
  CHECK(MemoryMappedDataset::count_records(options, header + many * rows * columns * 4) == many);
  CHECK(MemoryMappedDataset::count_records(options, header) == 0);
  // A record of shape {} is one element: a file of int64 labels holds one record per 8 bytes.
  CHECK(MemoryMappedDataset::count_records(RecordFileOptions("labels.bin", {}).dtype(torch::kLong), 8 * many) == many);
}

TEST_CASE("MemoryMappedDataset get returns record i of the file, counted in elements of its dtype", "[points=3][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(4, 8), rows = random_int(2, 3), columns = random_int(2, 4);
  const torch::Tensor records = drawn_records(count, rows, columns);
  const torch::Tensor labels = drawn_labels(count);
  write_file(scratch.file("features.bin"), {}, records);
  write_file(scratch.file("labels.bin"), {}, labels);
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {rows, columns}),
                              RecordFileOptions(scratch.file("labels.bin"), {}).dtype(torch::kLong));
  REQUIRE(dataset.size() == std::optional<size_t>(static_cast<size_t>(count)));
  for (int64_t i = 0; i < count; ++i) {
    INFO("record " << i << " of " << count);
    const auto example = dataset.get(static_cast<size_t>(i));
    CHECK_THAT(example.data, Equals(float_record(records, i)));
    CHECK_THAT(example.target, Equals(torch::tensor(labels.data_ptr<int64_t>()[i])));
  }
}

TEST_CASE("MemoryMappedDataset skips the header before the first record", "[points=3][mmap]") {
  ScratchDir scratch;
  // Fashion-MNIST's IDX layout: 16 header bytes before the uint8 images, 8 before the uint8 labels.
  const int64_t count = random_int(3, 6), side = random_int(3, 5);
  const torch::Tensor pixels = random_tensor({count, 1, side, side}, 0, 255, torch::kLong).to(torch::kByte);
  const torch::Tensor classes = drawn_labels(count).to(torch::kByte);
  write_file(scratch.file("images-idx3-ubyte"), header_of(16), pixels);
  write_file(scratch.file("labels-idx1-ubyte"), header_of(8), classes);
  MemoryMappedDataset idx(
      RecordFileOptions(scratch.file("images-idx3-ubyte"), {1, side, side}).dtype(torch::kByte).header_bytes(16),
      RecordFileOptions(scratch.file("labels-idx1-ubyte"), {}).dtype(torch::kByte).header_bytes(8));
  REQUIRE(idx.size() == std::optional<size_t>(static_cast<size_t>(count)));
  for (int64_t i = 0; i < count; ++i) {
    INFO("IDX record " << i);
    const auto example = idx.get(static_cast<size_t>(i));
    const unsigned char* image = pixels.data_ptr<uint8_t>() + i * side * side;
    CHECK_THAT(example.data, Equals(torch::tensor(std::vector<int64_t>(image, image + side * side))
                                        .to(torch::kByte)
                                        .reshape({1, side, side})));
    CHECK_THAT(example.target, Equals(torch::tensor(int64_t{classes.data_ptr<uint8_t>()[i]}).to(torch::kByte)));
  }

  // A header in bytes before 4-byte floats: it is header_bytes / 4 elements, not header_bytes.
  const int64_t header = 4 * random_int(2, 5), length = random_int(3, 6);
  const torch::Tensor records = drawn_records(count, 1, length);
  write_file(scratch.file("floats.bin"), header_of(header), records);
  MemoryMappedDataset floats(RecordFileOptions(scratch.file("floats.bin"), {length}).header_bytes(header));
  REQUIRE(floats.size() == std::optional<size_t>(static_cast<size_t>(count)));
  for (int64_t i = 0; i < count; ++i) {
    INFO("float record " << i << " after a header of " << header << " bytes");
    CHECK_THAT(floats.get(static_cast<size_t>(i)).data, Equals(float_record(records, i).reshape({length})));
  }
}

TEST_CASE("MemoryMappedDataset examples are views into the mapped file, not copies", "[points=2][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(3, 6), length = random_int(2, 6);
  write_file(scratch.file("features.bin"), {}, drawn_records(count, 1, length));
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {length}));
  const int64_t i = random_int(1, count - 1);
  const torch::Tensor first = dataset.get(0).data;
  const torch::Tensor again = dataset.get(static_cast<size_t>(i)).data;
  const torch::Tensor once_more = dataset.get(static_cast<size_t>(i)).data;
  // One storage (the mapping) under every example, each record at its own place in it.
  CHECK(first.storage().is_alias_of(again.storage()));
  CHECK(again.data_ptr() == once_more.data_ptr());
  CHECK(static_cast<const char*>(again.data_ptr()) - static_cast<const char*>(first.data_ptr()) ==
        static_cast<std::ptrdiff_t>(i * length * 4));
  // A write through one example is what the next get() of that record sees (it never reaches the file).
  const float marker = static_cast<float>(random_int(100, 200));
  again.fill_(marker);
  CHECK_THAT(dataset.get(static_cast<size_t>(i)).data, Equals(torch::full({length}, marker)));
}

TEST_CASE("MemoryMappedDataset refuses a file that is not a whole number of records", "[points=2][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(2, 60), length = random_int(2, 5), extra = random_int(1, 4 * length - 1);
  const std::string path = scratch.file("features.bin");
  // `count` records and then `extra` bytes of a record that was cut off.
  Bytes tail(static_cast<size_t>(extra), 0);
  std::vector<float> values(static_cast<size_t>(count * length), 1.0f);
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * 4));
    out.write(reinterpret_cast<const char*>(tail.data()), static_cast<std::streamsize>(tail.size()));
  }
  const int64_t file_bytes = count * length * 4 + extra;
  INFO("a file of " << file_bytes << " bytes, records of " << length * 4 << " bytes");
  CHECK_THROWS_WITH(MemoryMappedDataset(RecordFileOptions(path, {length})),
                    Contains(path) && Contains(std::to_string(file_bytes)) && Contains(std::to_string(length * 4)));
  // With a header in front the rule is the same: what follows the header must be whole records.
  const auto options = RecordFileOptions(path, {length}).header_bytes(4 * random_int(1, 3));
  CHECK_THROWS_WITH(MemoryMappedDataset::count_records(options, options.header_bytes() + count * length * 4 + extra),
                    Contains(path));
  CHECK(MemoryMappedDataset::count_records(options, options.header_bytes() + count * length * 4) == count);
}

TEST_CASE("MemoryMappedDataset refuses targets whose count differs from the data's", "[points=2][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(3, 60), missing = random_int(1, 2), length = random_int(2, 4);
  write_file(scratch.file("features.bin"), {}, drawn_records(count, 1, length));
  write_file(scratch.file("labels.bin"), {}, drawn_labels(count - missing));
  CHECK_THROWS_WITH(MemoryMappedDataset(RecordFileOptions(scratch.file("features.bin"), {length}),
                                        RecordFileOptions(scratch.file("labels.bin"), {}).dtype(torch::kLong)),
                    Contains(scratch.file("labels.bin")) && Contains(std::to_string(count)) &&
                        Contains(std::to_string(count - missing)));
  // One target per example is accepted.
  write_file(scratch.file("labels.bin"), {}, drawn_labels(count));
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {length}),
                              RecordFileOptions(scratch.file("labels.bin"), {}).dtype(torch::kLong));
  REQUIRE(dataset.size().has_value());
  CHECK(*dataset.size() == static_cast<size_t>(count));
}

TEST_CASE("MemoryMappedDataset get refuses an index past the end", "[points=1][mmap]") {
  ScratchDir scratch;
  const int64_t count = random_int(2, 60);
  write_file(scratch.file("features.bin"), {}, drawn_records(count, 1, 3));
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {3}));
  REQUIRE(dataset.size().has_value());
  CHECK(*dataset.size() == static_cast<size_t>(count));
  CHECK_NOTHROW(dataset.get(static_cast<size_t>(count - 1)));
  CHECK_THROWS_WITH(dataset.get(static_cast<size_t>(count)),
                    Contains("out of range") && Contains("index " + std::to_string(count)) &&
                        Contains("size " + std::to_string(count)));
}
