// LibTorch parity by table: one row per op call (inputs' shapes, dtypes and value domains, the call),
// compiled against LibTorch (-DCOMPAT_WITH_LIBTORCH) and against tinytorch, and diffed by
// tests/compat/run_compat.py with the tolerance below. Each row prints the result's dtype, sizes and
// values; a row marked GRAD also prints the result's grad_fn name (LibTorch's backward node) and the
// gradient of every floating input for a fixed upstream gradient (NODE_DIFFERS: the gradients only). ERR rows print the first line of the
// error. Adding an op is adding a row: the comparison, forward and backward, follows from it.
// compat-tolerance: 1e-6
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "compat.h"

namespace op_table {

// Value domains of an input. Every value comes from integer arithmetic, so both builds see the same
// bits: v = ((37 i + 11 k) mod 29 - 14) / 4 + 1/8 for element i of input k, distinct within 29
// elements, never 0, never a rounding tie.
enum class Domain { Real, Positive, Unit, Integer, PositiveInteger, Boolean, Probability };

struct Input {
  std::vector<int64_t> shape;
  torch::ScalarType dtype;
  Domain domain;
};

using OpFunction = std::function<torch::Tensor(const std::vector<torch::Tensor>&)>;

// What a row compares: the values only, or also the gradients and the grad_fn name, or the gradients
// without the name (NODE_DIFFERS: tinytorch composes the op from others where LibTorch has its own kernel
// and node; the row's comment names LibTorch's node).
enum class Compare { Values, Gradients, GradientsNotNode };

struct Row {
  const char* label;
  std::vector<Input> inputs;
  Compare compare;
  OpFunction op;
};

torch::Tensor make_input(const Input& input, int64_t k) {
  int64_t n = 1;
  for (int64_t s : input.shape) n *= s;
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t residue = (37 * i + 11 * k) % 29;
    const double v = static_cast<double>(residue - 14) / 4 + 0.125;
    double value = v;
    switch (input.domain) {
      case Domain::Real: value = v; break;
      case Domain::Positive: value = std::abs(v) + 0.25; break;
      case Domain::Unit: value = v / 4; break;
      case Domain::Integer: value = static_cast<double>(residue - 14); break;
      case Domain::PositiveInteger: value = static_cast<double>(residue % 7 + 1); break;
      case Domain::Boolean: value = static_cast<double>(residue % 2); break;
      case Domain::Probability: value = (v + 3.5) / 7.25; break;
    }
    values[static_cast<size_t>(i)] = value;
  }
  return torch::tensor(values, torch::kDouble).reshape(input.shape).to(input.dtype);
}

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char text[40];
  std::snprintf(text, sizeof(text), "%.10g", x == 0 ? 0.0 : x);  // -0 prints as 0
  return text;
}

void print_values(const torch::Tensor& t) {
  std::cout << t.scalar_type() << " " << t.sizes() << ":";
  const torch::Tensor flat = t.detach().contiguous().to(torch::kDouble).reshape({-1});
  const double* data = flat.data_ptr<double>();
  for (int64_t i = 0; i < flat.numel(); ++i) std::cout << " " << format_number(data[i]);
  std::cout << "\n";
}

std::string first_line(const std::exception& e) {
  const std::string text = e.what();
  return text.substr(0, text.find('\n'));
}

void run(const Row& row) {
  std::cout << "## " << row.label << "\n";
  std::vector<torch::Tensor> inputs;
  for (size_t k = 0; k < row.inputs.size(); ++k) {
    torch::Tensor input = make_input(row.inputs[k], static_cast<int64_t>(k));
    if (row.compare != Compare::Values && input.is_floating_point()) input.requires_grad_(true);
    inputs.push_back(input);
  }
  torch::Tensor out;
  try {
    out = row.op(inputs);
  } catch (const std::exception& e) {
    std::cout << "error: " << first_line(e) << "\n";
    return;
  }
  print_values(out);
  if (row.compare == Compare::Values) return;
  if (row.compare == Compare::Gradients) {
    std::cout << "grad_fn " << (out.grad_fn() ? out.grad_fn()->name() : std::string("none")) << "\n";
  }
  std::vector<torch::Tensor> wrt;
  for (const auto& input : inputs)
    if (input.requires_grad()) wrt.push_back(input);
  const torch::Tensor upstream =
      torch::linspace(0.5, 1.5, out.numel(), torch::kDouble).reshape(out.sizes()).to(out.scalar_type());
  const auto grads = torch::autograd::grad({(out * upstream).sum()}, wrt, {}, /*retain_graph=*/false,
                                           /*create_graph=*/false, /*allow_unused=*/true);
  for (size_t k = 0; k < grads.size(); ++k) {
    std::cout << "grad " << k << " ";
    if (grads[k].defined()) {
      print_values(grads[k]);
    } else {
      std::cout << "none\n";
    }
  }
}

