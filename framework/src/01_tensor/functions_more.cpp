// The copying forms of views, free-function spellings of Tensor methods, the out= writer behind the
// generated out variants (out_variants.cpp), and torch::special (tinytorch/special.h).
#include "tinytorch/functions_more.h"

#include <cmath>
#include <iostream>
#include <limits>

#include "internal.h"
#include "tinytorch/derivative.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/out_variants.h"
#include "tinytorch/special.h"
#include "tinytorch/torch.h"

namespace tinytorch {

// ---- The out= writer ----

namespace {
std::string shape_text(IntArrayRef sizes) {
  std::string text = "[";
  for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "]";
}
}  // namespace

Tensor& detail::write_out_result(Tensor& out, const Tensor& result, const char* name) {
  if (GradMode::is_enabled()) {
    TORCH_CHECK(!result.requires_grad() && !out.requires_grad(), name,
                "(): functions with out=... arguments don't support automatic differentiation, but one of the "
                "arguments requires grad.");
  }
  TORCH_CHECK(canCast(result.scalar_type(), out.scalar_type()), "result type ", toString(result.scalar_type()),
              " can't be cast to the desired output type ", toString(out.scalar_type()));
  if (!out.sizes().equals(result.sizes())) {
    if (out.numel() != 0) {
      // LibTorch's TORCH_WARN from resize_output_check, on stderr.
      std::cerr << "Warning: An output with one or more elements was resized since it had shape "
                << shape_text(out.sizes()) << ", which does not match the required output shape "
                << shape_text(result.sizes())
                << ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
                   "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
                   "inplace, to zero elements with t.resize_(0). (function resize_output_check)\n";
    }
    out.resize_(result.sizes());
  }
  NoGradGuard no_grad;
  out.copy_(result);
  return out;
}

Tensor& mean_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const Tensor result = !dim.empty() ? self.mean(dim, keepdim, dtype) : [&] {
    std::vector<int64_t> all(self.dim());
    for (int64_t d = 0; d < self.dim(); ++d) all[d] = d;
    return self.mean(all, keepdim, dtype);
  }();
  return detail::write_out_result(out, result, "mean");
}
Tensor& mean_outf(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                  Tensor& out) {
  return mean_out(out, self, dim, keepdim, dtype);
}
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  if (dim.empty()) {
    std::vector<int64_t> all(self.dim());
    for (int64_t d = 0; d < self.dim(); ++d) all[d] = d;
    return detail::write_out_result(out, self.sum(all, keepdim, dtype), "sum");
  }
  return detail::write_out_result(out, self.sum(dim, keepdim, dtype), "sum");
}
Tensor& sum_outf(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                 Tensor& out) {
  return sum_out(out, self, dim, keepdim, dtype);
}
Tensor& sum_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype) {
  return detail::write_out_result(out, self.sum(dtype), "sum");
}
Tensor& sum_outf(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out) { return sum_out(out, self, dtype); }
Tensor& clone_out(Tensor& out, const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return detail::write_out_result(out, self.clone(memory_format), "clone");
}
Tensor& clone_outf(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out) {
  return clone_out(out, self, memory_format);
}

// ---- Views, copied ----

Tensor alias_copy(const Tensor& self) { return self.alias().clone(); }
Tensor as_strided_copy(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                       std::optional<int64_t> storage_offset) {
  return self.as_strided(size, stride, storage_offset).clone();
}
Tensor detach_copy(const Tensor& self) { return self.detach().clone(); }
Tensor diagonal_copy(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  return self.diagonal(offset, dim1, dim2).clone();
}
Tensor expand_copy(const Tensor& self, IntArrayRef size, bool implicit) {
  return self.expand(size, implicit).clone();
}
Tensor permute_copy(const Tensor& self, IntArrayRef dims) { return self.permute(dims).clone(); }
Tensor select_copy(const Tensor& self, int64_t dim, int64_t index) { return self.select(dim, index).clone(); }
Tensor slice_copy(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                  int64_t step) {
  return self.slice(dim, start, end, step).clone();
}
namespace {
std::vector<Tensor> cloned(std::vector<Tensor> views) {
  for (Tensor& view : views) view = view.clone();
  return views;
}
}  // namespace
std::vector<Tensor> split_copy(const Tensor& self, int64_t split_size, int64_t dim) {
  return cloned(self.split(split_size, dim));
}
std::vector<Tensor> split_with_sizes_copy(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return cloned(self.split_with_sizes(split_sizes, dim));
}
Tensor squeeze_copy(const Tensor& self) { return self.squeeze().clone(); }
Tensor squeeze_copy(const Tensor& self, int64_t dim) { return self.squeeze(dim).clone(); }
Tensor t_copy(const Tensor& self) { return self.t().clone(); }
Tensor transpose_copy(const Tensor& self, int64_t dim0, int64_t dim1) { return self.transpose(dim0, dim1).clone(); }
std::vector<Tensor> unbind_copy(const Tensor& self, int64_t dim) { return cloned(self.unbind(dim)); }
Tensor unfold_copy(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  return self.unfold(dimension, size, step).clone();
}
Tensor unsqueeze_copy(const Tensor& self, int64_t dim) { return self.unsqueeze(dim).clone(); }
Tensor view_copy(const Tensor& self, IntArrayRef size) { return self.view(size).clone(); }
Tensor narrow_copy(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return self.narrow(dim, start, length).clone();
}
Tensor Tensor::narrow_copy(int64_t dim, int64_t start, int64_t length) const {
  return tinytorch::narrow_copy(*this, dim, start, length);
}
Tensor lift_fresh_copy(const Tensor& self) { return self.clone(); }

