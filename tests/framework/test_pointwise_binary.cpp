// Pointwise ops of two or three operands (src/01_tensor/pointwise_binary*.cpp): values, dtypes and
// error messages as LibTorch 1.13 gives them (each expected number below was printed by LibTorch
// for the same inputs), broadcasting, the in-place and out= forms, grad_fn names and gradients.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using torch::Tensor;
using V = std::vector<double>;
using S = std::vector<int64_t>;

namespace {

// The inputs every LibTorch check used.
Tensor fa() { return torch::tensor({-3.5f, -2.0f, -0.5f, 0.0f, 1.5f, 2.0f, 7.25f}); }
Tensor fb() { return torch::tensor({2.0f, -1.5f, 0.75f, -2.0f, 0.5f, 3.0f, -2.5f}); }
Tensor la() { return torch::tensor({-7L, -3L, 0L, 5L, 8L, 9L, 6L}); }
Tensor lb() { return torch::tensor({2L, -2L, 3L, -3L, 3L, 4L, -4L}); }
Tensor ba() { return torch::tensor({true, true, false, false, true, false, true}); }
Tensor bb() { return torch::tensor({true, false, true, false, false, false, true}); }

void check_values(const Tensor& t, const V& expected, double tolerance = 1e-6) {
  const V got = values(t);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    if (std::isnan(expected[i])) {
      CHECK(std::isnan(got[i]));
    } else {
      CHECK(got[i] == Approx(expected[i]).epsilon(tolerance).margin(tolerance));
    }
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const torch::Error& e) {
    return e.what();
  }
  return "no error";
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

using Function = std::function<Tensor(const std::vector<Tensor>&)>;

// Analytic gradients of sum(f(inputs) * w) against central differences (double precision).
void check_gradients(const Function& f, std::vector<Tensor> inputs) {
  for (Tensor& input : inputs) input = input.detach().clone().contiguous().requires_grad_();
  const Tensor output = f(inputs);
  const Tensor weight = torch::linspace(0.5, 1.5, output.numel(), torch::kDouble).reshape(output.sizes());
  const Tensor loss = (output * weight).sum();
  const std::vector<Tensor> analytic = torch::autograd::grad({loss}, inputs, {}, std::nullopt, false, true);
  const double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    double* data = inputs[i].data_ptr<double>();
    const V got = analytic[i].defined() ? values(analytic[i]) : V(inputs[i].numel(), 0.0);
    for (int64_t j = 0; j < inputs[i].numel(); ++j) {
      const double saved = data[j];
      data[j] = saved + eps;
      const double plus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved - eps;
      const double minus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved;
      INFO("input " << i << " element " << j);
      CHECK(got[j] == Approx((plus - minus) / (2 * eps)).margin(1e-6).epsilon(1e-5));
    }
  }
}

std::string grad_fn_name(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "none"; }

}  // namespace

TEST_CASE("maximum, minimum, fmax, fmin: values, NaN, promotion", "[pointwise_binary]") {
  check_values(torch::maximum(fa(), fb()), {2, -1.5, 0.75, 0, 1.5, 3, 7.25});
  check_values(fa().minimum(fb()), {-3.5, -2, -0.5, -2, 0.5, 2, -2.5});
  REQUIRE(torch::maximum(la(), fb()).dtype() == torch::kFloat);
  check_values(torch::maximum(la(), fb()), {2, -1.5, 0.75, 5, 8, 9, 6});
  REQUIRE(values(torch::maximum(ba(), bb())) == V{1, 1, 1, 0, 1, 0, 1});
  REQUIRE(torch::minimum(ba(), bb()).dtype() == torch::kBool);
  // A 0-dim double tensor does not promote a float tensor; a long tensor becomes double.
  REQUIRE(torch::maximum(fa(), torch::tensor(2.0, torch::kDouble)).dtype() == torch::kFloat);
  REQUIRE(torch::maximum(la(), torch::tensor(2.5, torch::kDouble)).dtype() == torch::kDouble);
  REQUIRE(torch::maximum(la().to(torch::kInt), la().to(torch::kInt)).dtype() == torch::kInt);
  const Tensor p = torch::tensor({kNaN, 1.0, kNaN});
  const Tensor q = torch::tensor({1.0, kNaN, kNaN});
  check_values(torch::maximum(p, q), {kNaN, kNaN, kNaN});
  check_values(torch::fmax(p, q), {1, 1, kNaN});
  check_values(torch::fmin(p, q), {1, 1, kNaN});
  Tensor longs = torch::empty({7}, torch::kLong);
  check_values(torch::maximum_outf(la(), lb(), longs), {2, -2, 3, 5, 8, 9, 6});
}

