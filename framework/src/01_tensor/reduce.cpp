// Reductions' public face: argument checks, dim wrapping, output dtypes and the autograd record.
// The reduction loops themselves are the learner's (reductions.cpp).
#include <algorithm>

#include "internal.h"
#include "runtime/fast_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// Wrapped, checked, unique dims; an empty list means every dim (PyTorch's sum(dim=[]) in 1.13).
std::vector<int64_t> reduction_dims(const Tensor& self, IntArrayRef dims) {
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) {
    const int64_t w = maybe_wrap_dim(d, self.dim());
    TT_CHECK(std::find(wrapped.begin(), wrapped.end(), w) == wrapped.end(), "dim ", w,
             " appears multiple times in the list of dims");
    wrapped.push_back(w);
  }
  if (self.dim() == 0) return {};  // a 0-dim tensor has no dim to reduce: dims -1 and 0 mean "itself"
  if (wrapped.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) wrapped.push_back(d);
  }
  std::sort(wrapped.begin(), wrapped.end());
  return wrapped;
}

// Sum of integers or bools is int64, as in PyTorch; floating sums keep their dtype.
ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return isIntegralType(self.scalar_type(), true) ? kLong : self.scalar_type();
}

ScalarType mean_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) {
    TT_CHECK(isFloatingType(*dtype), "mean(): could not infer output dtype. Optional dtype must be either a floating "
                                     "point or complex dtype. Got: ", toString(*dtype));
    return *dtype;
  }
  TT_CHECK(isFloatingType(self.scalar_type()), "mean(): could not infer output dtype. Input dtype must be either a "
                                               "floating point or complex dtype. Got: ", toString(self.scalar_type()));
  return self.scalar_type();
}

OpAttributes reduction_attributes(IntArrayRef dims, bool keepdim) {
  OpAttributes attributes;
  attributes.dims = dims;
  attributes.keepdim = keepdim;
  return attributes;
}

// All elements as one flat contiguous dim (no record: an internal view).
Tensor flat(const Tensor& self) {
  const Tensor contiguous = detail::as_contiguous(self, self.scalar_type());
  return native::make_view(contiguous, {contiguous.numel()}, {1}, contiguous.storage_offset());
}

// The learner's loops run over the computation types (bool, int64, float, double): narrow dtypes
// are widened for them (int64 for the small integers, float for Half and BFloat16) and the
// result converted back, as LibTorch accumulates Half in float.
Tensor sum_in_computation_type(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype) {
  const ScalarType compute_type = detail::computation_type(out_dtype);
  if (compute_type == out_dtype) return native::sum(self, dims, keepdim, out_dtype);
  return detail::as_dtype(native::sum(self, dims, keepdim, compute_type), out_dtype);
}

Tensor mean_in_computation_type(const Tensor& self, IntArrayRef dims, bool keepdim, ScalarType out_dtype) {
  const ScalarType compute_type = detail::computation_type(out_dtype);
  if (compute_type == out_dtype) return native::mean(self, dims, keepdim, out_dtype);
  return detail::as_dtype(native::mean(self, dims, keepdim, compute_type), out_dtype);
}

std::tuple<Tensor, Tensor> max_min_in_computation_type(const Tensor& self, int64_t dim, bool keepdim, bool find_max) {
  const ScalarType compute_type = detail::computation_type(self.scalar_type());
  if (compute_type == self.scalar_type()) return native::max_min_dim(self, dim, keepdim, find_max);
  auto [values, indices] = native::max_min_dim(detail::as_dtype(self, compute_type), dim, keepdim, find_max);
  return {detail::as_dtype(values, self.scalar_type()), indices};
}

}  // namespace

