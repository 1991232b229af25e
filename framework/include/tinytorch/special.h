#pragma once
// LibTorch's special functions: torch::special::NAME (torch/special.h) and the at::special_NAME
// spellings, each with its _out form. Most are other names of TinyTorch ops (expit is sigmoid,
// gammaln is lgamma, psi is digamma, ...); erfcx, i0e, i1, i1e, ndtri, log_ndtr and zeta are computed
// in double per element in src/01_tensor/functions_more.cpp (erfcx, i0e, i1, i1e, ndtri, log_ndtr
// with their gradients: SpecialErfcxBackward0, ...; zeta has none, as in LibTorch's first argument).
// Integer inputs give the default floating dtype.
#include <cstdint>
#include <optional>

#include "tinytorch/activations.h"
#include "tinytorch/functions.h"
#include "tinytorch/pointwise_binary.h"
#include "tinytorch/scalar.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace detail {
Tensor& write_out_result(Tensor& out, const Tensor& result, const char* name);
}  // namespace detail

// ---- Computed here (functions_more.cpp) ----
Tensor special_erfcx(const Tensor& self);  // exp(x^2) erfc(x)
Tensor special_i0e(const Tensor& self);    // exp(-|x|) I0(x)
Tensor special_i1(const Tensor& self);     // the modified Bessel function I1
Tensor special_i1e(const Tensor& self);    // exp(-|x|) I1(x)
Tensor special_ndtr(const Tensor& self);   // the standard normal CDF
Tensor special_ndtri(const Tensor& self);  // its inverse
Tensor special_log_ndtr(const Tensor& self);
Tensor special_entr(const Tensor& self);  // -x log x, 0 at 0, -inf below
Tensor special_xlog1py(const Tensor& self, const Tensor& other);  // x log1p(y), 0 where x == 0
Tensor special_xlog1py(const Scalar& self, const Tensor& other);
Tensor special_xlog1py(const Tensor& self, const Scalar& other);
Tensor special_zeta(const Tensor& self, const Tensor& other);  // Hurwitz zeta sum_k (k + other)^-self
Tensor special_zeta(const Scalar& self, const Tensor& other);
Tensor special_zeta(const Tensor& self, const Scalar& other);

// Without gradients, as in LibTorch: the regularized incomplete gamma functions P(self, other) and
// Q(self, other) (igamma / igammac are their older names), orthogonal polynomials of degree n
// (n < 0 gives 0), Bessel and Airy functions (through C++17's std::cyl_bessel_* where they exist).
Tensor special_gammainc(const Tensor& self, const Tensor& other);
Tensor special_gammaincc(const Tensor& self, const Tensor& other);
Tensor igamma(const Tensor& self, const Tensor& other);
Tensor igammac(const Tensor& self, const Tensor& other);
#define TT_SPECIAL_POLYNOMIAL_DECLARATIONS(NAME)          \
  Tensor special_##NAME(const Tensor& x, const Tensor& n); \
  Tensor special_##NAME(const Scalar& x, const Tensor& n); \
  Tensor special_##NAME(const Tensor& x, const Scalar& n);
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(chebyshev_polynomial_t)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(chebyshev_polynomial_u)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(chebyshev_polynomial_v)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(chebyshev_polynomial_w)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(shifted_chebyshev_polynomial_t)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(shifted_chebyshev_polynomial_u)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(shifted_chebyshev_polynomial_v)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(shifted_chebyshev_polynomial_w)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(hermite_polynomial_h)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(hermite_polynomial_he)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(laguerre_polynomial_l)
TT_SPECIAL_POLYNOMIAL_DECLARATIONS(legendre_polynomial_p)
#undef TT_SPECIAL_POLYNOMIAL_DECLARATIONS
Tensor special_bessel_j0(const Tensor& self);
Tensor special_bessel_j1(const Tensor& self);
Tensor special_bessel_y0(const Tensor& self);
Tensor special_bessel_y1(const Tensor& self);
Tensor special_modified_bessel_i0(const Tensor& self);
Tensor special_modified_bessel_i1(const Tensor& self);
Tensor special_modified_bessel_k0(const Tensor& self);
Tensor special_modified_bessel_k1(const Tensor& self);
Tensor special_scaled_modified_bessel_k0(const Tensor& self);  // exp(x) K0(x)
Tensor special_scaled_modified_bessel_k1(const Tensor& self);
Tensor special_spherical_bessel_j0(const Tensor& self);  // sin(x) / x
Tensor special_airy_ai(const Tensor& self);