// ---- Free-function spellings ----

Tensor Tensor::alias() const { return as_strided(sizes(), strides(), storage_offset()); }
Tensor alias(const Tensor& self) { return self.alias(); }
Tensor detach(const Tensor& self) { return self.detach(); }
Tensor adjoint(const Tensor& self) { return self.adjoint(); }
Tensor lift(const Tensor& self) { return self; }
Tensor lift_fresh(const Tensor& self) { return self; }
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step) {
  return self.slice(dim, start, end, step);
}
int64_t size(const Tensor& self, int64_t dim) { return self.size(dim); }
int64_t stride(const Tensor& self, int64_t dim) { return self.stride(dim); }
int64_t numel(const Tensor& tensor) { return tensor.numel(); }
bool is_floating_point(const Tensor& tensor) { return tensor.is_floating_point(); }
bool is_complex(const Tensor& /*tensor*/) { return false; }
Tensor fill(const Tensor& self, const Scalar& value) { return self.clone().fill_(value); }
Tensor fill(const Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
              " dimensions.");
  return self.clone().fill_(value.item());
}
Tensor& fill_(Tensor& self, const Scalar& value) { return self.fill_(value); }
Tensor& fill_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
              " dimensions.");
  return self.fill_(value.item());
}
Tensor& zero_(Tensor& self) { return self.zero_(); }
// ---- Windows ----

namespace {
constexpr double kWindowPi = 3.14159265358979323846;

// The window as fn(k, N - 1) for k < window_length, N = window_length (+ 1 when periodic).
template <typename Fn>
Tensor make_window(const char* name, int64_t window_length, bool periodic, TensorOptions options, Fn fn) {
  const ScalarType dtype = options.dtype().toScalarType();
  TORCH_CHECK(isFloatingType(dtype), name, " expects floating point dtypes, got: ", toString(dtype));
  TORCH_CHECK(window_length >= 0, name, " requires non-negative window_length, got window_length=", window_length);
  if (window_length == 0) return empty({0}, options);
  if (window_length == 1) return ones({1}, options);
  const int64_t n = periodic ? window_length + 1 : window_length;
  Tensor values = empty({window_length}, TensorOptions().dtype(kDouble));
  for (int64_t k = 0; k < window_length; ++k) values.data_ptr<double>()[k] = fn(static_cast<double>(k), n - 1.0);
  Tensor result = values.to(dtype);
  if (options.requires_grad()) result.requires_grad_(true);
  return result;
}
}  // namespace

Tensor hann_window(int64_t window_length, TensorOptions options) { return hann_window(window_length, true, options); }
Tensor hann_window(int64_t window_length, bool periodic, TensorOptions options) {
  return make_window("hann_window", window_length, periodic, options,
                     [](double k, double m) { return 0.5 - 0.5 * std::cos(2 * kWindowPi * k / m); });
}
Tensor hamming_window(int64_t window_length, TensorOptions options) {
  return hamming_window(window_length, true, 0.54, 0.46, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, TensorOptions options) {
  return hamming_window(window_length, periodic, 0.54, 0.46, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, TensorOptions options) {
  return hamming_window(window_length, periodic, alpha, 0.46, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta, TensorOptions options) {
  return make_window("hamming_window", window_length, periodic, options, [alpha, beta](double k, double m) {
    return alpha - beta * std::cos(2 * kWindowPi * k / m);
  });
}
Tensor blackman_window(int64_t window_length, TensorOptions options) {
  return blackman_window(window_length, true, options);
}
Tensor blackman_window(int64_t window_length, bool periodic, TensorOptions options) {
  return make_window("blackman_window", window_length, periodic, options, [](double k, double m) {
    return 0.42 - 0.5 * std::cos(2 * kWindowPi * k / m) + 0.08 * std::cos(4 * kWindowPi * k / m);
  });
}
Tensor bartlett_window(int64_t window_length, TensorOptions options) {
  return bartlett_window(window_length, true, options);
}
Tensor bartlett_window(int64_t window_length, bool periodic, TensorOptions options) {
  return make_window("bartlett_window", window_length, periodic, options,
                     [](double k, double m) { return 1 - std::fabs(2 * k / m - 1); });
}
Tensor kaiser_window(int64_t window_length, TensorOptions options) {
  return kaiser_window(window_length, true, 12.0, options);
}
Tensor kaiser_window(int64_t window_length, bool periodic, TensorOptions options) {
  return kaiser_window(window_length, periodic, 12.0, options);
}
Tensor kaiser_window(int64_t window_length, bool periodic, double beta, TensorOptions options) {
  return make_window("kaiser_window", window_length, periodic, options, [beta](double k, double m) {
    const double ratio = (k - m / 2) / (m / 2);
    return std::cyl_bessel_i(0.0, beta * std::sqrt(std::max(0.0, 1 - ratio * ratio))) / std::cyl_bessel_i(0.0, beta);
  });
}

// ---- Triangle indices ----

namespace {
Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options, bool lower) {
  TORCH_CHECK(row >= 0, "row must be non-negative, got", row);
  TORCH_CHECK(col >= 0, "col must be non-negative, got", col);
  std::vector<int64_t> rows;
  std::vector<int64_t> cols;
  for (int64_t r = 0; r < row; ++r) {
    for (int64_t c = 0; c < col; ++c) {
      if (lower ? c - r <= offset : c - r >= offset) {
        rows.push_back(r);
        cols.push_back(c);
      }
    }
  }
  const auto count = static_cast<int64_t>(rows.size());
  Tensor result = empty({2, count}, TensorOptions().dtype(kLong));
  std::copy(rows.begin(), rows.end(), result.data_ptr<int64_t>());
  std::copy(cols.begin(), cols.end(), result.data_ptr<int64_t>() + count);
  return result.to(options.dtype().toScalarType());
}
}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, options, true);
}
Tensor triu_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, options, false);
}

