// Module 05, learner file: Stack<>, the collation that turns B examples into one batch. B data
// tensors of shape [...] become one [B, ...] tensor (torch::stack, given), and likewise the targets.
#include <utility>
#include <vector>

#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/data/transforms/stack.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {
namespace transforms {

// TODO: Stack<Example<>>::apply_batch -- one Example whose data is the examples' data tensors stacked
// along a new dim 0, and whose target is their targets stacked the same way. When every target is
// undefined (a TensorDataset of one tensor), the batch target stays undefined.
//   Errors: an empty batch -> "Stack: cannot collate an empty batch of examples"; a mix of defined
//   and undefined targets -> "Stack: some examples have a target and some do not; a batch needs all
//   or none"; data of different shapes -> stack's own error.
//   Example: 2 examples of data {3} and target {} -> data {2, 3}, target {2}.
Example<> Stack<Example<>>::apply_batch(std::vector<Example<>> examples) {
  // BEGIN SOLUTION name="tinytorch::data::transforms::Stack<Example<>>::apply_batch" lesson="5. Collation: Stack"
  TT_CHECK(!examples.empty(), "Stack: cannot collate an empty batch of examples");
  const bool with_targets = examples.front().target.defined();
  std::vector<Tensor> data, targets;
  data.reserve(examples.size());
  targets.reserve(examples.size());
  for (Example<>& example : examples) {
    TT_CHECK(example.target.defined() == with_targets,
             "Stack: some examples have a target and some do not; a batch needs all or none");
    data.push_back(std::move(example.data));
    if (with_targets) targets.push_back(std::move(example.target));
  }
  return {tinytorch::stack(data), with_targets ? tinytorch::stack(targets) : Tensor()};
  // END SOLUTION
}

// TODO: Stack<TensorExample>::apply_batch -- the same for examples without targets: stack the data.
//   Errors: an empty batch -> "Stack: cannot collate an empty batch of examples".
TensorExample Stack<TensorExample>::apply_batch(std::vector<TensorExample> examples) {
  // BEGIN SOLUTION name="tinytorch::data::transforms::Stack<TensorExample>::apply_batch" lesson="5. Collation: Stack"
  TT_CHECK(!examples.empty(), "Stack: cannot collate an empty batch of examples");
  std::vector<Tensor> data;
  data.reserve(examples.size());
  for (TensorExample& example : examples) data.push_back(std::move(example.data));
  return tinytorch::stack(data);
  // END SOLUTION
}

}  // namespace transforms
}  // namespace data
}  // namespace tinytorch