void run_all(const std::vector<Row>& rows) {
  for (const Row& row : rows) run(row);
}

// Input helpers: R real, P positive, U in (-1, 1), I integer (kLong), N positive integer, B bool,
// W probability; the dtype is kDouble unless given.
Input R(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kDouble) { return {shape, dtype, Domain::Real}; }
Input P(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kDouble) { return {shape, dtype, Domain::Positive}; }
Input U(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kDouble) { return {shape, dtype, Domain::Unit}; }
Input I(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kLong) { return {shape, dtype, Domain::Integer}; }
Input N(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kLong) { return {shape, dtype, Domain::PositiveInteger}; }
Input B(std::vector<int64_t> shape) { return {shape, torch::kBool, Domain::Boolean}; }
Input W(std::vector<int64_t> shape, torch::ScalarType dtype = torch::kDouble) { return {shape, dtype, Domain::Probability}; }

}  // namespace op_table

// OP("label", GRAD / NODE_DIFFERS / VALUES, expression over a, b, c, inputs...): a, b, c are the inputs in order.
#define OP_TABLE_LAMBDA(expr)                                                                  \
  [](const std::vector<torch::Tensor>& in) -> torch::Tensor {                                  \
    const torch::Tensor& a = in[0];                                                            \
    const torch::Tensor& b = in.size() > 1 ? in[1] : in[0];                                    \
    const torch::Tensor& c = in.size() > 2 ? in[2] : in[0];                                    \
    (void)a;                                                                                   \
    (void)b;                                                                                   \
    (void)c;                                                                                   \
    return (expr);                                                                             \
  }
#define GRAD op_table::Compare::Gradients
#define VALUES op_table::Compare::Values
#define NODE_DIFFERS op_table::Compare::GradientsNotNode
#define OP(label, compare, expr, ...) \
  op_table::Row { label, {__VA_ARGS__}, compare, OP_TABLE_LAMBDA(expr) }
// A row whose inputs are all given by the expression itself (no generated inputs).
#define OP0(label, expr) \
  op_table::Row { label, {}, VALUES, [](const std::vector<torch::Tensor>&) -> torch::Tensor { return (expr); } }

