#pragma once
// torch:: free functions of the reductions, scans and products family (LibTorch's spellings:
// function, in-place `_`, `_out`/`_outf`). The Tensor methods are in tensor.h's REDUCTIONS SCANS
// region; kernels in src/01_tensor/reductions_scans.cpp and products.cpp.
#include <initializer_list>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tinytorch/functions.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// LibTorch's at::OptionalIntArrayRef: no dims (nullopt) or a list of dims. It keeps its own copy of
// the dims: a std::optional<IntArrayRef> made from `1` or `{0, 1}` would point at a temporary that
// dies inside optional's constructor.
class OptionalIntArrayRef {
 public:
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}                                                          // NOLINT
  OptionalIntArrayRef(IntArrayRef dims) : has_value_(true), dims_(dims.begin(), dims.end()) {}      // NOLINT
  OptionalIntArrayRef(std::initializer_list<int64_t> dims) : has_value_(true), dims_(dims) {}       // NOLINT
  OptionalIntArrayRef(const std::vector<int64_t>& dims) : has_value_(true), dims_(dims) {}          // NOLINT
  OptionalIntArrayRef(int64_t dim) : has_value_(true), dims_{dim} {}                                // NOLINT
  OptionalIntArrayRef(const std::optional<IntArrayRef>& dims)                                       // NOLINT
      : has_value_(dims.has_value()), dims_(dims ? std::vector<int64_t>(dims->begin(), dims->end()) : std::vector<int64_t>()) {}

  bool has_value() const { return has_value_; }
  explicit operator bool() const { return has_value_; }
  IntArrayRef operator*() const { return dims_; }
  IntArrayRef value() const { return dims_; }
  IntArrayRef value_or(IntArrayRef fallback) const { return has_value_ ? IntArrayRef(dims_) : fallback; }
  const std::vector<int64_t>* operator->() const { return &dims_; }

 private:
  bool has_value_ = false;
  std::vector<int64_t> dims_;
};

namespace detail {
// `out` resized to result's shape (when it differs) and filled with result: the _out forms.
Tensor& reductions_write_out(Tensor& out, const Tensor& result);
}  // namespace detail

// ---- Order statistics ----
inline Tensor median(const Tensor& self) { return self.median(); }
inline std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false) {
  return self.median(dim, keepdim);
}
inline Tensor nanmedian(const Tensor& self) { return self.nanmedian(); }
inline std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim = false) {
  return self.nanmedian(dim, keepdim);
}
inline std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1, bool keepdim = false) {
  return self.mode(dim, keepdim);
}
inline std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1, bool keepdim = false) {
  return self.kthvalue(k, dim, keepdim);
}
inline std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                                          bool keepdim = false) {
  return self.aminmax(dim, keepdim);
}
inline Tensor max(const Tensor& self, const Tensor& other) { return self.max(other); }
inline Tensor min(const Tensor& self, const Tensor& other) { return self.min(other); }


// ---- Sums, means, counts ----
inline Tensor nansum(const Tensor& self, OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                     std::optional<ScalarType> dtype = std::nullopt) {
  return dim ? self.nansum(*dim, keepdim, dtype) : self.nansum(std::nullopt, keepdim, dtype);
}
inline Tensor nanmean(const Tensor& self, OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                      std::optional<ScalarType> dtype = std::nullopt) {
  return dim ? self.nanmean(*dim, keepdim, dtype) : self.nanmean(std::nullopt, keepdim, dtype);
}
inline Tensor count_nonzero(const Tensor& self, IntArrayRef dim) { return self.count_nonzero(dim); }
inline Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim = std::nullopt) {
  return self.count_nonzero(dim);
}
inline Tensor all(const Tensor& self, int64_t dim, bool keepdim = false) { return self.all(dim, keepdim); }
inline Tensor any(const Tensor& self, int64_t dim, bool keepdim = false) { return self.any(dim, keepdim); }
inline Tensor argwhere(const Tensor& self) { return self.argwhere(); }
inline std::vector<Tensor> nonzero_numpy(const Tensor& self) { return self.nonzero_numpy(); }
inline Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights = {}, int64_t minlength = 0) {
  return self.bincount(weights, minlength);
}
inline Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0) {
  return self.histc(bins, min, max);
}
inline Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = {},
                   const std::optional<Tensor>& append = {}) {
  return self.diff(n, dim, prepend, append);
}
inline Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  return self.renorm(p, dim, maxnorm);
}
inline bool is_nonzero(const Tensor& self) { return self.is_nonzero(); }
inline bool is_same_size(const Tensor& self, const Tensor& other) { return self.is_same_size(other); }

