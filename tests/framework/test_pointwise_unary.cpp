// LibTorch's pointwise ops of one tensor (src/01_tensor/pointwise_unary.cpp) and the other
// activations (src/02_activations/more_activations.cpp): values against numbers printed by LibTorch
// 1.13 for double, float and integer inputs, result dtypes, in-place and out= forms, errors with
// LibTorch's wording, gradients against central differences, backward node names, and the nn::
// modules' options and printing.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using test_helpers::printed;
using test_helpers::values;
using V = std::vector<double>;
using Unary = std::function<Tensor(const Tensor&)>;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Case {
  const char* name;
  Unary fn;
  V expected;  // LibTorch 1.13's numbers
};

// Element-wise equality with a relative tolerance; NaN matches NaN, infinities match exactly.
void require_close(const Tensor& got, const V& expected, double relative = 1e-12) {
  const V actual = values(got);
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i << ": got " << actual[i] << ", LibTorch " << expected[i]);
    if (std::isnan(expected[i])) {
      CHECK(std::isnan(actual[i]));
    } else if (std::isinf(expected[i])) {
      CHECK(actual[i] == expected[i]);
    } else {
      CHECK(actual[i] == Approx(expected[i]).epsilon(relative).margin(1e-300));
    }
  }
}

void run_cases(const Tensor& input, const std::vector<Case>& cases, double relative = 1e-12) {
  for (const Case& c : cases) {
    INFO(c.name);
    const Tensor result = c.fn(input);
    CHECK(result.scalar_type() == input.scalar_type());
    require_close(result, c.expected, relative);
  }
}

// Analytic gradients of sum(f(x) * w) against central differences (double precision).
void check_gradient(const Unary& f, const Tensor& point, double tolerance = 1e-6) {
  const Tensor x = point.detach().clone().requires_grad_();
  const Tensor output = f(x);
  const Tensor weight = torch::linspace(0.5, 1.5, output.numel(), torch::kDouble).reshape(output.sizes());
  const Tensor analytic = torch::autograd::grad({(output * weight).sum()}, {x})[0];
  const V got = values(analytic);
  Tensor probe = point.detach().clone();
  double* data = probe.data_ptr<double>();
  const double eps = 1e-6;
  for (int64_t j = 0; j < probe.numel(); ++j) {
    const double saved = data[j];
    data[j] = saved + eps;
    const double plus = (f(probe) * weight).sum().item<double>();
    data[j] = saved - eps;
    const double minus = (f(probe) * weight).sum().item<double>();
    data[j] = saved;
    INFO("element " << j);
    CHECK(got[j] == Approx((plus - minus) / (2 * eps)).margin(tolerance).epsilon(1e-5));
  }
}

std::string node_name(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "none"; }

}  // namespace