// ---- Sorted search ----

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  if (side.has_value()) {
    TORCH_CHECK(*side == "left" || *side == "right", "torch.searchsorted(): side can only be 'left' or 'right' but ",
                "got ", std::string(*side));
    TORCH_CHECK(!right || *side == "right", "torch.searchsorted(): side and right can't be set to opposites, got side "
                "of ", std::string(*side), " while right was True");
    right = *side == "right";
  }
  const bool one_dim = sorted_sequence.dim() == 1;
  TORCH_CHECK(one_dim || (sorted_sequence.dim() == self.dim() &&
                          std::equal(self.sizes().begin(), self.sizes().end() - 1, sorted_sequence.sizes().begin())),
              "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
              "tensor and input value tensor must match, but we got boundaries tensor ", sorted_sequence.sizes(),
              " and input value tensor ", self.sizes());
  Tensor sequence = sorted_sequence;
  if (sorter.has_value() && sorter->defined()) sequence = sequence.gather(-1, *sorter);
  const Tensor boundaries = detail::as_contiguous(sequence, kDouble);
  const Tensor values = detail::as_contiguous(self, kDouble);
  const int64_t length = boundaries.size(-1);
  const int64_t inner = self.dim() == 0 ? 1 : self.size(-1);
  Tensor result = empty(self.sizes(), TensorOptions().dtype(kLong));
  const double* b = boundaries.data_ptr<double>();
  const double* v = values.data_ptr<double>();
  int64_t* out = result.data_ptr<int64_t>();
  for (int64_t i = 0; i < values.numel(); ++i) {
    const double* row = one_dim ? b : b + (i / inner) * length;
    const double* position = right ? std::upper_bound(row, row + length, v[i]) : std::lower_bound(row, row + length, v[i]);
    out[i] = position - row;
  }
  return out_int32 ? result.to(kInt) : result;
}
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  return searchsorted(sorted_sequence, full({}, self, TensorOptions().dtype(sorted_sequence.scalar_type())), out_int32,
                      right, side, sorter);
}
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return searchsorted(boundaries, self, out_int32, right);
}
Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return bucketize(full({}, self, TensorOptions().dtype(boundaries.scalar_type())), boundaries, out_int32, right);
}

// ---- Products of sets, block diagonals, distances ----

Tensor cartesian_prod(TensorList tensors) {
  TORCH_CHECK(!tensors.empty(), "cartesian_prod expects at least one tensor");
  for (const Tensor& t : tensors) {
    TORCH_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape ", t.sizes());
  }
  if (tensors.size() == 1) return tensors[0];
  std::vector<int64_t> shape;
  for (const Tensor& t : tensors) shape.push_back(t.size(0));
  std::vector<Tensor> columns;
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::vector<int64_t> view(tensors.size(), 1);
    view[i] = -1;
    columns.push_back(tensors[i].view(view).expand(shape).reshape({-1}));
  }
  return stack(columns, 1);
}

Tensor combinations(const Tensor& self, int64_t r, bool with_replacement) {
  TORCH_CHECK(self.dim() == 1, "Expect a 1D vector, but got shape ", self.sizes());
  TORCH_CHECK(r >= 0, "Expect a non-negative number, but got ", r);
  if (r == 0) return empty({0}, TensorOptions().dtype(self.scalar_type()));
  const int64_t n = self.size(0);
  std::vector<std::vector<int64_t>> columns(r);
  std::vector<int64_t> pick(r, 0);
  if (!with_replacement) {
    for (int64_t i = 0; i < r; ++i) pick[i] = i;
  }
  const auto valid = [&] { return !pick.empty() && pick.back() < n; };
  while (r <= n || with_replacement) {
    if (!valid()) break;
    for (int64_t i = 0; i < r; ++i) columns[i].push_back(pick[i]);
    int64_t i = r - 1;  // the next index combination in lexicographic order
    while (i >= 0 && pick[i] == (with_replacement ? n - 1 : n - r + i)) --i;
    if (i < 0) break;
    ++pick[i];
    for (int64_t j = i + 1; j < r; ++j) pick[j] = with_replacement ? pick[i] : pick[j - 1] + 1;
  }
  const auto count = static_cast<int64_t>(columns[0].size());
  if (count == 0) return empty({0, r}, TensorOptions().dtype(self.scalar_type()));
  std::vector<Tensor> picked;
  for (int64_t i = 0; i < r; ++i) {
    Tensor index = empty({count}, TensorOptions().dtype(kLong));
    std::copy(columns[i].begin(), columns[i].end(), index.data_ptr<int64_t>());
    picked.push_back(self.index_select(0, index));
  }
  return stack(picked, 1);
}

