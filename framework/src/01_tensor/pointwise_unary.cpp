// LibTorch's pointwise ops of one tensor (sin, erf, floor, isnan, ...), table-driven: each op is one
// row of kUnaryOps below, saying its scalar formula (double, and int64 where integers stay integers),
// its dtype rule, LibTorch's kernel name for dtype errors, and its backward node with the gradient
// formula (LibTorch's derivatives.yaml entry). The row's derivative is registered under the row's
// name; the Tensor methods, the in-place `_` forms and the torch::name_out functions all run the row
// through the same three routines (compute, write in place, write into out).
//
// exp, log, sqrt, abs, neg, clamp and pow(Scalar) stay in unary.cpp; this file adds their in-place
// and out= forms, which record the derivative unary.cpp declares.
#include "tinytorch/pointwise_unary.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include "internal.h"
#include "pointwise_unary_math.h"
#include "pointwise_unary_writes.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

using detail::WriteCheck;
using detail::check_write;
using detail::write_in_place;
using detail::write_out;

// What an op's result dtype is for an input dtype (PyTorch's TensorIterator configurations).
enum class DtypeRule {
  Floating,       // integer and bool inputs give the default float dtype (exp, sin, erf, ...)
  FloatingOnly,   // integer and bool inputs are refused with the kernel's name (frac, round(decimals))
  KeepsIntegers,  // integers stay integers; bool is refused (abs, ceil, floor, round, trunc)
  KeepsAll,       // every dtype stays itself, bool included (sign, sgn, nan_to_num)
  Predicate,      // the result is kBool (isnan, isinf, signbit, ...)
};

// What the backward node keeps from the forward pass.
enum class Saves { Nothing, Self, Result, SelfAndResult };

// The arguments some rows take besides the tensor: logit's eps, polygamma's n, mvlgamma's p,
// round's decimals, nan_to_num's replacements (already resolved to numbers).
struct UnaryParams {
  bool single_precision = false;  // the input is float: rows that round like LibTorch's float kernels do
  std::optional<double> eps;
  int64_t n = 0;
  double nan = 0, posinf = 0, neginf = 0;
};
using P = const UnaryParams&;

using GradientFormula = Tensor (*)(const Tensor& grad, const Tensor& self, const Tensor& result,
                                   const OpAttributes& attributes);

struct UnaryOp {
  const char* name;    // the op's name, recorded and keying its derivative: "erf"
  const char* kernel;  // LibTorch's kernel name in "\"erf_vml_cpu\" not implemented for 'Long'"
  DtypeRule rule;
  bool has_half_kernel;                // LibTorch 1.13 has a CPU kernel for kHalf
  double (*formula)(double x, P p);    // floating inputs
  int64_t (*integer_formula)(int64_t x, P p);  // integer and bool inputs, where the rule keeps them
  const char* node;                    // LibTorch's backward node; nullptr: not differentiable
  Saves saves;
  GradientFormula gradient;
  // Where LibTorch names the in-place form's node apart ("acosh_": AcoshBackward1): its op and node.
  const char* in_place_name = nullptr;
  const char* in_place_node = nullptr;
  OpHandle handle{name};
  OpHandle in_place_handle{in_place_name != nullptr ? in_place_name : name};
};

Tensor bessel_i1(const Tensor& self);  // below the table: it runs one of its rows

// ---- Gradient formulas (LibTorch's tools/autograd/derivatives.yaml) ----
Tensor zero_gradient(const Tensor& grad, const Tensor&, const Tensor&, const OpAttributes&) {
  return zeros_like(grad);
}
Tensor same_gradient(const Tensor& grad, const Tensor&, const Tensor&, const OpAttributes&) { return grad; }
Tensor mask_as(const Tensor& mask, const Tensor& like) { return mask.to(like.scalar_type()); }

const double kLn2 = std::log(2.0), kLn10 = std::log(10.0);

