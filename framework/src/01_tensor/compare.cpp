// Comparisons (eq ne gt lt ge le -> kBool), all/any, allclose and equal.
// eq..le reuse the learner's broadcasting loop (elementwise.cpp), like + - * /. allclose and equal
// on same-shaped tensors, which the tests use to check learner results, use only given code; only
// tensors of different shapes go through the learner's infer_size.
#include <cmath>
#include <utility>

#include "internal.h"
#include "runtime/fast_kernels.h"
#include "tinytorch/functions.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

enum class CompareOp { Eq, Ne, Gt, Lt, Ge, Le };

detail::FastComparison fast_op(CompareOp op) {
  switch (op) {
    case CompareOp::Eq: return detail::FastComparison::Eq;
    case CompareOp::Ne: return detail::FastComparison::Ne;
    case CompareOp::Gt: return detail::FastComparison::Gt;
    case CompareOp::Lt: return detail::FastComparison::Lt;
    case CompareOp::Ge: return detail::FastComparison::Ge;
    default: return detail::FastComparison::Le;
  }
}

Tensor compare(const Tensor& a, const Tensor& b, CompareOp op) {
  if (on_device(a, b)) {  // module 22's kernel for the device (tinytorch/dispatch.h)
    const char* name = op == CompareOp::Eq ? "eq" : op == CompareOp::Ne ? "ne" : op == CompareOp::Gt ? "gt"
                     : op == CompareOp::Lt ? "lt" : op == CompareOp::Ge ? "ge" : "le";
    return device_kernel<Tensor(const Tensor&, const Tensor&)>(name, a, b)(a, b);
  }
  // Compare in the promoted type (1 == 1.0 is true), computed as int64 for the narrow integers and
  // float for Half and BFloat16: both hold every value of those types exactly.
  const ScalarType type = detail::computation_type(result_type(a, b));
  Tensor out = empty(infer_size(a.sizes(), b.sizes()), TensorOptions(kBool));
  const Tensor x = detail::as_dtype(a, type);
  const Tensor y = detail::as_dtype(b, type);
  const auto fast = detail::fast_kernels().compare;  // module 17's, in builds that have it
  if (fast != nullptr && fast(x, y, out, fast_op(op))) return out;
  TT_DISPATCH_ALL_TYPES(type, "compare", [&] {
    using T = scalar_t;
    bool (*fn)(T, T) = nullptr;
    switch (op) {
      case CompareOp::Eq: fn = [](T p, T q) { return p == q; }; break;
      case CompareOp::Ne: fn = [](T p, T q) { return p != q; }; break;
      case CompareOp::Gt: fn = [](T p, T q) { return p > q; }; break;
      case CompareOp::Lt: fn = [](T p, T q) { return p < q; }; break;
      case CompareOp::Ge: fn = [](T p, T q) { return p >= q; }; break;
      case CompareOp::Le: fn = [](T p, T q) { return p <= q; }; break;
    }
    native::broadcast_binary_loop<T, bool>(x, y, out, fn);
  });
  return out;
}

// Both tensors with the same sizes, contiguous and in their promoted dtype.
std::pair<Tensor, Tensor> aligned(const Tensor& a, const Tensor& b) {
  const ScalarType type = promoteTypes(a.scalar_type(), b.scalar_type());
  if (a.sizes().equals(b.sizes())) return {detail::as_contiguous(a, type), detail::as_contiguous(b, type)};
  const std::vector<int64_t> shape = infer_size(a.sizes(), b.sizes());
  return {detail::as_contiguous(detail::broadcast_view(a, shape), type),
          detail::as_contiguous(detail::broadcast_view(b, shape), type)};
}

}  // namespace