Tensor block_diag(TensorList tensors) {
  std::vector<Tensor> blocks;
  int64_t rows = 0;
  int64_t cols = 0;
  ScalarType dtype = tensors.empty() ? default_dtype() : tensors[0].scalar_type();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    TORCH_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i, " has ",
                t.dim(), " dimensions");
    blocks.push_back(t.dim() == 0 ? t.reshape({1, 1}) : (t.dim() == 1 ? t.unsqueeze(0) : t));
    rows += blocks.back().size(0);
    cols += blocks.back().size(1);
    dtype = promoteTypes(dtype, t.scalar_type());
  }
  Tensor result = zeros({rows, cols}, TensorOptions().dtype(dtype));
  int64_t r = 0;
  int64_t c = 0;
  for (const Tensor& block : blocks) {
    result.slice(0, r, r + block.size(0)).slice(1, c, c + block.size(1)).copy_(block);
    r += block.size(0);
    c += block.size(1);
  }
  return result;
}

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> /*compute_mode*/) {
  TORCH_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  TORCH_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  TORCH_CHECK(x1.size(-1) == x2.size(-1), "X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
              " X2: ", x2.size(-1));
  TORCH_CHECK(p >= 0, "cdist only supports non-negative p values");
  TORCH_CHECK(isFloatingType(x1.scalar_type()), "cdist only supports floating-point dtypes, X1 got: ",
              toString(x1.scalar_type()));
  const Tensor difference = x1.unsqueeze(-2) - x2.unsqueeze(-3);
  return linalg_vector_norm(difference, p, IntArrayRef{-1});
}

// ---- Trapezoidal integration ----

namespace {
// The spacing along dim from sample points x (1-D, or y's shape), broadcastable against y's pairs.
Tensor spacing(const Tensor& y, const Tensor& x, int64_t dim) {
  if (x.dim() == 1) {
    TORCH_CHECK(x.size(0) == y.size(dim), "trapezoid: There must be one `x` value for each sample point");
    std::vector<int64_t> view(y.dim(), 1);
    view[dim] = -1;
    return x.diff().view(view);
  }
  return x.diff(1, dim);
}
Tensor pair_sums(const Tensor& y, int64_t dim) {
  const int64_t n = y.size(dim);
  return y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1);
}
int64_t wrapped(const Tensor& y, int64_t dim) { return dim < 0 ? dim + y.dim() : dim; }
}  // namespace

Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  dim = wrapped(y, dim);
  if (y.size(dim) == 0) return y.sum({dim});
  return (pair_sums(y, dim) * spacing(y, x, dim)).sum({dim}) / 2;
}
Tensor trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  dim = wrapped(y, dim);
  if (y.size(dim) == 0) return y.sum({dim});
  return pair_sums(y, dim).sum({dim}) * dx / 2;
}
Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim) { return trapezoid(y, x, dim); }
Tensor trapz(const Tensor& y, double dx, int64_t dim) { return trapezoid(y, Scalar(dx), dim); }
Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  dim = wrapped(y, dim);
  return (pair_sums(y, dim) * spacing(y, x, dim) / 2).cumsum(dim);
}
Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  dim = wrapped(y, dim);
  return (pair_sums(y, dim) * dx / 2).cumsum(dim);
}

// ---- Covariance and correlation ----

Tensor cov(const Tensor& self, int64_t correction, const std::optional<Tensor>& fweights,
           const std::optional<Tensor>& aweights) {
  TORCH_CHECK(self.dim() <= 2, "cov(): expected input to have two or fewer dimensions but got an input with ",
              self.dim(), " dimensions");
  Tensor x = self.dim() < 2 ? self.view({1, -1}) : self;
  if (!isFloatingType(x.scalar_type())) x = x.to(default_dtype());
  const int64_t observations = x.size(1);
  Tensor weights;
  if (fweights.has_value() && fweights->defined()) weights = *fweights;
  if (aweights.has_value() && aweights->defined()) weights = weights.defined() ? weights * *aweights : *aweights;
  Tensor average;
  Tensor weight_sum;
  if (weights.defined()) {
    weight_sum = weights.sum().to(x.scalar_type());
    average = (x * weights).sum({1}) / weight_sum;
  } else {
    weight_sum = full({}, static_cast<double>(observations), TensorOptions().dtype(x.scalar_type()));
    average = x.mean({1});
  }
  Tensor norm_factor;
  if (weights.defined() && aweights.has_value() && aweights->defined() && correction != 0) {
    norm_factor = weight_sum - correction * (weights * *aweights).sum() / weight_sum;
  } else {
    norm_factor = weight_sum - correction;
  }
  norm_factor = norm_factor.clamp_min(0);
  const Tensor centered = x - average.unsqueeze(1);
  const Tensor weighted = weights.defined() ? centered * weights : centered;
  const Tensor result = weighted.matmul(centered.t()) / norm_factor;
  return self.dim() < 2 ? result.squeeze() : result;
}

Tensor corrcoef(const Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "corrcoef(): expected input to have two or fewer dimensions but got an input with ",
              self.dim(), " dimensions");
  const Tensor c = cov(self);
  if (c.dim() == 0) return c / c;
  const Tensor stddev = c.diagonal().sqrt();
  return (c / stddev.unsqueeze(1) / stddev.unsqueeze(0)).clamp(-1, 1);
}