TEST_CASE("fmod, remainder, floor_divide and div's rounding modes", "[pointwise_binary]") {
  check_values(torch::fmod(fa(), fb()), {-1.5, -0.5, -0.5, 0, 0, 2, 2.25});
  check_values(torch::fmod(la(), lb()), {-1, -1, 0, 2, 2, 1, 2});
  check_values(torch::remainder(fa(), fb()), {0.5, -0.5, 0.25, 0, 0, 2, -0.25});
  check_values(torch::remainder(la(), lb()), {1, -1, 0, -1, 2, 1, -2});
  check_values(la() % lb(), {1, -1, 0, -1, 2, 1, -2});
  check_values(la() % 3, {2, 0, 0, 2, 2, 0, 0});
  check_values(10 % lb(), {0, 0, 1, -2, 1, 2, -2});
  check_values(torch::floor_divide(fa(), fb()), {-2, 1, -1, -0.0, 3, 0, -3});
  check_values(torch::floor_divide(la(), lb()), {-4, 1, 0, -2, 2, 2, -2});
  check_values(fa().div(fb(), "trunc"), {-1, 1, -0.0, -0.0, 3, 0, -2});
  check_values(la().div(lb(), "trunc"), {-3, 1, 0, -1, 2, 2, -1});
  check_values(torch::div(la(), lb(), "floor"), {-4, 1, 0, -2, 2, 2, -2});
  REQUIRE(la().div(lb(), "floor").dtype() == torch::kLong);
  REQUIRE(la().div(lb(), c10::nullopt).dtype() == torch::kFloat);
  // Number operands.
  check_values(torch::fmod(la(), 2), {-1, -1, 0, 1, 0, 1, 0});
  REQUIRE(torch::fmod(la(), 2.5).dtype() == torch::kFloat);
  check_values(torch::fmod(la(), 2.5), {-2, -0.5, 0, 0, 0.5, 1.5, 1});
  check_values(torch::remainder(la(), -2), {-1, -1, 0, -1, 0, -1, 0});
  check_values(torch::remainder(fa(), -1.5), {-0.5, -0.5, -0.5, 0, 0, -1, -0.25});
  check_values(torch::remainder(5, lb()), {1, -1, 2, -1, 2, 1, -3});
  check_values(torch::remainder(5.5, lb()), {1.5, -0.5, 2.5, -0.5, 2.5, 1.5, -2.5});
  check_values(torch::floor_divide(la(), -2), {3, 1, 0, -3, -4, -5, -3});
  check_values(torch::floor_divide(fa(), 0.75), {-5, -3, -1, 0, 2, 2, 9});
  check_values(la().div(2, "trunc"), {-3, -1, 0, 2, 4, 4, 3});
  check_values(la().div(2, "floor"), {-4, -2, 0, 2, 4, 4, 3});
  check_values(la().divide(2.5, "floor"), {-3, -2, 0, 2, 3, 3, 2});
  // Floating division by zero follows IEEE; integer division by zero is an error.
  check_values(torch::floor_divide(fa(), 0), {-kInf, -kInf, -kInf, kNaN, kInf, kInf, kInf});
  check_values(torch::fmod(fa(), 0), V(7, kNaN));
  for (const auto& f : std::vector<std::function<void()>>{
           [] { torch::fmod(la(), torch::zeros({7}, torch::kLong)); }, [] { torch::remainder(la(), 0); },
           [] { torch::floor_divide(la(), 0); }, [] { la().div(0, "trunc"); }, [] { la().div(0, "floor"); }}) {
    REQUIRE(error_of(f) == "ZeroDivisionError");
  }
  REQUIRE(error_of([] { fa().div(fb(), "round"); }) ==
          "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  REQUIRE(error_of([] { torch::fmod(ba(), bb()); }) == "\"fmod_cpu\" not implemented for 'Bool'");
  REQUIRE(error_of([] { torch::remainder(ba(), bb()); }) == "\"remainder_cpu\" not implemented for 'Bool'");
  REQUIRE(error_of([] { torch::floor_divide(ba(), bb()); }) == "\"div_floor_cpu\" not implemented for 'Bool'");
  REQUIRE(error_of([] { ba().div(bb(), "trunc"); }) == "\"div_trunc_cpu\" not implemented for 'Bool'");
  // Aliases of the arithmetic.
  check_values(fa().multiply(fb()), values(fa() * fb()));
  check_values(torch::subtract(fa(), fb(), 2), values(fa() - 2 * fb()));
  check_values(fa().true_divide(2), values(fa() / 2));
  check_values(la().divide(lb()), values(la() / lb()));
}