// (std or var, mean) over dims in one call; correction as in Tensor::var.
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased = true,
                                    bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
                                    bool keepdim = false);
inline std::tuple<Tensor, Tensor> var_mean(const Tensor& self) { return var_mean(self, std::nullopt, true, false); }
// Exactly a bool (a template, as Tensor::var's), so that var_mean(x, {1}) means dim 1 as in LibTorch.
template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, Bool unbiased) {
  return var_mean(self, std::nullopt, unbiased, false);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased = true,
                                    bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
                                    bool keepdim = false);
inline std::tuple<Tensor, Tensor> std_mean(const Tensor& self) { return std_mean(self, std::nullopt, true, false); }
// Exactly a bool (a template, as Tensor::var's), so that std_mean(x, {1}) means dim 1 as in LibTorch.
template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, Bool unbiased) {
  return std_mean(self, std::nullopt, unbiased, false);
}

// ---- Scans ----
inline Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return self.cumprod(dim, dtype);
}
inline std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) { return self.cummax(dim); }
inline std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) { return self.cummin(dim); }
inline Tensor logcumsumexp(const Tensor& self, int64_t dim) { return self.logcumsumexp(dim); }

// ---- unique (values, inverse, counts); inverse/counts are empty unless asked for. TinyTorch always
// sorts: LibTorch's sorted=false order comes from a hash set and is not reproducible. ----
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse = false,
                                                      bool return_counts = false,
                                                      std::optional<int64_t> dim = std::nullopt);
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool sorted = true, bool return_inverse = false,
                                            bool return_counts = false);
std::tuple<Tensor, Tensor> _unique(const Tensor& self, bool sorted = true, bool return_inverse = false);
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool sorted = true,
                                              bool return_inverse = false, bool return_counts = false);
std::tuple<Tensor, Tensor, Tensor> unique_dim_consecutive(const Tensor& self, int64_t dim, bool return_inverse = false,
                                                          bool return_counts = false);

// ---- Products (src/01_tensor/products.cpp) ----
inline Tensor dot(const Tensor& self, const Tensor& tensor) { return self.dot(tensor); }
inline Tensor vdot(const Tensor& self, const Tensor& other) { return self.vdot(other); }
inline Tensor inner(const Tensor& self, const Tensor& other) { return self.inner(other); }
inline Tensor outer(const Tensor& self, const Tensor& vec2) { return self.outer(vec2); }
inline Tensor ger(const Tensor& self, const Tensor& vec2) { return self.ger(vec2); }
inline Tensor mv(const Tensor& self, const Tensor& vec) { return self.mv(vec); }
inline Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
                    const Scalar& alpha = 1) {
  return self.addmv(mat, vec, beta, alpha);
}
inline Tensor& addmv_(Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
                      const Scalar& alpha = 1) {
  return self.addmv_(mat, vec, beta, alpha);
}
inline Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1,
                   const Scalar& alpha = 1) {
  return self.addr(vec1, vec2, beta, alpha);
}
inline Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                      const Scalar& alpha = 1) {
  return self.baddbmm(batch1, batch2, beta, alpha);
}
inline Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                     const Scalar& alpha = 1) {
  return self.addbmm(batch1, batch2, beta, alpha);
}
inline Tensor matrix_power(const Tensor& self, int64_t n) { return self.matrix_power(n); }
inline Tensor kron(const Tensor& self, const Tensor& other) { return self.kron(other); }
inline Tensor trace(const Tensor& self) { return self.trace(); }
inline Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim = std::nullopt) {
  return self.cross(other, dim);
}
// The cross product along dim (default the last), the inputs broadcast together (LinalgCrossBackward0).
Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim = -1);
// Contracts dims_self of self with dims_other of other (pairwise, equal sizes): the remaining dims of
// self, then those of other.
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other);
// Einstein summation: "ij,jk->ik", implicit output ("ij,jk" sums the repeated j and keeps the
// labels seen once, alphabetically), "..." for broadcast dims, repeated labels in one operand take
// a diagonal. Contractions run through bmm, so everything differentiates. `path` is accepted and
// ignored (operands are contracted left to right).
Tensor einsum(std::string_view equation, TensorList tensors, OptionalIntArrayRef path = std::nullopt);
// The product of a chain of 2-D matrices (deprecated in LibTorch for linalg::multi_dot).
Tensor chain_matmul(TensorList matrices);
Tensor linalg_multi_dot(TensorList tensors);
Tensor linalg_matrix_power(const Tensor& self, int64_t n);
namespace linalg {
// A @ B @ C ... in the cheapest order; the first and last may be 1-D (a row and a column vector).
inline Tensor multi_dot(TensorList tensors) { return linalg_multi_dot(tensors); }
inline Tensor matrix_power(const Tensor& self, int64_t n) { return linalg_matrix_power(self, n); }
inline Tensor cross(const Tensor& self, const Tensor& other, int64_t dim = -1) { return linalg_cross(self, other, dim); }
}  // namespace linalg

