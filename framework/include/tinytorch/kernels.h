#pragma once
// What the framework's kernels (and the learner's files) are written with: errors, dtype
// dispatch, dim wrapping, views, and the declarations of the functions a learner writes in
// module 01. Public users include tinytorch/torch.h instead. Learner files include this header,
// so it stays light: no <sstream>, no <functional>, no TensorImpl.
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace detail {
// The name of the kernel running on this thread, set by the TT_DISPATCH_* macros for the scope of their
// lambda: what TensorImpl::data() names when a CPU kernel meets a tensor on a device (module 22).
extern thread_local const char* current_kernel_name;
class KernelNameScope {
 public:
  explicit KernelNameScope(const char* name) : previous_(current_kernel_name) { current_kernel_name = name; }
  ~KernelNameScope() { current_kernel_name = previous_; }
  KernelNameScope(const KernelNameScope&) = delete;
  KernelNameScope& operator=(const KernelNameScope&) = delete;

 private:
  const char* previous_;
};
}  // namespace detail
}  // namespace tinytorch

// TT_DISPATCH_ALL_TYPES(dtype, "name", [&] { ... scalar_t ... }) runs the lambda with `scalar_t`
// set to the C++ type of `dtype` (float, double, int64_t or bool), like LibTorch's AT_DISPATCH_*.
// The _NUMERIC variant refuses kBool and the _FLOATING variant everything but kFloat and kDouble,
// with LibTorch's message: "mm" not implemented for 'Bool'.
#define TT_DISPATCH_CASE_(ENUM, TYPE, ...) \
  case ::tinytorch::ScalarType::ENUM: {    \
    using scalar_t = TYPE;                 \
    return __VA_ARGS__();                  \
  }
#define TT_DISPATCH_FAIL_(TYPE, NAME)                                                         \
  throw ::tinytorch::Error(::tinytorch::detail::str("\"", NAME, "\" not implemented for '", \
                                                    ::tinytorch::toString(TYPE), "'"))

#define TT_DISPATCH_ALL_TYPES(TYPE, NAME, ...)          \
  [&] { ::tinytorch::detail::KernelNameScope tt_kernel_name_scope_(NAME); \
    switch (TYPE) {                                     \
      TT_DISPATCH_CASE_(Bool, bool, __VA_ARGS__)        \
      TT_DISPATCH_CASE_(Long, int64_t, __VA_ARGS__)     \
      TT_DISPATCH_CASE_(Float, float, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Double, double, __VA_ARGS__)    \
      default:                                          \
        break;                                          \
    }                                                   \
    TT_DISPATCH_FAIL_(TYPE, NAME);                      \
  }()

// Every unquantized dtype, the narrow ones (uint8, int8, int16, int32, Half, BFloat16) included:
// for what must work on any plain tensor (copies and conversions, fill, printing, item, gathers).
// Arithmetic dispatches over the computation types instead (detail::computation_type).
#define TT_DISPATCH_STORAGE_TYPES(TYPE, NAME, ...)      \
  [&] { ::tinytorch::detail::KernelNameScope tt_kernel_name_scope_(NAME); \
    switch (TYPE) {                                     \
      TT_DISPATCH_CASE_(Bool, bool, __VA_ARGS__)        \
      TT_DISPATCH_CASE_(Byte, uint8_t, __VA_ARGS__)     \
      TT_DISPATCH_CASE_(Char, int8_t, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Short, int16_t, __VA_ARGS__)    \
      TT_DISPATCH_CASE_(Int, int32_t, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Half, ::tinytorch::Half, __VA_ARGS__) \
      TT_DISPATCH_CASE_(BFloat16, ::tinytorch::BFloat16, __VA_ARGS__) \
      TT_DISPATCH_CASE_(Long, int64_t, __VA_ARGS__)     \
      TT_DISPATCH_CASE_(Float, float, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Double, double, __VA_ARGS__)    \
      default:                                          \
        break;                                          \
    }                                                   \
    TT_DISPATCH_FAIL_(TYPE, NAME);                      \
  }()

#define TT_DISPATCH_NUMERIC_TYPES(TYPE, NAME, ...)      \
  [&] { ::tinytorch::detail::KernelNameScope tt_kernel_name_scope_(NAME); \
    switch (TYPE) {                                     \
      TT_DISPATCH_CASE_(Long, int64_t, __VA_ARGS__)     \
      TT_DISPATCH_CASE_(Float, float, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Double, double, __VA_ARGS__)    \
      default:                                          \
        break;                                          \
    }                                                   \
    TT_DISPATCH_FAIL_(TYPE, NAME);                      \
  }()

