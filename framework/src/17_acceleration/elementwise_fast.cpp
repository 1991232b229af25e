// Module 17 (Acceleration), lesson sections "2. Loop order and cache lines" (the reductions) and
// "9. Fusion and memory traffic": the element-wise and reduction fast paths (contracts in
// tinytorch/acceleration_kernels.h). The common cases of a training step (contiguous floating
// tensors, large enough) run in plain loops the compiler vectorises, without the general loops'
// per-element index arithmetic and function-pointer calls. The given code picks the case (the
// layout) and declines everything else, which then runs module 01's general loops. In a build
// without module 17 none of this is linked, so your module 01 loops run at every size.
#include <algorithm>
#include <numeric>

#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/errors.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {
namespace {

using detail::FastArithmetic;
using detail::FastComparison;

// Below this many elements the general loops are as fast: the fast paths decline.
constexpr int64_t kFastElementwiseMinNumel = 256;

// The common cases of a training step, done without the general loop's per-element index
// arithmetic and function-pointer call: floating tensors, contiguous, and either the same shape,
// one side a single element (a scalar), or one side a row broadcast along the other's leading dims
// (a bias added to a batch), or one column per row (softmax's row sums). The op is a template
// argument, so the loops vectorise.
enum class FastLayout { None, SameShape, ScalarRight, ScalarLeft, RowRight, RowLeft, ColumnRight, ColumnLeft };

// True when `row` is one block of `full`'s trailing dims, repeated over its leading ones: a bias of
// the last dim's size, or a (T, T) attention mask under (B H, T, T) scores. Leading 1s of `row` are
// ignored.
bool is_row_of(const Tensor& row, const Tensor& full) {
  if (full.dim() < 2 || row.dim() == 0 || row.numel() == 0) return false;
  int64_t first = 0;  // row's first dim that is not a leading 1
  while (first < row.dim() && row.size(first) == 1) ++first;
  const int64_t block_dims = row.dim() - first;
  if (block_dims == 0 || block_dims >= full.dim()) return false;  // a scalar, or the same shape
  for (int64_t d = 0; d < block_dims; ++d) {
    if (row.size(first + d) != full.size(full.dim() - block_dims + d)) return false;
  }
  return true;
}

// True when `column` has `full`'s sizes except a last dim of 1: one value per row of `full`.
bool is_column_of(const Tensor& column, const Tensor& full) {
  if (full.dim() < 1 || column.dim() != full.dim() || column.size(-1) != 1) return false;
  for (int64_t d = 0; d + 1 < full.dim(); ++d) {
    if (column.size(d) != full.size(d)) return false;
  }
  return true;
}

FastLayout fast_layout(const Tensor& x, const Tensor& y, const Tensor& out, ScalarType dtype) {
  if (!isFloatingType(dtype) || out.numel() < kFastElementwiseMinNumel) return FastLayout::None;
  if (!x.is_contiguous() || !y.is_contiguous()) return FastLayout::None;
  const bool x_full = x.sizes().equals(out.sizes());
  const bool y_full = y.sizes().equals(out.sizes());
  if (x_full && y_full) return FastLayout::SameShape;
  if (x_full && y.numel() == 1) return FastLayout::ScalarRight;
  if (y_full && x.numel() == 1) return FastLayout::ScalarLeft;
  if (x_full && is_row_of(y, out)) return FastLayout::RowRight;
  if (y_full && is_row_of(x, out)) return FastLayout::RowLeft;
  if (x_full && is_column_of(y, out)) return FastLayout::ColumnRight;
  if (y_full && is_column_of(x, out)) return FastLayout::ColumnLeft;
  return FastLayout::None;
}

// TODO: contiguous_binary_loop -- out = op(x, y) for contiguous x, y, out of element type T, in
//   one flat loop per layout (section 9, "Fusion and memory traffic"); the given fast_layout has
//   already checked the shapes and chosen the layout:
//     SameShape    x, y and out have the same sizes
//     ScalarRight  y is one element             ScalarLeft  x is one element
//     RowRight     y is one row of R = y.numel() values that repeats along out (a bias of
//                  out.size(-1), or a whole trailing block: a (T, T) mask under (B, T, T) scores)
//     RowLeft      the same with x as the row
//     ColumnRight  y holds one value per row of out (rows of out.numel() / y.numel() elements)
//     ColumnLeft   the same with x as the column
//   x is always op's first argument and y its second, whichever side is broadcast (- and / care).
//   op is a lambda (a template argument), so each loop inlines it and the compiler can vectorise it.
template <typename T, typename Op>
void contiguous_binary_loop(const Tensor& x, const Tensor& y, const Tensor& out, FastLayout layout, Op op) {
  // BEGIN SOLUTION name="tinytorch::native::contiguous_binary_loop" lesson="9. Fusion and memory traffic"
  const T* a = static_cast<const T*>(x.data_ptr());
  const T* b = static_cast<const T*>(y.data_ptr());
  T* c = static_cast<T*>(out.data_ptr());
  const int64_t n = out.numel();
  switch (layout) {
    case FastLayout::SameShape:
      for (int64_t i = 0; i < n; ++i) c[i] = op(a[i], b[i]);
      break;
    case FastLayout::ScalarRight: {
      const T scalar = *b;
      for (int64_t i = 0; i < n; ++i) c[i] = op(a[i], scalar);
      break;
    }
    case FastLayout::ScalarLeft: {
      const T scalar = *a;
      for (int64_t i = 0; i < n; ++i) c[i] = op(scalar, b[i]);
      break;
    }
    case FastLayout::RowRight:
    case FastLayout::RowLeft: {
      const int64_t row = layout == FastLayout::RowRight ? y.numel() : x.numel();
      for (int64_t start = 0; start < n; start += row) {
        T* c_row = c + start;
        if (layout == FastLayout::RowRight) {
          const T* a_row = a + start;
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a_row[j], b[j]);
        } else {
          const T* b_row = b + start;
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a[j], b_row[j]);
        }
      }
      break;
    }
    case FastLayout::ColumnRight:
    case FastLayout::ColumnLeft: {
      const int64_t row = out.size(-1);
      for (int64_t r = 0, start = 0; start < n; ++r, start += row) {
        T* c_row = c + start;
        if (layout == FastLayout::ColumnRight) {
          const T* a_row = a + start;
          const T value = b[r];
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(a_row[j], value);
        } else {
          const T* b_row = b + start;
          const T value = a[r];
          for (int64_t j = 0; j < row; ++j) c_row[j] = op(value, b_row[j]);
        }
      }
      break;
    }
    case FastLayout::None:
      break;
  }
  // END SOLUTION
}


