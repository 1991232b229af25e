// ArrayRef's bounds errors, out of line so that int_array_ref.h stays free of errors.h (which
// includes it). The wording is c10::ArrayRef's.
#include "tinytorch/errors.h"
#include "tinytorch/int_array_ref.h"

namespace tinytorch {
namespace detail {

void throw_invalid_array_ref_slice(size_t n, size_t m, size_t size) {
  throw Error(str("ArrayRef: invalid slice, N = ", n, "; M = ", m, "; size = ", size));
}

void throw_invalid_array_ref_slice(size_t n, size_t size) {
  throw Error(str("ArrayRef: invalid slice, N = ", n, "; size = ", size));
}

void throw_invalid_array_ref_index(size_t index, size_t size) {
  throw Error(str("ArrayRef: invalid index Index = ", index, "; Length = ", size));
}

}  // namespace detail
}  // namespace tinytorch