// Rows in the order of LibTorch's documentation; aliases (absolute, arcsin, fix, ...) call their row.
const UnaryOp kUnaryOps[] = {
    {"sign", "sign_cpu", DtypeRule::KeepsAll, true,
     [](double x, P) -> double { return std::isnan(x) ? 0.0 : (0.0 < x) - (x < 0.0); },
     [](int64_t x, P) -> int64_t { return (0 < x) - (x < 0); }, "SignBackward0", Saves::Nothing, zero_gradient},
    {"sgn", "sgn_cpu", DtypeRule::KeepsAll, true,
     [](double x, P) -> double { return std::isnan(x) ? 0.0 : (0.0 < x) - (x < 0.0); },
     [](int64_t x, P) -> int64_t { return (0 < x) - (x < 0); }, "SgnBackward0", Saves::Nothing, zero_gradient},
    {"signbit", "signbit_cpu", DtypeRule::Predicate, true, [](double x, P) -> double { return std::signbit(x); },
     [](int64_t x, P) -> int64_t { return x < 0; }, nullptr, Saves::Nothing, nullptr},
    {"exp2", "exp2_cpu", DtypeRule::Floating, true, [](double x, P) { return std::exp2(x); }, nullptr,
     "Exp2Backward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) { return grad * result * kLn2; }},
    {"expm1", "expm1_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::expm1(x); }, nullptr,
     "Expm1Backward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) { return grad * (result + 1); }},
    {"log2", "log2_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::log2(x); }, nullptr,
     "Log2Backward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad / (self * kLn2); }},
    {"log10", "log10_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::log10(x); }, nullptr,
     "Log10Backward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad / (self * kLn10); }},
    {"log1p", "log1p_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::log1p(x); }, nullptr,
     "Log1PBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad / (self + 1); }},
    {"rsqrt", "rsqrt_cpu", DtypeRule::Floating, false, [](double x, P) { return 1.0 / std::sqrt(x); }, nullptr,
     "RsqrtBackward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) {
       return grad * result.pow(3) * -0.5;
     }},
    {"reciprocal", "reciprocal_cpu", DtypeRule::Floating, true, [](double x, P) { return 1.0 / x; }, nullptr,
     "ReciprocalBackward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) {
       return -grad * (result * result);
     }},
    {"sin", "sin_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::sin(x); }, nullptr,
     "SinBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad * self.cos(); }},
    {"cos", "cos_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::cos(x); }, nullptr,
     "CosBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad * -self.sin(); }},
    {"tan", "tan_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::tan(x); }, nullptr,
     "TanBackward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) {
       return grad * (result * result + 1);
     }},
    {"asin", "asin_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::asin(x); }, nullptr,
     "AsinBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * (-self * self + 1).rsqrt();
     }},
    {"acos", "acos_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::acos(x); }, nullptr,
     "AcosBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * -(-self * self + 1).rsqrt();
     }},
    {"atan", "atan_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::atan(x); }, nullptr,
     "AtanBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad / (self * self + 1);
     }},
    {"sinh", "sinh_cpu", DtypeRule::Floating, false, [](double x, P) { return std::sinh(x); }, nullptr,
     "SinhBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad * self.cosh(); }},
    {"cosh", "cosh_cpu", DtypeRule::Floating, false, [](double x, P) { return std::cosh(x); }, nullptr,
     "CoshBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad * self.sinh(); }},
    {"asinh", "asinh_cpu", DtypeRule::Floating, false, [](double x, P) { return std::asinh(x); }, nullptr,
     "AsinhBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * (self * self + 1).rsqrt();
     },
     "asinh_", "AsinhBackward1"},
    {"acosh", "acosh_cpu", DtypeRule::Floating, false, [](double x, P) { return std::acosh(x); }, nullptr,
     "AcoshBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * (self * self - 1).rsqrt();
     },
     "acosh_", "AcoshBackward1"},
    {"atanh", "atanh_cpu", DtypeRule::Floating, false, [](double x, P) { return std::atanh(x); }, nullptr,
     "AtanhBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad / (-self * self + 1);
     },
     "atanh_", "AtanhBackward1"},
    // logit(x) = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given. Outside
    // [0, 1] (or the clamp range) the gradient is NaN without eps and 0 with it, as LibTorch's.
    {"logit", "logit_cpu", DtypeRule::Floating, false,
     [](double x, P p) {
       if (p.eps) x = x < *p.eps ? *p.eps : (x > 1 - *p.eps ? 1 - *p.eps : x);
       return std::log(x / (1 - x));
     },
     nullptr, "LogitBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes& attributes) {
       const Tensor inner = grad / (self * (1 - self));
       const double lo = attributes.min ? attributes.min->toDouble() : 0.0;
       const Scalar outside = attributes.min ? 0.0 : std::numeric_limits<double>::quiet_NaN();
       return where(self.lt(lo), outside, where(self.gt(1 - lo), outside, inner));
     }},
    {"erf", "erf_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::erf(x); }, nullptr,
     "ErfBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * (-self * self).exp() * (2.0 / std::sqrt(special::kPi));
     }},
    {"erfc", "erfc_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::erfc(x); }, nullptr,
     "ErfcBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * (-self * self).exp() * (-2.0 / std::sqrt(special::kPi));
     }},
    {"erfinv", "erfinv_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return special::erfinv(x); },
     nullptr, "ErfinvBackward0", Saves::Result,
     [](const Tensor& grad, const Tensor&, const Tensor& result, const OpAttributes&) {
       return grad * (result * result).exp() * (0.5 * std::sqrt(special::kPi));
     }},
    {"lgamma", "lgamma_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return std::lgamma(x); }, nullptr,
     "LgammaBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) { return grad * self.digamma(); }},
    {"digamma", "digamma", DtypeRule::Floating, false, [](double x, P p) { return special::polygamma(0, x, p.single_precision); }, nullptr,
     "DigammaBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * self.polygamma(1);
     }},
    {"polygamma", "polygamma", DtypeRule::Floating, false, [](double x, P p) { return special::polygamma(p.n, x, p.single_precision); },
     nullptr, "PolygammaBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes& attributes) {
       return grad * self.polygamma(attributes.index + 1);
     },
     "polygamma_", "PolygammaBackward1"},
    // log of the multivariate gamma function of dimension p: sum_j lgamma(x - j/2) + p(p-1)/4 log(pi).
    {"mvlgamma", "lgamma_vml_cpu", DtypeRule::Floating, false,
     [](double x, P p) {
       double sum = static_cast<double>(p.n * (p.n - 1)) / 4.0 * std::log(special::kPi);
       for (int64_t j = 0; j < p.n; ++j) sum += std::lgamma(x - static_cast<double>(j) / 2.0);
       return sum;
     },
     nullptr, "MvlgammaBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes& attributes) {
       Tensor sum = zeros_like(self);
       for (int64_t j = 0; j < attributes.index; ++j) sum = sum + (self - static_cast<double>(j) / 2.0).digamma();
       return grad * sum;
     }},
    {"i0", "i0_vml_cpu", DtypeRule::Floating, false, [](double x, P) { return special::bessel_i0(x); }, nullptr,
     "I0Backward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * bessel_i1(self);
     }},
    // I1 for i0's gradient only (torch::special_i1 is the special-functions family's, with its own node).
    {"bessel_i1", "i1_cpu", DtypeRule::Floating, false, [](double x, P) { return special::bessel_i1(x); }, nullptr,
     nullptr, Saves::Nothing, nullptr},
    // sin(pi x) / (pi x), 1 at 0; its slope (pi x cos(pi x) - sin(pi x)) / (pi x^2) is 0 at 0. For a
    // float input pi x is rounded to float first, as LibTorch's float kernel does (sinc(3) is 2.8e-8).
    {"sinc", "sinc_cpu", DtypeRule::Floating, false,
     [](double x, P p) {
       if (x == 0.0) return 1.0;
       if (p.single_precision) {
         const float pi_x = static_cast<float>(special::kPi) * static_cast<float>(x);
         return static_cast<double>(std::sin(pi_x) / pi_x);
       }
       return std::sin(special::kPi * x) / (special::kPi * x);
     },
     nullptr,
     "SincBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       const Tensor pi_x = self * special::kPi;
       const Tensor slope = (pi_x * pi_x.cos() - pi_x.sin()) / (pi_x * self);
       return grad * where(self.eq(0), 0.0, slope);
     }},
    {"deg2rad", "deg2rad_cpu", DtypeRule::Floating, true, [](double x, P) { return x * (special::kPi / 180.0); },
     nullptr, "Deg2RadBackward0", Saves::Nothing,
     [](const Tensor& grad, const Tensor&, const Tensor&, const OpAttributes&) {
       return grad * (special::kPi / 180.0);
     }},
    {"rad2deg", "rad2deg_cpu", DtypeRule::Floating, true, [](double x, P) { return x * (180.0 / special::kPi); },
     nullptr, "Rad2DegBackward0", Saves::Nothing,
     [](const Tensor& grad, const Tensor&, const Tensor&, const OpAttributes&) {
       return grad * (180.0 / special::kPi);
     }},
    {"ceil", "ceil_vml_cpu", DtypeRule::KeepsIntegers, false, [](double x, P) { return std::ceil(x); },
     [](int64_t x, P) { return x; }, "CeilBackward0", Saves::Nothing, zero_gradient},
    {"floor", "floor_vml_cpu", DtypeRule::KeepsIntegers, false, [](double x, P) { return std::floor(x); },
     [](int64_t x, P) { return x; }, "FloorBackward0", Saves::Nothing, zero_gradient},
    // Half-way cases go to the even neighbour, as LibTorch's (and numpy's) round.
    {"round", "round_vml_cpu", DtypeRule::KeepsIntegers, false, [](double x, P) { return std::nearbyint(x); },
     [](int64_t x, P) { return x; }, "RoundBackward0", Saves::Nothing, zero_gradient},
    {"round.decimals", "round_cpu", DtypeRule::FloatingOnly, false,
     [](double x, P p) {
       if (p.n >= 0) {
         const double scale = std::pow(10.0, static_cast<double>(p.n));
         return std::nearbyint(x * scale) / scale;
       }
       const double scale = std::pow(10.0, static_cast<double>(-p.n));
       return std::nearbyint(x / scale) * scale;
     },
     nullptr, "RoundBackward1", Saves::Nothing, zero_gradient},
    {"trunc", "trunc_vml_cpu", DtypeRule::KeepsIntegers, false, [](double x, P) { return std::trunc(x); },
     [](int64_t x, P) { return x; }, "TruncBackward0", Saves::Nothing, zero_gradient},
    {"frac", "frac_cpu", DtypeRule::FloatingOnly, true, [](double x, P) { return x - std::trunc(x); }, nullptr,
     "FracBackward0", Saves::Nothing, same_gradient},
    // NaN, +inf and -inf replaced by the given numbers (defaults: 0 and the dtype's largest and
    // lowest finite values); the gradient passes where the input was finite.
    {"nan_to_num", "nan_to_num", DtypeRule::KeepsAll, true,
     [](double x, P p) { return std::isnan(x) ? p.nan : (x == INFINITY ? p.posinf : (x == -INFINITY ? p.neginf : x)); },
     [](int64_t x, P) { return x; }, "NanToNumBackward0", Saves::Self,
     [](const Tensor& grad, const Tensor& self, const Tensor&, const OpAttributes&) {
       return grad * mask_as(self.isfinite(), grad);
     }},
    {"isnan", "isnan", DtypeRule::Predicate, true, [](double x, P) -> double { return std::isnan(x); },
     [](int64_t, P) -> int64_t { return 0; }, nullptr, Saves::Nothing, nullptr},
    {"isinf", "isinf", DtypeRule::Predicate, true, [](double x, P) -> double { return std::isinf(x); },
     [](int64_t, P) -> int64_t { return 0; }, nullptr, Saves::Nothing, nullptr},
    {"isfinite", "isfinite", DtypeRule::Predicate, true, [](double x, P) -> double { return std::isfinite(x); },
     [](int64_t, P) -> int64_t { return 1; }, nullptr, Saves::Nothing, nullptr},
    {"isposinf", "isposinf", DtypeRule::Predicate, true, [](double x, P) -> double { return x == INFINITY; },
     [](int64_t, P) -> int64_t { return 0; }, nullptr, Saves::Nothing, nullptr},
    {"isneginf", "isneginf", DtypeRule::Predicate, true, [](double x, P) -> double { return x == -INFINITY; },
     [](int64_t, P) -> int64_t { return 0; }, nullptr, Saves::Nothing, nullptr},
    // TinyTorch has no complex dtypes: every element is real.
    {"isreal", "isreal", DtypeRule::Predicate, true, [](double, P) -> double { return 1; },
     [](int64_t, P) -> int64_t { return 1; }, nullptr, Saves::Nothing, nullptr},
};