// Comparisons of floating, contiguous tensors, same-shaped or against one element, and large (the
// relu mask of a batch): a plain loop instead of the general broadcasting one.
// TODO: compare_loop -- out (bool, out's data is bool*) = fn(x, y) element by element, for contiguous
//   x of out's sizes and y either of the same sizes or a single element (section 9).
template <typename T, typename Fn>
void compare_loop(const Tensor& x, const Tensor& y, const Tensor& out, Fn fn) {
  // BEGIN SOLUTION name="tinytorch::native::compare_loop" lesson="9. Fusion and memory traffic"
  const T* a = static_cast<const T*>(x.data_ptr());
  const T* b = static_cast<const T*>(y.data_ptr());
  bool* c = static_cast<bool*>(out.data_ptr());
  const int64_t n = out.numel();
  if (y.numel() == n) {
    for (int64_t i = 0; i < n; ++i) c[i] = fn(a[i], b[i]);
  } else {
    const T value = *b;
    for (int64_t i = 0; i < n; ++i) c[i] = fn(a[i], value);
  }
  // END SOLUTION
}





// Calls visit(offset) with the element offset of every element of `t`, in row-major order of its
// sizes, walking its strides (the innermost dim in a tight loop).
template <typename Visit>
void for_each_offset(const Tensor& t, Visit visit) {
  const int64_t ndim = t.dim();
  if (ndim == 0) return visit(int64_t{0});
  const int64_t inner_size = t.size(-1);
  const int64_t inner_stride = t.stride(-1);
  std::vector<int64_t> index(ndim - 1, 0);
  for (int64_t done = 0, n = t.numel(); done < n; done += inner_size) {
    int64_t base = 0;
    for (int64_t d = 0; d < ndim - 1; ++d) base += index[d] * t.stride(d);
    for (int64_t j = 0; j < inner_size; ++j) visit(base + j * inner_stride);
    for (int64_t d = ndim - 2; d >= 0; --d) {  // next row, like an odometer
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
}

// TODO: fused_update_loop -- self = element_op(self, other) in ONE pass over self's n contiguous
//   elements s (section 9): the optimizer's p.add_(grad, alpha) reads p and grad once and writes p
//   once, where p + alpha * grad as separate ops would write and read a temporary too. element_op
//   already folds alpha in. The other operand (data o, tensor `operand`) is one of:
//   - a single element (same_shape false), used for every element of self;
//   - contiguous with self's sizes;
//   - strided with self's sizes (a transposed gradient): the given for_each_offset(operand, visit)
//     calls visit(offset) once per element, in row-major order of its sizes.
template <typename T, typename ElementOp>
void fused_update_loop(T* s, const T* o, int64_t n, const Tensor& operand, bool same_shape, ElementOp element_op) {
  // BEGIN SOLUTION name="tinytorch::native::fused_update_loop" lesson="9. Fusion and memory traffic"
  if (!same_shape) {
    const T value = *o;
    for (int64_t i = 0; i < n; ++i) s[i] = element_op(s[i], value);
  } else if (operand.is_contiguous()) {
    for (int64_t i = 0; i < n; ++i) s[i] = element_op(s[i], o[i]);
  } else {
    int64_t i = 0;
    for_each_offset(operand, [&](int64_t offset) {
      s[i] = element_op(s[i], o[offset]);
      ++i;
    });
  }
  // END SOLUTION
}

// TODO: sum_loops -- the two reductions of sum_fast over contiguous `in` (section 2, "Loop order and
//   cache lines", its reductions paragraph); acc has `kept` elements, all zero on entry.
//   - trailing: in is `kept` rows of `reduced` elements (a row sum): acc[i] = the sum of row i;
//   - leading: in is `reduced` rows of `kept` elements (a column sum, a bias gradient): acc[j] = the
//     sum of column j.
//   Each sum adds its values in index order (row i: j = 0, 1, ...; column j: i = 0, 1, ...), so the
//   result is the general loop's to the last bit; and both loops read `in` at unit stride, which
//   section 2 explains how to arrange for the column sum.
template <typename T>
void sum_loops(const T* in, T* acc, int64_t kept, int64_t reduced, bool trailing) {
  // BEGIN SOLUTION name="tinytorch::native::sum_loops" lesson="2. Loop order and cache lines"
  if (trailing) {
    for (int64_t i = 0; i < kept; ++i) {
      T total = 0;
      for (int64_t j = 0; j < reduced; ++j) total += in[i * reduced + j];
      acc[i] = total;
    }
  } else {
    for (int64_t i = 0; i < reduced; ++i) {
      const T* row = in + i * kept;
      for (int64_t j = 0; j < kept; ++j) acc[j] += row[j];
    }
  }
  // END SOLUTION
}

}  // namespace

bool binary_fast(const Tensor& x, const Tensor& y, const Tensor& out, FastArithmetic op) {
  const FastLayout layout = fast_layout(x, y, out, out.scalar_type());
  if (layout == FastLayout::None) return false;
  TT_DISPATCH_FLOATING_TYPES(out.scalar_type(), "binary_op", [&] {
    using T = scalar_t;
    switch (op) {
      case FastArithmetic::Add: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p + q; });
      case FastArithmetic::Sub: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p - q; });
      case FastArithmetic::Mul: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p * q; });
      case FastArithmetic::Div: return contiguous_binary_loop<T>(x, y, out, layout, [](T p, T q) { return p / q; });
    }
  });
  return true;
}

