#pragma once
// Helpers shared by the given (non-learner) files of module 01. Learner files do not include this.
#include "tinytorch/kernels.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {
namespace detail {

// Refuses in-place writes into tensors whose elements share memory (expand()ed views).
void check_no_internal_overlap(const Tensor& t);

// `t` viewed with `sizes` by giving broadcast dims stride 0; the caller has checked the sizes.
// Unlike Tensor::expand it records nothing: it is a kernel's internal view.
Tensor broadcast_view(const Tensor& t, IntArrayRef sizes);

// `value` as a 0-dim tensor marked as a wrapped number (Bool, Long or Double), for `t + 2`.
Tensor wrapped_scalar(const Scalar& value);

// Every element of the contiguous tensor `t` set to `value` converted to t's dtype (integers
// exactly, not through a double). Records nothing.
void fill_contiguous_with(const Tensor& t, const Scalar& value);

// dst[i] = src[i] for same-shaped tensors of any dtypes and strides. Records nothing.
void copy_into(const Tensor& dst, const Tensor& src);
// `t` itself when it already has `dtype`, else a converted copy. Records nothing.
Tensor as_dtype(const Tensor& t, ScalarType dtype);
// `t` itself when it is contiguous with `dtype`, else a contiguous converted copy. Records nothing.
Tensor as_contiguous(const Tensor& t, ScalarType dtype);

// The dtype a kernel computes in for results of `dtype`: the narrow integer types (uint8, int8,
// int16, int32) compute in int64 and the reduced floating types (Half, BFloat16) in float, then
// the result is converted back (LibTorch computes Half in float too; integer wrap-around is the
// same either way). Every other dtype computes as itself. Kernels dispatch over the computation
// types only (TT_DISPATCH_ALL_TYPES) and give their output `dtype`.
ScalarType computation_type(ScalarType dtype);

}  // namespace detail
}  // namespace tinytorch
