// x.index({...}) and x.index_put_({...}, v): Python's x[...], as LibTorch's TensorIndexing.h does
// it. Integers, slices, None and Ellipsis are applied first as views (select / slice / unsqueeze);
// the tensor indices left over are then "advanced" indexing, one op of its own:
//
//   index(self, indices)        gathers; autograd node IndexBackward0
//   index_put_(self, indices, values, accumulate)   writes (or adds); IndexPutBackward0
//
// where `indices` holds one optional tensor per leading dim of self. Masks (kBool) stand for their
// nonzero() coordinates; the index tensors broadcast together to one shape B. The result has B in
// place of the indexed dims when those dims are adjacent, and B in front otherwise (NumPy's rule):
// for x of shape (2, 3, 4), x[:, [0, 2], [1, 3]] is (2, 2) and x[[0, 1], :, [1, 3]] is (2, 3).
//
// Both ops turn the indices into the flat row-major positions of self they reach (a Long tensor
// shaped like the result), so that reading is take() and writing put() of positions.h, and each
// backward is the other: index's gradient is put with accumulation, index_put's is take.
#include <algorithm>
#include <string>
#include <vector>

#include "internal.h"
#include "positions.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/indexing.h"
#include "tinytorch/kernels.h"
#include "tinytorch/shape_layout.h"

namespace tinytorch {

using indexing::TensorIndex;

namespace {

// ---------------------------------------------------------------------------------------------
// Advanced indexing: one optional tensor per leading dim -> flat positions.
// ---------------------------------------------------------------------------------------------

// One index tensor per dim of self (undefined: the whole dim), masks replaced by their coordinates,
// Long, in range (negative positions wrapped).
std::vector<Tensor> expanded_indices(IntArrayRef self_sizes, const std::vector<Tensor>& indices) {
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  std::vector<Tensor> per_dim;
  for (const Tensor& index : indices) {
    if (!index.defined()) {
      per_dim.push_back(Tensor());
      continue;
    }
    const ScalarType dtype = index.scalar_type();
    TT_CHECK(dtype == kLong || dtype == kBool || dtype == kByte,
             "tensors used as indices must be long, byte or bool tensors");
    if (dtype == kLong) {
      per_dim.push_back(index);
      continue;
    }
    // A mask covers as many dims as it has; its true elements' coordinates index them.
    const int64_t first = static_cast<int64_t>(per_dim.size());
    TT_CHECK(first + index.dim() <= ndim, "too many indices for tensor of dimension ", ndim, " (got ",
             first + index.dim(), ")");
    for (int64_t k = 0; k < index.dim(); ++k) {
      TT_CHECK(index.size(k) == self_sizes[first + k], "The shape of the mask ", index.sizes(), " at index ", k,
               " does not match the shape of the indexed tensor ", self_sizes, " at index ", first + k);
    }
    const Tensor coordinates = nonzero(dtype == kBool ? index : index.ne(0));
    for (int64_t k = 0; k < index.dim(); ++k) per_dim.push_back(coordinates.select(1, k));
  }
  TT_CHECK(static_cast<int64_t>(per_dim.size()) <= ndim, "too many indices for tensor of dimension ", ndim, " (got ",
           per_dim.size(), ")");
  per_dim.resize(static_cast<size_t>(ndim));
  int64_t ordinal = -1;  // LibTorch's message counts the index tensors, not the dims
  for (int64_t d = 0; d < ndim; ++d) {
    Tensor& index = per_dim[d];
    if (!index.defined()) continue;
    ++ordinal;
    const int64_t size = self_sizes[d];
    index = index.contiguous().clone();
    int64_t* at = index.data_ptr<int64_t>();
    for (int64_t i = 0; i < index.numel(); ++i) {
      TT_CHECK(at[i] >= -size && at[i] < size, "index ", at[i], " is out of bounds for dimension ", ordinal,
               " with size ", size);
      if (at[i] < 0) at[i] += size;
    }
  }
  return per_dim;
}

// The flat positions of self (of `self_sizes`) that self.index(indices) reads, shaped like the result.
Tensor advanced_positions(IntArrayRef self_sizes, const std::vector<Tensor>& indices) {
  NoGradGuard integers;
  const std::vector<Tensor> per_dim = expanded_indices(self_sizes, indices);
  const int64_t ndim = static_cast<int64_t>(self_sizes.size());
  const std::vector<int64_t> element_strides = contiguous_strides(self_sizes);

  // The index tensors broadcast to one shape.
  std::vector<int64_t> broadcast;
  int64_t first = -1, last = -1;
  bool first_index = true;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!per_dim[d].defined()) continue;
    if (first == -1) first = d;
    last = d;
    if (first_index) {
      broadcast = per_dim[d].sizes().vec();
      first_index = false;
      continue;
    }
    try {
      broadcast = infer_size(broadcast, per_dim[d].sizes());
    } catch (const Error&) {
      std::string shapes;
      for (const Tensor& index : per_dim) {
        if (!index.defined()) continue;
        shapes += (shapes.empty() ? "" : ", ") + detail::str(index.sizes());
      }
      throw Error("shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
    }
  }
  bool adjacent = true;
  for (int64_t d = std::max<int64_t>(first, 0); d <= last; ++d) adjacent = adjacent && per_dim[d].defined();