TEST_CASE("atan2, hypot, copysign, nextafter, xlogy, logaddexp(2), ldexp, float_power", "[pointwise_binary]") {
  check_values(torch::atan2(fa(), fb()), {-1.0516501665115356, -2.2142975330352783, -0.58800262212753296,
                                          3.1415927410125732, 1.249045729637146, 0.58800262212753296,
                                          1.9028557538986206});
  REQUIRE(torch::atan2(la(), lb()).dtype() == torch::kFloat);
  check_values(torch::arctan2(ba(), bb()), {0.78539818525314331, 1.5707963705062866, 0, 0, 1.5707963705062866, 0,
                                            0.78539818525314331});
  check_values(torch::hypot(fa(), fb()), {4.0311288833618164, 2.5, 0.90138781070709229, 2, 1.5811388492584229,
                                          3.6055512428283691, 7.6689310073852539});
  REQUIRE(error_of([] { torch::hypot(la(), lb()); }) == "\"hypot_cpu\" not implemented for 'Long'");
  REQUIRE(error_of([] { torch::hypot(la().to(torch::kInt), la().to(torch::kInt)); }) ==
          "\"hypot_cpu\" not implemented for 'Int'");
  check_values(torch::copysign(la(), lb()), {7, -3, 0, -5, 8, 9, -6});
  REQUIRE(torch::copysign(la(), -1).dtype() == torch::kFloat);
  check_values(torch::copysign(fa(), -0.0), {-3.5, -2, -0.5, -0.0, -1.5, -2, -7.25});
  REQUIRE(std::signbit(values(torch::copysign(fa(), -0.0))[3]));
  check_values(torch::nextafter(fa(), fb()), {-3.4999997615814209, -1.9999998807907104, -0.49999997019767761,
                                              -1.4012984643248171e-45, 1.4999998807907104, 2.0000002384185791,
                                              7.2499995231628418}, 1e-12);
  REQUIRE(error_of([] { torch::nextafter(la(), lb()); }) == "\"nextafter_cpu\" not implemented for 'Long'");
  check_values(torch::xlogy(fa(), fb()), {-2.4260151386260986, kNaN, 0.14384104311466217, 0, -1.0397207736968994,
                                          2.1972246170043945, kNaN});
  check_values(torch::xlogy(torch::tensor({0.0, 0.0, 1.0}), torch::tensor({0.0, kNaN, 0.0})), {0, kNaN, -kInf});
  check_values(torch::xlogy(2, fb()), {1.3862943649291992, kNaN, -0.57536417245864868, kNaN, -1.3862943649291992,
                                       2.1972246170043945, kNaN});
  check_values(torch::xlogy(la(), 2), {-4.8520302772521973, -2.0794415473937988, 0, 3.465735912322998,
                                       5.5451774597167969, 6.2383246421813965, 4.1588830947875977});
  check_values(torch::logaddexp(fa(), fb()), {2.0040783882141113, -1.0259230136871338, 1.0019290447235107,
                                              0.12692804634571075, 1.8132616281509399, 3.3132617473602295,
                                              7.2500581741333008});
  check_values(torch::logaddexp2(fa(), fb()), {2.0315322875976562, -0.72844666242599487, 1.2563462257385254,
                                               0.32192808389663696, 2.0849623680114746, 3.5849623680114746,
                                               7.2516746520996094});
  REQUIRE(error_of([] { torch::logaddexp(la(), lb()); }) == "\"logaddexp_cpu\" not implemented for 'Long'");
  check_values(torch::ldexp(la(), lb()), {-28, -0.75, 0, 0.625, 64, 144, 0.375});
  REQUIRE(torch::ldexp(ba(), bb()).dtype() == torch::kFloat);
  REQUIRE(torch::float_power(fa(), 2).dtype() == torch::kDouble);
  check_values(torch::float_power(la(), lb()), {49, 0.1111111111111111, 0, 0.008, 512, 6561, 0.0007716049382716049});
  check_values(torch::float_power(2, lb()), {4, 0.25, 8, 0.125, 8, 16, 0.0625});
  check_values(torch::float_power(la(), -1), {-1.0 / 7, -1.0 / 3, kInf, 0.2, 0.125, 1.0 / 9, 1.0 / 6});
  Tensor f = fa().clone();
  REQUIRE(error_of([&] { f.float_power_(fb()); }) ==
          "the base given to float_power_ has dtype Float but the operation's result requires dtype Double");
  Tensor out = torch::empty({7});
  REQUIRE(error_of([&] { torch::float_power_out(out, fa(), fb()); }) ==
          "the output given to float_power has dtype Float but the operation's result requires dtype Double");
  Tensor d = fa().to(torch::kDouble);
  d.float_power_(2);
  check_values(d, {12.25, 4, 0.25, 0, 2.25, 4, 52.5625});
}

TEST_CASE("heaviside, gcd, lcm", "[pointwise_binary]") {
  check_values(torch::heaviside(fa(), fb()), {0, 0, 0, -2, 1, 1, 1});
  check_values(torch::heaviside(la(), lb()), {0, 0, 3, 1, 1, 1, 1});
  REQUIRE(values(torch::heaviside(ba(), bb())) == V{1, 1, 1, 0, 1, 0, 1});
  REQUIRE(error_of([] { torch::heaviside(la(), fb()); }) ==
          "heaviside is not yet implemented for tensors with different dtypes.");
  REQUIRE(values(torch::gcd(torch::tensor({0, 12, -12, 7, 0}), torch::tensor({5, 18, 8, -21, 0}))) ==
          V{5, 6, 4, 7, 0});
  REQUIRE(values(torch::lcm(torch::tensor({0, 12, -12, 7, 4}), torch::tensor({5, 18, 8, -21, 6}))) ==
          V{0, 36, 24, 21, 12});
  REQUIRE(torch::gcd(la().to(torch::kInt), la().to(torch::kInt)).dtype() == torch::kInt);
  REQUIRE(error_of([] { torch::gcd(fa(), fb()); }) == "\"gcd_cpu\" not implemented for 'Float'");
  REQUIRE(error_of([] { torch::lcm(ba(), bb()); }) == "\"lcm_cpu\" not implemented for 'Bool'");
  Tensor g = la().clone();
  g.gcd_(lb());
  REQUIRE(values(g) == V{1, 1, 3, 1, 1, 1, 2});
}