Tensor vander(const Tensor& x, std::optional<int64_t> N, bool increasing) {
  TORCH_CHECK(x.dim() == 1, "x must be a one-dimensional tensor.");
  const int64_t n = N.value_or(x.size(0));
  TORCH_CHECK(n >= 0, "N must be non-negative.");
  const ScalarType dtype = promoteTypes(x.scalar_type(), kLong);
  if (n == 0) return empty({x.size(0), 0}, TensorOptions().dtype(dtype));
  std::vector<Tensor> powers{ones_like(x, TensorOptions().dtype(dtype))};
  for (int64_t k = 1; k < n; ++k) powers.push_back(powers.back() * x);
  Tensor result = stack(powers, 1);
  return increasing ? result : result.flip({1});
}

bool can_cast(ScalarType from, ScalarType to) { return canCast(from, to); }
ScalarType promote_types(ScalarType type1, ScalarType type2) { return promoteTypes(type1, type2); }

// ---- torch::special: the scalar functions TinyTorch had no op for ----

namespace {
constexpr double kPi = 3.14159265358979323846;

// exp(x^2) erfc(x) without overflow: the asymptotic series where erfc underflows.
double erfcx_value(double x) {
  if (std::isnan(x)) return x;
  if (x < 26.0) return std::exp(x * x) * std::erfc(x);
  const double inverse_square = 1.0 / (x * x);
  const double series = 1.0 + inverse_square * (-0.5 + inverse_square * (0.75 + inverse_square * (-1.875 +
                                                 inverse_square * 6.5625)));
  return series / (x * std::sqrt(kPi));
}

// exp(-|x|) I_nu(|x|) for nu = 0, 1, as Cephes' i0e / i1e: the power series below 50, the
// asymptotic series above (where I_nu overflows).
double scaled_bessel_i(int nu, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double value;
  if (ax < 50.0) {
    value = std::exp(-ax) * std::cyl_bessel_i(static_cast<double>(nu), ax);
  } else {
    const double mu = 4.0 * nu * nu;
    double term = 1.0;
    double sum = 1.0;
    for (int k = 1; k < 12; ++k) {
      term *= -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * ax);
      sum += term;
    }
    value = sum / std::sqrt(2.0 * kPi * ax);
  }
  return (nu == 1 && x < 0) ? -value : value;
}
double i0e_value(double x) { return scaled_bessel_i(0, x); }
double i1e_value(double x) { return scaled_bessel_i(1, x); }
double i1_value(double x) {
  if (std::isnan(x)) return x;
  const double value = std::cyl_bessel_i(1.0, std::fabs(x));
  return x < 0 ? -value : value;
}

double ndtr_value(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The inverse of the normal CDF: Acklam's rational approximation, then two Newton steps.
double ndtri_value(double p) {
  if (std::isnan(p) || p < 0.0 || p > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0.0) return -std::numeric_limits<double>::infinity();
  if (p == 1.0) return std::numeric_limits<double>::infinity();
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - 0.02425) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  for (int step = 0; step < 2; ++step) {  // Newton on ndtr(x) = p, in the tail that keeps precision
    const double density = std::exp(-0.5 * x * x) / std::sqrt(2 * kPi);
    if (density == 0) break;
    const double error = p < 0.5 ? ndtr_value(x) - p : (1 - p) - 0.5 * std::erfc(x / std::sqrt(2.0));
    x -= (p < 0.5 ? error : -error) / density;
  }
  return x;
}

double log_ndtr_value(double x) {
  const double t = x / std::sqrt(2.0);
  if (x < -1.0) return std::log(erfcx_value(-t) / 2) - t * t;
  return std::log1p(-std::erfc(t) / 2);
}

// The Hurwitz zeta function sum_k (k + q)^-x, by Euler-Maclaurin summation (Cephes' zeta).
double zeta_value(double x, double q) {
  static const double A[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                             7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                             -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18};
  if (x == 1.0) return std::numeric_limits<double>::infinity();
  if (x < 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (q <= 0.0) {
    if (q == std::floor(q)) return std::numeric_limits<double>::infinity();
    if (x != std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
  }
  double s = std::pow(q, -x);
  double a = q;
  int i = 0;
  double b = 0.0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1.0;
    b = std::pow(a, -x);
    s += b;
    if (std::fabs(b / s) < 1e-17) return s;
  }
  const double w = a;
  s += b * w / (x - 1.0);
  s -= 0.5 * b;
  double factor = 1.0;
  double k = 0.0;
  for (int j = 0; j < 12; ++j) {
    factor *= x + k;
    b /= w;
    double t = factor * b / A[j];
    s += t;
    if (std::fabs(t / s) < 1e-17) break;
    k += 1.0;
    factor *= x + k;
    b /= w;
    k += 1.0;
  }
  return s;
}

// The floating result dtype of a unary special function: integers and bools give the default dtype.
ScalarType floating_result_type(const Tensor& self) {
  return isFloatingType(self.scalar_type()) ? self.scalar_type() : default_dtype();
}

// fn over every element, computed in double, as a new tensor of the floating result dtype.
Tensor map_unary(const Tensor& self, double (*fn)(double)) {
  const Tensor input = detail::as_contiguous(self, kDouble);
  Tensor result = empty(self.sizes(), TensorOptions().dtype(kDouble));
  const double* in = input.data_ptr<double>();
  double* out = result.data_ptr<double>();
  for (int64_t i = 0; i < input.numel(); ++i) out[i] = fn(in[i]);
  return detail::as_dtype(result, floating_result_type(self));
}

const OpHandle erfcx_op("special_erfcx");
const OpHandle i0e_op("special_i0e");
const OpHandle i1_op("special_i1");
const OpHandle i1e_op("special_i1e");
const OpHandle ndtri_op("special_ndtri");
const OpHandle log_ndtr_op("special_log_ndtr");

Tensor record_unary(const OpHandle& op, const Tensor& self, const Tensor& result) {
  record_op(op, {self}, {result});
  return result;
}

const RegisterDerivative erfcx_derivative("special_erfcx", {
    "SpecialErfcxBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.grad() * (2.0 * ctx.saved(0) * ctx.saved(1) - 2.0 / std::sqrt(kPi))};
    }});