// One pass with no temporary, for a floating contiguous self and an operand of self's sizes and dtype
// (any strides: a transposed weight gradient) or of one element. Declines broadcasting, dtype
// changes and partially overlapping operands.
bool binary_in_place_fast(Tensor& self, const Tensor& other, const Scalar& alpha, FastArithmetic op) {
  const ScalarType type = self.scalar_type();
  if (!isFloatingType(type) || !self.is_contiguous() || self.numel() == 0) return false;
  if (result_type(self, other) != type) return false;
  const bool same_shape = other.sizes().equals(self.sizes()) && other.scalar_type() == type;
  const bool scalar = other.numel() == 1 && other.dim() <= self.dim();
  if (!same_shape && !scalar) return false;
  // An operand that shares storage with self must be self exactly; any other view of it would
  // read elements this loop has already written.
  if (other.storage().unsafeGetStorageImpl() == self.storage().unsafeGetStorageImpl() &&
      !(other.data_ptr() == self.data_ptr() && other.is_contiguous())) {
    return false;
  }
  const Tensor operand = same_shape ? other : other.detach().to(type);
  TT_DISPATCH_FLOATING_TYPES(type, "in_place_op", [&] {
    using T = scalar_t;
    T* s = static_cast<T*>(self.data_ptr());
    const T* o = static_cast<const T*>(operand.data_ptr());
    const int64_t n = self.numel();
    const T factor = static_cast<T>(alpha.toDouble());
    const bool unit = alpha.toDouble() == 1.0;
    const auto run = [&](auto element_op) { fused_update_loop(s, o, n, operand, same_shape, element_op); };
    switch (op) {
      case FastArithmetic::Add:
        if (unit) return run([](T p, T q) { return p + q; });
        return run([factor](T p, T q) { return p + factor * q; });
      case FastArithmetic::Sub:
        if (unit) return run([](T p, T q) { return p - q; });
        return run([factor](T p, T q) { return p - factor * q; });
      case FastArithmetic::Mul: return run([](T p, T q) { return p * q; });
      case FastArithmetic::Div: return run([](T p, T q) { return p / q; });
    }
  });
  return true;
}