  // The result's dims: the broadcast shape at `placed`, the dims indexed by nothing around it.
  const int64_t placed = adjacent && first >= 0 ? first : 0;
  const int64_t rank_b = static_cast<int64_t>(broadcast.size());
  std::vector<int64_t> result_sizes;
  std::vector<int64_t> whole_dims;  // self's dims indexed by nothing, in result order
  for (int64_t d = 0; d < ndim; ++d) {
    if (!per_dim[d].defined()) whole_dims.push_back(d);
  }
  const int64_t result_rank = rank_b + static_cast<int64_t>(whole_dims.size());
  std::vector<int64_t> result_dim_of_whole;
  for (size_t k = 0; k < whole_dims.size(); ++k) {
    const int64_t position = static_cast<int64_t>(result_dim_of_whole.size());
    result_dim_of_whole.push_back(position < placed ? position : position + rank_b);
  }
  result_sizes.assign(static_cast<size_t>(result_rank), 0);
  for (int64_t i = 0; i < rank_b; ++i) result_sizes[placed + i] = broadcast[i];
  for (size_t k = 0; k < whole_dims.size(); ++k) result_sizes[result_dim_of_whole[k]] = self_sizes[whole_dims[k]];

  // position = sum over dims of (coordinate along the dim) * (the dim's row-major stride).
  auto placed_at = [&](const Tensor& t, int64_t at_dim, int64_t rank) {
    std::vector<int64_t> shape(static_cast<size_t>(result_rank), 1);
    for (int64_t i = 0; i < rank; ++i) shape[at_dim + i] = t.size(i);
    return t.reshape(shape);
  };
  Tensor positions = zeros(std::vector<int64_t>(static_cast<size_t>(result_rank), 1), kLong);
  for (int64_t d = std::max<int64_t>(first, 0); d <= last; ++d) {
    if (!per_dim[d].defined()) continue;
    positions = positions + placed_at(per_dim[d].expand(broadcast) * element_strides[d], placed, rank_b);
  }
  for (size_t k = 0; k < whole_dims.size(); ++k) {
    const int64_t d = whole_dims[k];
    positions = positions + placed_at(arange(self_sizes[d], kLong) * element_strides[d], result_dim_of_whole[k], 1);
  }
  return positions.expand(result_sizes).contiguous();
}

OpHandle index_op("index");
OpHandle index_put_op("index_put");

// out = self at positions: each read element sends its gradient back, added where read twice.
const RegisterDerivative index_derivative("index", {
    "IndexBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.needs_input_grad(0)) return {Tensor(), Tensor()};
      return {zeros(ctx.saved_sizes(0), ctx.grad().options()).put(ctx.saved(0), ctx.grad(), true), Tensor()};
    }});

// self with values written at positions: the overwritten elements of self get no gradient (added
// into, they keep theirs); values get the gradient of where they went (summed to their shape).
const RegisterDerivative index_put_derivative("index_put", {
    "IndexPutBackward0",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& positions = ctx.saved(0);
      const Tensor& grad = ctx.grad();
      Tensor grad_self, grad_values;
      if (ctx.needs_input_grad(0)) {
        grad_self = ctx.attributes.keepdim ? grad : grad.put(positions, zeros(positions.sizes(), grad.options()));
      }
      if (ctx.needs_input_grad(2)) grad_values = grad.take(positions);
      return {grad_self, Tensor(), grad_values};
    }});

Tensor index_at(const Tensor& self, const std::vector<Tensor>& indices) {
  const Tensor positions = advanced_positions(self.sizes(), indices);
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = detail::take_at_positions(self, positions);
  }
  record_op(index_op, {self, positions}, {result});
  return result;
}

// values without its leading dims of size 1 (NumPy's rule for assignment: x[idx] = v[None]).
Tensor without_leading_ones(const Tensor& values) {
  int64_t first = 0;
  while (first < values.dim() && values.size(first) == 1) ++first;
  if (first == 0) return values;
  return values.view(IntArrayRef(values.sizes().data() + first, static_cast<size_t>(values.dim() - first)));
}

