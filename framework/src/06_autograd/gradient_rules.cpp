// Module 06 (Autograd), lesson sections "2. Undoing broadcasting", "3. The chain rule per op" and
// "4. A nonlinearity": sum_to, and the derivative declarations you write (tinytorch/derivative.h).
// Every other op declares its derivative next to its forward, in the same shape: read views.cpp
// (view, transpose, ...), unary.cpp (exp, log, ...) or arithmetic.cpp (sub, div) in 01_tensor.
//
// A declaration has two halves:
//   save:     what the node keeps from the forward pass, chosen with save.input(i), save.output(i)
//             (tensors) and save.input_sizes(i) (a shape only). The op's attributes (alpha, dims,
//             keepdim, ...) are kept for you: ctx.attributes.
//   backward: given ctx.grad() (dLoss/dOutput, shaped like the output) and what was saved
//             (ctx.saved(n), ctx.saved_sizes(n), in the order you saved them), one gradient per op
//             input, undefined where !ctx.needs_input_grad(i). Write it with tensor ops: then
//             create_graph can differentiate it again.
// You never undo broadcasting in a rule: the engine passes every gradient through your sum_to.
#include <vector>

#include "tinytorch/autograd/engine.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"

namespace tinytorch {
namespace autograd {

// TODO: sum_to(grad, sizes) -- undo broadcasting. An input of shape `sizes` was broadcast to
// grad's shape, so each of its elements was used once per broadcast copy: its gradient is the
// sum over the copies. Return grad itself when the sizes already match.
//   Examples: (32, 128) -> (128): each element is the sum of 32; (10, 5) -> (10, 1): of 5;
//             (32, 10, 5) -> (10, 1): of 160; (4, 3) -> (): of all 12.
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

}  // namespace autograd

namespace {

// TODO: add (AddBackward0) -- out = self + alpha * other, alpha a number (ctx.attributes.alpha).
//   save: only what the rule reads. backward: d self = grad, d other = alpha * grad.
//   Example: a (4, 3) batch plus a (3) bias, loss = out.sum(): the bias gets 4 per element
//   (the engine sums your (4, 3) gradient down to (3)).
const RegisterDerivative add_derivative("add", {
    "AddBackward0",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="AddBackward0 save" lesson="3. The chain rule per op"
      (void)save;  // the values of self and other do not appear in the derivative; alpha is an attribute
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      tensor_list result(ctx.num_inputs);
      // BEGIN SOLUTION name="AddBackward0 backward" lesson="3. The chain rule per op"
      const Tensor& grad = ctx.grad();
      const Scalar& alpha = ctx.attributes.alpha;
      if (ctx.needs_input_grad(0)) result[0] = grad;
      if (ctx.needs_input_grad(1)) result[1] = alpha.toDouble() == 1.0 ? grad : grad * alpha;
      // END SOLUTION
      return result;
    }});

// TODO: mul (MulBackward0) -- out = self * other, element-wise with broadcasting.
//   d self = grad * other, d other = grad * self: each input's gradient needs the OTHER input.
//   Example: a = [1, 2, 3], b = [4, 5, 6], loss = (a * b).sum(): a.grad = [4, 5, 6], b.grad = [1, 2, 3].
const RegisterDerivative mul_derivative("mul", {
    "MulBackward0",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="MulBackward0 save" lesson="3. The chain rule per op"
      save.input(0);  // self
      save.input(1);  // other
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      tensor_list result(ctx.num_inputs);
      // BEGIN SOLUTION name="MulBackward0 backward" lesson="3. The chain rule per op"
      const Tensor& grad = ctx.grad();
      if (ctx.needs_input_grad(0)) result[0] = grad * ctx.saved(1);
      if (ctx.needs_input_grad(1)) result[1] = grad * ctx.saved(0);
      // END SOLUTION
      return result;
    }});

