#pragma once
// One sample of a dataset: LibTorch's torch::data::Example. `data` is the input (an image, a row of
// features), `target` what the model should predict for it (a label).
#include <utility>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {

template <typename Data = Tensor, typename Target = Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;

  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}

  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
}  // namespace example

// An example without a target (unlabelled data); converts to its data, as in LibTorch.
template <typename Data>
struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;

  Example() = default;
  Example(Data data) : data(std::move(data)) {}  // NOLINT: implicit, as in LibTorch

  operator Data&() { return data; }
  operator const Data&() const { return data; }

  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

}  // namespace data
}  // namespace tinytorch
