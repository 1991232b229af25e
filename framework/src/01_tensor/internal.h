#pragma once
// Helpers shared by the given (non-learner) files of module 01. Learner files do not include this.
#include <cstdint>
#include <limits>
#include <type_traits>

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

// static_cast<Dst>(value) for every value, as LibTorch converts on x86-64. C++ leaves a floating value
// that an integer type cannot hold (NaN, out of range, negative into unsigned) undefined, and UBSan
// reports it. LibTorch (c10::convert) takes uint8 through int64 so that negative values wrap (-1.7 ->
// 255), and x86's truncating conversions give the type's minimum where a value does not fit (NaN ->
// INT64_MIN); the narrow types then keep the low bits of that 32-bit result, as compiled code does.
template <typename Dst, typename Src>
Dst convert(Src value) {
  if constexpr (std::is_integral_v<Dst> && !std::is_same_v<Dst, bool> && !std::is_integral_v<Src>) {
    const double v = static_cast<double>(value);  // Half and BFloat16 convert through float
    if constexpr (sizeof(Dst) == 8 || std::is_same_v<Dst, uint8_t>) {
      const bool fits = v >= -0x1p63 && v < 0x1p63;
      return static_cast<Dst>(fits ? static_cast<int64_t>(v) : std::numeric_limits<int64_t>::min());
    } else {
      const bool fits = v >= -0x1p31 && v < 0x1p31;
      return static_cast<Dst>(fits ? static_cast<int32_t>(v) : std::numeric_limits<int32_t>::min());
    }
  } else {
    return static_cast<Dst>(value);
  }
}

}  // namespace detail
}  // namespace tinytorch
