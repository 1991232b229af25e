// torch::cat: tensors joined along an existing dim, with its derivative after it. Given code: the
// copy is module 01's copy_ into slices of the result.
#include <vector>

#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// LibTorch still accepts a 1-D empty tensor (size [0]) anywhere in the list and skips it.
bool is_legacy_empty(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

}  // namespace

// out along dim: a (2, 3) and a (4, 3) at dim 0 give a (6, 3); the dtypes promote as in a + b.
Tensor cat(TensorList tensors, int64_t dim) {
  TT_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  const Tensor* shape = nullptr;  // the first tensor that is not a legacy empty one
  ScalarType dtype = tensors[0].scalar_type();
  for (size_t i = 0; i < tensors.size(); ++i) {
    TT_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    if (i > 0) dtype = promoteTypes(dtype, tensors[i].scalar_type());
    if (shape == nullptr && !is_legacy_empty(tensors[i])) shape = &tensors[i];
  }
  if (shape == nullptr) return empty({0}, dtype);
  const int64_t d = maybe_wrap_dim(dim, shape->dim());
  std::vector<int64_t> out_sizes = shape->sizes().vec();
  out_sizes[d] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (is_legacy_empty(t)) continue;
    TT_CHECK(t.dim() == shape->dim(), "Tensors must have same number of dimensions: got ", shape->dim(), " and ",
             t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      TT_CHECK(k == d || t.size(k) == shape->size(k), "Sizes of tensors must match except in dimension ", d,
               ". Expected size ", shape->size(k), " but got size ", t.size(k), " for tensor number ", i,
               " in the list.");
    }
    out_sizes[d] += t.size(d);
  }
  Tensor result = empty(out_sizes, dtype);
  {
    NoGradGuard one_record;  // the copies are this op's kernel, not ops of their own
    int64_t offset = 0;
    for (const Tensor& t : tensors) {
      if (is_legacy_empty(t)) continue;
      result.narrow(d, offset, t.size(d)).copy_(t);
      offset += t.size(d);
    }
  }
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle cat_op("cat");
  record_op(cat_op, tensors, result, attributes);
  return result;
}

namespace {
// Each input gets its own stretch of the gradient along dim (LibTorch's cat_tensors_backward).
const RegisterDerivative cat_derivative("cat", {
    "CatBackward0",
    [](SaveForBackward& save) {
      for (size_t i = 0; i < save.op.inputs.size(); ++i) save.input_sizes(i);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const int64_t dim = ctx.attributes.dim;
      tensor_list result(ctx.num_inputs);
      int64_t offset = 0;
      for (size_t i = 0; i < ctx.num_inputs; ++i) {
        const IntArrayRef sizes = ctx.saved_sizes(i);
        if (sizes.size() == 1 && sizes[0] == 0) continue;  // a skipped legacy empty tensor
        if (ctx.needs_input_grad(i)) result[i] = ctx.grad().narrow(dim, offset, sizes[dim]);
        offset += sizes[dim];
      }
      return result;
    }});
}  // namespace

}  // namespace tinytorch