Tensor Tensor::eq(const Tensor& other) const { return compare(*this, other, CompareOp::Eq); }
Tensor Tensor::ne(const Tensor& other) const { return compare(*this, other, CompareOp::Ne); }
Tensor Tensor::gt(const Tensor& other) const { return compare(*this, other, CompareOp::Gt); }
Tensor Tensor::lt(const Tensor& other) const { return compare(*this, other, CompareOp::Lt); }
Tensor Tensor::ge(const Tensor& other) const { return compare(*this, other, CompareOp::Ge); }
Tensor Tensor::le(const Tensor& other) const { return compare(*this, other, CompareOp::Le); }
Tensor Tensor::eq(const Scalar& other) const { return eq(detail::wrapped_scalar(other)); }
Tensor Tensor::ne(const Scalar& other) const { return ne(detail::wrapped_scalar(other)); }
Tensor Tensor::gt(const Scalar& other) const { return gt(detail::wrapped_scalar(other)); }
Tensor Tensor::lt(const Scalar& other) const { return lt(detail::wrapped_scalar(other)); }
Tensor Tensor::ge(const Scalar& other) const { return ge(detail::wrapped_scalar(other)); }
Tensor Tensor::le(const Scalar& other) const { return le(detail::wrapped_scalar(other)); }

Tensor operator==(const Tensor& a, const Tensor& b) { return a.eq(b); }
Tensor operator==(const Tensor& a, const Scalar& b) { return a.eq(b); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return a.ne(b); }
Tensor operator!=(const Tensor& a, const Scalar& b) { return a.ne(b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return a.lt(b); }
Tensor operator<(const Tensor& a, const Scalar& b) { return a.lt(b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return a.le(b); }
Tensor operator<=(const Tensor& a, const Scalar& b) { return a.le(b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return a.gt(b); }
Tensor operator>(const Tensor& a, const Scalar& b) { return a.gt(b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return a.ge(b); }
Tensor operator>=(const Tensor& a, const Scalar& b) { return a.ge(b); }

Tensor Tensor::all() const {
  const Tensor values = detail::as_contiguous(*this, kBool);
  const bool* data = static_cast<const bool*>(values.data_ptr());
  bool result = true;
  for (int64_t i = 0; i < values.numel() && result; ++i) result = data[i];
  return scalar_tensor(result);
}

Tensor Tensor::any() const {
  const Tensor values = detail::as_contiguous(*this, kBool);
  const bool* data = static_cast<const bool*>(values.data_ptr());
  bool result = false;
  for (int64_t i = 0; i < values.numel() && !result; ++i) result = data[i];
  return scalar_tensor(result);
}

bool Tensor::allclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  auto [a, b] = aligned(*this, other);
  const Tensor x = detail::as_contiguous(a, kDouble);
  const Tensor y = detail::as_contiguous(b, kDouble);
  const double* p = static_cast<const double*>(x.data_ptr());
  const double* q = static_cast<const double*>(y.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (std::isnan(p[i]) || std::isnan(q[i])) {
      if (equal_nan && std::isnan(p[i]) && std::isnan(q[i])) continue;
      return false;
    }
    if (p[i] == q[i]) continue;  // also equal infinities
    if (!(std::fabs(p[i] - q[i]) <= atol + rtol * std::fabs(q[i]))) return false;
  }
  return true;
}

bool Tensor::equal(const Tensor& other) const {
  if (!sizes().equals(other.sizes())) return false;
  // Named variables, not structured bindings: C++17 does not let the lambda below capture those.
  const std::pair<Tensor, Tensor> both = aligned(*this, other);
  const Tensor& a = both.first;
  const Tensor& b = both.second;
  return TT_DISPATCH_STORAGE_TYPES(a.scalar_type(), "equal", [&] {
    const scalar_t* p = static_cast<const scalar_t*>(a.data_ptr());
    const scalar_t* q = static_cast<const scalar_t*>(b.data_ptr());
    for (int64_t i = 0; i < a.numel(); ++i) {
      if (!(p[i] == q[i])) return false;
    }
    return true;
  });
}

}  // namespace tinytorch