namespace op_table {
using namespace torch::indexing;  // NOLINT: Slice, None, Ellipsis in index rows

COMPAT_PROGRAM(op_table_unary) {
  run_all({
      OP("abs", GRAD, a.abs(), R({3, 4})),
      OP("abs int", VALUES, torch::abs(a), I({5})),
      OP("neg", GRAD, torch::neg(a), R({5})),
      OP("negative", GRAD, a.negative(), R({5})),
      OP("sign", GRAD, a.sign(), R({6})),
      OP("sgn", VALUES, a.sgn(), R({6})),
      OP("signbit", VALUES, a.signbit(), R({6})),
      OP("exp", GRAD, a.exp(), R({2, 3})),
      OP("exp int", VALUES, a.exp(), I({4})),
      OP("exp2", GRAD, a.exp2(), R({5})),
      OP("expm1", GRAD, a.expm1(), U({5})),
      OP("log", GRAD, a.log(), P({5})),
      OP("log2", GRAD, torch::log2(a), P({5})),
      OP("log10", GRAD, a.log10(), P({5})),
      OP("log1p", GRAD, a.log1p(), P({5})),
      OP("log of negative", VALUES, a.log(), R({4})),
      OP("sqrt", GRAD, a.sqrt(), P({5})),
      OP("rsqrt", GRAD, a.rsqrt(), P({5})),
      OP("square", GRAD, a.square(), R({5})),
      OP("square int", VALUES, a.square(), I({5})),
      OP("reciprocal", GRAD, a.reciprocal(), P({5})),
      OP("sin", GRAD, a.sin(), R({6})),
      OP("cos", GRAD, torch::cos(a), R({6})),
      OP("tan", GRAD, a.tan(), U({6})),
      OP("asin", GRAD, a.asin(), U({6})),
      OP("arcsin", GRAD, a.arcsin(), U({6})),
      OP("acos", GRAD, a.acos(), U({6})),
      OP("arccos", VALUES, torch::arccos(a), U({6})),
      OP("atan", GRAD, a.atan(), R({6})),
      OP("arctan", VALUES, a.arctan(), R({6})),
      OP("sinh", GRAD, a.sinh(), U({6})),
      OP("cosh", GRAD, a.cosh(), U({6})),
      OP("tanh", GRAD, a.tanh(), R({6})),
      OP("asinh", GRAD, a.asinh(), R({6})),
      OP("acosh", GRAD, (a + 1).acosh(), P({6})),
      OP("atanh", GRAD, a.atanh(), U({6})),
      OP("sigmoid", GRAD, a.sigmoid(), R({6})),
      OP("logit", GRAD, a.logit(), W({6})),
      OP("logit eps", VALUES, a.logit(0.2), W({6})),
      OP("erf", GRAD, a.erf(), R({6})),
      OP("erfc", GRAD, a.erfc(), R({6})),
      OP("erfinv", GRAD, a.erfinv(), U({6})),
      OP("lgamma", GRAD, a.lgamma(), P({6})),
      OP("digamma", GRAD, a.digamma(), P({6})),
      OP("polygamma 1", VALUES, a.polygamma(1), P({6})),
      OP("i0", GRAD, a.i0(), R({6})),
      OP("sinc", GRAD, a.sinc(), R({6})),
      OP("deg2rad", GRAD, a.deg2rad(), R({4})),
      OP("rad2deg", GRAD, a.rad2deg(), R({4})),
      OP("ceil", GRAD, a.ceil(), R({6})),
      OP("floor", GRAD, a.floor(), R({6})),
      OP("round", GRAD, a.round(), R({6})),
      OP("round decimals", VALUES, (a * 1.37).round(1), R({6})),
      OP("trunc", GRAD, a.trunc(), R({6})),
      OP("fix", VALUES, a.fix(), R({6})),
      OP("frac", GRAD, a.frac(), R({6})),
      OP("floor int", VALUES, a.floor(), I({4})),
      OP("nan_to_num", VALUES, (a.log()).nan_to_num(0.5, 100.0, -100.0), R({6})),
      OP("isnan", VALUES, a.log().isnan(), R({6})),
      OP("isinf", VALUES, (a * 1e308 * 10).isinf(), R({6})),
      OP("isfinite", VALUES, a.log().isfinite(), R({6})),
      OP("isposinf", VALUES, torch::isposinf(a * 1e308 * 10), R({6})),
      OP("isneginf", VALUES, torch::isneginf(a * 1e308 * 10), R({6})),
      OP("clamp_min", GRAD, a.clamp_min(0.5), R({6})),
      OP("clamp_max", GRAD, a.clamp_max(0.5), R({6})),
      OP("clip", GRAD, a.clip(-1, 1), R({6})),
      OP("exp_", VALUES, a.clone().exp_(), R({4})),
      OP("sin_", VALUES, a.clone().sin_(), R({4})),
      OP("clamp_", VALUES, a.clone().clamp_(-0.5, 0.5), R({4})),
      OP("relu_", VALUES, a.clone().relu_(), R({4})),
      OP("sigmoid_", VALUES, [&] {
        auto t = a.detach().clone();
        torch::sigmoid_(t);
        return t;
      }(), R({4})),
      OP("exp_out", VALUES, [&] {
        auto out = torch::empty({4}, torch::kDouble);
        torch::exp_out(out, a.detach());
        return out;
      }(), R({4})),
      OP("sqrt float", GRAD, a.sqrt(), P({5}, torch::kFloat)),
      OP("sin float", VALUES, a.sin(), R({5}, torch::kFloat)),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_activations) {
  namespace F = torch::nn::functional;
  run_all({
      OP("silu", GRAD, torch::silu(a), R({6})),
      OP("mish", GRAD, torch::mish(a), R({6})),
      OP("softplus", GRAD, torch::softplus(a, 2, 3), R({6})),
      OP("hardtanh", GRAD, torch::hardtanh(a, -1.5, 2), R({6})),
      OP("relu6", VALUES, torch::relu6(a * 3), R({6})),
      OP("elu", GRAD, torch::elu(a, 0.7), R({6})),
      OP("selu", GRAD, torch::selu(a), R({6})),
      OP("celu", GRAD, torch::celu(a, 1.3), R({6})),
      OP("hardsigmoid", GRAD, torch::hardsigmoid(a), R({6})),
      OP("hardswish", GRAD, torch::hardswish(a), R({6})),
      OP("hardshrink", GRAD, torch::hardshrink(a, 1), R({6})),
      OP("softshrink", GRAD, torch::softshrink(a, 1), R({6})),
      OP("threshold", GRAD, torch::threshold(a, 0.5, -2), R({6})),
      OP("log_sigmoid", GRAD, torch::log_sigmoid(a), R({6})),
      OP("F::silu", VALUES, F::silu(a), R({6})),
      OP("F::softplus options", VALUES, F::softplus(a, F::SoftplusFuncOptions().beta(0.5).threshold(1)), R({6})),
      OP("F::hardtanh options", VALUES, F::hardtanh(a, F::HardtanhFuncOptions().min_val(-0.5).max_val(0.5)), R({6})),
      OP("F::elu options", VALUES, F::elu(a, F::ELUFuncOptions().alpha(0.5)), R({6})),
      OP("F::softsign", GRAD, F::softsign(a), R({6})),
      OP("F::tanhshrink", GRAD, F::tanhshrink(a), R({6})),
      OP("F::logsigmoid", VALUES, F::logsigmoid(a), R({6})),
      OP("F::mish", VALUES, F::mish(a), R({6})),
      OP("nn::SiLU", VALUES, torch::nn::SiLU()(a), R({6})),
      OP("nn::Mish", VALUES, torch::nn::Mish()(a), R({6})),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_binary) {
  run_all({
      OP("maximum", GRAD, a.maximum(b), R({3, 4}), R({4})),
      OP("minimum", GRAD, torch::minimum(a, b), R({3, 4}), R({3, 1})),
      OP("fmax", VALUES, a.fmax(b), R({6}), R({6})),
      OP("fmin", VALUES, torch::fmin(a, b), R({6}), R({6})),
      OP("max other", VALUES, a.max(b), R({6}), R({6})),
      OP("fmod", GRAD, a.fmod(b), R({6}), P({6})),
      OP("fmod scalar", VALUES, a.fmod(1.5), R({6})),
      OP("remainder", GRAD, a.remainder(b), R({6}), P({6})),
      OP("remainder scalar", VALUES, a.remainder(-1.5), R({6})),
      OP("remainder int", VALUES, a.remainder(b), I({6}), N({6})),
      OP("fmod int", VALUES, a.fmod(b), I({6}), N({6})),
      OP("floor_divide", VALUES, a.floor_divide(b), R({6}), P({6})),
      OP("floor_divide int", VALUES, a.floor_divide(b), I({6}), N({6})),
      OP("div trunc", VALUES, a.div(b, "trunc"), R({6}), P({6})),
      OP("div floor", VALUES, a.div(b, "floor"), I({6}), N({6})),
      OP("divide", GRAD, a.divide(b), R({6}), P({6})),
      OP("true_divide int", VALUES, a.true_divide(b), I({6}), N({6})),
      OP("multiply", GRAD, a.multiply(b), R({6}), R({6})),
      OP("subtract alpha", GRAD, a.subtract(b, 2), R({6}), R({6})),
      OP("atan2", GRAD, a.atan2(b), R({6}), R({6})),
      OP("arctan2", VALUES, a.arctan2(b), R({6}), R({6})),
      OP("hypot", GRAD, a.hypot(b), R({6}), R({6})),
      OP("copysign", GRAD, a.copysign(b), R({6}), R({6})),
      OP("nextafter", VALUES, (a.nextafter(b) - a) * 1e15, R({6}), R({6})),
      OP("xlogy", GRAD, a.xlogy(b), R({6}), P({6})),
      OP("logaddexp", GRAD, a.logaddexp(b), R({6}), R({6})),
      OP("logaddexp2", GRAD, a.logaddexp2(b), R({6}), R({6})),
      OP("ldexp", VALUES, a.ldexp(b.clamp(-3, 3)), R({6}), I({6})),
      OP("heaviside", VALUES, a.heaviside(b), R({6}), R({6})),
      OP("float_power", GRAD, a.float_power(b), P({6}), R({6})),
      OP("float_power int", VALUES, a.float_power(2), N({6})),
      OP("pow tensor", GRAD, a.pow(b), P({6}), R({6})),
      OP("pow scalar base", GRAD, torch::pow(2.5, a), R({6})),
      OP("lerp scalar", GRAD, a.lerp(b, 0.3), R({6}), R({6})),
      OP("lerp tensor", GRAD, a.lerp(b, c), R({6}), R({6}), W({6})),
      OP("addcmul", GRAD, a.addcmul(b, c, 0.5), R({2, 3}), R({3}), R({2, 1})),
      OP("addcdiv", GRAD, torch::addcdiv(a, b, c, -2), R({2, 3}), R({3}), P({2, 1})),
      OP("dist", GRAD, a.dist(b, 3), R({6}), R({6})),
      OP("isclose", VALUES, a.isclose(a + 1e-6, 1e-5, 0), R({6})),
      OP("gcd", VALUES, a.gcd(b), I({6}), I({6})),
      OP("lcm", VALUES, a.lcm(b), I({6}), N({6})),
      OP("greater", VALUES, a.greater(b), R({6}), R({6})),
      OP("less_equal scalar", VALUES, a.less_equal(0.5), R({6})),
      OP("not_equal", VALUES, a.not_equal(b), I({6}), I({6})),
      OP("gt_", VALUES, a.clone().gt_(b), R({6}), R({6})),
      OP("logical_and", VALUES, a.logical_and(b), R({6}), B({6})),
      OP("logical_or", VALUES, torch::logical_or(a, b), B({6}), B({6})),
      OP("logical_xor", VALUES, a.logical_xor(b), I({6}), B({6})),
      OP("logical_not", VALUES, a.logical_not(), R({6})),
      OP("bitwise_and", VALUES, a.bitwise_and(b), I({6}), I({6})),
      OP("bitwise_or", VALUES, a | b, I({6}), I({6})),
      OP("bitwise_xor", VALUES, a ^ b, I({6}), I({6})),
      OP("bitwise_not", VALUES, ~a, I({6})),
      OP("bitwise bool", VALUES, (a & b) | ~b, B({6}), B({6})),
      OP("shifts", VALUES, a.bitwise_left_shift(b) + a.bitwise_right_shift(1), N({6}), N({6})),
      OP("bitwise float error", VALUES, a.bitwise_and(b), R({6}), R({6})),
      OP("add_out", VALUES, [&] {
        auto out = torch::empty({6}, torch::kDouble);
        torch::add_out(out, a, b, 2);
        return out;
      }(), R({6}), R({6})),
      OP("broadcast error", VALUES, a.maximum(b), R({3}), R({4})),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_reductions) {
  run_all({
      OP("median", GRAD, a.median(), R({7})),
      OP("median dim", VALUES, std::get<0>(a.median(1)), R({3, 4})),
      OP("median dim indices", VALUES, std::get<1>(a.median(1, true)), R({3, 4})),
      OP("nanmedian", VALUES, a.log().nanmedian(), R({6})),
      OP("mode", VALUES, std::get<0>((a.remainder(3)).mode(1)), I({3, 5})),
      OP("nansum", GRAD, a.nansum(), R({6})),
      OP("nanmean", VALUES, a.log().nanmean(), R({6})),
      OP("cumprod", GRAD, a.cumprod(1), R({2, 4})),
      OP("cummax values", VALUES, std::get<0>(a.cummax(1)), R({2, 4})),
      OP("cummax indices", VALUES, std::get<1>(a.cummax(1)), R({2, 4})),
      OP("cummin", GRAD, std::get<0>(torch::cummin(a, 0)), R({2, 4})),
      OP("logcumsumexp", GRAD, a.logcumsumexp(1), R({2, 4})),
      OP("kthvalue", GRAD, std::get<0>(a.kthvalue(2, 1)), R({3, 4})),
      OP("aminmax", VALUES, std::get<1>(a.aminmax(0, true)), R({3, 4})),
      OP("count_nonzero", VALUES, a.remainder(3).count_nonzero(std::vector<int64_t>{1}), I({3, 4})),
      OP("all dim", VALUES, a.all(1), B({3, 4})),
      OP("any dim keepdim", VALUES, a.any(0, true), B({3, 4})),
      OP("std_mean", VALUES, std::get<1>(torch::std_mean(a, {1})), R({3, 4})),
      OP("var_mean", VALUES, std::get<0>(torch::var_mean(a, {0}, false)), R({3, 4})),
      OP("prod dim", GRAD, a.prod(1, true), R({3, 4})),
      OP("cumsum_", VALUES, a.clone().cumsum_(1), R({2, 3})),
      OP("argwhere", VALUES, a.argwhere(), B({3, 4})),
      OP("bincount", VALUES, a.bincount(), N({8})),
      OP("histc", VALUES, a.histc(5, -3, 3), R({12})),
      OP("diff", GRAD, a.diff(1, 1), R({2, 5})),
      OP("renorm", GRAD, a.renorm(2, 0, 1.5), R({3, 4})),
      OP("trace", GRAD, a.trace(), R({3, 4})),
      OP("median empty error", VALUES, a.median(), R({0})),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_products) {
  run_all({
      OP("dot", GRAD, a.dot(b), R({5}), R({5})),
      OP("vdot", VALUES, a.vdot(b), R({5}), R({5})),
      OP("inner", GRAD, a.inner(b), R({2, 3}), R({4, 3})),
      OP("outer", GRAD, a.outer(b), R({3}), R({4})),
      OP("ger", VALUES, a.ger(b), R({3}), R({4})),
      OP("mv", GRAD, a.mv(b), R({3, 4}), R({4})),
      OP("addmv", GRAD, a.addmv(b, c, 0.5, 2), R({3}), R({3, 4}), R({4})),
      OP("addr", GRAD, a.addr(b, c), R({3, 4}), R({3}), R({4})),
      OP("baddbmm", GRAD, a.baddbmm(b, c, 0.5, 1.5), R({2, 3, 2}), R({2, 3, 4}), R({2, 4, 2})),
      OP("addbmm", GRAD, a.addbmm(b, c), R({3, 2}), R({2, 3, 4}), R({2, 4, 2})),
      OP("matrix_power", GRAD, a.matrix_power(3), U({3, 3})),
      OP("kron", GRAD, a.kron(b), R({2, 2}), R({2, 3})),
      OP("cross", GRAD, a.cross(b, 1), R({2, 3}), R({2, 3})),
      OP("tensordot", GRAD, torch::tensordot(a, b, {1, 2}, {1, 0}), R({2, 3, 4}), R({4, 3, 2})),
      // einsum: LibTorch 1.13 ends its bmm composition with a view (ViewBackward0; SumBackward1 for "...j->..."),
      // tinytorch with a squeeze.
      OP("einsum matmul", NODE_DIFFERS, torch::einsum("ij,jk->ik", {a, b}), R({2, 3}), R({3, 4})),
      OP("einsum batch", NODE_DIFFERS, torch::einsum("bij,bjk->bik", {a, b}), R({2, 3, 4}), R({2, 4, 5})),
      OP("einsum trace diag", VALUES, torch::einsum("ii", {a}), R({3, 3})),
      OP("einsum implicit outer", VALUES, torch::einsum("i,j", {a, b}), R({3}), R({2})),
      OP("einsum ellipsis sum", NODE_DIFFERS, torch::einsum("...j->...", {a}), R({2, 3, 4})),
      OP("einsum transpose", VALUES, torch::einsum("ij->ji", {a}), R({2, 3})),
      OP("einsum three", NODE_DIFFERS, torch::einsum("ij,jk,k->i", {a, b, c}), R({2, 3}), R({3, 4}), R({4})),
      OP("mv error", VALUES, a.mv(b), R({3, 4}), R({3})),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_shape) {
  run_all({
      OP("flip", GRAD, a.flip({0, 2}), R({2, 3, 4})),
      OP("fliplr", VALUES, a.fliplr(), R({2, 3})),
      OP("flipud", VALUES, a.flipud(), R({2, 3})),
      OP("roll", GRAD, a.roll({1, -1}, {0, 1}), R({3, 4})),
      OP("roll flat", VALUES, a.roll(5), R({3, 4})),
      OP("rot90", GRAD, a.rot90(1, {0, 1}), R({2, 3})),
      OP("movedim", GRAD, a.movedim(0, 2), R({2, 3, 4})),
      OP("moveaxis list", VALUES, a.moveaxis({0, 1}, {2, 0}), R({2, 3, 4})),
      OP("swapaxes", VALUES, a.swapaxes(0, 2), R({2, 3, 4})),
      OP("tril", GRAD, a.tril(), R({3, 4})),
      OP("triu diagonal", GRAD, a.triu(1), R({3, 4})),
      OP("tril_", VALUES, a.clone().tril_(-1), R({3, 3})),
      OP("diag vector", GRAD, a.diag(1), R({3})),
      OP("diag matrix", GRAD, a.diag(-1), R({3, 4})),
      OP("diagonal", GRAD, a.diagonal(1, 1, 2), R({2, 3, 4})),
      OP("diag_embed", GRAD, a.diag_embed(), R({2, 3})),
      OP("diagflat", VALUES, a.diagflat(), R({2, 2})),
      OP("repeat", GRAD, a.repeat({2, 1, 2}), R({2, 3})),
      OP("repeat_interleave", GRAD, a.repeat_interleave(2, 1), R({2, 3})),
      OP("repeat_interleave tensor", VALUES, a.repeat_interleave(b, 0), R({3}), N({3})),
      OP("repeat_interleave flat", VALUES, a.repeat_interleave(2), R({2, 2})),
      OP("tile", GRAD, a.tile({2}), R({2, 3})),
      OP("unfold", GRAD, a.unfold(1, 3, 2), R({2, 7})),
      OP("broadcast_to", GRAD, a.broadcast_to({2, 3, 4}), R({3, 1})),
      OP("ravel", VALUES, a.t().ravel(), R({2, 3})),
      OP("tensor_split", VALUES, a.tensor_split(3)[1], R({7})),
      OP("hstack", GRAD, torch::hstack({a, b}), R({2, 3}), R({2, 1})),
      OP("vstack", VALUES, torch::vstack({a, b}), R({3}), R({3})),
      OP("dstack", VALUES, torch::dstack({a, b}), R({2, 3}), R({2, 3})),
      OP("column_stack", VALUES, torch::column_stack({a, b}), R({3}), R({3, 2})),
      OP("meshgrid ij", VALUES, torch::meshgrid({a, b}, "ij")[1], R({3}), R({2})),
      OP("take", GRAD, a.take(b), R({3, 4}), N({5})),
      OP("take_along_dim", GRAD, a.take_along_dim(b.remainder(4), 1), R({3, 4}), N({3, 2})),
      OP("index_fill", VALUES, a.index_fill(1, torch::tensor({0, 2}), -1.0), R({3, 4})),
      OP("index_copy", GRAD, a.index_copy(1, torch::tensor({3, 0}), b), R({3, 4}), R({3, 2})),
      OP("masked_scatter", GRAD, a.masked_scatter(a.gt(0), b), R({3, 4}), R({12})),
      OP("select_scatter", GRAD, a.select_scatter(b, 0, 1), R({3, 4}), R({4})),
      OP("slice_scatter", GRAD, a.slice_scatter(b, 0, 0, 4, 2), R({4, 4}), R({2, 4})),
      OP("diagonal_scatter", GRAD, a.diagonal_scatter(b), R({3, 3}), R({3})),
      OP("as_strided", VALUES, a.as_strided({2, 2}, {1, 2}, 1), R({3, 4})),
      OP("sum_to_size", GRAD, a.sum_to_size({3, 1}), R({2, 3, 4})),
      OP("constant_pad_nd", GRAD, torch::constant_pad_nd(a, {1, 2, 0, 1}, 0.5), R({2, 3})),
      // LibTorch has pad kernels (ReflectionPad1DBackward0, ReplicationPad2DBackward0); tinytorch gathers with
      // index_select (IndexSelectBackward0).
      OP("F::pad reflect", NODE_DIFFERS, torch::nn::functional::pad(a, torch::nn::functional::PadFuncOptions({2, 1}).mode(torch::kReflect)), R({1, 2, 4})),
      OP("F::pad replicate", NODE_DIFFERS, torch::nn::functional::pad(a, torch::nn::functional::PadFuncOptions({1, 1, 2, 0}).mode(torch::kReplicate)), R({1, 2, 3, 3})),
      OP("F::pad circular", VALUES, torch::nn::functional::pad(a, torch::nn::functional::PadFuncOptions({1, 2}).mode(torch::kCircular)), R({1, 2, 4})),
      OP("index two tensors", GRAD, a.index({torch::tensor({0, 2, 2}), torch::tensor({1, 3, 0})}), R({3, 4})),
      OP("index broadcast tensors", GRAD, a.index({torch::tensor({{0}, {2}}), torch::tensor({1, 3})}), R({3, 4})),
      OP("index tensor slice tensor", VALUES, a.index({torch::tensor({1, 0}), Slice(), torch::tensor({3, 2})}), R({2, 3, 4})),
      OP("index slice tensors", VALUES, a.index({Slice(), torch::tensor({0, 2}), torch::tensor({1, 3})}), R({2, 3, 4})),
      OP("index_put accumulate", GRAD, a.index_put({torch::tensor({0, 2, 0}), torch::tensor({1, 3, 1})}, b, true), R({3, 4}), R({3})),
      OP("index out of range", VALUES, a.index({torch::tensor({0, 5})}), R({3, 4})),
      OP("roll error", VALUES, a.roll({1, 2}, {0}), R({3, 4})),
  });
  return 0;
}

COMPAT_PROGRAM(op_table_dtypes) {
  run_all({
      OP("int8 add wraps", VALUES, a * 20 + 127, I({6}, torch::kChar)),
      OP("uint8 sub", VALUES, a - 3, N({6}, torch::kByte)),
      OP("int16 mul", VALUES, a * 3000, I({6}, torch::kShort)),
      OP("int32 matmul", VALUES, a.matmul(b), I({2, 3}, torch::kInt), I({3, 2}, torch::kInt)),
      OP("int32 + int8", VALUES, a + b, I({4}, torch::kInt), I({4}, torch::kChar)),
      OP("uint8 + int8 promotes to int16", VALUES, a + b, N({4}, torch::kByte), I({4}, torch::kChar)),
      OP("int32 sum is long", VALUES, a.sum(1), I({2, 3}, torch::kInt)),
      OP("int32 true division", VALUES, a / b, I({4}, torch::kInt), N({4}, torch::kInt)),
      OP("half from double", VALUES, a * 1.001, R({6}, torch::kHalf)),
      OP("bfloat16 from double", VALUES, a * 1.001, R({6}, torch::kBFloat16)),
      OP("half + float", VALUES, a + b, R({4}, torch::kHalf), R({4}, torch::kFloat)),
      OP("half + bfloat16", VALUES, a + b, R({4}, torch::kHalf), R({4}, torch::kBFloat16)),
      OP("half exp", VALUES, a.exp(), U({4}, torch::kHalf)),
      OP("int8 comparisons", VALUES, a.lt(b), I({6}, torch::kChar), I({6}, torch::kChar)),
      OP("to int8 from double", VALUES, (a * 50).to(torch::kChar), R({6})),
      OP("new_zeros", VALUES, a.new_zeros({2, 3}), R({2}, torch::kFloat)),
      OP("new_ones int", VALUES, a.new_ones({3}), I({2})),
      OP("new_full", VALUES, a.new_full({2, 2}, 2.5), R({2})),
      OP("type_as", VALUES, a.type_as(b), R({3}), I({2}, torch::kInt)),
      OP0("eye", torch::eye(3, 4)),
      OP0("linspace", torch::linspace(-1, 2, 7)),
      OP0("logspace", torch::logspace(0, 2, 5, 2.0)),
      OP0("full_like", torch::full_like(torch::ones({2, 2}, torch::kInt), 7)),
  });
  return 0;
}

}  // namespace op_table