// TODO: mm (MmBackward0) -- out (n, m) = self (n, k) @ mat2 (k, m).
//   Each gradient has its input's shape: d self is (n, k), d mat2 is (k, m). Use mm and t().
//   Example: A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]], a gradient of ones:
//   dA = [[11, 15], [11, 15]], dB = [[4, 4], [6, 6]].
const RegisterDerivative mm_derivative("mm", {
    "MmBackward0",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="MmBackward0 save" lesson="3. The chain rule per op"
      save.input(0);  // self
      save.input(1);  // mat2
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      tensor_list result(ctx.num_inputs);
      // BEGIN SOLUTION name="MmBackward0 backward" lesson="3. The chain rule per op"
      const Tensor& grad = ctx.grad();
      if (ctx.needs_input_grad(0)) result[0] = grad.mm(ctx.saved(1).t());  // (n, m) @ (m, k)
      if (ctx.needs_input_grad(1)) {
        // A mat2 stored column by column (a Linear layer's weight.t()) gets its gradient in that
        // layout too, (grad^T self)^T, as LibTorch does: the transpose's backward then hands the
        // weight a contiguous gradient, which adds onto weight.grad in one unit-stride pass.
        const Tensor& mat2 = ctx.saved(1);
        const bool column_major = mat2.size(0) > 1 && mat2.size(1) > 1 && mat2.stride(0) == 1 &&
                                  mat2.stride(1) == mat2.size(0);
        result[1] = column_major ? grad.t().mm(ctx.saved(0)).t()  // ((m, n) @ (n, k))^T
                                 : ctx.saved(0).t().mm(grad);     // (k, n) @ (n, m)
      }
      // END SOLUTION
      return result;
    }});

// TODO: sum (SumBackward0) -- out = self.sum(), a 0-dim tensor. Every element of self contributed
//   once, so each gets the output's gradient: a tensor of self's shape (expand: a view, no copy).
const RegisterDerivative sum_derivative("sum", {
    "SumBackward0",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="SumBackward0 save" lesson="3. The chain rule per op"
      save.input_sizes(0);  // only self's shape: its values do not matter
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      // BEGIN SOLUTION name="SumBackward0 backward" lesson="3. The chain rule per op"
      return {ctx.grad().expand(ctx.saved_sizes(0))};
      // END SOLUTION
    }});

// TODO: sum over dims (SumBackward1) -- out = self.sum(dims, keepdim); ctx.attributes.dims (sorted,
//   non-negative) and .keepdim. As SumBackward0 over the reduced dims only; without keepdim those
//   dims are gone from grad and must be put back (size 1) before it can be expanded.
//   Example: self (2, 3), sum({1}) -> grad (2) -> (2, 1) -> (2, 3).
const RegisterDerivative sum_dims_derivative("sum.dim_IntList", {
    "SumBackward1",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="SumBackward1 save" lesson="3. The chain rule per op"
      save.input_sizes(0);
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      // BEGIN SOLUTION name="SumBackward1 backward" lesson="3. The chain rule per op"
      Tensor grad = ctx.grad();
      if (!ctx.attributes.keepdim) {
        for (int64_t d : ctx.attributes.dims) grad = grad.unsqueeze(d);  // ascending: each lands where it was
      }
      return {grad.expand(ctx.saved_sizes(0))};
      // END SOLUTION
    }});

// TODO: relu (ReluBackward0) -- out = max(self, 0). The slope is 1 where the input is positive and
//   0 elsewhere (PyTorch takes 0 at exactly 0). Which tensor do you need, self or out? Either tells
//   where the input was positive; LibTorch keeps the one the next op keeps anyway.
//   .gt(0) gives a bool mask, and grad * mask keeps grad's dtype.
const RegisterDerivative relu_derivative("relu", {
    "ReluBackward0",
    [](SaveForBackward& save) {
      // BEGIN SOLUTION name="ReluBackward0 save" lesson="4. A nonlinearity"
      save.output(0);  // result: positive exactly where self was
      // END SOLUTION
    },
    [](const BackwardContext& ctx) -> tensor_list {
      // BEGIN SOLUTION name="ReluBackward0 backward" lesson="4. A nonlinearity"
      return {ctx.grad() * ctx.saved(0).gt(0)};
      // END SOLUTION
    }});

}  // namespace
}  // namespace tinytorch
