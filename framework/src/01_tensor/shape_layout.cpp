// Shape and layout ops (given code), LibTorch 1.13's spellings: flips and rolls, moving dims,
// in-place metadata changes, triangles and diagonals, repeating and splitting, stacking, reading
// and writing at positions (take / put / index_fill / index_copy / masked_scatter / *_scatter),
// as_strided and resize_, padding and memory formats.
//
// How they differentiate. Views (movedim, swapaxes, unfold, as_strided, diagonal) record
// themselves with a view derivative. Ops that copy compute their result with other ops under a
// NoGradGuard and record ONE op, so autograd shows LibTorch's node (FlipBackward0, TrilBackward0,
// ...), whose rule is written with differentiable ops: double backward works. Ops LibTorch itself
// composes (tile, hstack, meshgrid, tensor_split, take_along_dim, ...) are composed here too.
#include <algorithm>
#include <cstring>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "internal.h"
#include "positions.h"
#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/shape_layout.h"

namespace tinytorch {
namespace {

// `compute` runs with recording off (its ops are this op's kernel), then the result is recorded as
// one op. The result must be a new tensor, never a view of an input.
template <typename Compute>
Tensor recorded(const OpHandle& op, std::initializer_list<Tensor> inputs, const OpAttributes& attributes,
                Compute compute) {
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = compute();
  }
  record_op(op, ArrayRef<Tensor>(inputs.begin(), inputs.size()), ArrayRef<Tensor>(&result, 1), attributes);
  return result;
}

// The in-place form: `compute` gives self's new values, which are written into self.
template <typename Compute>
Tensor& written_in_place(const Tensor& self, const OpHandle& op, std::initializer_list<Tensor> inputs,
                         const OpAttributes& attributes, Compute compute) {
  check_in_place(op, inputs);
  detail::check_no_internal_overlap(self);
  {
    NoGradGuard kernel_only;
    detail::copy_into(self, compute());
  }
  record_in_place_op(op, inputs, attributes);
  return const_cast<Tensor&>(self);
}

std::vector<int64_t> wrap_dims(IntArrayRef dims, int64_t ndim) {
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) wrapped.push_back(maybe_wrap_dim(d, ndim));
  return wrapped;
}

OpAttributes with_dims(IntArrayRef dims) {
  OpAttributes attributes;
  attributes.dims = dims;
  return attributes;
}

// A 1-D Long tensor holding `values`.
Tensor long_tensor(const std::vector<int64_t>& values) {
  Tensor result = empty({static_cast<int64_t>(values.size())}, kLong);
  if (!values.empty()) std::memcpy(result.data_ptr<int64_t>(), values.data(), values.size() * sizeof(int64_t));
  return result;
}

const char* memory_format_name(MemoryFormat memory_format) {
  switch (memory_format) {
    case MemoryFormat::Preserve: return "Preserve";
    case MemoryFormat::Contiguous: return "Contiguous";
    case MemoryFormat::ChannelsLast: return "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return "ChannelsLast3d";
    default: return "Unknown memory format";
  }
}

OpAttributes with_dim(int64_t dim) {
  OpAttributes attributes;
  attributes.dim = dim;
  return attributes;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Positions: the kernels of take and put (positions.h), shared with advanced indexing.
// ---------------------------------------------------------------------------------------------

Tensor detail::flat_positions(IntArrayRef sizes) {
  NoGradGuard integers;
  return arange(product(sizes), kLong).view(sizes);
}

Tensor detail::wrapped_flat_positions(const Tensor& positions, int64_t numel) {
  Tensor wrapped = positions.contiguous().clone();
  int64_t* at = wrapped.data_ptr<int64_t>();
  for (int64_t i = 0; i < wrapped.numel(); ++i) {
    TT_CHECK(at[i] >= -numel && at[i] < numel, "out of range: tried to access index ", at[i], " on a tensor of ",
             numel, " elements.");
    if (at[i] < 0) at[i] += numel;
  }
  return wrapped;
}

Tensor detail::take_at_positions(const Tensor& self, const Tensor& positions) {
  const Tensor source = self.contiguous();
  const Tensor at = positions.contiguous();
  Tensor result = empty(positions.sizes(), self.scalar_type());
  const size_t bytes = static_cast<size_t>(self.element_size());
  const char* in = static_cast<const char*>(source.data_ptr());
  char* out = static_cast<char*>(result.data_ptr());
  const int64_t* picked = at.data_ptr<int64_t>();
  for (int64_t i = 0; i < at.numel(); ++i) std::memcpy(out + i * bytes, in + picked[i] * bytes, bytes);
  return result;
}

Tensor detail::put_at_positions(const Tensor& self, const Tensor& positions, const Tensor& source, bool accumulate) {
  Tensor result = empty(self.sizes(), self.scalar_type());
  detail::copy_into(result, self);
  const Tensor at = positions.contiguous();
  const Tensor values = source.contiguous();
  const int64_t* picked = at.data_ptr<int64_t>();
  if (!accumulate) {
    const size_t bytes = static_cast<size_t>(self.element_size());
    const char* in = static_cast<const char*>(values.data_ptr());
    char* out = static_cast<char*>(result.data_ptr());
    for (int64_t i = 0; i < at.numel(); ++i) std::memcpy(out + picked[i] * bytes, in + i * bytes, bytes);
    return result;
  }
  const ScalarType compute_type = detail::computation_type(self.scalar_type());
  Tensor sums = detail::as_contiguous(result, compute_type).clone();
  const Tensor addends = detail::as_contiguous(values, compute_type);
  TT_DISPATCH_ALL_TYPES(compute_type, "put_", [&] {
    scalar_t* out = sums.data_ptr<scalar_t>();
    const scalar_t* in = addends.data_ptr<scalar_t>();
    for (int64_t i = 0; i < at.numel(); ++i) out[picked[i]] = static_cast<scalar_t>(out[picked[i]] + in[i]);
  });
  return detail::as_dtype(sums, self.scalar_type());
}

namespace {

Tensor checked_take_positions(const Tensor& index, int64_t numel, const char* op) {
  TT_CHECK(index.scalar_type() == kLong, op, "(): Expected a long tensor for index, but got ",
           ::tinytorch::toString(index.scalar_type()));
  return detail::wrapped_flat_positions(index, numel);
}

void check_put(const Tensor& self, const Tensor& index, const Tensor& source) {
  TT_CHECK(index.scalar_type() == kLong, "put_(): Expected a long tensor for index, but got ",
           ::tinytorch::toString(index.scalar_type()));
  TT_CHECK(self.scalar_type() == source.scalar_type(), "put_(): self and source expected to have the same dtype, ",
           "but got self.dtype = ", ::tinytorch::toString(self.scalar_type()), " and source.dtype = ",
           ::tinytorch::toString(source.scalar_type()));
  TT_CHECK(source.numel() == index.numel(), "put_(): Expected source and index to have the same number of ",
           "elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
}

OpHandle take_op("take");
OpHandle put_op("put");

OpAttributes accumulating(bool accumulate) {
  OpAttributes attributes;
  attributes.keepdim = accumulate;  // the attribute slot a flag travels in
  return attributes;
}

// out = self.flatten()[positions]: each picked element's gradient goes back to its position.
const RegisterDerivative take_derivative("take", {
    "TakeBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.needs_input_grad(0)) return {Tensor(), Tensor()};
      return {zeros(ctx.saved_sizes(0), ctx.grad().options()).put(ctx.saved(0), ctx.grad(), true), Tensor()};
    }});

// out = self with source at positions: self's overwritten elements get no gradient (unless
// accumulated into), source's get the gradient of where they landed.
const RegisterDerivative put_derivative("put", {
    "PutBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& positions = ctx.saved(0);
      Tensor grad_self, grad_source;
      if (ctx.needs_input_grad(0)) {
        grad_self = ctx.attributes.keepdim
                        ? ctx.grad()
                        : ctx.grad().put(positions, zeros(positions.sizes(), ctx.grad().options()), false);
      }
      if (ctx.needs_input_grad(2)) grad_source = ctx.grad().take(positions).reshape(ctx.saved_sizes(0));
      return {grad_self, Tensor(), grad_source};
    }});

}  // namespace

Tensor Tensor::take(const Tensor& index) const {
  const Tensor positions = checked_take_positions(index, numel(), "take");
  return recorded(take_op, {*this, positions}, {}, [&] { return detail::take_at_positions(*this, positions); });
}