TEST_CASE("pointwise unary ops give LibTorch's numbers for double inputs", "[pointwise_unary]") {
  const Tensor x = torch::tensor({-1.7, -0.3, 0.4, 2.2}, torch::kDouble);
  run_cases(x, {
      {"sign", [](const Tensor& t) { return t.sign(); }, {-1, -1, 1, 1}},
      {"exp2", [](const Tensor& t) { return torch::exp2(t); }, {0.30778610333622908, 0.81225239635623558, 1.3195079107728942, 4.5947934199881404}},
      {"expm1", [](const Tensor& t) { return t.expm1(); }, {-0.81731647594726531, -0.25918177931828212, 0.49182469764127035, 8.025013499434122}},
      {"reciprocal", [](const Tensor& t) { return torch::reciprocal(t); }, {-0.58823529411764708, -3.3333333333333335, 2.5, 0.45454545454545453}},
      {"sin", [](const Tensor& t) { return t.sin(); }, {-0.99166481045246857, -0.29552020666133955, 0.38941834230865052, 0.80849640381959009}},
      {"cos", [](const Tensor& t) { return torch::cos(t); }, {-0.12884449429552464, 0.95533648912560598, 0.9210609940028851, -0.58850111725534582}},
      {"tan", [](const Tensor& t) { return t.tan(); }, {7.6966021394591611, -0.30933624960962325, 0.42279321873816178, -1.3738230567687946}},
      {"atan", [](const Tensor& t) { return torch::arctan(t); }, {-1.0390722595360911, -0.2914567944778671, 0.3805063771123649, 1.1441688336680205}},
      {"sinh", [](const Tensor& t) { return t.sinh(); }, {-2.6456319338372323, -0.3045202934471426, 0.41075232580281551, 4.4571051705358942}},
      {"cosh", [](const Tensor& t) { return torch::cosh(t); }, {2.8283154578899672, 1.0453385141288605, 1.0810723718384549, 4.5679083288982278}},
      {"asinh", [](const Tensor& t) { return torch::arcsinh(t); }, {-1.3008204268406467, -0.29567304756342244, 0.39003531977071526, 1.529660495090404}},
      {"erf", [](const Tensor& t) { return t.erf(); }, {-0.98379045859077452, -0.32862675945912739, 0.42839235504666845, 0.99813715370201817}},
      {"erfc", [](const Tensor& t) { return torch::erfc(t); }, {1.9837904585907746, 1.3286267594591274, 0.5716076449533315, 0.0018628462979818898}},
      {"sinc", [](const Tensor& t) { return t.sinc(); }, {-0.15148123964720117, 0.85839369133413979, 0.75682672864065703, 0.085044480344421788}},
      {"i0", [](const Tensor& t) { return torch::i0(t); }, {1.8639649620738397, 1.0226268793515967, 1.0404017822293414, 2.6291428635673144}},
      {"deg2rad", [](const Tensor& t) { return t.deg2rad(); }, {-0.029670597283903602, -0.0052359877559829881, 0.0069813170079773184, 0.038397243543875255}},
      {"rad2deg", [](const Tensor& t) { return torch::rad2deg(t); }, {-97.402825172239943, -17.188733853924695, 22.918311805232932, 126.05071492878112}},
      {"ceil", [](const Tensor& t) { return t.ceil(); }, {-1, -0, 1, 3}},
      {"floor", [](const Tensor& t) { return torch::floor(t); }, {-2, -1, 0, 2}},
      {"round", [](const Tensor& t) { return t.round(); }, {-2, -0, 0, 2}},
      {"trunc", [](const Tensor& t) { return torch::fix(t); }, {-1, -0, 0, 2}},
      {"frac", [](const Tensor& t) { return t.frac(); }, {-0.69999999999999996, -0.29999999999999999, 0.40000000000000002, 0.20000000000000018}},
      {"lgamma", [](const Tensor& t) { return torch::lgamma(t); }, {0.92184468769463745, 1.4648400508576025, 0.7966778177017837, 0.09694746679063887}},
      {"digamma", [](const Tensor& t) { return t.digamma(); }, {-1.4857174995110571, 2.1133097796353986, -2.5613845445851151, 0.5442934367411445}},
      {"sigmoid", [](const Tensor& t) { return torch::sigmoid(t); }, {0.1544652650835347, 0.42555748318834102, 0.598687660112452, 0.9002495108803148}},
      {"silu", [](const Tensor& t) { return torch::silu(t); }, {-0.26259095064200899, -0.12766724495650231, 0.23947506404498081, 1.9805489239366929}},
      {"mish", [](const Tensor& t) { return torch::mish(t); }, {-0.28258938060391542, -0.15113317713833455, 0.28903053407236312, 2.1566506288321587}},
      {"softplus", [](const Tensor& t) { return torch::softplus(t); }, {0.16778602938626594, 0.55435524446852713, 0.91301525239995263, 2.3050833197686962}},
      {"elu", [](const Tensor& t) { return torch::elu(t); }, {-0.81731647594726531, -0.25918177931828212, 0.40000000000000002, 2.2000000000000002}},
      {"selu", [](const Tensor& t) { return torch::selu(t); }, {-1.436923557626588, -0.45566731537912203, 0.42028039494219221, 2.3115421721820573}},
      {"celu", [](const Tensor& t) { return torch::celu(t); }, {-0.81731647594726531, -0.25918177931828212, 0.40000000000000002, 2.2000000000000002}},
      {"hardsigmoid", [](const Tensor& t) { return torch::hardsigmoid(t); }, {0.21666666666666667, 0.45000000000000001, 0.56666666666666665, 0.8666666666666667}},
      {"hardswish", [](const Tensor& t) { return torch::hardswish(t); }, {-0.36833333333333335, -0.13500000000000001, 0.22666666666666668, 1.906666666666667}},
      {"hardshrink", [](const Tensor& t) { return t.hardshrink(); }, {-1.7, 0, 0, 2.2000000000000002}},
      {"softshrink", [](const Tensor& t) { return torch::softshrink(t); }, {-1.2, 0, 0, 1.7000000000000002}},
      {"log_sigmoid", [](const Tensor& t) { return torch::log_sigmoid(t); }, {-1.8677860293862658, -0.85435524446852718, -0.5130152523999526, -0.10508331976869589}},
      {"relu6", [](const Tensor& t) { return torch::relu6(t); }, {0, 0, 0.40000000000000002, 2.2000000000000002}},
      {"hardtanh", [](const Tensor& t) { return torch::hardtanh(t); }, {-1, -0.29999999999999999, 0.40000000000000002, 1}},
      {"polygamma1", [](const Tensor& t) { return torch::polygamma(1, t); }, {14.632201633770636, 13.945160267262267, 7.2753565891949377, 0.57293276117178904}},
      {"polygamma2", [](const Tensor& t) { return t.polygamma(2); }, {-69.034549550114193, 67.639081199883137, -32.239128623578367, -0.32062870702852553}},
      {"polygamma3", [](const Tensor& t) { return torch::polygamma(3, t); }, {768.84973453013038, 766.61989041916843, 236.19525903394702, 0.35147634620726159}},
      {"softplus_2_1", [](const Tensor& t) { return torch::softplus(t, 2, 1); }, {0.016414235212432671, 0.21874397524294281, 0.58555033297388892, 2.2000000000000002}},
      {"elu_05_2_15", [](const Tensor& t) { return torch::elu(t, 0.5, 2, 1.5); }, {-0.92191833399884682, -0.36237184837822667, 0.80000000000000004, 4.4000000000000004}},
      {"celu_2", [](const Tensor& t) { return torch::celu(t, 2.0); }, {-1.1451701361025466, -0.27858404714988438, 0.40000000000000002, 2.2000000000000002}},
      {"threshold_0_9", [](const Tensor& t) { return torch::threshold(t, 0.0, 9); }, {9, 9, 0.40000000000000002, 2.2000000000000002}},
      {"round_1", [](const Tensor& t) { return torch::round(t * 3.14159, 1); }, {-5.2999999999999998, -0.90000000000000002, 1.3, 6.9000000000000004}},
      {"round_m1", [](const Tensor& t) { return (t * 31.4159).round(-1); }, {-50, -10, 10, 70}},
  });
  const Tensor unit = torch::tensor({-0.6, 0.1, 0.7}, torch::kDouble);
  run_cases(unit, {
      {"asin", [](const Tensor& t) { return torch::arcsin(t); }, {-0.64350110879328437, 0.1001674211615598, 0.77539749661075297}},
      {"acos", [](const Tensor& t) { return t.acos(); }, {2.2142974355881808, 1.4706289056333368, 0.79539883018414359}},
      {"atanh", [](const Tensor& t) { return t.arctanh(); }, {-0.69314718055994529, 0.10033534773107558, 0.86730052769405308}},
      {"erfinv", [](const Tensor& t) { return torch::erfinv(t); }, {-0.59511608144999484, 0.088855990494257686, 0.73286907795921685}},
      {"logit", [](const Tensor& t) { return torch::logit(t.abs()); }, {0.40546510810816422, -2.1972245773362191, 0.84729786038720345}},
      {"logit_eps", [](const Tensor& t) { return t.logit(0.2); }, {-1.3862943611198906, -1.3862943611198906, 0.84729786038720345}},
  });
  const Tensor positive = torch::tensor({0.3, 1.5, 4.0}, torch::kDouble);
  run_cases(positive, {
      {"log2", [](const Tensor& t) { return torch::log2(t); }, {-1.7369655941662063, 0.58496250072115619, 2}},
      {"log10", [](const Tensor& t) { return t.log10(); }, {-0.52287874528033762, 0.17609125905568124, 0.6020599913279624}},
      {"log1p", [](const Tensor& t) { return torch::log1p(t); }, {0.26236426446749106, 0.91629073187415511, 1.6094379124341003}},
      {"rsqrt", [](const Tensor& t) { return t.rsqrt(); }, {1.8257418583505538, 0.81649658092772615, 0.5}},
      {"digamma", [](const Tensor& t) { return torch::digamma(t); }, {-3.5025242222001332, 0.036489973978576194, 1.2561176684318003}},
      {"lgamma", [](const Tensor& t) { return t.lgamma(); }, {1.0957979948180756, -0.12078223763524522, 1.791759469228055}},
      {"acosh", [](const Tensor& t) { return torch::acosh(t + 1); }, {0.75643291085695963, 1.5667992369724111, 2.2924316695611777}},
      {"mvlgamma2", [](const Tensor& t) { return torch::mvlgamma(t + 1, 2); }, {0.61624981181667715, 0.85704781339761926, 6.2041553441150885}},
      {"mvlgamma3", [](const Tensor& t) { return (t + 1).mvlgamma(3); }, {2.8567776924841528, 1.8809954616117743, 9.1406446991925421}},
      {"polygamma4", [](const Tensor& t) { return torch::polygamma(4, t); }, {-9883.4685554969892, -3.4742498266672253, -0.037500691342112813}},
  });
}

