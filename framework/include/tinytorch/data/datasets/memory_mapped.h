#pragma once
// A dataset over files of fixed-size records that stay on disk: the files are mapped into memory
// (torch::from_file) and example i is a view of record i, so nothing is read until it is touched and
// the OS pages in only the records a batch uses. A dataset larger than the machine's memory works.
// A TinyTorch extension: LibTorch has no such dataset.
//
//   // features.bin: N records of 3 x 32 float32; labels.bin: N int64 labels
//   MemoryMappedDataset dataset(RecordFileOptions("features.bin", {3, 32}),
//                               RecordFileOptions("labels.bin", {}).dtype(torch::kLong));
//   dataset.get(7)  // Example<>{[3, 32] float view of record 7, 0-dim int64 view of label 7}
//
// Fashion-MNIST's raw IDX files work as they are, once gunzipped (mmap cannot read .gz): the header
// (16 bytes for images, 8 for labels) is skipped and every pixel and label is one uint8.
//   MemoryMappedDataset train(
//       RecordFileOptions(root + "/train-images-idx3-ubyte", {1, 28, 28}).dtype(torch::kByte).header_bytes(16),
//       RecordFileOptions(root + "/train-labels-idx1-ubyte", {}).dtype(torch::kByte).header_bytes(8));
//
// How it differs from torch::data::datasets::MNIST: MNIST reads the whole files into memory when
// it is built (and converts the pixels to float in [0, 1]); this dataset reads nothing up front,
// costs no memory for records it never touches, and hands out the file's bytes as they are (uint8
// pixels here: convert in a transform). Its examples are views into a private mapping: writing to
// one changes what later get() calls of this process see, never the file.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/example.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace datasets {

// One file of records: `header_bytes` bytes to skip, then records of `record_shape` elements of
// `dtype` each, back to back. record_shape {} is one element per record (a label).
struct RecordFileOptions {
  RecordFileOptions(std::string path, std::vector<int64_t> record_shape)
      : path_(std::move(path)), record_shape_(std::move(record_shape)) {}
  TORCH_ARG(std::string, path);
  TORCH_ARG(std::vector<int64_t>, record_shape);
  TORCH_ARG(ScalarType, dtype) = kFloat;
  // Must be a multiple of dtype's element size, so that records start on an element boundary.
  TORCH_ARG(int64_t, header_bytes) = 0;
};

class MemoryMappedDataset : public Dataset<MemoryMappedDataset> {
 public:
  // Maps the data file (examples without targets) or both files. Throws tinytorch::Error naming
  // the file when it cannot be opened, when its size after the header is not a whole number of
  // records, or when the targets file holds a different number of records than the data file.
  explicit MemoryMappedDataset(RecordFileOptions data);
  MemoryMappedDataset(RecordFileOptions data, RecordFileOptions targets);

  // Record `index` of the data file (and of the targets file), shaped as its record_shape: views
  // into the mappings, no copy. Throws for index >= size().
  Example<> get(size_t index) override;  // written by the learner (memory_mapped_dataset.cpp)
  // How many records the data file holds.
  std::optional<size_t> size() const override;  // written by the learner

  // How many records a file of `file_bytes` bytes holds after its header; throws naming the file,
  // its size and the record size when the rest is not a whole number of records.
  static int64_t count_records(const RecordFileOptions& file, int64_t file_bytes);  // written by the learner
  // Record `index` of `mapping` (the whole file, header included, as a 1-D tensor of file.dtype()
  // elements), viewed as file.record_shape().
  static Tensor record(const Tensor& mapping, const RecordFileOptions& file, int64_t index);  // by the learner

  const RecordFileOptions& data_file() const { return data_file_; }
  const std::optional<RecordFileOptions>& targets_file() const { return targets_file_; }

 private:
  RecordFileOptions data_file_;
  std::optional<RecordFileOptions> targets_file_;
  Tensor data_mapping_;     // the data file, header included: 1-D, data_file_.dtype()
  Tensor targets_mapping_;  // undefined without a targets file
  int64_t count_ = 0;
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
