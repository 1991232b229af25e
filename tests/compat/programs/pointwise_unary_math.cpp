// LibTorch's pointwise math of one tensor: values for float, double and integer inputs, the dtype of
// the result (integers give the default float dtype for exp2/sin/erf..., stay integers for
// abs/sign/floor...), in-place `_` methods and torch::name_ functions, out= and outf forms (with
// out's dtype checks and resizing), rounding, nan_to_num, the is* predicates, clamp's forms, and
// gradients with LibTorch's node names.
// compat-tolerance: 1e-5
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "compat.h"

namespace pointwise_unary_math_program {

void show(const std::string& name, const torch::Tensor& t) { std::cout << name << "\n" << t << "\n"; }

template <typename Fn>
void expect_error(const char* what, Fn fn) {
  try {
    fn();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << what << ": " << message.substr(0, message.find('\n')) << "\n";
  }
}

using Unary = std::function<torch::Tensor(const torch::Tensor&)>;

COMPAT_PROGRAM(pointwise_unary_math) {
  const auto x = torch::linspace(-2.5, 2.5, 6);               // float
  const auto unit = torch::tensor({-0.9, -0.6, -0.3, 0.0, 0.3, 0.6, 0.9}, torch::kDouble);  // inside (-1, 1)
  const auto positive = torch::linspace(0.25, 4, 6);          // > 0
  const auto ints = torch::arange(-3, 4);                      // Long

  const std::vector<std::pair<std::string, Unary>> on_x = {
      {"sign", [](const torch::Tensor& t) { return torch::sign(t); }},
      {"sgn", [](const torch::Tensor& t) { return t.sgn(); }},
      {"signbit", [](const torch::Tensor& t) { return torch::signbit(t); }},
      {"exp2", [](const torch::Tensor& t) { return torch::exp2(t); }},
      {"expm1", [](const torch::Tensor& t) { return torch::expm1(t); }},
      {"square", [](const torch::Tensor& t) { return torch::square(t); }},
      {"reciprocal", [](const torch::Tensor& t) { return torch::reciprocal(t); }},
      {"sin", [](const torch::Tensor& t) { return torch::sin(t); }},
      {"cos", [](const torch::Tensor& t) { return t.cos(); }},
      {"tan", [](const torch::Tensor& t) { return torch::tan(t); }},
      {"atan", [](const torch::Tensor& t) { return torch::atan(t); }},
      {"arctan", [](const torch::Tensor& t) { return torch::arctan(t); }},
      {"sinh", [](const torch::Tensor& t) { return torch::sinh(t); }},
      {"cosh", [](const torch::Tensor& t) { return torch::cosh(t); }},
      {"asinh", [](const torch::Tensor& t) { return torch::asinh(t); }},
      {"erf", [](const torch::Tensor& t) { return torch::erf(t); }},
      {"erfc", [](const torch::Tensor& t) { return torch::erfc(t); }},
      {"sinc", [](const torch::Tensor& t) { return torch::sinc(t); }},
      {"i0", [](const torch::Tensor& t) { return torch::i0(t); }},
      {"deg2rad", [](const torch::Tensor& t) { return torch::deg2rad(t * 60); }},
      {"rad2deg", [](const torch::Tensor& t) { return torch::rad2deg(t); }},
      {"ceil", [](const torch::Tensor& t) { return torch::ceil(t); }},
      {"floor", [](const torch::Tensor& t) { return torch::floor(t); }},
      {"round", [](const torch::Tensor& t) { return torch::round(t); }},
      {"trunc", [](const torch::Tensor& t) { return torch::trunc(t); }},
      {"fix", [](const torch::Tensor& t) { return torch::fix(t); }},
      {"frac", [](const torch::Tensor& t) { return torch::frac(t); }},
      {"absolute", [](const torch::Tensor& t) { return torch::absolute(t); }},
      {"negative", [](const torch::Tensor& t) { return torch::negative(t); }},
      {"positive", [](const torch::Tensor& t) { return torch::positive(t); }},
      {"lgamma", [](const torch::Tensor& t) { return torch::lgamma(t); }},
      {"digamma", [](const torch::Tensor& t) { return torch::digamma(t); }},
      {"polygamma 1", [](const torch::Tensor& t) { return torch::polygamma(1, t); }},
      {"polygamma 2", [](const torch::Tensor& t) { return torch::polygamma(2, t); }},
  };
  for (const auto& [name, fn] : on_x) show(name, fn(x));
  for (const auto& [name, fn] : on_x) {
    if (name == "frac") continue;  // floating inputs only
    const auto result = fn(ints);
    std::cout << name << " of Long -> " << result.scalar_type() << "\n" << result << "\n";
  }

  const std::vector<std::pair<std::string, Unary>> on_unit = {
      {"asin", [](const torch::Tensor& t) { return torch::asin(t); }},
      {"arcsin", [](const torch::Tensor& t) { return torch::arcsin(t); }},
      {"acos", [](const torch::Tensor& t) { return torch::acos(t); }},
      {"arccos", [](const torch::Tensor& t) { return t.arccos(); }},
      {"atanh", [](const torch::Tensor& t) { return torch::atanh(t); }},
      {"arctanh", [](const torch::Tensor& t) { return torch::arctanh(t); }},
      {"erfinv", [](const torch::Tensor& t) { return torch::erfinv(t); }},
      {"logit", [](const torch::Tensor& t) { return torch::logit(t.abs()); }},
      {"logit eps", [](const torch::Tensor& t) { return torch::logit(t, 0.2); }},
  };
  for (const auto& [name, fn] : on_unit) show(name, fn(unit));

  const std::vector<std::pair<std::string, Unary>> on_positive = {
      {"log2", [](const torch::Tensor& t) { return torch::log2(t); }},
      {"log10", [](const torch::Tensor& t) { return torch::log10(t); }},
      {"log1p", [](const torch::Tensor& t) { return torch::log1p(t); }},
      {"rsqrt", [](const torch::Tensor& t) { return torch::rsqrt(t); }},
      {"acosh", [](const torch::Tensor& t) { return torch::acosh(t + 1); }},
      {"arccosh", [](const torch::Tensor& t) { return torch::arccosh(t + 1); }},
      {"arcsinh", [](const torch::Tensor& t) { return torch::arcsinh(t); }},
      {"mvlgamma 1", [](const torch::Tensor& t) { return torch::mvlgamma(t, 1); }},
      {"mvlgamma 3", [](const torch::Tensor& t) { return torch::mvlgamma(t + 1, 3); }},
      {"digamma", [](const torch::Tensor& t) { return t.digamma(); }},
      {"polygamma 3", [](const torch::Tensor& t) { return t.polygamma(3); }},
  };
  for (const auto& [name, fn] : on_positive) show(name, fn(positive));
  show("log2 of Long", torch::log2(torch::arange(1, 5)));
  show("sqrt of Bool", torch::ones({2}, torch::kBool).sqrt());
  show("sign of Bool", torch::sign(torch::tensor({true, false})));
  show("square of Bool", torch::square(torch::tensor({true, false})));
  show("abs of Int", torch::abs(torch::arange(-2, 2, torch::kInt)));
  show("floor of Int", torch::floor(torch::arange(-2, 2, torch::kInt)));

  // Rounding: half-way cases to even; decimals.
  const auto halves = torch::tensor({-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 1234.5678});
  show("round halves", torch::round(halves));
  show("round 2 decimals", torch::round(halves, 2));
  show("round -2 decimals", halves.round(-2));

  // nan_to_num and the predicates.
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const auto specials = torch::tensor({1.5, nan, inf, -inf, -0.0, 0.0});
  const auto specials_float = specials.to(torch::kFloat);
  show("nan_to_num", torch::nan_to_num(specials));
  show("nan_to_num float", torch::nan_to_num(specials_float));
  show("nan_to_num 1 2 3", specials.nan_to_num(1, 2, 3));
  show("nan_to_num posinf only", torch::nan_to_num(specials, c10::nullopt, 100.0));
  show("nan_to_num Long", torch::nan_to_num(ints));
  show("isnan", torch::isnan(specials));
  show("isinf", torch::isinf(specials));
  show("isfinite", torch::isfinite(specials));
  show("isposinf", torch::isposinf(specials));
  show("isneginf", torch::isneginf(specials));
  show("isreal", torch::isreal(specials));
  show("signbit", torch::signbit(specials));
  show("sign specials", torch::sign(specials));
  show("isnan Long", torch::isnan(ints));
  show("isfinite Long", ints.isfinite());
  show("signbit Long", ints.signbit());

  // In-place methods and functions: the same tensor comes back, overwritten.
  auto y = x.clone();
  auto& returned = y.sin_();
  std::cout << "sin_ returns self " << returned.is_same(y) << "\n" << y << "\n";
  y = x.clone();
  torch::exp_(y);
  torch::log_(y);
  show("exp_ log_", y);
  y = x.clone();
  y.abs_().sqrt_().neg_().exp2_().expm1_().log1p_();
  show("abs_ sqrt_ neg_ exp2_ expm1_ log1p_", y);
  y = x.clone();
  y.floor_();
  torch::ceil_(y);
  show("floor_ ceil_", y);
  y = x.clone();
  torch::round_(y);
  y.pow_(2).reciprocal_().square_();
  show("round_ pow_ reciprocal_ square_", y);
  y = x.clone();
  y.trunc_();
  y.frac_();
  show("trunc_ frac_", y);
  y = x.clone();
  y.sigmoid_();
  y.logit_();
  show("sigmoid_ logit_", y);
  y = x.clone();
  torch::tanh_(y).atanh_();
  show("tanh_ atanh_", y);
  y = x.clone();
  y.relu_();
  show("relu_", y);
  y = x.clone();
  torch::relu_(y);
  y.deg2rad_().rad2deg_().sign_();
  show("relu_ deg2rad_ rad2deg_ sign_", y);
  y = x.clone();
  y.sinc_().erf_().erfinv_().erfc_().i0_();
  show("sinc_ erf_ erfinv_ erfc_ i0_", y);
  y = positive.clone();
  y.lgamma_().digamma_().polygamma_(1).mvlgamma_(1);
  show("lgamma_ digamma_ polygamma_ mvlgamma_", y);
  y = x.clone();
  y.clamp_(-1, 1);
  show("clamp_", y);
  y = x.clone();
  torch::clamp_min_(y, 0.5).clamp_max_(1.0);
  show("clamp_min_ clamp_max_", y);
  y = x.clone();
  torch::clip_(y, c10::nullopt, 0);
  show("clip_", y);
  auto specials_copy = specials.clone();
  specials_copy.nan_to_num_(0, 7);
  show("nan_to_num_", specials_copy);
  auto long_copy = ints.clone();
  long_copy.abs_().neg_().square_();
  torch::floor_(long_copy);
  show("Long abs_ neg_ square_ floor_", long_copy);
  show("clamp_min / clamp_max / clip", torch::stack({torch::clamp_min(x, 0), x.clamp_max(-1), torch::clip(x, -1, 1)}));
  show("clamp_min of Long with 0.5", torch::clamp_min(ints, 0.5));

  // out= and outf: out gets the result's shape and keeps its own dtype.
  auto out = torch::empty({0});
  torch::sin_out(out, x);
  show("sin_out", out);
  auto out_double = torch::empty({2, 2}, torch::kDouble);
  torch::exp_outf(x, out_double);
  std::cout << "exp_outf into Double " << out_double.scalar_type() << " " << out_double.sizes() << "\n" << out_double << "\n";
  auto out_bool = torch::empty({6}, torch::kBool);
  torch::isnan_out(out_bool, specials);
  show("isnan_out", out_bool);
  auto out_long = torch::empty({7}, torch::kLong);
  torch::floor_out(out_long, ints);
  torch::abs_outf(ints, out_long);
  show("abs_outf Long", out_long);
  torch::round_out(out, x, 1);
  torch::nan_to_num_out(out, specials_float, 0.5);
  show("nan_to_num_out", out);
  torch::clamp_out(out, x, -1, 2);
  show("clamp_out", out);
  torch::pow_out(out, x, 3);
  show("pow_out", out);
  torch::logit_outf(unit.to(torch::kFloat), 0.25, out);
  show("logit_outf", out);
  torch::polygamma_out(out, 1, positive);
  show("polygamma_out", out);
  torch::mvlgamma_outf(positive + 2, 2, out);
  show("mvlgamma_outf", out);
  torch::sigmoid_out(out, x);
  torch::relu_out(out, out - 0.5);
  show("sigmoid_out relu_out", out);

  // Errors: dtypes, in-place results that cannot be written back, out dtypes.
  expect_error("frac of Long", [&] { torch::frac(ints); });
  expect_error("round decimals of Long", [&] { torch::round(ints, 1); });
  expect_error("abs of Bool", [] { torch::abs(torch::ones({2}, torch::kBool)); });
  expect_error("floor of Bool", [] { torch::floor(torch::ones({2}, torch::kBool)); });
  expect_error("neg of Bool", [] { torch::ones({2}, torch::kBool).neg_(); });
  expect_error("positive of Bool", [] { torch::positive(torch::ones({2}, torch::kBool)); });
  expect_error("exp_ of Long", [&] { ints.clone().exp_(); });
  expect_error("sin_ of Long", [&] { ints.clone().sin_(); });
  expect_error("sqrt_ of Bool", [] { torch::ones({2}, torch::kBool).sqrt_(); });
  expect_error("square_ of Bool", [] { torch::ones({2}, torch::kBool).square_(); });
  expect_error("pow_ 2.5 of Long", [&] { ints.clone().pow_(2.5); });
  expect_error("clamp_ 0.5 of Long", [&] { ints.clone().clamp_(0.5); });
  expect_error("sign_out Float into Long", [&] {
    auto o = torch::empty({6}, torch::kLong);
    torch::sign_out(o, x);
  });
  expect_error("exp_out Float into Long", [&] {
    auto o = torch::empty({6}, torch::kLong);
    torch::exp_out(o, x);
  });
  expect_error("polygamma -1", [&] { torch::polygamma(-1, x); });
  show("mvlgamma below (p-1)/2", torch::mvlgamma(x, 2));
  expect_error("mvlgamma Bool", [] { torch::mvlgamma(torch::ones({2}, torch::kBool), 1); });
  expect_error("sin_out requires grad", [&] {
    auto w = x.clone().requires_grad_(true);
    auto o = torch::empty({6});
    torch::sin_out(o, w);
  });
  expect_error("sin_ on leaf requiring grad", [&] { x.clone().requires_grad_(true).sin_(); });

  // Gradients and node names.
  auto w = torch::linspace(0.1, 0.9, 5, torch::kDouble).requires_grad_(true);
  const std::vector<std::pair<std::string, Unary>> differentiable = {
      {"exp2", [](const torch::Tensor& t) { return t.exp2(); }},
      {"expm1", [](const torch::Tensor& t) { return t.expm1(); }},
      {"log2", [](const torch::Tensor& t) { return t.log2(); }},
      {"log10", [](const torch::Tensor& t) { return t.log10(); }},
      {"log1p", [](const torch::Tensor& t) { return t.log1p(); }},
      {"rsqrt", [](const torch::Tensor& t) { return t.rsqrt(); }},
      {"reciprocal", [](const torch::Tensor& t) { return t.reciprocal(); }},
      {"square", [](const torch::Tensor& t) { return t.square(); }},
      {"sin", [](const torch::Tensor& t) { return t.sin(); }},
      {"cos", [](const torch::Tensor& t) { return t.cos(); }},
      {"tan", [](const torch::Tensor& t) { return t.tan(); }},
      {"asin", [](const torch::Tensor& t) { return t.asin(); }},
      {"acos", [](const torch::Tensor& t) { return t.acos(); }},
      {"atan", [](const torch::Tensor& t) { return t.atan(); }},
      {"sinh", [](const torch::Tensor& t) { return t.sinh(); }},
      {"cosh", [](const torch::Tensor& t) { return t.cosh(); }},
      {"asinh", [](const torch::Tensor& t) { return t.asinh(); }},
      {"acosh", [](const torch::Tensor& t) { return (t + 1).acosh(); }},
      {"atanh", [](const torch::Tensor& t) { return t.atanh(); }},
      {"logit", [](const torch::Tensor& t) { return t.logit(); }},
      {"logit eps", [](const torch::Tensor& t) { return t.logit(0.3); }},
      {"erf", [](const torch::Tensor& t) { return t.erf(); }},
      {"erfc", [](const torch::Tensor& t) { return t.erfc(); }},
      {"erfinv", [](const torch::Tensor& t) { return t.erfinv(); }},
      {"lgamma", [](const torch::Tensor& t) { return t.lgamma(); }},
      {"digamma", [](const torch::Tensor& t) { return t.digamma(); }},
      {"polygamma", [](const torch::Tensor& t) { return t.polygamma(2); }},
      {"mvlgamma", [](const torch::Tensor& t) { return (t + 1).mvlgamma(2); }},
      {"i0", [](const torch::Tensor& t) { return t.i0(); }},
      {"sinc", [](const torch::Tensor& t) { return t.sinc(); }},
      {"deg2rad", [](const torch::Tensor& t) { return t.deg2rad(); }},
      {"rad2deg", [](const torch::Tensor& t) { return t.rad2deg(); }},
      {"frac", [](const torch::Tensor& t) { return t.frac(); }},
      {"nan_to_num", [](const torch::Tensor& t) { return t.nan_to_num(); }},
      {"clamp_min", [](const torch::Tensor& t) { return t.clamp_min(0.5); }},
      {"clamp_max", [](const torch::Tensor& t) { return t.clamp_max(0.5); }},
  };
  for (const auto& [name, fn] : differentiable) {
    const auto result = fn(w);
    const auto grad = torch::autograd::grad({result.sum()}, {w})[0];
    std::cout << name << " " << result.grad_fn()->name() << "\n" << grad << "\n";
  }
  // Their gradient is zero everywhere (LibTorch's is a lazily allocated zero tensor: only the node is shown).
  const std::vector<std::pair<std::string, Unary>> piecewise_constant = {
      {"sign", [](const torch::Tensor& t) { return t.sign(); }},
      {"sgn", [](const torch::Tensor& t) { return t.sgn(); }},
      {"ceil", [](const torch::Tensor& t) { return t.ceil(); }},
      {"floor", [](const torch::Tensor& t) { return t.floor(); }},
      {"round", [](const torch::Tensor& t) { return t.round(); }},
      {"round decimals", [](const torch::Tensor& t) { return t.round(1); }},
      {"trunc", [](const torch::Tensor& t) { return t.trunc(); }},
  };
  for (const auto& [name, fn] : piecewise_constant) std::cout << name << " " << fn(w).grad_fn()->name() << "\n";
  std::cout << "isnan requires_grad " << torch::isnan(w).requires_grad() << "\n";
  auto v = w * 1;
  v.sin_();
  std::cout << "sin_ node " << v.grad_fn()->name() << "\n";
  v.acosh_();
  std::cout << "acosh_ node " << v.grad_fn()->name() << "\n";
  auto u = w * 1;
  u.log_();
  u.abs_();
  u.pow_(3);
  u.clamp_(0.1, 0.5);
  u.exp_();
  std::cout << "log_ abs_ pow_ clamp_ exp_ node " << u.grad_fn()->name() << "\n";
  show("grad through in-place ops", torch::autograd::grad({u.sum()}, {w})[0]);
  return 0;
}

}  // namespace pointwise_unary_math_program
