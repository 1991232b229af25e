// LibTorch 1.13's reductions, scans and products beyond the core ones: values, dtypes and errors
// as LibTorch gives them (numbers from LibTorch 1.13 runs), node names, and every differentiable
// op's gradient against central differences.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using Catch::Matchers::Contains;
using test_helpers::shape;
using test_helpers::values;
using torch::Tensor;
using V = std::vector<double>;
using S = std::vector<int64_t>;
using Function = std::function<Tensor(const std::vector<Tensor>&)>;
const double NaN = std::nan("");

bool same_values(const Tensor& t, const V& expected, double tolerance = 1e-4) {
  const V got = values(t);
  if (got.size() != expected.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i]) != std::isnan(got[i])) return false;
    if (!std::isnan(expected[i]) && std::abs(got[i] - expected[i]) > tolerance * (1 + std::abs(expected[i]))) return false;
  }
  return true;
}

std::string node_name(const Tensor& t) { return t.grad_fn() ? t.grad_fn()->name() : "none"; }

// Analytic gradients of sum(f(inputs) * w) against central differences (double inputs).
void check_gradients(const Function& f, std::vector<Tensor> inputs) {
  for (Tensor& input : inputs) input = input.detach().to(torch::kDouble).contiguous().requires_grad_();
  const Tensor output = f(inputs);
  const Tensor weight = torch::linspace(-1, 2, output.numel(), torch::kDouble).reshape(output.sizes());
  const Tensor loss = (output * weight).sum();
  const std::vector<Tensor> analytic = torch::autograd::grad({loss}, inputs, {}, std::nullopt, false, true);
  const double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    double* data = inputs[i].data_ptr<double>();
    const V got = analytic[i].defined() ? values(analytic[i]) : V(inputs[i].numel(), 0.0);
    REQUIRE(got.size() == static_cast<size_t>(inputs[i].numel()));
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

const Tensor x = torch::tensor({3., 1., 4., 1.5, 5., 9., 2., 6.}).reshape({2, 4});
const Tensor xi = torch::tensor({3, 1, 4, 1, 5, 9, 2, 6}).reshape({2, 4});
const Tensor xn = torch::tensor({3., NaN, 4., 1.5, NaN, NaN, 2., 6.}).reshape({2, 4});

}  // namespace

TEST_CASE("median, nanmedian, kthvalue and mode as LibTorch", "[reductions_scans]") {
  CHECK(values(x.median()) == V{3});
  auto [m1, i1] = x.median(1);
  CHECK(values(m1) == V{1.5, 5});
  CHECK(values(i1) == V{3, 0});
  auto [m0, i0] = torch::median(x, 0, true);
  CHECK(shape(m0) == S{1, 4});
  CHECK(values(m0) == V{3, 1, 2, 1.5});
  CHECK(values(i0) == V{0, 0, 1, 0});
  CHECK(xi.median().scalar_type() == torch::kLong);
  CHECK(values(std::get<0>(xi.median(1))) == V{1, 5});
  CHECK(std::isnan(xn.median().item<double>()));
  CHECK(values(std::get<1>(xn.median(1))) == V{1, 0});  // the first NaN
  CHECK(values(xn.nanmedian()) == V{3});
  auto [nm, ni] = xn.nanmedian(1);
  CHECK(values(nm) == V{3, 2});
  CHECK(values(ni) == V{0, 2});
  CHECK(same_values(std::get<0>(xn.nanmedian(0)), V{3, NaN, 2, 1.5}));
  CHECK(values(std::get<1>(xn.nanmedian(0))) == V{0, 0, 1, 0});
  CHECK(values(std::get<0>(torch::tensor(2.5).median(0))) == V{2.5});
  CHECK_THROWS_WITH(torch::tensor({true, false}).median(), "\"median_cpu\" not implemented for 'Bool'");
  CHECK_THROWS_WITH(torch::empty({2, 0}).median(1), "median(): Expected reduction dim 1 to have non-zero size.");

  auto [k1, ki1] = x.kthvalue(2);
  CHECK(values(k1) == V{1.5, 5});
  CHECK(values(ki1) == V{3, 0});
  CHECK(values(std::get<0>(torch::kthvalue(xi, 4, 1))) == V{4, 9});
  CHECK(values(std::get<1>(torch::kthvalue(xi, 4, 1))) == V{2, 1});
  CHECK(values(std::get<1>(xn.kthvalue(2, 1))) == V{0, 3});
  CHECK_THROWS_WITH(x.kthvalue(5), "kthvalue(): selected number k out of range for dimension 1");
  CHECK_THROWS_WITH(x.kthvalue(3, 0), "kthvalue(): selected number k out of range for dimension 0");

  const Tensor m = torch::tensor({1, 2, 2, 3, 3, 1, 1, 0, 5, 5, 4, 4}).reshape({2, 6});
  auto [mode_values, mode_indices] = m.mode();
  CHECK(values(mode_values) == V{1, 4});
  CHECK(values(mode_indices) == V{5, 5});
  CHECK(values(std::get<0>(m.mode(0))) == V{1, 0, 2, 3, 3, 1});
  CHECK(values(std::get<1>(m.mode(0))) == V{1, 1, 0, 0, 0, 0});
  CHECK(shape(std::get<0>(torch::mode(m.to(torch::kFloat), 1, true))) == S{2, 1});
}

