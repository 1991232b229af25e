#pragma once
// Reading and writing a tensor at flat row-major positions (given code): the two kernels under
// take / put (shape_layout.cpp) and under advanced indexing, index / index_put_ (indexing.cpp),
// which turns its index tensors into such positions first. Neither records anything.
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace detail {

// out[i] = self.flatten()[positions[i]], out shaped like positions (Long, already in range).
Tensor take_at_positions(const Tensor& self, const Tensor& positions);

// A new tensor: self with source (numel == positions.numel(), self's dtype) written at positions,
// or added there when accumulate. Where a position repeats without accumulate, the last write wins.
Tensor put_at_positions(const Tensor& self, const Tensor& positions, const Tensor& source, bool accumulate);

// positions (Long) with negatives wrapped, each checked against numel elements; `op` names the
// op in LibTorch's message "out of range: tried to access index 6 on a tensor of 6 elements.".
Tensor wrapped_flat_positions(const Tensor& positions, int64_t numel);

// arange(numel).view(sizes): every element's own flat position, for computing where a view or
// an index lands in its base.
Tensor flat_positions(IntArrayRef sizes);

}  // namespace detail
}  // namespace tinytorch
