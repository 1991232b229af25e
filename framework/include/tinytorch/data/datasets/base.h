#pragma once
// The dataset interfaces of LibTorch's torch::data::datasets:
//   BatchDataset<Self, Batch, BatchRequest>  get_batch(indices) -> Batch, size() -> optional<size_t>
//   Dataset<Self, SingleExample>             get(index) -> one example; get_batch calls get per index
// `Self` is the derived class (CRTP), so that dataset.map(transform) can return a MapDataset<Self, ...>
// holding the dataset by value, with no virtual call per sample through a base pointer.
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/data/example.h"
#include "tinytorch/int_array_ref.h"

namespace tinytorch {
namespace data {
namespace datasets {

template <typename S, typename T>
class MapDataset;
template <typename D, typename T>
MapDataset<D, T> map(D, T);  // NOLINT

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace detail

template <typename Self, typename Batch = std::vector<Example<>>, typename BatchRequest = ArrayRef<size_t>>
class BatchDataset {
 public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  // A stateful dataset decides itself when it is exhausted (its batches are optionals). TinyTorch
  // has no stateful datasets yet; the flag is here so that code written for LibTorch compiles.
  constexpr static bool is_stateful = detail::is_optional<BatchType>::value;

  virtual ~BatchDataset() = default;

  // The examples at `request` (a list of indices), in that order.
  virtual Batch get_batch(BatchRequest request) = 0;

  // How many examples there are; nullopt for a dataset of unknown length.
  virtual std::optional<size_t> size() const = 0;

  // A dataset that applies `transform` to every batch this one returns.
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) & {
    return datasets::map(static_cast<Self&>(*this), std::move(transform));
  }
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) && {
    return datasets::map(std::move(static_cast<Self&>(*this)), std::move(transform));
  }
};

template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
 public:
  using ExampleType = SingleExample;

  // The example at `index` (0 <= index < size()).
  virtual ExampleType get(size_t index) = 0;

  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override {
    std::vector<ExampleType> batch;
    batch.reserve(indices.size());
    for (const auto i : indices) batch.push_back(get(i));
    return batch;
  }
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