const UnaryOp& find_op(const char* name) {
  for (const UnaryOp& op : kUnaryOps) {
    if (std::strcmp(op.name, name) == 0) return op;
  }
  throw Error(detail::str("pointwise_unary: no row named ", name));
}

// ---- Each row's derivative, registered under its name (and its in-place node's name) ----
template <size_t I>
void save_row(SaveForBackward& save) {
  const Saves saves = kUnaryOps[I].saves;
  if (saves == Saves::Self || saves == Saves::SelfAndResult) save.input(0);
  if (saves == Saves::Result || saves == Saves::SelfAndResult) save.output(0);
}

template <size_t I>
tensor_list backward_row(const BackwardContext& ctx) {
  const UnaryOp& op = kUnaryOps[I];
  const Tensor none;
  const Tensor& self = (op.saves == Saves::Self || op.saves == Saves::SelfAndResult) ? ctx.saved(0) : none;
  const Tensor& result = op.saves == Saves::Result ? ctx.saved(0) : (op.saves == Saves::SelfAndResult ? ctx.saved(1) : none);
  return {op.gradient(ctx.grad(), self, result, ctx.attributes)};
}

template <size_t I>
void register_row() {
  const UnaryOp& op = kUnaryOps[I];
  if (op.node == nullptr) return;
  static const RegisterDerivative out_of_place(op.name, {op.node, &save_row<I>, &backward_row<I>});
  if (op.in_place_node != nullptr) {
    static const RegisterDerivative in_place(op.in_place_name, {op.in_place_node, &save_row<I>, &backward_row<I>});
  }
}

