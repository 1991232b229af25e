#pragma once
// torch:: free functions of one op family (LibTorch's spellings: function, in-place `_`, `_out`).
// LibTorch's pointwise ops of one tensor: torch::sin(x), torch::sin_(x), torch::sin_out(out, x),
// torch::sin_outf(x, out), ... The Tensor methods (x.sin(), x.sin_()) are in tensor.h; both run the
// rows of src/01_tensor/pointwise_unary.cpp. An out= function checks out's dtype as LibTorch does,
// resizes out to the result's shape, and does not differentiate.
#include <optional>

#include "tinytorch/tensor.h"

namespace tinytorch {

// ---- One function, in-place function (where ATen has one) and out= pair per op ----
inline Tensor& abs_(Tensor& self) { return self.abs_(); }
Tensor& abs_out(Tensor& out, const Tensor& self);
inline Tensor& abs_outf(const Tensor& self, Tensor& out) { return abs_out(out, self); }
inline Tensor& neg_(Tensor& self) { return self.neg_(); }
Tensor& neg_out(Tensor& out, const Tensor& self);
inline Tensor& neg_outf(const Tensor& self, Tensor& out) { return neg_out(out, self); }
inline Tensor& exp_(Tensor& self) { return self.exp_(); }
Tensor& exp_out(Tensor& out, const Tensor& self);
inline Tensor& exp_outf(const Tensor& self, Tensor& out) { return exp_out(out, self); }
inline Tensor exp2(const Tensor& self) { return self.exp2(); }
inline Tensor& exp2_(Tensor& self) { return self.exp2_(); }
Tensor& exp2_out(Tensor& out, const Tensor& self);
inline Tensor& exp2_outf(const Tensor& self, Tensor& out) { return exp2_out(out, self); }
inline Tensor expm1(const Tensor& self) { return self.expm1(); }
inline Tensor& expm1_(Tensor& self) { return self.expm1_(); }
Tensor& expm1_out(Tensor& out, const Tensor& self);
inline Tensor& expm1_outf(const Tensor& self, Tensor& out) { return expm1_out(out, self); }
inline Tensor& log_(Tensor& self) { return self.log_(); }
Tensor& log_out(Tensor& out, const Tensor& self);
inline Tensor& log_outf(const Tensor& self, Tensor& out) { return log_out(out, self); }
inline Tensor log2(const Tensor& self) { return self.log2(); }
inline Tensor& log2_(Tensor& self) { return self.log2_(); }
Tensor& log2_out(Tensor& out, const Tensor& self);
inline Tensor& log2_outf(const Tensor& self, Tensor& out) { return log2_out(out, self); }
inline Tensor log10(const Tensor& self) { return self.log10(); }
inline Tensor& log10_(Tensor& self) { return self.log10_(); }
Tensor& log10_out(Tensor& out, const Tensor& self);
inline Tensor& log10_outf(const Tensor& self, Tensor& out) { return log10_out(out, self); }
inline Tensor log1p(const Tensor& self) { return self.log1p(); }
inline Tensor& log1p_(Tensor& self) { return self.log1p_(); }
Tensor& log1p_out(Tensor& out, const Tensor& self);
inline Tensor& log1p_outf(const Tensor& self, Tensor& out) { return log1p_out(out, self); }
inline Tensor& sqrt_(Tensor& self) { return self.sqrt_(); }
Tensor& sqrt_out(Tensor& out, const Tensor& self);
inline Tensor& sqrt_outf(const Tensor& self, Tensor& out) { return sqrt_out(out, self); }
inline Tensor rsqrt(const Tensor& self) { return self.rsqrt(); }
inline Tensor& rsqrt_(Tensor& self) { return self.rsqrt_(); }
Tensor& rsqrt_out(Tensor& out, const Tensor& self);
inline Tensor& rsqrt_outf(const Tensor& self, Tensor& out) { return rsqrt_out(out, self); }
inline Tensor square(const Tensor& self) { return self.square(); }
inline Tensor& square_(Tensor& self) { return self.square_(); }
Tensor& square_out(Tensor& out, const Tensor& self);
inline Tensor& square_outf(const Tensor& self, Tensor& out) { return square_out(out, self); }
inline Tensor reciprocal(const Tensor& self) { return self.reciprocal(); }
inline Tensor& reciprocal_(Tensor& self) { return self.reciprocal_(); }
Tensor& reciprocal_out(Tensor& out, const Tensor& self);
inline Tensor& reciprocal_outf(const Tensor& self, Tensor& out) { return reciprocal_out(out, self); }
inline Tensor sin(const Tensor& self) { return self.sin(); }
inline Tensor& sin_(Tensor& self) { return self.sin_(); }
Tensor& sin_out(Tensor& out, const Tensor& self);
inline Tensor& sin_outf(const Tensor& self, Tensor& out) { return sin_out(out, self); }
inline Tensor cos(const Tensor& self) { return self.cos(); }
inline Tensor& cos_(Tensor& self) { return self.cos_(); }
Tensor& cos_out(Tensor& out, const Tensor& self);
inline Tensor& cos_outf(const Tensor& self, Tensor& out) { return cos_out(out, self); }
inline Tensor tan(const Tensor& self) { return self.tan(); }
inline Tensor& tan_(Tensor& self) { return self.tan_(); }
Tensor& tan_out(Tensor& out, const Tensor& self);
inline Tensor& tan_outf(const Tensor& self, Tensor& out) { return tan_out(out, self); }
inline Tensor asin(const Tensor& self) { return self.asin(); }
inline Tensor& asin_(Tensor& self) { return self.asin_(); }
Tensor& asin_out(Tensor& out, const Tensor& self);
inline Tensor& asin_outf(const Tensor& self, Tensor& out) { return asin_out(out, self); }
inline Tensor acos(const Tensor& self) { return self.acos(); }
inline Tensor& acos_(Tensor& self) { return self.acos_(); }
Tensor& acos_out(Tensor& out, const Tensor& self);
inline Tensor& acos_outf(const Tensor& self, Tensor& out) { return acos_out(out, self); }
inline Tensor atan(const Tensor& self) { return self.atan(); }
inline Tensor& atan_(Tensor& self) { return self.atan_(); }
Tensor& atan_out(Tensor& out, const Tensor& self);
inline Tensor& atan_outf(const Tensor& self, Tensor& out) { return atan_out(out, self); }
inline Tensor sinh(const Tensor& self) { return self.sinh(); }
inline Tensor& sinh_(Tensor& self) { return self.sinh_(); }
Tensor& sinh_out(Tensor& out, const Tensor& self);
inline Tensor& sinh_outf(const Tensor& self, Tensor& out) { return sinh_out(out, self); }
inline Tensor cosh(const Tensor& self) { return self.cosh(); }
inline Tensor& cosh_(Tensor& self) { return self.cosh_(); }
Tensor& cosh_out(Tensor& out, const Tensor& self);
inline Tensor& cosh_outf(const Tensor& self, Tensor& out) { return cosh_out(out, self); }
inline Tensor& tanh_(Tensor& self) { return self.tanh_(); }
Tensor& tanh_out(Tensor& out, const Tensor& self);
inline Tensor& tanh_outf(const Tensor& self, Tensor& out) { return tanh_out(out, self); }
inline Tensor asinh(const Tensor& self) { return self.asinh(); }
inline Tensor& asinh_(Tensor& self) { return self.asinh_(); }
Tensor& asinh_out(Tensor& out, const Tensor& self);
inline Tensor& asinh_outf(const Tensor& self, Tensor& out) { return asinh_out(out, self); }
inline Tensor acosh(const Tensor& self) { return self.acosh(); }
inline Tensor& acosh_(Tensor& self) { return self.acosh_(); }
Tensor& acosh_out(Tensor& out, const Tensor& self);
inline Tensor& acosh_outf(const Tensor& self, Tensor& out) { return acosh_out(out, self); }
inline Tensor atanh(const Tensor& self) { return self.atanh(); }
inline Tensor& atanh_(Tensor& self) { return self.atanh_(); }
Tensor& atanh_out(Tensor& out, const Tensor& self);
inline Tensor& atanh_outf(const Tensor& self, Tensor& out) { return atanh_out(out, self); }
inline Tensor& sigmoid_(Tensor& self) { return self.sigmoid_(); }
Tensor& sigmoid_out(Tensor& out, const Tensor& self);
inline Tensor& sigmoid_outf(const Tensor& self, Tensor& out) { return sigmoid_out(out, self); }
inline Tensor erf(const Tensor& self) { return self.erf(); }
inline Tensor& erf_(Tensor& self) { return self.erf_(); }
Tensor& erf_out(Tensor& out, const Tensor& self);
inline Tensor& erf_outf(const Tensor& self, Tensor& out) { return erf_out(out, self); }
inline Tensor erfc(const Tensor& self) { return self.erfc(); }
inline Tensor& erfc_(Tensor& self) { return self.erfc_(); }
Tensor& erfc_out(Tensor& out, const Tensor& self);
inline Tensor& erfc_outf(const Tensor& self, Tensor& out) { return erfc_out(out, self); }
inline Tensor i0(const Tensor& self) { return self.i0(); }
inline Tensor& i0_(Tensor& self) { return self.i0_(); }
Tensor& i0_out(Tensor& out, const Tensor& self);
inline Tensor& i0_outf(const Tensor& self, Tensor& out) { return i0_out(out, self); }
inline Tensor sinc(const Tensor& self) { return self.sinc(); }
inline Tensor& sinc_(Tensor& self) { return self.sinc_(); }
Tensor& sinc_out(Tensor& out, const Tensor& self);
inline Tensor& sinc_outf(const Tensor& self, Tensor& out) { return sinc_out(out, self); }
inline Tensor deg2rad(const Tensor& self) { return self.deg2rad(); }
inline Tensor& deg2rad_(Tensor& self) { return self.deg2rad_(); }
Tensor& deg2rad_out(Tensor& out, const Tensor& self);
inline Tensor& deg2rad_outf(const Tensor& self, Tensor& out) { return deg2rad_out(out, self); }
inline Tensor rad2deg(const Tensor& self) { return self.rad2deg(); }
inline Tensor& rad2deg_(Tensor& self) { return self.rad2deg_(); }
Tensor& rad2deg_out(Tensor& out, const Tensor& self);
inline Tensor& rad2deg_outf(const Tensor& self, Tensor& out) { return rad2deg_out(out, self); }
inline Tensor ceil(const Tensor& self) { return self.ceil(); }
inline Tensor& ceil_(Tensor& self) { return self.ceil_(); }
Tensor& ceil_out(Tensor& out, const Tensor& self);
inline Tensor& ceil_outf(const Tensor& self, Tensor& out) { return ceil_out(out, self); }
inline Tensor floor(const Tensor& self) { return self.floor(); }
inline Tensor& floor_(Tensor& self) { return self.floor_(); }
Tensor& floor_out(Tensor& out, const Tensor& self);
inline Tensor& floor_outf(const Tensor& self, Tensor& out) { return floor_out(out, self); }
inline Tensor round(const Tensor& self) { return self.round(); }
inline Tensor& round_(Tensor& self) { return self.round_(); }
Tensor& round_out(Tensor& out, const Tensor& self);
inline Tensor& round_outf(const Tensor& self, Tensor& out) { return round_out(out, self); }
inline Tensor trunc(const Tensor& self) { return self.trunc(); }
inline Tensor& trunc_(Tensor& self) { return self.trunc_(); }
Tensor& trunc_out(Tensor& out, const Tensor& self);
inline Tensor& trunc_outf(const Tensor& self, Tensor& out) { return trunc_out(out, self); }
inline Tensor frac(const Tensor& self) { return self.frac(); }
inline Tensor& frac_(Tensor& self) { return self.frac_(); }
Tensor& frac_out(Tensor& out, const Tensor& self);
inline Tensor& frac_outf(const Tensor& self, Tensor& out) { return frac_out(out, self); }
inline Tensor& relu_(Tensor& self) { return self.relu_(); }
Tensor& relu_out(Tensor& out, const Tensor& self);
inline Tensor& relu_outf(const Tensor& self, Tensor& out) { return relu_out(out, self); }
inline Tensor sign(const Tensor& self) { return self.sign(); }
Tensor& sign_out(Tensor& out, const Tensor& self);
inline Tensor& sign_outf(const Tensor& self, Tensor& out) { return sign_out(out, self); }
inline Tensor sgn(const Tensor& self) { return self.sgn(); }
Tensor& sgn_out(Tensor& out, const Tensor& self);
inline Tensor& sgn_outf(const Tensor& self, Tensor& out) { return sgn_out(out, self); }
inline Tensor signbit(const Tensor& self) { return self.signbit(); }
Tensor& signbit_out(Tensor& out, const Tensor& self);
inline Tensor& signbit_outf(const Tensor& self, Tensor& out) { return signbit_out(out, self); }
inline Tensor erfinv(const Tensor& self) { return self.erfinv(); }
Tensor& erfinv_out(Tensor& out, const Tensor& self);
inline Tensor& erfinv_outf(const Tensor& self, Tensor& out) { return erfinv_out(out, self); }
inline Tensor lgamma(const Tensor& self) { return self.lgamma(); }
Tensor& lgamma_out(Tensor& out, const Tensor& self);
inline Tensor& lgamma_outf(const Tensor& self, Tensor& out) { return lgamma_out(out, self); }
inline Tensor digamma(const Tensor& self) { return self.digamma(); }
Tensor& digamma_out(Tensor& out, const Tensor& self);
inline Tensor& digamma_outf(const Tensor& self, Tensor& out) { return digamma_out(out, self); }
inline Tensor isnan(const Tensor& self) { return self.isnan(); }
Tensor& isnan_out(Tensor& out, const Tensor& self);
inline Tensor& isnan_outf(const Tensor& self, Tensor& out) { return isnan_out(out, self); }
inline Tensor isinf(const Tensor& self) { return self.isinf(); }
Tensor& isinf_out(Tensor& out, const Tensor& self);
inline Tensor& isinf_outf(const Tensor& self, Tensor& out) { return isinf_out(out, self); }
inline Tensor isposinf(const Tensor& self) { return self.isposinf(); }
Tensor& isposinf_out(Tensor& out, const Tensor& self);
inline Tensor& isposinf_outf(const Tensor& self, Tensor& out) { return isposinf_out(out, self); }
inline Tensor isneginf(const Tensor& self) { return self.isneginf(); }
Tensor& isneginf_out(Tensor& out, const Tensor& self);
inline Tensor& isneginf_outf(const Tensor& self, Tensor& out) { return isneginf_out(out, self); }

// ---- Aliases ----
inline Tensor negative(const Tensor& self) { return self.negative(); }
inline Tensor& negative_(Tensor& self) { return self.negative_(); }
inline Tensor& negative_out(Tensor& out, const Tensor& self) { return neg_out(out, self); }
inline Tensor& negative_outf(const Tensor& self, Tensor& out) { return negative_out(out, self); }
inline Tensor arcsin(const Tensor& self) { return self.arcsin(); }
inline Tensor& arcsin_(Tensor& self) { return self.arcsin_(); }
inline Tensor& arcsin_out(Tensor& out, const Tensor& self) { return asin_out(out, self); }
inline Tensor& arcsin_outf(const Tensor& self, Tensor& out) { return arcsin_out(out, self); }
inline Tensor arccos(const Tensor& self) { return self.arccos(); }
inline Tensor& arccos_(Tensor& self) { return self.arccos_(); }
inline Tensor& arccos_out(Tensor& out, const Tensor& self) { return acos_out(out, self); }
inline Tensor& arccos_outf(const Tensor& self, Tensor& out) { return arccos_out(out, self); }
inline Tensor arctan(const Tensor& self) { return self.arctan(); }
inline Tensor& arctan_(Tensor& self) { return self.arctan_(); }
inline Tensor& arctan_out(Tensor& out, const Tensor& self) { return atan_out(out, self); }
inline Tensor& arctan_outf(const Tensor& self, Tensor& out) { return arctan_out(out, self); }
inline Tensor arcsinh(const Tensor& self) { return self.arcsinh(); }
inline Tensor& arcsinh_(Tensor& self) { return self.arcsinh_(); }
inline Tensor& arcsinh_out(Tensor& out, const Tensor& self) { return asinh_out(out, self); }
inline Tensor& arcsinh_outf(const Tensor& self, Tensor& out) { return arcsinh_out(out, self); }
inline Tensor arccosh(const Tensor& self) { return self.arccosh(); }
inline Tensor& arccosh_(Tensor& self) { return self.arccosh_(); }
inline Tensor& arccosh_out(Tensor& out, const Tensor& self) { return acosh_out(out, self); }
inline Tensor& arccosh_outf(const Tensor& self, Tensor& out) { return arccosh_out(out, self); }
inline Tensor arctanh(const Tensor& self) { return self.arctanh(); }
inline Tensor& arctanh_(Tensor& self) { return self.arctanh_(); }
inline Tensor& arctanh_out(Tensor& out, const Tensor& self) { return atanh_out(out, self); }
inline Tensor& arctanh_outf(const Tensor& self, Tensor& out) { return arctanh_out(out, self); }
inline Tensor fix(const Tensor& self) { return self.fix(); }
inline Tensor& fix_(Tensor& self) { return self.fix_(); }
inline Tensor& fix_out(Tensor& out, const Tensor& self) { return trunc_out(out, self); }
inline Tensor& fix_outf(const Tensor& self, Tensor& out) { return fix_out(out, self); }
inline Tensor absolute(const Tensor& self) { return self.absolute(); }
inline Tensor& absolute_out(Tensor& out, const Tensor& self) { return abs_out(out, self); }
inline Tensor& absolute_outf(const Tensor& self, Tensor& out) { return absolute_out(out, self); }

// ---- Ops with arguments ----
inline Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt) { return self.logit(eps); }
inline Tensor& logit_(Tensor& self, std::optional<double> eps = std::nullopt) { return self.logit_(eps); }
Tensor& logit_out(Tensor& out, const Tensor& self, std::optional<double> eps = std::nullopt);
inline Tensor& logit_outf(const Tensor& self, std::optional<double> eps, Tensor& out) { return logit_out(out, self, eps); }

