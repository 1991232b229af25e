// Module 01 (Tensor), lesson section "5. Views: reshape, view, transpose, permute".
// A view is a new (sizes, strides, offset) over the same storage: no element is copied. The given
// code (views.cpp) calls your infer_view_size() for view()/reshape() and your transpose()/permute()
// for Tensor::transpose/t/permute. native::make_view(self, sizes, strides, offset) builds a view.
#include <utility>

#include "tinytorch/kernels.h"

namespace tinytorch {

// TODO: infer_view_size(shape, numel) -> the sizes view()/reshape() will use: `shape` with its -1
//   ("infer me"), if any, replaced so that the sizes multiply to numel (lesson section 5).
//   Errors, LibTorch's messages: a second -1 -> "only one dimension can be inferred"; any other
//   negative entry -> "invalid shape dimension -2" (with the entry); sizes that cannot make numel ->
//   "shape '[2, 2]' is invalid for input of size 6" (streaming an IntArrayRef prints "[2, 2]");
//   a -1 beside a 0 for 0 elements -> "cannot reshape tensor of 0 elements into shape [-1, 0]
//   because the unspecified dimension size -1 can be any value and is ambiguous".
//   Examples: ({-1, 3}, 6) -> {2, 3};   ({2, -1, 2}, 8) -> {2, 2, 2};   ({4, -1}, 6) -> error.
std::vector<int64_t> infer_view_size(IntArrayRef shape, int64_t numel) {
  // BEGIN SOLUTION name="tinytorch::infer_view_size" lesson="5. Views: reshape, view, transpose, permute"
  std::vector<int64_t> result = shape.vec();
  int64_t known_product = 1;
  int64_t infer_dim = -1;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (shape[d] == -1) {
      TT_CHECK(infer_dim == -1, "only one dimension can be inferred");
      infer_dim = d;
    } else {
      TT_CHECK(shape[d] >= 0, "invalid shape dimension ", shape[d]);
      known_product *= shape[d];
    }
  }
  const bool fits = numel == known_product || (infer_dim >= 0 && known_product > 0 && numel % known_product == 0);
  TT_CHECK(fits, "shape '", shape, "' is invalid for input of size ", numel);
  if (infer_dim >= 0) {
    TT_CHECK(known_product != 0, "cannot reshape tensor of 0 elements into shape ", shape,
             " because the unspecified dimension size -1 can be any value and is ambiguous");
    result[infer_dim] = numel / known_product;
  }
  return result;
  // END SOLUTION
}

namespace native {

// TODO: transpose(self, dim0, dim1) -> the view of self with dims dim0 and dim1 swapped (lesson
//   section 5): same storage, no data moves. Negative dims count from the end.
//   Errors: a dim out of range -> LibTorch's "Dimension out of range (expected to be in range of
//   [-2, 1], but got 2)"; maybe_wrap_dim(dim, self.dim()) wraps a dim and throws it for you.
//   Example: sizes {2, 3}, strides {3, 1} -> sizes {3, 2}, strides {1, 3}.
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  // BEGIN SOLUTION name="tinytorch::native::transpose" lesson="5. Views: reshape, view, transpose, permute"
  const int64_t d0 = maybe_wrap_dim(dim0, self.dim());
  const int64_t d1 = maybe_wrap_dim(dim1, self.dim());
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  if (self.dim() > 0) {
    std::swap(sizes[d0], sizes[d1]);
    std::swap(strides[d0], strides[d1]);
  }
  return make_view(self, sizes, strides, self.storage_offset());
  // END SOLUTION
}

// TODO: permute(self, dims) -> the view whose dim i is self's dim dims[i] (lesson section 5): same
//   storage and offset, no data moves. Negative dims count from the end.
//   Errors, LibTorch's (odd but exact) messages: a wrong count -> "permute(sparse_coo): number of
//   dimensions in the tensor input does not match the length of the desired ordering of dimensions
//   i.e. input.dim() = 2 is not equal to len(dims) = 3"; a repeated dim -> "permute(): duplicate
//   dims are not allowed."; a dim out of range -> maybe_wrap_dim's error.
//   Example: sizes {2, 3, 4}, strides {12, 4, 1}, dims {2, 0, 1} -> sizes {4, 2, 3}, strides {1, 12, 4}.
Tensor permute(const Tensor& self, IntArrayRef dims) {
  // BEGIN SOLUTION name="tinytorch::native::permute" lesson="5. Views: reshape, view, transpose, permute"
  const int64_t ndim = self.dim();
  TT_CHECK(static_cast<int64_t>(dims.size()) == ndim,
           "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
           "ordering of dimensions i.e. input.dim() = ", ndim, " is not equal to len(dims) = ", dims.size());
  std::vector<int64_t> sizes(ndim), strides(ndim);
  std::vector<bool> used(ndim, false);
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = maybe_wrap_dim(dims[i], ndim);
    TT_CHECK(!used[d], "permute(): duplicate dims are not allowed.");
    used[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return make_view(self, sizes, strides, self.storage_offset());
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
