// Views: tensors that share their base's storage and differ only in sizes, strides and offset.
// transpose/permute and the -1 inference of view/reshape are the learner's (shape_ops.cpp); this
// file has the rest and records each view for autograd, with its derivative after it: a view's
// gradient is the inverse view (or placement) of the output's gradient.
#include <optional>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// The strides that let `new_sizes` view memory laid out as (old_sizes, old_strides), or nullopt when
// some new dim would have to span two separately strided chunks (ATen's computeStride). Contiguous
// runs of old dims ("chunks") can be split and merged freely; a view must not cross a chunk border.
std::optional<std::vector<int64_t>> compute_view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                                         IntArrayRef new_sizes) {
  if (old_sizes.empty() || product(old_sizes) == 0) return contiguous_strides(new_sizes);
  std::vector<int64_t> new_strides(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();  // stride of the innermost dim of the current chunk
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[tensor_d];
    const bool chunk_ends_here = tensor_d == 0 || (old_sizes[tensor_d - 1] != 1 &&
                                                   old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (!chunk_ends_here) continue;
    // Lay the new dims over this chunk, innermost first, until they cover its elements.
    while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return std::nullopt;
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[tensor_d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace

Tensor detail::broadcast_view(const Tensor& t, IntArrayRef sizes) {
  if (t.sizes().equals(sizes)) return t;
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  std::vector<int64_t> strides(ndim, 0);
  for (int64_t i = 0; i < t.dim(); ++i) {
    const int64_t target = ndim - t.dim() + i;  // dims are aligned from the right
    strides[target] = t.sizes()[i] == sizes[target] ? t.strides()[i] : 0;
  }
  return native::make_view(t, sizes.vec(), strides, t.storage_offset());
}

Tensor Tensor::view(IntArrayRef size) const {
  std::vector<int64_t> new_sizes = infer_view_size(size, numel());
  std::optional<std::vector<int64_t>> new_strides = compute_view_strides(sizes(), strides(), new_sizes);
  TT_CHECK(new_strides.has_value(),
           "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
           "two contiguous subspaces). Use .reshape(...) instead.");
  Tensor result = native::make_view(*this, new_sizes, std::move(*new_strides), storage_offset());
  OpAttributes attributes;
  attributes.sizes = new_sizes;
  static OpHandle view_op("view");
  record_op(view_op, {*this}, {result}, attributes);
  return result;
}

namespace {
void save_self_sizes(SaveForBackward& save) { save.input_sizes(0); }

// view and reshape, squeeze: the gradient takes self's shape back.
tensor_list reshape_to_self(const BackwardContext& ctx) { return {ctx.grad().reshape(ctx.saved_sizes(0))}; }

const RegisterDerivative view_derivative("view", {"ViewBackward0", save_self_sizes, reshape_to_self, true});
}  // namespace

// LibTorch's _unsafe_view: view for a tensor that no one else sees yet (matmul's folded product),
// recorded as its own node, UnsafeViewBackward0, as LibTorch's matmul shows in grad_fn. Autograd does
// not treat the result as a view (nothing else holds its storage).
Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  Tensor result;
  {
    NoGradGuard one_record;
    result = self.view(size);
  }
  OpAttributes attributes;
  attributes.sizes = result.sizes();
  static OpHandle unsafe_view_op("_unsafe_view");
  record_op(unsafe_view_op, {self}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative unsafe_view_derivative("_unsafe_view", {"UnsafeViewBackward0", save_self_sizes,
                                                                 reshape_to_self, false});
}  // namespace

// As LibTorch 1.13: a view when the strides allow it, recorded as its own op (_reshape_alias,
// ReshapeAliasBackward0); otherwise a contiguous copy viewed by _unsafe_view (UnsafeViewBackward0).
Tensor Tensor::reshape(IntArrayRef shape) const {
  std::vector<int64_t> new_sizes = infer_view_size(shape, numel());
  std::optional<std::vector<int64_t>> new_strides = compute_view_strides(sizes(), strides(), new_sizes);
  if (!new_strides.has_value()) return _unsafe_view(contiguous(), new_sizes);  // the strides cannot express it
  Tensor result = native::make_view(*this, new_sizes, std::move(*new_strides), storage_offset());
  OpAttributes attributes;
  attributes.sizes = new_sizes;
  static OpHandle reshape_alias_op("_reshape_alias");
  record_op(reshape_alias_op, {*this}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative reshape_alias_derivative("_reshape_alias", {"ReshapeAliasBackward0", save_self_sizes,
                                                                     reshape_to_self, true});
}  // namespace

Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  if (dim() == 0) return reshape({1});
  start_dim = maybe_wrap_dim(start_dim, dim());
  end_dim = maybe_wrap_dim(end_dim, dim());
  TT_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (start_dim == end_dim) return *this;
  std::vector<int64_t> new_sizes(sizes().begin(), sizes().begin() + start_dim);
  int64_t merged = 1;
  for (int64_t d = start_dim; d <= end_dim; ++d) merged *= sizes()[d];
  new_sizes.push_back(merged);
  new_sizes.insert(new_sizes.end(), sizes().begin() + end_dim + 1, sizes().end());
  return reshape(new_sizes);
}

Tensor Tensor::squeeze() const {
  std::vector<int64_t> new_sizes, new_strides;
  for (int64_t d = 0; d < dim(); ++d) {
    if (sizes()[d] == 1) continue;
    new_sizes.push_back(sizes()[d]);
    new_strides.push_back(strides()[d]);
  }
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset());
  OpAttributes attributes;
  attributes.sizes = sizes();
  static OpHandle squeeze_op("squeeze");
  record_op(squeeze_op, {*this}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative squeeze_derivative("squeeze", {"SqueezeBackward0", save_self_sizes, reshape_to_self, true});
}  // namespace

Tensor Tensor::squeeze(int64_t dim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  std::vector<int64_t> new_sizes = sizes().vec(), new_strides = strides().vec();
  if (this->dim() > 0 && new_sizes[d] == 1) {  // squeezing a dim of another size changes nothing
    new_sizes.erase(new_sizes.begin() + d);
    new_strides.erase(new_strides.begin() + d);
  }
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset());
  OpAttributes attributes;
  attributes.dim = d;
  attributes.sizes = sizes();
  static OpHandle squeeze_dim_op("squeeze.dim");
  record_op(squeeze_dim_op, {*this}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative squeeze_dim_derivative("squeeze.dim", {
    "SqueezeBackward1", save_self_sizes, reshape_to_self, true});
}  // namespace

Tensor Tensor::unsqueeze(int64_t dim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim() + 1);
  std::vector<int64_t> new_sizes = sizes().vec(), new_strides = strides().vec();
  // The new dim of size 1 gets the stride it would have in a contiguous layout of the dims after it.
  const int64_t stride = d < this->dim() ? sizes()[d] * strides()[d] : 1;
  new_sizes.insert(new_sizes.begin() + d, 1);
  new_strides.insert(new_strides.begin() + d, stride);
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset());
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle unsqueeze_op("unsqueeze");
  record_op(unsqueeze_op, {*this}, {result}, attributes);
  return result;
}

namespace {
const RegisterDerivative unsqueeze_derivative("unsqueeze", {
    "UnsqueezeBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad().squeeze(ctx.attributes.dim)}; }, true});
}  // namespace

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  Tensor result = native::transpose(*this, dim0, dim1);
  OpAttributes attributes;
  attributes.dim = maybe_wrap_dim(dim0, dim());
  attributes.dim1 = maybe_wrap_dim(dim1, dim());
  static OpHandle transpose_op("transpose");
  record_op(transpose_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// transpose and t(): the same swap undoes it.
const RegisterDerivative transpose_derivative("transpose", {
    "TransposeBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad().transpose(ctx.attributes.dim, ctx.attributes.dim1)};
    },
    true});
}  // namespace

Tensor Tensor::t() const {
  TT_CHECK(dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", dim(), "D");
  return transpose(0, dim() < 2 ? 0 : 1);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  Tensor result = native::permute(*this, dims);
  OpAttributes attributes;
  attributes.dims = dims;
  static OpHandle permute_op("permute");
  record_op(permute_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// The inverse permutation: output dim i came from input dim dims[i].
const RegisterDerivative permute_derivative("permute", {
    "PermuteBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef dims = ctx.attributes.dims;
      const int64_t ndim = static_cast<int64_t>(dims.size());
      std::vector<int64_t> inverse(dims.size());
      for (int64_t i = 0; i < ndim; ++i) inverse[maybe_wrap_dim(dims[i], ndim)] = i;
      return {ctx.grad().permute(inverse)};
    },
    true});
}  // namespace

Tensor Tensor::expand(IntArrayRef size, bool /*implicit*/) const {
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t tensor_dim = dim();
  TT_CHECK(ndim >= tensor_dim, "expand(", toString(), "{", sizes(), "}, size=", size, "): the number of sizes provided (",
           ndim, ") must be greater or equal to the number of dimensions in the tensor (", tensor_dim, ")");
  std::vector<int64_t> new_sizes(ndim), new_strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t d = tensor_dim - 1 - (ndim - 1 - i);  // our dim aligned with target dim i, or < 0
    int64_t current_size = d >= 0 ? sizes()[d] : 1;
    int64_t current_stride = d >= 0 ? strides()[d] : (i == ndim - 1 ? 1 : new_sizes[i + 1] * new_strides[i + 1]);
    int64_t target = size[i];
    if (target == -1) {
      TT_CHECK(d >= 0, "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
      target = current_size;
    }
    if (current_size != target) {
      TT_CHECK(current_size == 1, "The expanded size of the tensor (", target, ") must match the existing size (",
               current_size, ") at non-singleton dimension ", i, ".  Target sizes: ", size,
               ".  Tensor sizes: ", sizes());
      current_size = target;
      current_stride = 0;  // every index along this dim reads the same element
    }
    new_sizes[i] = current_size;
    new_strides[i] = current_stride;
  }
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset());
  OpAttributes attributes;
  attributes.sizes = new_sizes;
  static OpHandle expand_op("expand");
  record_op(expand_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// Every copy of a broadcast element sends its gradient back: the engine's sum_to adds them up.
const RegisterDerivative expand_derivative("expand", {
    "ExpandBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list { return {ctx.grad()}; }, true});

// Sizes that are 1 everywhere except `size` at `dim`: to broadcast a 1-D tensor along one dim.
std::vector<int64_t> along(size_t ndim, int64_t dim, int64_t size) {
  std::vector<int64_t> sizes(ndim, 1);
  sizes[dim] = size;
  return sizes;
}
}  // namespace

Tensor Tensor::select(int64_t dim, int64_t index) const {
  TT_CHECK(this->dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  const int64_t size = sizes()[d];
  TT_CHECK(index >= -size && index < size, "select(): index ", index, " out of range for tensor of size ", sizes(),
           " at dimension ", d);
  if (index < 0) index += size;
  std::vector<int64_t> new_sizes = sizes().vec(), new_strides = strides().vec();
  new_sizes.erase(new_sizes.begin() + d);
  new_strides.erase(new_strides.begin() + d);
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset() + index * strides()[d]);
  OpAttributes attributes;
  attributes.dim = d;
  attributes.index = index;
  static OpHandle select_op("select");
  record_op(select_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// The gradient of a selected row lands in that row of a zero tensor shaped like self.
const RegisterDerivative select_derivative("select", {
    "SelectBackward0", save_self_sizes,
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const int64_t dim = ctx.attributes.dim;
      const int64_t index = ctx.attributes.index;
      if (GradMode::is_enabled()) {  // create_graph: a product with a one-hot mask stays differentiable
        const Tensor one_hot = arange(self_sizes[dim], kLong).eq(index).to(grad.scalar_type());
        return {grad.unsqueeze(dim) * one_hot.view(along(self_sizes.size(), dim, self_sizes[dim]))};
      }
      Tensor result = zeros(self_sizes, grad.options());
      result.select(dim, index).copy_(grad);
      return {result};
    },
    true});
}  // namespace

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  TT_CHECK(this->dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  TT_CHECK(length >= 0, "narrow(): length must be non-negative.");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  const int64_t size = sizes()[d];
  start = maybe_wrap_dim(start, size);  // LibTorch wraps a negative start like a dim
  TT_CHECK(start <= size - length, "start (", start, ") + length (", length, ") exceeds dimension size (", size, ").");
  return slice(d, start, start + length, 1);
}

Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) const {
  TT_CHECK(this->dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  TT_CHECK(step > 0, "step must be greater than zero");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  const int64_t size = sizes()[d];
  // Python's rules: negative ends count from the back, then both are clamped into [0, size].
  auto clamp_index = [size](int64_t i) {
    if (i < 0) i += size;
    return i < 0 ? 0 : (i > size ? size : i);
  };
  const int64_t first = clamp_index(start.value_or(0));
  const int64_t last = std::max(first, clamp_index(end.value_or(size)));
  std::vector<int64_t> new_sizes = sizes().vec(), new_strides = strides().vec();
  new_sizes[d] = (last - first + step - 1) / step;
  new_strides[d] = strides()[d] * step;
  Tensor result = native::make_view(*this, new_sizes, new_strides, storage_offset() + first * strides()[d]);
  OpAttributes attributes;
  attributes.dim = d;
  attributes.start = first;
  attributes.end = last;
  attributes.step = step;
  static OpHandle slice_op("slice");
  record_op(slice_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// slice and narrow: the gradient lands in the sliced positions of a zero tensor shaped like self.
const RegisterDerivative slice_derivative("slice", {
    "SliceBackward0", save_self_sizes,
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const OpAttributes& a = ctx.attributes;
      if (GradMode::is_enabled()) {
        // create_graph: scatter with a (size, length) 0/1 matrix, placement[start + k * step][k] = 1.
        const int64_t length = grad.size(a.dim);
        const Tensor rows = arange(self_sizes[a.dim], kLong).unsqueeze(1);
        const Tensor targets = (arange(length, kLong) * a.step + a.start).unsqueeze(0);
        const Tensor placement = rows.eq(targets).to(grad.scalar_type());
        const int64_t last = grad.dim() - 1;
        return {grad.transpose(a.dim, last).matmul(placement.t()).transpose(a.dim, last)};
      }
      Tensor result = zeros(self_sizes, grad.options());
      result.slice(a.dim, a.start, a.end, a.step).copy_(grad);
      return {result};
    },
    true});
}  // namespace

}  // namespace tinytorch
