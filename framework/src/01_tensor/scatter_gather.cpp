// Gather, scatter and index_add (given code), next to index_select (masks.cpp): the ops that read or
// write a tensor at positions held in another tensor. They live with the tensor's other indexing ops
// because every later module reaches for them (one_hot targets, picking each row's label logit,
// top-k sampling, the embedding gradient's scatter-add that module 11 writes by hand).
//
//   gather:      out[i][j] = self[i][index[i][j]]            (dim 1; out has index's shape)
//   scatter:     self[i][index[i][j]] = src[i][j]            (the last write wins where indices repeat)
//   scatter_add: self[i][index[i][j]] += src[i][j]           (repeated indices accumulate)
//   index_add:   self.select(dim, index[k]) += alpha * source.select(dim, k)
// Gradients: gather's is a scatter_add into zeros (GatherBackward0); scatter's goes to src by a
// gather and to self everywhere it was not overwritten (ScatterBackward0/1); scatter_add and
// index_add pass grad to self unchanged and gather/index_select it for src.
#include <cstring>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// Every position of `index` (any rank, row-major), with the flat offsets it maps to in two
// contiguous tensors of (possibly larger) sizes: along `dim` the offset uses index's value instead
// of the position. Calls visit(index_position, self_offset, other_offset); other may be undefined.
template <typename Visit>
void for_each_index(const Tensor& index, int64_t dim, IntArrayRef self_sizes, IntArrayRef other_sizes,
                    Visit visit) {
  const Tensor positions = index.contiguous();
  const int64_t* picked = positions.data_ptr<int64_t>();
  const int64_t dims = index.dim();
  auto strides_of = [dims](IntArrayRef sizes) {
    std::vector<int64_t> strides(static_cast<size_t>(dims), 1);
    for (int64_t d = dims - 2; d >= 0; --d) strides[d] = strides[d + 1] * sizes[d + 1];
    return strides;
  };
  const std::vector<int64_t> self_strides = strides_of(self_sizes);
  const std::vector<int64_t> other_strides = other_sizes.empty() ? self_strides : strides_of(other_sizes);
  std::vector<int64_t> coordinate(static_cast<size_t>(dims), 0);
  const int64_t size_along = dims == 0 ? 1 : self_sizes[dim];
  for (int64_t i = 0; i < positions.numel(); ++i) {
    const int64_t at = picked[i];
    TT_CHECK(at >= 0 && at < size_along, "index ", at, " is out of bounds for dimension ", dim, " with size ",
             size_along);
    int64_t self_offset = 0, other_offset = 0;
    for (int64_t d = 0; d < dims; ++d) {
      self_offset += (d == dim ? at : coordinate[d]) * self_strides[d];
      other_offset += coordinate[d] * other_strides[d];
    }
    visit(i, self_offset, other_offset);
    for (int64_t d = dims - 1; d >= 0; --d) {  // the next position, last dim fastest
      if (++coordinate[d] < index.size(d)) break;
      coordinate[d] = 0;
    }
  }
}

// index must not be larger than self apart from dim (gather), nor than src anywhere (scatter).
void check_gather_shapes(const Tensor& self, int64_t dim, const Tensor& index) {
  TT_CHECK(index.scalar_type() == kLong, "gather(): Expected dtype int64 for index");
  TT_CHECK(index.dim() == self.dim() || (index.dim() <= 1 && self.dim() <= 1),
           "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (d == dim) continue;
    TT_CHECK(index.size(d) <= self.size(d), "Size does not match at dimension ", d, " expected index ",
             index.sizes(), " to be smaller than self ", self.sizes(), " apart from dimension ", dim);
  }
}

void check_scatter_shapes(const char* op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  TT_CHECK(index.scalar_type() == kLong, op, "(): Expected dtype int64 for index");
  TT_CHECK(!src.defined() || self.scalar_type() == src.scalar_type(), op,
           "(): Expected self.dtype to be equal to src.dtype");
  TT_CHECK(index.dim() == self.dim() || (index.dim() <= 1 && self.dim() <= 1),
           "Index tensor must have the same number of dimensions as self tensor");
  TT_CHECK(!src.defined() || index.dim() == src.dim() || (index.dim() <= 1 && src.dim() <= 1),
           "Index tensor must have the same number of dimensions as src tensor");
  for (int64_t d = 0; d < index.dim(); ++d) {
    const bool fits_self = d == dim || index.size(d) <= self.size(d);
    const bool fits_src = !src.defined() || index.size(d) <= src.size(d);
    if (src.defined()) {
      TT_CHECK(fits_self && fits_src, "Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", dim, " and to be smaller size than src ", src.sizes());
    } else {
      TT_CHECK(fits_self, "Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
               " apart from dimension ", dim);
    }
  }
}

