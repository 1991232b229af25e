// Module 05, learner file: TensorDataset, the dataset of tensors already in memory. Example i is row
// i of the data (and of the targets): a view, so building a batch never copies the whole dataset.
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "tinytorch/data/datasets/tensor.h"
#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {
namespace datasets {

TensorDataset::TensorDataset(Tensor data) : data(std::move(data)) {
  TT_CHECK(this->data.defined() && this->data.dim() >= 1,
           "TensorDataset: the data tensor needs at least one dimension (dim 0 indexes the examples)");
}

TensorDataset::TensorDataset(Tensor data, Tensor targets) : data(std::move(data)), targets(std::move(targets)) {
  TT_CHECK(this->data.defined() && this->data.dim() >= 1,
           "TensorDataset: the data tensor needs at least one dimension (dim 0 indexes the examples)");
  TT_CHECK(this->targets.defined() && this->targets.dim() >= 1,
           "TensorDataset: the targets tensor needs at least one dimension (dim 0 indexes the examples)");
  TT_CHECK(this->data.size(0) == this->targets.size(0), "TensorDataset: data has ", this->data.size(0),
           " examples (size(0)) but targets has ", this->targets.size(0), "; give one target per example");
}

TensorDataset::TensorDataset(const std::vector<Tensor>& tensors) : TensorDataset(tinytorch::stack(tensors)) {}

// TODO: get(index) -- example `index`: row `index` of data, and of targets when targets.defined()
// (otherwise leave the target undefined: Tensor()). Refuse an index >= the number of examples with a
// tinytorch::Error whose message says "out of range" and gives the index and the size.
//   Example: data {3, 2}, targets {3}: get(1) -> (data row 1, shape {2}; targets[1], 0-dim), a view
//   of the dataset's storage, not a copy.
Example<> TensorDataset::get(size_t index) {
  // BEGIN SOLUTION name="tinytorch::data::datasets::TensorDataset::get" lesson="3. TensorDataset"
  const auto count = static_cast<size_t>(data.size(0));
  TT_CHECK(index < count, "TensorDataset: index ", index, " is out of range for a dataset of size ", count);
  const auto row = static_cast<int64_t>(index);
  return {data[row], targets.defined() ? targets[row] : Tensor()};
  // END SOLUTION
}

// TODO: size() -- the number of examples (the size of dim 0). Example: data {3, 2} -> 3.
std::optional<size_t> TensorDataset::size() const {
  // BEGIN SOLUTION name="tinytorch::data::datasets::TensorDataset::size" lesson="3. TensorDataset"
  return static_cast<size_t>(data.size(0));
  // END SOLUTION
}

}  // namespace datasets
}  // namespace data
}  // namespace tinytorch
