// x.index({...}) and x.index_put_({...}, v): Python's x[...] as a chain of select/slice/unsqueeze
// views, then for a tensor index (a kBool mask or Long positions) index_select (masks.cpp), so
// indexing records nothing itself (the ops it is made of do).
#include <type_traits>
#include <vector>

#include "tinytorch/functions.h"
#include "tinytorch/indexing.h"
#include "tinytorch/kernels.h"

namespace tinytorch {

using indexing::TensorIndex;

namespace {

// How many dims of self an index uses up: one for an integer, a slice or a Long tensor, all of a
// mask's dims for a mask, none for None and Ellipsis.
int64_t dims_consumed(const TensorIndex& index) {
  switch (index.kind()) {
    case TensorIndex::Kind::Integer:
    case TensorIndex::Kind::Slice:
      return 1;
    case TensorIndex::Kind::Tensor:
      return index.tensor().scalar_type() == kBool ? index.tensor().dim() : 1;
    default:
      return 0;
  }
}

// The basic (view) part of an index list: integers, slices, None and Ellipsis applied as views. A
// tensor index is passed over as full slices; where it lands in the result is kept in `tensor_dim`.
struct BasicIndexing {
  Tensor view;
  const TensorIndex* tensor_index = nullptr;
  int64_t tensor_dim = 0;
};

BasicIndexing apply_basic_indices(const Tensor& self, ArrayRef<TensorIndex> indices) {
  int64_t consumed = 0;
  int64_t ellipses = 0;
  int64_t tensors = 0;
  for (const TensorIndex& index : indices) {
    consumed += dims_consumed(index);
    if (index.kind() == TensorIndex::Kind::Ellipsis) ++ellipses;
    if (index.kind() == TensorIndex::Kind::Tensor) ++tensors;
  }
  TT_CHECK(ellipses <= 1, "an index can only have a single ellipsis ('...')");
  TT_CHECK(consumed <= self.dim(), "too many indices for tensor of dimension ", self.dim());
  TT_CHECK(tensors <= 1, "TinyTorch indexes with at most one tensor (mask or positions) per index list; index in ",
           "two steps instead, e.g. x.index({mask}).index({Slice(), rows})");

  BasicIndexing basic;
  Tensor result = self;
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
        result_dim += self.dim() - consumed;
        self_dim += self.dim() - consumed;
        break;
      case TensorIndex::Kind::Tensor: {
        const Tensor& tensor = index.tensor();
        TT_CHECK(tensor.scalar_type() == kBool || tensor.scalar_type() == kLong,
                 "tensors used as indices must be long or bool tensors, not ", toString(tensor.scalar_type()));
        if (tensor.scalar_type() == kBool) {
          for (int64_t k = 0; k < tensor.dim(); ++k) {
            TT_CHECK(tensor.size(k) == result.size(result_dim + k), "The shape of the mask ", tensor.sizes(),
                     " at index ", k, " does not match the shape of the indexed tensor ", self.sizes(), " at index ",
                     self_dim + k);
          }
        }
        basic.tensor_index = &index;
        basic.tensor_dim = result_dim;
        result_dim += dims_consumed(index);
        self_dim += dims_consumed(index);
        break;
      }
    }
  }
  basic.view = std::move(result);
  return basic;
}

// The positions a tensor index picks in the dims it covers: (n, k) coordinates for a k-dim mask,
// (n, 1) for a Long tensor (checked against `size`, the dim it indexes).
Tensor picked_coordinates(const Tensor& index, int64_t size, int64_t self_dim) {
  if (index.scalar_type() == kBool) return nonzero(index);
  // A copy: negative positions count from the end, and are wrapped here (index_select refuses them).
  const Tensor positions = index.reshape({-1, 1}).contiguous().clone();
  int64_t* at = positions.data_ptr<int64_t>();
  for (int64_t i = 0; i < positions.size(0); ++i) {
    TT_CHECK(at[i] >= -size && at[i] < size, "index ", at[i], " is out of bounds for dimension ", self_dim,
             " with size ", size);
    if (at[i] < 0) at[i] += size;
  }
  return positions;
}

}  // namespace