Tensor Tensor::put(const Tensor& index, const Tensor& source, bool accumulate) const {
  check_put(*this, index, source);
  const Tensor positions = detail::wrapped_flat_positions(index, numel());
  return recorded(put_op, {*this, positions, source}, accumulating(accumulate),
                  [&] { return detail::put_at_positions(*this, positions, source, accumulate); });
}

Tensor& Tensor::put_(const Tensor& index, const Tensor& source, bool accumulate) const {
  check_put(*this, index, source);
  const Tensor positions = detail::wrapped_flat_positions(index, numel());
  return written_in_place(*this, put_op, {*this, positions, source}, accumulating(accumulate),
                          [&] { return detail::put_at_positions(*this, positions, source, accumulate); });
}

Tensor Tensor::take_along_dim(const Tensor& indices, std::optional<int64_t> dim) const {
  TT_CHECK(indices.scalar_type() == kLong, "torch.take_along_dim(): dtype of indices should be Long but got ",
           ::tinytorch::toString(indices.scalar_type()));
  if (!dim.has_value()) return reshape({-1}).gather(0, indices.reshape({-1}));
  const int64_t d = maybe_wrap_dim(*dim, this->dim());
  TT_CHECK(this->dim() == indices.dim(), "torch.take_along_dim(): input and indices should have the same number of ",
           "dimensions, but got ", this->dim(), " dimensions for input, and ", indices.dim(), " dimensions for indices");
  // Every dim but d broadcasts between self and indices.
  std::vector<int64_t> self_sizes = sizes().vec(), index_sizes = indices.sizes().vec();
  self_sizes[d] = 1;
  index_sizes[d] = 1;
  std::vector<int64_t> shape = infer_size(self_sizes, index_sizes);
  std::vector<int64_t> self_shape = shape, index_shape = shape;
  self_shape[d] = size(d);
  index_shape[d] = indices.size(d);
  return expand(self_shape).gather(d, indices.expand(index_shape));
}

// ---------------------------------------------------------------------------------------------
// Flips, rolls, rotations.
// ---------------------------------------------------------------------------------------------

namespace {

// The flat positions of self's elements in the order `reorder` lays them out: reorder is applied
// to the Long tensor of positions, then take() reads self in that order.
template <typename Reorder>
Tensor reordered(const Tensor& self, Reorder reorder) {
  return detail::take_at_positions(self, reorder(detail::flat_positions(self.sizes())).contiguous());
}

bool has_duplicates(const std::vector<int64_t>& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    for (size_t j = i + 1; j < dims.size(); ++j) {
      if (dims[i] == dims[j]) return true;
    }
  }
  return false;
}

const RegisterDerivative flip_derivative("flip", {
    "FlipBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad().flip(ctx.attributes.dims)}; }});

const RegisterDerivative roll_derivative("roll", {
    "RollBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      std::vector<int64_t> back;
      for (int64_t shift : ctx.attributes.sizes) back.push_back(-shift);
      return {ctx.grad().roll(back, ctx.attributes.dims)};
    }});

const RegisterDerivative rot90_derivative("rot90", {
    "Rot90Backward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad().rot90(-ctx.attributes.index, ctx.attributes.dims)};
    }});

}  // namespace

Tensor Tensor::flip(IntArrayRef dims) const {
  const std::vector<int64_t> flipped = wrap_dims(dims, dim());
  for (size_t i = 0; i < flipped.size(); ++i) {
    for (size_t j = i + 1; j < flipped.size(); ++j) {
      TT_CHECK(flipped[i] != flipped[j], "dim ", flipped[i], " appears multiple times in the list of dims");
    }
  }
  static OpHandle flip_op("flip");
  return recorded(flip_op, {*this}, with_dims(flipped), [&] {
    return reordered(*this, [&](Tensor positions) {
      for (int64_t d : flipped) positions = positions.index_select(d, arange(size(d) - 1, -1, -1, kLong));
      return positions;
    });
  });
}

Tensor Tensor::fliplr() const {
  TT_CHECK(dim() >= 2, "Input must be >= 2-d.");
  return flip({1});
}

Tensor Tensor::flipud() const {
  TT_CHECK(dim() >= 1, "Input must be >= 1-d.");
  return flip({0});
}

Tensor Tensor::roll(IntArrayRef shifts, IntArrayRef dims) const {
  TT_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty()) {
    TT_CHECK(shifts.size() == 1, "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
    return flatten().roll(shifts, {0}).view(sizes());
  }
  TT_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
           ", dims:", dims.size());
  const std::vector<int64_t> rolled = wrap_dims(dims, dim());
  OpAttributes attributes = with_dims(rolled);
  attributes.sizes = shifts;
  static OpHandle roll_op("roll");
  return recorded(roll_op, {*this}, attributes, [&] {
    return reordered(*this, [&](Tensor positions) {
      for (size_t i = 0; i < rolled.size(); ++i) {
        const int64_t size = this->size(rolled[i]);
        if (size == 0) continue;
        // Output position j holds input position (j - shift) mod size.
        std::vector<int64_t> from(static_cast<size_t>(size));
        for (int64_t j = 0; j < size; ++j) from[j] = (((j - shifts[i]) % size) + size) % size;
        positions = positions.index_select(rolled[i], long_tensor(from));
      }
      return positions;
    });
  });
}


// LibTorch composes rot90 of flips and a transpose, and records it as one op (Rot90Backward0).
Tensor Tensor::rot90(int64_t k, IntArrayRef dims) const {
  TT_CHECK(dims.size() == 2, "expected total rotation dims == 2, but got dims = ", dims.size());
  TT_CHECK(dim() >= 2, "expected total dims >= 2, but got total dims = ", dim());
  TT_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != dim(),
           "expected rotation dims to be different, but got dim0 = ", dims[0], " and dim1 = ", dims[1]);
  TT_CHECK(dims[0] < dim() && dims[0] >= -dim(), "Rotation dim0 out of range, dim0 = ", dims[0]);
  TT_CHECK(dims[1] < dim() && dims[1] >= -dim(), "Rotation dim1 out of range, dim1 = ", dims[1]);
  const int64_t turns = ((k % 4) + 4) % 4;
  OpAttributes attributes = with_dims(dims);
  attributes.index = k;
  static OpHandle rot90_op("rot90");
  return recorded(rot90_op, {*this}, attributes, [&] {
    switch (turns) {
      case 1: return flip({dims[1]}).transpose(dims[0], dims[1]).contiguous();
      case 2: return flip(dims);
      case 3: return flip({dims[0]}).transpose(dims[0], dims[1]).contiguous();
      default: return clone();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Moving dims: views made of permute / transpose.
// ---------------------------------------------------------------------------------------------

Tensor Tensor::movedim(IntArrayRef source, IntArrayRef destination) const {
  TT_CHECK(source.size() == destination.size(), "movedim: Invalid source or destination dims: source (", source,
           " dims) should contain the same number of dims as destination (", destination, " dims)");
  const int64_t ndim = dim();
  const std::vector<int64_t> from = wrap_dims(source, ndim), to = wrap_dims(destination, ndim);
  TT_CHECK(!has_duplicates(from), "movedim: repeated dim in `source` (", source, ")");
  TT_CHECK(!has_duplicates(to), "movedim: repeated dim in `destination` (", destination, ")");
  // Output dim to[i] is input dim from[i]; the other output dims take the other input dims in order.
  std::vector<int64_t> order(static_cast<size_t>(ndim), -1);
  std::vector<bool> used(static_cast<size_t>(ndim), false);
  for (size_t i = 0; i < from.size(); ++i) {
    order[to[i]] = from[i];
    used[from[i]] = true;
  }
  int64_t next = 0;
  for (int64_t d = 0; d < ndim; ++d) {
    if (order[d] != -1) continue;
    while (used[next]) ++next;
    order[d] = next++;
  }
  return permute(order);
}

Tensor Tensor::movedim(int64_t source, int64_t destination) const { return movedim(IntArrayRef(source), IntArrayRef(destination)); }
Tensor Tensor::moveaxis(IntArrayRef source, IntArrayRef destination) const { return movedim(source, destination); }
Tensor Tensor::moveaxis(int64_t source, int64_t destination) const { return movedim(source, destination); }
Tensor Tensor::swapaxes(int64_t axis0, int64_t axis1) const { return transpose(axis0, axis1); }
Tensor Tensor::swapdims(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
Tensor& Tensor::swapaxes_(int64_t axis0, int64_t axis1) const { return transpose_(axis0, axis1); }
Tensor& Tensor::swapdims_(int64_t dim0, int64_t dim1) const { return transpose_(dim0, dim1); }

namespace {

// Gives self the geometry of `view` (a view of self): the in-place metadata ops. The TensorImpl
// is replaced in place, so every handle to this tensor sees the new shape; what is not geometry
// (autograd meta, quantizer, wrapped-number flag) is carried over.
void take_geometry(const Tensor& self, const Tensor& view) {
  TensorImpl* impl = self.unsafeGetTensorImpl();
  TensorImpl replacement(impl->storage(), impl->dtype(), view.sizes().vec(), view.strides().vec(),
                         view.storage_offset());
  replacement.set_autograd_meta(impl->autograd_meta());
  replacement.set_quantizer(impl->quantizer());
  replacement.set_wrapped_number(impl->is_wrapped_number());
  *impl = std::move(replacement);
}

// An in-place metadata op: check, reshape self like `view`, record under `op`.
Tensor& restrided_in_place(const Tensor& self, const OpHandle& op, const Tensor& view, const OpAttributes& attributes) {
  // LibTorch treats these as in-place views: a leaf that requires grad is refused with its words.
  TT_CHECK(!(is_recording() && self.requires_grad() && self.is_leaf()),
           "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  check_in_place(op, {self});
  take_geometry(self, view);
  record_in_place_op(op, {self}, attributes);
  return const_cast<Tensor&>(self);
}

// The gradient of an in-place metadata op takes self's old shape back.
tensor_list reshape_to_old_sizes(const BackwardContext& ctx) { return {ctx.grad().reshape(ctx.attributes.sizes)}; }

const RegisterDerivative transpose_in_place_derivative("transpose_", {
    "TransposeBackward1", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad().transpose(ctx.attributes.dim, ctx.attributes.dim1)};
    }});
const RegisterDerivative t_in_place_derivative("t_", {
    "TBackward1", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad().t()}; }});
const RegisterDerivative squeeze_in_place_derivative("squeeze_", {"SqueezeBackward2", nullptr, reshape_to_old_sizes});
const RegisterDerivative squeeze_dim_in_place_derivative("squeeze_.dim", {
    "SqueezeBackward3", nullptr, reshape_to_old_sizes});
const RegisterDerivative unsqueeze_in_place_derivative("unsqueeze_", {
    "UnsqueezeBackward1", nullptr, reshape_to_old_sizes});

// The view computed without recording: it only lends its geometry.
template <typename MakeView>
Tensor unrecorded(MakeView make_view) {
  NoGradGuard geometry_only;
  return make_view();
}

}  // namespace

Tensor& Tensor::transpose_(int64_t dim0, int64_t dim1) const {
  const Tensor view = unrecorded([&] { return transpose(dim0, dim1); });
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim0, dim());
  attributes.dim1 = maybe_wrap_dim(dim1, dim());
  static OpHandle transpose_in_place_op("transpose_");
  return restrided_in_place(*this, transpose_in_place_op, view, attributes);
}