TEST_CASE("pointwise unary ops on float and integer inputs: values and result dtypes", "[pointwise_unary]") {
  const Tensor x = torch::tensor({-1.7, -0.3, 0.4, 2.2}, torch::kFloat);
  const Tensor unit = torch::tensor({-0.6, 0.1, 0.7}, torch::kFloat);
  run_cases(x, {
      {"sin", [](const Tensor& t) { return t.sin(); }, {-0.99166476726531982, -0.29552021622657776, 0.38941836357116699, 0.80849635601043701}},
      {"erf", [](const Tensor& t) { return t.erf(); }, {-0.98379045724868774, -0.32862678170204163, 0.42839235067367554, 0.99813717603683472}},
      {"digamma", [](const Tensor& t) { return t.digamma(); }, {-1.4857182502746582, 2.1133098602294922, -2.5613844394683838, 0.54429352283477783}},
      {"lgamma", [](const Tensor& t) { return t.lgamma(); }, {0.92184478044509888, 1.4648400545120239, 0.79667782783508301, 0.09694749116897583}},
      {"silu", [](const Tensor& t) { return torch::silu(t); }, {-0.26259094476699829, -0.12766724824905396, 0.2394750714302063, 1.9805489778518677}},
      {"mish", [](const Tensor& t) { return torch::mish(t); }, {-0.2825893759727478, -0.15113317966461182, 0.289030522108078, 2.1566505432128906}},
      {"i0", [](const Tensor& t) { return t.i0(); }, {1.8639649152755737, 1.0226268768310547, 1.0404019355773926, 2.6291429996490479}},
  }, 1e-6);
  run_cases(unit, {{"erfinv", [](const Tensor& t) { return t.erfinv(); }, {-0.59511607885360718, 0.088855989277362823, 0.73286902904510498}}}, 1e-6);

  // Integers: floating ops give the default float dtype, abs/sign/square/floor... stay integers.
  const Tensor ints = torch::tensor({-3, -1, 0, 2, 5});
  const Tensor sine = ints.sin();
  REQUIRE(sine.scalar_type() == torch::kFloat);
  require_close(sine, {-0.14112000167369843, -0.84147095680236816, 0, 0.9092974066734314, -0.95892429351806641}, 1e-6);
  REQUIRE(torch::sqrt(ints.abs()).scalar_type() == torch::kFloat);
  require_close(torch::sqrt(ints.abs()), {1.7320507764816284, 1, 0, 1.4142135381698608, 2.2360680103302002}, 1e-6);
  for (const Tensor& kept : {ints.sign(), ints.sgn(), ints.square(), ints.abs(), ints.neg(), ints.ceil(), ints.floor(),
                             ints.round(), ints.trunc(), ints.fix(), ints.nan_to_num(), ints.positive()}) {
    REQUIRE(kept.scalar_type() == torch::kLong);
  }
  REQUIRE(values(ints.sign()) == V{-1, -1, 0, 1, 1});
  REQUIRE(values(torch::square(ints)) == V{9, 1, 0, 4, 25});
  REQUIRE(values(ints.floor()) == values(ints));
  for (const Tensor& floating : {ints.exp2(), ints.expm1(), ints.log2(), ints.rsqrt(), ints.reciprocal(), ints.tan(),
                                 ints.erf(), ints.lgamma(), ints.digamma(), ints.i0(), ints.sinc(), ints.deg2rad(),
                                 ints.logit(), ints.polygamma(1), ints.mvlgamma(1)}) {
    REQUIRE(floating.scalar_type() == torch::kFloat);
  }
  // The narrow integer dtypes keep their dtype too; bool sign stays bool, bool square is Long.
  REQUIRE(torch::abs(torch::arange(-2, 2, torch::kInt)).scalar_type() == torch::kInt);
  REQUIRE(values(torch::abs(torch::arange(-2, 2, torch::kInt))) == V{2, 1, 0, 1});
  REQUIRE(torch::sin(torch::arange(3, torch::kInt)).scalar_type() == torch::kFloat);
  const Tensor flags = torch::tensor({true, false});
  REQUIRE(flags.sign().scalar_type() == torch::kBool);
  REQUIRE(flags.square().scalar_type() == torch::kLong);
  REQUIRE(flags.sqrt().scalar_type() == torch::kFloat);
  // Half: computed in float; rows LibTorch 1.13 has no Half CPU kernel for are refused as there.
  const Tensor half = torch::tensor({0.5, 2.0}).to(torch::kHalf);
  REQUIRE(half.exp2().scalar_type() == torch::kHalf);
  REQUIRE(values(half.exp2()) == V{1.4140625, 4});
  REQUIRE(values(half.isnan()) == V{0, 0});
  REQUIRE_THROWS_WITH(half.sin(), "\"sin_vml_cpu\" not implemented for 'Half'");
  REQUIRE_THROWS_WITH(torch::silu(half), "\"silu_cpu\" not implemented for 'Half'");
  // Predicates are kBool for every input dtype.
  for (const Tensor& predicate : {ints.isnan(), ints.isinf(), ints.isfinite(), ints.isposinf(), ints.isneginf(),
                                  ints.isreal(), ints.signbit(), flags.isnan()}) {
    REQUIRE(predicate.scalar_type() == torch::kBool);
  }
  REQUIRE(values(ints.isfinite()) == V{1, 1, 1, 1, 1});
  REQUIRE(values(ints.signbit()) == V{1, 1, 0, 0, 0});
  // hardtanh, relu6 and threshold take integers; the other activations do not.
  REQUIRE(torch::hardtanh(ints, -2, 2).scalar_type() == torch::kLong);
  REQUIRE(values(torch::hardtanh(ints, -2, 2)) == V{-2, -1, 0, 2, 2});
  REQUIRE(values(torch::relu6(ints * 2)) == V{0, 0, 0, 4, 6});
  REQUIRE(values(torch::threshold(ints, 0, 7)) == V{7, 7, 7, 2, 5});
}

