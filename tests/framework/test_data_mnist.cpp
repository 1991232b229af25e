// torch::data::datasets::MNIST, the IDX reader: small files the tests write themselves (plain and
// gzip) read back exactly; missing, truncated, mislabelled and mismatched files give errors that name
// the file and the fix; and, where Debian's dataset-fashion-mnist is installed, the real files.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
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
namespace datasets = torch::data::datasets;
using Mode = datasets::MNIST::Mode;
using Bytes = std::vector<unsigned char>;

namespace {

constexpr int kPixels = 28 * 28;

void put_uint32(Bytes& out, uint32_t value) {  // IDX integers are big-endian
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(value >> shift));
}

// Image i: pixel p is (i * 31 + p) % 256, so every image differs and every byte value occurs.
Bytes image_file(uint32_t count, uint32_t magic = 2051, uint32_t rows = 28, uint32_t columns = 28) {
  Bytes out;
  put_uint32(out, magic);
  put_uint32(out, count);
  put_uint32(out, rows);
  put_uint32(out, columns);
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t p = 0; p < rows * columns; ++p) out.push_back(static_cast<unsigned char>((i * 31 + p) % 256));
  return out;
}

// Label i is (3 * i + 1) % 10.
Bytes label_file(uint32_t count, uint32_t magic = 2049) {
  Bytes out;
  put_uint32(out, magic);
  put_uint32(out, count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(static_cast<unsigned char>((3 * i + 1) % 10));
  return out;
}

Bytes gzipped(const Bytes& plain, const fs::path& scratch) {
  const fs::path tmp = scratch / "compress.tmp";
  gzFile file = gzopen(tmp.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, plain.data(), static_cast<unsigned>(plain.size())) == static_cast<int>(plain.size()));
  REQUIRE(gzclose(file) == Z_OK);
  std::ifstream in(tmp, std::ios::binary);
  Bytes out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(tmp);
  return out;
}

// A fresh folder under the system temp dir, removed with everything in it at the end of the test.
// test_helpers::ScratchDir, with this dataset's files written into it.
struct ScratchDir : test_helpers::ScratchDir {
  ScratchDir() : test_helpers::ScratchDir("mnist-test") {}
  void write(const std::string& name, const Bytes& bytes) const {
    std::ofstream out(path / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
  }
  // The four files of a dataset with `count` training and `count` test examples.
  void write_dataset(uint32_t count, bool gzip) const {
    for (const std::string split : {"train", "t10k"}) {
      const Bytes images = image_file(count), labels = label_file(count);
      write(split + "-images-idx3-ubyte" + (gzip ? ".gz" : ""), gzip ? gzipped(images, path) : images);
      write(split + "-labels-idx1-ubyte" + (gzip ? ".gz" : ""), gzip ? gzipped(labels, path) : labels);
    }
  }
  std::string root() const { return path.string(); }
};

// The message MNIST(root, mode) throws; fails the test when it throws nothing.
std::string error_of(const std::string& root, Mode mode = Mode::kTrain) {
  try {
    datasets::MNIST dataset(root, mode);
  } catch (const c10::Error& error) {
    return error.what();
  } catch (const std::exception& error) {
    FAIL("MNIST threw something other than c10::Error: " << error.what());
  }
  FAIL("MNIST(" << root << ") read the files without an error");
  return "";
}

void check_reads_back(const datasets::MNIST& dataset, int64_t count) {
  REQUIRE(dataset.size().value() == static_cast<size_t>(count));
  CHECK(test_helpers::shape(dataset.images()) == std::vector<int64_t>{count, 1, 28, 28});
  CHECK(dataset.images().scalar_type() == torch::kFloat);
  CHECK(dataset.targets().scalar_type() == torch::kLong);
  CHECK(test_helpers::shape(dataset.targets()) == std::vector<int64_t>{count});
  const std::vector<double> pixels = test_helpers::values(dataset.images());
  bool exact = true;  // byte b reads back as b / 255 in float32, as LibTorch's .to(kFloat32).div_(255)
  for (int64_t i = 0; i < count; ++i)
    for (int p = 0; p < kPixels; ++p) {
      const float expected = static_cast<float>((i * 31 + p) % 256) / 255.0f;
      exact = exact && pixels[static_cast<size_t>(i * kPixels + p)] == static_cast<double>(expected);
    }
  CHECK(exact);
  std::vector<double> expected_labels;
  for (int64_t i = 0; i < count; ++i) expected_labels.push_back(static_cast<double>((3 * i + 1) % 10));
  CHECK(test_helpers::values(dataset.targets()) == expected_labels);
}

}  // namespace