// ---- _out / _outf forms: compute, then write into out (resized as LibTorch resizes it) ----
#define TT_OUT_FORMS_1_(NAME, PARAMS, ARGS)                                                               \
  inline Tensor& NAME##_out(Tensor& out, PARAMS) { return detail::reductions_write_out(out, NAME(ARGS)); } \
  inline Tensor& NAME##_outf(PARAMS, Tensor& out) { return detail::reductions_write_out(out, NAME(ARGS)); }
#define TT_P_(...) __VA_ARGS__
TT_OUT_FORMS_1_(dot, TT_P_(const Tensor& self, const Tensor& tensor), TT_P_(self, tensor))
TT_OUT_FORMS_1_(vdot, TT_P_(const Tensor& self, const Tensor& other), TT_P_(self, other))
TT_OUT_FORMS_1_(inner, TT_P_(const Tensor& self, const Tensor& other), TT_P_(self, other))
TT_OUT_FORMS_1_(outer, TT_P_(const Tensor& self, const Tensor& vec2), TT_P_(self, vec2))
TT_OUT_FORMS_1_(ger, TT_P_(const Tensor& self, const Tensor& vec2), TT_P_(self, vec2))
TT_OUT_FORMS_1_(mv, TT_P_(const Tensor& self, const Tensor& vec), TT_P_(self, vec))
TT_OUT_FORMS_1_(kron, TT_P_(const Tensor& self, const Tensor& other), TT_P_(self, other))
TT_OUT_FORMS_1_(trace, TT_P_(const Tensor& self), TT_P_(self))
TT_OUT_FORMS_1_(matrix_power, TT_P_(const Tensor& self, int64_t n), TT_P_(self, n))
TT_OUT_FORMS_1_(tensordot, TT_P_(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other),
                TT_P_(self, other, dims_self, dims_other))
TT_OUT_FORMS_1_(chain_matmul, TT_P_(TensorList matrices), TT_P_(matrices))
TT_OUT_FORMS_1_(linalg_multi_dot, TT_P_(TensorList tensors), TT_P_(tensors))
TT_OUT_FORMS_1_(logcumsumexp, TT_P_(const Tensor& self, int64_t dim), TT_P_(self, dim))
TT_OUT_FORMS_1_(renorm, TT_P_(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm),
                TT_P_(self, p, dim, maxnorm))
TT_OUT_FORMS_1_(argwhere, TT_P_(const Tensor& self), TT_P_(self))
#undef TT_OUT_FORMS_1_

