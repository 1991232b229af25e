// LibTorch's remaining reductions and scans (given code): order statistics (median, nanmedian,
// kthvalue, mode) and aminmax; NaN-skipping sums and means; counting (count_nonzero, all/any along a
// dim, bincount, histc); diff, renorm; the scans cumprod, cummax/cummin, logcumsumexp; std_mean,
// var_mean and the unique family. Kernels work on "lines": the tensor with the reduced dim moved
// last and made contiguous, one line per output element. Each differentiable kernel records
// itself with its LibTorch node name; the others are composed of differentiable ops.
#include "tinytorch/reductions_scans.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// A tensor's elements regrouped as `count` contiguous lines of `length` along one dim.
struct Lines {
  Tensor data;                      // (count, length) contiguous, in the computation dtype
  int64_t count = 1;
  int64_t length = 1;
  std::vector<int64_t> permutation;  // the dims of self in the order `data` holds them (dim last)
  std::vector<int64_t> moved_sizes;
};

Lines lines_along(const Tensor& self, int64_t dim, ScalarType dtype) {
  Lines lines;
  Tensor moved = self;
  if (self.dim() > 0) {
    for (int64_t k = 0; k < self.dim(); ++k) {
      if (k != dim) lines.permutation.push_back(k);
    }
    lines.permutation.push_back(dim);
    moved = native::permute(self, lines.permutation);
    lines.length = self.size(dim);
  }
  lines.moved_sizes = moved.sizes().vec();
  lines.data = detail::as_contiguous(moved, dtype);
  lines.count = 1;
  for (size_t k = 0; k + 1 < lines.moved_sizes.size(); ++k) lines.count *= lines.moved_sizes[k];
  return lines;
}

// A tensor laid out like `lines` (dim last) put back in self's dim order, contiguous.
Tensor from_lines(const Lines& lines, const Tensor& moved_result) {
  if (lines.permutation.empty()) return moved_result;
  std::vector<int64_t> inverse(lines.permutation.size());
  for (size_t k = 0; k < lines.permutation.size(); ++k) inverse[lines.permutation[k]] = static_cast<int64_t>(k);
  const Tensor back = native::permute(moved_result, inverse);
  return detail::as_contiguous(back, back.scalar_type());
}

// self's sizes with dim removed, or kept as 1.
std::vector<int64_t> reduced_sizes(const Tensor& self, int64_t dim, bool keepdim) {
  std::vector<int64_t> sizes = self.sizes().vec();
  if (self.dim() == 0) return sizes;
  if (keepdim) {
    sizes[dim] = 1;
  } else {
    sizes.erase(sizes.begin() + dim);
  }
  return sizes;
}

// Wrapped, sorted, unique dims; nullopt or an empty list means every dim.
std::vector<int64_t> dims_or_all(const Tensor& self, IntArrayRef dim) {
  std::vector<int64_t> wrapped;
  for (int64_t d : dim) wrapped.push_back(maybe_wrap_dim(d, self.dim()));
  if (self.dim() == 0) return {};
  if (wrapped.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) wrapped.push_back(d);
  }
  std::sort(wrapped.begin(), wrapped.end());
  wrapped.erase(std::unique(wrapped.begin(), wrapped.end()), wrapped.end());
  return wrapped;
}

// A reduced gradient with the reduced dims put back (size 1), ready to broadcast against self.
Tensor unsqueeze_reduced(Tensor grad, IntArrayRef dims, bool keepdim) {
  if (!keepdim) {
    for (int64_t d : dims) grad = grad.unsqueeze(d);
  }
  return grad;
}

OpAttributes dim_attributes(int64_t dim, bool keepdim) {
  OpAttributes attributes;
  attributes.dim = dim;
  attributes.keepdim = keepdim;
  return attributes;
}

// Order statistics of one line: `pick(line, length, value, index)` chooses the value and where it was.
template <typename Pick>
std::tuple<Tensor, Tensor> select_along(const Tensor& self, int64_t dim, bool keepdim, const char* kernel_name,
                                        Pick pick) {
  const ScalarType compute = detail::computation_type(self.scalar_type());
  const Lines lines = lines_along(self, dim, compute);
  Tensor values = empty(reduced_sizes(self, dim, keepdim), compute);
  Tensor indices = empty(reduced_sizes(self, dim, keepdim), kLong);
  TT_DISPATCH_NUMERIC_TYPES(compute, kernel_name, [&] {
    const scalar_t* in = lines.data.data_ptr<scalar_t>();
    scalar_t* out = values.data_ptr<scalar_t>();
    int64_t* where = indices.data_ptr<int64_t>();
    for (int64_t line = 0; line < lines.count; ++line) {
      pick(in + line * lines.length, lines.length, out[line], where[line]);
    }
  });
  return {native::to_dtype(values, self.scalar_type()), indices};
}

// The positions of a line in ascending order, NaN last (as the largest), ties in their original order.
template <typename T>
std::vector<int64_t> ascending_order(const T* line, int64_t length) {
  std::vector<int64_t> order(length);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (is_nan(line[a])) return false;
    if (is_nan(line[b])) return true;
    return line[a] < line[b];
  });
  return order;
}

