// The in-place and out= writes of one-tensor ops (pointwise_unary_writes.h).
#include "pointwise_unary_writes.h"

#include "internal.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace detail {

namespace {
// self's value before an in-place op overwrites it, when the op's backward needs it and will run.
Tensor original_for_backward(const Tensor& self, bool backward_needs_self) {
  if (!backward_needs_self || !is_recording() || !self.requires_grad()) return Tensor();
  NoGradGuard no_record;
  return self.clone();
}

}  // namespace

void check_write(const Tensor& result, const Tensor& destination, WriteCheck check) {
  const ScalarType from = result.scalar_type(), to = destination.scalar_type();
  if (check == WriteCheck::Castable) {
    TT_CHECK(canCast(from, to), "result type ", toString(from), " can't be cast to the desired output type ",
             toString(to));
  } else if (check == WriteCheck::Exact) {
    TT_CHECK(from == to, "Found dtype ", toString(to), " but expected ", toString(from));
  }
}

Tensor& write_in_place(const Tensor& self, const OpHandle& handle, bool backward_needs_self, WriteCheck check,
                       const std::function<Tensor()>& compute_result, const OpAttributes& attributes) {
  check_in_place(handle, {self});
  const Tensor original = original_for_backward(self, backward_needs_self);
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = compute_result();
  }
  check_write(result, self, check);
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  record_in_place_op(handle, {self}, attributes, original);
  return const_cast<Tensor&>(self);
}

namespace {
// `out` given `result`'s sizes: kept when they already match, else new contiguous storage (as
// LibTorch's resize_output; its warning about resizing a non-empty out is not repeated).
void resize_output(Tensor& out, IntArrayRef sizes) {
  if (out.sizes().equals(sizes)) return;
  TensorImpl* impl = out.unsafeGetTensorImpl();
  Tensor fresh = empty(sizes, TensorOptions(out.scalar_type()));
  TensorImpl replacement(fresh.storage(), out.scalar_type(), sizes.vec(), contiguous_strides(sizes), 0);
  replacement.set_autograd_meta(impl->autograd_meta());
  *impl = replacement;
}
}  // namespace

Tensor& write_out(Tensor& out, const Tensor& self, const char* name, WriteCheck check,
                  const std::function<Tensor()>& compute_result) {
  TT_CHECK(!is_recording() || !(self.requires_grad() || out.requires_grad()), name,
           "(): functions with out=... arguments don't support automatic differentiation, but one of the "
           "arguments requires grad.");
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = compute_result();
  }
  check_write(result, out, check);
  resize_output(out, result.sizes());
  detail::copy_into(out, result);
  return out;
}

}  // namespace detail

}  // namespace tinytorch