inline Tensor& cross_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<int64_t> dim = std::nullopt) {
  return detail::reductions_write_out(out, cross(self, other, dim));
}
inline Tensor& cross_outf(const Tensor& self, const Tensor& other, std::optional<int64_t> dim, Tensor& out) {
  return detail::reductions_write_out(out, cross(self, other, dim));
}
inline Tensor& addmv_out(Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
                         const Scalar& alpha = 1) {
  return detail::reductions_write_out(out, addmv(self, mat, vec, beta, alpha));
}
inline Tensor& addmv_outf(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                          const Scalar& alpha, Tensor& out) {
  return addmv_out(out, self, mat, vec, beta, alpha);
}
inline Tensor& addr_out(Tensor& out, const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1,
                        const Scalar& alpha = 1) {
  return detail::reductions_write_out(out, addr(self, vec1, vec2, beta, alpha));
}
inline Tensor& addr_outf(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
                         const Scalar& alpha, Tensor& out) {
  return addr_out(out, self, vec1, vec2, beta, alpha);
}
inline Tensor& baddbmm_out(Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                           const Scalar& beta = 1, const Scalar& alpha = 1) {
  return detail::reductions_write_out(out, baddbmm(self, batch1, batch2, beta, alpha));
}
inline Tensor& baddbmm_outf(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                            const Scalar& alpha, Tensor& out) {
  return baddbmm_out(out, self, batch1, batch2, beta, alpha);
}
inline Tensor& addbmm_out(Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                          const Scalar& beta = 1, const Scalar& alpha = 1) {
  return detail::reductions_write_out(out, addbmm(self, batch1, batch2, beta, alpha));
}
inline Tensor& addbmm_outf(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                           const Scalar& alpha, Tensor& out) {
  return addbmm_out(out, self, batch1, batch2, beta, alpha);
}
inline Tensor& cumprod_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return detail::reductions_write_out(out, cumprod(self, dim, dtype));
}
inline Tensor& cumprod_outf(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return cumprod_out(out, self, dim, dtype);
}
inline Tensor& nansum_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt) {
  return detail::reductions_write_out(out, nansum(self, dim, keepdim, dtype));
}
inline Tensor& nansum_outf(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                           Tensor& out) {
  return nansum_out(out, self, dim, keepdim, dtype);
}
inline Tensor& nanmean_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
                           bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return detail::reductions_write_out(out, nanmean(self, dim, keepdim, dtype));
}
inline Tensor& nanmean_outf(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                            Tensor& out) {
  return nanmean_out(out, self, dim, keepdim, dtype);
}
inline Tensor& median_out(Tensor& out, const Tensor& self) { return detail::reductions_write_out(out, median(self)); }
inline Tensor& median_outf(const Tensor& self, Tensor& out) { return median_out(out, self); }
inline Tensor& nanmedian_out(Tensor& out, const Tensor& self) {
  return detail::reductions_write_out(out, nanmedian(self));
}
inline Tensor& nanmedian_outf(const Tensor& self, Tensor& out) { return nanmedian_out(out, self); }
inline Tensor& histc_out(Tensor& out, const Tensor& self, int64_t bins = 100, const Scalar& min = 0,
                         const Scalar& max = 0) {
  return detail::reductions_write_out(out, histc(self, bins, min, max));
}
inline Tensor& histc_outf(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max, Tensor& out) {
  return histc_out(out, self, bins, min, max);
}
inline Tensor& diff_out(Tensor& out, const Tensor& self, int64_t n = 1, int64_t dim = -1,
                        const std::optional<Tensor>& prepend = {}, const std::optional<Tensor>& append = {}) {
  return detail::reductions_write_out(out, diff(self, n, dim, prepend, append));
}
inline Tensor& max_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return detail::reductions_write_out(out, max(self, other));
}
inline Tensor& max_outf(const Tensor& self, const Tensor& other, Tensor& out) { return max_out(out, self, other); }
inline Tensor& min_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return detail::reductions_write_out(out, min(self, other));
}
inline Tensor& min_outf(const Tensor& self, const Tensor& other, Tensor& out) { return min_out(out, self, other); }
inline Tensor& all_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false) {
  return detail::reductions_write_out(out, all(self, dim, keepdim));
}
inline Tensor& any_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false) {
  return detail::reductions_write_out(out, any(self, dim, keepdim));
}