// The lower median of a line (element (n - 1) / 2 in ascending order). `skip_nan`: NaNs do not
// count (nanmedian); otherwise the first NaN is the answer.
struct MedianPick {
  bool skip_nan;
  template <typename T>
  void operator()(const T* line, int64_t length, T& value, int64_t& index) const {
    const std::vector<int64_t> order = ascending_order(line, length);
    int64_t valid = length;
    while (valid > 0 && is_nan(line[order[valid - 1]])) --valid;
    if (valid < length && !skip_nan) {
      index = order[valid];  // the first NaN
      value = line[index];
      return;
    }
    const int64_t position = valid == 0 ? 0 : (valid - 1) / 2;
    index = length == 0 ? 0 : order[position];
    // An empty line gives NaN (the lowest integer for integer dtypes), as LibTorch.
    const T empty_value = std::is_floating_point_v<T> ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::lowest();
    value = length == 0 ? empty_value : line[index];
  }
};

Tensor median_of_all(const Tensor& self, bool skip_nan, const char* kernel_name) {
  NoGradGuard kernel_only;
  const Tensor flat = self.reshape({-1});
  return std::get<0>(select_along(flat, 0, false, kernel_name, MedianPick{skip_nan}));
}

std::tuple<Tensor, Tensor> median_along(const Tensor& self, int64_t dim, bool keepdim, bool skip_nan,
                                        const char* name) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  if (self.dim() > 0) {
    TT_CHECK(self.size(d) > 0, name, "(): Expected reduction dim ", d, " to have non-zero size.");
  }
  return select_along(self, d, keepdim, skip_nan ? "nanmedian_cpu" : "median_cpu", MedianPick{skip_nan});
}

// The gradient of a value picked from self (median(dim), kthvalue, mode): it goes to the index.
void save_indices(SaveForBackward& save) {
  save.output(1);
  save.input_sizes(0);
}
tensor_list value_selecting_backward(const BackwardContext& ctx) {
  const IntArrayRef self_sizes = ctx.saved_sizes(0);
  if (self_sizes.empty()) return {ctx.grad()};
  const int64_t dim = ctx.attributes.dim;
  const bool keepdim = ctx.attributes.keepdim;
  const Tensor grad = unsqueeze_reduced(ctx.grad(), {dim}, keepdim);
  const Tensor index = unsqueeze_reduced(ctx.saved(0), {dim}, keepdim);
  return {zeros(self_sizes, grad.scalar_type()).scatter(dim, index, grad)};
}

// median() of all elements: ties with the median share its gradient evenly.
void save_self_and_result(SaveForBackward& save) {
  save.input(0);
  save.output(0);
}
tensor_list evenly_distribute(const BackwardContext& ctx) {
  const Tensor& self = ctx.saved(0);
  const Tensor& result = ctx.saved(1);
  const bool result_is_nan = result.item<double>() != result.item<double>();
  const Tensor is_picked = (result_is_nan ? self != self : self == result).to(ctx.grad().scalar_type());
  return {ctx.grad() * is_picked / is_picked.sum()};
}

const RegisterDerivative median_derivative("median", {"MedianBackward0", save_self_and_result, evenly_distribute});
const RegisterDerivative nanmedian_derivative("nanmedian", {"NanmedianBackward0", save_self_and_result,
                                                              evenly_distribute});
const RegisterDerivative median_dim_derivative("median.dim", {"MedianBackward1", save_indices,
                                                               value_selecting_backward});
const RegisterDerivative nanmedian_dim_derivative("nanmedian.dim", {"NanmedianBackward1", save_indices,
                                                                     value_selecting_backward});
const RegisterDerivative kthvalue_derivative("kthvalue", {"KthvalueBackward0", save_indices,
                                                           value_selecting_backward});
const RegisterDerivative mode_derivative("mode", {"ModeBackward0", save_indices, value_selecting_backward});

}  // namespace

// ---- median, nanmedian, kthvalue, mode ----

Tensor Tensor::median() const {
  Tensor result = median_of_all(*this, false, "median_cpu");
  static OpHandle median_op("median");
  record_op(median_op, {*this}, {result});
  return result;
}

std::tuple<Tensor, Tensor> Tensor::median(int64_t dim, bool keepdim) const {
  auto [values, indices] = median_along(*this, dim, keepdim, false, "median");
  static OpHandle median_dim_op("median.dim");
  record_op(median_dim_op, {*this}, {values, indices}, dim_attributes(maybe_wrap_dim(dim, this->dim()), keepdim));
  return {values, indices};
}

Tensor Tensor::nanmedian() const {
  Tensor result = median_of_all(*this, true, "nanmedian_cpu");
  static OpHandle nanmedian_op("nanmedian");
  record_op(nanmedian_op, {*this}, {result});
  return result;
}

std::tuple<Tensor, Tensor> Tensor::nanmedian(int64_t dim, bool keepdim) const {
  auto [values, indices] = median_along(*this, dim, keepdim, true, "nanmedian");
  static OpHandle nanmedian_dim_op("nanmedian.dim");
  record_op(nanmedian_dim_op, {*this}, {values, indices},
            dim_attributes(maybe_wrap_dim(dim, this->dim()), keepdim));
  return {values, indices};
}