TEST_CASE("special values: NaN, infinities, poles, half-way rounding", "[pointwise_unary]") {
  const Tensor specials = torch::tensor({1.5, kNaN, kInf, -kInf, -0.0, 0.0}, torch::kDouble);
  require_close(torch::nan_to_num(specials), {1.5, 0, 1.7976931348623157e+308, -1.7976931348623157e+308, -0, 0});
  require_close(torch::nan_to_num(specials.to(torch::kFloat)), {1.5, 0, 3.4028234663852886e+38, -3.4028234663852886e+38, -0, 0});
  require_close(specials.nan_to_num(1, 2, 3), {1.5, 1, 2, 3, -0, 0});
  require_close(specials.sign(), {1, 0, 1, -1, 0, 0});
  require_close(specials.signbit(), {0, 0, 0, 1, 1, 0});
  REQUIRE(values(specials.isnan()) == V{0, 1, 0, 0, 0, 0});
  REQUIRE(values(specials.isinf()) == V{0, 0, 1, 1, 0, 0});
  REQUIRE(values(specials.isfinite()) == V{1, 0, 0, 0, 1, 1});
  REQUIRE(values(specials.isposinf()) == V{0, 0, 1, 0, 0, 0});
  REQUIRE(values(specials.isneginf()) == V{0, 0, 0, 1, 0, 0});
  REQUIRE(values(specials.isreal()) == V{1, 1, 1, 1, 1, 1});
  require_close(torch::tensor({0.0, -0.0, -1.0, -2.5, 1e-300}, torch::kDouble).digamma(), {-kInf, kInf, kNaN, 1.1031566406452433, -9.999999999999999e+299});
  require_close(torch::tensor({0.0, -1.0, -2.5}, torch::kDouble).lgamma(), {kInf, kInf, -0.056243716497674047});
  require_close(torch::tensor({-1.0, 1.0, 1.5, 0.0}, torch::kDouble).erfinv(), {-kInf, kInf, kNaN, 0});
  require_close(torch::tensor({0.0, 1.0, 0.5}, torch::kDouble).sinc(), {1, 3.8981718325193755e-17, 0.63661977236758138}, 1e-6);
  require_close(torch::tensor({10.0, -30.0, 100.0}, torch::kDouble).i0(), {2815.716628466254, 781672297823.97754, 1.0737517071310738e+42});
  require_close(torch::tensor({-0.5, -1.5, -1.0}, torch::kDouble).polygamma(2), {-0.82879664423431998, -0.23620405164172825, -kInf}, 1e-10);
  require_close(torch::hardsigmoid(torch::tensor({-3.0, 3.0, 0.0}, torch::kDouble)), {0, 1, 0.5});
  require_close(torch::tensor({-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}, torch::kDouble).round(), {-2, -2, -0, 0, 2, 2});
  require_close(torch::mvlgamma(torch::tensor({-2.5, 0.5, 1.0}, torch::kDouble), 2), {kInf, kInf, 1.1447298858494002});
}

