// Reductions beyond sum/mean/max (given code): amax/amin, logsumexp, var/std are composed of
// max/sum/mean/exp/log, so autograd follows them; prod and cumsum are kernels with their
// derivatives next to them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// Wrapped, sorted dims; an empty list means every dim.
std::vector<int64_t> dims_or_all(const Tensor& self, IntArrayRef dims) {
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) wrapped.push_back(maybe_wrap_dim(d, std::max<int64_t>(self.dim(), 1)));
  if (self.dim() == 0) return {};
  if (wrapped.empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) wrapped.push_back(d);
  }
  std::sort(wrapped.begin(), wrapped.end());
  wrapped.erase(std::unique(wrapped.begin(), wrapped.end()), wrapped.end());
  return wrapped;
}

Tensor squeeze_dims(Tensor t, const std::vector<int64_t>& sorted_dims) {
  for (auto d = sorted_dims.rbegin(); d != sorted_dims.rend(); ++d) t = t.squeeze(*d);
  return t;
}

// The max (or min) over dims, one dim at a time.
Tensor extremum(const Tensor& self, IntArrayRef dim, bool keepdim, bool find_max) {
  TT_CHECK(self.numel() > 0, find_max ? "amax" : "amin",
           "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
           "'dim' argument.");
  const std::vector<int64_t> dims = dims_or_all(self, dim);
  Tensor result = self;
  for (int64_t d : dims) result = std::get<0>(find_max ? result.max(d, true) : result.min(d, true));
  return keepdim ? result : squeeze_dims(result, dims);
}

// The number of elements each output of a reduction over `dims` combines.
int64_t reduced_count(const Tensor& self, const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= self.size(d);
  return count;
}

// A contiguous tensor seen as (outer, size, inner) around dim d.
struct Around {
  int64_t outer = 1, size = 1, inner = 1;
};
Around around(const Tensor& t, int64_t d) {
  Around shape;
  for (int64_t k = 0; k < t.dim(); ++k) {
    if (k < d) shape.outer *= t.size(k);
    if (k == d) shape.size = t.size(k);
    if (k > d) shape.inner *= t.size(k);
  }
  return shape;
}

ScalarType accumulate_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return isIntegralType(self.scalar_type(), true) ? kLong : self.scalar_type();
}

}  // namespace

Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const { return extremum(*this, dim, keepdim, true); }
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const { return extremum(*this, dim, keepdim, false); }

// log(sum(exp(x))) computed as m + log(sum(exp(x - m))), m the max, so that exp never overflows.
Tensor Tensor::logsumexp(IntArrayRef dim, bool keepdim) const {
  const Tensor self = is_floating_point() ? *this : to(kFloat);
  const std::vector<int64_t> dims = dims_or_all(self, dim);
  if (self.numel() == 0) return self.exp().sum(dims, keepdim).log();
  Tensor shift = self.amax(dims, true).detach();
  shift = shift.masked_fill(shift.abs() == std::numeric_limits<double>::infinity(), 0);  // all -inf: keep -inf
  const Tensor result = (self - shift).exp().sum(dims, true).log() + shift;
  return keepdim ? result : squeeze_dims(result, dims);
}