inline Tensor& all_out(Tensor& out, const Tensor& self) { return detail::reductions_write_out(out, self.all()); }
inline Tensor& all_outf(const Tensor& self, Tensor& out) { return all_out(out, self); }
inline Tensor& any_out(Tensor& out, const Tensor& self) { return detail::reductions_write_out(out, self.any()); }
inline Tensor& any_outf(const Tensor& self, Tensor& out) { return any_out(out, self); }
inline Tensor& all_outf(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) { return all_out(out, self, dim, keepdim); }
inline Tensor& any_outf(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) { return any_out(out, self, dim, keepdim); }
inline Tensor& count_nonzero_out(Tensor& out, const Tensor& self, IntArrayRef dim) {
  return detail::reductions_write_out(out, count_nonzero(self, dim));
}
inline Tensor& count_nonzero_outf(const Tensor& self, IntArrayRef dim, Tensor& out) {
  return count_nonzero_out(out, self, dim);
}
inline Tensor& count_nonzero_out(Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt) {
  return detail::reductions_write_out(out, count_nonzero(self, dim));
}
inline Tensor& count_nonzero_outf(const Tensor& self, std::optional<int64_t> dim, Tensor& out) {
  return count_nonzero_out(out, self, dim);
}
inline Tensor& bincount_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& weights = {},
                            int64_t minlength = 0) {
  return detail::reductions_write_out(out, bincount(self, weights, minlength));
}
inline Tensor& bincount_outf(const Tensor& self, const std::optional<Tensor>& weights, int64_t minlength, Tensor& out) {
  return bincount_out(out, self, weights, minlength);
}
inline Tensor& linalg_cross_out(Tensor& out, const Tensor& self, const Tensor& other, int64_t dim = -1) {
  return detail::reductions_write_out(out, linalg_cross(self, other, dim));
}
inline Tensor& linalg_cross_outf(const Tensor& self, const Tensor& other, int64_t dim, Tensor& out) {
  return linalg_cross_out(out, self, other, dim);
}
inline Tensor& linalg_matrix_power_out(Tensor& out, const Tensor& self, int64_t n) {
  return detail::reductions_write_out(out, linalg_matrix_power(self, n));
}
inline Tensor& linalg_matrix_power_outf(const Tensor& self, int64_t n, Tensor& out) {
  return linalg_matrix_power_out(out, self, n);
}
inline std::tuple<Tensor&, Tensor&> var_mean_out(Tensor& out0, Tensor& out1, const Tensor& self, OptionalIntArrayRef dim,
                                                 std::optional<int64_t> correction, bool keepdim = false) {
  auto [variance, mean] = var_mean(self, dim, correction, keepdim);
  detail::reductions_write_out(out0, variance);
  detail::reductions_write_out(out1, mean);
  return {out0, out1};
}
inline std::tuple<Tensor&, Tensor&> var_mean_outf(const Tensor& self, OptionalIntArrayRef dim,
                                                  std::optional<int64_t> correction, bool keepdim, Tensor& out0,
                                                  Tensor& out1) {
  return var_mean_out(out0, out1, self, dim, correction, keepdim);
}
inline std::tuple<Tensor&, Tensor&> std_mean_out(Tensor& out0, Tensor& out1, const Tensor& self, OptionalIntArrayRef dim,
                                                 std::optional<int64_t> correction, bool keepdim = false) {
  auto [deviation, mean] = std_mean(self, dim, correction, keepdim);
  detail::reductions_write_out(out0, deviation);
  detail::reductions_write_out(out1, mean);
  return {out0, out1};
}
inline std::tuple<Tensor&, Tensor&> std_mean_outf(const Tensor& self, OptionalIntArrayRef dim,
                                                  std::optional<int64_t> correction, bool keepdim, Tensor& out0,
                                                  Tensor& out1) {
  return std_mean_out(out0, out1, self, dim, correction, keepdim);
}
inline std::tuple<Tensor&, Tensor&, Tensor&> unique_consecutive_out(Tensor& out0, Tensor& out1, Tensor& out2,
                                                                    const Tensor& self, bool return_inverse = false,
                                                                    bool return_counts = false,
                                                                    std::optional<int64_t> dim = std::nullopt) {
  auto [values, inverse, counts] = unique_consecutive(self, return_inverse, return_counts, dim);
  detail::reductions_write_out(out0, values);
  detail::reductions_write_out(out1, inverse);
  detail::reductions_write_out(out2, counts);
  return {out0, out1, out2};
}
inline std::tuple<Tensor&, Tensor&, Tensor&> unique_consecutive_outf(const Tensor& self, bool return_inverse,
                                                                     bool return_counts, std::optional<int64_t> dim,
                                                                     Tensor& out0, Tensor& out1, Tensor& out2) {
  return unique_consecutive_out(out0, out1, out2, self, return_inverse, return_counts, dim);
}
inline std::tuple<Tensor&, Tensor&, Tensor&> unique_dim_out(Tensor& out0, Tensor& out1, Tensor& out2, const Tensor& self,
                                                            int64_t dim, bool sorted = true, bool return_inverse = false,
                                                            bool return_counts = false) {
  auto [values, inverse, counts] = unique_dim(self, dim, sorted, return_inverse, return_counts);
  detail::reductions_write_out(out0, values);
  detail::reductions_write_out(out1, inverse);
  detail::reductions_write_out(out2, counts);
  return {out0, out1, out2};
}
inline std::tuple<Tensor&, Tensor&, Tensor&> unique_dim_outf(const Tensor& self, int64_t dim, bool sorted,
                                                             bool return_inverse, bool return_counts, Tensor& out0,
                                                             Tensor& out1, Tensor& out2) {
  return unique_dim_out(out0, out1, out2, self, dim, sorted, return_inverse, return_counts);
}