template <size_t... I>
bool register_rows(std::index_sequence<I...>) {
  (register_row<I>(), ...);
  return true;
}

[[maybe_unused]] const bool rows_registered = register_rows(std::make_index_sequence<std::size(kUnaryOps)>());

// ---- Running a row ----

ScalarType result_dtype(const UnaryOp& op, ScalarType input) {
  const bool integral = isIntegralType(input, /*include_bool=*/true);
  switch (op.rule) {
    case DtypeRule::Floating: return integral ? default_dtype() : input;
    case DtypeRule::FloatingOnly:
      if (integral) TT_DISPATCH_FAIL_(input, op.kernel);
      return input;
    case DtypeRule::KeepsIntegers:
      if (input == kBool) TT_DISPATCH_FAIL_(input, op.kernel);
      return input;
    case DtypeRule::KeepsAll: return input;
    case DtypeRule::Predicate: return kBool;
  }
  return input;
}

// The row's formula over self's elements into a new contiguous tensor. Records nothing.
Tensor compute(const UnaryOp& op, const Tensor& self, const UnaryParams& params) {
  const ScalarType out_type = result_dtype(op, self.scalar_type());
  const ScalarType value_type = op.rule == DtypeRule::Predicate ? self.scalar_type() : out_type;
  TT_CHECK(op.has_half_kernel || value_type != kHalf, "\"", op.kernel, "\" not implemented for 'Half'");
  const ScalarType compute_type = detail::computation_type(value_type);
  const Tensor input = detail::as_contiguous(self, compute_type);
  UnaryParams row_params = params;
  row_params.single_precision = compute_type == kFloat;
  const ScalarType compute_out = op.rule == DtypeRule::Predicate ? kBool : compute_type;
  Tensor out = empty(self.sizes(), TensorOptions(compute_out));
  const int64_t n = out.numel();
  TT_DISPATCH_ALL_TYPES(compute_type, op.kernel, [&] {
    const scalar_t* in = static_cast<const scalar_t*>(input.data_ptr());
    if constexpr (std::is_floating_point_v<scalar_t>) {
      if (op.rule == DtypeRule::Predicate) {
        bool* result = static_cast<bool*>(out.data_ptr());
        for (int64_t i = 0; i < n; ++i) result[i] = op.formula(static_cast<double>(in[i]), row_params) != 0.0;
      } else {
        scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
        for (int64_t i = 0; i < n; ++i) result[i] = static_cast<scalar_t>(op.formula(static_cast<double>(in[i]), row_params));
      }
    } else {
      if (op.rule == DtypeRule::Predicate) {
        bool* result = static_cast<bool*>(out.data_ptr());
        for (int64_t i = 0; i < n; ++i) result[i] = op.integer_formula(static_cast<int64_t>(in[i]), row_params) != 0;
      } else {
        scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
        for (int64_t i = 0; i < n; ++i) {
          result[i] = static_cast<scalar_t>(op.integer_formula(static_cast<int64_t>(in[i]), row_params));
        }
      }
    }
  });
  return compute_out == out_type ? out : native::to_dtype(out, out_type);
}

