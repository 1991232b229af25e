#pragma once
// Parity of module 22's device kernels with the CPU (lesson 22, section 10, "Parity with the CPU").
//
// Every op with a kernel for the OpenCL device (tinytorch::ops_with_device_kernels) runs here forward and,
// where it has a gradient, backward: once on the device, once on the CPU, on the same seeded inputs, shaped
// as the MLPs, LeNet-5 and a small attention use them, with a transposed view and a broadcast operand
// wherever the op takes them. A row reports the largest |device - CPU| and the largest relative difference,
// and passes when the relative difference is within the tolerance stated for the row, in units of
// eps = 2^-23 (one ulp of a float x is at most eps |x|), with its reason. Two users, one table:
// scripts/lesson-figures 22 prints it (bench/lesson_figures.cpp) and the lesson quotes it;
// tests/framework/test_device_parity.cpp fails CI on a row out of tolerance. Both fail when an op has a
// device kernel and no case here (ops_without_case), so a new kernel cannot go unchecked.
//
// Where the tolerances come from (the lesson's section 10 explains them to the learner):
// - + - * and the comparisons are correctly rounded on both sides (IEEE 754, and OpenCL C requires it):
//   the same inputs give the same bits. Copies, gathers and relu do no arithmetic. Tolerance 0.
// - exp, log, sqrt, tanh, pow and / may differ by what each side is allowed: OpenCL C's minimum accuracy
//   for float (its section 7.4: x / y 2.5 ulp, exp 3, log 3, sqrt 3, tanh 5, pow 16), plus the CPU's
//   (/ and sqrt correctly rounded, 0.5 ulp; the C library's expf, logf, powf, tanhf: we allow 2).
// - Two values that already differ by d eps and go through the same correctly rounded op differ by at most
//   d + 1 eps after it (half an ulp on each side).
// - A sum of k terms is added in another order on each side (a tree in local memory, a GEMM's tiles, the
//   CPU's vector lanes), and the device may fuse a multiply and an add into one FMA where the CPU does
//   not. Its worst case grows like k u (u = eps / 2) times the sum of the terms' magnitudes, but rounding
//   errors of both signs cancel like a random walk and grow like sqrt(k) u (Higham and Mary, "A new
//   approach to probabilistic rounding error analysis", 2019). Two such sums: 2 sqrt(k) eps, relative to the
//   sum of |terms|. That catches a term dropped or counted twice, which a k eps bound would not for k in
//   the thousands.
// - Where a result is a difference (tanh' = 1 - y^2, the softmax's backward), its error is relative to the
//   magnitudes of what was subtracted, not to the small result: those rows say "terms".
#include <tinytorch/torch.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace device_parity {

namespace torch = ::tinytorch;
using Inputs = std::vector<torch::Tensor>;

constexpr double kEps = FLT_EPSILON;  // 2^-23
constexpr uint64_t kSeed = 22;

// What each side may be off by, in ulps (so at most that many eps, relative).
constexpr double kDeviceDivide = 2.5, kDeviceExp = 3, kDeviceLog = 3, kDeviceSqrt = 3, kDeviceTanh = 5, kDevicePow = 16;
constexpr double kCpuRounded = 0.5;  // / and sqrt on the CPU: correctly rounded
constexpr double kCpuLibm = 2;       // the C library's expf, logf, powf, tanhf
constexpr double kDivide = kDeviceDivide + kCpuRounded;  // 3: one / on the same operands
constexpr double kExp = kDeviceExp + kCpuLibm;          // 5
constexpr double kLog = kDeviceLog + kCpuLibm;          // 5
constexpr double kRounding = 1;  // one more correctly rounded op on values that already differ
// A sum of k terms, added in two orders.
inline double summed(int64_t k) { return 2 * std::sqrt(static_cast<double>(k)); }

// The CPU's values a row is computed from: its inputs, the seeded gradient of the output, the output.
struct ScaleContext {
  const Inputs& inputs;
  const torch::Tensor& grad_output;
  const torch::Tensor& output;
};