TEST_CASE("lerp, addcmul, addcdiv, dist, isclose", "[pointwise_binary]") {
  check_values(torch::lerp(fa(), fb(), 0.25), {-2.125, -1.875, -0.1875, -0.5, 1.25, 2.25, 4.8125});
  check_values(fa().lerp(fb(), 2), {7.5, -1, 2, -4, -0.5, 4, -12.25});
  check_values(torch::lerp(fa(), fb(), torch::tensor({0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f, -0.5f})),
               {-3.5, -1.875, 0.125, -1.5, 0.5, 3.5, 12.125});
  REQUIRE(shape(torch::lerp(fa(), fb(), torch::ones({2, 1}))) == S{2, 7});
  REQUIRE(error_of([] { torch::lerp(fa(), fa().to(torch::kDouble), 0.5); }) ==
          "expected dtype float for `end` but got dtype double");
  REQUIRE(error_of([] { torch::lerp(fa(), fb(), torch::tensor(0.5, torch::kDouble)); }) ==
          "expected dtype float for `weight` but got dtype double");
  REQUIRE(error_of([] { torch::lerp(la(), lb(), 0.5); }) == "\"lerp_kernel_scalar\" not implemented for 'Long'");
  check_values(torch::addcmul(fa(), fb(), fa(), 0.5), {-7, -0.5, -0.6875, 0, 1.875, 5, -1.8125});
  check_values(torch::addcdiv(fa(), fb(), fa() + 10, 2), {-2.884615421295166, -2.375, -0.34210526943206787,
                                                          -0.40000000596046448, 1.5869565010070801, 2.5,
                                                          6.9601449966430664});
  check_values(torch::addcmul(la(), lb(), la(), 2), {-35, 9, 0, -25, 56, 81, -42});
  check_values(torch::addcmul(la(), lb(), la(), 0.5), {-7, -3, 0, 5, 8, 9, 6});  // value 0.5 -> 0 for integers
  REQUIRE(torch::addcmul(la(), fb(), la()).dtype() == torch::kFloat);
  check_values(torch::addcdiv(la(), fb(), la()), {-7.2857141494750977, -2.5, kInf, 4.5999999046325684, 8.0625,
                                                  9.3333330154418945, 5.5833334922790527});
  REQUIRE_THAT(error_of([] { torch::addcdiv(fa(), lb(), lb()); }),
               Catch::StartsWith("Integer division with addcdiv is no longer supported"));
  REQUIRE(error_of([] { torch::addcmul(ba(), bb(), ba()); }) == "\"addcmul_cpu_out\" not implemented for 'Bool'");
  REQUIRE(shape(torch::addcmul(torch::zeros({2, 1}), torch::ones({3}), torch::ones({1, 3}))) == S{2, 3});
  check_values(torch::dist(fa(), fb()), {11.537981033325195});
  check_values(torch::dist(fa(), fb(), 1), {21});
  check_values(fa().dist(fb(), 0), {7});
  check_values(fa().dist(fb(), kInf), {9.75});
  check_values(fa().dist(fb(), -kInf), {0.5});
  check_values(fa().dist(fb(), 3), {10.339393615722656});
  check_values(torch::dist(torch::zeros({2, 1}), torch::ones({3})), {2.4494898319244385});
  REQUIRE(error_of([] { torch::dist(la(), lb()); }) ==
          "norm(): input dtype should be either floating point or complex. Got Long instead.");
  REQUIRE(values(torch::isclose(torch::tensor({1.0, 1.0, kNaN, kInf, 1.0}),
                                torch::tensor({1.0 + 1e-9, 1.1, kNaN, kInf, 1.001}))) == V{1, 0, 0, 1, 0});
  REQUIRE(values(torch::isclose(torch::tensor({kNaN, 1.0}), torch::tensor({kNaN, 1.0}), 1e-5, 1e-8, true)) ==
          V{1, 1});
  REQUIRE(values(torch::isclose(torch::tensor({1.0, 100.0}), torch::tensor({1.05, 101.0}), 0.02, 0.0)) == V{0, 1});
  REQUIRE(values(torch::isclose(torch::tensor({10, 20}), torch::tensor({11, 22}), 0.1, 0.0)) == V{1, 1});
  REQUIRE(values(torch::isclose(ba(), bb())) == V{1, 0, 0, 1, 0, 1, 1});
  REQUIRE(error_of([] { torch::isclose(la(), fb()); }) == "Long did not match Float");
  REQUIRE(error_of([] { torch::isclose(fa(), fb(), -1.0); }) ==
          "rtol must be greater than or equal to zero, but got -1");
}