Tensor run(const UnaryOp& op, const Tensor& self, const UnaryParams& params = {},
           const OpAttributes& attributes = OpAttributes()) {
  Tensor result = compute(op, self, params);
  if (op.node != nullptr) record_op(op.handle, {self}, {result}, attributes);
  return result;
}

WriteCheck write_check(const UnaryOp& op) {
  switch (op.rule) {
    case DtypeRule::Floating: return WriteCheck::Castable;
    case DtypeRule::Predicate: return WriteCheck::Any;
    default: return WriteCheck::Exact;
  }
}

Tensor& run_in_place(const UnaryOp& op, const Tensor& self, const UnaryParams& params = {},
                     const OpAttributes& attributes = OpAttributes()) {
  if (op.node == nullptr) {  // not differentiable: nothing to record
    const Tensor result = compute(op, self, params);
    check_write(result, self, write_check(op));
    detail::check_no_internal_overlap(self);
    detail::copy_into(self, result);
    return const_cast<Tensor&>(self);
  }
  const bool needs_self = op.saves == Saves::Self || op.saves == Saves::SelfAndResult;
  return write_in_place(self, op.in_place_handle, needs_self, write_check(op),
                        [&] { return compute(op, self, params); }, attributes);
}

Tensor& run_out(const UnaryOp& op, Tensor& out, const Tensor& self, const UnaryParams& params = {}) {
  const std::string name(op.name, std::strcspn(op.name, "."));  // "round.decimals" is round() to a user
  return write_out(out, self, name.c_str(), write_check(op), [&] { return compute(op, self, params); });
}

Tensor bessel_i1(const Tensor& self) {
  static const UnaryOp& op = find_op("bessel_i1");
  return run(op, self);
}

UnaryParams with_n(int64_t n) {
  UnaryParams params;
  params.n = n;
  return params;
}

OpAttributes with_index(int64_t index) {
  OpAttributes attributes;
  attributes.index = index;
  return attributes;
}

UnaryParams logit_params(std::optional<double> eps) {
  UnaryParams params;
  params.eps = eps;
  return params;
}

OpAttributes logit_attributes(std::optional<double> eps) {
  OpAttributes attributes;
  if (eps) attributes.min = Scalar(*eps);
  return attributes;
}

void check_polygamma(int64_t n) { TT_CHECK(n >= 0, "polygamma(n, x) does not support negative n."); }

// LibTorch 1.13 checks the dtype and p only (elements <= (p-1)/2 are not refused: lgamma's values).
void check_mvlgamma(const Tensor& self, int64_t p) {
  TT_CHECK(self.scalar_type() != kBool, "The input tensor may not be a boolean tensor.");
  TT_CHECK(p >= 1, "p has to be greater than or equal to 1");
}

// nan_to_num's defaults: 0 for NaN, the dtype's largest and lowest finite values for +-inf.
UnaryParams nan_to_num_params(ScalarType dtype, std::optional<double> nan, std::optional<double> posinf,
                              std::optional<double> neginf) {
  double largest = std::numeric_limits<double>::max();
  if (dtype == kFloat) largest = std::numeric_limits<float>::max();
  if (dtype == kHalf) largest = 65504.0;
  if (dtype == kBFloat16) largest = 3.3895313892515355e38;
  UnaryParams params;
  params.nan = nan.value_or(0.0);
  params.posinf = posinf.value_or(largest);
  params.neginf = neginf.value_or(-largest);
  return params;
}

