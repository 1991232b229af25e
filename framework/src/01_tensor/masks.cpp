// Selecting with masks and index tensors (given code): nonzero, where, index_select and what is
// composed of them (masked_fill, masked_select, x.index({mask}) in indexing.cpp). Two primitives
// carry derivatives, where and index_select; everything else is made of them and of views, so it
// differentiates for free.
#include <algorithm>
#include <cstring>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// The bytes of one element of `t` at flat position i of a contiguous tensor.
char* element(const Tensor& t, int64_t i) { return static_cast<char*>(t.data_ptr()) + i * t.element_size(); }

void check_mask(const Tensor& mask, const char* op) {
  TT_CHECK(mask.scalar_type() == kBool, op, " expected a mask of dtype Bool but got ", toString(mask.scalar_type()),
           ": build it with a comparison (x > 0) or .to(torch::kBool)");
}

}  // namespace

// (n, self.dim()) Long: the coordinates of the n elements that are not zero, in row-major order.
Tensor nonzero(const Tensor& self) {
  const Tensor is_set = (self.scalar_type() == kBool ? self : self.ne(0)).contiguous();
  const bool* set = is_set.data_ptr<bool>();
  int64_t count = 0;
  for (int64_t i = 0; i < is_set.numel(); ++i) count += set[i] ? 1 : 0;
  const int64_t dims = self.dim();
  Tensor result = empty({count, dims}, kLong);
  int64_t* out = result.data_ptr<int64_t>();
  std::vector<int64_t> coordinate(static_cast<size_t>(dims), 0);
  for (int64_t i = 0; i < is_set.numel(); ++i) {
    if (set[i]) {
      for (int64_t d = 0; d < dims; ++d) *out++ = coordinate[static_cast<size_t>(d)];
    }
    for (int64_t d = dims - 1; d >= 0; --d) {  // the next coordinate, last dim fastest
      if (++coordinate[static_cast<size_t>(d)] < self.size(d)) break;
      coordinate[static_cast<size_t>(d)] = 0;
    }
  }
  return result;
}

// out[i] = condition[i] ? self[i] : other[i], all three broadcast together; dtypes promote as self + other.
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  check_mask(condition, "where");
  const std::vector<int64_t> shape = infer_size(infer_size(condition.sizes(), self.sizes()), other.sizes());
  const ScalarType dtype = result_type(self, other);
  const Tensor cond = condition.expand(shape).contiguous();
  const Tensor a = self.to(dtype).expand(shape).contiguous();
  const Tensor b = other.to(dtype).expand(shape).contiguous();
  Tensor result = empty(shape, dtype);
  const bool* take_a = cond.data_ptr<bool>();
  const size_t bytes = static_cast<size_t>(result.element_size());
  for (int64_t i = 0; i < result.numel(); ++i) std::memcpy(element(result, i), element(take_a[i] ? a : b, i), bytes);
  static OpHandle where_op("where");
  record_op(where_op, {condition, self, other}, {result});
  return result;
}

Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return where(condition, detail::wrapped_scalar(self), other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return where(condition, self, detail::wrapped_scalar(other));
}

// Two numbers give the default dtype of their kind: float numbers kFloat, integers kLong, bools kBool.
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  const bool floating = self.isFloatingPoint() || other.isFloatingPoint();
  const bool both_bool = self.isBoolean() && other.isBoolean();
  const ScalarType dtype = floating ? kFloat : (both_bool ? kBool : kLong);
  return where(condition, scalar_tensor(self, dtype), scalar_tensor(other, dtype));
}

std::vector<Tensor> where(const Tensor& condition) { return nonzero(condition).unbind(1); }

namespace {
// The gradient goes to the side each element was taken from.
const RegisterDerivative where_derivative("where", {
    "WhereBackward0",
    [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& condition = ctx.saved(0);
      const Tensor zero = zeros({}, ctx.grad().options());
      return {Tensor(), ctx.needs_input_grad(1) ? where(condition, ctx.grad(), zero) : Tensor(),
              ctx.needs_input_grad(2) ? where(condition, zero, ctx.grad()) : Tensor()};
    }});
}  // namespace