TEST_CASE("aminmax, max(other), min(other)", "[reductions_scans]") {
  auto [lo, hi] = x.aminmax();
  CHECK(values(lo) == V{1});
  CHECK(values(hi) == V{9});
  CHECK(values(std::get<0>(x.aminmax(1))) == V{1, 2});
  CHECK(values(std::get<1>(torch::aminmax(x, 0, true))) == V{5, 9, 4, 6});
  CHECK(shape(std::get<1>(torch::aminmax(x, 0, true))) == S{1, 4});
  CHECK(std::get<0>(torch::tensor({true, false}).aminmax()).scalar_type() == torch::kBool);
  CHECK(shape(std::get<0>(torch::empty({2, 0}).aminmax(0))) == S{0});
  CHECK_THROWS_WITH(torch::empty({0}).aminmax(),
                    "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  CHECK_THROWS_WITH(torch::empty({2, 0}).aminmax(1), "aminmax: Expected reduction dim 1 to have non-zero size.");
  CHECK(same_values(x.max(torch::tensor({2., 2., 5., NaN})), V{3, 2, 5, NaN, 5, 9, 5, NaN}));
  const Tensor low = xi.min(torch::tensor({2., 2., 5., 1.}));
  CHECK(low.scalar_type() == torch::kFloat);
  CHECK(values(low) == V{2, 1, 4, 1, 2, 2, 2, 1});
  CHECK(values(torch::max(xi, torch::tensor({2, 2, 5, 1}))) == V{3, 2, 5, 1, 5, 9, 5, 6});
}

TEST_CASE("nansum, nanmean, count_nonzero, all/any along a dim", "[reductions_scans]") {
  CHECK(values(xn.nansum()) == V{16.5});
  CHECK(values(xn.nansum(1)) == V{8.5, 8});
  CHECK(shape(torch::nansum(xn, {0}, true)) == S{1, 4});
  CHECK(values(xi.nansum()) == V{31});
  CHECK(xi.nansum(1, false, torch::kDouble).scalar_type() == torch::kDouble);
  CHECK(torch::tensor({true, true}).nansum().scalar_type() == torch::kLong);
  CHECK(same_values(xn.nanmean(), V{3.3}));
  CHECK(same_values(xn.nanmean(1), V{2.8333, 4}));
  CHECK_THROWS_WITH(xi.nanmean(), "nanmean(): expected input to have floating point dtype but got Long");
  const Tensor z = torch::tensor({0., 1., 0., 2., 3., 0.}).reshape({2, 3});
  CHECK(values(z.count_nonzero()) == V{3});
  CHECK(values(z.count_nonzero(std::optional<int64_t>(0))) == V{1, 2, 0});
  CHECK(values(torch::count_nonzero(z, {0, 1})) == V{3});
  CHECK(z.count_nonzero().scalar_type() == torch::kLong);
  CHECK_THROWS_WITH(z.count_nonzero({0, 0}), "dim 0 appears multiple times in the list of dims");
  CHECK(values(z.all(1)) == V{0, 0});
  CHECK(z.all(1).scalar_type() == torch::kBool);
  CHECK(values(torch::any(z, 0, true)) == V{1, 1, 0});
  CHECK(torch::tensor({1, 0}).to(torch::kByte).all(0).scalar_type() == torch::kByte);
  CHECK(values(torch::empty({0, 2}).all(0)) == V{1, 1});
  CHECK(values(torch::empty({0, 2}).any(0)) == V{0, 0});
  CHECK(values(z.argwhere()) == V{0, 1, 1, 0, 1, 1});
  CHECK(shape(torch::tensor(1.).argwhere()) == S{1, 0});
  CHECK(z.nonzero_numpy().size() == 2);
}

TEST_CASE("bincount, histc, diff, renorm, is_nonzero", "[reductions_scans]") {
  const Tensor b = torch::tensor({1, 1, 3, 0, 5, 3});
  CHECK(values(b.bincount()) == V{1, 2, 0, 2, 0, 1});
  CHECK(values(torch::bincount(b, {}, 8)) == V{1, 2, 0, 2, 0, 1, 0, 0});
  const Tensor weighted = b.bincount(torch::linspace(0, 1, 6));
  CHECK(weighted.scalar_type() == torch::kFloat);
  CHECK(same_values(weighted, V{0.6, 0.2, 0, 1.4, 0, 0.8}));
  CHECK(b.bincount(torch::tensor({1, 2, 3, 4, 5, 6})).scalar_type() == torch::kDouble);
  CHECK(values(torch::empty({0}, torch::kLong).bincount({}, 3)) == V{0, 0, 0});
  CHECK_THROWS_WITH(torch::tensor({1, -1}).bincount(), "bincount only supports 1-d non-negative integral inputs.");
  CHECK_THROWS_WITH(torch::tensor({1., 2.}).bincount(), "\"bincount_cpu\" not implemented for 'Float'");
  CHECK_THROWS_WITH(b.bincount(torch::ones({3})), "weights should be 1-d and have the same length as input");
  CHECK_THROWS_WITH(b.bincount({}, -1), "minlength should be >= 0");

  const Tensor h = torch::tensor({1., 2., 1., 2.5, 4., 0.5});
  CHECK(values(h.histc(4)) == V{3, 1, 1, 1});
  CHECK(values(h.histc(4, 0, 3)) == V{1, 2, 1, 1});
  CHECK(values(h.histc(3, 1, 1)) == V{3, 2, 1});
  CHECK(values(torch::histc(h.to(torch::kDouble), 5, 0.5, 4.5)) == V{3, 1, 1, 0, 1});
  CHECK(values(torch::ones({3}).histc(2)) == V{0, 3});
  CHECK_THROWS_WITH(h.to(torch::kLong).histc(), "\"histogram_cpu\" not implemented for 'Long'");
  CHECK_THROWS_WITH(h.histc(0), "torch.histogram(): bins must be > 0, but got 0 for dimension 0");
  CHECK_THROWS_WITH(h.histc(4, 3, 1), "torch.histc: max must be larger than min");

  const Tensor d = torch::tensor({1., 3., 6., 10., 15., 21.}).reshape({2, 3});
  CHECK(values(d.diff()) == V{2, 3, 5, 6});
  CHECK(values(d.diff(1, 0)) == V{9, 12, 15});
  CHECK(values(torch::diff(d, 2)) == V{1, 1});
  CHECK(values(d.diff(1, -1, torch::zeros({2, 1}), torch::ones({2, 2}))) == V{1, 2, 3, -5, 0, 10, 5, 6, -20, 0});
  CHECK(values(torch::tensor({true, false, false, true}).diff()) == V{1, 0, 1});
  CHECK(shape(d.diff(4)) == S{2, 0});
  CHECK_THROWS_WITH(torch::tensor(1.).diff(), "diff expects input to be at least one-dimensional");
  CHECK_THROWS_WITH(d.diff(1, -1, torch::zeros({3, 1})),
                    "diff expects the shape of tensor to prepend or append to match that of input except along the "
                    "differencing dimension; input.size(0) = 2, but got tensor.size(0) = 3");

  const Tensor r = torch::arange(1, 10, torch::kFloat).reshape({3, 3});
  CHECK(same_values(r.renorm(2, 0, 5), V{1, 2, 3, 2.2792, 2.8490, 3.4188, 2.5129, 2.8718, 3.2308}));
  CHECK(same_values(torch::renorm(r, 1, 1, 10), V{0.8333, 1.3333, 1.6667, 3.3333, 3.3333, 3.3333, 5.8333, 5.3333, 5}));
  Tensor rr = r.clone();
  rr.renorm_(2, 0, 5);
  CHECK(same_values(rr, values(r.renorm(2, 0, 5))));
  CHECK_THROWS_WITH(r.renorm(-1, 0, 5), "renorm: non-positive-norm not supported");
  CHECK_THROWS_WITH(r.renorm(2, 0, -1), "renorm: expected maxnorm to be >= 0 but got -1");

  CHECK(torch::tensor({2.}).is_nonzero());
  CHECK_FALSE(torch::tensor(0.).is_nonzero());
  CHECK_THROWS_WITH(torch::ones({2}).is_nonzero(), "Boolean value of Tensor with more than one value is ambiguous");
  CHECK_THROWS_WITH(torch::ones({0}).is_nonzero(), "Boolean value of Tensor with no values is ambiguous");
  CHECK(x.is_same_size(xi));
  CHECK_FALSE(x.is_same_size(d));
}

TEST_CASE("scans: cumprod, cumsum_, cummax, cummin, logcumsumexp", "[reductions_scans]") {
  const Tensor d = torch::tensor({1., 3., 6., 10., 15., 21.}).reshape({2, 3});
  CHECK(values(d.cumprod(1)) == V{1, 3, 18, 10, 150, 3150});
  CHECK(values(torch::cumprod(xi, 0)) == V{3, 1, 4, 1, 15, 9, 8, 6});
  CHECK(xi.cumprod(1, torch::kDouble).scalar_type() == torch::kDouble);
  CHECK(torch::tensor({true, true, false}).cumprod(0).scalar_type() == torch::kLong);
  Tensor c = d.clone();
  c.cumprod_(1);
  CHECK(values(c) == V{1, 3, 18, 10, 150, 3150});
  Tensor ci = xi.clone();
  ci.cumsum_(1);
  CHECK(values(ci) == V{3, 4, 8, 9, 5, 14, 16, 22});
  CHECK_THROWS_WITH(xi.clone().cumprod_(1, torch::kFloat),
                    "Bad in-place call: input tensor dtype long int and output tensor dtype float should match");

  const Tensor cm = torch::tensor({1., 3., 2., 3., 0., 5., NaN, 1.});
  auto [max_values, max_indices] = cm.cummax(0);
  CHECK(same_values(max_values, V{1, 3, 3, 3, 3, 5, NaN, NaN}));
  CHECK(values(max_indices) == V{0, 1, 1, 3, 3, 5, 6, 6});
  auto [min_values, min_indices] = torch::cummin(cm, 0);
  CHECK(same_values(min_values, V{1, 1, 1, 1, 0, 0, NaN, NaN}));
  CHECK(values(min_indices) == V{0, 0, 0, 0, 4, 4, 6, 6});
  CHECK(values(std::get<1>(xi.cummax(1))) == V{0, 0, 2, 2, 0, 1, 1, 1});
  CHECK(values(std::get<1>(torch::tensor({true, false, true}).cummax(0))) == V{0, 0, 2});

  CHECK(same_values(d.logcumsumexp(1), V{1, 3.1269, 6.0550, 10, 15.0067, 21.0025}));
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(values(torch::tensor({-inf, -inf, 1.}).logcumsumexp(0)) == V{-inf, -inf, 1});
  CHECK_THROWS_WITH(xi.logcumsumexp(0), "\"logcumsumexp_out_cpu\" not implemented for 'Long'");
}

TEST_CASE("std_mean, var_mean and the unique family", "[reductions_scans]") {
  const Tensor d = torch::tensor({1., 3., 6., 10., 15., 21.}).reshape({2, 3});
  auto [s, m] = torch::std_mean(d);
  CHECK(same_values(s, V{7.60701}));
  CHECK(same_values(m, V{9.33333}));
  CHECK(same_values(std::get<0>(torch::std_mean(d, {1})), V{2.5166, 5.5076}));
  auto [v0, m0] = torch::var_mean(d, {0}, false, true);
  CHECK(shape(v0) == S{1, 3});
  CHECK(same_values(v0, V{20.25, 36, 56.25}));
  CHECK(same_values(m0, V{5.5, 9, 13.5}));
  CHECK(same_values(std::get<0>(torch::var_mean(d, {1}, std::optional<int64_t>(0))), V{4.2222, 20.2222}));
  CHECK(same_values(std::get<0>(torch::var_mean(d, false)), V{48.2222}));
  CHECK_THROWS_WITH(torch::var_mean(xi), "var_mean only support floating point and complex dtypes");

  const Tensor u = torch::tensor({2, 2, 1, 1, 3, 2, 2});
  auto [cv, ci, cc] = torch::unique_consecutive(u, true, true);
  CHECK(values(cv) == V{2, 1, 3, 2});
  CHECK(values(ci) == V{0, 0, 1, 1, 2, 3, 3});
  CHECK(values(cc) == V{2, 2, 1, 2});
  CHECK(shape(std::get<1>(torch::unique_consecutive(u))) == S{0});
  auto [uv, ui, uc] = torch::_unique2(u, true, true, true);
  CHECK(values(uv) == V{1, 2, 3});
  CHECK(values(ui) == V{1, 1, 0, 0, 2, 1, 1});
  CHECK(values(uc) == V{2, 4, 1});
  const Tensor ud = torch::tensor({1, 2, 1, 2, 0, 0, 1, 2}).reshape({4, 2});
  auto [dv, di, dc] = torch::unique_dim(ud, 0, true, true, true);
  CHECK(values(dv) == V{0, 0, 1, 2});
  CHECK(values(di) == V{1, 1, 0, 1});
  CHECK(values(dc) == V{1, 3});
  auto [qv, qi, qc] = torch::unique_consecutive(ud, true, true, 0);
  CHECK(values(qv) == V{1, 2, 0, 0, 1, 2});
  CHECK(values(qi) == V{0, 0, 1, 2});
  CHECK(values(qc) == V{2, 1, 1});
}

TEST_CASE("dot, vdot, inner, outer, mv and the add-a-product family", "[reductions_scans]") {
  const Tensor a = torch::arange(1, 4, torch::kFloat), bv = torch::arange(4, 7, torch::kFloat), ai = torch::arange(1, 4);
  const Tensor M = torch::arange(6, torch::kFloat).reshape({2, 3});
  CHECK(values(a.dot(bv)) == V{32});
  CHECK(torch::dot(ai, ai).scalar_type() == torch::kLong);
  CHECK(values(torch::vdot(a, bv)) == V{32});
  CHECK_THROWS_WITH(a.dot(ai), "dot : expected both vectors to have same dtype, but found Float and Long");
  CHECK_THROWS_WITH(M.dot(a), "1D tensors expected, but got 2D and 1D tensors");
  CHECK_THROWS_WITH(a.dot(torch::ones({4})), "inconsistent tensor size, expected tensor [3] and src [4] to have the "
                                             "same number of elements, but got 3 and 4 elements respectively");
  CHECK(values(M.inner(a)) == V{8, 26});
  CHECK(values(torch::inner(M, M)) == V{5, 14, 14, 50});
  CHECK(values(torch::tensor(2.).inner(M)) == V{0, 2, 4, 6, 8, 10});
  CHECK_THROWS_WITH(M.inner(torch::ones({2})),
                    "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [2]");
  CHECK(values(ai.outer(bv)) == V{4, 5, 6, 8, 10, 12, 12, 15, 18});
  CHECK(ai.outer(bv).scalar_type() == torch::kFloat);
  CHECK(values(torch::ger(a, ai)) == V{1, 2, 3, 2, 4, 6, 3, 6, 9});
  CHECK_THROWS_WITH(M.outer(a), "outer: Expected 1-D argument self, but got 2-D");

  CHECK(values(M.mv(a)) == V{8, 26});
  CHECK_THROWS_WITH(M.mv(torch::ones({2})), "size mismatch, got 2, 2x3,2");
  CHECK_THROWS_WITH(a.mv(a), "vector + matrix @ vector expected, got 1, 1, 1");
  CHECK_THROWS_WITH(M.mv(ai), "expected scalar type Float but found Long");
  CHECK(values(torch::ones({2}).addmv(M, a, 0.5, 2)) == V{16.5, 52.5});
  CHECK(values(torch::addmv(torch::tensor(1.), M, a)) == V{9, 27});
  CHECK_THROWS_WITH(torch::ones({3}).addmv(M, a), "size mismatch, got 3, 2x3,3");
  Tensor s = torch::ones({2});
  s.addmv_(M, a, 2, 1);
  CHECK(values(s) == V{10, 28});

  CHECK(values(torch::zeros({3, 3}).addr(a, bv, 1, 2)) == V{8, 10, 12, 16, 20, 24, 24, 30, 36});
  CHECK(values(torch::addr(torch::ones({3}), a, bv)) == V{5, 6, 7, 9, 11, 13, 13, 16, 19});
  CHECK_THROWS_WITH(torch::ones({3, 3}).addr(M, a), "addr: Expected 1-D argument vec1, but got 2-D");

  const Tensor B1 = torch::arange(12, torch::kFloat).reshape({2, 2, 3});
  const Tensor B2 = torch::arange(12, torch::kFloat).reshape({2, 3, 2}) / 4;
  CHECK(values(torch::ones({2, 2}).baddbmm(B1, B2, 0.5, 2)) == V{5.5, 7, 14.5, 20.5, 86.5, 97, 122.5, 137.5});
  CHECK(values(torch::addbmm(torch::ones({2, 2}), B1, B2, 2, 0.5)) == V{24.75, 27.75, 36, 41.25});
  CHECK_THROWS_WITH(torch::ones({2, 2}).addbmm(B1, B2.reshape({3, 2, 2})),
                    "batch1 and batch2 must have same number of batches, got 2 and 3");
  CHECK_THROWS_WITH(torch::ones({2, 2}).baddbmm(M, M), Contains("Dimension out of range"));
  Tensor s3 = torch::ones({2, 2, 2});
  s3.baddbmm_(B1, B2);
  CHECK(values(s3) == V{3.5, 4.25, 8, 11, 44, 49.25, 62, 69.5});
  Tensor s2 = torch::ones({2, 2});
  s2.addbmm_(B1, B2, 0, 1);
  CHECK(values(s2) == V{45.5, 51.5, 68, 78.5});
  Tensor s4 = torch::ones({2, 2});
  s4.addmm_(M, M.t(), 2, 0.5);
  CHECK(values(s4) == V{4.5, 9, 9, 27});
  CHECK_THROWS_WITH(torch::ones({2}).addmm_(M, M.t()),
                    "Bad in-place call: input tensor size [2] and output tensor size [2, 2] should match");
}

TEST_CASE("matrix_power, kron, trace, cross, tensordot, chain_matmul, multi_dot", "[reductions_scans]") {
  const Tensor Q = torch::tensor({1., 2., 3., 4.}).reshape({2, 2});
  const Tensor M = torch::arange(6, torch::kFloat).reshape({2, 3}), Mi = torch::arange(6).reshape({2, 3});
  CHECK(values(Q.matrix_power(0)) == V{1, 0, 0, 1});
  CHECK(values(Q.matrix_power(3)) == V{37, 54, 81, 118});
  CHECK(same_values(Q.matrix_power(-1), V{-2, 1, 1.5, -0.5}));
  CHECK(same_values(torch::matrix_power(Q, -2), V{5.5, -2.5, -3.75, 1.75}));
  CHECK(values(Q.to(torch::kLong).matrix_power(5)) == V{1069, 1558, 2337, 3406});
  CHECK(values(torch::stack({Q, Q * 2}).matrix_power(2)) == V{7, 10, 15, 22, 28, 40, 60, 88});
  CHECK_THROWS_WITH(M.matrix_power(2),
                    "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices");
  CHECK_THROWS_WITH(torch::ones({3}).matrix_power(2),
                    "linalg.matrix_power: The input tensor A must have at least 2 dimensions.");
  CHECK_THROWS_WITH(Q.to(torch::kLong).matrix_power(-1),
                    "linalg.inv: Expected a floating point or complex tensor as input. Got Long");

  CHECK(values(Q.kron(torch::tensor({1., 10.}))) == V{1, 10, 2, 20, 3, 30, 4, 40});
  const Tensor k = torch::kron(Q, Mi);
  CHECK(shape(k) == S{4, 6});
  CHECK(values(k.select(0, 3)) == V{9, 12, 15, 12, 16, 20});
  CHECK(shape(Mi.kron(torch::arange(1, 4))) == S{2, 9});

  CHECK(values(M.trace()) == V{4});
  CHECK(Mi.trace().scalar_type() == torch::kLong);
  CHECK_THROWS_WITH(torch::ones({3}).trace(), "trace: expected a matrix, but got tensor with dim 1");

  const Tensor C1 = torch::tensor({1., 0., 0., 0., 1., 0.}).reshape({2, 3});
  const Tensor C2 = torch::tensor({0., 1., 0., 0., 0., 1.}).reshape({2, 3});
  CHECK(values(C1.cross(C2)) == V{0, 0, 1, 1, 0, 0});
  CHECK(values(torch::cross(torch::arange(1, 4, torch::kFloat), torch::arange(4, 7, torch::kFloat))) == V{-3, 6, -3});
  CHECK(values(torch::linalg::cross(C1, C2)) == V{0, 0, 1, 1, 0, 0});
  CHECK(values(torch::cross(torch::ones({3, 3}), torch::arange(9, torch::kFloat).reshape({3, 3}))) ==
        V{3, 3, 3, -6, -6, -6, 3, 3, 3});
  CHECK_THROWS_WITH(C1.cross(C2, 0), "linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2");
  CHECK_THROWS_WITH(torch::ones({2, 2}).cross(torch::ones({2, 2})), "no dimension of size 3 in input");

  const Tensor B1 = torch::arange(12, torch::kFloat).reshape({2, 2, 3});
  const Tensor B2 = torch::arange(12, torch::kFloat).reshape({2, 3, 2}) / 4;
  CHECK(values(torch::tensordot(B1, B2, {1, 2}, {2, 1})) == V{12.5, 35, 35, 111.5});
  CHECK(shape(torch::tensordot(torch::ones({3}), torch::ones({4}), {}, {})) == S{3, 4});
  CHECK_THROWS_WITH(torch::tensordot(M, M, {1}, {0}),
                    "contracted dimensions need to match, but first has size 3 in dim 1 and second has size 2 in dim 0");
  CHECK_THROWS_WITH(torch::tensordot(M, M, {0, 1}, {0}), "both dimension lists should have same length");

  const Tensor E1 = torch::arange(6, torch::kFloat).reshape({2, 3}), E2 = torch::arange(12, torch::kFloat).reshape({3, 4});
  CHECK(values(torch::chain_matmul({E1, E2, torch::ones({4, 2})})) == V{98, 98, 296, 296});
  CHECK(values(torch::linalg::multi_dot({torch::arange(1, 4, torch::kFloat), E1.t(), torch::tensor({4., 5.})})) ==
        V{162});
  CHECK_THROWS_WITH(torch::chain_matmul({}), "chain_matmul(): Expected one or more matrices");
  CHECK_THROWS_WITH(torch::linalg::multi_dot({E1}), "multi_dot(): expected at least 2 tensors but got 1");
  CHECK_THROWS_WITH(torch::linalg::multi_dot({E1, E1}),
                    "multi_dot(): tensors 0 and 1 with shapes [2, 3] and [2, 3] cannot be multiplied");
}

TEST_CASE("einsum: explicit, implicit, ellipsis, diagonals, errors", "[reductions_scans]") {
  const Tensor Q = torch::tensor({1., 2., 3., 4.}).reshape({2, 2});
  const Tensor E1 = torch::arange(6, torch::kFloat).reshape({2, 3}), E2 = torch::arange(12, torch::kFloat).reshape({3, 4});
  const Tensor E3 = torch::arange(24, torch::kFloat).reshape({2, 3, 4});
  const V product{20, 23, 26, 29, 56, 68, 80, 92};
  CHECK(values(torch::einsum("ij,jk->ik", {E1, E2})) == product);
  CHECK(values(torch::einsum("ij,jk", {E1, E2})) == product);
  CHECK(values(torch::einsum("i j , j k -> i k", {E1, E2})) == product);
  CHECK(values(torch::einsum("ii", {Q})) == V{5});
  CHECK(values(torch::einsum("ii->i", {Q})) == V{1, 4});
  CHECK(values(torch::einsum("ij->ji", {E1})) == V{0, 3, 1, 4, 2, 5});
  const Tensor batched = torch::einsum("bij,bjk->bik", {E3.narrow(2, 0, 3), E3.narrow(1, 0, 3)});
  CHECK(shape(batched) == S{2, 3, 4});
  CHECK(values(batched.select(0, 1).select(0, 2)) == V{1016, 1079, 1142, 1205});
  CHECK(shape(torch::einsum("i,j->ij", {torch::ones({3}), torch::ones({2})})) == S{3, 2});
  CHECK(values(torch::einsum("...ij->...ji", {E3}).select(0, 1).select(0, 3)) == V{15, 19, 23});
  CHECK(values(torch::einsum("ijk->", {E3})) == V{276});
  CHECK(values(torch::einsum("ijk->k", {E3})) == V{60, 66, 72, 78});
  CHECK(values(torch::einsum("bn,anm,bm->ba", {E1, torch::ones({5, 3, 3}), E1})) ==
        V{9, 9, 9, 9, 9, 144, 144, 144, 144, 144});
  CHECK(values(torch::einsum("...j,j...->...", {E1, E2.narrow(1, 0, 2)})) == V{20, 68});
  CHECK(values(torch::einsum("i...,i->...", {E3, torch::tensor({1., -1.})})) == V(12, -12));
  CHECK(values(torch::einsum("ij,kj", {E1, E1})) == V{5, 14, 14, 50});
  CHECK(values(torch::einsum("ba,b", {E1, torch::tensor({1., 2.})})) == V{6, 9, 12});
  CHECK(values(torch::einsum("ij,ij->ij", {E1, torch::ones({1, 3})})) == V{0, 1, 2, 3, 4, 5});
  CHECK(values(torch::einsum("iij->ij", {torch::arange(12, torch::kFloat).reshape({2, 2, 3})})) ==
        V{0, 1, 2, 9, 10, 11});
  CHECK(torch::einsum("ij->", {torch::arange(6).reshape({2, 3})}).scalar_type() == torch::kLong);

  CHECK_THROWS_WITH(torch::einsum("ij,jk->ik", {E1}),
                    "einsum(): fewer operands were provided than specified in the equation");
  CHECK_THROWS_WITH(torch::einsum("ij,jk->ik", {E1, E1}),
                    "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3");
  CHECK_THROWS_WITH(torch::einsum("ijk->ik", {E1}),
                    "einsum(): the number of subscripts in the equation (3) does not match the number of dimensions "
                    "(2) for operand 0 and no ellipsis was given");
  CHECK_THROWS_WITH(torch::einsum("ij->ik", {E1}),
                    "einsum(): output subscript k does not appear in the equation for any input operand");
  CHECK_THROWS_WITH(torch::einsum("ij->ii", {E1}), "einsum(): output subscript i appears more than once in the output");
  CHECK_THROWS_WITH(torch::einsum("ij-", {E1}), "einsum(): invalid subscript given at index 2 in the equation string, "
                                                "subscripts must be in [a-zA-Z]");
  CHECK_THROWS_WITH(torch::einsum("..i...->i", {E1}), "einsum(): found '.' for operand 0 that is not part of any ellipsis");
}

TEST_CASE("node names of the reductions, scans and products", "[reductions_scans]") {
  const Tensor g = torch::arange(1, 7, torch::kDouble).reshape({2, 3}).requires_grad_();
  const Tensor gv = torch::arange(1, 4, torch::kDouble).requires_grad_();
  CHECK(node_name(g.median()) == "MedianBackward0");
  CHECK(node_name(std::get<0>(g.median(1))) == "MedianBackward1");
  CHECK(node_name(g.nanmedian()) == "NanmedianBackward0");
  CHECK(node_name(std::get<0>(g.nanmedian(1))) == "NanmedianBackward1");
  CHECK(node_name(std::get<0>(g.mode(1))) == "ModeBackward0");
  CHECK(node_name(std::get<0>(g.kthvalue(1))) == "KthvalueBackward0");
  CHECK(node_name(g.nansum(1)) == "NansumBackward0");
  CHECK(node_name(g.nanmean()) == "DivBackward0");
  CHECK(node_name(g.renorm(2, 0, 1)) == "RenormBackward0");
  CHECK(node_name(g.cumprod(1)) == "CumprodBackward0");
  CHECK(node_name(std::get<0>(g.cummax(1))) == "CummaxBackward0");
  CHECK(node_name(std::get<0>(g.cummin(1))) == "CumminBackward0");
  CHECK(node_name(g.logcumsumexp(1)) == "LogcumsumexpBackward0");
  CHECK(node_name(gv.dot(gv)) == "DotBackward0");
  CHECK(node_name(gv.vdot(gv)) == "VdotBackward0");
  CHECK(node_name(gv.outer(gv)) == "MulBackward0");
  CHECK(node_name(g.mv(gv)) == "MvBackward0");
  CHECK(node_name(torch::ones({2}, torch::kDouble).addmv(g, gv)) == "AddmvBackward0");
  CHECK(node_name(torch::ones({3, 3}, torch::kDouble).addr(gv, gv)) == "AddrBackward0");
  CHECK(node_name(torch::ones({1, 2, 2}, torch::kDouble).baddbmm(g.unsqueeze(0), g.t().unsqueeze(0))) ==
        "BaddbmmBackward0");
  CHECK(node_name(torch::ones({2, 2}, torch::kDouble).addbmm(g.unsqueeze(0), g.t().unsqueeze(0))) == "AddbmmBackward0");
  CHECK(node_name(g.kron(g)) == "UnsafeViewBackward0");
  CHECK(node_name(g.trace()) == "TraceBackward0");
  CHECK(node_name(g.cross(g.flip({0}))) == "LinalgCrossBackward0");
  CHECK(node_name(g.mm(g.t()).matrix_power(1)) == "CloneBackward0");
  Tensor c = g * 1;
  c.addmm_(torch::ones({2, 2}, torch::kDouble), torch::ones({2, 3}, torch::kDouble));
  CHECK(node_name(c) == "AddmmBackward0");
  Tensor v = gv * 1;
  v.addmv_(g.t(), torch::ones({2}, torch::kDouble));
  CHECK(node_name(v) == "AddmvBackward0");
  CHECK_THROWS_WITH(std::get<0>(g.aminmax()).sum().backward(), "derivative for aten::aminmax is not implemented");
}

TEST_CASE("gradients of the reductions and scans (LibTorch's values, then central differences)",
          "[reductions_scans][gradcheck]") {
  Tensor t = torch::tensor({2., 0., 3., 4.}).requires_grad_();
  t.cumprod(0).sum().backward();
  CHECK(values(t.grad()) == V{1, 32, 0, 0});
  Tensor t2 = torch::tensor({2., 0., 3., 0.}).requires_grad_();
  t2.cumprod(0).sum().backward();
  CHECK(values(t2.grad()) == V{1, 8, 0, 0});
  Tensor t3 = torch::tensor({1., 3., 3., 2.}).requires_grad_();
  t3.median().backward();
  CHECK(values(t3.grad()) == V{0, 0, 0, 1});
  Tensor t4 = torch::tensor({1., 3., 3., 1.}).requires_grad_();
  std::get<0>(t4.cummax(0)).sum().backward();
  CHECK(values(t4.grad()) == V{1, 1, 2, 0});
  Tensor t5 = torch::tensor({1., 3., 3., 1.}).requires_grad_();
  t5.max(torch::tensor({1., 2., 4., 0.})).sum().backward();
  CHECK(values(t5.grad()) == V{0.5, 1, 0, 1});
  Tensor t6 = torch::tensor({1., NaN, 3., 1.}).requires_grad_();
  t6.nansum().backward();
  CHECK(values(t6.grad()) == V{1, 0, 1, 1});
  Tensor t7 = torch::tensor({1., NaN, 3., 1.}).requires_grad_();
  t7.nanmean().backward();
  CHECK(same_values(t7.grad(), V{1. / 3, 0, 1. / 3, 1. / 3}));

  const Tensor a = torch::tensor({0.3, -1.2, 2.5, 0.7, 1.9, -0.4}).reshape({2, 3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].median(); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].median(1, true)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].nanmedian(0)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].kthvalue(2, 1)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].mode(1)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].nansum(1); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].nanmean(0, true); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cumprod(1); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cumprod(0); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].cummax(1)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(v[0].cummin(0)); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].logcumsumexp(1); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].diff(1, 1, v[1]); }, {a, torch::ones({2, 1})});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].renorm(2, 0, 1.5); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].renorm(3, 1, 1.0); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return std::get<0>(torch::std_mean(v[0], {1})); }, {a});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].max(v[1]); }, {a, torch::tensor({0.1, 0.2, 0.3})});
  // cumprod through a zero uses the exact loop.
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cumprod(1); },
                  {torch::tensor({0.5, 0., 2., 0., 3., 1.5}).reshape({2, 3})});
}