// sum((x - mean)^2) / (N - correction): correction 1 (unbiased, Bessel's) or 0 (biased).
Tensor Tensor::var(IntArrayRef dim, std::optional<int64_t> correction, bool keepdim) const {
  TT_CHECK(is_floating_point(), "std and var only support floating point and complex dtypes");
  const std::vector<int64_t> dims = dims_or_all(*this, dim);
  const int64_t count = reduced_count(*this, dims);
  const Tensor centred = *this - mean(dims, true);
  // A divisor of 0 gives nan or inf (0 / 0, x / 0), as in LibTorch.
  return (centred * centred).sum(dims, keepdim) / static_cast<double>(count - correction.value_or(1));
}
Tensor Tensor::var(IntArrayRef dim, bool unbiased, bool keepdim) const {
  return var(dim, std::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}
Tensor Tensor::std(IntArrayRef dim, bool unbiased, bool keepdim) const { return var(dim, unbiased, keepdim).sqrt(); }
Tensor Tensor::std(IntArrayRef dim, std::optional<int64_t> correction, bool keepdim) const {
  return var(dim, correction, keepdim).sqrt();
}

// ---- prod ----

Tensor Tensor::prod(int64_t dim, bool keepdim, std::optional<ScalarType> dtype) const {
  const ScalarType out_dtype = accumulate_dtype(*this, dtype);
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  const Tensor source = to(out_dtype).contiguous();
  const Around shape = around(source, d);
  std::vector<int64_t> out_sizes = sizes().vec();
  if (this->dim() > 0) out_sizes[d] = 1;
  Tensor result = empty(out_sizes, out_dtype);
  TT_DISPATCH_NUMERIC_TYPES(out_dtype, "prod", [&] {
    const scalar_t* in = source.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for (int64_t o = 0; o < shape.outer; ++o) {
      for (int64_t i = 0; i < shape.inner; ++i) {
        scalar_t product = 1;
        for (int64_t k = 0; k < shape.size; ++k) product *= in[(o * shape.size + k) * shape.inner + i];
        out[o * shape.inner + i] = product;
      }
    }
  });
  if (!keepdim && this->dim() > 0) result = result.squeeze(d);  // a fresh tensor: records nothing
  OpAttributes attributes;
  attributes.dim = d;
  attributes.keepdim = keepdim;
  static OpHandle prod_dim_int_op("prod.dim_int");
  record_op(prod_dim_int_op, {*this}, {result}, attributes);
  return result;
}

Tensor Tensor::prod(std::optional<ScalarType> dtype) const {
  return reshape({-1}).prod(0, false, dtype);
}

namespace {
// d prod / d x_k = the product of the other elements along dim: prefix times suffix products, so a
// zero among them is handled without dividing by it.
Tensor product_of_others(const Tensor& self, int64_t d) {
  const Tensor source = self.contiguous();
  const Around shape = around(source, d);
  Tensor result = empty(self.sizes(), self.scalar_type());
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "prod_backward", [&] {
    const scalar_t* in = source.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for (int64_t o = 0; o < shape.outer; ++o) {
      for (int64_t i = 0; i < shape.inner; ++i) {
        const auto at = [&](int64_t k) { return (o * shape.size + k) * shape.inner + i; };
        scalar_t prefix = 1;
        for (int64_t k = 0; k < shape.size; ++k) {
          out[at(k)] = prefix;
          prefix *= in[at(k)];
        }
        scalar_t suffix = 1;
        for (int64_t k = shape.size - 1; k >= 0; --k) {
          out[at(k)] *= suffix;
          suffix *= in[at(k)];
        }
      }
    }
  });
  return result;
}

const RegisterDerivative prod_dim_derivative("prod.dim_int", {
    "ProdBackward1", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const int64_t d = ctx.attributes.dim;
      Tensor grad = ctx.grad();
      if (!ctx.attributes.keepdim && self.dim() > 0) grad = grad.unsqueeze(d);
      const Tensor others = self.dim() == 0 ? ones_like(self) : product_of_others(self.detach(), d);
      return {grad * others};
    }});
}  // namespace

// ---- cumsum ----

Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  const ScalarType out_dtype = accumulate_dtype(*this, dtype);
  const int64_t d = maybe_wrap_dim(dim, std::max<int64_t>(this->dim(), 1));
  const Tensor source = to(out_dtype).contiguous();
  const Around shape = around(source, d);
  Tensor result = empty(sizes(), out_dtype);
  TT_DISPATCH_NUMERIC_TYPES(out_dtype, "cumsum", [&] {
    const scalar_t* in = source.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for (int64_t o = 0; o < shape.outer; ++o) {
      for (int64_t i = 0; i < shape.inner; ++i) {
        scalar_t running = 0;
        for (int64_t k = 0; k < shape.size; ++k) {
          const int64_t at = (o * shape.size + k) * shape.inner + i;
          running += in[at];
          out[at] = running;
        }
      }
    }
  });
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle cumsum_op("cumsum");
  record_op(cumsum_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// x_k feeds every output from k on: its gradient is the reversed running sum of the gradient,
// total - cumsum + grad.
const RegisterDerivative cumsum_derivative("cumsum", {
    "CumsumBackward0", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      if (grad.dim() == 0) return {grad};
      const int64_t d = ctx.attributes.dim;
      return {grad.sum(IntArrayRef(&d, 1), true) - grad.cumsum(d) + grad};
    }});
}  // namespace

}  // namespace tinytorch