// What a row's relative error is relative to, per element; the table prints `name`.
struct Scale {
  enum class Kind { Value, Terms, TermsOfGrad, Custom };
  const char* name;
  Kind kind;
  std::function<torch::Tensor(const ScaleContext&)> custom;
};
// |CPU value|: a relative error in the usual sense.
inline Scale value() { return {"value", Scale::Kind::Value, nullptr}; }
// The sum of the magnitudes of the terms: the same computation on the CPU on |inputs| and |gradient|.
// Right for the ops that are sums of products of their inputs (sum, mm, conv and their gradients).
inline Scale terms() { return {"terms", Scale::Kind::Terms, nullptr}; }
// The same with only the gradient made positive: for a gather (max pooling), whose choices must not change.
inline Scale terms_of_grad() { return {"terms", Scale::Kind::TermsOfGrad, nullptr}; }
inline Scale custom(const char* name, std::function<torch::Tensor(const ScaleContext&)> fn) {
  return {name, Scale::Kind::Custom, std::move(fn)};
}

struct Check {
  Scale scale;
  double tolerance_eps;  // on max |device - CPU| / scale, in eps
  std::string reason;    // where the tolerance comes from, as the table prints it
};
inline Check exact(std::string reason) { return {value(), 0, std::move(reason)}; }

struct Gradient {
  int input;         // which input the gradient is of
  std::string name;  // "x", as the row names it
  Check check;
};

struct Case {
  std::vector<std::string> ops;  // the device kernels it runs, as ops_with_device_kernels names them
  std::string inputs;            // shapes and views, as the table prints them
  std::function<Inputs()> make_inputs;                   // on the CPU; make_inputs seeds first
  std::function<torch::Tensor(const Inputs&)> forward;  // runs on whatever device its inputs are on
  Check forward_check;
  std::vector<Gradient> gradients;  // none: the op has no gradient
};

struct Row {
  std::string op, pass, inputs;
  double max_abs_error = 0;
  double max_rel_error = 0;  // max |device - CPU| / scale
  std::string relative_to;   // the scale's name
  double tolerance = 0;      // on max_rel_error
  std::string reason;
  bool passed() const { return max_rel_error <= tolerance; }  // NaN fails
};

struct Report {
  std::vector<Row> rows;
  std::vector<std::string> ops_without_case;
  bool passed() const {
    if (!ops_without_case.empty()) return false;
    for (const Row& row : rows)
      if (!row.passed()) return false;
    return true;
  }
};

inline std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : " ") + name;
  return text;
}

// ---- The cases: one per op or family, forward and every gradient ----

inline torch::TensorOptions on(const torch::Device& device) {
  return torch::TensorOptions(torch::kFloat).device(device);
}

// m (256, 64) read as m.t(), a (64, 256) view with strides (1, 64); v (256) broadcast over its 64 rows.
inline Inputs strided_and_broadcast(bool positive) {
  torch::manual_seed(kSeed);
  if (positive) return {torch::rand({256, 64}) + 0.5, torch::rand({256}) + 0.5};
  return {torch::randn({256, 64}), torch::randn({256})};
}
const char* const kBinaryInputs = "m.t() (64, 256) strided, v (256) broadcast";
const char* const kUnaryInputs = "m.t() (64, 256) strided";

inline Case binary_case(const char* op, bool positive, torch::Tensor (*fn)(const torch::Tensor&, const torch::Tensor&),
                        Check forward, Check grad_m, Check grad_v) {
  return {{op},
          kBinaryInputs,
          [positive] { return strided_and_broadcast(positive); },
          [fn](const Inputs& x) { return fn(x[0].t(), x[1]); },
          std::move(forward),
          {{0, "m", std::move(grad_m)}, {1, "v (sums 64 rows)", std::move(grad_v)}}};
}

inline Case unary_case(const char* op, bool positive, torch::Tensor (*fn)(const torch::Tensor&), Check forward,
                       Check grad) {
  return {{op},
          kUnaryInputs,
          [positive] { return Inputs{strided_and_broadcast(positive)[0]}; },
          [fn](const Inputs& x) { return fn(x[0].t()); },
          std::move(forward),
          {{0, "m", std::move(grad)}}};
}