TEST_CASE("gradients of the products (central differences)", "[reductions_scans][gradcheck]") {
  const Tensor v3 = torch::tensor({0.5, -1.0, 2.0}), w3 = torch::tensor({1.5, 0.25, -0.75});
  const Tensor m23 = torch::tensor({0.3, -1.2, 2.5, 0.7, 1.9, -0.4}).reshape({2, 3});
  const Tensor m33 = torch::tensor({2., 0.5, 0.1, -0.3, 1.5, 0.2, 0.4, 0.1, 1.2}).reshape({3, 3});
  const Tensor b1 = torch::linspace(-1, 1, 12).reshape({2, 2, 3}), b2 = torch::linspace(0.5, 2, 12).reshape({2, 3, 2});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].dot(v[1]); }, {v3, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].vdot(v[1]); }, {v3, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].inner(v[1]); }, {m23, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].outer(v[1]); }, {v3, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].mv(v[1]); }, {m23, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].addmv(v[1], v[2], 0.5, 2); },
                  {torch::ones({2}), m23, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].addr(v[1], v[2], 2, -1); },
                  {torch::ones({3, 3}), v3, w3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].baddbmm(v[1], v[2], 0.5, 1.5); },
                  {torch::ones({2, 1}), b1, b2});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].addbmm(v[1], v[2], 2, 0.5); },
                  {torch::ones({2, 2}), b1, b2});
  check_gradients([](const std::vector<Tensor>& v) { return (v[0] * 1).addmm_(v[1], v[2], 0.5, 2); },
                  {torch::ones({2, 2}), m23, m23.t()});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].matrix_power(5); }, {m33 / 2});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].matrix_power(-2); }, {m33});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].kron(v[1]); }, {m23, v3});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].trace(); }, {m23});
  check_gradients([](const std::vector<Tensor>& v) { return v[0].cross(v[1]); }, {m23, w3.unsqueeze(0)});
  check_gradients([](const std::vector<Tensor>& v) { return torch::tensordot(v[0], v[1], {1, 2}, {2, 1}); }, {b1, b2});
  check_gradients([](const std::vector<Tensor>& v) { return torch::einsum("bij,bjk->bik", {v[0], v[1]}); }, {b1, b2});
  check_gradients([](const std::vector<Tensor>& v) { return torch::einsum("ii->i", {v[0]}); }, {m33});
  check_gradients([](const std::vector<Tensor>& v) { return torch::einsum("...j,kj,k", {v[0], v[1], v[2]}); },
                  {b1, m23, torch::tensor({1., -2.})});
  check_gradients([](const std::vector<Tensor>& v) { return torch::linalg::multi_dot({v[0], v[1], v[2]}); },
                  {v3, m23.t(), torch::tensor({1., -2.})});
}