std::tuple<Tensor, Tensor> Tensor::kthvalue(int64_t k, int64_t dim, bool keepdim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  const int64_t length = this->dim() == 0 ? 1 : size(d);
  TT_CHECK(k >= 1 && k <= length, "kthvalue(): selected number k out of range for dimension ", d);
  auto [values, indices] = select_along(*this, d, keepdim, "kthvalue_cpu", [k](const auto* line, int64_t n,
                                                                                 auto& value, int64_t& index) {
    index = ascending_order(line, n)[k - 1];
    value = line[index];
  });
  static OpHandle kthvalue_op("kthvalue");
  record_op(kthvalue_op, {*this}, {values, indices}, dim_attributes(d, keepdim));
  return {values, indices};
}

// The most frequent value (the smallest of equally frequent ones) and the last index it occurs at.
std::tuple<Tensor, Tensor> Tensor::mode(int64_t dim, bool keepdim) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  if (this->dim() > 0) TT_CHECK(size(d) > 0, "mode(): Expected reduction dim ", d, " to have non-zero size.");
  auto [values, indices] = select_along(*this, d, keepdim, "mode_cpu", [](const auto* line, int64_t n,
                                                                          auto& value, int64_t& index) {
    const std::vector<int64_t> order = ascending_order(line, n);
    int64_t best_count = 0;
    for (int64_t start = 0; start < n;) {
      int64_t end = start + 1;
      while (end < n && line[order[end]] == line[order[start]]) ++end;
      if (end - start > best_count) {
        best_count = end - start;
        index = *std::max_element(order.begin() + start, order.begin() + end);
        value = line[index];
      }
      start = end;
    }
  });
  static OpHandle mode_op("mode");
  record_op(mode_op, {*this}, {values, indices}, dim_attributes(d, keepdim));
  return {values, indices};
}

// ---- aminmax, max(other), min(other) ----

namespace {
// aminmax has no derivative in LibTorch 1.13: its outputs carry a node that refuses backward.
const RegisterDerivative aminmax_derivative("aminmax", {
    "torch::autograd::NotImplemented", nullptr,
    [](const BackwardContext&) -> tensor_list { throw Error("derivative for aten::aminmax is not implemented"); }});
}  // namespace

std::tuple<Tensor, Tensor> Tensor::aminmax(std::optional<int64_t> dim, bool keepdim) const {
  Tensor smallest, largest;
  {
    NoGradGuard kernel_only;
    if (!dim) {
      TT_CHECK(numel() > 0, "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                            "identity.");
      const Tensor all = reshape({-1});
      smallest = std::get<0>(all.min(0, false));
      largest = std::get<0>(all.max(0, false));
      if (keepdim) {
        const std::vector<int64_t> ones_shape(this->dim(), 1);
        smallest = smallest.reshape(ones_shape);
        largest = largest.reshape(ones_shape);
      }
    } else {
      const int64_t d = maybe_wrap_dim(*dim, this->dim());
      if (this->dim() > 0) {
        TT_CHECK(size(d) > 0, "aminmax: Expected reduction dim ", d, " to have non-zero size.");
      }
      if (numel() == 0) {
        smallest = empty(reduced_sizes(*this, d, keepdim), scalar_type());
        largest = empty(reduced_sizes(*this, d, keepdim), scalar_type());
      } else {
        smallest = std::get<0>(min(d, keepdim));
        largest = std::get<0>(max(d, keepdim));
      }
    }
  }
  static OpHandle aminmax_op("aminmax");
  record_op(aminmax_op, {*this}, {smallest, largest});
  return {smallest, largest};
}

Tensor Tensor::max(const Tensor& other) const { return maximum(other); }
Tensor Tensor::min(const Tensor& other) const { return minimum(other); }

// ---- nansum, nanmean, count_nonzero, all/any along a dim ----

Tensor Tensor::nansum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  const std::vector<int64_t> dims = dims_or_all(*this, dim);
  Tensor result;
  {
    NoGradGuard kernel_only;
    const Tensor without_nan = is_floating_point() ? masked_fill(*this != *this, 0) : *this;
    result = without_nan.sum(dim, keepdim, dtype);
  }
  OpAttributes attributes;
  attributes.dims = dims;
  attributes.keepdim = keepdim;
  static OpHandle nansum_op("nansum");
  record_op(nansum_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// NaNs contributed nothing: the gradient goes to the other elements.
const RegisterDerivative nansum_derivative("nansum", {
    "NansumBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor grad = unsqueeze_reduced(ctx.grad(), ctx.attributes.dims, ctx.attributes.keepdim);
      return {grad.expand(self.sizes()) * (self == self).to(grad.scalar_type())};
    }});
}  // namespace

Tensor Tensor::nansum(std::nullopt_t, bool keepdim, std::optional<ScalarType> dtype) const {
  return nansum(IntArrayRef(), keepdim, dtype);
}