inline std::vector<Case> make_cases() {
  using torch::Tensor;
  std::vector<Case> cases;
  const std::string rounded = "correctly rounded on both sides";
  const std::string no_arithmetic = "no arithmetic";

  // ---- Element-wise, two operands ----
  cases.push_back(binary_case("add", false, [](const Tensor& a, const Tensor& b) { return a + b; }, exact(rounded),
                              exact(no_arithmetic), {terms_of_grad(), summed(64), "sum of 64: 2 sqrt(k)"}));
  cases.push_back(binary_case("sub", false, [](const Tensor& a, const Tensor& b) { return a - b; }, exact(rounded),
                              exact(no_arithmetic), {terms_of_grad(), summed(64), "sum of 64: 2 sqrt(k)"}));
  cases.push_back(binary_case("mul", false, [](const Tensor& a, const Tensor& b) { return a * b; }, exact(rounded),
                              exact(rounded), {terms(), summed(64), "sum of 64 products: 2 sqrt(k)"}));
  cases.push_back(binary_case("div", true, [](const Tensor& a, const Tensor& b) { return a / b; },
                              {value(), kDivide, "/: 2.5 ulp (OpenCL) + 0.5 (CPU)"},
                              {value(), kDivide, "/: 2.5 + 0.5 ulp"},
                              {terms(), kDivide + summed(64), "/ (3) then a sum of 64 (2 sqrt(k))"}));
  {
    // y = m^v. Grad m = g v m^(v-1): the pow, then one product. Grad v = the sum of g y log(m) over 64 rows.
    const double pow_ulps = kDevicePow + kCpuLibm;
    cases.push_back(binary_case(
        "pow", true, [](const Tensor& a, const Tensor& b) { return torch::pow(a, b); },
        {value(), pow_ulps, "pow: 16 ulp (OpenCL) + 2 (CPU)"},
        {value(), pow_ulps + kRounding, "pow (18) then a product (1)"},
        {custom("terms",
                [](const ScaleContext& c) {
                  return (c.grad_output.abs() * c.output.abs() * c.inputs[0].t().log().abs()).sum({0});
                }),
         pow_ulps + kLog + 2 * kRounding + summed(64), "pow (18), log (5), 2 products, a sum of 64 (16)"}));
  }

  // ---- Comparisons: small integers, so that ties happen and == and <= are exercised ----
  cases.push_back({{"eq", "ne", "gt", "lt", "ge", "le"},
                   "m.t() (64, 256) strided, v (256) broadcast, integers in [-2, 2]",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randint(-2, 3, {256, 64}).to(torch::kFloat),
                                   torch::randint(-2, 3, {256}).to(torch::kFloat)};
                   },
                   [](const Inputs& x) {
                     const Tensor a = x[0].t(), b = x[1];
                     return torch::cat({a.eq(b), a.ne(b), a.gt(b), a.lt(b), a.ge(b), a.le(b)}).to(torch::kFloat);
                   },
                   exact("comparisons are exact"),
                   {}});

  // ---- Element-wise, one operand ----
  cases.push_back(unary_case("neg", false, [](const Tensor& a) { return -a; }, exact(no_arithmetic),
                             exact(no_arithmetic)));
  cases.push_back(unary_case("exp", false, [](const Tensor& a) { return a.exp(); },
                             {value(), kExp, "exp: 3 ulp (OpenCL) + 2 (CPU)"},
                             {value(), kExp + kRounding, "exp (5) then g * y (1)"}));
  cases.push_back(unary_case("log", true, [](const Tensor& a) { return a.log(); },
                             {value(), kLog, "log: 3 ulp (OpenCL) + 2 (CPU)"}, {value(), kDivide, "g / m: 3 ulp"}));
  {
    const double sqrt_ulps = kDeviceSqrt + kCpuRounded;
    cases.push_back(unary_case("sqrt", true, [](const Tensor& a) { return a.sqrt(); },
                               {value(), sqrt_ulps, "sqrt: 3 ulp (OpenCL) + 0.5 (CPU)"},
                               {value(), sqrt_ulps + kDivide, "sqrt (3.5) then g / (2 y) (3)"}));
  }
  cases.push_back(unary_case("relu", false, [](const Tensor& a) { return torch::relu(a); }, exact(no_arithmetic),
                             exact("g * (y > 0): exact")));
  {
    // The device's 1 / (1 + exp(-a)): exp, the add (half an ulp), the /. The CPU's z / (1 + z) with z = exp(a)
    // for a < 0 (1 / (1 + exp(-a)) otherwise, less): exp, the add, z's error again in the quotient, the /.
    const double device = kDeviceExp + 0.5 + kDeviceDivide;      // 6
    const double cpu = kCpuLibm + 0.5 + kCpuLibm + kCpuRounded;  // 5
    const double sigmoid_ulps = device + cpu;
    cases.push_back(unary_case(
        "sigmoid", false, [](const Tensor& a) { return torch::sigmoid(a); },
        {value(), sigmoid_ulps, "device 6 ulp (exp, +, /) + CPU 5"},
        {custom("terms",
                [](const ScaleContext& c) {
                  return (c.grad_output.abs() * c.output.abs() * (c.output.abs() + 1)).t();
                }),
         2 * sigmoid_ulps + 3 * kRounding, "g y (1 - y): y twice (2 x 11), 3 ops"}));
  }
  {
    const double tanh_ulps = kDeviceTanh + kCpuLibm;
    cases.push_back(unary_case(
        "tanh", false, [](const Tensor& a) { return torch::tanh(a); },
        {value(), tanh_ulps, "tanh: 5 ulp (OpenCL) + 2 (CPU)"},
        {custom("terms",
                [](const ScaleContext& c) { return (c.grad_output.abs() * (c.output * c.output + 1)).t(); }),
         2 * tanh_ulps + 3 * kRounding, "g (1 - y^2): y twice (2 x 7), 3 ops"}));
  }

  // ---- Reductions ----
  cases.push_back({{"sum"},
                   "x.t().sum(1): (64, 1000) strided, rows of 1000",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({1000, 64})};
                   },
                   [](const Inputs& x) { return x[0].t().sum({1}); },
                   {terms(), summed(1000), "sum of 1000: 2 sqrt(k)"},
                   {{0, "x", exact("the gradient is expanded: a copy")}}});
  cases.push_back({{"sum"},
                   "x.sum(): all of (64, 1000), two stages",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 1000})};
                   },
                   [](const Inputs& x) { return x[0].sum(); },
                   {terms(), summed(64000), "sum of 64,000: 2 sqrt(k)"},
                   {}});

  // ---- Matrix products ----
  cases.push_back({{"mm"},
                   "x (64, 784) @ W.t(), W (128, 784): an MLP's first layer",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 784}), torch::randn({128, 784}) * 0.05};
                   },
                   [](const Inputs& x) { return x[0].mm(x[1].t()); },
                   {terms(), summed(784), "k = 784: 2 sqrt(k)"},
                   {{0, "x (g @ W, k = 128)", {terms(), summed(128), "k = 128: 2 sqrt(k)"}},
                    {1, "W (g.t() @ x, k = 64)", {terms(), summed(64), "k = 64: 2 sqrt(k)"}}}});
  cases.push_back({{"bmm"},
                   "q.bmm(k.transpose(1, 2)), q and k (8, 64, 32): attention scores",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({8, 64, 32}), torch::randn({8, 64, 32})};
                   },
                   [](const Inputs& x) { return x[0].bmm(x[1].transpose(1, 2)); },
                   {terms(), summed(32), "k = 32: 2 sqrt(k)"},
                   {{0, "q (k = 64)", {terms(), summed(64), "k = 64: 2 sqrt(k)"}},
                    {1, "k (k = 64)", {terms(), summed(64), "k = 64: 2 sqrt(k)"}}}});

  // ---- Softmax ----
  {
    // y = e / s: e within exp's 5 ulp, s (a sum of 64 such) within 5 + 2 sqrt(k), the / 3.
    const double forward = 2 * kExp + kDivide + summed(64);
    cases.push_back({{"softmax"},
                     "s (8, 64, 64) over dim -1: attention weights",
                     [] {
                       torch::manual_seed(kSeed);
                       return Inputs{torch::randn({8, 64, 64}) * 2};
                     },
                     [](const Inputs& x) { return torch::softmax(x[0], -1); },
                     {value(), forward, "exp, a sum of 64 and / (13 + 2 sqrt(k))"},
                     {{0, "s",
                       {custom("terms",
                               [](const ScaleContext& c) {
                                 const Tensor& y = c.output;
                                 const Tensor& g = c.grad_output;
                                 return y.abs() * (g.abs() + (g * y).abs().sum({-1}, true));
                               }),
                        2 * forward + summed(64) + 3 * kRounding, "y (g - sum(g y)): y twice, a sum of 64, 3 ops"}}}});
  }
  {
    // y = (x - m) - log(s): x - m is the same on both sides, log(s) within s's error plus log's 5 ulp; all
    // relative to |y| + 1 = |x - m| + log(s) + 1, the 1 for s's relative error becoming log's absolute one.
    const double forward = kExp + summed(10) + kLog + kRounding;
    cases.push_back({{"log_softmax"},
                     "x.t() (10, 64) strided, over dim 0: a classifier's 10 classes",
                     [] {
                       torch::manual_seed(kSeed);
                       return Inputs{torch::randn({64, 10}) * 3};
                     },
                     [](const Inputs& x) { return torch::log_softmax(x[0].t(), 0); },
                     {custom("value + 1", [](const ScaleContext& c) { return c.output.abs() + 1; }), forward,
                      "exp (5), a sum of 10, log (5), a subtraction (1)"},
                     {{0, "x",
                       {custom("terms",
                               [](const ScaleContext& c) {
                                 const Tensor& y = c.output;
                                 const Tensor& g = c.grad_output;
                                 return (g.abs() + y.exp() * (y.abs() + 1) * g.abs().sum({0}, true)).t();
                               }),
                        forward + kExp + summed(10) + 2 * kRounding,
                        "g - exp(y) sum(g): y, exp, a sum of 10, 2 ops"}}}});
  }

  // ---- Convolution, pooling, loss ----
  cases.push_back({{"convolution", "convolution_backward"},
                   "x (64, 6, 14, 14) * w (16, 6, 5, 5) + b, padding 1: LeNet-5's second",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 6, 14, 14}), torch::randn({16, 6, 5, 5}) * 0.1,
                                   torch::randn({16})};
                   },
                   [](const Inputs& x) { return torch::conv2d(x[0], x[1], x[2], /*stride=*/1, /*padding=*/1); },
                   {terms(), summed(6 * 25 + 1), "k = 150 taps + bias: 2 sqrt(k)"},
                   {{0, "x (col2im, up to 400 terms)", {terms(), summed(16 * 25), "k = 400: 2 sqrt(k)"}},
                    {1, "w (k = 64 x 12 x 12)", {terms(), summed(64 * 12 * 12), "k = 9,216: 2 sqrt(k)"}},
                    {2, "b (k = 64 x 12 x 12)", {terms(), summed(64 * 12 * 12), "k = 9,216: 2 sqrt(k)"}}}});
  cases.push_back({{"max_pool2d_with_indices", "max_pool2d_with_indices_backward"},
                   "x (64, 6, 28, 28), 3 x 3 windows, stride 2, padding 1 (overlapping)",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 6, 28, 28})};
                   },
                   [](const Inputs& x) { return torch::max_pool2d(x[0], {3, 3}, {2, 2}, {1, 1}); },
                   exact("a gather: no arithmetic"),
                   {{0, "x (up to 4 windows a pixel)", {terms_of_grad(), summed(4), "sum of up to 4: 2 sqrt(k)"}}}});
  cases.push_back({{"nll_loss", "nll_loss_backward"},
                   "log-probabilities (64, 10), 64 targets, mean",
                   [] {
                     torch::manual_seed(kSeed);
                     torch::NoGradGuard no_grad;
                     return Inputs{torch::log_softmax(torch::randn({64, 10}) * 2, 1), torch::randint(0, 10, {64})};
                   },
                   [](const Inputs& x) { return torch::nll_loss(x[0], x[1]); },
                   {terms(), summed(64) + kDivide, "a sum of 64 (16), / 64 (3)"},
                   {{0, "log-probabilities", {value(), kDivide, "-g / 64: 3 ulp"}}}});

  // ---- Memory: copies, fills, pinned host memory ----
  cases.push_back({{"copy_"},
                   "x (64, 256): to host and back from x.t(), into a transposed view, to Long and back",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 256})};
                   },
                   [](const Inputs& x) {
                     const torch::Device device = x[0].device();
                     const Tensor there = x[0].cpu().t().to(device);  // device -> host, host -> device from a view
                     Tensor into = torch::zeros({256, 64}, on(device));
                     into.t().copy_(x[0].detach());  // on the device, into a transposed view
                     const Tensor whole = (x[0].detach() * 8).to(torch::kLong).to(torch::kFloat);  // truncation
                     return torch::cat({there.flatten(), into.flatten(), whole.flatten()});
                   },
                   exact("copies and conversions are exact"),
                   {{0, "x (back through both copies)", exact(no_arithmetic)}}});
  cases.push_back({{"copy_non_blocking"},
                   "x (64, 256) from pinned memory, non_blocking",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 256})};
                   },
                   [](const Inputs& x) {
                     if (x[0].is_cpu()) return x[0].clone();
                     const Tensor pinned = x[0].cpu().pin_memory();
                     const Tensor there = pinned.to(x[0].device(), /*non_blocking=*/true);
                     torch::opencl::synchronize();  // the copy was only queued; `pinned` must outlive it
                     return there;
                   },
                   exact(no_arithmetic),
                   {}});
  cases.push_back({{"pin_memory", "is_pinned"},
                   "x (64, 256) pinned: its values, then is_pinned of the copy and of x",
                   [] {
                     torch::manual_seed(kSeed);
                     return Inputs{torch::randn({64, 256})};
                   },
                   [](const Inputs& x) {
                     const Tensor host = x[0].cpu();
                     // On the CPU, what pinning must give: the same values, the copy pinned and x not.
                     if (x[0].is_cpu()) return torch::cat({host.flatten(), torch::tensor({1.0f, 0.0f})});
                     const Tensor pinned = host.pin_memory();
                     return torch::cat({pinned.flatten(), torch::tensor({pinned.is_pinned() ? 1.0f : 0.0f,
                                                                         host.is_pinned() ? 1.0f : 0.0f})});
                   },
                   exact(no_arithmetic),
                   {}});
  cases.push_back({{"fill_"},
                   "full (64, 256) of 0.1, then 2.5 into a slice of 16 columns",
                   [] { return Inputs{torch::zeros({1})}; },  // carries the device
                   [](const Inputs& x) {
                     Tensor t = torch::full({64, 256}, 0.1, on(x[0].device()));
                     t.narrow(1, 8, 16).fill_(2.5);
                     return t;
                   },
                   exact(no_arithmetic),
                   {}});
  cases.push_back({{"empty"},
                   "empty (64, 256): its sizes, dtype and device (its values are undefined)",
                   [] { return Inputs{torch::zeros({1})}; },
                   [](const Inputs& x) {
                     const Tensor e = torch::empty({64, 256}, on(x[0].device()));
                     return torch::tensor({static_cast<float>(e.size(0)), static_cast<float>(e.size(1)),
                                           e.scalar_type() == torch::kFloat ? 1.0f : 0.0f,
                                           e.device() == x[0].device() ? 1.0f : 0.0f});
                   },
                   exact(no_arithmetic),
                   {}});
  return cases;
}