int64_t wrap(int64_t dim, const Tensor& self) { return maybe_wrap_dim(dim, std::max<int64_t>(self.dim(), 1)); }

// The kernels, into a contiguous result; none records (the public ops below do).
Tensor gather_kernel(const Tensor& self, int64_t dim, const Tensor& index) {
  const Tensor source = self.contiguous();
  Tensor result = empty(index.sizes(), self.scalar_type());
  TT_DISPATCH_STORAGE_TYPES(self.scalar_type(), "gather", [&] {
    const scalar_t* in = source.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for_each_index(index, dim, self.sizes(), result.sizes(),
                   [&](int64_t, int64_t self_offset, int64_t out_offset) { out[out_offset] = in[self_offset]; });
  });
  return result;
}

enum class ScatterMode { Assign, Add };

// self's values with src (or `value` where src is undefined) written at index; Add accumulates.
Tensor scatter_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Scalar& value,
                      ScatterMode mode) {
  Tensor result = self.clone();
  const Tensor values = src.defined() ? src.contiguous() : Tensor();
  const std::vector<int64_t> src_sizes = src.defined() ? src.sizes().vec() : std::vector<int64_t>();
  TT_DISPATCH_STORAGE_TYPES(self.scalar_type(), "scatter", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = values.defined() ? values.data_ptr<scalar_t>() : nullptr;
    const scalar_t fill = value.to<scalar_t>();
    for_each_index(index, dim, self.sizes(), src_sizes, [&](int64_t, int64_t self_offset, int64_t src_offset) {
      const scalar_t v = in != nullptr ? in[src_offset] : fill;
      if (mode == ScatterMode::Add) {
        out[self_offset] = static_cast<scalar_t>(out[self_offset] + v);
      } else {
        out[self_offset] = v;
      }
    });
  });
  return result;
}

void check_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  TT_CHECK(index.dim() <= 1, "index_add_(): Index is supposed to be a vector, but got dim: ", index.dim(),
           " with type: ", toString(index.scalar_type()), " and size: ", index.sizes());
  TT_CHECK(index.scalar_type() == kLong, "index_add_(): Expected dtype int32/int64 for index but got: ",
           toString(index.scalar_type()));
  TT_CHECK(self.scalar_type() == source.scalar_type(), "index_add_(): self (", toString(self.scalar_type()),
           ") and source (", toString(source.scalar_type()), ") must have the same scalar type");
  TT_CHECK(dim == 0 || dim < source.dim(), "index_add_(): Indexing dim ", dim,
           " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t along = source.dim() == 0 ? 1 : source.size(dim);
  TT_CHECK(index.numel() == along, "index_add_(): Number of indices (", index.numel(),
           ") should be equal to source.size(dim): (", along, "), for dim: ", dim);
  if (source.dim() > 0 && self.dim() > 0) {
    TT_CHECK(source.dim() == self.dim(), "index_add_(): source (", source.sizes(), ") and self (", self.sizes(),
             ") must have the same number of dimensions");
    for (int64_t d = 0; d < self.dim(); ++d) {
      if (d == dim) continue;
      // LibTorch adds slice to slice, so it names the dimension within a slice (dim removed).
      TT_CHECK(self.size(d) == source.size(d), "The size of tensor a (", self.size(d),
               ") must match the size of tensor b (", source.size(d), ") at non-singleton dimension ",
               d > dim ? d - 1 : d);
    }
  }
}

// self + alpha * (source's slices added into the slices index picks), as a new tensor.
Tensor index_add_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                        const Scalar& alpha) {
  Tensor result = self.clone();
  const Tensor positions = index.reshape({-1}).contiguous();
  const int64_t* picked = positions.data_ptr<int64_t>();
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  for (int64_t k = 0; k < positions.numel(); ++k) {
    TT_CHECK(picked[k] >= 0 && picked[k] < size, "index out of range in self");
  }
  // Viewed as (outer, size, inner): slice k of source is added to slice index[k] of result.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < dim) outer *= self.size(d);
    if (d > dim) inner *= self.size(d);
  }
  const Tensor values = source.contiguous();
  const int64_t count = positions.numel();
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "index_add_cpu_", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    const scalar_t* in = values.data_ptr<scalar_t>();
    const scalar_t scale = alpha.to<scalar_t>();
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < count; ++k) {
        scalar_t* to = out + (o * size + picked[k]) * inner;
        const scalar_t* from = in + (o * count + k) * inner;
        for (int64_t j = 0; j < inner; ++j) to[j] += scale * from[j];
      }
    }
  });
  return result;
}