Tensor& Tensor::t_() const {
  TT_CHECK(dim() <= 2, "t_() expects a tensor with <= 2 dimensions, but self is ", dim(), "D");
  const Tensor view = unrecorded([&] { return t(); });
  static OpHandle t_in_place_op("t_");
  return restrided_in_place(*this, t_in_place_op, view, {});
}

Tensor& Tensor::squeeze_() const {
  const std::vector<int64_t> old_sizes = sizes().vec();
  const Tensor view = unrecorded([&] { return squeeze(); });
  OpAttributes attributes;
  attributes.sizes = old_sizes;
  static OpHandle squeeze_in_place_op("squeeze_");
  return restrided_in_place(*this, squeeze_in_place_op, view, attributes);
}

Tensor& Tensor::squeeze_(int64_t dim) const {
  const std::vector<int64_t> old_sizes = sizes().vec();
  const Tensor view = unrecorded([&] { return squeeze(dim); });
  OpAttributes attributes;
  attributes.sizes = old_sizes;
  static OpHandle squeeze_dim_in_place_op("squeeze_.dim");
  return restrided_in_place(*this, squeeze_dim_in_place_op, view, attributes);
}

Tensor& Tensor::unsqueeze_(int64_t dim) const {
  const std::vector<int64_t> old_sizes = sizes().vec();
  const Tensor view = unrecorded([&] { return unsqueeze(dim); });
  OpAttributes attributes;
  attributes.sizes = old_sizes;
  static OpHandle unsqueeze_in_place_op("unsqueeze_");
  return restrided_in_place(*this, unsqueeze_in_place_op, view, attributes);
}

// ---------------------------------------------------------------------------------------------
// unfold, as_strided, broadcast_to, ravel, sum_to_size, resize_.
// ---------------------------------------------------------------------------------------------

Tensor Tensor::unfold(int64_t dimension, int64_t size, int64_t step) const {
  const int64_t d = maybe_wrap_dim(dimension, std::max<int64_t>(dim(), 1));
  const int64_t length = dim() == 0 ? 1 : this->size(d);
  TT_CHECK(size <= length, "maximum size for tensor at dimension ", d, " is ", length, " but size is ", size);
  TT_CHECK(step > 0, "step is ", step, " but must be > 0");
  TT_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  std::vector<int64_t> new_sizes = sizes().vec(), new_strides = strides().vec();
  if (dim() > 0) {
    new_sizes[d] = (length - size) / step + 1;
    new_strides[d] = strides()[d] * step;
  }
  new_sizes.push_back(size);
  new_strides.push_back(dim() == 0 ? 1 : strides()[d]);
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset());
  OpAttributes attributes;
  attributes.dim = d;
  attributes.length = size;
  attributes.step = step;
  static OpHandle unfold_op("unfold");
  record_op(unfold_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// Window i, element j came from position i * step + j along dim: the gradient is added back there.
const RegisterDerivative unfold_derivative("unfold", {
    "UnfoldBackward0",
    [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const Tensor& grad = ctx.grad();
      if (self_sizes.empty()) return {grad.reshape({})};
      const int64_t d = ctx.attributes.dim, size = ctx.attributes.length, step = ctx.attributes.step;
      const int64_t windows = grad.size(d);
      // (..., windows, ..., size) -> (..., windows * size, ...), then index_add at each element's origin.
      const Tensor flat = grad.movedim(-1, d + 1).flatten(d, d + 1);
      const Tensor origin =
          (arange(windows, kLong).unsqueeze(1) * step + arange(size, kLong).unsqueeze(0)).reshape({-1});
      return {zeros(self_sizes, grad.options()).index_add(d, origin, flat)};
    },
    true});
}  // namespace

Tensor Tensor::as_strided(IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset) const {
  TT_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (int64_t s : stride) TT_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  const int64_t offset = storage_offset.value_or(this->storage_offset());
  TT_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  int64_t last = offset;  // the furthest element the view reaches
  bool empty_view = false;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] == 0) empty_view = true;
    last += (size[i] - 1) * stride[i];
  }
  const int64_t available = static_cast<int64_t>(storage().nbytes()) / element_size();
  TT_CHECK(empty_view || last < available, "setStorage: sizes ", size, ", strides ", stride, ", storage offset ",
           offset, ", and itemsize ", element_size(), " requiring a storage size of ", (last + 1) * element_size(),
           " are out of bounds for storage of size ", available * element_size());
  Tensor result = native::make_view(*this, size.vec(), stride.vec(), offset);
  // For the gradient: which element of self each element of the view reads (by storage address).
  Tensor positions;
  if (is_recording() && requires_grad()) {
    NoGradGuard integers;
    const Tensor addresses_of_self =
        native::make_view(detail::flat_positions({available}), sizes().vec(), strides().vec(), this->storage_offset());
    std::vector<int64_t> self_position_at(static_cast<size_t>(available), -1);
    const Tensor self_addresses = addresses_of_self.contiguous();
    for (int64_t i = 0; i < numel(); ++i) self_position_at[self_addresses.data_ptr<int64_t>()[i]] = i;
    const Tensor view_addresses = native::make_view(detail::flat_positions({available}), size.vec(), stride.vec(),
                                                    offset).contiguous();
    positions = empty(size, kLong);
    for (int64_t i = 0; i < positions.numel(); ++i) {
      const int64_t at = self_position_at[view_addresses.data_ptr<int64_t>()[i]];
      TT_CHECK(at >= 0, "as_strided: the gradient of a view that reads memory outside its input is not supported");
      positions.data_ptr<int64_t>()[i] = at;
    }
  }
  static OpHandle as_strided_op("as_strided");
  if (positions.defined()) {
    record_op(as_strided_op, {*this, positions}, {result});
  } else {
    record_op(as_strided_op, {*this}, {result});  // nothing to differentiate: only observers see it
  }
  return result;
}