inline const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

// The ops with an OpenCL kernel that no case runs: each is a failure.
inline std::vector<std::string> ops_without_case() {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(c.ops.begin(), c.ops.end());
  std::vector<std::string> missing;
  for (const std::string& op : torch::ops_with_device_kernels(torch::DeviceType::OPENCL))
    if (covered.count(op) == 0) missing.push_back(op);
  return missing;
}

// ---- Running a case ----

struct Result {
  torch::Tensor output;                 // on the CPU
  std::vector<torch::Tensor> gradients;  // on the CPU, one per case.gradients
};

// The case on `device`: inputs copied there as leaves (those with a gradient requiring it), the forward, and
// the backward from `grad_output` (a CPU tensor, copied there).
inline Result evaluate(const Case& c, const Inputs& inputs, const torch::Device& device,
                       const torch::Tensor& grad_output) {
  Inputs leaves;
  for (size_t i = 0; i < inputs.size(); ++i) {
    torch::Tensor leaf = device.is_cpu() ? inputs[i].clone() : inputs[i].to(device);
    for (const Gradient& g : c.gradients)
      if (g.input == static_cast<int>(i)) leaf.requires_grad_();
    leaves.push_back(leaf);
  }
  const torch::Tensor output = c.forward(leaves);
  Result result{output.detach().cpu(), {}};
  if (!c.gradients.empty()) {
    output.backward(device.is_cpu() ? grad_output : grad_output.to(device));
    for (const Gradient& g : c.gradients) result.gradients.push_back(leaves[static_cast<size_t>(g.input)].grad().cpu());
  }
  return result;
}