TEST_CASE("MNIST reads plain IDX files: [N, 1, 28, 28] floats in [0, 1] and int64 labels", "[data][mnist]") {
  ScratchDir dir;
  dir.write_dataset(5, /*gzip=*/false);
  datasets::MNIST train(dir.root());  // Mode::kTrain is the default, as in LibTorch
  check_reads_back(train, 5);
  CHECK(train.is_train());
  datasets::MNIST test(dir.root(), Mode::kTest);
  check_reads_back(test, 5);
  CHECK_FALSE(test.is_train());

  const torch::data::Example<> example = train.get(2);
  CHECK(test_helpers::shape(example.data) == std::vector<int64_t>{1, 28, 28});
  CHECK(example.target.dim() == 0);
  CHECK(example.target.item<int64_t>() == 7);
  CHECK(example.data[0][0][1].item<float>() == static_cast<float>(2 * 31 + 1) / 255.0f);
  const std::string message = [&] {
    try {
      train.get(5);
    } catch (const c10::Error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  }();
  CHECK_THAT(message, Catch::Contains("index 5 is out of range for a dataset of 5 images"));
}

TEST_CASE("MNIST reads the .gz files directly, and a mix of plain and .gz", "[data][mnist]") {
  ScratchDir dir;
  dir.write_dataset(5, /*gzip=*/true);
  check_reads_back(datasets::MNIST(dir.root()), 5);
  check_reads_back(datasets::MNIST(dir.root(), Mode::kTest), 5);
  CHECK(datasets::mnist_files_present(dir.root()));

  fs::remove(dir.path / "train-labels-idx1-ubyte.gz");
  CHECK_FALSE(datasets::mnist_files_present(dir.root()));
  dir.write("train-labels-idx1-ubyte", label_file(5));
  CHECK(datasets::mnist_files_present(dir.root()));
  check_reads_back(datasets::MNIST(dir.root()), 5);
}

TEST_CASE("MNIST feeds a DataLoader: batches of [B, 1, 28, 28] images and [B] labels", "[data][mnist]") {
  ScratchDir dir;
  dir.write_dataset(5, /*gzip=*/true);
  auto loader = torch::data::make_data_loader(
      datasets::MNIST(dir.root()).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(2));
  std::vector<int64_t> batch_sizes;
  for (const auto& batch : *loader) {
    CHECK(test_helpers::shape(batch.data).size() == 4);
    CHECK(batch.data.size(1) == 1);
    batch_sizes.push_back(batch.target.size(0));
  }
  CHECK(batch_sizes == std::vector<int64_t>{2, 2, 1});
}

TEST_CASE("MNIST names the missing folder or file and how to get it", "[data][mnist]") {
  ScratchDir dir;
  const std::string nowhere = dir.root() + "/no-such-folder";
  std::string message = error_of(nowhere);
  CHECK_THAT(message, Catch::Contains("the folder " + nowhere + " does not exist"));
  CHECK_THAT(message, Catch::Contains("sudo apt-get install dataset-fashion-mnist"));
  CHECK_FALSE(datasets::mnist_files_present(nowhere));

  message = error_of(dir.root());  // the folder exists but is empty
  CHECK_THAT(message, Catch::Contains("Error opening images file at " + dir.root() + "/train-images-idx3-ubyte"));
  CHECK_THAT(message, Catch::Contains("train-images-idx3-ubyte.gz"));
  CHECK_THAT(message, Catch::Contains("sudo apt-get install dataset-fashion-mnist"));

  dir.write("t10k-images-idx3-ubyte", image_file(3));  // images without labels
  message = error_of(dir.root(), Mode::kTest);
  CHECK_THAT(message, Catch::Contains("Error opening targets file at " + dir.root() + "/t10k-labels-idx1-ubyte"));
}

TEST_CASE("MNIST reports a wrong magic number, naming the number expected and found", "[data][mnist]") {
  ScratchDir dir;
  dir.write("train-labels-idx1-ubyte", label_file(5));
  dir.write("train-images-idx3-ubyte", image_file(5, /*magic=*/0x12345678));
  std::string message = error_of(dir.root());
  CHECK_THAT(message, Catch::Contains("Expected to read number 2051 but found 305419896 instead"));
  CHECK_THAT(message, Catch::Contains(dir.root() + "/train-images-idx3-ubyte"));
  CHECK_THAT(message, Catch::Contains("not an IDX image file"));

  // Labels saved under the images' name: the magic number says what happened.
  dir.write("train-images-idx3-ubyte", label_file(5));
  CHECK_THAT(error_of(dir.root()), Catch::Contains("found 2049 instead") && Catch::Contains("swapped"));

  dir.write("train-images-idx3-ubyte", image_file(5));
  dir.write("train-labels-idx1-ubyte", image_file(5));
  message = error_of(dir.root());
  CHECK_THAT(message, Catch::Contains("Expected to read number 2049 but found 2051 instead"));
  CHECK_THAT(message, Catch::Contains("train-labels-idx1-ubyte"));

  // 8x8 images (TinyDigits-sized) are not MNIST.
  dir.write("train-labels-idx1-ubyte", label_file(5));
  dir.write("train-images-idx3-ubyte", image_file(5, 2051, 8, 8));
  CHECK_THAT(error_of(dir.root()), Catch::Contains("Expected to read number 28 but found 8 instead") &&
                                       Catch::Contains("rows per image"));
}

TEST_CASE("MNIST reports a truncated file with the size it expected, wherever it is cut", "[data][mnist]") {
  ScratchDir dir;
  const Bytes images = image_file(5), labels = label_file(5);
  const int64_t image_bytes = 16 + 5 * kPixels;
  REQUIRE(static_cast<int64_t>(images.size()) == image_bytes);
  dir.write("train-labels-idx1-ubyte", labels);
  // Cut inside the magic number, the count, the rows, the first image, the last byte.
  for (const size_t cut : {size_t{0}, size_t{2}, size_t{6}, size_t{10}, size_t{16}, size_t{500}, images.size() - 1}) {
    INFO("images cut to " << cut << " bytes");
    dir.write("train-images-idx3-ubyte", Bytes(images.begin(), images.begin() + static_cast<std::ptrdiff_t>(cut)));
    const std::string message = error_of(dir.root());
    CHECK_THAT(message, Catch::Contains("train-images-idx3-ubyte is truncated"));
    CHECK_THAT(message, Catch::Contains("it ends after " + std::to_string(cut) + " bytes"));
    if (cut < 8) CHECK_THAT(message, Catch::Contains("it should hold a 16-byte IDX header"));
    else CHECK_THAT(message, Catch::Contains("it should hold 16 + 5 x 784 = " + std::to_string(image_bytes) + " bytes"));
  }
  dir.write("train-images-idx3-ubyte", images);
  for (const size_t cut : {size_t{3}, size_t{8}, size_t{12}}) {
    INFO("labels cut to " << cut << " bytes");
    dir.write("train-labels-idx1-ubyte", Bytes(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(cut)));
    CHECK_THAT(error_of(dir.root()), Catch::Contains("train-labels-idx1-ubyte is truncated") &&
                                         Catch::Contains(cut < 8 ? "an 8-byte IDX header" : "8 + 5 = 13 bytes"));
  }
}

TEST_CASE("MNIST reports a truncated or damaged .gz file", "[data][mnist]") {
  ScratchDir dir;
  dir.write("train-labels-idx1-ubyte.gz", gzipped(label_file(5), dir.path));
  const Bytes compressed = gzipped(image_file(5), dir.path);
  REQUIRE(compressed.size() > 40);
  // Cut in the gzip header, in the deflate data, and inside the 8-byte trailer (CRC and length).
  for (const size_t cut : {size_t{5}, size_t{15}, compressed.size() / 2, compressed.size() - 6, compressed.size() - 1}) {
    INFO("compressed images cut to " << cut << " of " << compressed.size() << " bytes");
    dir.write("train-images-idx3-ubyte.gz",
              Bytes(compressed.begin(), compressed.begin() + static_cast<std::ptrdiff_t>(cut)));
    const std::string message = error_of(dir.root());
    CHECK_THAT(message, Catch::Contains("train-images-idx3-ubyte.gz is"));
    CHECK_THAT(message, Catch::Contains("is truncated: its gzip stream ends") || Catch::Contains("is damaged: zlib says"));
    CHECK_THAT(message, Catch::Contains("install it again"));
  }
  // A flipped byte in the middle: zlib's checks catch it.
  Bytes damaged = compressed;
  damaged[damaged.size() / 2] ^= 0xff;
  dir.write("train-images-idx3-ubyte.gz", damaged);
  CHECK_THAT(error_of(dir.root()), Catch::Contains("train-images-idx3-ubyte.gz is"));
}

TEST_CASE("MNIST refuses images and labels that disagree on the count", "[data][mnist]") {
  ScratchDir dir;
  dir.write("train-images-idx3-ubyte", image_file(5));
  dir.write("train-labels-idx1-ubyte", label_file(4));
  const std::string message = error_of(dir.root());
  CHECK_THAT(message, Catch::Contains("train-images-idx3-ubyte holds 5 images but"));
  CHECK_THAT(message, Catch::Contains("train-labels-idx1-ubyte holds 4 labels"));
}

TEST_CASE("fashion_mnist_root: $TINYTORCH_FASHION_MNIST, else the Debian package folder", "[data][mnist]") {
  const char* saved = std::getenv("TINYTORCH_FASHION_MNIST");
  const std::string previous = saved ? saved : "";
  unsetenv("TINYTORCH_FASHION_MNIST");
  CHECK(datasets::fashion_mnist_root() == "/usr/share/datasets/fashion-mnist");
  setenv("TINYTORCH_FASHION_MNIST", "/data/fmnist", 1);
  CHECK(datasets::fashion_mnist_root() == "/data/fmnist");
  if (saved) setenv("TINYTORCH_FASHION_MNIST", previous.c_str(), 1);
  else unsetenv("TINYTORCH_FASHION_MNIST");
}

TEST_CASE("Fashion-MNIST from the Debian package: 60000 + 10000 images, 10 balanced classes", "[data][mnist][slow][needs_fashion_mnist]") {
  const std::string root = datasets::kFashionMnistPackageDir;
  if (!datasets::mnist_files_present(root)) {
    SKIP_TEST("Fashion-MNIST is not installed in " << root << "; install it with: "
                                                   << datasets::kFashionMnistInstallCommand);
  }
  for (const Mode mode : {Mode::kTrain, Mode::kTest}) {
    const datasets::MNIST dataset(root, mode);
    const int64_t expected = mode == Mode::kTrain ? 60000 : 10000;
    CHECK(dataset.size().value() == static_cast<size_t>(expected));
    CHECK(test_helpers::shape(dataset.images()) == std::vector<int64_t>{expected, 1, 28, 28});
    CHECK(dataset.images().min().item<float>() == 0.0f);
    CHECK(dataset.images().max().item<float>() == 1.0f);
    std::vector<int64_t> per_class(10, 0);
    bool in_range = true;
    const int64_t* labels = dataset.targets().data_ptr<int64_t>();
    for (int64_t i = 0; i < expected; ++i) {
      in_range = in_range && labels[i] >= 0 && labels[i] < 10;
      if (in_range) ++per_class[static_cast<size_t>(labels[i])];
    }
    CHECK(in_range);
    CHECK(per_class == std::vector<int64_t>(10, expected / 10));
  }
}
