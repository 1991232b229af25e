// Module 01 (Tensor), lesson section "7. Reductions".
// The given code (reduce.cpp) wraps negative dims, refuses duplicates, turns "no dims" into "all
// dims", picks the output dtype (sum of ints is int64; mean needs floating point), and calls these.
#include <algorithm>

#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: sum(self, dims, keepdim, out_dtype) -> the sum of self's elements along `dims`, computed in
//   out_dtype (lesson section 7). `dims` are sorted, unique and in 0..self.dim()-1 (the given code
//   checked; empty only for a 0-dim tensor). keepdim keeps each reduced dim with size 1, else the
//   reduced dims disappear. self may be a view (any strides). The given helpers
//   native::to_dtype(t, dtype), contiguous_strides(sizes) and make_view(t, sizes, strides, offset)
//   are yours to use. Throws nothing.
//   Example: [[1, 2, 3], [4, 5, 6]] over dims {1} -> [6, 15]; keepdim -> [[6], [15]] (shape {2, 1});
//   over dims {0, 1} -> 21 (0-dim).
Tensor sum(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype) {
  // BEGIN SOLUTION name="tinytorch::native::sum" lesson="7. Reductions"
  std::vector<int64_t> kept_sizes = self.sizes().vec();
  for (int64_t d : dims) kept_sizes[d] = 1;
  Tensor out = zeros(kept_sizes, out_dtype);
  const Tensor input = to_dtype(self, out_dtype);
  std::vector<int64_t> out_strides = contiguous_strides(kept_sizes);
  for (int64_t d : dims) out_strides[d] = 0;  // all elements along a reduced dim meet in one output

  TT_DISPATCH_ALL_TYPES(out_dtype, "sum", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(input.data_ptr());
    scalar_t* acc = static_cast<scalar_t*>(out.data_ptr());
    const int64_t ndim = input.dim();
    std::vector<int64_t> index(ndim, 0);
    for (int64_t n = 0; n < input.numel(); ++n) {
      int64_t in_offset = 0;
      int64_t out_offset = 0;
      for (int64_t d = 0; d < ndim; ++d) {
        in_offset += index[d] * input.strides()[d];
        out_offset += index[d] * out_strides[d];
      }
      acc[out_offset] = static_cast<scalar_t>(acc[out_offset] + in[in_offset]);
      for (int64_t d = ndim - 1; d >= 0; --d) {
        if (++index[d] < input.sizes()[d]) break;
        index[d] = 0;
      }
    }
  });
  if (keepdim) return out;
  std::vector<int64_t> reduced_sizes;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) reduced_sizes.push_back(self.sizes()[d]);
  }
  return make_view(out, reduced_sizes, contiguous_strides(reduced_sizes), 0);
  // END SOLUTION
}

// TODO: mean(self, dims, keepdim, out_dtype) -> the mean of self's elements along `dims`, in
//   out_dtype, shaped as sum() shapes it (lesson section 7). out_dtype is floating (the given code
//   checked); TT_DISPATCH_FLOATING_TYPES(out_dtype, "mean", [&] { ... scalar_t ... }) gives you its
//   element type. Throws nothing.
//   Example: [[1, 2], [3, 4]] over dims {0} -> [2, 3].
Tensor mean(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype) {
  // BEGIN SOLUTION name="tinytorch::native::mean" lesson="7. Reductions"
  Tensor total = sum(self, dims, keepdim, out_dtype);
  int64_t count = 1;
  for (int64_t d : dims) count *= self.sizes()[d];
  TT_DISPATCH_FLOATING_TYPES(out_dtype, "mean", [&] {
    scalar_t* data = static_cast<scalar_t*>(total.data_ptr());
    for (int64_t i = 0; i < total.numel(); ++i) data[i] /= static_cast<scalar_t>(count);
  });
  return total;
  // END SOLUTION
}

// TODO: max_min_dim(self, dim, keepdim, find_max) -> (values, indices): along `dim`, the largest
//   (find_max) or smallest value and the index (int64) where it is FIRST found; shaped as sum()
//   shapes a one-dim reduction (lesson section 7). `dim` is wrapped and self.size(dim) > 0 (the
//   given code checked). NaN beats every number, as in PyTorch (is_nan(v) tells). Throws nothing.
//   Example: [[1, 5, 5], [7, 7, 0]] along dim 1, max -> values [5, 7], indices [1, 0].
std::tuple<Tensor, Tensor> max_min_dim(const Tensor& self, int64_t dim, bool keepdim, bool find_max) {
  // BEGIN SOLUTION name="tinytorch::native::max_min_dim" lesson="7. Reductions"
  std::vector<int64_t> kept_sizes = self.sizes().vec();
  const int64_t length = kept_sizes[dim];
  kept_sizes[dim] = 1;
  Tensor values = empty(kept_sizes, self.options());
  Tensor indices = empty(kept_sizes, TensorOptions(kLong));
  const int64_t ndim = self.dim();
  const int64_t step = self.strides()[dim];

  TT_DISPATCH_ALL_TYPES(self.scalar_type(), "max_min_dim", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(self.data_ptr());
    scalar_t* best_values = static_cast<scalar_t*>(values.data_ptr());
    int64_t* best_indices = static_cast<int64_t*>(indices.data_ptr());
    std::vector<int64_t> index(ndim, 0);  // over the kept shape: index[dim] stays 0
    for (int64_t n = 0; n < values.numel(); ++n) {
      int64_t base = 0;
      for (int64_t d = 0; d < ndim; ++d) base += index[d] * self.strides()[d];
      scalar_t best = in[base];
      int64_t best_k = 0;
      for (int64_t k = 1; k < length && !is_nan(best); ++k) {
        const scalar_t v = in[base + k * step];
        if (is_nan(v) || (find_max ? v > best : v < best)) {
          best = v;
          best_k = k;
        }
      }
      best_values[n] = best;
      best_indices[n] = best_k;
      for (int64_t d = ndim - 1; d >= 0; --d) {
        if (++index[d] < kept_sizes[d]) break;
        index[d] = 0;
      }
    }
  });
  if (keepdim) return {values, indices};
  std::vector<int64_t> reduced_sizes = kept_sizes;
  reduced_sizes.erase(reduced_sizes.begin() + dim);
  const std::vector<int64_t> strides = contiguous_strides(reduced_sizes);
  return {make_view(values, reduced_sizes, strides, 0), make_view(indices, reduced_sizes, strides, 0)};
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