// Largest |device - CPU| and largest |device - CPU| / scale; equal values count 0 whatever the scale, NaN
// on one side only is NaN (which fails), and a shape mismatch is infinite.
inline void measure_error(const torch::Tensor& device_value, const torch::Tensor& cpu_value, const torch::Tensor& scale,
                          Row& row) {
  if (!device_value.sizes().equals(cpu_value.sizes())) {
    row.max_abs_error = row.max_rel_error = std::numeric_limits<double>::infinity();
    return;
  }
  const torch::Tensor d = device_value.to(torch::kDouble).contiguous();
  const torch::Tensor c = cpu_value.to(torch::kDouble).contiguous();
  const torch::Tensor s = scale.to(torch::kDouble).abs().contiguous();
  const double* dp = d.data_ptr<double>();
  const double* cp = c.data_ptr<double>();
  const double* sp = s.data_ptr<double>();
  bool nan = false;
  for (int64_t i = 0; i < d.numel(); ++i) {
    if (dp[i] == cp[i] || (std::isnan(dp[i]) && std::isnan(cp[i]))) continue;
    const double difference = std::fabs(dp[i] - cp[i]);
    if (std::isnan(difference)) {
      nan = true;
      continue;
    }
    row.max_abs_error = std::max(row.max_abs_error, difference);
    row.max_rel_error = std::max(row.max_rel_error, difference / sp[i]);  // x / 0 = inf: fails
  }
  if (nan) row.max_abs_error = row.max_rel_error = std::numeric_limits<double>::quiet_NaN();
}