Tensor Tensor::nanmean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  TT_CHECK(is_floating_point(), "nanmean(): expected input to have floating point dtype but got ",
           ::tinytorch::toString(scalar_type()));
  const Tensor count = (*this == *this).sum(dim, keepdim);
  return nansum(dim, keepdim, dtype) / count;
}
Tensor Tensor::nanmean(std::nullopt_t, bool keepdim, std::optional<ScalarType> dtype) const {
  return nanmean(IntArrayRef(), keepdim, dtype);
}

Tensor Tensor::count_nonzero(IntArrayRef dim) const { return (*this != 0).sum(dim, false, kLong); }
Tensor Tensor::count_nonzero(std::optional<int64_t> dim) const {
  if (!dim) return count_nonzero(IntArrayRef());
  return count_nonzero(IntArrayRef(*dim));
}

namespace {
// all/any along one dim: kBool, or kByte for a kByte input (LibTorch 1.13 keeps uint8 there).
Tensor all_or_any(const Tensor& self, int64_t dim, bool keepdim, bool want_all) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  NoGradGuard not_differentiable;
  Tensor result;
  if (self.dim() == 0) {
    result = self != 0;
  } else {
    const Tensor nonzero_count = (self != 0).sum(IntArrayRef(d), keepdim, kLong);
    result = want_all ? nonzero_count == self.size(d) : nonzero_count > 0;
  }
  return self.scalar_type() == kByte ? result.to(kByte) : result;
}
}  // namespace

Tensor Tensor::all(int64_t dim, bool keepdim) const { return all_or_any(*this, dim, keepdim, true); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return all_or_any(*this, dim, keepdim, false); }

Tensor Tensor::argwhere() const { return nonzero(); }
std::vector<Tensor> Tensor::nonzero_numpy() const { return ::tinytorch::where(*this); }

// ---- bincount, histc ----

Tensor Tensor::bincount(const std::optional<Tensor>& weights, int64_t minlength) const {
  TT_CHECK(isIntegralType(scalar_type(), false), "\"bincount_cpu\" not implemented for '", ::tinytorch::toString(scalar_type()),
           "'");
  TT_CHECK(minlength >= 0, "minlength should be >= 0");
  const bool has_weights = weights.has_value() && weights->defined();
  TT_CHECK(dim() == 1 && (numel() == 0 || min().item<int64_t>() >= 0),
           "bincount only supports 1-d non-negative integral inputs.");
  if (has_weights) {
    TT_CHECK(weights->dim() == 1 && weights->size(0) == size(0),
             "weights should be 1-d and have the same length as input");
  }
  const Tensor values = detail::as_contiguous(*this, kLong);
  const int64_t* in = values.data_ptr<int64_t>();
  int64_t bins = minlength;
  for (int64_t i = 0; i < numel(); ++i) bins = std::max(bins, in[i] + 1);
  if (!has_weights) {
    Tensor counts = zeros({bins}, kLong);
    int64_t* out = counts.data_ptr<int64_t>();
    for (int64_t i = 0; i < numel(); ++i) ++out[in[i]];
    return counts;
  }
  // Float weights sum in float; every other weight dtype sums in double.
  const ScalarType out_dtype = weights->scalar_type() == kFloat ? kFloat : kDouble;
  Tensor sums = zeros({bins}, out_dtype);
  const Tensor w = detail::as_contiguous(weights->detach(), out_dtype);
  TT_DISPATCH_FLOATING_TYPES(out_dtype, "bincount_cpu", [&] {
    const scalar_t* weight = w.data_ptr<scalar_t>();
    scalar_t* out = sums.data_ptr<scalar_t>();
    for (int64_t i = 0; i < numel(); ++i) out[in[i]] += weight[i];
  });
  return sums;
}

// Counts of the elements in `bins` equal-width bins over [min, max]; min == max means the data's
// range (widened by 1 each way when that is a single value). Elements outside are not counted.
Tensor Tensor::histc(int64_t bins, const Scalar& min, const Scalar& max) const {
  TT_CHECK(scalar_type() == kFloat || scalar_type() == kDouble, "\"histogram_cpu\" not implemented for '",
           ::tinytorch::toString(scalar_type()), "'");
  TT_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension 0");
  double low = min.toDouble(), high = max.toDouble();
  TT_CHECK(low <= high, "torch.histc: max must be larger than min");
  const Tensor values = detail::as_contiguous(detach(), kDouble);
  const double* in = values.data_ptr<double>();
  if (low == high && numel() > 0) {
    low = std::numeric_limits<double>::infinity();
    high = -low;
    for (int64_t i = 0; i < numel(); ++i) {
      if (!std::isnan(in[i])) {
        low = std::min(low, in[i]);
        high = std::max(high, in[i]);
      }
    }
  }
  if (low == high) {
    low -= 1;
    high += 1;
  }
  std::vector<double> counts(bins, 0.0);
  for (int64_t i = 0; i < numel(); ++i) {
    const double x = in[i];
    if (x < low || x > high) continue;
    // LibTorch 1.13 counts a NaN in the first bin.
    int64_t bin = std::isnan(x) ? 0 : static_cast<int64_t>((x - low) * static_cast<double>(bins) / (high - low));
    bin = std::min(bin, bins - 1);
    counts[bin] += 1;
  }
  return tensor(counts, kDouble).to(scalar_type());
}