// Writes values (broadcast to the positions' shape) into self at positions, as one in-place op.
Tensor& index_put_at(const Tensor& self, const Tensor& positions, const Tensor& given_values, bool accumulate) {
  TT_CHECK(self.scalar_type() == given_values.scalar_type(), "Index put requires the source and destination dtypes ",
           "match, got ", ::tinytorch::toString(self.scalar_type()), " for the destination and ",
           ::tinytorch::toString(given_values.scalar_type()), " for the source.");
  const Tensor values = given_values.dim() > positions.dim() ? without_leading_ones(given_values) : given_values;
  bool broadcasts = values.dim() <= positions.dim();
  for (int64_t k = 1; broadcasts && k <= values.dim(); ++k) {
    broadcasts = values.size(-k) == 1 || values.size(-k) == positions.size(-k);
  }
  TT_CHECK(broadcasts, "shape mismatch: value tensor of shape ", given_values.sizes(),
           " cannot be broadcast to indexing result of shape ", positions.sizes());
  OpAttributes attributes;
  attributes.keepdim = accumulate;  // the flag travels in this attribute slot
  check_in_place(index_put_op, {self, positions, values});
  detail::check_no_internal_overlap(self);
  {
    NoGradGuard kernel_only;
    detail::copy_into(self, detail::put_at_positions(self, positions,
                                                     detail::broadcast_view(values, positions.sizes()), accumulate));
  }
  record_in_place_op(index_put_op, {self, positions, values}, attributes);
  return const_cast<Tensor&>(self);
}

std::vector<Tensor> defined_or_whole(const std::vector<std::optional<Tensor>>& indices) {
  std::vector<Tensor> result;
  for (const std::optional<Tensor>& index : indices) result.push_back(index.has_value() ? *index : Tensor());
  return result;
}

// ---------------------------------------------------------------------------------------------
// Basic indexing (LibTorch's applySlicing): views, and the tensor indices left for advanced indexing.
// ---------------------------------------------------------------------------------------------

struct Sliced {
  Tensor view;
  std::vector<Tensor> tensor_indices;  // one per leading dim of view; undefined: not indexed
};

// The dims of self an index list names: a mask counts its dims, None and Ellipsis none.
int64_t count_specified_dimensions(ArrayRef<TensorIndex> indices) {
  int64_t count = 0;
  for (const TensorIndex& index : indices) {
    if (index.kind() == TensorIndex::Kind::Tensor) {
      const ScalarType dtype = index.tensor().scalar_type();
      count += dtype == kBool || dtype == kByte ? index.tensor().dim() : 1;
    } else if (index.kind() == TensorIndex::Kind::Integer || index.kind() == TensorIndex::Kind::Slice) {
      ++count;
    }
  }
  return count;
}

Tensor select_checked(const Tensor& self, int64_t dim, int64_t index, int64_t real_dim) {
  TT_CHECK(!(index == 0 && dim == 0 && self.dim() == 0), "invalid index of a 0-dim tensor. Use `tensor.item()` in ",
           "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  const int64_t size = self.size(dim);
  TT_CHECK(index >= -size && index < size, "index ", index, " is out of bounds for dimension ", real_dim,
           " with size ", size);
  return self.select(dim, index);
}

// `disable_slice_optimization`: a full slice still records a slice (x.index({Slice()}) alone).
Tensor slice_of(const Tensor& self, int64_t dim, const indexing::Slice& s, bool disable_slice_optimization) {
  TT_CHECK(s.step() != 0, "slice step cannot be zero");
  // LibTorch skips only a slice spelled out in full (Slice(0, size)); Slice() has stop "infinity".
  const int64_t length = self.size(dim);
  if (!disable_slice_optimization && s.start().value_or(0) == 0 && s.stop().has_value() && *s.stop() == length &&
      s.step() == 1) {
    return self;
  }
  return self.slice(dim, s.start(), s.stop(), s.step());
}

void record_tensor_index(const Tensor& tensor, std::vector<Tensor>& out, int64_t& dim) {
  out.resize(static_cast<size_t>(dim + 1));
  out[static_cast<size_t>(dim)] = tensor;
  ++dim;
}

// A true/false index: a new dim of size 1, indexed by [0] (kept) or [] (dropped).
Tensor bool_index(bool value) { return value ? zeros({1}, kLong) : empty({0}, kLong); }

Sliced apply_slicing(const Tensor& self, ArrayRef<TensorIndex> indices) {
  const int64_t specified = count_specified_dimensions(indices);
  TT_CHECK(specified <= self.dim(), "too many indices for tensor of dimension ", self.dim());
  Sliced sliced{self, {}};
  Tensor& result = sliced.view;
  int64_t dim = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    const TensorIndex& index = indices[i];
    const int64_t real_dim = static_cast<int64_t>(i);
    switch (index.kind()) {
      case TensorIndex::Kind::Integer:
        result = select_checked(result, dim, index.integer(), real_dim);
        break;
      case TensorIndex::Kind::Slice:
        result = slice_of(result, dim, index.slice(), false);
        ++dim;
        break;
      case TensorIndex::Kind::Ellipsis:
        dim += self.dim() - specified;
        break;
      case TensorIndex::Kind::None:
        result = result.unsqueeze(dim);
        ++dim;
        break;
      case TensorIndex::Kind::Tensor: {
        const Tensor& tensor = index.tensor();
        const ScalarType dtype = tensor.scalar_type();
        if (tensor.dim() == 0 && (isIntegralType(dtype, /*includeBool=*/true))) {
          if (dtype != kBool && dtype != kByte) {
            result = select_checked(result, dim, tensor.item<int64_t>(), real_dim);
          } else {
            result = result.unsqueeze(dim);
            record_tensor_index(bool_index(tensor.item<bool>()), sliced.tensor_indices, dim);
          }
        } else {
          record_tensor_index(tensor, sliced.tensor_indices, dim);
        }
        break;
      }
    }
  }
  return sliced;
}