namespace {
// Every element of the view sends its gradient to the element of self it reads.
const RegisterDerivative as_strided_derivative("as_strided", {
    "AsStridedBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      return {zeros(ctx.saved_sizes(0), ctx.grad().options()).put(ctx.saved(0), ctx.grad(), true), Tensor()};
    },
    true});
}  // namespace

Tensor Tensor::broadcast_to(IntArrayRef size) const { return expand(size); }

Tensor Tensor::ravel() const { return contiguous().view({-1}); }

Tensor Tensor::sum_to_size(IntArrayRef size) const {
  const int64_t leading = dim() - static_cast<int64_t>(size.size());
  bool expandable = leading >= 0;
  for (size_t i = 0; expandable && i < size.size(); ++i) {
    const int64_t have = sizes()[leading + static_cast<int64_t>(i)];
    expandable = size[i] == have || size[i] == 1;
  }
  TT_CHECK(expandable, "size {", size, "} is not expandable to size {", sizes(), "}.");
  std::vector<int64_t> summed;
  for (int64_t d = 0; d < dim(); ++d) {
    if (d < leading || (size[d - leading] == 1 && sizes()[d] != 1)) summed.push_back(d);
  }
  Tensor result = summed.empty() ? *this : sum(summed, /*keepdim=*/true);
  return leading > 0 ? result.view(size) : result;
}

// A tensor that outgrows its storage gets a new, larger one with the old bytes at the front; the
// new elements are uninitialised, as in LibTorch.
const Tensor& Tensor::resize_(IntArrayRef size, std::optional<MemoryFormat> memory_format) const {
  TT_CHECK(!memory_format.has_value() || *memory_format == MemoryFormat::Contiguous ||
               *memory_format == MemoryFormat::Preserve,
           "resize_: TinyTorch lays every tensor out row-major, so memory_format ", memory_format_name(*memory_format),
           " is not supported (use MemoryFormat::Contiguous)");
  for (int64_t s : size) TT_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", size);
  TT_CHECK(!requires_grad(), "cannot resize variables that require grad");
  const int64_t needed = (storage_offset() + product(size)) * element_size();
  Storage storage = this->storage();
  if (needed > static_cast<int64_t>(storage.nbytes())) {
    Storage larger(StorageImpl::allocate(static_cast<size_t>(needed)));
    if (storage.nbytes() > 0) std::memcpy(larger.data(), storage.data(), storage.nbytes());
    storage = larger;
  }
  TensorImpl* impl = unsafeGetTensorImpl();
  TensorImpl replacement(storage, impl->dtype(), size.vec(), contiguous_strides(size), storage_offset());
  replacement.set_autograd_meta(impl->autograd_meta());
  replacement.set_quantizer(impl->quantizer());
  *impl = std::move(replacement);
  return *this;
}

std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  std::vector<int64_t> shape;
  for (const Tensor& t : tensors) shape = infer_size(shape, t.sizes());
  std::vector<Tensor> result;
  for (const Tensor& t : tensors) result.push_back(t.expand(shape));
  return result;
}

// ---------------------------------------------------------------------------------------------
// Triangles and diagonals.
// ---------------------------------------------------------------------------------------------

