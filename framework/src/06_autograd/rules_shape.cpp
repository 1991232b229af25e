// Backward rules of reductions, views and copies (module 06, given). A view's gradient is the
// inverse view of the output's gradient; a reduction's is the output gradient spread back out.
#include "tinytorch/autograd/functions.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace autograd {
namespace generated {
namespace {

// A reduced gradient with the reduced dims put back (size 1), ready to broadcast against self.
Tensor unsqueeze_reduced(Tensor grad, const std::vector<int64_t>& dims, bool keepdim) {
  if (!keepdim) {
    for (int64_t d : dims) grad = grad.unsqueeze(d);
  }
  return grad;
}

// Sizes that are 1 everywhere except `size` at `dim`: to broadcast a 1-D tensor along one dim.
std::vector<int64_t> along(size_t ndim, int64_t dim, int64_t size) {
  std::vector<int64_t> sizes(ndim, 1);
  sizes[dim] = size;
  return sizes;
}

}  // namespace

variable_list MeanBackward0::apply(variable_list&& grads) {
  return {grads[0].expand(self_sizes) / static_cast<double>(product(self_sizes))};
}

variable_list MeanBackward1::apply(variable_list&& grads) {
  int64_t count = 1;
  for (int64_t d : dims) count *= self_sizes[d];
  return {unsqueeze_reduced(grads[0], dims, keepdim).expand(self_sizes) / static_cast<double>(count)};
}

// max(dim): the gradient goes to the position each maximum came from (the saved index).
variable_list MaxBackward0::apply(variable_list&& grads) {
  if (self_sizes.empty()) return {grads[0]};  // a 0-dim input is its own maximum
  const Tensor grad = unsqueeze_reduced(grads[0], {dim}, keepdim);
  const Tensor index = unsqueeze_reduced(indices_.unpack(), {dim}, keepdim);
  const Tensor positions = arange(self_sizes[dim], kLong).view(along(self_sizes.size(), dim, self_sizes[dim]));
  return {grad * positions.eq(index).to(grad.scalar_type())};
}

// max() of all elements: ties share the gradient evenly (LibTorch's evenly_distribute_backward).
variable_list MaxBackward1::apply(variable_list&& grads) {
  const Tensor self = self_.unpack();
  const Tensor is_max = self.eq(result_.unpack()).to(grads[0].scalar_type());
  return {grads[0] * is_max / is_max.sum()};
}

variable_list ViewBackward0::apply(variable_list&& grads) { return {grads[0].reshape(self_sizes)}; }

variable_list SqueezeBackward0::apply(variable_list&& grads) { return {grads[0].reshape(self_sizes)}; }

variable_list UnsqueezeBackward0::apply(variable_list&& grads) { return {grads[0].squeeze(dim)}; }

variable_list TransposeBackward0::apply(variable_list&& grads) { return {grads[0].transpose(dim0, dim1)}; }

// The inverse permutation: output dim i came from input dim dims[i].
variable_list PermuteBackward0::apply(variable_list&& grads) {
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) inverse[dims[i]] = static_cast<int64_t>(i);
  return {grads[0].permute(inverse)};
}

variable_list ExpandBackward0::apply(variable_list&& grads) { return {sum_to(grads[0], self_sizes)}; }

// The gradient of a selected row lands in that row of a zero tensor shaped like self.
variable_list SelectBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  if (GradMode::is_enabled()) {  // create_graph: a product with a one-hot mask stays differentiable
    const Tensor one_hot = arange(self_sizes[dim], kLong).eq(index).to(grad.scalar_type());
    return {grad.unsqueeze(dim) * one_hot.view(along(self_sizes.size(), dim, self_sizes[dim]))};
  }
  Tensor result = zeros(self_sizes, grad.options());
  result.select(dim, index).copy_(grad);
  return {result};
}

variable_list SliceBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  if (GradMode::is_enabled()) {
    // create_graph: scatter with a (size, length) 0/1 matrix, placement[start + k * step][k] = 1.
    const int64_t length = grad.size(dim);
    const Tensor rows = arange(self_sizes[dim], kLong).unsqueeze(1);
    const Tensor targets = (arange(length, kLong) * step + start).unsqueeze(0);
    const Tensor placement = rows.eq(targets).to(grad.scalar_type());
    const int64_t last = grad.dim() - 1;
    return {grad.transpose(dim, last).matmul(placement.t()).transpose(dim, last)};
  }
  Tensor result = zeros(self_sizes, grad.options());
  result.slice(dim, start, end, step).copy_(grad);
  return {result};
}

variable_list CloneBackward0::apply(variable_list&& grads) { return {grads[0]}; }

variable_list ToCopyBackward0::apply(variable_list&& grads) { return {grads[0].to(self_scalar_type)}; }

// self.copy_(src): self's old values no longer reach the output; src's values do, broadcast.
variable_list CopyBackwards::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  if (should_compute_output(0)) result[0] = zeros_like(grad);
  if (should_compute_output(1)) result[1] = sum_to(grad, src_sizes).to(src_scalar_type);
  return result;
}

variable_list FillBackward2::apply(variable_list&& grads) { return {zeros_like(grads[0])}; }

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