// ---- Other names of TinyTorch ops ----
inline Tensor special_erf(const Tensor& self) { return self.erf(); }
inline Tensor special_erfc(const Tensor& self) { return self.erfc(); }
inline Tensor special_erfinv(const Tensor& self) { return self.erfinv(); }
inline Tensor special_exp2(const Tensor& self) { return self.exp2(); }
inline Tensor special_expm1(const Tensor& self) { return self.expm1(); }
inline Tensor special_log1p(const Tensor& self) { return self.log1p(); }
inline Tensor special_expit(const Tensor& self) { return self.sigmoid(); }
inline Tensor special_gammaln(const Tensor& self) { return self.lgamma(); }
inline Tensor special_digamma(const Tensor& self) { return self.digamma(); }
inline Tensor special_psi(const Tensor& self) { return self.digamma(); }
inline Tensor special_polygamma(int64_t n, const Tensor& self) { return self.polygamma(n); }
inline Tensor special_multigammaln(const Tensor& self, int64_t p) { return self.mvlgamma(p); }
inline Tensor special_i0(const Tensor& self) { return self.i0(); }
inline Tensor special_sinc(const Tensor& self) { return self.sinc(); }
inline Tensor special_round(const Tensor& self, int64_t decimals = 0) { return self.round(decimals); }
inline Tensor special_logit(const Tensor& self, std::optional<double> eps = std::nullopt) { return self.logit(eps); }
inline Tensor special_xlogy(const Tensor& self, const Tensor& other) { return self.xlogy(other); }
inline Tensor special_xlogy(const Scalar& self, const Tensor& other) { return xlogy(self, other); }
inline Tensor special_xlogy(const Tensor& self, const Scalar& other) { return self.xlogy(other); }
inline Tensor special_logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false) {
  return self.logsumexp(dim, keepdim);
}
inline Tensor special_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return softmax(self, dim, dtype);
}
inline Tensor special_log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return log_softmax(self, dim, dtype);
}