inline Tensor polygamma(int64_t n, const Tensor& self) { return self.polygamma(n); }
Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self);
inline Tensor& polygamma_outf(int64_t n, const Tensor& self, Tensor& out) { return polygamma_out(out, n, self); }

inline Tensor mvlgamma(const Tensor& self, int64_t p) { return self.mvlgamma(p); }
Tensor& mvlgamma_out(Tensor& out, const Tensor& self, int64_t p);
inline Tensor& mvlgamma_outf(const Tensor& self, int64_t p, Tensor& out) { return mvlgamma_out(out, self, p); }

inline Tensor round(const Tensor& self, int64_t decimals) { return self.round(decimals); }
inline Tensor& round_(Tensor& self, int64_t decimals) { return self.round_(decimals); }
Tensor& round_out(Tensor& out, const Tensor& self, int64_t decimals);
inline Tensor& round_outf(const Tensor& self, int64_t decimals, Tensor& out) { return round_out(out, self, decimals); }

inline Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                         std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt) {
  return self.nan_to_num(nan, posinf, neginf);
}
inline Tensor& nan_to_num_(Tensor& self, std::optional<double> nan = std::nullopt,
                           std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt) {
  return self.nan_to_num_(nan, posinf, neginf);
}
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan = std::nullopt,
                       std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt);