bool compare_fast(const Tensor& x, const Tensor& y, const Tensor& out, FastComparison op) {
  if (!isFloatingType(x.scalar_type()) || out.numel() < kFastElementwiseMinNumel) return false;
  if (!x.is_contiguous() || !y.is_contiguous() || !x.sizes().equals(out.sizes())) return false;
  if (!(y.sizes().equals(out.sizes()) || y.numel() == 1)) return false;
  TT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "compare", [&] {
    using T = scalar_t;
    switch (op) {
      case FastComparison::Eq: return compare_loop<T>(x, y, out, [](T p, T q) { return p == q; });
      case FastComparison::Ne: return compare_loop<T>(x, y, out, [](T p, T q) { return p != q; });
      case FastComparison::Gt: return compare_loop<T>(x, y, out, [](T p, T q) { return p > q; });
      case FastComparison::Lt: return compare_loop<T>(x, y, out, [](T p, T q) { return p < q; });
      case FastComparison::Ge: return compare_loop<T>(x, y, out, [](T p, T q) { return p >= q; });
      case FastComparison::Le: return compare_loop<T>(x, y, out, [](T p, T q) { return p <= q; });
    }
  });
  return true;
}

// sum over a leading block of dims (a bias gradient: dim 0 of a batch) or a trailing block (a row
// sum in softmax's backward) of a large contiguous floating tensor, without the general loop's
// index arithmetic. Each output adds its inputs in the same order as the general loop, so the
// results are identical. A permuted dense tensor reduced over its outermost dims in memory goes
// through sum_permuted. Returns an undefined tensor to leave other cases to native::sum.
Tensor sum_permuted(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype);

Tensor sum_fast(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype) {
  if (!isFloatingType(dtype) || self.scalar_type() != dtype || dims.empty() ||
      self.numel() < kFastElementwiseMinNumel) {
    return Tensor();
  }
  if (!self.is_contiguous()) return sum_permuted(self, dims, keepdim, dtype);
  const int64_t ndim = self.dim();
  const int64_t count = static_cast<int64_t>(dims.size());
  const bool leading = dims.front() == 0 && dims.back() == count - 1;
  const bool trailing = dims.back() == ndim - 1 && dims.front() == ndim - count;
  if (!leading && !trailing) return Tensor();
  std::vector<int64_t> out_sizes;
  int64_t reduced = 1;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool is_reduced = std::binary_search(dims.begin(), dims.end(), d);
    if (is_reduced) reduced *= self.size(d);
    if (!is_reduced) out_sizes.push_back(self.size(d));
    else if (keepdim) out_sizes.push_back(1);
  }
  const int64_t kept = self.numel() / reduced;
  Tensor out = zeros(out_sizes, TensorOptions(dtype));
  TT_DISPATCH_FLOATING_TYPES(dtype, "sum", [&] {
    sum_loops(static_cast<const scalar_t*>(self.data_ptr()), static_cast<scalar_t*>(out.data_ptr()), kept, reduced,
              trailing);
  });
  return out;
}

// A permuted dense tensor (the gradient of a transposed (T, B, E) view) summed over the dims that
// are outermost in its memory: the leading-block case over its memory order (so its sums run in
// memory order). Declines when the kept dims are not in their logical order in memory.
Tensor sum_permuted(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype) {
  const int64_t ndim = self.dim();
  if (static_cast<int64_t>(dims.size()) == ndim) return Tensor();  // a full sum keeps the general loop's order
  std::vector<int64_t> order(static_cast<size_t>(ndim));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return self.stride(a) > self.stride(b); });
  std::vector<int64_t> sizes, strides;
  for (const int64_t d : order) {
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  const Tensor in_memory_order = make_view(self, sizes, strides, self.storage_offset());
  if (!in_memory_order.is_contiguous()) return Tensor();
  const int64_t count = static_cast<int64_t>(dims.size());
  for (int64_t i = 0; i < count; ++i) {
    if (!std::binary_search(dims.begin(), dims.end(), order[static_cast<size_t>(i)])) return Tensor();
  }
  for (int64_t i = count + 1; i < ndim; ++i) {
    if (order[static_cast<size_t>(i)] < order[static_cast<size_t>(i - 1)]) return Tensor();
  }
  std::vector<int64_t> leading(static_cast<size_t>(count));
  std::iota(leading.begin(), leading.end(), 0);
  const Tensor summed = sum_fast(in_memory_order, leading, /*keepdim=*/false, dtype);
  if (!summed.defined()) return summed;
  std::vector<int64_t> out_sizes;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!std::binary_search(dims.begin(), dims.end(), d)) out_sizes.push_back(self.size(d));
    else if (keepdim) out_sizes.push_back(1);
  }
  return make_view(summed, out_sizes, contiguous_strides(out_sizes), summed.storage_offset());
}

}  // namespace native
}  // namespace tinytorch