namespace {

// tril keeps the elements with col - row <= diagonal (of the last two dims), triu those with
// col - row >= diagonal; the others become 0. A 1-D self fails at size(-2), as in LibTorch.
Tensor triangle(const Tensor& self, int64_t diagonal, bool lower) {
  const int64_t rows = self.size(-2), cols = self.size(-1);
  const Tensor above_main = arange(cols, kLong).unsqueeze(0) - arange(rows, kLong).unsqueeze(1);
  return self.masked_fill(lower ? above_main.gt(diagonal) : above_main.lt(diagonal), 0);
}

OpHandle tril_op("tril");
OpHandle triu_op("triu");

const RegisterDerivative tril_derivative("tril", {
    "TrilBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad().tril(ctx.attributes.index)}; }});
const RegisterDerivative triu_derivative("triu", {
    "TriuBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad().triu(ctx.attributes.index)}; }});

OpAttributes at_diagonal(int64_t diagonal) {
  OpAttributes attributes;
  attributes.index = diagonal;
  return attributes;
}

}  // namespace

Tensor Tensor::tril(int64_t diagonal) const {
  return recorded(tril_op, {*this}, at_diagonal(diagonal), [&] { return triangle(*this, diagonal, true); });
}
Tensor Tensor::triu(int64_t diagonal) const {
  return recorded(triu_op, {*this}, at_diagonal(diagonal), [&] { return triangle(*this, diagonal, false); });
}
Tensor& Tensor::tril_(int64_t diagonal) const {
  return written_in_place(*this, tril_op, {*this}, at_diagonal(diagonal),
                          [&] { return triangle(*this, diagonal, true); });
}
Tensor& Tensor::triu_(int64_t diagonal) const {
  return written_in_place(*this, triu_op, {*this}, at_diagonal(diagonal),
                          [&] { return triangle(*this, diagonal, false); });
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  const int64_t d1 = maybe_wrap_dim(dim1, dim()), d2 = maybe_wrap_dim(dim2, dim());
  TT_CHECK(d1 != d2, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t length = 0;
  int64_t offset_elements = storage_offset();
  if (offset >= 0) {
    length = std::max<int64_t>(std::min(size(d1), size(d2) - offset), 0);
    offset_elements += offset * stride(d2);
  } else {
    length = std::max<int64_t>(std::min(size(d1) + offset, size(d2)), 0);
    offset_elements -= offset * stride(d1);
  }
  if (length == 0) offset_elements = storage_offset();
  std::vector<int64_t> new_sizes, new_strides;
  for (int64_t d = 0; d < dim(); ++d) {
    if (d == d1 || d == d2) continue;
    new_sizes.push_back(size(d));
    new_strides.push_back(stride(d));
  }
  new_sizes.push_back(length);
  new_strides.push_back(stride(d1) + stride(d2));
  Tensor result = native::make_view(*this, new_sizes, new_strides, offset_elements);
  OpAttributes attributes;
  attributes.index = offset;
  attributes.dim = d1;
  attributes.dim1 = d2;
  static OpHandle diagonal_op("diagonal");
  record_op(diagonal_op, {*this}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative diagonal_derivative("diagonal", {
    "DiagonalBackward0",
    [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const OpAttributes& a = ctx.attributes;
      return {zeros(ctx.saved_sizes(0), ctx.grad().options()).diagonal_scatter(ctx.grad(), a.index, a.dim, a.dim1)};
    },
    true});

const RegisterDerivative diag_embed_derivative("diag_embed", {
    "DiagEmbedBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const OpAttributes& a = ctx.attributes;
      return {ctx.grad().diagonal(a.index, a.dim, a.dim1)};
    }});

const RegisterDerivative diag_derivative("diag", {
    "DiagBackward0",
    [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const int64_t k = ctx.attributes.index;
      if (self_sizes.size() == 1) return {ctx.grad().diagonal(k)};
      return {zeros(self_sizes, ctx.grad().options()).diagonal_scatter(ctx.grad(), k)};
    }});
}  // namespace

Tensor Tensor::diag_embed(int64_t offset, int64_t dim1, int64_t dim2) const {
  const int64_t out_dim = dim() + 1;
  const int64_t d1 = maybe_wrap_dim(dim1, out_dim), d2 = maybe_wrap_dim(dim2, out_dim);
  TT_CHECK(d1 != d2, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  OpAttributes attributes;
  attributes.index = offset;
  attributes.dim = d1;
  attributes.dim1 = d2;
  static OpHandle diag_embed_op("diag_embed");
  return recorded(diag_embed_op, {*this}, attributes, [&] {
    const int64_t side = (dim() == 0 ? 1 : size(-1)) + std::abs(offset);
    std::vector<int64_t> out_sizes(sizes().begin(), sizes().end() - (dim() == 0 ? 0 : 1));
    out_sizes.insert(out_sizes.begin() + std::min(d1, d2), side);
    out_sizes.insert(out_sizes.begin() + std::max(d1, d2), side);
    Tensor result = zeros(out_sizes, options().requires_grad(false));
    result.diagonal(offset, d1, d2).copy_(*this);
    return result;
  });
}

Tensor Tensor::diag(int64_t diagonal) const {
  TT_CHECK(dim() == 1 || dim() == 2, "matrix or a vector expected");
  static OpHandle diag_op("diag");
  return recorded(diag_op, {*this}, at_diagonal(diagonal), [&] {
    if (dim() == 1) return diag_embed(diagonal, 0, 1);
    return this->diagonal(diagonal).clone();
  });
}

Tensor Tensor::diagflat(int64_t offset) const { return contiguous().view({-1}).diag(offset); }

// ---------------------------------------------------------------------------------------------
// The *_scatter ops: self with src written into one of its views, as a new tensor.
// ---------------------------------------------------------------------------------------------

namespace {

// out = self with `view_of(out)` replaced by src. Gradients: self's outside the view, src's from it.
template <typename ViewOf>
Tensor scattered_into_view(const Tensor& self, const Tensor& src, ViewOf view_of) {
  Tensor result = self.clone();
  Tensor target = view_of(result);
  TT_CHECK(target.sizes().equals(src.sizes()), "expected src to have a size equal to the slice of self. src size = ",
           src.sizes(), ", slice size = ", target.sizes());
  target.copy_(src);
  return result;
}

const RegisterDerivative select_scatter_derivative("select_scatter", {
    "SelectScatterBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const OpAttributes& a = ctx.attributes;
      const Tensor& grad = ctx.grad();
      Tensor grad_self, grad_src;
      if (ctx.needs_input_grad(0)) grad_self = grad.select_scatter(zeros_like(grad.select(a.dim, a.index)), a.dim, a.index);
      if (ctx.needs_input_grad(1)) grad_src = grad.select(a.dim, a.index);
      return {grad_self, grad_src};
    }});

const RegisterDerivative slice_scatter_derivative("slice_scatter", {
    "SliceScatterBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const OpAttributes& a = ctx.attributes;
      const Tensor& grad = ctx.grad();
      const Tensor piece = grad.slice(a.dim, a.start, a.end, a.step);
      return {ctx.needs_input_grad(0) ? grad.slice_scatter(zeros_like(piece), a.dim, a.start, a.end, a.step) : Tensor(),
              ctx.needs_input_grad(1) ? piece : Tensor()};
    }});

const RegisterDerivative diagonal_scatter_derivative("diagonal_scatter", {
    "DiagonalScatterBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const OpAttributes& a = ctx.attributes;
      const Tensor& grad = ctx.grad();
      const Tensor piece = grad.diagonal(a.index, a.dim, a.dim1);
      return {ctx.needs_input_grad(0) ? grad.diagonal_scatter(zeros_like(piece), a.index, a.dim, a.dim1) : Tensor(),
              ctx.needs_input_grad(1) ? piece : Tensor()};
    }});

}  // namespace

Tensor Tensor::select_scatter(const Tensor& src, int64_t dim, int64_t index) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  OpAttributes attributes;
  attributes.dim = d;
  attributes.index = index < 0 ? index + size(d) : index;
  static OpHandle select_scatter_op("select_scatter");
  return recorded(select_scatter_op, {*this, src}, attributes, [&] {
    return scattered_into_view(*this, src, [&](const Tensor& out) { return out.select(d, index); });
  });
}

Tensor Tensor::slice_scatter(const Tensor& src, int64_t dim, std::optional<int64_t> start,
                             std::optional<int64_t> end, int64_t step) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  // The slice's clamped bounds, as slice() computes them, for the backward.
  const Tensor probe = unrecorded([&] { return slice(d, start, end, step); });
  OpAttributes attributes;
  attributes.dim = d;
  attributes.start = (probe.storage_offset() - storage_offset()) / std::max<int64_t>(stride(d), 1);
  attributes.end = attributes.start + probe.size(d) * step;
  attributes.step = step;
  if (stride(d) == 0 || size(d) == 0 || probe.size(d) == 0) {
    attributes.start = 0;
    attributes.end = 0;
  }
  static OpHandle slice_scatter_op("slice_scatter");
  return recorded(slice_scatter_op, {*this, src}, attributes, [&] {
    return scattered_into_view(*this, src, [&](const Tensor& out) { return out.slice(d, start, end, step); });
  });
}

Tensor Tensor::diagonal_scatter(const Tensor& src, int64_t offset, int64_t dim1, int64_t dim2) const {
  OpAttributes attributes;
  attributes.index = offset;
  attributes.dim = maybe_wrap_dim(dim1, dim());
  attributes.dim1 = maybe_wrap_dim(dim2, dim());
  static OpHandle diagonal_scatter_op("diagonal_scatter");
  return recorded(diagonal_scatter_op, {*this, src}, attributes, [&] {
    return scattered_into_view(*this, src, [&](const Tensor& out) { return out.diagonal(offset, dim1, dim2); });
  });
}

// ---------------------------------------------------------------------------------------------
// index_fill, index_copy, masked_scatter.
// ---------------------------------------------------------------------------------------------

namespace {

void check_index_vector(const Tensor& index, const char* op) {
  TT_CHECK(index.scalar_type() == kLong, op, "(): Expected dtype int64 for index.");
  TT_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
}

// The positions index names along dim, wrapped and checked; `op` prefixes the message.
std::vector<int64_t> picked_along(const Tensor& self, int64_t dim, const Tensor& index, const char* op = "") {
  const Tensor at = index.reshape({-1}).contiguous();
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  std::vector<int64_t> picked(at.data_ptr<int64_t>(), at.data_ptr<int64_t>() + at.numel());
  for (int64_t& p : picked) {
    TT_CHECK(p >= -size && p < size, op, "index ", p, " is out of bounds for dimension ", dim, " with size ", size);
    if (p < 0) p += size;
  }
  return picked;
}

Tensor index_filled(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  Tensor result = self.clone();
  for (int64_t p : picked_along(self, dim, index)) {
    (self.dim() == 0 ? result : result.select(dim, p)).fill_(value.item());
  }
  return result;
}

OpHandle index_fill_scalar_op("index_fill.int_Scalar");
OpHandle index_fill_tensor_op("index_fill.int_Tensor");
OpHandle index_copy_op("index_copy");

const RegisterDerivative index_fill_scalar_derivative("index_fill.int_Scalar", {
    "IndexFillBackward0",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad().index_fill(ctx.attributes.dim, ctx.saved(0), 0), Tensor()};
    }});

const RegisterDerivative index_fill_tensor_derivative("index_fill.int_Tensor", {
    "IndexFillBackward1",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      const int64_t dim = ctx.attributes.dim;
      const Tensor& index = ctx.saved(0);
      return {ctx.needs_input_grad(0) ? ctx.grad().index_fill(dim, index, 0) : Tensor(), Tensor(),
              ctx.needs_input_grad(2) ? ctx.grad().index_select(dim, index.reshape({-1})).sum() : Tensor()};
    }});

const RegisterDerivative index_copy_derivative("index_copy", {
    "IndexCopyBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const int64_t dim = ctx.attributes.dim;
      const Tensor& index = ctx.saved(0);
      Tensor grad_source;
      if (ctx.needs_input_grad(2)) {
        grad_source = ctx.grad().index_select(dim, index.reshape({-1})).reshape(ctx.saved_sizes(0));
      }
      return {ctx.needs_input_grad(0) ? ctx.grad().index_fill(dim, index, 0) : Tensor(), Tensor(), grad_source};
    }});

Tensor fill_value_tensor(const Tensor& self, const Tensor& value) {
  TT_CHECK(value.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
  return value.to(self.scalar_type());
}

void check_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  TT_CHECK(index.dim() < 2, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  TT_CHECK(index.scalar_type() == kLong, "index_copy_(): Expected a long tensor for index, but got ",
           ::tinytorch::toString(index.scalar_type()));
  TT_CHECK(self.scalar_type() == source.scalar_type(), "index_copy_(): self and source expected to have the same ",
           "dtype, but got (self) ", ::tinytorch::toString(self.scalar_type()), " and (source) ", ::tinytorch::toString(source.scalar_type()));
  const int64_t along = source.dim() == 0 ? 1 : source.size(dim);
  TT_CHECK(index.numel() == along, "index_copy_(): Number of indices (", index.numel(),
           ") should be equal to source.size(dim) (", along, ")");
  bool same_slices = source.dim() == self.dim();
  for (int64_t d = 0; same_slices && d < self.dim(); ++d) same_slices = d == dim || source.size(d) == self.size(d);
  auto slice_shape = [dim](const Tensor& t) {
    std::string shape;
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d != dim) shape += (shape.empty() ? "" : ", ") + std::to_string(t.size(d));
    }
    return shape;
  };
  TT_CHECK(same_slices || source.dim() == 0, "index_copy_(): Source/destination tensor must have same slice shapes. ",
           "Destination slice shape: ", slice_shape(self), " at dimension ", dim, " and source slice shape: ",
           slice_shape(source), " at dimension ", dim, ".");
}