// clamp_'s message names the destination with its C++ type name ("long int"), as LibTorch's does.
void check_clamp_in_place(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  ScalarType type = self.scalar_type();
  if (min) type = promoteTypes(type, result_type(self, *min));
  if (max) type = promoteTypes(type, result_type(self, *max));
  TT_CHECK(canCast(type, self.scalar_type()), "result type ", toString(type),
           " can't be cast to the desired output type ", TypeMeta(self.scalar_type()).name());
}

// clamp_min / clamp_max: the same kernel as clamp with one bound, their own backward nodes.
OpHandle clamp_min_op("clamp_min");
OpHandle clamp_max_op("clamp_max");
OpHandle clamp_op("clamp");
OpHandle neg_op("neg");
OpHandle exp_op("exp");
OpHandle log_op("log");
OpHandle sqrt_op("sqrt");
OpHandle abs_op("abs");
OpHandle pow_scalar_op("pow.Tensor_Scalar");
OpHandle relu_op("relu");
OpHandle sigmoid_op("sigmoid");
OpHandle tanh_op("tanh");

OpAttributes bounds(const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  OpAttributes attributes;
  attributes.min = min;
  attributes.max = max;
  return attributes;
}

Tensor clamp_kernel(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  NoGradGuard kernel_only;
  return self.clamp(min, max);
}

// The gradient passes where the input was on the kept side of the bound (bound included).
const RegisterDerivative clamp_min_derivative("clamp_min", {
    "ClampMinBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      return {ctx.grad() * mask_as(self.ge(*ctx.attributes.min), ctx.grad())};
    }});
const RegisterDerivative clamp_max_derivative("clamp_max", {
    "ClampMaxBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& self = ctx.saved(0);
      return {ctx.grad() * mask_as(self.le(*ctx.attributes.max), ctx.grad())};
    }});

}  // namespace