// ---- diff, renorm, is_nonzero, is_same_size ----

Tensor Tensor::diff(int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
                    const std::optional<Tensor>& append) const {
  TT_CHECK(this->dim() >= 1, "diff expects input to be at least one-dimensional");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  std::vector<Tensor> pieces;
  for (const std::optional<Tensor>* extra : {&prepend, &append}) {
    if (!extra->has_value() || !(*extra)->defined()) continue;
    const Tensor& t = **extra;
    TT_CHECK(t.dim() == this->dim(), "diff expects prepend or append to be the same dimension as input");
    for (int64_t k = 0; k < this->dim(); ++k) {
      if (k == d) continue;
      TT_CHECK(t.size(k) == size(k), "diff expects the shape of tensor to prepend or append to match that of input "
               "except along the differencing dimension; input.size(", k, ") = ", size(k),
               ", but got tensor.size(", k, ") = ", t.size(k));
    }
  }
  if (prepend && prepend->defined()) pieces.push_back(*prepend);
  pieces.push_back(*this);
  if (append && append->defined()) pieces.push_back(*append);
  Tensor result = pieces.size() == 1 ? *this : cat(pieces, d);
  if (n == 0) return result.clone();
  n = std::min(n, result.size(d));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t length = result.size(d) - 1;
    if (length <= 0) {  // nothing left to difference: an empty result along dim
      result = result.narrow(d, 0, 0);
      break;
    }
    const Tensor later = result.narrow(d, 1, length), earlier = result.narrow(d, 0, length);
    result = result.scalar_type() == kBool ? later.ne(earlier) : later - earlier;
  }
  return result;
}

namespace {
// The p-norm of every slice along a dim, over `other_dims` (kept); a 1-D tensor's slices are its elements.
Tensor slice_norms(const Tensor& self, double p, const std::vector<int64_t>& other_dims) {
  return other_dims.empty() ? self.abs() : self.norm(p, other_dims, true);
}
}  // namespace

// Each slice along dim whose p-norm exceeds maxnorm is scaled down to norm maxnorm (LibTorch's
// maxnorm / (norm + 1e-7)); the others are kept.
Tensor Tensor::renorm(const Scalar& p, int64_t dim, const Scalar& maxnorm) const {
  TT_CHECK(p.toDouble() > 0, "renorm: non-positive-norm not supported");
  TT_CHECK(maxnorm.toDouble() >= 0, "renorm: expected maxnorm to be >= 0 but got ", maxnorm.toDouble());
  TT_CHECK(is_floating_point(), "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
           ::tinytorch::toString(scalar_type()));
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  std::vector<int64_t> other_dims;
  for (int64_t k = 0; k < this->dim(); ++k) {
    if (k != d) other_dims.push_back(k);
  }
  Tensor result;
  {
    NoGradGuard kernel_only;
    const Tensor norms = slice_norms(*this, p.toDouble(), other_dims);
    const Tensor factor = ::tinytorch::where(norms > maxnorm, maxnorm.toDouble() / (norms + 1e-7), 1.0);
    result = *this * factor;
  }
  OpAttributes attributes;
  attributes.dim = d;
  attributes.exponent = p;
  attributes.alpha = maxnorm;
  static OpHandle renorm_op("renorm");
  record_op(renorm_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// out = x f(n), n the p-norm of x's slice, f = M / (n + eps) where n > M (else 1):
// d out = g f - [n > M] M / (n + eps)^2 (sum g x) dn/dx, dn/dx = |x|^(p-1) sign(x) / n^(p-1).
// Written with differentiable ops, so it differentiates again.
const RegisterDerivative renorm_derivative("renorm", {
    "RenormBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor& grad = ctx.grad();
      const double p = ctx.attributes.exponent.toDouble();
      const double maxnorm = ctx.attributes.alpha.toDouble();
      std::vector<int64_t> other_dims;
      for (int64_t k = 0; k < self.dim(); ++k) {
        if (k != ctx.attributes.dim) other_dims.push_back(k);
      }
      const Tensor norms = slice_norms(self, p, other_dims);
      const Tensor over = norms > maxnorm;
      const Tensor factor = ::tinytorch::where(over, maxnorm / (norms + 1e-7), 1.0);
      const Tensor slope = ::tinytorch::where(over, maxnorm / ((norms + 1e-7) * (norms + 1e-7)), 0.0);
      const Tensor sign = (self > 0).to(self.scalar_type()) - (self < 0).to(self.scalar_type());
      const Tensor norm_grad = self.abs().pow(p - 1) * sign / norms.pow(p - 1);
      const Tensor inner = other_dims.empty() ? grad * self : (grad * self).sum(other_dims, true);
      return {grad * factor - slope * inner * norm_grad};
    }});
}  // namespace

Tensor& Tensor::renorm_(const Scalar& p, int64_t dim, const Scalar& maxnorm) const {
  Tensor& self = const_cast<Tensor&>(*this);
  return self.copy_(renorm(p, dim, maxnorm));
}

