// Ordering ops (given code): sort, argsort and topk, with LibTorch's argument order, defaults and
// messages. Each works row by row along `dim`: the tensor is viewed with `dim` moved last and made
// contiguous, every row is ordered by an index sort, and the result is moved back. NaN orders above
// every number, as in LibTorch: last in an ascending sort, first in a descending one and in topk.
// The gradient of the values goes back to the positions they were taken from (SortBackward0,
// TopkBackward0: LibTorch's value_selecting_reduction_backward).
#include <algorithm>
#include <numeric>
#include <vector>

#include "internal.h"
#include "tinytorch/derivative.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

template <typename T>
bool is_nan(T v) {
  return v != v;  // true only for a floating NaN
}

// a comes before b in the requested order (NaN counts as the largest value).
template <typename T>
bool ordered_before(T a, T b, bool descending) {
  if (descending) {
    if (is_nan(a)) return !is_nan(b);
    if (is_nan(b)) return false;
    return a > b;
  }
  if (is_nan(b)) return !is_nan(a);
  if (is_nan(a)) return false;
  return a < b;
}

// The first `keep` elements of every row of `rows` (contiguous, last dim = the row) in order, and
// where each came from. Equal values keep their original order (a stable sort).
std::tuple<Tensor, Tensor> order_rows(const Tensor& rows, int64_t keep, bool descending) {
  // The narrow dtypes sort in their computation type (int64, float), which keeps every value exactly.
  const ScalarType compute_type = detail::computation_type(rows.scalar_type());
  if (compute_type != rows.scalar_type()) {
    auto [values, indices] = order_rows(detail::as_dtype(rows, compute_type), keep, descending);
    return {detail::as_dtype(values, rows.scalar_type()), indices};
  }
  const int64_t length = rows.dim() == 0 ? 1 : rows.size(-1);
  const int64_t count = length == 0 ? 0 : rows.numel() / length;
  std::vector<int64_t> out_sizes(rows.sizes().begin(), rows.sizes().end());
  if (!out_sizes.empty()) out_sizes.back() = keep;
  Tensor values = empty(out_sizes, rows.options());
  Tensor indices = empty(out_sizes, kLong);
  int64_t* index_out = indices.data_ptr<int64_t>();
  TT_DISPATCH_ALL_TYPES(rows.scalar_type(), "sort", [&] {
    const scalar_t* in = rows.data_ptr<scalar_t>();
    scalar_t* value_out = values.data_ptr<scalar_t>();
    std::vector<int64_t> order(static_cast<size_t>(length));
    for (int64_t r = 0; r < count; ++r) {
      const scalar_t* row = in + r * length;
      std::iota(order.begin(), order.end(), 0);
      const auto before = [&](int64_t a, int64_t b) { return ordered_before(row[a], row[b], descending); };
      if (keep < length) {
        std::partial_sort(order.begin(), order.begin() + keep, order.end(), [&](int64_t a, int64_t b) {
          return before(a, b) || (!before(b, a) && a < b);  // ties by position: the stable order
        });
      } else {
        std::stable_sort(order.begin(), order.end(), before);
      }
      for (int64_t j = 0; j < keep; ++j) {
        value_out[r * keep + j] = row[order[j]];
        index_out[r * keep + j] = order[j];
      }
    }
  });
  return {values, indices};
}

// Orders `self` along `dim`, keeping the first `keep` of each row; the recorded op is `op`.
std::tuple<Tensor, Tensor> order_along(const Tensor& self, int64_t dim, int64_t keep, bool descending,
                                       const OpHandle& op) {
  Tensor values, indices;
  {
    NoGradGuard no_grad;  // the moves below are internal: only `op` is recorded
    const Tensor rows = self.dim() == 0 ? detail::as_contiguous(self, self.scalar_type())
                                        : self.transpose(dim, -1).contiguous();
    std::tie(values, indices) = order_rows(rows, keep, descending);
    if (self.dim() > 0) {
      values = values.transpose(dim, -1).contiguous();
      indices = indices.transpose(dim, -1).contiguous();
    }
  }
  OpAttributes attributes;
  attributes.dim = dim;
  record_op(op, {self}, {values, indices}, attributes);
  return {values, indices};
}

// zeros(self_sizes) with grad[..., j, ...] added at indices[..., j, ...] along dim.
Tensor scatter_into_zeros(const Tensor& grad, const Tensor& indices, int64_t dim, IntArrayRef self_sizes) {
  if (self_sizes.empty()) return grad.clone();
  const Tensor grad_rows = grad.transpose(dim, -1).contiguous();
  const Tensor index_rows = indices.transpose(dim, -1).contiguous();
  std::vector<int64_t> moved(self_sizes.begin(), self_sizes.end());
  std::swap(moved[static_cast<size_t>(dim)], moved.back());
  Tensor result = zeros(moved, grad.options());
  const int64_t length = moved.back(), keep = grad_rows.dim() == 0 ? 1 : grad_rows.size(-1);
  const int64_t count = keep == 0 ? 0 : grad_rows.numel() / keep;
  const int64_t* index = index_rows.data_ptr<int64_t>();
  TT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "sort_backward", [&] {
    const scalar_t* g = grad_rows.data_ptr<scalar_t>();
    scalar_t* out = result.data_ptr<scalar_t>();
    for (int64_t r = 0; r < count; ++r)
      for (int64_t j = 0; j < keep; ++j) out[r * length + index[r * keep + j]] += g[r * keep + j];
  });
  return result.transpose(dim, -1).contiguous();
}

void save_indices_and_sizes(SaveForBackward& save) {
  save.output(1);  // indices (int64: no history)
  save.input_sizes(0);
}

tensor_list value_selecting_backward(const BackwardContext& ctx) {
  TT_CHECK(!GradMode::is_enabled() || !ctx.grad().requires_grad(),
           "double backward through sort/topk (create_graph=true) is not supported by TinyTorch yet");
  return {scatter_into_zeros(ctx.grad(), ctx.saved(0), ctx.attributes.dim, ctx.saved_sizes(0))};
}

const RegisterDerivative sort_derivative("sort", {"SortBackward0", save_indices_and_sizes, value_selecting_backward});
const RegisterDerivative topk_derivative("topk", {"TopkBackward0", save_indices_and_sizes, value_selecting_backward});

}  // namespace

std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  static OpHandle sort_op("sort");
  return order_along(*this, d, this->dim() == 0 ? 1 : size(d), descending, sort_op);
}

std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> /*stable*/, int64_t dim, bool descending) const {
  return sort(dim, descending);  // TinyTorch's sort is always stable
}

Tensor Tensor::argsort(int64_t dim, bool descending) const { return std::get<1>(sort(dim, descending)); }

std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool /*sorted*/) const {
  const int64_t d = maybe_wrap_dim(dim, this->dim());
  TT_CHECK(k >= 0 && k <= (this->dim() > 0 ? size(d) : 1), "selected index k out of range");
  // The k kept come out ordered whatever `sorted` says: LibTorch leaves the order unspecified then.
  static OpHandle topk_op("topk");
  return order_along(*this, d, k, /*descending=*/largest, topk_op);
}

}  // namespace tinytorch