// ---- The rows' Tensor methods, in-place forms and out= functions ----
#define TT_UNARY_ROW(NAME)                                                                                   \
  Tensor Tensor::NAME() const {                                                                              \
    static const UnaryOp& op = find_op(#NAME);                                                               \
    return run(op, *this);                                                                                   \
  }                                                                                                          \
  Tensor& Tensor::NAME##_() const {                                                                          \
    static const UnaryOp& op = find_op(#NAME);                                                               \
    return run_in_place(op, *this);                                                                          \
  }                                                                                                          \
  Tensor& NAME##_out(Tensor& out, const Tensor& self) {                                                      \
    static const UnaryOp& op = find_op(#NAME);                                                               \
    return run_out(op, out, self);                                                                           \
  }

TT_UNARY_ROW(sign)
TT_UNARY_ROW(sgn)
TT_UNARY_ROW(exp2)
TT_UNARY_ROW(expm1)
TT_UNARY_ROW(log2)
TT_UNARY_ROW(log10)
TT_UNARY_ROW(log1p)
TT_UNARY_ROW(rsqrt)
TT_UNARY_ROW(reciprocal)
TT_UNARY_ROW(sin)
TT_UNARY_ROW(cos)
TT_UNARY_ROW(tan)
TT_UNARY_ROW(asin)
TT_UNARY_ROW(acos)
TT_UNARY_ROW(atan)
TT_UNARY_ROW(sinh)
TT_UNARY_ROW(cosh)
TT_UNARY_ROW(asinh)
TT_UNARY_ROW(acosh)
TT_UNARY_ROW(atanh)
TT_UNARY_ROW(erf)
TT_UNARY_ROW(erfc)
TT_UNARY_ROW(erfinv)
TT_UNARY_ROW(lgamma)
TT_UNARY_ROW(digamma)
TT_UNARY_ROW(i0)
TT_UNARY_ROW(sinc)
TT_UNARY_ROW(deg2rad)
TT_UNARY_ROW(rad2deg)
TT_UNARY_ROW(ceil)
TT_UNARY_ROW(floor)
TT_UNARY_ROW(round)
TT_UNARY_ROW(trunc)
TT_UNARY_ROW(frac)
#undef TT_UNARY_ROW

// Predicates have no in-place form (a bool result cannot overwrite a float tensor).
#define TT_UNARY_PREDICATE(NAME)                      \
  Tensor Tensor::NAME() const {                       \
    static const UnaryOp& op = find_op(#NAME);        \
    return run(op, *this);                            \
  }                                                   \
  Tensor& NAME##_out(Tensor& out, const Tensor& self) { \
    static const UnaryOp& op = find_op(#NAME);        \
    return run_out(op, out, self);                    \
  }

TT_UNARY_PREDICATE(signbit)
TT_UNARY_PREDICATE(isnan)
TT_UNARY_PREDICATE(isinf)
TT_UNARY_PREDICATE(isposinf)
TT_UNARY_PREDICATE(isneginf)
#undef TT_UNARY_PREDICATE

Tensor Tensor::isfinite() const {
  static const UnaryOp& op = find_op("isfinite");
  return run(op, *this);
}
Tensor Tensor::isreal() const {
  static const UnaryOp& op = find_op("isreal");
  return run(op, *this);
}


// ---- Rows with arguments ----
Tensor Tensor::logit(std::optional<double> eps) const {
  static const UnaryOp& op = find_op("logit");
  return run(op, *this, logit_params(eps), logit_attributes(eps));
}
Tensor& Tensor::logit_(std::optional<double> eps) const {
  static const UnaryOp& op = find_op("logit");
  return run_in_place(op, *this, logit_params(eps), logit_attributes(eps));
}
Tensor& logit_out(Tensor& out, const Tensor& self, std::optional<double> eps) {
  static const UnaryOp& op = find_op("logit");
  return run_out(op, out, self, logit_params(eps));
}

Tensor Tensor::polygamma(int64_t n) const {
  static const UnaryOp& op = find_op("polygamma");
  check_polygamma(n);
  return run(op, *this, with_n(n), with_index(n));
}
Tensor& Tensor::polygamma_(int64_t n) const {
  static const UnaryOp& op = find_op("polygamma");
  check_polygamma(n);
  return run_in_place(op, *this, with_n(n), with_index(n));
}
Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self) {
  static const UnaryOp& op = find_op("polygamma");
  check_polygamma(n);
  return run_out(op, out, self, with_n(n));
}

Tensor Tensor::mvlgamma(int64_t p) const {
  static const UnaryOp& op = find_op("mvlgamma");
  check_mvlgamma(*this, p);
  return run(op, *this, with_n(p), with_index(p));
}
Tensor& Tensor::mvlgamma_(int64_t p) const {
  static const UnaryOp& op = find_op("mvlgamma");
  check_mvlgamma(*this, p);
  return run_in_place(op, *this, with_n(p), with_index(p));
}
Tensor& mvlgamma_out(Tensor& out, const Tensor& self, int64_t p) {
  static const UnaryOp& op = find_op("mvlgamma");
  check_mvlgamma(self, p);
  return run_out(op, out, self, with_n(p));
}

Tensor Tensor::round(int64_t decimals) const {
  static const UnaryOp& op = find_op("round.decimals");
  return run(op, *this, with_n(decimals));
}
Tensor& Tensor::round_(int64_t decimals) const {
  static const UnaryOp& op = find_op("round.decimals");
  return run_in_place(op, *this, with_n(decimals));
}
Tensor& round_out(Tensor& out, const Tensor& self, int64_t decimals) {
  static const UnaryOp& op = find_op("round.decimals");
  return run_out(op, out, self, with_n(decimals));
}

Tensor Tensor::nan_to_num(std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) const {
  static const UnaryOp& op = find_op("nan_to_num");
  return run(op, *this, nan_to_num_params(scalar_type(), nan, posinf, neginf));
}
Tensor& Tensor::nan_to_num_(std::optional<double> nan, std::optional<double> posinf,
                            std::optional<double> neginf) const {
  static const UnaryOp& op = find_op("nan_to_num");
  return run_in_place(op, *this, nan_to_num_params(scalar_type(), nan, posinf, neginf));
}
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  static const UnaryOp& op = find_op("nan_to_num");
  return run_out(op, out, self, nan_to_num_params(self.scalar_type(), nan, posinf, neginf));
}

