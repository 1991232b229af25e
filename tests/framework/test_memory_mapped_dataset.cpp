// torch::from_file and torch::data::datasets::MemoryMappedDataset over files the tests write
// themselves: values read back exactly, shared and private mappings, views into the mapping, errors
// that name the file and the fix; a file larger than this machine's memory, of which only the records
// read become resident; and, where Debian's dataset-fashion-mnist is installed, its raw IDX files.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_helpers.h"
#include "../test_skip.h"

namespace fs = std::filesystem;
using test_helpers::ScratchDir;
namespace datasets = torch::data::datasets;
using datasets::MemoryMappedDataset;
using datasets::RecordFileOptions;
using Bytes = std::vector<unsigned char>;
using Catch::Matchers::Contains;

namespace {

template <typename T>
void write_values(const std::string& path, const std::vector<T>& values, const Bytes& header = {}) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
  REQUIRE(out.good());
}

Bytes read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// 0.5, 1.5, 2.5, ...: every value differs, and each is exact in float.
std::vector<float> halves(int64_t count) {
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + 0.5f;
  return values;
}

// The message `make` throws; fails the test when it throws nothing.
template <typename Make>
std::string error_of(Make make) {
  try {
    make();
  } catch (const c10::Error& error) {
    return error.what();
  }
  FAIL("no error was thrown");
  return "";
}

// Pages of this process in memory now (the second field of /proc/self/statm), in bytes.
int64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t total_pages = 0, resident_pages = 0;
  statm >> total_pages >> resident_pages;
  REQUIRE(statm.good());
  return resident_pages * sysconf(_SC_PAGESIZE);
}

// MemTotal of /proc/meminfo, in bytes.
int64_t physical_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  int64_t kilobytes = 0;
  while (meminfo >> key >> kilobytes >> unit) {
    if (key == "MemTotal:") return kilobytes * 1024;
  }
  return 0;
}

}  // namespace

// ---- torch::from_file ----

TEST_CASE("from_file maps size elements (not bytes) of the file as a 1-D tensor", "[from_file]") {
  ScratchDir scratch("mmap-test");
  const std::string path = scratch.file("values.bin");
  write_values(path, halves(6));
  const torch::Tensor all = torch::from_file(path, /*shared=*/false, 6);
  CHECK(test_helpers::shape(all) == std::vector<int64_t>{6});
  CHECK(all.scalar_type() == torch::kFloat);
  CHECK(all.is_contiguous());
  CHECK(test_helpers::values(all) == std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5});
  CHECK(all.storage().nbytes() == 24);
  // A prefix, another dtype over the same bytes, and the options' requires_grad.
  CHECK(test_helpers::values(torch::from_file(path, std::nullopt, 2)) == std::vector<double>{0.5, 1.5});
  const torch::Tensor bytes = torch::from_file(path, false, 4, torch::kByte);
  CHECK(test_helpers::values(bytes) == std::vector<double>{0, 0, 0, 63});  // 0.5f is 0x3F000000, little-endian
  CHECK(torch::from_file(path, false, 2, torch::TensorOptions().requires_grad(true)).requires_grad());
  // size 0, the default, maps nothing and does not even open the file (as LibTorch).
  CHECK(torch::from_file(path).numel() == 0);
  CHECK(torch::from_file(scratch.file("missing.bin")).numel() == 0);
}

TEST_CASE("from_file shared=true writes go to the file; a private mapping's writes stay in memory", "[from_file]") {
  ScratchDir scratch("mmap-test");
  const std::string path = scratch.file("values.bin");
  write_values(path, std::vector<int32_t>{1, 2, 3, 4});
  {
    const torch::Tensor mapped = torch::from_file(path, /*shared=*/false, 4, torch::kInt);
    mapped[0].fill_(100);
    CHECK(test_helpers::values(mapped) == std::vector<double>{100, 2, 3, 4});
    CHECK(test_helpers::values(torch::from_file(path, false, 4, torch::kInt)) == std::vector<double>{1, 2, 3, 4});
  }
  {
    const torch::Tensor writer = torch::from_file(path, /*shared=*/true, 4, torch::kInt);
    const torch::Tensor reader = torch::from_file(path, /*shared=*/true, 4, torch::kInt);
    writer[2].fill_(300);
    CHECK(reader[2].item<int32_t>() == 300);  // one page of the file, seen by both mappings
  }
  CHECK(test_helpers::values(torch::from_file(path, false, 4, torch::kInt)) == std::vector<double>{1, 2, 300, 4});
  // A view keeps the mapping alive after the tensor it came from is gone.
  torch::Tensor tail;
  {
    const torch::Tensor mapped = torch::from_file(path, false, 4, torch::kInt);
    tail = mapped.narrow(0, 2, 2);
  }
  CHECK(test_helpers::values(tail) == std::vector<double>{300, 4});
}

