// Given code for module 05: torch::stack (what Stack<> collates with) and torch::randperm (what
// RandomSampler shuffles with). Both use only module 01's given ops (empty, select, copy_, randint);
// stack records itself for autograd and declares its derivative (StackBackward0) after it.
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {

Tensor stack(TensorList tensors, int64_t dim) {
  TT_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const IntArrayRef entry_sizes = tensors[0].sizes();
  ScalarType dtype = tensors[0].scalar_type();
  for (size_t i = 1; i < tensors.size(); ++i) {
    TT_CHECK(tensors[i].sizes() == entry_sizes, "stack expects each tensor to be equal size, but got ", entry_sizes,
             " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
    dtype = promoteTypes(dtype, tensors[i].scalar_type());
  }
  // The new dimension can go anywhere from 0 to ndim (inclusive), so wrap against ndim + 1.
  const int64_t new_dim = maybe_wrap_dim(dim, static_cast<int64_t>(entry_sizes.size()) + 1);

  // out has the entries' sizes with len(tensors) inserted at new_dim: three [2, 5] at dim 1 -> [2, 3, 5].
  std::vector<int64_t> out_sizes(entry_sizes.begin(), entry_sizes.end());
  out_sizes.insert(out_sizes.begin() + new_dim, static_cast<int64_t>(tensors.size()));
  Tensor out = empty(out_sizes, dtype);
  {
    NoGradGuard one_record;  // the copies are this op's kernel, not ops of their own
    // Entry i is the slice out.select(new_dim, i): a view of out with the entry's own shape.
    for (size_t i = 0; i < tensors.size(); ++i) out.select(new_dim, static_cast<int64_t>(i)).copy_(tensors[i]);
  }
  OpAttributes attributes;
  attributes.dim = new_dim;
  static OpHandle stack_op("stack");
  record_op(stack_op, tensors, out, attributes);
  return out;
}

namespace {
// Entry i gets slice i of the gradient along the new dim (LibTorch's stack_tensors_backward); the
// engine converts it back to the entry's dtype when stack promoted it.
const RegisterDerivative stack_derivative("stack", {
    "StackBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list {
      tensor_list result(ctx.num_inputs);
      for (size_t i = 0; i < ctx.num_inputs; ++i) {
        if (ctx.needs_input_grad(i)) result[i] = ctx.grad().select(ctx.attributes.dim, static_cast<int64_t>(i));
      }
      return result;
    }});
}  // namespace

Tensor randperm(int64_t n, TensorOptions options) {
  TT_CHECK(n >= 0, "n must be non-negative, got", n);
  const ScalarType dtype = options.dtype_opt().value_or(kLong);
  TT_CHECK(dtype == kLong, "randperm: TinyTorch supports only dtype Long (int64) for permutations, got ", dtype);
  // Fisher-Yates: for i = n-1 down to 1, swap entry i with a uniformly chosen entry j in [0, i].
  // One draw per position, all taken at once from the shared generator (so manual_seed fixes them).
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  if (n > 1) {
    Tensor draws = randint(0, std::numeric_limits<int64_t>::max(), {n});
    const int64_t* r = draws.data_ptr<int64_t>();
    for (int64_t i = n - 1; i > 0; --i) std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(r[i] % (i + 1))]);
  }
  Tensor out = empty({n}, kLong);
  int64_t* data = out.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) data[i] = perm[static_cast<size_t>(i)];
  return out;
}

}  // namespace tinytorch