// ---- Aliases: LibTorch's other names run the same row ----
Tensor Tensor::absolute() const { return abs(); }
Tensor& Tensor::absolute_() const { return abs_(); }
Tensor Tensor::negative() const { return neg(); }
Tensor& Tensor::negative_() const { return neg_(); }
Tensor Tensor::arcsin() const { return asin(); }
Tensor& Tensor::arcsin_() const { return asin_(); }
Tensor Tensor::arccos() const { return acos(); }
Tensor& Tensor::arccos_() const { return acos_(); }
Tensor Tensor::arctan() const { return atan(); }
Tensor& Tensor::arctan_() const { return atan_(); }
Tensor Tensor::arcsinh() const { return asinh(); }
Tensor& Tensor::arcsinh_() const { return asinh_(); }
Tensor Tensor::arccosh() const { return acosh(); }
Tensor& Tensor::arccosh_() const { return acosh_(); }
Tensor Tensor::arctanh() const { return atanh(); }
Tensor& Tensor::arctanh_() const { return atanh_(); }
Tensor Tensor::fix() const { return trunc(); }
Tensor& Tensor::fix_() const { return trunc_(); }
Tensor Tensor::clip(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const { return clamp(min, max); }
Tensor& Tensor::clip_(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return clamp_(min, max);
}

// +self: LibTorch returns self itself, and refuses bool as the `+` operator.
Tensor Tensor::positive() const {
  TT_CHECK(scalar_type() != kBool, "The `+` operator, on a bool tensor is not supported.");
  return *this;
}

// x^2 is pow(x, 2) in LibTorch (PowBackward0): bool squares to Long, so square_ of bool is refused.
Tensor Tensor::square() const { return pow(2); }
Tensor& Tensor::square_() const { return pow_(2); }

// ---- In-place and out= forms of unary.cpp's ops, recording the derivative declared there ----
Tensor& Tensor::neg_() const {
  return write_in_place(*this, neg_op, false, WriteCheck::Exact, [&] { return neg(); });
}
Tensor& Tensor::exp_() const {
  return write_in_place(*this, exp_op, false, WriteCheck::Castable, [&] { return exp(); });
}
Tensor& Tensor::log_() const {
  return write_in_place(*this, log_op, true, WriteCheck::Castable, [&] { return log(); });
}
Tensor& Tensor::sqrt_() const {
  return write_in_place(*this, sqrt_op, false, WriteCheck::Castable, [&] { return sqrt(); });
}
Tensor& Tensor::abs_() const {
  return write_in_place(*this, abs_op, true, WriteCheck::Exact, [&] { return abs(); });
}
Tensor& Tensor::pow_(const Scalar& exponent) const {
  OpAttributes attributes;
  attributes.exponent = exponent;
  return write_in_place(*this, pow_scalar_op, true, WriteCheck::Exact, [&] { return pow(exponent); }, attributes);
}
Tensor& Tensor::relu_() const {
  return write_in_place(*this, relu_op, true, WriteCheck::Exact, [&] { return relu(); });
}
Tensor& Tensor::sigmoid_() const {
  return write_in_place(*this, sigmoid_op, false, WriteCheck::Castable, [&] { return sigmoid(); });
}
Tensor& Tensor::tanh_() const {
  return write_in_place(*this, tanh_op, false, WriteCheck::Castable, [&] { return tanh(); });
}

Tensor& neg_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "neg", WriteCheck::Exact, [&] { return self.neg(); });
}
Tensor& exp_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "exp", WriteCheck::Castable, [&] { return self.exp(); });
}
Tensor& log_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "log", WriteCheck::Castable, [&] { return self.log(); });
}
Tensor& sqrt_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "sqrt", WriteCheck::Castable, [&] { return self.sqrt(); });
}
Tensor& abs_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "abs", WriteCheck::Exact, [&] { return self.abs(); });
}
Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent) {
  return write_out(out, self, "pow", WriteCheck::Castable, [&] { return self.pow(exponent); });
}
Tensor& square_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "square", WriteCheck::Castable, [&] { return self.pow(2); });
}
Tensor& relu_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "relu", WriteCheck::Exact, [&] { return self.relu(); });
}
Tensor& sigmoid_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "sigmoid", WriteCheck::Castable, [&] { return self.sigmoid(); });
}
Tensor& tanh_out(Tensor& out, const Tensor& self) {
  return write_out(out, self, "tanh", WriteCheck::Castable, [&] { return self.tanh(); });
}

// ---- clamp's in-place, one-bound and out= forms ----
Tensor& Tensor::clamp_(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  TT_CHECK(min.has_value() || max.has_value(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  check_clamp_in_place(*this, min, max);
  return write_in_place(*this, clamp_op, true, WriteCheck::Castable, [&] { return clamp_kernel(*this, min, max); },
                        bounds(min, max));
}

Tensor Tensor::clamp_min(const Scalar& min) const {
  Tensor result = clamp_kernel(*this, min, std::nullopt);
  record_op(clamp_min_op, {*this}, {result}, bounds(min, std::nullopt));
  return result;
}
Tensor& Tensor::clamp_min_(const Scalar& min) const {
  check_clamp_in_place(*this, min, std::nullopt);
  return write_in_place(*this, clamp_min_op, true, WriteCheck::Castable,
                        [&] { return clamp_kernel(*this, min, std::nullopt); }, bounds(min, std::nullopt));
}
Tensor Tensor::clamp_max(const Scalar& max) const {
  Tensor result = clamp_kernel(*this, std::nullopt, max);
  record_op(clamp_max_op, {*this}, {result}, bounds(std::nullopt, max));
  return result;
}
Tensor& Tensor::clamp_max_(const Scalar& max) const {
  check_clamp_in_place(*this, std::nullopt, max);
  return write_in_place(*this, clamp_max_op, true, WriteCheck::Castable,
                        [&] { return clamp_kernel(*this, std::nullopt, max); }, bounds(std::nullopt, max));
}

Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return write_out(out, self, "clamp", WriteCheck::Castable, [&] { return clamp_kernel(self, min, max); });
}
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Scalar& min) {
  return write_out(out, self, "clamp_min", WriteCheck::Castable, [&] { return clamp_kernel(self, min, std::nullopt); });
}
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Scalar& max) {
  return write_out(out, self, "clamp_max", WriteCheck::Castable, [&] { return clamp_kernel(self, std::nullopt, max); });
}

}  // namespace tinytorch