TEST_CASE("in-place methods and functions overwrite self and return it", "[pointwise_unary]") {
  const Tensor x = torch::tensor({-1.7, -0.3, 0.4, 2.2}, torch::kDouble);
  Tensor y = x.clone();
  Tensor& same = y.sin_();
  REQUIRE(&same == &y);
  REQUIRE(torch::allclose(y, x.sin()));
  y = x.clone();
  const Tensor alias = y;  // a handle to the same tensor sees the write
  torch::exp_(y);
  REQUIRE(torch::allclose(alias, x.exp()));
  const std::vector<std::pair<std::function<void(Tensor&)>, Unary>> pairs = {
      {[](Tensor& t) { t.abs_(); }, [](const Tensor& t) { return t.abs(); }},
      {[](Tensor& t) { torch::neg_(t); }, [](const Tensor& t) { return t.neg(); }},
      {[](Tensor& t) { t.negative_(); }, [](const Tensor& t) { return t.negative(); }},
      {[](Tensor& t) { t.sign_(); }, [](const Tensor& t) { return t.sign(); }},
      {[](Tensor& t) { t.sgn_(); }, [](const Tensor& t) { return t.sgn(); }},
      {[](Tensor& t) { torch::exp2_(t); }, [](const Tensor& t) { return t.exp2(); }},
      {[](Tensor& t) { t.expm1_(); }, [](const Tensor& t) { return t.expm1(); }},
      {[](Tensor& t) { torch::square_(t); }, [](const Tensor& t) { return t.square(); }},
      {[](Tensor& t) { t.reciprocal_(); }, [](const Tensor& t) { return t.reciprocal(); }},
      {[](Tensor& t) { t.cos_(); }, [](const Tensor& t) { return t.cos(); }},
      {[](Tensor& t) { torch::tan_(t); }, [](const Tensor& t) { return t.tan(); }},
      {[](Tensor& t) { t.arctan_(); }, [](const Tensor& t) { return t.atan(); }},
      {[](Tensor& t) { t.sinh_(); }, [](const Tensor& t) { return t.sinh(); }},
      {[](Tensor& t) { torch::cosh_(t); }, [](const Tensor& t) { return t.cosh(); }},
      {[](Tensor& t) { t.tanh_(); }, [](const Tensor& t) { return t.tanh(); }},
      {[](Tensor& t) { torch::arcsinh_(t); }, [](const Tensor& t) { return t.asinh(); }},
      {[](Tensor& t) { t.sigmoid_(); }, [](const Tensor& t) { return t.sigmoid(); }},
      {[](Tensor& t) { torch::sigmoid_(t); }, [](const Tensor& t) { return torch::sigmoid(t); }},
      {[](Tensor& t) { t.erf_(); }, [](const Tensor& t) { return t.erf(); }},
      {[](Tensor& t) { torch::erfc_(t); }, [](const Tensor& t) { return t.erfc(); }},
      {[](Tensor& t) { t.lgamma_(); }, [](const Tensor& t) { return t.lgamma(); }},
      {[](Tensor& t) { t.digamma_(); }, [](const Tensor& t) { return t.digamma(); }},
      {[](Tensor& t) { t.polygamma_(1); }, [](const Tensor& t) { return t.polygamma(1); }},
      {[](Tensor& t) { torch::i0_(t); }, [](const Tensor& t) { return t.i0(); }},
      {[](Tensor& t) { t.sinc_(); }, [](const Tensor& t) { return t.sinc(); }},
      {[](Tensor& t) { torch::deg2rad_(t); }, [](const Tensor& t) { return t.deg2rad(); }},
      {[](Tensor& t) { t.rad2deg_(); }, [](const Tensor& t) { return t.rad2deg(); }},
      {[](Tensor& t) { t.ceil_(); }, [](const Tensor& t) { return t.ceil(); }},
      {[](Tensor& t) { torch::floor_(t); }, [](const Tensor& t) { return t.floor(); }},
      {[](Tensor& t) { t.round_(); }, [](const Tensor& t) { return t.round(); }},
      {[](Tensor& t) { torch::round_(t, 1); }, [](const Tensor& t) { return t.round(1); }},
      {[](Tensor& t) { t.trunc_(); }, [](const Tensor& t) { return t.trunc(); }},
      {[](Tensor& t) { torch::fix_(t); }, [](const Tensor& t) { return t.trunc(); }},
      {[](Tensor& t) { t.frac_(); }, [](const Tensor& t) { return t.frac(); }},
      {[](Tensor& t) { t.relu_(); }, [](const Tensor& t) { return t.relu(); }},
      {[](Tensor& t) { torch::relu_(t); }, [](const Tensor& t) { return t.relu(); }},
      {[](Tensor& t) { t.pow_(3); }, [](const Tensor& t) { return t.pow(3); }},
      {[](Tensor& t) { t.clamp_(-1, 1); }, [](const Tensor& t) { return t.clamp(-1, 1); }},
      {[](Tensor& t) { torch::clip_(t, 0); }, [](const Tensor& t) { return t.clamp(0); }},
      {[](Tensor& t) { t.clamp_min_(0.1); }, [](const Tensor& t) { return t.clamp_min(0.1); }},
      {[](Tensor& t) { torch::clamp_max_(t, 0.1); }, [](const Tensor& t) { return torch::clamp_max(t, 0.1); }},
      {[](Tensor& t) { t.nan_to_num_(); }, [](const Tensor& t) { return t.nan_to_num(); }},
      {[](Tensor& t) { torch::silu_(t); }, [](const Tensor& t) { return torch::silu(t); }},
      {[](Tensor& t) { torch::mish_(t); }, [](const Tensor& t) { return torch::mish(t); }},
      {[](Tensor& t) { torch::hardtanh_(t, -0.5, 0.5); }, [](const Tensor& t) { return torch::hardtanh(t, -0.5, 0.5); }},
      {[](Tensor& t) { torch::relu6_(t); }, [](const Tensor& t) { return torch::relu6(t); }},
      {[](Tensor& t) { torch::elu_(t, 0.5); }, [](const Tensor& t) { return torch::elu(t, 0.5); }},
      {[](Tensor& t) { torch::selu_(t); }, [](const Tensor& t) { return torch::selu(t); }},
      {[](Tensor& t) { torch::celu_(t, 2.0); }, [](const Tensor& t) { return torch::celu(t, 2.0); }},
      {[](Tensor& t) { torch::hardsigmoid_(t); }, [](const Tensor& t) { return torch::hardsigmoid(t); }},
      {[](Tensor& t) { torch::hardswish_(t); }, [](const Tensor& t) { return torch::hardswish(t); }},
      {[](Tensor& t) { torch::threshold_(t, 0.0, 5); }, [](const Tensor& t) { return torch::threshold(t, 0.0, 5); }},
  };
  for (size_t i = 0; i < pairs.size(); ++i) {
    INFO("pair " << i);
    Tensor in_place = x.clone();
    pairs[i].first(in_place);
    REQUIRE(torch::allclose(in_place, pairs[i].second(x), 1e-12, 1e-12, true));
  }
  // On a non-contiguous view, the write goes through the view into its base.
  Tensor base = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::kDouble);
  base.t().select(0, 0).square_();
  REQUIRE(values(base) == V{1, 2, 9, 4});
  // Integers stay integers in place where the op keeps them.
  Tensor ints = torch::tensor({-3, 2});
  ints.abs_().neg_().square_();
  REQUIRE(ints.scalar_type() == torch::kLong);
  REQUIRE(values(ints) == V{9, 4});
}

