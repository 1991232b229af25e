#pragma once
// CIFAR-10 (Krizhevsky, 2009): 60,000 colour photos of 32x32 pixels in ten classes, read from the
// "binary version" of the dataset (cifar-10-binary.tar.gz, which unpacks to cifar-10-batches-bin/).
// LibTorch 1.13 has no CIFAR10 class; this one is shaped like its torch::data::datasets::MNIST:
//
//   torch::data::datasets::CIFAR10 train("/data/cifar-10-batches-bin");   // Mode::kTrain by default
//   train.images()   // [50000, 3, 32, 32] float32 in [0, 1] (the bytes divided by 255)
//   train.targets()  // [50000] int64, 0..9 (CIFAR10::kClassNames)
//   train.get(0)     // Example<>{images()[0], targets()[0]}: a [3, 32, 32] image and a scalar label
//
// kTrain reads data_batch_1.bin ... data_batch_5.bin, kTest reads test_batch.bin. Each file is a
// run of 3,073-byte records: 1 label byte (0-9), then 1,024 red, 1,024 green and 1,024 blue bytes,
// each a 32x32 plane in row-major order (so a record is already in [C, H, W] order).
// The official files hold 10,000 records each; the count is taken from the file's size, so a subset
// or a test fixture works. A missing batch, a file whose size is not a whole number of records (cut
// short), or a label above 9 is an error naming the file and the fix. `root` may also be the folder
// that holds cifar-10-batches-bin/.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/example.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace datasets {

// Where the dataset comes from; error messages and the milestone show it.
inline constexpr const char* kCifar10DownloadHint =
    "download cifar-10-binary.tar.gz (the \"CIFAR-10 binary version\", 163 MB) from "
    "https://www.cs.toronto.edu/~kriz/cifar.html and unpack it with `tar xzf cifar-10-binary.tar.gz`";

// Whether `root` (or root/cifar-10-batches-bin) holds all six batch files, so a program can skip politely.
bool cifar10_files_present(const std::string& root);

class CIFAR10 : public Dataset<CIFAR10> {
 public:
  enum class Mode { kTrain, kTest };

  static constexpr int64_t kChannels = 3;
  static constexpr int64_t kImageRows = 32;
  static constexpr int64_t kImageColumns = 32;
  static constexpr int64_t kImageBytes = kChannels * kImageRows * kImageColumns;  // 3072
  static constexpr int64_t kRecordBytes = 1 + kImageBytes;                         // 3073: label, then pixels
  static constexpr int64_t kTrainBatches = 5;
  static constexpr int64_t kClasses = 10;
  // The classes in label order, as in the dataset's batches.meta.txt.
  static constexpr std::array<const char*, 10> kClassNames = {"airplane", "automobile", "bird",  "cat",  "deer",
                                                              "dog",      "frog",       "horse", "ship", "truck"};

  // Reads every batch file of `mode`. Throws tinytorch::Error naming the file and the fix when one is
  // missing, unreadable, not a whole number of records long, or holds a label outside 0-9.
  explicit CIFAR10(const std::string& root, Mode mode = Mode::kTrain);

  // Example `index`: a [3, 32, 32] view of images() and a 0-dim int64 target. Throws out of range.
  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept;

  const Tensor& images() const;
  const Tensor& targets() const;

 private:
  Tensor images_, targets_;
  Mode mode_;
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
