// x.index({...}) and x.index_put_({...}, v): Python's x[...] as a chain of select/slice/unsqueeze
// views, so indexing records nothing itself (the views it is made of do).
#include "tinytorch/indexing.h"
#include "tinytorch/kernels.h"

namespace tinytorch {

using indexing::TensorIndex;

Tensor Tensor::index(ArrayRef<TensorIndex> indices) const {
  // Integers and slices consume a dim of self; None and Ellipsis do not.
  int64_t consumed = 0;
  int64_t ellipses = 0;
  for (const TensorIndex& index : indices) {
    if (index.kind() == TensorIndex::Kind::Integer || index.kind() == TensorIndex::Kind::Slice) ++consumed;
    if (index.kind() == TensorIndex::Kind::Ellipsis) ++ellipses;
  }
  TT_CHECK(ellipses <= 1, "an index can only have a single ellipsis ('...')");
  TT_CHECK(consumed <= dim(), "too many indices for tensor of dimension ", dim());

  Tensor result = *this;
  int64_t result_dim = 0;  // the dim of `result` the next index applies to
  int64_t self_dim = 0;    // the dim of `self` it came from, for error messages
  for (const TensorIndex& index : indices) {
    switch (index.kind()) {
      case TensorIndex::Kind::Integer: {
        const int64_t size = result.size(result_dim);
        TT_CHECK(index.integer() >= -size && index.integer() < size, "index ", index.integer(),
                 " is out of bounds for dimension ", self_dim, " with size ", size);
        result = result.select(result_dim, index.integer());
        ++self_dim;
        break;
      }
      case TensorIndex::Kind::Slice: {
        const indexing::Slice& s = index.slice();
        TT_CHECK(s.step() != 0, "slice step cannot be zero");
        result = result.slice(result_dim, s.start(), s.stop(), s.step());
        ++result_dim;
        ++self_dim;
        break;
      }
      case TensorIndex::Kind::None:
        result = result.unsqueeze(result_dim);
        ++result_dim;
        break;
      case TensorIndex::Kind::Ellipsis:
        result_dim += dim() - consumed;
        self_dim += dim() - consumed;
        break;
    }
  }
  // An empty index list or only None/Ellipsis still gives a new tensor object, as in LibTorch.
  return result.is_same(*this) ? native::make_view(*this, sizes().vec(), strides().vec(), storage_offset()) : result;
}

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(ArrayRef<TensorIndex>(indices.begin(), indices.size()));
}

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Tensor& value) {
  index(indices).copy_(value);
  return *this;
}

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Scalar& value) {
  index(indices).fill_(value);
  return *this;
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Scalar& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

}  // namespace tinytorch