TEST_CASE("from_file shared=true creates a missing file and grows a short one with zeros", "[from_file]") {
  ScratchDir scratch("mmap-test");
  const std::string created = scratch.file("created.bin");
  const torch::Tensor fresh = torch::from_file(created, true, 3, torch::kLong);
  CHECK(test_helpers::values(fresh) == std::vector<double>{0, 0, 0});
  CHECK(fs::file_size(created) == 24);

  const std::string short_file = scratch.file("short.bin");
  write_values(short_file, Bytes{7, 8, 9});
  const torch::Tensor grown = torch::from_file(short_file, true, 5, torch::kByte);
  // LibTorch 1.13 also overwrites the first byte with 0 here; the file's own bytes are kept.
  CHECK(test_helpers::values(grown) == std::vector<double>{7, 8, 9, 0, 0});
  CHECK(read_bytes(short_file) == Bytes{7, 8, 9, 0, 0});
}

TEST_CASE("from_file errors keep LibTorch's wording and add the fix", "[from_file]") {
  ScratchDir scratch("mmap-test");
  const std::string path = scratch.file("values.bin");
  write_values(path, halves(6));
  const std::string too_small = error_of([&] { torch::from_file(path, false, 7); });
  CHECK_THAT(too_small, Contains("file <" + path + "> size is smaller than the required mapping size <28>"));
  CHECK_THAT(too_small, Contains("has 24 bytes"));
  CHECK_THAT(too_small, Contains("at most 6 elements"));
  CHECK_THAT(too_small, Contains("shared=true"));
  CHECK(fs::file_size(path) == 24);  // a private mapping never grows the file
  CHECK_THAT(error_of([&] { torch::from_file(scratch.file("missing.bin"), false, 2); }),
             Contains("unable to open file <" + scratch.file("missing.bin") +
                      "> in read-only mode: No such file or directory (2)"));
  CHECK_THAT(error_of([&] { torch::from_file("", false, 2); }),
             Contains("unable to open file <filename not specified> in read-only mode"));
  CHECK_THAT(error_of([&] { torch::from_file(path, false, -1); }), Contains("cannot be negative, but got -1"));
}

// ---- MemoryMappedDataset ----

TEST_CASE("MemoryMappedDataset reads records back exactly, after a header, with targets", "[mmap]") {
  ScratchDir scratch("mmap-test");
  // 5 records of {2, 3} floats after a 12-byte header; 5 int64 labels after an 8-byte header.
  write_values(scratch.file("features.bin"), halves(30), Bytes(12, 0xEE));
  write_values(scratch.file("labels.bin"), std::vector<int64_t>{40, 41, 42, 43, 44}, Bytes(8, 0xEE));
  MemoryMappedDataset dataset(RecordFileOptions(scratch.file("features.bin"), {2, 3}).header_bytes(12),
                              RecordFileOptions(scratch.file("labels.bin"), {}).dtype(torch::kLong).header_bytes(8));
  REQUIRE(dataset.size() == std::optional<size_t>(5));
  for (size_t i = 0; i < 5; ++i) {
    const auto example = dataset.get(i);
    CHECK(test_helpers::shape(example.data) == std::vector<int64_t>{2, 3});
    CHECK(example.data.scalar_type() == torch::kFloat);
    std::vector<double> expected;
    for (size_t e = 0; e < 6; ++e) expected.push_back(static_cast<double>(i * 6 + e) + 0.5);
    CHECK(test_helpers::values(example.data) == expected);
    CHECK(example.target.dim() == 0);
    CHECK(example.target.item<int64_t>() == 40 + static_cast<int64_t>(i));
  }
  // Without targets the target is undefined, and batches stack like any dataset's.
  MemoryMappedDataset unlabelled(RecordFileOptions(scratch.file("features.bin"), {6}).header_bytes(12));
  CHECK_FALSE(unlabelled.get(0).target.defined());
  auto stacked = unlabelled.map(torch::data::transforms::Stack<>());
  const auto batch = stacked.get_batch({4, 1});
  CHECK(test_helpers::shape(batch.data) == std::vector<int64_t>{2, 6});
  CHECK(batch.data[0][0].item<float>() == 24.5f);
  CHECK(batch.data[1][0].item<float>() == 6.5f);
}