TEST_CASE("comparisons in place and their other names", "[pointwise_binary]") {
  Tensor f = fa().clone();
  REQUIRE(f.greater_(0).is_same(f));
  REQUIRE(f.dtype() == torch::kFloat);
  REQUIRE(values(f) == V{0, 0, 0, 0, 1, 1, 1});
  Tensor l = la().clone();
  l.lt_(fb());
  REQUIRE(l.dtype() == torch::kLong);
  REQUIRE(values(l) == V{1, 1, 1, 0, 0, 0, 0});
  Tensor b = ba().clone();
  b.ge_(bb());
  REQUIRE(values(b) == V{1, 1, 0, 1, 1, 1, 1});
  Tensor n = fa().clone();
  n.ne_(2);
  REQUIRE(values(n) == V{1, 1, 1, 1, 1, 0, 1});
  REQUIRE(error_of([] { torch::zeros({3}).eq_(torch::zeros({2, 3})); }) ==
          "output with shape [3] doesn't match the broadcast shape [2, 3]");
  REQUIRE(values(torch::less_equal(la(), 0)) == values(la().le(0)));
  REQUIRE(values(la().not_equal(lb())) == values(la() != lb()));
  REQUIRE(values(torch::greater_equal(fa(), fb())) == values(fa() >= fb()));
  REQUIRE(values(2 < la()) == V{0, 0, 0, 1, 1, 1, 1});
  REQUIRE(values(0 == la()) == V{0, 0, 1, 0, 0, 0, 0});
  Tensor out = torch::empty({7});
  torch::eq_out(out, la(), lb());
  REQUIRE(out.dtype() == torch::kFloat);
  REQUIRE(values(out) == V(7, 0.0));
}

TEST_CASE("logical and bitwise ops, operators, shifts", "[pointwise_binary]") {
  REQUIRE(values(torch::logical_and(fa(), fb())) == V{1, 1, 1, 0, 1, 1, 1});
  REQUIRE(values(torch::logical_or(la().to(torch::kInt), la().to(torch::kInt))) == V{1, 1, 0, 1, 1, 1, 1});
  REQUIRE(values(torch::logical_xor(ba(), bb())) == V{0, 1, 1, 0, 1, 0, 0});
  REQUIRE(torch::logical_xor(la(), fb()).dtype() == torch::kBool);
  REQUIRE(values(torch::logical_not(fa())) == V{0, 0, 0, 1, 0, 0, 0});
  REQUIRE(values(torch::logical_not(torch::tensor({kNaN, 0.0}))) == V{0, 1});
  Tensor f = fa().clone();
  f.logical_and_(fb());
  REQUIRE(f.dtype() == torch::kFloat);
  REQUIRE(values(f) == V{1, 1, 1, 0, 1, 1, 1});
  Tensor l = la().clone();
  l.logical_not_();
  REQUIRE(values(l) == V{0, 0, 1, 0, 0, 0, 0});
  REQUIRE(values(la() & lb()) == V{0, -4, 0, 5, 0, 0, 4});
  REQUIRE(values(la() | 8) == V{-7, -3, 8, 13, 8, 9, 14});
  REQUIRE(values(3 ^ la()) == V{-6, -2, 3, 6, 11, 10, 5});
  REQUIRE(values(ba() ^ bb()) == V{0, 1, 1, 0, 1, 0, 0});
  REQUIRE((ba() & bb()).dtype() == torch::kBool);
  REQUIRE(torch::bitwise_and(ba(), 1).dtype() == torch::kLong);
  REQUIRE(values(torch::bitwise_or(6, la())) == V{-1, -1, 6, 7, 14, 15, 6});
  REQUIRE(values(~la()) == V{6, 2, -1, -6, -9, -10, -7});
  REQUIRE(values(~ba()) == V{0, 0, 1, 1, 0, 1, 0});
  REQUIRE(torch::bitwise_not(la().to(torch::kInt)).dtype() == torch::kInt);
  REQUIRE(values(la().__and__(lb())) == V{0, -4, 0, 5, 0, 0, 4});
  REQUIRE(values(la().__or__(1)) == V{-7, -3, 1, 5, 9, 9, 7});
  REQUIRE(values(la().__lshift__(1)) == V{-14, -6, 0, 10, 16, 18, 12});
  REQUIRE(values(la().__rshift__(lb().abs())) == V{-2, -1, 0, 0, 1, 0, 0});
  REQUIRE(values(la() << 2) == V{-28, -12, 0, 20, 32, 36, 24});
  REQUIRE(values(torch::bitwise_right_shift(la(), 1)) == V{-4, -2, 0, 2, 4, 4, 3});
  REQUIRE(values(torch::bitwise_left_shift(1, lb().abs())) == V{4, 4, 8, 8, 8, 16, 16});
  // LibTorch 1.13 takes the count modulo the shifted width (x86): 64 is 0 for int64, 33 is 1 for int32.
  REQUIRE(values(torch::bitwise_left_shift(la(), 64)) == values(la()));
  REQUIRE(values(torch::bitwise_right_shift(la(), -1)) == V{-1, -1, 0, 0, 0, 0, 0});
  REQUIRE(values(torch::bitwise_left_shift(la().to(torch::kInt), 33)) == V{-14, -6, 0, 10, 16, 18, 12});
  REQUIRE(values(torch::bitwise_right_shift(la().to(torch::kInt), 40)) == V{-1, -1, 0, 0, 0, 0, 0});
  Tensor x = la().clone();
  x &= lb();
  REQUIRE(values(x) == V{0, -4, 0, 5, 0, 0, 4});
  x = la().clone();
  x |= lb();
  REQUIRE(values(x) == V{-5, -1, 3, -3, 11, 13, -2});
  x = la().clone();
  x ^= lb();
  REQUIRE(values(x) == V{-5, 3, 3, -8, 11, 13, -6});
  REQUIRE(error_of([] { torch::bitwise_and(fa(), fb()); }) == "\"bitwise_and_cpu\" not implemented for 'Float'");
  REQUIRE(error_of([] { torch::bitwise_xor(la(), 1.5); }) == "\"bitwise_xor_cpu\" not implemented for 'Float'");
  REQUIRE(error_of([] { torch::bitwise_left_shift(fa(), fb()); }) == "\"lshift_cpu\" not implemented for 'Float'");
  REQUIRE(error_of([] { fa().to(torch::kDouble).bitwise_not(); }) ==
          "\"bitwise_not_cpu\" not implemented for 'Double'");
  Tensor b = ba().clone();
  REQUIRE(error_of([&] { b.bitwise_or_(lb()); }) == "result type Long can't be cast to the desired output type Bool");
}