Tensor index_copied(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  Tensor result = self.clone();
  const std::vector<int64_t> picked = picked_along(self, dim, index, "index_copy_(): ");
  for (size_t k = 0; k < picked.size(); ++k) {
    if (self.dim() == 0) {
      result.copy_(source.reshape({}));
    } else {
      result.select(dim, picked[k]).copy_(source.select(dim, static_cast<int64_t>(k)));
    }
  }
  return result;
}

}  // namespace

Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_vector(index, "index_fill_");
  const Tensor fill = scalar_tensor(value, scalar_type());
  return recorded(index_fill_scalar_op, {*this, index}, with_dim(d), [&] { return index_filled(*this, d, index, fill); });
}

Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Tensor& value) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_vector(index, "index_fill_");
  const Tensor fill = fill_value_tensor(*this, value);
  return recorded(index_fill_tensor_op, {*this, index, value}, with_dim(d),
                  [&] { return index_filled(*this, d, index, fill); });
}

Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_vector(index, "index_fill_");
  const Tensor fill = scalar_tensor(value, scalar_type());
  return written_in_place(*this, index_fill_scalar_op, {*this, index}, with_dim(d),
                          [&] { return index_filled(*this, d, index, fill); });
}

Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Tensor& value) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_vector(index, "index_fill_");
  const Tensor fill = fill_value_tensor(*this, value);
  return written_in_place(*this, index_fill_tensor_op, {*this, index, value}, with_dim(d),
                          [&] { return index_filled(*this, d, index, fill); });
}

Tensor Tensor::index_copy(int64_t dim, const Tensor& index, const Tensor& source) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_copy(*this, d, index, source);
  return recorded(index_copy_op, {*this, index, source}, with_dim(d),
                  [&] { return index_copied(*this, d, index, source); });
}

Tensor& Tensor::index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const {
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  check_index_copy(*this, d, index, source);
  return written_in_place(*this, index_copy_op, {*this, index, source}, with_dim(d),
                          [&] { return index_copied(*this, d, index, source); });
}

namespace {

void check_masked_scatter(const Tensor& self, const Tensor& source) {
  TT_CHECK(self.scalar_type() == source.scalar_type(), "masked_scatter: expected self and source to have same dtypes ",
           "but got", ::tinytorch::toString(self.scalar_type()), " and ", ::tinytorch::toString(source.scalar_type()));
}

// The flat positions of self where the mask (broadcast to self) is true, in row-major order.
Tensor masked_positions(const Tensor& self, const Tensor& mask) {
  // LibTorch 1.13 reads a mask of another dtype as "not zero".
  const Tensor expanded = (mask.scalar_type() == kBool ? mask : mask.ne(0)).expand(self.sizes()).reshape({-1});
  return nonzero(expanded).reshape({-1});
}

Tensor masked_scattered(const Tensor& self, const Tensor& positions, const Tensor& source) {
  TT_CHECK(positions.numel() <= source.numel(), "Number of elements of source < number of ones in mask");
  const Tensor values = source.reshape({-1}).slice(0, 0, positions.numel());
  return detail::put_at_positions(self, positions, values, false);
}

OpHandle masked_scatter_op("masked_scatter");

// self's masked elements were replaced: their gradient is 0; source's first n elements went to the
// n masked positions in order, the rest of source was not used.
const RegisterDerivative masked_scatter_derivative("masked_scatter", {
    "MaskedScatterBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& positions = ctx.saved(0);
      const Tensor& grad = ctx.grad();
      Tensor grad_self, grad_source;
      if (ctx.needs_input_grad(0)) grad_self = grad.put(positions, zeros(positions.sizes(), grad.options()), false);
      if (ctx.needs_input_grad(2)) {
        const IntArrayRef source_sizes = ctx.saved_sizes(0);
        const int64_t unused = product(source_sizes) - positions.numel();
        grad_source = cat({grad.take(positions), zeros({unused}, grad.options())}).reshape(source_sizes);
      }
      return {grad_self, Tensor(), grad_source};
    }});

}  // namespace

Tensor Tensor::masked_scatter(const Tensor& mask, const Tensor& source) const {
  check_masked_scatter(*this, source);
  // LibTorch broadcasts self and mask together for the out-of-place form.
  const std::vector<int64_t> shape = infer_size(sizes(), mask.sizes());
  const Tensor self = expand(shape);
  const Tensor positions = masked_positions(self, mask);
  return recorded(masked_scatter_op, {self, positions, source}, {},
                  [&] { return masked_scattered(self, positions, source); });
}

Tensor& Tensor::masked_scatter_(const Tensor& mask, const Tensor& source) const {
  check_masked_scatter(*this, source);
  TT_CHECK(infer_size(sizes(), mask.sizes()) == sizes().vec(), "masked_scatter_: expected mask of shape ",
           mask.sizes(), " to broadcast to self's shape ", sizes());
  const Tensor positions = masked_positions(*this, mask);
  return written_in_place(*this, masked_scatter_op, {*this, positions, source}, {},
                          [&] { return masked_scattered(*this, positions, source); });
}

// ---------------------------------------------------------------------------------------------
// Repeating.
// ---------------------------------------------------------------------------------------------

namespace {
// out = self repeated: viewed as (r0, s0, r1, s1, ...), the gradient sums over the r dims.
const RegisterDerivative repeat_derivative("repeat", {
    "RepeatBackward0",
    [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef repeats = ctx.attributes.sizes;
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const size_t leading = repeats.size() - self_sizes.size();
      std::vector<int64_t> split, summed;
      for (size_t i = 0; i < repeats.size(); ++i) {
        const int64_t size = i < leading ? 1 : self_sizes[i - leading];
        summed.push_back(static_cast<int64_t>(split.size()));
        split.push_back(repeats[i]);
        split.push_back(size);
      }
      Tensor grad = ctx.grad().reshape(split);
      if (!summed.empty()) grad = grad.sum(summed);
      return {grad.reshape(self_sizes)};
    }});
}  // namespace

Tensor Tensor::repeat(IntArrayRef repeats) const {
  TT_CHECK(static_cast<int64_t>(repeats.size()) >= dim(), "Number of dimensions of repeat dims can not be smaller ",
           "than number of dimensions of tensor");
  std::vector<int64_t> out_sizes(repeats.begin(), repeats.end());
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (i >= repeats.size() - static_cast<size_t>(dim())) out_sizes[i] *= sizes()[i - (repeats.size() - dim())];
  }
  for (int64_t s : out_sizes) TT_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", IntArrayRef(out_sizes));
  OpAttributes attributes;
  attributes.sizes = repeats;
  static OpHandle repeat_op("repeat");
  return recorded(repeat_op, {*this}, attributes, [&] {
    // self viewed as (1, s0, 1, s1, ...) expanded to (r0, s0, r1, s1, ...), then merged pairwise.
    const size_t leading = repeats.size() - static_cast<size_t>(dim());
    std::vector<int64_t> spread, expanded, merged;
    for (size_t i = 0; i < repeats.size(); ++i) {
      const int64_t size = i < leading ? 1 : sizes()[i - leading];
      spread.insert(spread.end(), {1, size});
      expanded.insert(expanded.end(), {repeats[i], size});
      merged.push_back(repeats[i] * size);
    }
    return reshape(spread).expand(expanded).contiguous().view(merged);
  });
}

Tensor Tensor::tile(IntArrayRef dims) const {
  std::vector<int64_t> repeats = dims.vec();
  if (static_cast<int64_t>(repeats.size()) < dim()) repeats.insert(repeats.begin(), dim() - repeats.size(), 1);
  return repeat(repeats);
}

Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  TT_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  TT_CHECK(repeats.scalar_type() == kLong || repeats.scalar_type() == kInt,
           "\"repeat_interleave_cpu\" not implemented for '", ::tinytorch::toString(repeats.scalar_type()), "'");
  const Tensor counts = repeats.to(kLong).contiguous();
  const int64_t* count = counts.data_ptr<int64_t>();
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < counts.numel(); ++i) {
    TT_CHECK(count[i] >= 0, "repeats can not be negative");
    positions.insert(positions.end(), static_cast<size_t>(count[i]), i);
  }
  TT_CHECK(!output_size.has_value() || *output_size == static_cast<int64_t>(positions.size()),
           "allocated size does not match required size");
  return long_tensor(positions);
}