namespace special {

// torch::special::NAME(args) and NAME_out(out, args): LibTorch's torch/special.h.
#define TT_SPECIAL_UNARY(NAME)                                                          \
  inline Tensor NAME(const Tensor& self) { return special_##NAME(self); }               \
  inline Tensor& NAME##_out(Tensor& result, const Tensor& self) {                       \
    return detail::write_out_result(result, special_##NAME(self), "special_" #NAME);    \
  }
TT_SPECIAL_UNARY(erf)
TT_SPECIAL_UNARY(erfc)
TT_SPECIAL_UNARY(erfcx)
TT_SPECIAL_UNARY(erfinv)
TT_SPECIAL_UNARY(exp2)
TT_SPECIAL_UNARY(expm1)
TT_SPECIAL_UNARY(log1p)
TT_SPECIAL_UNARY(expit)
TT_SPECIAL_UNARY(gammaln)
TT_SPECIAL_UNARY(digamma)
TT_SPECIAL_UNARY(psi)
TT_SPECIAL_UNARY(i0)
TT_SPECIAL_UNARY(i0e)
TT_SPECIAL_UNARY(i1)
TT_SPECIAL_UNARY(i1e)
TT_SPECIAL_UNARY(ndtr)
TT_SPECIAL_UNARY(ndtri)
TT_SPECIAL_UNARY(log_ndtr)
TT_SPECIAL_UNARY(entr)
TT_SPECIAL_UNARY(sinc)
TT_SPECIAL_UNARY(bessel_j0)
TT_SPECIAL_UNARY(bessel_j1)
TT_SPECIAL_UNARY(bessel_y0)
TT_SPECIAL_UNARY(bessel_y1)
TT_SPECIAL_UNARY(modified_bessel_i0)
TT_SPECIAL_UNARY(modified_bessel_i1)
TT_SPECIAL_UNARY(modified_bessel_k0)
TT_SPECIAL_UNARY(modified_bessel_k1)
TT_SPECIAL_UNARY(scaled_modified_bessel_k0)
TT_SPECIAL_UNARY(scaled_modified_bessel_k1)
TT_SPECIAL_UNARY(spherical_bessel_j0)
TT_SPECIAL_UNARY(airy_ai)
#undef TT_SPECIAL_UNARY

inline Tensor gammainc(const Tensor& self, const Tensor& other) { return special_gammainc(self, other); }
inline Tensor& gammainc_out(Tensor& result, const Tensor& self, const Tensor& other) {
  return detail::write_out_result(result, special_gammainc(self, other), "special_gammainc");
}
inline Tensor gammaincc(const Tensor& self, const Tensor& other) { return special_gammaincc(self, other); }
inline Tensor& gammaincc_out(Tensor& result, const Tensor& self, const Tensor& other) {
  return detail::write_out_result(result, special_gammaincc(self, other), "special_gammaincc");
}

#define TT_SPECIAL_BINARY(NAME)                                                                          \
  inline Tensor NAME(const Tensor& self, const Tensor& other) { return special_##NAME(self, other); }    \
  inline Tensor NAME(const Scalar& self, const Tensor& other) { return special_##NAME(self, other); }    \
  inline Tensor NAME(const Tensor& self, const Scalar& other) { return special_##NAME(self, other); }    \
  inline Tensor& NAME##_out(Tensor& result, const Tensor& self, const Tensor& other) {                   \
    return detail::write_out_result(result, special_##NAME(self, other), "special_" #NAME);              \
  }                                                                                                      \
  inline Tensor& NAME##_out(Tensor& result, const Scalar& self, const Tensor& other) {                   \
    return detail::write_out_result(result, special_##NAME(self, other), "special_" #NAME);              \
  }                                                                                                      \
  inline Tensor& NAME##_out(Tensor& result, const Tensor& self, const Scalar& other) {                   \
    return detail::write_out_result(result, special_##NAME(self, other), "special_" #NAME);              \
  }
TT_SPECIAL_BINARY(xlogy)
TT_SPECIAL_BINARY(xlog1py)
TT_SPECIAL_BINARY(zeta)
TT_SPECIAL_BINARY(chebyshev_polynomial_t)
TT_SPECIAL_BINARY(chebyshev_polynomial_u)
TT_SPECIAL_BINARY(chebyshev_polynomial_v)
TT_SPECIAL_BINARY(chebyshev_polynomial_w)
TT_SPECIAL_BINARY(shifted_chebyshev_polynomial_t)
TT_SPECIAL_BINARY(shifted_chebyshev_polynomial_u)
TT_SPECIAL_BINARY(shifted_chebyshev_polynomial_v)
TT_SPECIAL_BINARY(shifted_chebyshev_polynomial_w)
TT_SPECIAL_BINARY(hermite_polynomial_h)
TT_SPECIAL_BINARY(hermite_polynomial_he)
TT_SPECIAL_BINARY(laguerre_polynomial_l)
TT_SPECIAL_BINARY(legendre_polynomial_p)
#undef TT_SPECIAL_BINARY

inline Tensor polygamma(int64_t n, const Tensor& self) { return special_polygamma(n, self); }
inline Tensor& polygamma_out(Tensor& result, int64_t n, const Tensor& self) {
  return detail::write_out_result(result, special_polygamma(n, self), "special_polygamma");
}
inline Tensor multigammaln(const Tensor& self, int64_t p) { return special_multigammaln(self, p); }
inline Tensor& multigammaln_out(Tensor& result, const Tensor& self, int64_t p) {
  return detail::write_out_result(result, special_multigammaln(self, p), "special_multigammaln");
}
inline Tensor logit(const Tensor& self) { return special_logit(self); }
inline Tensor& logit_out(Tensor& result, const Tensor& self) {
  return detail::write_out_result(result, special_logit(self), "special_logit");
}
inline Tensor round(const Tensor& self) { return special_round(self); }
inline Tensor& round_out(Tensor& result, const Tensor& self) {
  return detail::write_out_result(result, special_round(self), "special_round");
}
inline Tensor logsumexp(const Tensor& self, IntArrayRef dims, bool keepdim) {
  return special_logsumexp(self, dims, keepdim);
}
inline Tensor& logsumexp_out(Tensor& result, const Tensor& self, IntArrayRef dims, bool keepdim) {
  return detail::write_out_result(result, special_logsumexp(self, dims, keepdim), "special_logsumexp");
}
inline Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return special_softmax(self, dim, dtype);
}
inline Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return special_log_softmax(self, dim, dtype);
}

}  // namespace special
}  // namespace tinytorch