bool Tensor::is_nonzero() const {
  TT_CHECK(numel() != 0, "Boolean value of Tensor with no values is ambiguous");
  TT_CHECK(numel() == 1, "Boolean value of Tensor with more than one value is ambiguous");
  return item().toDouble() != 0.0;
}

bool Tensor::is_same_size(const Tensor& other) const { return sizes().equals(other.sizes()); }

// ---- cumprod, cumsum_, cummax, cummin, logcumsumexp ----

namespace {
ScalarType scan_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return isIntegralType(self.scalar_type(), true) ? kLong : self.scalar_type();
}

// `scan(line_in, line_out, length)` over every line along dim, in `dtype`.
template <typename Scan>
Tensor scan_along(const Tensor& self, int64_t dim, ScalarType dtype, const char* kernel_name, Scan scan) {
  const ScalarType compute = detail::computation_type(dtype);
  const Lines lines = lines_along(self, dim, compute);
  Tensor moved = empty(lines.moved_sizes, compute);
  TT_DISPATCH_NUMERIC_TYPES(compute, kernel_name, [&] {
    const scalar_t* in = lines.data.data_ptr<scalar_t>();
    scalar_t* out = moved.data_ptr<scalar_t>();
    for (int64_t line = 0; line < lines.count; ++line) {
      scan(in + line * lines.length, out + line * lines.length, lines.length);
    }
  });
  return native::to_dtype(from_lines(lines, moved), dtype);
}

// In-place scans write their out-of-place result back; the dtype must be self's.
void check_in_place_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  TT_CHECK(!dtype || *dtype == self.scalar_type(), "Bad in-place call: input tensor dtype ", self.dtype().name(),
           " and output tensor dtype ", TypeMeta(*dtype).name(), " should match");
}

