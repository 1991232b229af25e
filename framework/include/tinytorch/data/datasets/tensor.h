#pragma once
// A dataset over tensors already in memory: example i is row i (index i along dim 0).
//
//   TensorDataset(features)           examples {features[i], undefined target}
//   TensorDataset(features, labels)   examples {features[i], labels[i]}
//
// Deviation from LibTorch, on purpose: LibTorch's TensorDataset holds ONE tensor and yields a
// TensorExample (data only). Ours yields Example<> (data and target), like TinyTorch's Python
// TensorDataset(features, labels), because a classifier needs both; with one tensor the target is an
// undefined Tensor (target.defined() is false) and Stack<> leaves it undefined.
#include <cstddef>
#include <optional>
#include <vector>

#include "tinytorch/data/datasets/base.h"
#include "tinytorch/data/example.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {
namespace datasets {

struct TensorDataset : public Dataset<TensorDataset, Example<>> {
  // Throws unless `data` has at least one dimension (and, with targets, both have the same size(0)).
  explicit TensorDataset(Tensor data);
  TensorDataset(Tensor data, Tensor targets);
  // LibTorch's list form: the tensors are stacked along a new dim 0 first (no targets).
  explicit TensorDataset(const std::vector<Tensor>& tensors);

  // Row `index` of data (and of targets): views into the tensors, no copy. Throws for index >= size().
  Example<> get(size_t index) override;  // written by the learner (tensor_dataset.cpp)
  // data.size(0): how many examples.
  std::optional<size_t> size() const override;  // written by the learner

  Tensor data;
  Tensor targets;  // undefined when the dataset was built from one tensor
};

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
