// Given code for module 05: the IDX reader behind torch::data::datasets::MNIST (mnist.h describes
// the format). zlib's gzopen/gzread read .gz files and, transparently, uncompressed ones, so one
// code path serves both.
#include "tinytorch/data/datasets/mnist.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace data {
namespace datasets {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTrainImagesFilename = "train-images-idx3-ubyte";
constexpr const char* kTrainTargetsFilename = "train-labels-idx1-ubyte";
constexpr const char* kTestImagesFilename = "t10k-images-idx3-ubyte";
constexpr const char* kTestTargetsFilename = "t10k-labels-idx1-ubyte";
constexpr int64_t kImagePixels = MNIST::kImageRows * MNIST::kImageColumns;

std::string where_to_get_files(const std::string& root) {
  return tinytorch::detail::str("Fix: for Fashion-MNIST run `", kFashionMnistInstallCommand, "` (it installs into ",
                     kFashionMnistPackageDir, "), or put the four IDX files (train-images-idx3-ubyte, ",
                     "train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, each optionally .gz) in ",
                     root);
}

// <root>/<name> if it exists, else <root>/<name>.gz; throws naming both when neither does.
std::string existing_file(const std::string& root, const std::string& name, const char* what) {
  TT_CHECK(fs::is_directory(root), "Error opening ", what, " file: the folder ", root, " does not exist. ",
           where_to_get_files(root));
  const fs::path plain = fs::path(root) / name;
  const fs::path gzipped = fs::path(root) / (name + ".gz");
  if (fs::is_regular_file(plain)) return plain.string();
  if (fs::is_regular_file(gzipped)) return gzipped.string();
  TT_CHECK(false, "Error opening ", what, " file at ", plain.string(), " (nor ", gzipped.filename().string(),
           "): no such file. ", where_to_get_files(root));
  return {};
}

// One IDX file open for reading, plain or gzip; counts the bytes it has handed out so a short read
// can say how long the file really is.
class IdxReader {
 public:
  IdxReader(const std::string& path, const char* what) : path_(path), what_(what), file_(gzopen(path.c_str(), "rb")) {
    TT_CHECK(file_ != nullptr, "Error opening ", what, " file at ", path, " (it exists but cannot be read)");
  }
  ~IdxReader() { gzclose(file_); }
  IdxReader(const IdxReader&) = delete;
  IdxReader& operator=(const IdxReader&) = delete;

  // Reads exactly `length` bytes. `expected` says how long the file should be ("16 + 5 x 784 =
  // 3936 bytes"), for the message when it is shorter. The buffer grows chunk by chunk, so a damaged
  // header claiming billions of images fails at the end of the file instead of allocating them.
  std::vector<unsigned char> read_exactly(int64_t length, const std::string& expected) {
    constexpr int64_t kChunk = 1 << 24;  // gzread takes an unsigned int length
    std::vector<unsigned char> out;
    while (static_cast<int64_t>(out.size()) < length) {
      const int64_t done = static_cast<int64_t>(out.size());
      const int64_t want = std::min(kChunk, length - done);
      out.resize(static_cast<size_t>(done + want));
      const int got = gzread(file_, out.data() + done, static_cast<unsigned>(want));
      // A plain file simply ends (0 bytes read); a cut gzip stream sets Z_BUF_ERROR.
      if (got > 0) bytes_read_ += got;
      const bool compressed = gzdirect(file_) == 0;
      TT_CHECK(got != 0 && zlib_code() != Z_BUF_ERROR, "MNIST: the ", what_, " file ", path_, " is truncated: ",
               compressed ? "its gzip stream ends early" : "it ends after ",
               compressed ? std::string() : std::to_string(bytes_read_) + " bytes", ", but it should hold ", expected,
               ". Fix: download or install it again (this copy was cut short)");
      check_stream(got);
      out.resize(static_cast<size_t>(done + got));
    }
    return out;
  }

  // Big-endian uint32, the IDX header's integers.
  uint32_t read_uint32(const std::string& expected) {
    const std::vector<unsigned char> bytes = read_exactly(4, expected);
    return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]};
  }

  // Reads past the end so zlib verifies the gzip trailer (CRC and length): a .gz cut inside the
  // trailer, or with damaged data, is caught here. Bytes after the data are ignored, as in LibTorch.
  void check_rest() {
    std::array<unsigned char, 4096> sink{};
    while (true) {
      const int got = gzread(file_, sink.data(), static_cast<unsigned>(sink.size()));
      TT_CHECK(zlib_code() != Z_BUF_ERROR, "MNIST: the ", what_, " file ", path_,
               " is truncated: its gzip stream ends before the gzip trailer. Fix: download or install it again "
               "(this copy was cut short)");
      check_stream(got);
      if (got == 0) return;
    }
  }

 private:
  int zlib_code() const {
    int code = Z_OK;
    gzerror(file_, &code);
    return code;
  }

  void check_stream(int got) {
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    TT_CHECK(got >= 0 && (code == Z_OK || code == Z_STREAM_END), "MNIST: the ", what_, " file ", path_,
             " is damaged: zlib says \"", message, "\". Fix: download or install it again");
  }

  std::string path_;
  const char* what_;
  gzFile file_;
  int64_t bytes_read_ = 0;
};

