// Module 06 (Autograd), lesson sections "2. Undoing broadcasting", "3. The chain rule per op" and
// "4. A nonlinearity": the backward rules you write. Each rule receives `grads` (grads[0] is
// dLoss/dOutput, shaped like the op's output) and returns one gradient per op input, shaped like
// that input, or an undefined Tensor where !should_compute_output(i) (that input needs none).
// What the forward saved is on the node: SavedVariable members (get the tensor with .unpack())
// and sizes. Write rules with tensor ops: then create_graph can differentiate them again.
#include <vector>

#include "tinytorch/autograd/functions.h"
#include "tinytorch/errors.h"
#include "tinytorch/functions.h"

namespace tinytorch {
namespace autograd {

// TODO: sum_to(grad, sizes) -- undo broadcasting. An input of shape `sizes` was broadcast to
// grad's shape, so each of its elements was used once per broadcast copy: its gradient is the
// sum over the copies.
//   1. If grad already has `sizes`, return it unchanged.
//   2. leading = grad.dim() - sizes.size(): the dims broadcasting added in front. Sum over each of
//      them, and over every other dim d where sizes[d - leading] == 1 but grad.size(d) != 1.
//   3. grad.sum(dims, /*keepdim=*/true) keeps the leading dims as 1s: reshape to `sizes`.
//   Examples: (32, 128) -> (128): sum over dim 0 (every element is 32);
//             (10, 5) -> (10, 1): sum over dim 1 with keepdim; (32, 10, 5) -> (10, 1): dims 0 and 2;
//             (4, 3) -> (): every element.
Tensor sum_to(const Tensor& grad, IntArrayRef sizes) {
  // BEGIN SOLUTION name="tinytorch::autograd::sum_to" lesson="2. Undoing broadcasting"
  if (grad.sizes().equals(sizes)) return grad;
  const int64_t leading = grad.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (d < leading || (sizes[d - leading] == 1 && grad.size(d) != 1)) dims.push_back(d);
  }
  const Tensor summed = dims.empty() ? grad : grad.sum(dims, /*keepdim=*/true);
  return summed.reshape(sizes);
  // END SOLUTION
}

namespace generated {

// TODO: AddBackward0 -- out = self + alpha * other.
//   d out / d self = 1, d out / d other = alpha: result[0] = grad, result[1] = grad * alpha (skip the
//   multiply when alpha is 1: alpha.toDouble() == 1.0), each summed back with sum_to to its input's
//   sizes (self_sizes, other_sizes): a (3) bias added to a (4, 3) batch gets the sum of 4 rows.
//   Compute result[i] only if should_compute_output(i).
variable_list AddBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::AddBackward0::apply" lesson="3. The chain rule per op"
  if (should_compute_output(0)) result[0] = sum_to(grad, self_sizes);
  if (should_compute_output(1)) result[1] = sum_to(alpha.toDouble() == 1.0 ? grad : grad * alpha, other_sizes);
  // END SOLUTION
  return result;
}

// TODO: MulBackward0 -- out = self * other (element-wise, broadcasting).
//   d out / d self = other, d out / d other = self: result[0] = grad * other, result[1] = grad * self,
//   each summed back to its input's sizes. The forward saved both: self_.unpack(), other_.unpack().
variable_list MulBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::MulBackward0::apply" lesson="3. The chain rule per op"
  if (should_compute_output(0)) result[0] = sum_to(grad * other_.unpack(), self_sizes);
  if (should_compute_output(1)) result[1] = sum_to(grad * self_.unpack(), other_sizes);
  // END SOLUTION
  return result;
}

// TODO: MmBackward0 -- out (n, m) = self (n, k) @ mat2 (k, m).
//   d self = grad @ mat2^T  (n, m) @ (m, k) -> (n, k);   d mat2 = self^T @ grad  (k, n) @ (n, m) -> (k, m).
//   Check the shapes: each gradient has its input's shape. Use mm and t().
variable_list MmBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::MmBackward0::apply" lesson="3. The chain rule per op"
  if (should_compute_output(0)) result[0] = grad.mm(mat2_.unpack().t());
  if (should_compute_output(1)) result[1] = self_.unpack().t().mm(grad);
  // END SOLUTION
  return result;
}

// TODO: SumBackward0 -- out = self.sum(), a 0-dim tensor. Every element of self contributed once:
//   result[0] = grad.expand(self_sizes) (a view: no copy; the engine copies it if it is kept).
variable_list SumBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(1);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::SumBackward0::apply" lesson="3. The chain rule per op"
  result[0] = grad.expand(self_sizes);
  // END SOLUTION
  return result;
}

// TODO: SumBackward1 -- out = self.sum(dims, keepdim). Same as SumBackward0 over the reduced dims
//   only. Without keepdim the reduced dims are gone from grad: put each back first with
//   grad.unsqueeze(d), for d in dims in increasing order (dims is sorted), then expand(self_sizes).
//   Example: self (2, 3), sum({1}) -> grad (2) -> unsqueeze(1) (2, 1) -> expand (2, 3).
variable_list SumBackward1::apply(variable_list&& grads) {
  Tensor grad = grads[0];
  variable_list result(1);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::SumBackward1::apply" lesson="3. The chain rule per op"
  if (!keepdim) {
    for (int64_t d : dims) grad = grad.unsqueeze(d);
  }
  result[0] = grad.expand(self_sizes);
  // END SOLUTION
  return result;
}

// TODO: ReluBackward0 -- out = max(self, 0). The slope is 1 where the output is positive and 0
//   elsewhere (PyTorch takes 0 at exactly 0): result[0] = grad * (result > 0). The forward saved
//   its output: result_.unpack(); .gt(0) gives a bool mask, and grad * mask keeps grad's dtype.
variable_list ReluBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(1);
  // BEGIN SOLUTION name="tinytorch::autograd::generated::ReluBackward0::apply" lesson="4. A nonlinearity"
  result[0] = grad * result_.unpack().gt(0);
  // END SOLUTION
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