TEST_CASE("in-place and out= forms: dtype, shape and autograd checks", "[pointwise_binary]") {
  Tensor l = la().clone();
  REQUIRE(error_of([&] { l.fmod_(fb()); }) == "result type Float can't be cast to the desired output type Long");
  Tensor f = fa().clone();
  REQUIRE(error_of([&] { f.atan2_(torch::zeros({2, 7})); }) ==
          "output with shape [7] doesn't match the broadcast shape [2, 7]");
  l.remainder_(lb());
  REQUIRE(values(l) == V{1, -1, 0, -1, 2, 1, -2});
  l = la().clone();
  l.div_(lb(), "trunc");
  REQUIRE(values(l) == V{-3, 1, 0, -1, 2, 2, -1});
  l = la().clone();
  l.pow_(lb().abs());
  REQUIRE(values(l) == V{49, 9, 0, 125, 512, 6561, 1296});
  f = fa().clone();
  f.ldexp_(lb());
  check_values(f, {-14, -0.5, -4, 0, 12, 32, 0.453125});
  // out= resizes and converts.
  Tensor out = torch::empty({0});
  torch::add_out(out, fa(), fb(), 2);
  REQUIRE(shape(out) == S{7});
  check_values(out, {0.5, -5, 1, -4, 2.5, 8, 2.25});
  Tensor doubles = torch::empty({7}, torch::kDouble);
  torch::add_outf(la(), lb(), 1, doubles);
  REQUIRE(values(doubles) == V{-5, -5, 3, 2, 11, 13, 2});
  Tensor longs = torch::empty({7}, torch::kLong);
  REQUIRE(error_of([&] { torch::add_out(longs, fa(), fb()); }) ==
          "result type Float can't be cast to the desired output type Long");
  REQUIRE(error_of([&] { torch::div_out(longs, la(), lb()); }) ==
          "result type Float can't be cast to the desired output type Long");
  torch::div_out(longs, la(), lb(), "trunc");
  REQUIRE(values(longs) == V{-3, 1, 0, -1, 2, 2, -1});
  Tensor expanded = torch::zeros({1}).expand({7});
  REQUIRE_THAT(error_of([&] { torch::add_out(expanded, fa(), fb()); }),
               Catch::StartsWith("unsupported operation: more than one element of the written-to tensor"));
  Tensor floats = torch::empty({7});
  check_values(torch::sub_outf(fa(), fb(), 3, floats), {-9.5, 2.5, -2.75, 6, 0, -7, 14.75});
  check_values(torch::mul_out(floats, fa(), 3), {-10.5, -6, -1.5, 0, 4.5, 6, 21.75});
  check_values(torch::pow_out(floats, 2, fb()), {4, 0.35355338454246521, 1.6817928552627563, 0.25,
                                                 1.4142135381698608, 8, 0.1767766922712326});
  Tensor scalar = torch::empty({});
  check_values(torch::dist_out(scalar, fa(), fb()), {11.537981033325195});
  Tensor bools = torch::empty({7}, torch::kBool);
  REQUIRE(error_of([&] { torch::bitwise_and_out(bools, la(), lb()); }) ==
          "result type Long can't be cast to the desired output type Bool");
  Tensor mask = torch::empty({7}, torch::kLong);
  REQUIRE(values(torch::logical_and_out(mask, la(), lb())) == V{1, 1, 0, 1, 1, 1, 1});
  const Tensor a = fa().requires_grad_();
  REQUIRE(error_of([&] { torch::add_out(floats, a, fb()); }) ==
          "add(): functions with out=... arguments don't support automatic differentiation, but one of the "
          "arguments requires grad.");
  REQUIRE(error_of([&] { torch::maximum_out(floats, a, fb()); }) ==
          "maximum(): functions with out=... arguments don't support automatic differentiation, but one of the "
          "arguments requires grad.");
  {
    torch::NoGradGuard no_grad;
    torch::maximum_out(floats, a, fb());  // allowed without grad mode
  }
}