// Basic indices make a view; a tensor index then gathers (index_select), so the result is a copy,
// as in LibTorch: x.index({mask}) of a (2, 3) x and a (2, 3) mask is the 1-D tensor of x's
// selected elements; x.index({Slice(), cols}) picks columns.
Tensor Tensor::index(ArrayRef<TensorIndex> indices) const {
  BasicIndexing basic = apply_basic_indices(*this, indices);
  Tensor& result = basic.view;
  if (basic.tensor_index != nullptr) {
    const Tensor& index = basic.tensor_index->tensor();
    const int64_t d = basic.tensor_dim;
    if (index.scalar_type() == kBool) {
      if (index.dim() == 0) {  // a 0-dim mask adds a dim of size 1 (true) or 0 (false)
        return result.unsqueeze(d).index_select(d, index.item<bool>() ? zeros({1}, kLong) : zeros({0}, kLong));
      }
      const Tensor flat = result.flatten(d, d + index.dim() - 1);
      return flat.index_select(d, index.reshape({-1}).nonzero().reshape({-1}));
    }
    const Tensor positions = picked_coordinates(index, result.size(d), d).reshape({-1});
    std::vector<int64_t> out_sizes(result.sizes().begin(), result.sizes().begin() + d);
    out_sizes.insert(out_sizes.end(), index.sizes().begin(), index.sizes().end());
    out_sizes.insert(out_sizes.end(), result.sizes().begin() + d + 1, result.sizes().end());
    return result.index_select(d, positions).reshape(out_sizes);
  }
  // An empty index list or only None/Ellipsis still gives a new tensor object, as in LibTorch.
  return result.is_same(*this) ? native::make_view(*this, sizes().vec(), strides().vec(), storage_offset()) : result;
}

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(ArrayRef<TensorIndex>(indices.begin(), indices.size()));
}

namespace {

// Writes value (a Tensor broadcast to the selected elements, or a Scalar) into every element a
// tensor index selects in basic.view, one selected position at a time.
template <typename Value>
void put_at_tensor_index(const BasicIndexing& basic, const Value& value) {
  const Tensor& index = basic.tensor_index->tensor();
  const int64_t d = basic.tensor_dim;
  const Tensor coordinates = picked_coordinates(index, basic.view.size(d), d).contiguous();
  const int64_t picked = coordinates.size(0);
  const int64_t covered = coordinates.size(1);
  const int64_t* at = coordinates.data_ptr<int64_t>();
  Tensor values;
  if constexpr (std::is_same<Value, Tensor>::value) {
    // The selected elements form (dims before d, n, dims after the covered ones).
    std::vector<int64_t> selected(basic.view.sizes().begin(), basic.view.sizes().begin() + d);
    selected.push_back(picked);
    selected.insert(selected.end(), basic.view.sizes().begin() + d + covered, basic.view.sizes().end());
    bool broadcasts = value.dim() <= static_cast<int64_t>(selected.size());
    for (int64_t k = 1; broadcasts && k <= value.dim(); ++k) {
      const int64_t size = value.size(-k);
      broadcasts = size == 1 || size == selected[selected.size() - static_cast<size_t>(k)];
    }
    TT_CHECK(broadcasts, "shape mismatch: value tensor of shape ", value.sizes(),
             " cannot be broadcast to indexing result of shape ", IntArrayRef(selected));
    values = value.expand(selected);
  }
  for (int64_t i = 0; i < picked; ++i) {
    Tensor target = basic.view;
    for (int64_t k = 0; k < covered; ++k) target = target.select(d, at[i * covered + k]);
    if constexpr (std::is_same<Value, Tensor>::value) {
      target.copy_(values.select(d, i));
    } else {
      target.fill_(value);
    }
  }
}

}  // namespace

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Tensor& value) {
  BasicIndexing basic = apply_basic_indices(*this, indices);
  if (basic.tensor_index == nullptr) {
    basic.view.copy_(value);
  } else {
    put_at_tensor_index(basic, value);
  }
  return *this;
}

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Scalar& value) {
  BasicIndexing basic = apply_basic_indices(*this, indices);
  const Tensor* mask = basic.tensor_index != nullptr ? &basic.tensor_index->tensor() : nullptr;
  if (basic.tensor_index == nullptr) {
    basic.view.fill_(value);
  } else if (mask->scalar_type() == kBool && mask->dim() > 0) {
    // One masked_fill_ instead of a fill per element: the mask, padded with 1s, broadcasts to the view.
    std::vector<int64_t> padded(static_cast<size_t>(basic.tensor_dim), 1);
    padded.insert(padded.end(), mask->sizes().begin(), mask->sizes().end());
    padded.resize(static_cast<size_t>(basic.view.dim()), 1);
    basic.view.masked_fill_(mask->reshape(padded), value);
  } else {
    put_at_tensor_index(basic, value);
  }
  return *this;
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Scalar& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

}  // namespace tinytorch