// The slices index[0], index[1], ... of self along dim, stacked along dim.
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  TT_CHECK(index.scalar_type() == kLong, "index_select(): Expected dtype int64 for index");
  TT_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  const Tensor source = self.contiguous();
  const Tensor positions = index.contiguous();
  const int64_t* picked = positions.data_ptr<int64_t>();
  const int64_t size = self.dim() == 0 ? 1 : self.size(d);
  std::vector<int64_t> out_sizes = self.sizes().vec();
  if (self.dim() > 0) out_sizes[d] = positions.numel();
  Tensor result = empty(out_sizes, self.scalar_type());
  // Viewed as (outer, size, inner): each pick copies `inner` contiguous elements per outer row.
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (k < d) outer *= self.size(k);
    if (k > d) inner *= self.size(k);
  }
  const size_t row_bytes = static_cast<size_t>(inner * self.element_size());
  for (int64_t i = 0; i < positions.numel(); ++i) {
    // LibTorch's index_select takes no negative positions (Tensor::index wraps them before calling it).
    const int64_t at = picked[i];
    TT_CHECK(at >= 0 && at < size, "index out of range in self");
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(element(result, (o * positions.numel() + i) * inner), element(source, (o * size + at) * inner),
                  row_bytes);
    }
  }
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle index_select_op("index_select");
  record_op(index_select_op, {self, index}, {result}, attributes);
  return result;
}

namespace {
// Each picked slice sends its gradient back to where it came from; picked twice, it gets both.
const RegisterDerivative index_select_derivative("index_select", {
    "IndexSelectBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.needs_input_grad(0)) return {Tensor(), Tensor()};
      const Tensor positions = ctx.saved(0).contiguous();
      const int64_t dim = ctx.attributes.dim;
      const IntArrayRef sizes = ctx.saved_sizes(0);
      Tensor grad_self = zeros(sizes, ctx.grad().options());
      if (sizes.empty()) return {grad_self + ctx.grad().sum(), Tensor()};
      const int64_t* picked = positions.data_ptr<int64_t>();
      for (int64_t i = 0; i < positions.numel(); ++i) {
        const int64_t at = picked[i] < 0 ? picked[i] + sizes[dim] : picked[i];
        grad_self.select(dim, at).add_(ctx.grad().select(dim, i));
      }
      return {grad_self, Tensor()};
    }});
}  // namespace

// self with value wherever mask is true (mask broadcast to self's shape).
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check_mask(mask, "masked_fill_");
  return where(mask, scalar_tensor(value, self.scalar_type()), self);
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_mask(mask, "masked_fill_");
  TT_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.dim(), " dimension(s).");
  return where(mask, value.to(self.scalar_type()), self);
}

// The elements of self where mask is true (the two broadcast together), as a 1-D tensor.
Tensor masked_select(const Tensor& self, const Tensor& mask) {
  check_mask(mask, "masked_select");
  const std::vector<int64_t> shape = infer_size(self.sizes(), mask.sizes());
  const Tensor positions = nonzero(mask.expand(shape).reshape({-1})).squeeze(1);
  return index_select(self.expand(shape).reshape({-1}), 0, positions);
}

Tensor Tensor::nonzero() const { return ::tinytorch::nonzero(*this); }
Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return ::tinytorch::index_select(*this, dim, index);
}
Tensor Tensor::masked_select(const Tensor& mask) const { return ::tinytorch::masked_select(*this, mask); }
Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& value) const {
  return ::tinytorch::masked_fill(*this, mask, value);
}
Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
  return ::tinytorch::masked_fill(*this, mask, value);
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& value) {
  check_mask(mask, "masked_fill_");
  TT_CHECK(infer_size(sizes(), mask.sizes()) == sizes().vec(), "masked_fill_: the mask of shape ", mask.sizes(),
           " does not broadcast to the tensor's shape ", sizes(), " (an in-place op keeps the tensor's shape)");
  return copy_(::tinytorch::masked_fill(*this, mask, value));
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Tensor& value) {
  check_mask(mask, "masked_fill_");
  TT_CHECK(infer_size(sizes(), mask.sizes()) == sizes().vec(), "masked_fill_: the mask of shape ", mask.sizes(),
           " does not broadcast to the tensor's shape ", sizes(), " (an in-place op keeps the tensor's shape)");
  return copy_(::tinytorch::masked_fill(*this, mask, value));
}
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return ::tinytorch::where(condition, *this, other);
}

}  // namespace tinytorch