TEST_CASE("broadcasting and its error", "[pointwise_binary]") {
  REQUIRE(shape(torch::atan2(torch::ones({2, 1}), torch::ones({3}))) == S{2, 3});
  REQUIRE(shape(torch::logical_or(torch::ones({4, 1, 2}), torch::ones({3, 1}))) == S{4, 3, 2});
  const std::string message = "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1";
  REQUIRE(error_of([] { torch::maximum(torch::zeros({2, 3}), torch::zeros({2, 4})); }) == message);
  REQUIRE(error_of([] { torch::bitwise_and(torch::zeros({2, 3}, torch::kLong), torch::zeros({2, 4}, torch::kLong)); }) ==
          message);
  REQUIRE(error_of([] { torch::addcmul(torch::zeros({2, 3}), torch::zeros({3}), torch::zeros({4})); }) == message);
  REQUIRE(error_of([] { torch::lerp(torch::zeros({2, 3}), torch::zeros({3}), torch::zeros({4})); }) == message);
}

TEST_CASE("pointwise binary ops record LibTorch's grad_fn names", "[pointwise_binary][autograd]") {
  const Tensor a = torch::tensor({1.5, -2.0, 3.0}).requires_grad_();
  const Tensor b = torch::tensor({0.5, 4.0, -1.0}).requires_grad_();
  const Tensor w = torch::tensor({0.25, 0.5, 0.75}).requires_grad_();
  REQUIRE(grad_fn_name(torch::maximum(a, b)) == "MaximumBackward0");
  REQUIRE(grad_fn_name(torch::fmin(a, b)) == "FminBackward0");
  REQUIRE(grad_fn_name(torch::fmod(a, b)) == "FmodBackward1");
  REQUIRE(grad_fn_name(torch::fmod(a, 2)) == "FmodBackward0");
  REQUIRE(grad_fn_name(torch::remainder(a, b)) == "RemainderBackward1");
  REQUIRE(grad_fn_name(a.div(b, "trunc")) == "DivBackward2");
  REQUIRE(grad_fn_name(a.div(b, c10::nullopt)) == "DivBackward2");
  REQUIRE(grad_fn_name(a.div(2, "floor")) == "DivBackward3");
  REQUIRE(grad_fn_name(torch::floor_divide(a, b)) == "torch::autograd::NotImplemented");
  REQUIRE(grad_fn_name(torch::atan2(a, b)) == "Atan2Backward0");
  REQUIRE(grad_fn_name(torch::hypot(a, b)) == "HypotBackward0");
  REQUIRE(grad_fn_name(torch::copysign(a, -1)) == "CopysignBackward1");
  REQUIRE(grad_fn_name(torch::nextafter(a, b)) == "NextafterBackward0");
  REQUIRE(grad_fn_name(torch::xlogy(a, b)) == "XlogyBackward0");
  REQUIRE(grad_fn_name(torch::xlogy(2, b)) == "XlogyBackward1");
  REQUIRE(grad_fn_name(torch::xlogy(a, 2)) == "XlogyBackward2");
  REQUIRE(grad_fn_name(torch::logaddexp2(a, b)) == "Logaddexp2Backward0");
  REQUIRE(grad_fn_name(torch::ldexp(a, torch::tensor({1, 2, 3}))) == "MulBackward0");
  REQUIRE(grad_fn_name(torch::float_power(a, b)) == "PowBackward1");
  REQUIRE(grad_fn_name(torch::float_power(2, b)) == "PowBackward2");
  REQUIRE(grad_fn_name(torch::lerp(a, b, 0.5)) == "LerpBackward0");
  REQUIRE(grad_fn_name(torch::lerp(a, b, w)) == "LerpBackward1");
  REQUIRE(grad_fn_name(torch::addcdiv(a, b, w, 2)) == "AddcdivBackward0");
  REQUIRE(grad_fn_name(torch::dist(a, b, 3)) == "DistBackward0");
  REQUIRE(grad_fn_name(torch::pow(2, b)) == "PowBackward2");
  REQUIRE(grad_fn_name(torch::isclose(a, b)) == "none");
  Tensor c = a.clone();
  REQUIRE(grad_fn_name(c.pow_(b)) == "PowBackward1");
  c = a.clone();
  REQUIRE(grad_fn_name(c.eq_(1)) == "EqBackward0");
  c = a.clone();
  REQUIRE(grad_fn_name(c.addcmul_(b, w)) == "AddcmulBackward0");
  REQUIRE(error_of([&] { torch::floor_divide(a, b).sum().backward(); }) ==
          "derivative for aten::floor_divide is not implemented");
  REQUIRE(error_of([&] { torch::nextafter(a, b).sum().backward(); }) ==
          "the derivative for 'nextafter' is not implemented.");
}