TEST_CASE("MemoryMappedDataset examples are views of one mapping of the file", "[mmap]") {
  ScratchDir scratch("mmap-test");
  const std::string path = scratch.file("features.bin");
  write_values(path, halves(12));
  MemoryMappedDataset dataset(RecordFileOptions(path, {4}));
  const torch::Tensor first = dataset.get(0).data, last = dataset.get(2).data;
  CHECK(first.storage().is_alias_of(last.storage()));
  CHECK(last.storage_offset() == 8);
  CHECK(last.data_ptr() == dataset.get(2).data.data_ptr());
  // The mapping is private: a write is seen by later get() calls of this process, never by the file.
  last.fill_(-1);
  CHECK(test_helpers::values(dataset.get(2).data) == std::vector<double>{-1, -1, -1, -1});
  CHECK(test_helpers::values(MemoryMappedDataset(RecordFileOptions(path, {4})).get(2).data) ==
        std::vector<double>{8.5, 9.5, 10.5, 11.5});
}

TEST_CASE("MemoryMappedDataset refuses files that do not hold whole records, and other bad input", "[mmap]") {
  ScratchDir scratch("mmap-test");
  const std::string features = scratch.file("features.bin"), labels = scratch.file("labels.bin");
  write_values(features, halves(10));  // 40 bytes
  write_values(labels, std::vector<int64_t>{1, 2, 3});

  const std::string cut = error_of([&] { MemoryMappedDataset(RecordFileOptions(features, {3})); });
  CHECK_THAT(cut, Contains(features));
  CHECK_THAT(cut, Contains("40 bytes"));
  CHECK_THAT(cut, Contains("records of 12 bytes"));

  const std::string mismatch = error_of([&] {
    MemoryMappedDataset(RecordFileOptions(features, {2}), RecordFileOptions(labels, {}).dtype(torch::kLong));
  });
  CHECK_THAT(mismatch, Contains(features));
  CHECK_THAT(mismatch, Contains(labels));
  CHECK_THAT(mismatch, Contains("holds 5 records"));
  CHECK_THAT(mismatch, Contains("holds 3"));

  MemoryMappedDataset dataset(RecordFileOptions(features, {5}));
  CHECK_THAT(error_of([&] { dataset.get(2); }), Contains("index 2 is out of range for a dataset of size 2"));

  CHECK_THAT(error_of([&] { MemoryMappedDataset(RecordFileOptions(scratch.file("missing.bin"), {2})); }),
             Contains("cannot open the data file " + scratch.file("missing.bin") + ": No such file or directory"));
  CHECK_THAT(error_of([&] { MemoryMappedDataset(RecordFileOptions(features, {2}).header_bytes(6)); }),
             Contains("not a whole number of Float elements"));
  CHECK_THAT(error_of([&] { MemoryMappedDataset(RecordFileOptions(features, {2}).header_bytes(44)); }),
             Contains("too few for a header of 44 bytes"));
  CHECK_THAT(error_of([&] { MemoryMappedDataset(RecordFileOptions(features, {2, 0})); }), Contains("have no elements"));
  CHECK_THAT(error_of([&] { MemoryMappedDataset(RecordFileOptions(scratch.path.string(), {2})); }),
             Contains("is not a regular file"));
  // An empty file is a dataset of no records.
  write_values(scratch.file("empty.bin"), Bytes{});
  CHECK(MemoryMappedDataset(RecordFileOptions(scratch.file("empty.bin"), {2})).size() == std::optional<size_t>(0));
}