// A header integer must be `expected`: LibTorch's wording, with the file and the field's meaning added.
void expect_number(uint32_t found, uint32_t expected, const std::string& path, const char* meaning) {
  TT_CHECK(found == expected, "Expected to read number ", expected, " but found ", found, " instead, in ", path, " (",
           meaning, ")");
}

// The first two header integers of an image or a label file: its magic number (with a hint when
// it is the other kind's) and the item count.
int64_t read_magic_and_count(IdxReader& reader, const std::string& path, bool images) {
  const std::string header = images ? "a 16-byte IDX header" : "an 8-byte IDX header";
  const uint32_t expected = images ? MNIST::kImageMagicNumber : MNIST::kTargetMagicNumber;
  const uint32_t other = images ? MNIST::kTargetMagicNumber : MNIST::kImageMagicNumber;
  const char* kind = images ? "image" : "label";
  const uint32_t magic = reader.read_uint32(header);
  TT_CHECK(magic == expected, "Expected to read number ", expected, " but found ", magic, " instead, in ", path,
           " (the magic number of an IDX ", kind, " file; ",
           magic == other ? tinytorch::detail::str(other, " means ", images ? "a label" : "an image",
                                                   " file: are the file names swapped?")
                          : tinytorch::detail::str("this is not an IDX ", kind, " file"),
           ")");
  return reader.read_uint32(header);
}

struct Images {
  Tensor pixels;  // [count, 1, 28, 28] float32 in [0, 1]
  std::string path;
};

Images read_images(const std::string& root, bool train) {
  const std::string path = existing_file(root, train ? kTrainImagesFilename : kTestImagesFilename, "images");
  IdxReader reader(path, "images");
  const int64_t count = read_magic_and_count(reader, path, /*images=*/true);
  const std::string total = tinytorch::detail::str("16 + ", count, " x 784 = ", 16 + count * kImagePixels,
                                                   " bytes (its header announces ", count, " images of 28x28)");
  expect_number(reader.read_uint32(total), MNIST::kImageRows, path, "rows per image");
  expect_number(reader.read_uint32(total), MNIST::kImageColumns, path, "columns per image");

  const std::vector<unsigned char> bytes = reader.read_exactly(count * kImagePixels, total);
  reader.check_rest();
  Tensor pixels = empty({count, 1, MNIST::kImageRows, MNIST::kImageColumns}, kFloat);
  float* out = pixels.data_ptr<float>();
  for (size_t i = 0; i < bytes.size(); ++i) out[i] = static_cast<float>(bytes[i]) / 255.0f;
  return {std::move(pixels), path};
}

Tensor read_targets(const std::string& root, bool train, const Images& images) {
  const std::string path = existing_file(root, train ? kTrainTargetsFilename : kTestTargetsFilename, "targets");
  IdxReader reader(path, "targets");
  const int64_t count = read_magic_and_count(reader, path, /*images=*/false);
  const int64_t image_count = images.pixels.size(0);
  TT_CHECK(count == image_count, "MNIST: ", images.path, " holds ", image_count, " images but ", path, " holds ", count,
           " labels; they must match one to one. Fix: take both files from the same release of the dataset");
  const std::vector<unsigned char> bytes = reader.read_exactly(
      count, tinytorch::detail::str("8 + ", count, " = ", 8 + count, " bytes (its header announces ", count, " labels)"));
  reader.check_rest();
  Tensor targets = empty({count}, kLong);
  int64_t* out = targets.data_ptr<int64_t>();
  for (size_t i = 0; i < bytes.size(); ++i) out[i] = bytes[i];
  return targets;
}

}  // namespace

std::string fashion_mnist_root() {
  if (const char* env = std::getenv("TINYTORCH_FASHION_MNIST"); env != nullptr && *env != '\0') return env;
  return kFashionMnistPackageDir;
}

bool mnist_files_present(const std::string& root) {
  for (const char* name : {kTrainImagesFilename, kTrainTargetsFilename, kTestImagesFilename, kTestTargetsFilename}) {
    const fs::path plain = fs::path(root) / name;
    std::error_code ignored;
    if (!fs::is_regular_file(plain, ignored) && !fs::is_regular_file(fs::path(root) / (std::string(name) + ".gz"), ignored))
      return false;
  }
  return true;
}

MNIST::MNIST(const std::string& root, Mode mode) : mode_(mode) {
  const bool train = mode == Mode::kTrain;
  Images images = read_images(root, train);
  targets_ = read_targets(root, train, images);
  images_ = std::move(images.pixels);
}

Example<> MNIST::get(size_t index) {
  TT_CHECK(index < static_cast<size_t>(images_.size(0)), "MNIST: index ", index, " is out of range for a dataset of ",
           images_.size(0), " images");
  return {images_[static_cast<int64_t>(index)], targets_[static_cast<int64_t>(index)]};
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(images_.size(0)); }
bool MNIST::is_train() const noexcept { return mode_ == Mode::kTrain; }
const Tensor& MNIST::images() const { return images_; }
const Tensor& MNIST::targets() const { return targets_; }

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