inline Tensor& nan_to_num_outf(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                               std::optional<double> neginf, Tensor& out) {
  return nan_to_num_out(out, self, nan, posinf, neginf);
}

inline Tensor isfinite(const Tensor& self) { return self.isfinite(); }
inline Tensor isreal(const Tensor& self) { return self.isreal(); }
// +self: self itself.
inline Tensor positive(const Tensor& self) { return self.positive(); }

// ---- pow with a number exponent: out= form ----
Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent);
inline Tensor& pow_outf(const Tensor& self, const Scalar& exponent, Tensor& out) { return pow_out(out, self, exponent); }

// ---- clamp and its one-bound forms; clip is clamp's other name ----
inline Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) {
  return self.clamp_(min, max);
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max = std::nullopt);
inline Tensor& clamp_outf(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                          Tensor& out) {
  return clamp_out(out, self, min, max);
}
inline Tensor clamp_min(const Tensor& self, const Scalar& min) { return self.clamp_min(min); }
inline Tensor& clamp_min_(Tensor& self, const Scalar& min) { return self.clamp_min_(min); }
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Scalar& min);
inline Tensor& clamp_min_outf(const Tensor& self, const Scalar& min, Tensor& out) { return clamp_min_out(out, self, min); }
inline Tensor clamp_max(const Tensor& self, const Scalar& max) { return self.clamp_max(max); }
inline Tensor& clamp_max_(Tensor& self, const Scalar& max) { return self.clamp_max_(max); }
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Scalar& max);
inline Tensor& clamp_max_outf(const Tensor& self, const Scalar& max, Tensor& out) { return clamp_max_out(out, self, max); }
inline Tensor clip(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) {
  return self.clip(min, max);
}
inline Tensor& clip_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) {
  return self.clip_(min, max);
}
inline Tensor& clip_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                        const std::optional<Scalar>& max = std::nullopt) {
  return clamp_out(out, self, min, max);
}
inline Tensor& clip_outf(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                         Tensor& out) {
  return clamp_out(out, self, min, max);
}

}  // namespace tinytorch
