#pragma once
// Stack<>: collates a batch of B examples into ONE example whose data is torch::stack of the B data
// tensors ([B, ...]) and whose target is torch::stack of the B targets. This is what turns a
// vector<Example<>> into the two tensors a training step consumes.
//   auto loader = make_data_loader(dataset.map(Stack<>()), 32);   // batches: Example<>{[32, 64], [32]}
#include <vector>

#include "tinytorch/data/example.h"
#include "tinytorch/data/transforms/collate.h"

namespace tinytorch {
namespace data {
namespace transforms {

template <typename T = Example<>>
struct Stack;

template <>
struct Stack<Example<>> : public Collation<Example<>> {
  // Throws for an empty batch, and when some examples have a target and others do not. Examples
  // whose targets are all undefined (TensorDataset of one tensor) give an undefined batch target.
  Example<> apply_batch(std::vector<Example<>> examples) override;  // written by the learner (stack.cpp)
};

template <>
struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override;  // written by the learner
};

}  // namespace transforms
}  // namespace data
}  // namespace tinytorch