const RegisterDerivative i0e_derivative("special_i0e", {
    "SpecialI0EBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      return {ctx.grad() * (special::i1e(self) - self.sgn() * ctx.saved(1))};
    }});
const RegisterDerivative i1_derivative("special_i1", {
    "SpecialI1Backward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor at_zero = self.eq(0);
      const Tensor ratio = ctx.saved(1) / self.masked_fill(at_zero, 1);
      return {ctx.grad() * (self.i0() - ratio).masked_fill(at_zero, 0.5)};
    }});
const RegisterDerivative i1e_derivative("special_i1e", {
    "SpecialI1EBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      const Tensor at_zero = self.eq(0);
      const Tensor slope = special::i0e(self) - ctx.saved(1) * (self.sgn() + self.masked_fill(at_zero, 1).reciprocal());
      return {ctx.grad() * slope.masked_fill(at_zero, 0.5)};
    }});
const RegisterDerivative ndtri_derivative("special_ndtri", {
    "SpecialNdtriBackward0", [](SaveForBackward& save) { save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& result = ctx.saved(0);
      return {ctx.grad() * std::sqrt(2 * kPi) * (result.square() / 2).exp()};
    }});
const RegisterDerivative log_ndtr_derivative("special_log_ndtr", {
    "SpecialLogNdtrBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      return {ctx.grad() * (-self.square() / 2 - ctx.saved(1)).exp() / std::sqrt(2 * kPi)};
    }});
}  // namespace

Tensor special_erfcx(const Tensor& self) { return record_unary(erfcx_op, self, map_unary(self, erfcx_value)); }
Tensor special_i0e(const Tensor& self) { return record_unary(i0e_op, self, map_unary(self, i0e_value)); }
Tensor special_i1(const Tensor& self) { return record_unary(i1_op, self, map_unary(self, i1_value)); }
Tensor special_i1e(const Tensor& self) { return record_unary(i1e_op, self, map_unary(self, i1e_value)); }
Tensor special_ndtri(const Tensor& self) { return record_unary(ndtri_op, self, map_unary(self, ndtri_value)); }
Tensor special_log_ndtr(const Tensor& self) {
  return record_unary(log_ndtr_op, self, map_unary(self, log_ndtr_value));
}
Tensor special_ndtr(const Tensor& self) {
  const Tensor x = isFloatingType(self.scalar_type()) ? self : self.to(default_dtype());
  return (x * (-1.0 / std::sqrt(2.0))).erfc() * 0.5;
}
Tensor special_entr(const Tensor& self) {
  const Tensor x = isFloatingType(self.scalar_type()) ? self : self.to(default_dtype());
  const Tensor positive = -x * x.log();
  const Tensor zero_or_negative =
      zeros_like(x).masked_fill(x.lt(0), -std::numeric_limits<double>::infinity());
  return where(x.gt(0), positive, zero_or_negative).masked_fill(x.isnan(), std::numeric_limits<double>::quiet_NaN());
}
Tensor special_xlog1py(const Tensor& self, const Tensor& other) {
  const Tensor product = self * other.log1p();
  return where(self.eq(0).logical_and(other.isnan().logical_not()), zeros_like(product), product);
}
Tensor special_xlog1py(const Scalar& self, const Tensor& other) {
  return special_xlog1py(detail::wrapped_scalar(self), other);
}
Tensor special_xlog1py(const Tensor& self, const Scalar& other) {
  return special_xlog1py(self, detail::wrapped_scalar(other));
}
namespace {
// fn over the broadcast pairs, computed in double, as a new tensor of the promoted floating dtype.
Tensor map_binary(const Tensor& self, const Tensor& other, double (*fn)(double, double)) {
  const ScalarType promoted = result_type(self, other);
  const ScalarType dtype = isFloatingType(promoted) ? promoted : default_dtype();
  const std::vector<int64_t> shape = infer_size(self.sizes(), other.sizes());
  const Tensor a = detail::as_contiguous(self.expand(shape), kDouble);
  const Tensor b = detail::as_contiguous(other.expand(shape), kDouble);
  Tensor result = empty(shape, TensorOptions().dtype(kDouble));
  const double* as = a.data_ptr<double>();
  const double* bs = b.data_ptr<double>();
  double* out = result.data_ptr<double>();
  for (int64_t i = 0; i < result.numel(); ++i) out[i] = fn(as[i], bs[i]);
  return detail::as_dtype(result, dtype);
}

// ---- Orthogonal polynomials of degree n (n < 0 gives 0), as LibTorch's recurrences ----
template <typename Next>
double recurrence(double p0, double p1, int64_t n, Next next) {
  if (n == 0) return p0;
  double p = p0;
  double q = p1;
  for (int64_t k = 1; k < n; ++k) {
    const double r = next(k, p, q);
    p = q;
    q = r;
  }
  return q;
}
double chebyshev_t(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n % 2 == 0) ? 1 : -1;
  if (n > 6 && std::fabs(x) < 1) return std::cos(n * std::acos(x));
  return recurrence(1, x, n, [x](int64_t, double p, double q) { return (x + x) * q - p; });
}
double chebyshev_u(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n % 2 == 0) ? n + 1 : -(n + 1);
  if (n > 8 && std::fabs(x) < 1) {
    const double angle = std::acos(x);
    if (std::sin(angle) != 0) return std::sin((n + 1) * angle) / std::sin(angle);
    return (n + 1) * std::cos((n + 1) * angle) / x;
  }
  return recurrence(1, x + x, n, [x](int64_t, double p, double q) { return (x + x) * q - p; });
}
double chebyshev_v(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 1) {
    if (x > 0) return 1;
    return n % 2 == 0 ? n + n + 1 : -(n + n + 1);
  }
  if (n > 8 && std::fabs(x) < 1) {
    const double angle = std::acos(x);
    if (std::sin(angle / 2) != 1) return std::cos((n + 0.5) * angle) / std::cos(angle / 2);
    return n % 2 == 0 ? n + n + 1 : -(n + n + 1);
  }
  return recurrence(1, x + x - 1, n, [x](int64_t, double p, double q) { return (x + x) * q - p; });
}
double chebyshev_w(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 1) {
    if (x > 0) return n + n + 1;
    return n % 2 == 0 ? 1 : -1;
  }
  if (n > 8 && std::fabs(x) < 1) {
    const double angle = std::acos(x);
    if (std::cos(angle / 2) != 1) return std::sin((n + 0.5) * angle) / std::sin(angle / 2);
    if (x > 0) return n + n + 1;
    return n % 2 == 0 ? 1 : -1;
  }
  return recurrence(1, x + x + 1, n, [x](int64_t, double p, double q) { return (x + x) * q - p; });
}
double shifted_chebyshev_t(double x, double n) { return chebyshev_t(x + x - 1, n); }
double shifted_chebyshev_u(double x, double n) { return chebyshev_u(x + x - 1, n); }
double shifted_chebyshev_v(double x, double n) { return chebyshev_v(x + x - 1, n); }
double shifted_chebyshev_w(double x, double n) { return chebyshev_w(x + x - 1, n); }
double hermite_h(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  return recurrence(1, x + x, n, [x](int64_t k, double p, double q) { return (x + x) * q - 2.0 * k * p; });
}
double hermite_he(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  return recurrence(1, x, n, [x](int64_t k, double p, double q) { return x * q - static_cast<double>(k) * p; });
}
double laguerre_l(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 0) return 1;
  return recurrence(1, 1 - x, n, [x](int64_t k, double p, double q) {
    return ((2.0 * k + 1 - x) * q - static_cast<double>(k) * p) / (k + 1.0);
  });
}
double legendre_p(double x, double degree) {
  const auto n = static_cast<int64_t>(degree);
  if (n < 0) return 0;
  if (std::fabs(x) == 1) return (x > 0 || n == 1 || n % 2 == 0) ? 1 : -1;
  return recurrence(1, x, n, [x](int64_t k, double p, double q) {
    return ((2.0 * k + 1) * x * q - static_cast<double>(k) * p) / (k + 1.0);
  });
}

