// torch::data::datasets::CIFAR10, the binary-batch reader: small files of the real format, written
// here, read back exactly (labels, channel planes, order across batches); missing, truncated, empty
// and mislabelled files give errors that name the file and the fix.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace fs = std::filesystem;
namespace datasets = torch::data::datasets;
using Mode = datasets::CIFAR10::Mode;
using Bytes = std::vector<unsigned char>;

namespace {

constexpr int kImageBytes = 3 * 32 * 32;

// Record `first + i` of a file: label (7 * n + 3) % 10, pixel byte p is (n * 13 + p) % 256, so
// every record differs, every byte value occurs, and the three channel planes differ.
Bytes batch_file(int first, int records) {
  Bytes out;
  for (int i = 0; i < records; ++i) {
    const int n = first + i;
    out.push_back(static_cast<unsigned char>((7 * n + 3) % 10));
    for (int p = 0; p < kImageBytes; ++p) out.push_back(static_cast<unsigned char>((n * 13 + p) % 256));
  }
  return out;
}

// test_helpers::ScratchDir, with this dataset's files written into it.
struct ScratchDir : test_helpers::ScratchDir {
  ScratchDir() : test_helpers::ScratchDir("cifar10-test") {}
  void write(const fs::path& file, const Bytes& bytes) const {
    fs::create_directories((path / file).parent_path());
    std::ofstream out(path / file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
  }
  // Five training batches of `per_batch` records (numbered on across the batches) and a test batch
  // of `test` records, numbered from 1000; under `folder` when given.
  void write_dataset(int per_batch, int test, const std::string& folder = "") const {
    for (int b = 1; b <= 5; ++b)
      write(fs::path(folder) / ("data_batch_" + std::to_string(b) + ".bin"), batch_file((b - 1) * per_batch, per_batch));
    write(fs::path(folder) / "test_batch.bin", batch_file(1000, test));
  }
  std::string root() const { return path.string(); }
};

std::string error_of(const std::string& root, Mode mode = Mode::kTrain) {
  try {
    datasets::CIFAR10 dataset(root, mode);
  } catch (const c10::Error& error) {
    return error.what();
  } catch (const std::exception& error) {
    FAIL("CIFAR10 threw something other than c10::Error: " << error.what());
  }
  FAIL("CIFAR10(" << root << ") read the files without an error");
  return "";
}

// The records numbered first .. first + count - 1 read back exactly, in order.
void check_reads_back(const datasets::CIFAR10& dataset, int first, int count) {
  REQUIRE(dataset.size().value() == static_cast<size_t>(count));
  CHECK(test_helpers::shape(dataset.images()) == std::vector<int64_t>{count, 3, 32, 32});
  CHECK(dataset.images().scalar_type() == torch::kFloat);
  CHECK(dataset.targets().scalar_type() == torch::kLong);
  const std::vector<double> pixels = test_helpers::values(dataset.images());
  bool exact = true;  // byte b reads back as b / 255 in float32
  for (int i = 0; i < count; ++i)
    for (int p = 0; p < kImageBytes; ++p) {
      const float expected = static_cast<float>(((first + i) * 13 + p) % 256) / 255.0f;
      exact = exact && pixels[static_cast<size_t>(i * kImageBytes + p)] == static_cast<double>(expected);
    }
  CHECK(exact);
  std::vector<double> expected_labels;
  for (int i = 0; i < count; ++i) expected_labels.push_back(static_cast<double>((7 * (first + i) + 3) % 10));
  CHECK(test_helpers::values(dataset.targets()) == expected_labels);
}

}  // namespace

TEST_CASE("CIFAR10 reads the five training batches in order and the test batch", "[data][cifar10]") {
  ScratchDir dir;
  dir.write_dataset(/*per_batch=*/3, /*test=*/4);
  datasets::CIFAR10 train(dir.root());  // Mode::kTrain by default, as MNIST
  CHECK(train.is_train());
  check_reads_back(train, 0, 15);
  datasets::CIFAR10 test(dir.root(), Mode::kTest);
  CHECK_FALSE(test.is_train());
  check_reads_back(test, 1000, 4);
  CHECK(datasets::cifar10_files_present(dir.root()));
}

TEST_CASE("CIFAR10: a record's 3072 bytes are the red, green and blue planes, row by row", "[data][cifar10]") {
  ScratchDir dir;
  dir.write_dataset(1, 1);
  Bytes record(1 + kImageBytes, 0);
  record[0] = 9;
  record[1 + 0 * 1024 + 2 * 32 + 5] = 255;  // red, row 2, column 5
  record[1 + 1 * 1024 + 31 * 32 + 0] = 51;  // green, row 31, column 0
  record[1 + 2 * 1024 + 0 * 32 + 31] = 102; // blue, row 0, column 31
  dir.write("test_batch.bin", record);
  datasets::CIFAR10 test(dir.root(), Mode::kTest);
  torch::data::Example<> example = test.get(0);
  CHECK(test_helpers::shape(example.data) == std::vector<int64_t>{3, 32, 32});
  CHECK(example.target.item<int64_t>() == 9);
  CHECK(example.data[0][2][5].item<float>() == 1.0f);
  CHECK(example.data[1][31][0].item<float>() == 51.0f / 255.0f);
  CHECK(example.data[2][0][31].item<float>() == 102.0f / 255.0f);
  CHECK(example.data.sum().item<float>() == Approx(1.0 + 0.2 + 0.4));
  CHECK_THROWS_WITH(test.get(1), Catch::Contains("index 1 is out of range for a dataset of 1 images"));
}

TEST_CASE("CIFAR10 accepts the folder that holds cifar-10-batches-bin/ and feeds a DataLoader", "[data][cifar10]") {
  ScratchDir dir;
  dir.write_dataset(4, 2, "cifar-10-batches-bin");
  CHECK(datasets::cifar10_files_present(dir.root()));
  datasets::CIFAR10 train(dir.root());
  check_reads_back(train, 0, 20);
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      train.map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions().batch_size(8));
  std::vector<int64_t> batch_sizes;
  for (auto& batch : *loader) {
    CHECK(test_helpers::shape(batch.data).size() == 4);
    batch_sizes.push_back(batch.data.size(0));
  }
  CHECK(batch_sizes == std::vector<int64_t>{8, 8, 4});
}