Tensor Tensor::repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim,
                                 std::optional<int64_t> output_size) const {
  Tensor input = *this;
  int64_t d = 0;
  if (dim.has_value()) {
    d = maybe_wrap_dim(*dim, this->dim());
  } else {
    input = flatten();
  }
  Tensor counts = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    counts = repeats.reshape({1}).expand({input.size(d)});
  } else {
    TT_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
    TT_CHECK(repeats.size(0) == input.size(d), "repeats must have the same size as input along dim");
  }
  return input.index_select(d, tinytorch::repeat_interleave(counts, output_size));
}

Tensor Tensor::repeat_interleave(int64_t repeats, std::optional<int64_t> dim, std::optional<int64_t> output_size) const {
  TT_CHECK(repeats >= 0, "repeats can not be negative");
  return repeat_interleave(scalar_tensor(repeats, kLong), dim, output_size);
}

// ---------------------------------------------------------------------------------------------
// Splitting (views made of slice) and stacking (made of cat).
// ---------------------------------------------------------------------------------------------

std::vector<Tensor> Tensor::tensor_split(int64_t sections, int64_t dim) const {
  TT_CHECK(this->dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
           this->dim(), " dims");
  TT_CHECK(sections > 0, "number of sections must be larger than 0, got ", sections);
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  const int64_t size = this->size(d);
  const int64_t base = size / sections, larger = size % sections;
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t length = base + (i < larger ? 1 : 0);
    parts.push_back(slice(d, start, start + length));
    start += length;
  }
  return parts;
}

std::vector<Tensor> Tensor::tensor_split(IntArrayRef indices, int64_t dim) const {
  TT_CHECK(this->dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
           this->dim(), " dims");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  std::vector<Tensor> parts;
  int64_t start = 0;
  for (int64_t end : indices) {
    parts.push_back(slice(d, start, end));
    start = end;
  }
  parts.push_back(slice(d, start, size(d)));
  return parts;
}

std::vector<Tensor> Tensor::tensor_split(const Tensor& tensor_indices_or_sections, int64_t dim) const {
  const Tensor& split = tensor_indices_or_sections;
  TT_CHECK(split.scalar_type() == kLong, "tensor_split expected tensor_indices_or_sections to have dtype of long, ",
           "but got ", ::tinytorch::toString(split.scalar_type()));
  TT_CHECK(split.dim() <= 1, "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or ",
           "one-dimensional tensor, but got a tensor with ", split.dim(), " dims");
  if (split.dim() == 0) return tensor_split(split.item<int64_t>(), dim);
  const Tensor values = split.contiguous();
  std::vector<int64_t> indices(values.data_ptr<int64_t>(), values.data_ptr<int64_t>() + values.numel());
  return tensor_split(IntArrayRef(indices), dim);
}

namespace {

// hsplit / vsplit / dsplit's checks, then tensor_split along `dim`.
std::vector<Tensor> split_along(const Tensor& self, int64_t sections, int64_t min_dims, int64_t dim, const char* name) {
  TT_CHECK(self.dim() >= min_dims, "torch.", name, " requires a tensor with at least ", min_dims,
           " dimension, but got a tensor with ", self.dim(), " dimensions!");
  TT_CHECK(sections != 0 && self.size(dim) % sections == 0, "torch.", name, " attempted to split along dimension ",
           dim, ", but the size of the dimension ", self.size(dim), " is not divisible by the split_size ", sections,
           "!");
  return self.tensor_split(sections, dim);
}

void check_split_dims(const Tensor& self, int64_t min_dims, const char* name) {
  TT_CHECK(self.dim() >= min_dims, "torch.", name, " requires a tensor with at least ", min_dims,
           " dimension, but got a tensor with ", self.dim(), " dimensions!");
}

}  // namespace

std::vector<Tensor> Tensor::hsplit(int64_t sections) const {
  return split_along(*this, sections, 1, dim() == 1 ? 0 : 1, "hsplit");
}
std::vector<Tensor> Tensor::hsplit(IntArrayRef indices) const {
  check_split_dims(*this, 1, "hsplit");
  return tensor_split(indices, dim() == 1 ? 0 : 1);
}
std::vector<Tensor> Tensor::vsplit(int64_t sections) const { return split_along(*this, sections, 2, 0, "vsplit"); }
std::vector<Tensor> Tensor::vsplit(IntArrayRef indices) const {
  check_split_dims(*this, 2, "vsplit");
  return tensor_split(indices, 0);
}
std::vector<Tensor> Tensor::dsplit(int64_t sections) const { return split_along(*this, sections, 3, 2, "dsplit"); }
std::vector<Tensor> Tensor::dsplit(IntArrayRef indices) const {
  check_split_dims(*this, 3, "dsplit");
  return tensor_split(indices, 2);
}

Tensor atleast_1d(const Tensor& self) { return self.dim() == 0 ? self.reshape({1}) : self; }
Tensor atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1});
  return self.dim() == 1 ? self.unsqueeze(0) : self;
}
Tensor atleast_3d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1, 1});
  if (self.dim() == 1) return self.unsqueeze(0).unsqueeze(-1);
  return self.dim() == 2 ? self.unsqueeze(-1) : self;
}

namespace {
template <typename Each>
std::vector<Tensor> each_of(TensorList tensors, Each each) {
  std::vector<Tensor> result;
  for (const Tensor& t : tensors) result.push_back(each(t));
  return result;
}
}  // namespace

std::vector<Tensor> atleast_1d(TensorList tensors) { return each_of(tensors, [](const Tensor& t) { return atleast_1d(t); }); }
std::vector<Tensor> atleast_2d(TensorList tensors) { return each_of(tensors, [](const Tensor& t) { return atleast_2d(t); }); }
std::vector<Tensor> atleast_3d(TensorList tensors) { return each_of(tensors, [](const Tensor& t) { return atleast_3d(t); }); }

Tensor hstack(TensorList tensors) {
  TT_CHECK(!tensors.empty(), "hstack expects a non-empty TensorList");
  const std::vector<Tensor> parts = atleast_1d(tensors);
  return cat(parts, parts[0].dim() == 1 ? 0 : 1);
}
Tensor vstack(TensorList tensors) {
  TT_CHECK(!tensors.empty(), "vstack expects a non-empty TensorList");
  return cat(atleast_2d(tensors), 0);
}
Tensor row_stack(TensorList tensors) { return vstack(tensors); }
Tensor dstack(TensorList tensors) {
  TT_CHECK(!tensors.empty(), "dstack expects a non-empty TensorList");
  return cat(atleast_3d(tensors), 2);
}
Tensor column_stack(TensorList tensors) {
  TT_CHECK(!tensors.empty(), "column_stack expects a non-empty TensorList");
  return hstack(each_of(tensors, [](const Tensor& t) { return t.dim() <= 1 ? t.reshape({t.numel(), 1}) : t; }));
}

std::vector<Tensor> meshgrid(TensorList tensors) { return meshgrid(tensors, "ij"); }

std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing) {
  TT_CHECK(!tensors.empty(), "meshgrid expects a non-empty TensorList");
  TT_CHECK(indexing == "ij" || indexing == "xy", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ",
           std::string(indexing));
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].dim() > 1) {
      std::ostringstream printed;
      printed << tensors[i];
      throw Error("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + printed.str());
    }
  }
  // "xy" is "ij" with the first two inputs (and outputs' first two dims) swapped.
  std::vector<Tensor> inputs(tensors.begin(), tensors.end());
  const bool swap_first_two = indexing == "xy" && inputs.size() >= 2;
  if (swap_first_two) std::swap(inputs[0], inputs[1]);
  std::vector<int64_t> shape;
  for (const Tensor& t : inputs) shape.push_back(t.numel());
  std::vector<Tensor> grids;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<int64_t> along(inputs.size(), 1);
    along[i] = -1;
    grids.push_back(inputs[i].view(along).expand(shape));
  }
  if (swap_first_two) std::swap(grids[0], grids[1]);
  return grids;
}

// ---------------------------------------------------------------------------------------------
// Padding.
// ---------------------------------------------------------------------------------------------