// ---- Bessel functions through the C++17 special functions ----
double bessel_j0(double x) { return std::isnan(x) ? x : std::cyl_bessel_j(0.0, std::fabs(x)); }
double bessel_j1(double x) {
  if (std::isnan(x)) return x;
  const double value = std::cyl_bessel_j(1.0, std::fabs(x));
  return x < 0 ? -value : value;
}
double bessel_y(double nu, double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  return std::cyl_neumann(nu, x);
}
double bessel_y0(double x) { return bessel_y(0, x); }
double bessel_y1(double x) { return bessel_y(1, x); }
double modified_i0(double x) { return std::isnan(x) ? x : std::cyl_bessel_i(0.0, std::fabs(x)); }
double modified_k(double nu, double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return std::numeric_limits<double>::infinity();
  return std::cyl_bessel_k(nu, x);
}
double modified_k0(double x) { return modified_k(0, x); }
double modified_k1(double x) { return modified_k(1, x); }
// exp(x) K_nu(x): the asymptotic series where K underflows.
double scaled_k(double nu, double x) {
  if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return std::numeric_limits<double>::infinity();
  if (x < 50) return std::exp(x) * std::cyl_bessel_k(nu, x);
  const double mu = 4 * nu * nu;
  double term = 1;
  double sum = 1;
  for (int k = 1; k < 12; ++k) {
    term *= (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    sum += term;
  }
  return std::sqrt(kPi / (2 * x)) * sum;
}
double scaled_k0(double x) { return scaled_k(0, x); }
double scaled_k1(double x) { return scaled_k(1, x); }
double spherical_j0(double x) {
  if (std::isinf(x)) return 0;
  return x == 0 ? 1 : std::sin(x) / x;
}
double airy_ai(double x) {
  if (std::isnan(x)) return x;
  if (x == 0) return 0.355028053887817239;
  if (std::isinf(x)) return x > 0 ? 0 : std::numeric_limits<double>::quiet_NaN();
  const double t = std::fabs(x);
  const double zeta = 2.0 / 3.0 * t * std::sqrt(t);
  if (x > 0) return std::sqrt(t / 3) / kPi * std::cyl_bessel_k(1.0 / 3.0, zeta);
  return std::sqrt(t) / 2 * (std::cyl_bessel_j(1.0 / 3.0, zeta) - std::cyl_neumann(1.0 / 3.0, zeta) / std::sqrt(3.0));
}

// ---- The regularized incomplete gamma functions P(a, x) and Q(a, x) ----
double gammainc_series(double a, double x) {
  double term = 1 / a;
  double sum = term;
  for (int n = 1; n < 1000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * 1e-17) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}
double gammaincc_fraction(double a, double x) {  // Lentz's continued fraction
  const double tiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / tiny;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}
double gammainc_value(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return std::numeric_limits<double>::quiet_NaN();
  if (a == 0) return x > 0 ? 1 : std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return 0;
  if (std::isinf(a)) return std::isinf(x) ? std::numeric_limits<double>::quiet_NaN() : 0;
  if (std::isinf(x)) return 1;
  return x < a + 1 ? gammainc_series(a, x) : 1 - gammaincc_fraction(a, x);
}
double gammaincc_value(double a, double x) {
  if (std::isnan(a) || std::isnan(x) || x < 0 || a < 0) return std::numeric_limits<double>::quiet_NaN();
  if (a == 0) return x > 0 ? 0 : std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return 1;
  if (std::isinf(a)) return std::isinf(x) ? std::numeric_limits<double>::quiet_NaN() : 1;
  if (std::isinf(x)) return 0;
  return x < a + 1 ? 1 - gammainc_series(a, x) : gammaincc_fraction(a, x);
}
}  // namespace