TEST_CASE("out= and outf forms: out's dtype is checked and out is resized", "[pointwise_unary]") {
  const Tensor x = torch::tensor({-1.7, -0.3, 0.4, 2.2}, torch::kFloat);
  Tensor out = torch::empty({0});
  Tensor& returned = torch::sin_out(out, x);
  REQUIRE(&returned == &out);
  REQUIRE(torch::allclose(out, x.sin()));
  Tensor wider = torch::empty({2, 3}, torch::kDouble);
  torch::exp_outf(x, wider);  // floating result written into a wider floating dtype, resized
  REQUIRE(wider.scalar_type() == torch::kDouble);
  REQUIRE(wider.sizes().vec() == std::vector<int64_t>{4});
  REQUIRE(torch::allclose(wider, x.exp().to(torch::kDouble)));
  Tensor flags = torch::empty({4}, torch::kLong);
  torch::isnan_out(flags, x);  // predicates write into any dtype
  REQUIRE(values(flags) == V{0, 0, 0, 0});
  const Tensor ints = torch::tensor({-3, 2});
  Tensor long_out = torch::empty({2}, torch::kLong);
  torch::abs_outf(ints, long_out);
  REQUIRE(values(long_out) == V{3, 2});
  torch::round_out(out, x, 1);
  REQUIRE(torch::allclose(out, x.round(1)));
  torch::clamp_out(out, x, -1, 1);
  REQUIRE(torch::allclose(out, x.clamp(-1, 1)));
  torch::clip_outf(x, 0, std::nullopt, out);
  REQUIRE(torch::allclose(out, x.clamp(0)));
  torch::pow_out(out, x, 2);
  REQUIRE(torch::allclose(out, x.pow(2)));
  torch::polygamma_outf(1, x.abs(), out);
  REQUIRE(torch::allclose(out, x.abs().polygamma(1)));
  torch::hardtanh_out(out, x);
  REQUIRE(torch::allclose(out, torch::hardtanh(x)));
  torch::softplus_outf(x, 2, 1, out);
  REQUIRE(torch::allclose(out, torch::softplus(x, 2, 1)));
  torch::log_sigmoid_out(out, x);
  REQUIRE(torch::allclose(out, torch::log_sigmoid(x)));

  Tensor long_result = torch::empty({4}, torch::kLong);
  REQUIRE_THROWS_WITH(torch::sign_out(long_result, x), "Found dtype Long but expected Float");
  REQUIRE_THROWS_WITH(torch::exp_out(long_result, x), "result type Float can't be cast to the desired output type Long");
  Tensor w = x.clone().requires_grad_();
  REQUIRE_THROWS_WITH(torch::sin_out(out, w),
                      "sin(): functions with out=... arguments don't support automatic differentiation, but one of "
                      "the arguments requires grad.");
}

TEST_CASE("pointwise unary errors use LibTorch's wording", "[pointwise_unary]") {
  const Tensor ints = torch::tensor({-3, 2});
  const Tensor flags = torch::tensor({true, false});
  REQUIRE_THROWS_WITH(torch::frac(ints), "\"frac_cpu\" not implemented for 'Long'");
  REQUIRE_THROWS_WITH(torch::round(ints, 1), "\"round_cpu\" not implemented for 'Long'");
  REQUIRE_THROWS_WITH(torch::floor(flags), "\"floor_vml_cpu\" not implemented for 'Bool'");
  REQUIRE_THROWS_WITH(flags.positive(), "The `+` operator, on a bool tensor is not supported.");
  REQUIRE_THROWS_WITH(ints.clone().exp_(), "result type Float can't be cast to the desired output type Long");
  REQUIRE_THROWS_WITH(ints.clone().sin_(), "result type Float can't be cast to the desired output type Long");
  REQUIRE_THROWS_WITH(flags.clone().sqrt_(), "result type Float can't be cast to the desired output type Bool");
  REQUIRE_THROWS_WITH(flags.clone().square_(), "Found dtype Bool but expected Long");
  REQUIRE_THROWS_WITH(ints.clone().pow_(2.5), "Found dtype Long but expected Float");
  REQUIRE_THROWS_WITH(ints.clone().clamp_(0.5), "result type Float can't be cast to the desired output type long int");
  REQUIRE_THROWS_WITH(flags.clone().abs_(), "\"abs_cpu\" not implemented for 'Bool'");
  REQUIRE_THROWS_WITH(torch::polygamma(-1, ints), "polygamma(n, x) does not support negative n.");
  REQUIRE_THROWS_WITH(torch::mvlgamma(flags, 1), "The input tensor may not be a boolean tensor.");
  REQUIRE_THROWS_WITH(torch::mvlgamma(ints, 0), "p has to be greater than or equal to 1");
  REQUIRE_THROWS_WITH(torch::silu(ints), "\"silu_cpu\" not implemented for 'Long'");
  REQUIRE_THROWS_WITH(torch::mish(ints.to(torch::kInt)), "\"mish_cpu\" not implemented for 'Int'");
  REQUIRE_THROWS_WITH(torch::selu(ints), "\"elu_cpu\" not implemented for 'Long'");
  REQUIRE_THROWS_WITH(torch::hardtanh(flags), "Bool inputs not supported for hardtanh");
  REQUIRE_THROWS_WITH(torch::threshold(flags, 0, 1), "\"threshold_cpu\" not implemented for 'Bool'");
  REQUIRE_THROWS_WITH(torch::softshrink(ints.to(torch::kFloat), -1),
                      "lambda must be greater or equal to 0, but found to be -1.");
  REQUIRE_THROWS_WITH(torch::log_sigmoid(ints), "\"log_sigmoid_cpu\" not implemented for 'Long'");
  REQUIRE_THROWS_WITH(torch::ones({2}).requires_grad_().sin_(),
                      "a leaf Variable that requires grad is being used in an in-place operation.");
}