// The plain integer types that hold quantized codes (module 15): scalar_t is uint8_t, int8_t or int32_t.
#define TT_DISPATCH_CODE_TYPES(TYPE, NAME, ...)         \
  [&] { ::tinytorch::detail::KernelNameScope tt_kernel_name_scope_(NAME); \
    switch (TYPE) {                                     \
      TT_DISPATCH_CASE_(Byte, uint8_t, __VA_ARGS__)     \
      TT_DISPATCH_CASE_(Char, int8_t, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Int, int32_t, __VA_ARGS__)      \
      default:                                          \
        break;                                          \
    }                                                   \
    TT_DISPATCH_FAIL_(TYPE, NAME);                      \
  }()

#define TT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)     \
  [&] { ::tinytorch::detail::KernelNameScope tt_kernel_name_scope_(NAME); \
    switch (TYPE) {                                     \
      TT_DISPATCH_CASE_(Float, float, __VA_ARGS__)      \
      TT_DISPATCH_CASE_(Double, double, __VA_ARGS__)    \
      default:                                          \
        break;                                          \
    }                                                   \
    TT_DISPATCH_FAIL_(TYPE, NAME);                      \
  }()

namespace tinytorch {

// Turns a possibly negative dim into 0..ndim-1, or throws LibTorch's
// "Dimension out of range (expected to be in range of [-2, 1], but got 2)".
// A 0-dim tensor accepts dims -1 and 0, as in LibTorch.
int64_t maybe_wrap_dim(int64_t dim, int64_t ndim);

// Row-major strides for `sizes`: {2, 3, 4} -> {12, 4, 1}.
std::vector<int64_t> contiguous_strides(IntArrayRef sizes);

// Product of sizes (1 for no sizes: a 0-dim tensor holds one element).
int64_t product(IntArrayRef sizes);

// NaN test that also compiles for integer and bool element types (they are never NaN).
template <typename T>
bool is_nan(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return value != value;
  } else {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Module 01: the functions the learner writes (the reference versions live in the same files).
// ---------------------------------------------------------------------------------------------

// elementwise.cpp -- lesson section "4. Element-wise arithmetic and broadcasting"
// The broadcast shape of a and b: {3, 1} and {4} -> {3, 4}.
std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b);

// shape_ops.cpp -- lesson section "5. Views: reshape, view, transpose, permute"
// `shape` with its one -1 replaced so that the sizes multiply to numel: ({-1, 3}, 6) -> {2, 3}.
std::vector<int64_t> infer_view_size(IntArrayRef shape, int64_t numel);

namespace native {
// A tensor sharing `self`'s storage with new sizes, strides and offset (no checks, no recording):
// the building block of every view. Given.
Tensor make_view(const Tensor& self, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 int64_t storage_offset);
// Like self.to(dtype) (no copy when the dtype already matches) but records nothing: for use inside
// kernels, whose public op records itself. Given.
Tensor to_dtype(const Tensor& self, ScalarType dtype);

// elementwise.cpp: out[i] = op(a[i'], b[i'']) over out's shape, where a and b are broadcast to it.
// `out` is already allocated with shape infer_size(a.sizes(), b.sizes()); a and b have dtype In.
// Instantiated for In in {bool, int64_t, float, double} with Out = In or Out = bool.
template <typename In, typename Out>
void broadcast_binary_loop(const Tensor& a, const Tensor& b, const Tensor& out, Out (*op)(In, In));

// shape_ops.cpp -- lesson section "5. Views: reshape, view, transpose, permute"
// Views over the same storage with two dims (or all dims) reordered. They check their dims.
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor& self, IntArrayRef dims);

// matmul.cpp -- lesson section "6. Matrix multiplication". Inputs have one dtype (checked by the
// caller); these check shapes.
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor matmul(const Tensor& self, const Tensor& other);

// reductions.cpp -- lesson section "7. Reductions". `dims` are already wrapped to 0..dim()-1,
// unique, and non-empty; the result has dtype `out_dtype`.
Tensor sum(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype);
Tensor mean(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype);
// Largest (find_max) or smallest value along `dim` (already wrapped) and its index (kLong).
std::tuple<Tensor, Tensor> max_min_dim(const Tensor& self, int64_t dim, bool keepdim, bool find_max);
}  // namespace native

// memory.cpp -- lesson section "8. Memory footprint": Tensor::memory_footprint() and
// memory_footprint(const std::vector<Tensor>&), declared in tensor.h.

}  // namespace tinytorch