namespace {
// Padding's gradient is the same padding undone: negative pads crop what positive ones added.
const RegisterDerivative constant_pad_nd_derivative("constant_pad_nd", {
    "ConstantPadNdBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      std::vector<int64_t> undo;
      for (int64_t p : ctx.attributes.sizes) undo.push_back(-p);
      return {constant_pad_nd(ctx.grad(), undo, 0)};
    }});
}  // namespace

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  TT_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t padded_dims = static_cast<int64_t>(pad.size()) / 2;
  // (LibTorch's wording, its missing spaces included.)
  TT_CHECK(padded_dims <= self.dim(), "Length of pad should be no more than twice the number of dimensions of the ",
           "input. Pad length is ", pad.size(), "while the input has ", self.dim(), "dimensions.");
  std::vector<int64_t> out_sizes = self.sizes().vec();
  for (int64_t i = 0; i < padded_dims; ++i) {
    const int64_t d = self.dim() - 1 - i;
    out_sizes[d] += pad[2 * i] + pad[2 * i + 1];
    TT_CHECK(out_sizes[d] >= 0, "The input size ", self.size(d), ", plus negative padding ", pad[2 * i], " and ",
             pad[2 * i + 1], " resulted in a negative output size, which is invalid. Check dimension ", d,
             " of your input.");
  }
  OpAttributes attributes;
  attributes.sizes = pad;
  static OpHandle constant_pad_nd_op("constant_pad_nd");
  return recorded(constant_pad_nd_op, {self}, attributes, [&] {
    Tensor result = full(out_sizes, value, self.scalar_type());
    // The part of self that survives (negative pads crop it), and where it lands in the result.
    Tensor source = self, target = result;
    for (int64_t i = 0; i < padded_dims; ++i) {
      const int64_t d = self.dim() - 1 - i;
      const int64_t before = pad[2 * i], after = pad[2 * i + 1];
      const int64_t kept = self.size(d) + std::min<int64_t>(before, 0) + std::min<int64_t>(after, 0);
      if (kept <= 0) return result;
      source = source.narrow(d, std::max<int64_t>(-before, 0), kept);
      target = target.narrow(d, std::max<int64_t>(before, 0), kept);
    }
    target.copy_(source);
    return result;
  });
}

namespace nn {
namespace functional {

namespace {
const char* padding_mode_name(const PadFuncOptions::mode_t& mode) {
  if (std::holds_alternative<enumtype::kReflect>(mode)) return "reflect";
  if (std::holds_alternative<enumtype::kReplicate>(mode)) return "replicate";
  if (std::holds_alternative<enumtype::kCircular>(mode)) return "circular";
  return "constant";
}
}  // namespace

// Non-constant modes read, for output position i along a padded dim, input position
//   reflect: |i| mirrored at both ends (the edge itself not repeated); replicate: the nearest edge;
//   circular: i modulo the size.
Tensor pad(const Tensor& input, const PadFuncOptions& options) {
  const std::vector<int64_t>& pad = options.pad();
  const auto& mode = options.mode();
  TT_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  TT_CHECK(static_cast<int64_t>(pad.size()) <= input.dim() * 2, "Padding length too large");
  if (std::holds_alternative<enumtype::kConstant>(mode)) return constant_pad_nd(input, pad, options.value());
  const char* name = padding_mode_name(mode);
  TT_CHECK(options.value() == 0, "Padding mode \"", name, "\" doesn't take in value argument");
  const int64_t padded_dims = static_cast<int64_t>(pad.size()) / 2;
  TT_CHECK(padded_dims >= 1 && padded_dims <= 3 && (input.dim() == padded_dims + 1 || input.dim() == padded_dims + 2),
           "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  Tensor result = input;
  for (int64_t i = 0; i < padded_dims; ++i) {
    const int64_t d = input.dim() - 1 - i;
    const int64_t size = input.size(d), before = pad[2 * i], after = pad[2 * i + 1];
    if (std::holds_alternative<enumtype::kReflect>(mode)) {
      TT_CHECK(before < size && after < size, "Argument #4: Padding size should be less than the corresponding input ",
               "dimension, but got: padding (", before, ", ", after, ") at dimension ", d, " of input ", input.sizes());
    } else if (std::holds_alternative<enumtype::kCircular>(mode)) {
      TT_CHECK(before <= size && after <= size, "Padding value causes wrapping around more than once.");
    }
    TT_CHECK(size + before + after > 0, "input (", input.sizes(), ") is too small for padding (", before, ", ", after,
             ") at dimension ", d);
    std::vector<int64_t> from;
    for (int64_t out = -before; out < size + after; ++out) {
      int64_t at = out;
      if (std::holds_alternative<enumtype::kReflect>(mode)) {
        if (at < 0) at = -at;
        if (at >= size) at = 2 * (size - 1) - at;
      } else if (std::holds_alternative<enumtype::kReplicate>(mode)) {
        at = std::min(std::max<int64_t>(at, 0), size - 1);
      } else {
        at = ((at % size) + size) % size;
      }
      from.push_back(at);
    }
    result = result.index_select(d, long_tensor(from));
  }
  return result;
}

}  // namespace functional
}  // namespace nn

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  nn::functional::PadFuncOptions options(pad.vec());
  if (mode == "reflect") {
    options.mode(enumtype::kReflect());
  } else if (mode == "replicate") {
    options.mode(enumtype::kReplicate());
  } else if (mode == "circular") {
    options.mode(enumtype::kCircular());
  } else {
    TT_CHECK(mode == "constant", "Unrecognised padding mode ", std::string(mode));
  }
  return nn::functional::pad(self, options.value(value.value_or(0)));
}

// ---------------------------------------------------------------------------------------------
// Memory formats: every TinyTorch tensor is row-major.
// ---------------------------------------------------------------------------------------------

std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format) {
  return stream << memory_format_name(memory_format);
}

namespace {
void check_row_major(const Tensor& self, MemoryFormat memory_format, const char* op) {
  TT_CHECK(memory_format != MemoryFormat::ChannelsLast || self.dim() == 4,
           "required rank 4 tensor to use channels_last format");
  TT_CHECK(memory_format != MemoryFormat::ChannelsLast3d || self.dim() == 5,
           "required rank 5 tensor to use channels_last_3d format");
  TT_CHECK(memory_format == MemoryFormat::Contiguous || memory_format == MemoryFormat::Preserve, op,
           ": TinyTorch lays every tensor out row-major (MemoryFormat::Contiguous); memory_format ",
           memory_format_name(memory_format),
           " is not supported");
}

// LibTorch's channels-last test: strides decreasing in the order (C, W, H, N) for 4-D, (C, W, H, D, N) for 5-D.
bool has_channels_last_strides(const Tensor& t, IntArrayRef order) {
  int64_t min_stride = 0;
  for (int64_t d : order) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) < min_stride) return false;
    min_stride = t.stride(d) * t.size(d);
  }
  return true;
}
}  // namespace

Tensor Tensor::contiguous(MemoryFormat memory_format) const {
  check_row_major(*this, memory_format, "contiguous");
  return contiguous();
}

Tensor Tensor::clone(std::optional<MemoryFormat> memory_format) const {
  if (memory_format.has_value()) check_row_major(*this, *memory_format, "clone");
  return clone();
}

bool Tensor::is_contiguous(MemoryFormat memory_format) const {
  switch (memory_format) {
    case MemoryFormat::ChannelsLast: return dim() == 4 && has_channels_last_strides(*this, {1, 3, 2, 0});
    case MemoryFormat::ChannelsLast3d: return dim() == 5 && has_channels_last_strides(*this, {1, 4, 3, 2, 0});
    default: return is_contiguous();
  }
}

MemoryFormat Tensor::suggest_memory_format(bool /*channels_last_strides_exact_match*/) const {
  return MemoryFormat::Contiguous;
}

Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format) {
  if (memory_format.has_value()) {
    const int64_t rank = memory_format == MemoryFormat::ChannelsLast ? 4 : 5;
    TT_CHECK(*memory_format == MemoryFormat::Contiguous || *memory_format == MemoryFormat::Preserve ||
                 static_cast<int64_t>(size.size()) == rank,
             "required rank ", rank, " tensor to use channels_last", rank == 5 ? "_3d" : "", " format");
    TT_CHECK(*memory_format == MemoryFormat::Contiguous || *memory_format == MemoryFormat::Preserve,
             "empty: TinyTorch lays every tensor out row-major (MemoryFormat::Contiguous); memory_format ",
             memory_format_name(*memory_format), " is not supported");
  }
  return empty(size, options);
}

}  // namespace tinytorch