// An alias: a new tensor object over the same elements (LibTorch returns one for x[...]).
Tensor alias_of(const Tensor& self) {
  return native::make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset());
}

// The flat positions of self that an index list with tensor indices writes: the same indexing
// applied to every element's own position.
Tensor written_positions(const Tensor& self, ArrayRef<TensorIndex> indices) {
  NoGradGuard integers;
  const Sliced sliced = apply_slicing(detail::flat_positions(self.sizes()), indices);
  return detail::take_at_positions(sliced.view,
                                   advanced_positions(sliced.view.sizes(), sliced.tensor_indices));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The Tensor methods.
// ---------------------------------------------------------------------------------------------

Tensor Tensor::index(ArrayRef<TensorIndex> indices) const {
  if (indices.size() == 1) {  // LibTorch's shortcuts for a single basic index
    const TensorIndex& index = indices[0];
    switch (index.kind()) {
      case TensorIndex::Kind::Integer: return select_checked(*this, 0, index.integer(), 0);
      case TensorIndex::Kind::Slice: return slice_of(*this, 0, index.slice(), true);
      case TensorIndex::Kind::None: return unsqueeze(0);
      case TensorIndex::Kind::Ellipsis: return alias_of(*this);
      default: break;
    }
  }
  Sliced sliced = apply_slicing(*this, indices);
  if (sliced.tensor_indices.empty()) return sliced.view.is_same(*this) ? alias_of(*this) : sliced.view;
  return index_at(sliced.view, sliced.tensor_indices);
}

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(ArrayRef<TensorIndex>(indices.begin(), indices.size()));
}

Tensor Tensor::index(const std::vector<std::optional<Tensor>>& indices) const {
  return index_at(*this, defined_or_whole(indices));
}

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Tensor& value) {
  // Basic indices only: write through the view (LibTorch's copy_to).
  bool has_tensor = false;
  for (const TensorIndex& index : indices) {
    has_tensor = has_tensor || (index.kind() == TensorIndex::Kind::Tensor &&
                                !(index.tensor().dim() == 0 && index.tensor().scalar_type() != kBool &&
                                  index.tensor().scalar_type() != kByte));
  }
  if (!has_tensor) {
    Sliced sliced = apply_slicing(*this, indices);
    sliced.view.copy_(value.dim() > sliced.view.dim() ? without_leading_ones(value) : value);
    return *this;
  }
  const Tensor positions = written_positions(*this, indices);
  return index_put_at(*this, positions, without_leading_ones(value), false);
}

Tensor& Tensor::index_put_(ArrayRef<TensorIndex> indices, const Scalar& value) {
  return index_put_(indices, scalar_tensor(value, scalar_type()));
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Scalar& value) {
  return index_put_(ArrayRef<TensorIndex>(indices.begin(), indices.size()), value);
}

Tensor& Tensor::index_put_(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                           bool accumulate) const {
  const Tensor positions = advanced_positions(sizes(), defined_or_whole(indices));
  return index_put_at(*this, positions, values, accumulate);
}

Tensor Tensor::index_put(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                         bool accumulate) const {
  return clone().index_put_(indices, values, accumulate);
}

}  // namespace tinytorch