Tensor special_zeta(const Tensor& self, const Tensor& other) { return map_binary(self, other, zeta_value); }
Tensor special_zeta(const Scalar& self, const Tensor& other) { return special_zeta(detail::wrapped_scalar(self), other); }
Tensor special_zeta(const Tensor& self, const Scalar& other) { return special_zeta(self, detail::wrapped_scalar(other)); }
Tensor special_gammainc(const Tensor& self, const Tensor& other) { return map_binary(self, other, gammainc_value); }
Tensor special_gammaincc(const Tensor& self, const Tensor& other) { return map_binary(self, other, gammaincc_value); }
Tensor igamma(const Tensor& self, const Tensor& other) { return special_gammainc(self, other); }
Tensor igammac(const Tensor& self, const Tensor& other) { return special_gammaincc(self, other); }

#define TT_SPECIAL_POLYNOMIAL(NAME, FN)                                                                   \
  Tensor special_##NAME(const Tensor& x, const Tensor& n) { return map_binary(x, n, FN); }               \
  Tensor special_##NAME(const Scalar& x, const Tensor& n) { return special_##NAME(detail::wrapped_scalar(x), n); } \
  Tensor special_##NAME(const Tensor& x, const Scalar& n) { return special_##NAME(x, detail::wrapped_scalar(n)); }
TT_SPECIAL_POLYNOMIAL(chebyshev_polynomial_t, chebyshev_t)
TT_SPECIAL_POLYNOMIAL(chebyshev_polynomial_u, chebyshev_u)
TT_SPECIAL_POLYNOMIAL(chebyshev_polynomial_v, chebyshev_v)
TT_SPECIAL_POLYNOMIAL(chebyshev_polynomial_w, chebyshev_w)
TT_SPECIAL_POLYNOMIAL(shifted_chebyshev_polynomial_t, shifted_chebyshev_t)
TT_SPECIAL_POLYNOMIAL(shifted_chebyshev_polynomial_u, shifted_chebyshev_u)
TT_SPECIAL_POLYNOMIAL(shifted_chebyshev_polynomial_v, shifted_chebyshev_v)
TT_SPECIAL_POLYNOMIAL(shifted_chebyshev_polynomial_w, shifted_chebyshev_w)
TT_SPECIAL_POLYNOMIAL(hermite_polynomial_h, hermite_h)
TT_SPECIAL_POLYNOMIAL(hermite_polynomial_he, hermite_he)
TT_SPECIAL_POLYNOMIAL(laguerre_polynomial_l, laguerre_l)
TT_SPECIAL_POLYNOMIAL(legendre_polynomial_p, legendre_p)
#undef TT_SPECIAL_POLYNOMIAL

Tensor special_bessel_j0(const Tensor& self) { return map_unary(self, bessel_j0); }
Tensor special_bessel_j1(const Tensor& self) { return map_unary(self, bessel_j1); }
Tensor special_bessel_y0(const Tensor& self) { return map_unary(self, bessel_y0); }
Tensor special_bessel_y1(const Tensor& self) { return map_unary(self, bessel_y1); }
Tensor special_modified_bessel_i0(const Tensor& self) { return map_unary(self, modified_i0); }
Tensor special_modified_bessel_i1(const Tensor& self) { return map_unary(self, i1_value); }
Tensor special_modified_bessel_k0(const Tensor& self) { return map_unary(self, modified_k0); }
Tensor special_modified_bessel_k1(const Tensor& self) { return map_unary(self, modified_k1); }
Tensor special_scaled_modified_bessel_k0(const Tensor& self) { return map_unary(self, scaled_k0); }
Tensor special_scaled_modified_bessel_k1(const Tensor& self) { return map_unary(self, scaled_k1); }
Tensor special_spherical_bessel_j0(const Tensor& self) { return map_unary(self, spherical_j0); }
Tensor special_airy_ai(const Tensor& self) { return map_unary(self, airy_ai); }

}  // namespace tinytorch