Tensor Tensor::sum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  const std::vector<int64_t> dims = reduction_dims(*this, dim);
  const ScalarType out_dtype = sum_dtype(*this, dtype);
  // Module 17's, in builds that have it; it sums the computation types only.
  const auto fast_sum = detail::computation_type(out_dtype) == out_dtype ? detail::fast_kernels().sum : nullptr;
  Tensor result;
  if (on_device(*this)) {  // module 22's kernel for the device (tinytorch/dispatch.h)
    result = device_kernel<Tensor(const Tensor&, const std::vector<int64_t>&, bool, ScalarType)>("sum", *this)(
        *this, dims, keepdim, out_dtype);
  } else if (fast_sum != nullptr) {
    result = fast_sum(*this, dims, keepdim, out_dtype);
  }
  if (!result.defined()) result = sum_in_computation_type(*this, dims, keepdim, out_dtype);
  static OpHandle sum_dim_intlist_op("sum.dim_IntList");
  record_op(sum_dim_intlist_op, {*this}, {result}, reduction_attributes(dims, keepdim));
  return result;
}

// sum() and sum(dims) have different nodes in LibTorch (SumBackward0, SumBackward1); both are
// module 06's to write (06_autograd/gradient_rules.cpp).
Tensor Tensor::sum(std::optional<ScalarType> dtype) const {
  Tensor result;
  {
    AutoGradMode one_record(false);
    result = sum(IntArrayRef(), false, dtype);
  }
  static OpHandle sum_op("sum");
  record_op(sum_op, {*this}, {result});
  return result;
}

Tensor Tensor::mean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  const ScalarType out_dtype = mean_dtype(*this, dtype);
  const std::vector<int64_t> dims = reduction_dims(*this, dim);
  Tensor result;
  if (on_device(*this)) {  // the device's sum, divided by the count: LibTorch's mean is sum / n too
    NoGradGuard one_record;
    int64_t count = 1;
    for (int64_t d : dims) count *= size(d);
    if (dims.empty()) count = numel();
    result = sum(dims, keepdim, out_dtype).div(static_cast<double>(count));
  } else {
    result = mean_in_computation_type(*this, dims, keepdim, out_dtype);
  }
  static OpHandle mean_dim_op("mean.dim");
  record_op(mean_dim_op, {*this}, {result}, reduction_attributes(dims, keepdim));
  return result;
}

Tensor Tensor::mean(std::optional<ScalarType> dtype) const {
  Tensor result;
  {
    AutoGradMode one_record(false);
    result = mean(IntArrayRef(), false, dtype);
  }
  static OpHandle mean_op("mean");
  record_op(mean_op, {*this}, {result});
  return result;
}

namespace {
// Every element contributed 1/count of the mean: the gradient spread evenly over self's shape.
const RegisterDerivative mean_derivative("mean", {
    "MeanBackward0", [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      return {ctx.grad().expand(self_sizes) / static_cast<double>(product(self_sizes))};
    }});

// A reduced gradient with the reduced dims put back (size 1), ready to broadcast against self.
Tensor unsqueeze_reduced(Tensor grad, IntArrayRef dims, bool keepdim) {
  if (!keepdim) {
    for (int64_t d : dims) grad = grad.unsqueeze(d);
  }
  return grad;
}

const RegisterDerivative mean_dims_derivative("mean.dim", {
    "MeanBackward1", [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      int64_t count = 1;
      for (int64_t d : ctx.attributes.dims) count *= self_sizes[d];
      return {unsqueeze_reduced(ctx.grad(), ctx.attributes.dims, ctx.attributes.keepdim).expand(self_sizes) /
              static_cast<double>(count)};
    }});
}  // namespace

std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  Tensor values, indices;
  if (this->dim() == 0) {  // the one element is its own max, at index 0
    values = detail::as_contiguous(*this, scalar_type()).clone();
    indices = zeros({}, kLong);
  } else {
    TT_CHECK(size(d) > 0, "max(): Expected reduction dim ", d, " to have non-zero size.");
    std::tie(values, indices) = max_min_in_computation_type(*this, d, keepdim, /*find_max=*/true);
  }
  OpAttributes attributes;
  attributes.dim = d;
  attributes.keepdim = keepdim;
  static OpHandle max_dim_op("max.dim");
  record_op(max_dim_op, {*this}, {values, indices}, attributes);
  return {values, indices};
}