TEST_CASE("MemoryMappedDataset over a file larger than memory makes only the records read resident", "[mmap][needs_sparse_files]") {
  const int64_t memory = physical_memory_bytes();
  if (memory <= 0) SKIP_TEST("/proc/meminfo gives no MemTotal, so the test cannot size a file larger than memory");
  constexpr int64_t kRecordBytes = int64_t{1} << 20;  // 1 MiB: 262144 floats
  const int64_t records = memory / kRecordBytes + 1024;  // 1 GiB more than the machine has
  ScratchDir scratch("mmap-test");
  const std::string path = scratch.file("huge.bin");
  {
    // A sparse file: ftruncate allocates no blocks, so it costs no disk space either.
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    REQUIRE(fd >= 0);
    const bool sized = ::ftruncate(fd, records * kRecordBytes) == 0;
    ::close(fd);
    if (!sized) SKIP_TEST("the temp dir's file system cannot hold a sparse file of " << records << " MiB");
  }
  // Measured before the dataset is built: building it must not read the file either.
  const int64_t before = resident_bytes();
  MemoryMappedDataset dataset(RecordFileOptions(path, {kRecordBytes / 4}));
  REQUIRE(dataset.size() == std::optional<size_t>(static_cast<size_t>(records)));
  double total = 0;
  for (const int64_t index : {int64_t{0}, records / 2, records - 1}) {
    total += dataset.get(static_cast<size_t>(index)).data.sum().item<double>();  // reads every element
  }
  const int64_t grown = resident_bytes() - before;
  CHECK(total == 0.0);  // the holes of a sparse file read as zeros
  INFO("resident memory grew by " << grown / 1024 << " KiB after reading 3 records of 1 MiB from a "
                                  << records << " MiB file (memory: " << memory / (1 << 20) << " MiB)");
  // 3 MiB read, plus what the kernel maps around each fault and the sums' own allocations: a whole
  // file read would be more than the machine's memory.
  CHECK(grown < 32 * kRecordBytes);
}

TEST_CASE("MemoryMappedDataset reads Fashion-MNIST's IDX files as MNIST does", "[mmap][needs_fashion_mnist]") {
  const std::string root = datasets::kFashionMnistPackageDir;
  if (!datasets::mnist_files_present(root)) {
    SKIP_TEST("Fashion-MNIST is not installed in " << root << "; install it with: "
                                                   << datasets::kFashionMnistInstallCommand);
  }
  // The package installs .gz files; mmap needs the raw bytes, so the test files are unpacked first.
  ScratchDir scratch("mmap-test");
  for (const std::string name : {"t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
    gzFile in = gzopen((root + "/" + name + ".gz").c_str(), "rb");
    REQUIRE(in != nullptr);
    std::ofstream out(scratch.file(name), std::ios::binary);
    std::vector<char> chunk(1 << 16);
    int got = 0;
    while ((got = gzread(in, chunk.data(), static_cast<unsigned>(chunk.size()))) > 0) out.write(chunk.data(), got);
    gzclose(in);
    REQUIRE(got == 0);
  }
  MemoryMappedDataset mapped(
      RecordFileOptions(scratch.file("t10k-images-idx3-ubyte"), {1, 28, 28}).dtype(torch::kByte).header_bytes(16),
      RecordFileOptions(scratch.file("t10k-labels-idx1-ubyte"), {}).dtype(torch::kByte).header_bytes(8));
  datasets::MNIST read(scratch.path.string(), datasets::MNIST::Mode::kTest);
  REQUIRE(mapped.size() == std::optional<size_t>(10000));
  for (const size_t i : {size_t{0}, size_t{1}, size_t{4999}, size_t{9999}}) {
    const auto example = mapped.get(i);
    CHECK(test_helpers::shape(example.data) == std::vector<int64_t>{1, 28, 28});
    CHECK(torch::equal(example.data.to(torch::kFloat).div(255), read.get(i).data));
    CHECK(example.target.item<int64_t>() == read.get(i).target.item<int64_t>());
  }
}