TEST_CASE("gradcheck: pointwise unary ops and activations", "[pointwise_unary][gradcheck]") {
  const Tensor x = torch::tensor({-1.7, -0.3, 0.4, 2.2, 1.1}, torch::kDouble);  // no kinks at these points
  const Tensor unit = torch::tensor({-0.6, 0.1, 0.7}, torch::kDouble);
  const Tensor positive = torch::tensor({0.3, 1.5, 4.0}, torch::kDouble);
  const std::vector<std::pair<const char*, Unary>> on_x = {
      {"exp2", [](const Tensor& t) { return t.exp2(); }},
      {"expm1", [](const Tensor& t) { return t.expm1(); }},
      {"reciprocal", [](const Tensor& t) { return t.reciprocal(); }},
      {"square", [](const Tensor& t) { return t.square(); }},
      {"sin", [](const Tensor& t) { return t.sin(); }},
      {"cos", [](const Tensor& t) { return t.cos(); }},
      {"tan", [](const Tensor& t) { return (t / 2).tan(); }},
      {"atan", [](const Tensor& t) { return t.atan(); }},
      {"sinh", [](const Tensor& t) { return t.sinh(); }},
      {"cosh", [](const Tensor& t) { return t.cosh(); }},
      {"asinh", [](const Tensor& t) { return t.asinh(); }},
      {"erf", [](const Tensor& t) { return t.erf(); }},
      {"erfc", [](const Tensor& t) { return t.erfc(); }},
      {"lgamma", [](const Tensor& t) { return t.lgamma(); }},
      {"digamma", [](const Tensor& t) { return t.digamma(); }},
      {"polygamma", [](const Tensor& t) { return t.polygamma(1); }},
      {"i0", [](const Tensor& t) { return t.i0(); }},
      {"sinc", [](const Tensor& t) { return t.sinc(); }},
      {"deg2rad", [](const Tensor& t) { return t.deg2rad(); }},
      {"rad2deg", [](const Tensor& t) { return t.rad2deg(); }},
      {"frac", [](const Tensor& t) { return t.frac(); }},
      {"nan_to_num", [](const Tensor& t) { return t.nan_to_num(); }},
      {"floor", [](const Tensor& t) { return t.floor() * t; }},
      {"round", [](const Tensor& t) { return t.round(1) + t.ceil() + t.trunc() + t.sign() * t; }},
      {"clamp_min", [](const Tensor& t) { return t.clamp_min(0.0); }},
      {"clamp_max", [](const Tensor& t) { return t.clamp_max(1.0); }},
      {"silu", [](const Tensor& t) { return torch::silu(t); }},
      {"mish", [](const Tensor& t) { return torch::mish(t); }},
      {"softplus", [](const Tensor& t) { return torch::softplus(t, 2, 3); }},
      {"hardtanh", [](const Tensor& t) { return torch::hardtanh(t, -1, 2); }},
      {"relu6", [](const Tensor& t) { return torch::relu6(t * 3); }},
      {"elu", [](const Tensor& t) { return torch::elu(t, 0.5, 2, 1.5); }},
      {"selu", [](const Tensor& t) { return torch::selu(t); }},
      {"celu", [](const Tensor& t) { return torch::celu(t, 2.0); }},
      {"hardsigmoid", [](const Tensor& t) { return torch::hardsigmoid(t); }},
      {"hardswish", [](const Tensor& t) { return torch::hardswish(t * 2); }},
      {"hardshrink", [](const Tensor& t) { return torch::hardshrink(t, 1); }},
      {"softshrink", [](const Tensor& t) { return torch::softshrink(t, 1); }},
      {"threshold", [](const Tensor& t) { return torch::threshold(t, 0.5, 9); }},
      {"log_sigmoid", [](const Tensor& t) { return torch::log_sigmoid(t); }},
      {"softsign", [](const Tensor& t) { return torch::nn::functional::softsign(t); }},
      {"tanhshrink", [](const Tensor& t) { return torch::nn::functional::tanhshrink(t); }},
  };
  for (const auto& [name, fn] : on_x) {
    INFO(name);
    check_gradient(fn, x);
  }
  const std::vector<std::pair<const char*, Unary>> on_unit = {
      {"asin", [](const Tensor& t) { return t.asin(); }},
      {"acos", [](const Tensor& t) { return t.acos(); }},
      {"atanh", [](const Tensor& t) { return t.atanh(); }},
      {"erfinv", [](const Tensor& t) { return t.erfinv(); }},
      {"logit", [](const Tensor& t) { return t.abs().logit(); }},
      {"logit eps", [](const Tensor& t) { return t.logit(0.2); }},
  };
  for (const auto& [name, fn] : on_unit) {
    INFO(name);
    check_gradient(fn, unit);
  }
  const std::vector<std::pair<const char*, Unary>> on_positive = {
      {"log2", [](const Tensor& t) { return t.log2(); }},
      {"log10", [](const Tensor& t) { return t.log10(); }},
      {"log1p", [](const Tensor& t) { return t.log1p(); }},
      {"rsqrt", [](const Tensor& t) { return t.rsqrt(); }},
      {"acosh", [](const Tensor& t) { return (t + 1).acosh(); }},
      {"mvlgamma", [](const Tensor& t) { return (t + 1).mvlgamma(3); }},
      {"polygamma 3", [](const Tensor& t) { return t.polygamma(3); }},
  };
  for (const auto& [name, fn] : on_positive) {
    INFO(name);
    check_gradient(fn, positive);
  }
  // In-place forms on non-leaf tensors differentiate like their out-of-place forms. A form whose
  // node keeps its result (exp_, sqrt_, sigmoid_, tanh_) ends each chain: writing over a saved result
  // makes LibTorch's backward fail.
  const std::vector<std::pair<const char*, Unary>> in_place = {
      {"sin_", [](const Tensor& t) { return (t * 1).sin_(); }},
      {"log_", [](const Tensor& t) { return (t * t + 1).log_(); }},
      {"sqrt_", [](const Tensor& t) { return (t * t + 0.5).sqrt_(); }},
      {"abs_ neg_ exp_", [](const Tensor& t) { return (t * 1).abs_().neg_().exp_(); }},
      {"pow_ clamp_", [](const Tensor& t) { return (t * 1).pow_(3).clamp_(-2, 3); }},
      {"asinh_ erf_", [](const Tensor& t) { Tensor y = t * 1; y.asinh_(); return y.erf_(); }},
      {"sigmoid_", [](const Tensor& t) { return (t * 1).sigmoid_(); }},
      {"relu_ tanh_", [](const Tensor& t) { return (t * 1).relu_().tanh_(); }},
      {"elu_ celu_ threshold_", [](const Tensor& t) {
         Tensor y = t * 1;
         torch::elu_(y, 0.5);
         torch::celu_(y, 2.0);
         return torch::threshold_(y, 0.5, 3);
       }},
      {"hardtanh_ silu_", [](const Tensor& t) {
         Tensor y = t * 1;
         torch::silu_(y);
         return torch::hardtanh_(y, -0.2, 1.5);
       }},
  };
  for (const auto& [name, fn] : in_place) {
    INFO(name);
    check_gradient(fn, x);
  }
  // Second order through a row whose gradient is made of rows.
  const Tensor w = positive.clone().requires_grad_();
  const Tensor first = torch::autograd::grad({w.lgamma().sum()}, {w}, {}, std::nullopt, true)[0];
  const Tensor second = torch::autograd::grad({first.sum()}, {w})[0];
  REQUIRE(torch::allclose(second, positive.polygamma(1)));
}