// sum over j >= k of v_j along dim: the reversed running sum, with differentiable ops.
Tensor reversed_cumsum(const Tensor& v, int64_t dim) {
  return v.sum(IntArrayRef(dim), true) - v.cumsum(dim) + v;
}
}  // namespace

Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const {
  const ScalarType out_dtype = scan_dtype(*this, dtype);
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  Tensor result = scan_along(*this, d, out_dtype, "cumprod", [](const auto* in, auto* out, int64_t n) {
    std::remove_const_t<std::remove_reference_t<decltype(*in)>> running = 1;
    for (int64_t k = 0; k < n; ++k) out[k] = running *= in[k];
  });
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle cumprod_op("cumprod");
  record_op(cumprod_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// d out_j / d x_k = prod_{i <= j, i != k} x_i for j >= k. Without zeros that is out_j / x_k, so the
// gradient is reversed_cumsum(grad * out) / x (differentiable again); with zeros, an exact loop.
Tensor cumprod_backward_with_zeros(const Tensor& self, const Tensor& grad, int64_t dim) {
  const Lines x = lines_along(self, dim, kDouble);
  const Lines g = lines_along(grad, dim, kDouble);
  Tensor moved = empty(x.moved_sizes, kDouble);
  const double* in = x.data.data_ptr<double>();
  const double* upstream = g.data.data_ptr<double>();
  double* out = moved.data_ptr<double>();
  for (int64_t line = 0; line < x.count; ++line) {
    const double* xs = in + line * x.length;
    const double* gs = upstream + line * x.length;
    for (int64_t k = 0; k < x.length; ++k) {
      double prefix = 1;  // prod_{i < k} x_i
      for (int64_t i = 0; i < k; ++i) prefix *= xs[i];
      double total = 0, running = prefix;  // running = prod_{i <= j, i != k} x_i
      for (int64_t j = k; j < x.length; ++j) {
        if (j > k) running *= xs[j];
        total += gs[j] * running;
      }
      out[line * x.length + k] = total;
    }
  }
  return native::to_dtype(from_lines(x, moved), grad.scalar_type());
}

const RegisterDerivative cumprod_derivative("cumprod", {
    "CumprodBackward0",
    [](SaveForBackward& save) {
      save.input(0);
      save.output(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor& result = ctx.saved(1);
      const Tensor& grad = ctx.grad();
      if (self.dim() == 0) return {grad};
      const int64_t d = ctx.attributes.dim;
      const bool has_zero = (self == 0).any().item<bool>();
      if (!has_zero) return {reversed_cumsum(grad * result, d) / self};
      return {cumprod_backward_with_zeros(self.detach(), grad.detach(), d)};
    }});
}  // namespace

Tensor& Tensor::cumprod_(int64_t dim, std::optional<ScalarType> dtype) const {
  check_in_place_dtype(*this, dtype);
  Tensor& self = const_cast<Tensor&>(*this);
  return self.copy_(cumprod(dim, scalar_type()));
}

Tensor& Tensor::cumsum_(int64_t dim, std::optional<ScalarType> dtype) const {
  check_in_place_dtype(*this, dtype);
  Tensor& self = const_cast<Tensor&>(*this);
  return self.copy_(cumsum(dim, scalar_type()));
}

namespace {
// Running max (or min) and where it was: a later equal value or a NaN takes over (LibTorch's rule).
std::tuple<Tensor, Tensor> cumulative_extreme(const Tensor& self, int64_t dim, bool find_max) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const ScalarType compute = detail::computation_type(self.scalar_type());
  const Lines lines = lines_along(self, d, compute);
  Tensor values = empty(lines.moved_sizes, compute);
  Tensor indices = empty(lines.moved_sizes, kLong);
  TT_DISPATCH_ALL_TYPES(compute, find_max ? "cummax_cpu" : "cummin_cpu", [&] {
    const scalar_t* in = lines.data.data_ptr<scalar_t>();
    scalar_t* out = values.data_ptr<scalar_t>();
    int64_t* where = indices.data_ptr<int64_t>();
    for (int64_t line = 0; line < lines.count; ++line) {
      const int64_t base = line * lines.length;
      for (int64_t k = 0; k < lines.length; ++k) {
        const scalar_t x = in[base + k];
        const bool takes_over = k == 0 || is_nan(x) ||
                                (!is_nan(out[base + k - 1]) && (find_max ? x >= out[base + k - 1] : x <= out[base + k - 1]));
        out[base + k] = takes_over ? x : out[base + k - 1];
        where[base + k] = takes_over ? k : where[base + k - 1];
      }
    }
  });
  Tensor result_values = native::to_dtype(from_lines(lines, values), self.scalar_type());
  Tensor result_indices = from_lines(lines, indices);
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle cummax_op("cummax"), cummin_op("cummin");
  record_op(find_max ? cummax_op : cummin_op, {self}, {result_values, result_indices}, attributes);
  return {result_values, result_indices};
}

// Each output's gradient goes to the element it copied: summed at the saved indices.
tensor_list cumulative_extreme_backward(const BackwardContext& ctx) {
  const Tensor& indices = ctx.saved(0);
  const Tensor& grad = ctx.grad();
  if (indices.dim() == 0) return {grad};
  return {zeros(indices.sizes(), grad.scalar_type()).scatter_add(ctx.attributes.dim, indices, grad)};
}
void save_scan_indices(SaveForBackward& save) { save.output(1); }
const RegisterDerivative cummax_derivative("cummax", {"CummaxBackward0", save_scan_indices,
                                                       cumulative_extreme_backward});
const RegisterDerivative cummin_derivative("cummin", {"CumminBackward0", save_scan_indices,
                                                       cumulative_extreme_backward});
}  // namespace

std::tuple<Tensor, Tensor> Tensor::cummax(int64_t dim) const { return cumulative_extreme(*this, dim, true); }
std::tuple<Tensor, Tensor> Tensor::cummin(int64_t dim) const { return cumulative_extreme(*this, dim, false); }

// log(sum_{i <= k} exp(x_i)), accumulated as log(exp(a) + exp(b)) = max + log1p(exp(min - max)).
Tensor Tensor::logcumsumexp(int64_t dim) const {
  TT_CHECK(is_floating_point(), "\"logcumsumexp_out_cpu\" not implemented for '", ::tinytorch::toString(scalar_type()), "'");
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  Tensor result = scan_along(*this, d, scalar_type(), "logcumsumexp_out_cpu", [](const auto* in, auto* out, int64_t n) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(*in)>>;
    T running = -std::numeric_limits<T>::infinity();
    for (int64_t k = 0; k < n; ++k) {
      const T x = in[k];
      const T high = std::max(running, x), low = std::min(running, x);
      if (std::isnan(x) || std::isnan(running)) {
        running = std::numeric_limits<T>::quiet_NaN();
      } else if (high != -std::numeric_limits<T>::infinity()) {
        running = high + std::log1p(std::exp(low - high));
      }
      out[k] = running;
    }
  });
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle logcumsumexp_op("logcumsumexp");
  record_op(logcumsumexp_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// d out_j / d x_k = exp(x_k - out_j) for j >= k (each factor <= 1, so no overflow): a loop.
const RegisterDerivative logcumsumexp_derivative("logcumsumexp", {
    "LogcumsumexpBackward0",
    [](SaveForBackward& save) {
      save.input(0);
      save.output(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      if (grad.dim() == 0) return {grad};
      const int64_t d = ctx.attributes.dim;
      const Lines x = lines_along(ctx.saved(0).detach(), d, kDouble);
      const Lines out = lines_along(ctx.saved(1).detach(), d, kDouble);
      const Lines g = lines_along(grad.detach(), d, kDouble);
      Tensor moved = empty(x.moved_sizes, kDouble);
      const double* xs = x.data.data_ptr<double>();
      const double* outs = out.data.data_ptr<double>();
      const double* gs = g.data.data_ptr<double>();
      double* result = moved.data_ptr<double>();
      for (int64_t line = 0; line < x.count; ++line) {
        const int64_t base = line * x.length;
        for (int64_t k = 0; k < x.length; ++k) {
          double total = 0;
          for (int64_t j = k; j < x.length; ++j) {
            if (gs[base + j] != 0) total += gs[base + j] * std::exp(xs[base + k] - outs[base + j]);
          }
          result[base + k] = total;
        }
      }
      return {native::to_dtype(from_lines(x, moved), grad.scalar_type())};
    }});
}  // namespace

// ---- std_mean, var_mean ----

std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  TT_CHECK(self.is_floating_point(), "var_mean only support floating point and complex dtypes");
  const IntArrayRef dims = dim.value_or(IntArrayRef());
  return {self.var(dims, std::optional<int64_t>(correction.value_or(1)), keepdim), self.mean(dims, keepdim)};
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return var_mean(self, dim, std::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  TT_CHECK(self.is_floating_point(), "std_mean only support floating point and complex dtypes");
  auto [variance, mean] = var_mean(self, dim, correction, keepdim);
  return {variance.sqrt(), mean};
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return std_mean(self, dim, std::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}

// ---- unique family (no gradient) ----

namespace {
// Slices of `self` along dim (every element when dim is nullopt), compared lexicographically.
struct Slices {
  Tensor data;  // (count, width) double
  int64_t count = 0;
  int64_t width = 1;
  int64_t dim = 0;
  bool flat = true;
};

Slices slices_of(const Tensor& self, std::optional<int64_t> dim) {
  Slices s;
  if (!dim) {
    s.data = detail::as_contiguous(self.reshape({-1}), kDouble);
    s.count = self.numel();
    return s;
  }
  s.flat = false;
  s.dim = maybe_wrap_dim(*dim, self.dim());
  const Tensor moved = native::permute(self, [&] {
    std::vector<int64_t> order{s.dim};
    for (int64_t k = 0; k < self.dim(); ++k) {
      if (k != s.dim) order.push_back(k);
    }
    return order;
  }());
  s.count = self.size(s.dim);
  s.width = s.count == 0 ? 0 : self.numel() / s.count;
  s.data = detail::as_contiguous(moved, kDouble).reshape({s.count, s.width});
  return s;
}

int compare_slices(const Slices& s, int64_t a, int64_t b) {
  const double* data = s.data.data_ptr<double>();
  for (int64_t k = 0; k < s.width; ++k) {
    const double x = data[a * s.width + k], y = data[b * s.width + k];
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

// The unique slices (in first-seen groups when `consecutive`, else sorted), the group of every
// slice (inverse) and each group's size (counts).
std::tuple<Tensor, Tensor, Tensor> unique_impl(const Tensor& self, std::optional<int64_t> dim, bool consecutive,
                                               bool return_inverse, bool return_counts, bool always_inverse_counts) {
  const Slices s = slices_of(self, dim);
  std::vector<int64_t> order(s.count);
  std::iota(order.begin(), order.end(), 0);
  if (!consecutive) {
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compare_slices(s, a, b) < 0; });
  }
  std::vector<int64_t> representatives, counts;
  std::vector<int64_t> inverse(s.count);
  for (int64_t position = 0; position < s.count; ++position) {
    const int64_t slice = order[position];
    if (representatives.empty() || compare_slices(s, representatives.back(), slice) != 0) {
      representatives.push_back(slice);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[slice] = static_cast<int64_t>(representatives.size()) - 1;
  }
  const Tensor picked = tensor(representatives, kLong);
  Tensor values = s.flat ? self.reshape({-1}).index_select(0, picked).detach()
                         : self.index_select(s.dim, picked).detach();
  std::vector<int64_t> inverse_sizes = s.flat ? self.sizes().vec() : std::vector<int64_t>{s.count};
  const Tensor inverse_tensor = return_inverse || always_inverse_counts ? tensor(inverse, kLong).reshape(inverse_sizes)
                                                                       : empty({0}, kLong);
  const Tensor counts_tensor = return_counts || always_inverse_counts ? tensor(counts, kLong) : empty({0}, kLong);
  return {values, inverse_tensor, counts_tensor};
}
}  // namespace

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                                      std::optional<int64_t> dim) {
  // Along a dim LibTorch always fills inverse and counts.
  return unique_impl(self, dim, true, return_inverse, return_counts, dim.has_value());
}
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool /*sorted*/, bool return_inverse,
                                            bool return_counts) {
  // LibTorch 1.13 fills the inverse whenever it counts.
  return unique_impl(self, std::nullopt, false, return_inverse || return_counts, return_counts, false);
}
std::tuple<Tensor, Tensor> _unique(const Tensor& self, bool /*sorted*/, bool return_inverse) {
  auto [values, inverse, counts] = unique_impl(self, std::nullopt, false, return_inverse, false, false);
  return {values, inverse};
}
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool /*sorted*/, bool return_inverse,
                                              bool return_counts) {
  return unique_impl(self, dim, false, return_inverse, return_counts, true);
}
std::tuple<Tensor, Tensor, Tensor> unique_dim_consecutive(const Tensor& self, int64_t dim, bool return_inverse,
                                                          bool return_counts) {
  return unique_impl(self, dim, true, return_inverse, return_counts, true);
}

// ---- _out forms: the result written into `out`, resized as LibTorch does ----

Tensor& detail::reductions_write_out(Tensor& out, const Tensor& result) {
  if (!out.sizes().equals(result.sizes())) out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace tinytorch