TEST_CASE("gradcheck: binary math and three-operand ops", "[pointwise_binary][autograd]") {
  const Tensor x = torch::tensor({{-1.3, 0.4, 2.2}, {0.7, -0.6, 1.1}}, torch::kDouble);
  const Tensor y = torch::tensor({0.9, -1.7, 0.5}, torch::kDouble);  // broadcasts over x's rows
  const Tensor positive = torch::tensor({0.8, 1.9, 0.6}, torch::kDouble);
  const Tensor w = torch::tensor({{0.2}, {0.7}}, torch::kDouble);
  check_gradients([](const std::vector<Tensor>& v) { return torch::maximum(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::minimum(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::fmax(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::fmin(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::fmod(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::remainder(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::remainder(v[0], 0.75); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].div(v[1], c10::nullopt); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::atan2(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::hypot(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::copysign(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::xlogy(v[0], v[1]); }, {x, positive});
  check_gradients([](const std::vector<Tensor>& v) { return torch::xlogy(2.5, v[0]); }, {positive});
  check_gradients([](const std::vector<Tensor>& v) { return torch::xlogy(v[0], 3); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::logaddexp(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::logaddexp2(v[0], v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::ldexp(v[0], torch::tensor({1, -1, 2})); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::float_power(v[0], v[1]); }, {positive, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::pow(2.5, v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::lerp(v[0], v[1], 0.3); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return torch::lerp(v[0], v[1], v[2]); }, {x, y, w});
  check_gradients([](const std::vector<Tensor>& v) { return torch::addcmul(v[0], v[1], v[2], 1.5); }, {x, y, w});
  check_gradients([](const std::vector<Tensor>& v) { return torch::addcdiv(v[0], v[1], v[2], -2); }, {x, y, positive});
  for (double p : {1.0, 1.5, 2.0, 3.0, 0.5, kInf}) {
    INFO("p = " << p);
    check_gradients([p](const std::vector<Tensor>& v) { return torch::dist(v[0], v[1], p); }, {x, y});
  }
  // In place: the rule sees self's value from before the write.
  check_gradients([](const std::vector<Tensor>& v) { return v[0].clone().atan2_(v[1]); }, {x, y});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].clone().pow_(v[1]); }, {positive, y});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].clone().lerp_(v[1], v[2]); }, {x, y, w});
}

TEST_CASE("narrow integer and reduced floating dtypes compute and keep their dtype", "[pointwise_binary]") {
  const Tensor c = torch::arange(-4, 4).to(torch::kChar);
  REQUIRE(torch::fmod(c, 3).dtype() == torch::kChar);
  REQUIRE(values(torch::fmod(c, 3)) == V{-1, 0, -2, -1, 0, 1, 2, 0});
  REQUIRE(values(torch::bitwise_left_shift(c, 9)) == V(8, 0.0));  // C++ shifts int8 as int: 9 bits out
  REQUIRE(values(torch::bitwise_right_shift(torch::arange(0, 8).to(torch::kByte) * 30, 2)) ==
          V{0, 7, 15, 22, 30, 37, 45, 52});
  REQUIRE(values(torch::bitwise_left_shift(torch::arange(1, 5).to(torch::kShort), 17)) == V(4, 0.0));
  REQUIRE(values(torch::gcd(torch::arange(0, 6).to(torch::kInt), torch::full({6}, 4, torch::kInt))) ==
          V{4, 1, 2, 1, 4, 1});
  const Tensor h = torch::linspace(-2, 2, 5).to(torch::kHalf);
  REQUIRE(torch::maximum(h, h + 1).dtype() == torch::kHalf);
  REQUIRE(torch::copysign(h, -1).dtype() == torch::kHalf);
  REQUIRE(error_of([&] { torch::atan2(h, h); }) == "\"atan2_cpu\" not implemented for 'Half'");
  REQUIRE(error_of([&] { torch::lerp(h, h, 0.5); }) == "\"lerp_kernel_scalar\" not implemented for 'Half'");
  REQUIRE(error_of([&] { torch::addcmul(h, h, h); }) == "\"addcmul_cpu_out\" not implemented for 'Half'");
  const Tensor bf = torch::linspace(-2, 2, 5).to(torch::kBFloat16);
  REQUIRE(torch::atan2(bf, bf).dtype() == torch::kBFloat16);
  REQUIRE(error_of([] { torch::bitwise_left_shift(torch::tensor({true}), torch::tensor({true})); }) ==
          "\"lshift_cpu\" not implemented for 'Bool'");
}