// The scale of result `which` (-1: the forward's output; else the gradient at that index).
inline torch::Tensor scale_of(const Case& c, const Check& check, int which, const Inputs& inputs,
                              const torch::Tensor& grad_output, const Result& cpu) {
  const torch::Tensor& cpu_value = which < 0 ? cpu.output : cpu.gradients[static_cast<size_t>(which)];
  switch (check.scale.kind) {
    case Scale::Kind::Value: return cpu_value.abs();
    case Scale::Kind::Custom: {
      torch::NoGradGuard no_grad;
      return check.scale.custom(ScaleContext{inputs, grad_output, cpu.output});
    }
    case Scale::Kind::Terms:
    case Scale::Kind::TermsOfGrad: {
      Inputs positive = inputs;
      if (check.scale.kind == Scale::Kind::Terms)
        for (torch::Tensor& t : positive)
          if (t.is_floating_point()) t = t.abs();
      const Result magnitudes = evaluate(c, positive, torch::Device(torch::kCPU),
                                         grad_output.defined() ? grad_output.abs() : grad_output);
      return which < 0 ? magnitudes.output : magnitudes.gradients[static_cast<size_t>(which)];
    }
  }
  return cpu_value.abs();
}

inline Row row_of(const Case& c, const std::string& pass, const Check& check) {
  Row row;
  row.op = joined(c.ops);
  row.pass = pass;
  row.inputs = c.inputs;
  row.relative_to = check.scale.name;
  row.tolerance = check.tolerance_eps * kEps;
  row.reason = check.reason;
  return row;
}