// Shared by the in-place forms: checks, runs `kernel` into self and records `op` as in place.
template <typename Kernel>
Tensor& write_in_place(Tensor& self, const OpHandle& op, std::initializer_list<Tensor> inputs,
                       const OpAttributes& attributes, Kernel kernel) {
  check_in_place(op, inputs);
  detail::check_no_internal_overlap(self);
  Tensor result;
  {
    NoGradGuard no_record;  // the kernels record nothing, but clone() inside them would
    result = kernel();
  }
  detail::copy_into(self, result);
  record_in_place_op(op, inputs, attributes);
  return self;
}

OpAttributes along(int64_t dim, const Scalar& alpha = 1) {
  OpAttributes attributes;
  attributes.dim = dim;
  attributes.alpha = alpha;
  return attributes;
}

OpHandle gather_op("gather");
OpHandle scatter_src_op("scatter.src");
OpHandle scatter_value_op("scatter.value");
OpHandle scatter_add_op("scatter_add");
OpHandle index_add_op("index_add");

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  TT_CHECK(!sparse_grad, "gather: sparse_grad=true asks for a sparse gradient, and TinyTorch has no sparse tensors: "
           "use sparse_grad=false (the default)");
  const int64_t d = wrap(dim, self);
  check_gather_shapes(self, d, index);
  Tensor result;
  {
    NoGradGuard no_record;
    result = gather_kernel(self, d, index);
  }
  record_op(gather_op, {self, index}, {result}, along(d));
  return result;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = wrap(dim, self);
  check_scatter_shapes("scatter", self, d, index, src);
  Tensor result;
  {
    NoGradGuard no_record;
    result = scatter_kernel(self, d, index, src, 0, ScatterMode::Assign);
  }
  record_op(scatter_src_op, {self, index, src}, {result}, along(d));
  return result;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = wrap(dim, self);
  check_scatter_shapes("scatter", self, d, index, Tensor());
  Tensor result;
  {
    NoGradGuard no_record;
    result = scatter_kernel(self, d, index, Tensor(), value, ScatterMode::Assign);
  }
  record_op(scatter_value_op, {self, index}, {result}, along(d));
  return result;
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = wrap(dim, self);
  check_scatter_shapes("scatter", self, d, index, src);
  Tensor result;
  {
    NoGradGuard no_record;
    result = scatter_kernel(self, d, index, src, 0, ScatterMode::Add);
  }
  record_op(scatter_add_op, {self, index, src}, {result}, along(d));
  return result;
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const int64_t d = wrap(dim, self);
  check_index_add(self, d, index, source);
  Tensor result;
  {
    NoGradGuard no_record;
    result = index_add_kernel(self, d, index, source, alpha);
  }
  record_op(index_add_op, {self, index, source}, {result}, along(d, alpha));
  return result;
}

Tensor one_hot(const Tensor& self, int64_t num_classes) {
  TT_CHECK(self.scalar_type() == kLong, "one_hot is only applicable to index tensor.");
  const Tensor classes = self.contiguous();
  const int64_t* value = classes.data_ptr<int64_t>();
  int64_t largest = -1;
  for (int64_t i = 0; i < classes.numel(); ++i) {
    TT_CHECK(value[i] >= 0, "Class values must be non-negative.");
    largest = std::max(largest, value[i]);
  }
  if (num_classes == -1) {
    TT_CHECK(classes.numel() > 0, "Can not infer total number of classes from empty tensor.");
    num_classes = largest + 1;
  } else {
    TT_CHECK(num_classes > largest && num_classes >= 0, "Class values must be smaller than num_classes.");
  }
  std::vector<int64_t> sizes = self.sizes().vec();
  sizes.push_back(num_classes);
  Tensor result = zeros(sizes, kLong);
  int64_t* out = result.data_ptr<int64_t>();
  for (int64_t i = 0; i < classes.numel(); ++i) out[i * num_classes + value[i]] = 1;
  return result;  // integers: no gradient, nothing to record
}

