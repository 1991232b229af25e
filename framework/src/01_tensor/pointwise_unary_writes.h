#pragma once
// How the in-place (`exp_`) and out= (`exp_out`) forms of one-tensor ops write their result, shared
// by pointwise_unary.cpp and 02_activations/more_activations.cpp: the dtype check LibTorch makes,
// the copy into the destination, and the autograd record of an in-place op.
#include <functional>

#include "tinytorch/dispatch.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace detail {

// How an in-place or out= write checks the result's dtype against the destination's.
enum class WriteCheck {
  Castable,  // PyTorch's canCast: "result type Float can't be cast to the desired output type Long"
  Exact,     // TensorIterator without promotion: "Found dtype Long but expected Float"
  Any,       // comparisons and predicates: any destination dtype
};

void check_write(const Tensor& result, const Tensor& destination, WriteCheck check);

// The in-place form of an op: refuses what autograd cannot follow, keeps self's old value when the
// backward needs it (backward_needs_self), runs `compute` (recording nothing), checks, copies into
// self, and records `handle` as an in-place op.
Tensor& write_in_place(const Tensor& self, const OpHandle& handle, bool backward_needs_self, WriteCheck check,
                       const std::function<Tensor()>& compute, const OpAttributes& attributes = OpAttributes());

// The out= form: runs `compute`, checks the dtype, resizes `out` to the result's shape (new storage
// when it differs, as LibTorch's resize_output) and copies. out= ops do not differentiate: an
// argument requiring grad is refused with LibTorch's message, naming `name`.
Tensor& write_out(Tensor& out, const Tensor& self, const char* name, WriteCheck check,
                  const std::function<Tensor()>& compute);

}  // namespace detail
}  // namespace tinytorch