// Every case on `device` against the CPU: one row for its forward, one per gradient.
inline Report measure(const torch::Device& device) {
  Report report;
  report.ops_without_case = ops_without_case();
  for (const Case& c : cases()) {
    try {
      const Inputs inputs = c.make_inputs();
      torch::Tensor grad_output;
      if (!c.gradients.empty()) {
        torch::NoGradGuard no_grad;
        const torch::Tensor shape_of = c.forward(inputs);
        torch::manual_seed(kSeed + 1);
        grad_output = torch::randn(shape_of.sizes());
      }
      const Result cpu = evaluate(c, inputs, torch::Device(torch::kCPU), grad_output);
      const Result on_device = evaluate(c, inputs, device, grad_output);
      Row forward = row_of(c, "forward", c.forward_check);
      measure_error(on_device.output, cpu.output, scale_of(c, c.forward_check, -1, inputs, grad_output, cpu), forward);
      report.rows.push_back(forward);
      for (size_t i = 0; i < c.gradients.size(); ++i) {
        const Gradient& g = c.gradients[i];
        Row backward = row_of(c, "backward: grad " + g.name, g.check);
        measure_error(on_device.gradients[i], cpu.gradients[i],
                      scale_of(c, g.check, static_cast<int>(i), inputs, grad_output, cpu), backward);
        report.rows.push_back(backward);
      }
    } catch (const std::exception& error) {
      // A kernel that throws is a failing row, with its message where the reason goes.
      Row failed = row_of(c, "forward", c.forward_check);
      failed.max_abs_error = failed.max_rel_error = std::numeric_limits<double>::quiet_NaN();
      failed.reason = std::string("threw: ") + error.what();
      report.rows.push_back(failed);
    }
  }
  return report;
}

}  // namespace device_parity