TEST_CASE("CIFAR10 names a missing folder or batch file and where to get the dataset", "[data][cifar10]") {
  ScratchDir dir;
  const std::string nowhere = dir.root() + "/no-such-folder";
  std::string message = error_of(nowhere);
  CHECK_THAT(message, Catch::Contains("the folder " + nowhere + " does not exist"));
  CHECK_THAT(message, Catch::Contains("cifar-10-binary.tar.gz"));
  CHECK_FALSE(datasets::cifar10_files_present(nowhere));

  dir.write_dataset(2, 2);
  fs::remove(dir.path / "data_batch_3.bin");
  CHECK_FALSE(datasets::cifar10_files_present(dir.root()));
  message = error_of(dir.root());
  CHECK_THAT(message, Catch::Contains("the batch file " + (dir.path / "data_batch_3.bin").string() + " is missing"));
  CHECK_THAT(message, Catch::Contains("https://www.cs.toronto.edu/~kriz/cifar.html"));
  datasets::CIFAR10 test(dir.root(), Mode::kTest);  // the test split does not need the training batches
  CHECK(test.size().value() == 2);
}

TEST_CASE("CIFAR10 reports a truncated, empty or mislabelled batch file", "[data][cifar10]") {
  ScratchDir dir;
  dir.write_dataset(2, 2);
  Bytes cut = batch_file(0, 2);
  cut.resize(cut.size() - 100);  // the second record loses its last 100 pixels
  dir.write("data_batch_2.bin", cut);
  std::string message = error_of(dir.root());
  CHECK_THAT(message, Catch::Contains((dir.path / "data_batch_2.bin").string() + " is 6046 bytes long"));
  CHECK_THAT(message, Catch::Contains("not a whole number of 3073-byte records"));
  CHECK_THAT(message, Catch::Contains("truncated or damaged"));
  CHECK_THAT(message, Catch::Contains("cifar-10-binary.tar.gz"));

  dir.write("test_batch.bin", {});
  message = error_of(dir.root(), Mode::kTest);
  CHECK_THAT(message, Catch::Contains("test_batch.bin is 0 bytes long"));
  CHECK_THAT(message, Catch::Contains("it is empty"));

  Bytes mislabelled = batch_file(0, 2);
  mislabelled[3073] = 42;  // record 1's label
  dir.write("test_batch.bin", mislabelled);
  message = error_of(dir.root(), Mode::kTest);
  CHECK_THAT(message, Catch::Contains("record 1 of " + (dir.path / "test_batch.bin").string() + " has the label 42"));
}
