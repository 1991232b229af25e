// Module 01 (Tensor), lesson section "4. Element-wise arithmetic and broadcasting".
// The given code (arithmetic.cpp, compare.cpp) promotes dtypes, allocates the result with your
// infer_size(), and calls your broadcast_binary_loop() for + - * / pow and the comparisons.
#include <algorithm>

#include "tinytorch/kernels.h"

namespace tinytorch {

// TODO: infer_size(a, b) -> the shape that tensors of shapes a and b broadcast to, by LibTorch's
//   rule (lesson section 4, "The broadcasting rule"). Either shape may be empty (a 0-dim tensor).
//   Errors: incompatible sizes throw LibTorch's message, with i the dim's position in the RESULT:
//     TT_CHECK(false, "The size of tensor a (", size_a, ") must match the size of tensor b (",
//              size_b, ") at non-singleton dimension ", i);
//   Examples: {3, 1} and {4} -> {3, 4};   {5, 1, 2} and {3, 1} -> {5, 3, 2};   {} and {2} -> {2};
//             {2, 3} and {2, 4} -> "The size of tensor a (3) must match the size of tensor b (4)
//             at non-singleton dimension 1".
std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  // BEGIN SOLUTION name="tinytorch::infer_size" lesson="4. Element-wise arithmetic and broadcasting"
  const int64_t dims_a = static_cast<int64_t>(a.size());
  const int64_t dims_b = static_cast<int64_t>(b.size());
  const int64_t ndim = std::max(dims_a, dims_b);
  std::vector<int64_t> result(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t from_right = ndim - 1 - i;
    const int64_t size_a = from_right < dims_a ? a[dims_a - 1 - from_right] : 1;
    const int64_t size_b = from_right < dims_b ? b[dims_b - 1 - from_right] : 1;
    TT_CHECK(size_a == size_b || size_a == 1 || size_b == 1, "The size of tensor a (", size_a,
             ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", i);
    result[i] = size_a == 1 ? size_b : size_a;
  }
  return result;
  // END SOLUTION
}

namespace native {

// TODO: broadcast_binary_loop(a, b, out, op) -- for every element of out, op applied to the elements
//   of a and b that broadcasting pairs with it (lesson section 4, "How the loop works").
//   `out` is contiguous and already has the broadcast shape; a and b may be views (any strides,
//   any storage offset) with fewer dims or dims of size 1. Read them in place: no copy, no expand.
//   In and Out are the element types (a.data_ptr() points at a's first element). Throws nothing.
//   Example: a {2, 1} = [[1], [2]], b {3} = [10, 20, 30], op = + -> out [[11, 21, 31], [12, 22, 32]];
//   with a = x.t() for x = [[1, 2]] (a view, strides {1, 2}) the result is the same.
template <typename In, typename Out>
void broadcast_binary_loop(const Tensor& a, const Tensor& b, const Tensor& out, Out (*op)(In, In)) {
  // BEGIN SOLUTION name="tinytorch::native::broadcast_binary_loop" lesson="4. Element-wise arithmetic and broadcasting"
  const int64_t ndim = out.dim();
  const IntArrayRef out_sizes = out.sizes();
  // Strides of an input seen through out's dims: 0 where it is broadcast.
  auto broadcast_strides = [ndim](const Tensor& input) {
    std::vector<int64_t> strides(ndim, 0);
    for (int64_t i = 0; i < input.dim(); ++i) {
      const int64_t d = ndim - input.dim() + i;
      strides[d] = input.sizes()[i] == 1 ? 0 : input.strides()[i];
    }
    return strides;
  };
  const std::vector<int64_t> a_strides = broadcast_strides(a);
  const std::vector<int64_t> b_strides = broadcast_strides(b);
  const In* a_data = static_cast<const In*>(a.data_ptr());
  const In* b_data = static_cast<const In*>(b.data_ptr());
  Out* out_data = static_cast<Out*>(out.data_ptr());

  std::vector<int64_t> index(ndim, 0);
  for (int64_t n = 0; n < out.numel(); ++n) {
    int64_t offset_a = 0;
    int64_t offset_b = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      offset_a += index[d] * a_strides[d];
      offset_b += index[d] * b_strides[d];
    }
    out_data[n] = op(a_data[offset_a], b_data[offset_b]);
    for (int64_t d = ndim - 1; d >= 0; --d) {  // next multi-index
      if (++index[d] < out_sizes[d]) break;
      index[d] = 0;
    }
  }
  // END SOLUTION
}

// The element types the given code calls the loop with (arithmetic: Out = In; comparisons: Out = bool).
template void broadcast_binary_loop<bool, bool>(const Tensor&, const Tensor&, const Tensor&, bool (*)(bool, bool));
template void broadcast_binary_loop<int64_t, int64_t>(const Tensor&, const Tensor&, const Tensor&,
                                                      int64_t (*)(int64_t, int64_t));
template void broadcast_binary_loop<float, float>(const Tensor&, const Tensor&, const Tensor&, float (*)(float, float));
template void broadcast_binary_loop<double, double>(const Tensor&, const Tensor&, const Tensor&,
                                                    double (*)(double, double));
template void broadcast_binary_loop<int64_t, bool>(const Tensor&, const Tensor&, const Tensor&,
                                                   bool (*)(int64_t, int64_t));
template void broadcast_binary_loop<float, bool>(const Tensor&, const Tensor&, const Tensor&, bool (*)(float, float));
template void broadcast_binary_loop<double, bool>(const Tensor&, const Tensor&, const Tensor&,
                                                  bool (*)(double, double));

}  // namespace native
}  // namespace tinytorch
