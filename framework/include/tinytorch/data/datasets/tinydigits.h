#pragma once
// TinyDigits: 1,200 handwritten digits, 8x8 pixels (the UCI "Optical Recognition of Handwritten
// Digits" set, CC BY 4.0), split 100 train + 20 test images per digit. The files are
// <root>/tinydigits/train.csv and test.csv; datasets/tinydigits/README.md describes them.
//
//   auto train = torch::data::datasets::TinyDigits(torch::data::datasets::default_root());
//   train.images()   // [1000, 64] float32 in [0, 1] (row-major 8x8 pixels)
//   train.targets()  // [1000] int64, 0..9
//   train.get(0)     // Example<>{images()[0], targets()[0]}
//
// Shaped like LibTorch's MNIST dataset (Mode::kTrain / kTest, images(), targets(), is_train()),
// except that images are flat [64] rows rather than [1, 28, 28] images: the first models are MLPs.
#include <cstddef>
#include <optional>
#include <string>

#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/example.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace datasets {

// Where the course's datasets live: $TINYTORCH_DATASETS when set, else the repository's datasets/
// folder as configured at build time (TINYTORCH_DATASETS_DIR), else "datasets" (relative to the
// working directory).
std::string default_root();

class TinyDigits : public Dataset<TinyDigits> {
 public:
  enum class Mode { kTrain, kTest };

  static constexpr int64_t kImagePixels = 64;  // 8 x 8
  static constexpr int64_t kClasses = 10;

  // Reads <root>/tinydigits/train.csv (kTrain) or test.csv (kTest). Throws tinytorch::Error naming
  // the file, the line and what is wrong when the file is missing or malformed.
  explicit TinyDigits(const std::string& root, Mode mode = Mode::kTrain);

  // Reads one TinyDigits CSV file directly (header "label,p0,...,p63", then one image per line).
  static TinyDigits from_csv(const std::string& path, Mode mode = Mode::kTrain);

  Example<> get(size_t index) override;
  std::optional<size_t> size() const override;
  bool is_train() const noexcept { return mode_ == Mode::kTrain; }

  const Tensor& images() const { return images_; }
  const Tensor& targets() const { return targets_; }

 private:
  TinyDigits(Tensor images, Tensor targets, Mode mode)
      : images_(std::move(images)), targets_(std::move(targets)), mode_(mode) {}

  Tensor images_;
  Tensor targets_;
  Mode mode_;
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