TEST_CASE("backward nodes carry LibTorch's names", "[pointwise_unary]") {
  const Tensor w = torch::tensor({0.2, 0.7}, torch::kDouble).requires_grad_();
  REQUIRE(node_name(w.erf()) == "ErfBackward0");
  REQUIRE(node_name(w.sin()) == "SinBackward0");
  REQUIRE(node_name(w.log1p()) == "Log1PBackward0");
  REQUIRE(node_name(w.square()) == "PowBackward0");
  REQUIRE(node_name(w.arcsin()) == "AsinBackward0");
  REQUIRE(node_name(w.fix()) == "TruncBackward0");
  REQUIRE(node_name(w.round(1)) == "RoundBackward1");
  REQUIRE(node_name(w.nan_to_num()) == "NanToNumBackward0");
  REQUIRE(node_name(w.clamp_min(0.5)) == "ClampMinBackward0");
  REQUIRE(node_name(w.clip(0, 1)) == "ClampBackward1");
  REQUIRE(node_name(w.isnan()) == "none");
  REQUIRE(node_name(torch::silu(w)) == "SiluBackward0");
  REQUIRE(node_name(torch::relu6(w)) == "HardtanhBackward0");
  REQUIRE(node_name(torch::selu(w)) == "EluBackward0");
  REQUIRE(node_name(torch::celu(w)) == "CeluBackward0");
  REQUIRE(node_name(torch::log_sigmoid(w)) == "LogSigmoidBackward0");
  Tensor y = w * 1;
  y.acosh_();
  REQUIRE(node_name(y) == "AcoshBackward1");
  y = w * 1;
  y.exp_();
  REQUIRE(node_name(y) == "ExpBackward0");
  y = w * 1;
  torch::elu_(y);
  REQUIRE(node_name(y) == "EluBackward1");
  y = w * 1;
  torch::threshold_(y, 0.5, 0);
  REQUIRE(node_name(y) == "ThresholdBackward1");
}

TEST_CASE("activation options, F:: forms and nn:: modules print as LibTorch's", "[pointwise_unary]") {
  namespace F = torch::nn::functional;
  namespace nn = torch::nn;
  const Tensor x = torch::linspace(-4, 4, 9, torch::kDouble);
  REQUIRE(torch::allclose(F::elu(x, F::ELUFuncOptions().alpha(0.3)), torch::elu(x, 0.3)));
  REQUIRE(torch::allclose(F::softplus(x, F::SoftplusFuncOptions().beta(0.5).threshold(1)), torch::softplus(x, 0.5, 1)));
  REQUIRE(torch::allclose(F::hardshrink(x, F::HardshrinkFuncOptions(2)), torch::hardshrink(x, 2)));
  REQUIRE(torch::allclose(F::softsign(x), x / (x.abs() + 1)));
  REQUIRE(torch::allclose(F::tanhshrink(x), x - x.tanh()));
  REQUIRE(torch::allclose(F::logsigmoid(x), torch::log_sigmoid(x)));
  Tensor y = x.clone();
  const Tensor returned = F::threshold(y, F::ThresholdFuncOptions(0, 9).inplace(true));
  REQUIRE(returned.is_same(y));
  REQUIRE(torch::allclose(y, torch::threshold(x, 0, 9)));
  y = x.clone();
  F::selu(y, true);
  REQUIRE(torch::allclose(y, torch::selu(x)));

  REQUIRE(printed(nn::SiLU()) == "torch::nn::SiLU()");
  REQUIRE(printed(nn::Mish()) == "torch::nn::Mish()");
  REQUIRE(printed(nn::Softplus()) == "torch::nn::Softplus(beta=1, threshold=20)");
  REQUIRE(printed(nn::Softplus(nn::SoftplusOptions().beta(2).threshold(10))) == "torch::nn::Softplus(beta=2, threshold=10)");
  REQUIRE(printed(nn::Hardtanh()) == "torch::nn::Hardtanh(min_val=-1, max_val=1)");
  REQUIRE(printed(nn::Hardtanh(nn::HardtanhOptions().min_val(-2).max_val(3).inplace(true))) ==
          "torch::nn::Hardtanh(min_val=-2, max_val=3, inplace=true)");
  REQUIRE(printed(nn::ReLU6()) == "torch::nn::ReLU6()");
  REQUIRE(printed(nn::ReLU6(nn::ReLU6Options().inplace(true))) == "torch::nn::ReLU6(inplace=true)");
  REQUIRE(printed(nn::ELU()) == "torch::nn::ELU(alpha=1)");
  REQUIRE(printed(nn::ELU(nn::ELUOptions().alpha(0.5))) == "torch::nn::ELU(alpha=0.5)");
  REQUIRE(printed(nn::SELU()) == "torch::nn::SELU()");
  REQUIRE(printed(nn::SELU(nn::SELUOptions(true))) == "torch::nn::SELU(inplace=true)");
  REQUIRE(printed(nn::CELU(nn::CELUOptions().alpha(2.5).inplace(true))) == "torch::nn::CELU(alpha=2.5, inplace=true)");
  REQUIRE(printed(nn::Softsign()) == "torch::nn::Softsign()");
  REQUIRE(printed(nn::Tanhshrink()) == "torch::nn::Tanhshrink()");
  REQUIRE(printed(nn::Hardshrink()) == "torch::nn::Hardshrink(0.5)");
  REQUIRE(printed(nn::Softshrink(nn::SoftshrinkOptions().lambda(1.5))) == "torch::nn::Softshrink(1.5)");
  REQUIRE(printed(nn::Threshold(0.1, 20)) == "torch::nn::Threshold(threshold=0.1, value=20)");
  REQUIRE(printed(nn::Threshold(nn::ThresholdOptions(1, 2).inplace(true))) ==
          "torch::nn::Threshold(threshold=1, value=2, inplace=true)");
  REQUIRE(printed(nn::LogSigmoid()) == "torch::nn::LogSigmoid()");
  REQUIRE_THROWS_WITH(nn::Hardtanh(nn::HardtanhOptions().min_val(2).max_val(1)), "max_val must be greater than min_val");

  nn::Hardtanh clip(nn::HardtanhOptions().min_val(-1).max_val(1).inplace(true));
  y = x.clone();
  clip(y);
  REQUIRE(torch::allclose(y, x.clamp(-1, 1)));
  nn::Softplus softplus;
  REQUIRE(torch::allclose(softplus(x), torch::softplus(x)));
  auto copy = std::dynamic_pointer_cast<nn::ELUImpl>(nn::ELU(nn::ELUOptions().alpha(0.25))->clone());
  REQUIRE(copy->options.alpha() == 0.25);
}