namespace {

// out = self.gather(dim, index): each picked element sends its gradient back where it came from,
// added where an element was picked twice.
const RegisterDerivative gather_derivative("gather", {
    "GatherBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.needs_input_grad(0)) return {Tensor(), Tensor()};
      const Tensor zero = zeros(ctx.saved_sizes(0), ctx.grad().options());
      return {scatter_add(zero, ctx.attributes.dim, ctx.saved(0), ctx.grad()), Tensor()};
    }});

// out = self.scatter(dim, index, src): the overwritten elements of self no longer matter (their
// gradient is 0); src's elements were copied to out, so each gathers its gradient from there.
const RegisterDerivative scatter_src_derivative("scatter.src", {
    "ScatterBackward0",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& index = ctx.saved(0);
      const int64_t dim = ctx.attributes.dim;
      return {ctx.needs_input_grad(0) ? scatter(ctx.grad(), dim, index, 0) : Tensor(), Tensor(),
              ctx.needs_input_grad(2) ? gather(ctx.grad(), dim, index) : Tensor()};
    }});

const RegisterDerivative scatter_value_derivative("scatter.value", {
    "ScatterBackward1",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.needs_input_grad(0) ? scatter(ctx.grad(), ctx.attributes.dim, ctx.saved(0), 0) : Tensor(),
              Tensor()};
    }});

// out = self + (src added at index): self's gradient passes through, src's is gathered.
const RegisterDerivative scatter_add_derivative("scatter_add", {
    "ScatterAddBackward0",
    [](SaveForBackward& save) { save.input(1); },
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.needs_input_grad(0) ? ctx.grad() : Tensor(), Tensor(),
              ctx.needs_input_grad(2) ? gather(ctx.grad(), ctx.attributes.dim, ctx.saved(0)) : Tensor()};
    }});

// out = self + alpha * (source's slices added at index): source's slice k gets alpha times the
// gradient of the slice it was added to.
const RegisterDerivative index_add_derivative("index_add", {
    "IndexAddBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      Tensor grad_source;
      if (ctx.needs_input_grad(2)) {
        const IntArrayRef source_sizes = ctx.saved_sizes(0);
        const Tensor index = ctx.saved(0).reshape({-1});
        grad_source = index_select(ctx.grad(), ctx.attributes.dim, index).mul(ctx.attributes.alpha);
        grad_source = source_sizes.empty() ? grad_source.reshape({}) : grad_source.expand(source_sizes);
      }
      return {ctx.needs_input_grad(0) ? ctx.grad() : Tensor(), Tensor(), grad_source};
    }});

}  // namespace

// ---- Tensor methods ----

Tensor Tensor::gather(int64_t dim, const Tensor& index, bool sparse_grad) const {
  return ::tinytorch::gather(*this, dim, index, sparse_grad);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ::tinytorch::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ::tinytorch::scatter(*this, dim, index, value);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ::tinytorch::scatter_add(*this, dim, index, src);
}
Tensor Tensor::index_add(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) const {
  return ::tinytorch::index_add(*this, dim, index, source, alpha);
}

Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = wrap(dim, *this);
  check_scatter_shapes("scatter", *this, d, index, src);
  return write_in_place(*this, scatter_src_op, {*this, index, src}, along(d),
                        [&] { return scatter_kernel(*this, d, index, src, 0, ScatterMode::Assign); });
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = wrap(dim, *this);
  check_scatter_shapes("scatter", *this, d, index, Tensor());
  return write_in_place(*this, scatter_value_op, {*this, index}, along(d),
                        [&] { return scatter_kernel(*this, d, index, Tensor(), value, ScatterMode::Assign); });
}
Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = wrap(dim, *this);
  check_scatter_shapes("scatter", *this, d, index, src);
  return write_in_place(*this, scatter_add_op, {*this, index, src}, along(d),
                        [&] { return scatter_kernel(*this, d, index, src, 0, ScatterMode::Add); });
}
Tensor& Tensor::index_add_(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const int64_t d = wrap(dim, *this);
  check_index_add(*this, d, index, source);
  return write_in_place(*this, index_add_op, {*this, index, source}, along(d, alpha),
                        [&] { return index_add_kernel(*this, d, index, source, alpha); });
}

}  // namespace tinytorch
