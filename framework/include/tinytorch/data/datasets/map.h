#pragma once
// dataset.map(transform): a dataset whose batches are the source dataset's batches passed through
// `transform.apply_batch` (LibTorch's torch::data::datasets::MapDataset). Maps chain:
//   dataset.map(Normalize<>(0.5, 0.25)).map(Stack<>())
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "tinytorch/data/datasets/base.h"

namespace tinytorch {
namespace data {
namespace datasets {

template <typename SourceDataset, typename AppliedTransform>
class MapDataset : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                                       typename AppliedTransform::OutputBatchType,
                                       typename SourceDataset::BatchRequestType> {
 public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType = typename AppliedTransform::OutputBatchType;

  MapDataset(DatasetType dataset, TransformType transform)
      : dataset_(std::move(dataset)), transform_(std::move(transform)) {}

  OutputBatchType get_batch(BatchRequestType indices) override {
    return transform_.apply_batch(dataset_.get_batch(std::move(indices)));
  }
  std::optional<size_t> size() const override { return dataset_.size(); }

  const SourceDataset& dataset() noexcept { return dataset_; }
  const AppliedTransform& transform() noexcept { return transform_; }

 private:
  SourceDataset dataset_;
  AppliedTransform transform_;
};

template <typename DatasetType, typename TransformType>
MapDataset<DatasetType, TransformType> map(DatasetType dataset, TransformType transform) {
  static_assert(!DatasetType::is_stateful, "TinyTorch has no stateful datasets");
  static_assert(std::is_same<typename DatasetType::BatchType, typename TransformType::InputBatchType>::value,
                "BatchType type of dataset does not match input type of transform");
  return {std::move(dataset), std::move(transform)};
}

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