// (values, indices) _out forms.
#define TT_PAIR_OUT_FORMS_(NAME, PARAMS, ARGS, PARAMS_NO_DEFAULTS)                                              \
  inline std::tuple<Tensor&, Tensor&> NAME##_out(Tensor& values, Tensor& indices, const Tensor& self, PARAMS) { \
    auto result = NAME(self, ARGS);                                                                             \
    detail::reductions_write_out(values, std::get<0>(result));                                                 \
    detail::reductions_write_out(indices, std::get<1>(result));                                                \
    return {values, indices};                                                                                   \
  }                                                                                                             \
  inline std::tuple<Tensor&, Tensor&> NAME##_outf(const Tensor& self, PARAMS_NO_DEFAULTS, Tensor& values,       \
                                                  Tensor& indices) {                                            \
    return NAME##_out(values, indices, self, ARGS);                                                             \
  }
TT_PAIR_OUT_FORMS_(median, TT_P_(int64_t dim, bool keepdim = false), TT_P_(dim, keepdim), TT_P_(int64_t dim, bool keepdim))
TT_PAIR_OUT_FORMS_(nanmedian, TT_P_(int64_t dim, bool keepdim = false), TT_P_(dim, keepdim),
                   TT_P_(int64_t dim, bool keepdim))
TT_PAIR_OUT_FORMS_(mode, TT_P_(int64_t dim = -1, bool keepdim = false), TT_P_(dim, keepdim),
                   TT_P_(int64_t dim, bool keepdim))
TT_PAIR_OUT_FORMS_(kthvalue, TT_P_(int64_t k, int64_t dim = -1, bool keepdim = false), TT_P_(k, dim, keepdim),
                   TT_P_(int64_t k, int64_t dim, bool keepdim))
TT_PAIR_OUT_FORMS_(aminmax, TT_P_(std::optional<int64_t> dim = std::nullopt, bool keepdim = false), TT_P_(dim, keepdim),
                   TT_P_(std::optional<int64_t> dim, bool keepdim))
TT_PAIR_OUT_FORMS_(cummax, TT_P_(int64_t dim), TT_P_(dim), TT_P_(int64_t dim))
TT_PAIR_OUT_FORMS_(cummin, TT_P_(int64_t dim), TT_P_(dim), TT_P_(int64_t dim))
#undef TT_PAIR_OUT_FORMS_
#undef TT_P_

}  // namespace tinytorch
