#pragma once
// MNIST-format datasets (MNIST, Fashion-MNIST, KMNIST): 28x28 grey images in IDX files, read like
// LibTorch's torch::data::datasets::MNIST.
//
//   torch::data::datasets::MNIST train(torch::data::datasets::fashion_mnist_root());
//   train.images()   // [60000, 1, 28, 28] float32 in [0, 1] (the bytes divided by 255)
//   train.targets()  // [60000] int64
//   train.get(0)     // Example<>{images()[0], targets()[0]}: a [1, 28, 28] image and a scalar label
//
// The four files in `root` are train-images-idx3-ubyte, train-labels-idx1-ubyte (kTrain) and
// t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte (kTest). Each may also be gzip-compressed with a
// .gz suffix, as the datasets are distributed and as Debian's dataset-fashion-mnist installs them.
//
// IDX format: big-endian uint32 magic number (2051 images, 2049 labels), the count, for images the
// rows and columns (28, 28), then one unsigned byte per pixel or label.
//
// Differences from LibTorch, on purpose: LibTorch reads uncompressed files only and insists on
// exactly 60000/10000 examples; we also read .gz files and take the count from the header (so a
// subset or a test fixture works), check that images and labels agree, and report a truncated file
// instead of returning zeros. is_train() reports the Mode asked for (LibTorch infers it from the size).
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

// Where Debian's dataset-fashion-mnist package puts the files.
inline constexpr const char* kFashionMnistPackageDir = "/usr/share/datasets/fashion-mnist";
// The command that installs it; error messages and milestones show it.
inline constexpr const char* kFashionMnistInstallCommand = "sudo apt-get install dataset-fashion-mnist";

// The Fashion-MNIST folder: $TINYTORCH_FASHION_MNIST when set, else kFashionMnistPackageDir.
std::string fashion_mnist_root();

// Whether `root` holds all four IDX files (each plain or .gz), so a program can skip politely.
bool mnist_files_present(const std::string& root);

class MNIST : public Dataset<MNIST> {
 public:
  enum class Mode { kTrain, kTest };

  static constexpr int64_t kImageRows = 28;
  static constexpr int64_t kImageColumns = 28;
  static constexpr uint32_t kImageMagicNumber = 2051;
  static constexpr uint32_t kTargetMagicNumber = 2049;

  // Reads the images and labels of `mode` from `root`. Throws tinytorch::Error naming the file and
  // the fix when a file is missing, has the wrong magic number or size, is truncated, or when the
  // images and labels disagree on how many examples there are.
  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain);

  // Example `index`: a [1, 28, 28] view of images() and a 0-dim int64 target. Throws out of range.
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