namespace {
// max(dim) and min(dim): the gradient goes to the position each extreme came from (the saved index).
void save_indices(SaveForBackward& save) {
  save.output(1);  // indices (int64: no history)
  save.input_sizes(0);
}
tensor_list index_backward(const BackwardContext& ctx) {
  const IntArrayRef self_sizes = ctx.saved_sizes(0);
  if (self_sizes.empty()) return {ctx.grad()};  // a 0-dim input is its own extreme
  const int64_t dim = ctx.attributes.dim;
  const bool keepdim = ctx.attributes.keepdim;
  const Tensor grad = unsqueeze_reduced(ctx.grad(), {dim}, keepdim);
  const Tensor index = unsqueeze_reduced(ctx.saved(0), {dim}, keepdim);
  std::vector<int64_t> along_dim(self_sizes.size(), 1);
  along_dim[dim] = self_sizes[dim];
  const Tensor positions = arange(self_sizes[dim], kLong).view(along_dim);
  return {grad * positions.eq(index).to(grad.scalar_type())};
}
const RegisterDerivative max_dim_derivative("max.dim", {"MaxBackward0", save_indices, index_backward});
const RegisterDerivative min_dim_derivative("min.dim", {"MinBackward0", save_indices, index_backward});
}  // namespace

std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  Tensor values, indices;
  if (this->dim() == 0) {
    values = detail::as_contiguous(*this, scalar_type()).clone();
    indices = zeros({}, kLong);
  } else {
    TT_CHECK(size(d) > 0, "min(): Expected reduction dim ", d, " to have non-zero size.");
    std::tie(values, indices) = max_min_in_computation_type(*this, d, keepdim, /*find_max=*/false);
  }
  OpAttributes attributes;
  attributes.dim = d;
  attributes.keepdim = keepdim;
  static OpHandle min_dim_op("min.dim");
  record_op(min_dim_op, {*this}, {values, indices}, attributes);
  return {values, indices};
}

Tensor Tensor::max() const {
  TT_CHECK(numel() > 0, "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                        "dim with the 'dim' argument.");
  Tensor values = std::get<0>(max_min_in_computation_type(flat(*this), 0, false, /*find_max=*/true));
  static OpHandle max_op("max");
  record_op(max_op, {*this}, {values});
  return values;
}

Tensor Tensor::min() const {
  TT_CHECK(numel() > 0, "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction "
                        "dim with the 'dim' argument.");
  Tensor values = std::get<0>(max_min_in_computation_type(flat(*this), 0, false, /*find_max=*/false));
  static OpHandle min_op("min");
  record_op(min_op, {*this}, {values});
  return values;
}

namespace {
// max() or min() of all elements: ties share the gradient evenly (LibTorch's evenly_distribute_backward).
void save_self_and_result(SaveForBackward& save) {
  save.input(0);
  save.output(0);
}
tensor_list evenly_distribute(const BackwardContext& ctx) {
  const Tensor is_extreme = ctx.saved(0).eq(ctx.saved(1)).to(ctx.grad().scalar_type());
  return {ctx.grad() * is_extreme / is_extreme.sum()};
}
const RegisterDerivative max_derivative("max", {"MaxBackward1", save_self_and_result, evenly_distribute});
const RegisterDerivative min_derivative("min", {"MinBackward1", save_self_and_result, evenly_distribute});
}  // namespace

namespace {
// argmax/argmin: the indices of max_min_dim; without a dim, over all elements flattened.
Tensor arg_extremum(const Tensor& self, std::optional<int64_t> dim, bool keepdim, bool find_max) {
  const char* name = find_max ? "argmax" : "argmin";
  if (!dim) {
    TT_CHECK(self.numel() > 0, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
    Tensor indices = std::get<1>(max_min_in_computation_type(flat(self), 0, false, find_max));
    if (!keepdim) return indices;
    return native::make_view(indices, std::vector<int64_t>(self.dim(), 1), std::vector<int64_t>(self.dim(), 1), 0);
  }
  const int64_t d = maybe_wrap_dim(*dim, self.dim());
  if (self.dim() == 0) return zeros({}, kLong);
  TT_CHECK(self.size(d) > 0, name, "(): Expected reduction dim ", d, " to have non-zero size.");
  return std::get<1>(max_min_in_computation_type(self, d, keepdim, find_max));
}
}  // namespace

Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const { return arg_extremum(*this, dim, keepdim, true); }
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const { return arg_extremum(*this, dim, keepdim, false); }

}  // namespace tinytorch
