// torch::linalg (LU, Cholesky, QR, Jacobi eigen, norms), torch::special, the generated out= forms and
// the *_copy views. Expected values were printed by LibTorch 1.13 (the same inputs, double or float).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using test_helpers::values;

// A symmetric positive-definite 3 x 3 matrix: det 43.
Tensor spd() { return torch::tensor({4., 1., 2., 1., 3., 0., 2., 0., 5.}, torch::kDouble).reshape({3, 3}); }

void check_values(const Tensor& t, const std::vector<double>& expected, double margin = 1e-4) {
  const std::vector<double> got = values(t);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    if (std::isinf(expected[i])) {
      CHECK(got[i] == expected[i]);
    } else {
      CHECK(got[i] == Approx(expected[i]).margin(margin));
    }
  }
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "no error";
}

// Analytic gradients of sum(f(x) * w) against central differences (double inputs).
void check_gradients(const std::function<Tensor(const std::vector<Tensor>&)>& f, std::vector<Tensor> inputs) {
  for (Tensor& input : inputs) input = input.detach().contiguous().requires_grad_();
  const Tensor output = f(inputs);
  const Tensor weight = torch::linspace(-1, 1, output.numel(), torch::kDouble).reshape(output.sizes());
  const std::vector<Tensor> analytic = torch::autograd::grad({(output * weight).sum()}, inputs, {}, std::nullopt,
                                                             false, true);
  const double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    REQUIRE(analytic[i].defined());
    const std::vector<double> got = values(analytic[i]);
    double* data = inputs[i].data_ptr<double>();
    for (int64_t j = 0; j < inputs[i].numel(); ++j) {
      const double saved = data[j];
      data[j] = saved + eps;
      const double plus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved - eps;
      const double minus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved;
      INFO("input " << i << " element " << j);
      CHECK(got[j] == Approx((plus - minus) / (2 * eps)).margin(1e-5).epsilon(1e-5));
    }
  }
}

}  // namespace

TEST_CASE("linalg: det, inv, cholesky, solve, slogdet match LibTorch", "[linalg_special_out]") {
  const Tensor A = spd();
  check_values(torch::linalg::det(A), {43});
  check_values(torch::det(A), {43});
  check_values(torch::linalg::inv(A), {0.3488, -0.1163, -0.1395, -0.1163, 0.3721, 0.0465, -0.1395, 0.0465, 0.2558});
  check_values(A.inverse().matmul(A), {1, 0, 0, 0, 1, 0, 0, 0, 1}, 1e-12);
  check_values(torch::linalg::cholesky(A), {2, 0, 0, 0.5, 1.6583, 0, 1, -0.3015, 1.9771});
  check_values(torch::linalg::cholesky(A, true), {2, 0.5, 1, 0, 1.6583, -0.3015, 0, 0, 1.9771});
  check_values(torch::linalg::solve(A, torch::arange(3, torch::kDouble)), {-0.3953, 0.4651, 0.5581});
  auto [sign, logabsdet] = torch::linalg::slogdet(A);
  check_values(sign, {1});
  check_values(logabsdet, {3.7612});
  Tensor singular = torch::zeros({3, 3}, torch::kDouble);
  singular[0][0] = 1;
  singular[1][1] = 1;
  check_values(std::get<1>(torch::linalg::slogdet(-singular)), {-INFINITY});
  check_values(torch::linalg::det(torch::stack({A, 2 * A})), {43, 344});
  CHECK(torch::linalg::det(A.to(torch::kFloat)).scalar_type() == torch::kFloat);
}

TEST_CASE("linalg: errors use LibTorch's wording", "[linalg_special_out]") {
  Tensor singular = torch::zeros({3, 3}, torch::kDouble);
  singular[0][0] = 1;
  singular[1][1] = 1;
  CHECK(error_of([&] { torch::linalg::inv(singular); }) ==
        "linalg.inv: The diagonal element 3 is zero, the inversion could not be completed because the input matrix "
        "is singular.");
  CHECK(error_of([&] { torch::linalg::cholesky(-spd()); }) ==
        "linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the "
        "leading minor of order 1 is not positive-definite).");
  CHECK(error_of([&] { torch::linalg::inv(torch::ones({2, 3})); }) ==
        "linalg.inv: A must be batches of square matrices, but they are 2 by 3 matrices");
  CHECK(error_of([&] { torch::linalg::inv(torch::ones({2, 2}, torch::kLong)); }) ==
        "linalg.inv: Expected a floating point or complex tensor as input. Got Long");
  CHECK(error_of([&] { torch::linalg::det(torch::ones({2, 2}, torch::kLong)); }) ==
        "linalg.det: Expected a floating point or complex tensor as input. Got Long");
  CHECK(error_of([&] { torch::linalg::solve(singular, torch::ones({3, 1}, torch::kDouble)); }) ==
        "torch.linalg.solve: The solver failed because the input matrix is singular.");
}

TEST_CASE("linalg: qr, eigh, matrix_exp, pinv, rank and norms match LibTorch", "[linalg_special_out]") {
  const Tensor A = spd();
  auto [Q, R] = torch::linalg::qr(A);
  check_values(Q, {-0.8729, 0.1204, -0.4729, -0.2182, -0.9631, 0.1576, -0.4364, 0.2408, 0.8669});
  check_values(R, {-4.5826, -1.5275, -3.9279, 0, -2.7689, 1.4446, 0, 0, 3.3889});
  auto [Qc, Rc] = torch::linalg::qr(torch::arange(6, torch::kDouble).reshape({3, 2}), "complete");
  CHECK(test_helpers::shape(Qc) == std::vector<int64_t>{3, 3});
  check_values(Qc.matmul(Rc), {0, 1, 2, 3, 4, 5}, 1e-12);
  auto [w, V] = torch::linalg::eigh(A);
  check_values(w, {1.8549, 3.4760, 6.6691});
  check_values(V.abs(), {0.6793, 0.3744, 0.6312, 0.5932, 0.7864, 0.1720, 0.4320, 0.4913, 0.7563});
  check_values(torch::linalg::matrix_exp(A * 0.1),
               {1.5301, 0.1432, 0.3164, 0.1432, 1.3569, 0.0150, 0.3164, 0.0150, 1.6808});
  check_values(torch::linalg::pinv(A.slice(1, 0, 2)), {0.2050, -0.0683, 0.1242, -0.0435, 0.3478, -0.0870});
  Tensor singular = torch::zeros({3, 3}, torch::kDouble);
  singular[0][0] = 1;
  singular[1][1] = 1;
  CHECK(torch::linalg::matrix_rank(singular).item<int64_t>() == 2);
  check_values(torch::linalg::matrix_norm(A), {7.74597});
  check_values(torch::linalg::matrix_norm(A, "nuc"), {12});
  check_values(torch::linalg::matrix_norm(A, 2), {6.66908});
  check_values(torch::linalg::vector_norm(A, 3.5), {5.83156});
  check_values(torch::linalg::norm(A), {7.74597});
  check_values(torch::linalg::matrix_norm(A, 1), {7});
  check_values(torch::linalg::matrix_norm(A, -INFINITY), {4});
}

TEST_CASE("linalg: gradients of det, inv, solve, cholesky, slogdet", "[linalg_special_out]") {
  Tensor A = spd().requires_grad_();
  torch::linalg::det(A).backward();
  check_values(A.grad(), {15, -5, -6, -5, 16, 2, -6, 2, 11});
  CHECK(torch::linalg::det(A).grad_fn()->name() == "LinalgDetBackward0");
  CHECK(torch::linalg::inv(A).grad_fn()->name() == "LinalgInvExBackward0");
  CHECK(torch::linalg::cholesky(A).grad_fn()->name() == "LinalgCholeskyExBackward0");
  CHECK(std::get<1>(torch::linalg::slogdet(A)).grad_fn()->name() == "LinalgSlogdetBackward0");
  const Tensor B = torch::linspace(-1, 1, 6, torch::kDouble).reshape({3, 2});
  check_gradients([](const std::vector<Tensor>& x) { return torch::linalg::det(x[0]); }, {spd()});
  check_gradients([](const std::vector<Tensor>& x) { return torch::linalg::inv(x[0]); }, {spd()});
  check_gradients([](const std::vector<Tensor>& x) { return torch::linalg::solve(x[0], x[1]); }, {spd(), B});
  check_gradients([](const std::vector<Tensor>& x) { return std::get<1>(torch::linalg::slogdet(x[0])); }, {spd()});
  check_gradients([](const std::vector<Tensor>& x) { return torch::linalg::cholesky((x[0] + x[0].mT()) / 2); },
                  {spd()});
  check_gradients([](const std::vector<Tensor>& x) { return torch::linalg::matrix_exp(x[0] * 0.3); }, {spd()});
}

TEST_CASE("special: values match LibTorch", "[linalg_special_out]") {
  check_values(torch::special::erfcx(torch::tensor({-2.0, 0.0, 0.5, 3.0, 30.0})),
               {108.9409, 1.0, 0.6157, 0.1790, 0.0188});
  check_values(torch::special::i0e(torch::tensor({-2.0, 0.0, 0.5, 3.0, 60.0})), {0.3085, 1.0, 0.6450, 0.2430, 0.0516});
  check_values(torch::special::i1(torch::tensor({-2.0, 0.0, 0.5, 3.0})), {-1.5906, 0.0, 0.2579, 3.9534});
  check_values(torch::special::i1e(torch::tensor({-2.0, 0.0, 0.5, 3.0, 60.0})),
               {-0.2153, 0.0, 0.1564, 0.1968, 0.0512});
  check_values(torch::special::ndtri(torch::tensor({0.0, 0.01, 0.3, 0.5, 0.9, 0.999, 1.0})),
               {-INFINITY, -2.3263, -0.5244, 0.0, 1.2816, 3.0902, INFINITY});
  check_values(torch::special::log_ndtr(torch::tensor({-40.0, -3.0, 0.0, 2.0})), {-804.61, -6.6077, -0.69315, -0.023013},
               1e-2);
  check_values(torch::special::ndtr(torch::tensor({-3.0, 0.0, 1.5})), {0.0013, 0.5, 0.9332});
  check_values(torch::special::entr(torch::tensor({-1.0, 0.0, 0.5, 2.0})), {-INFINITY, 0.0, 0.3466, -1.3863});
  check_values(torch::special::xlog1py(torch::tensor({0.0, 2.0, 3.0}), torch::tensor({-1.0, 0.5, 2.0})),
               {0.0, 0.8109, 3.2958});
  check_values(torch::special::zeta(torch::tensor({2.0, 3.0, 4.5}), torch::tensor({1.0, 2.0, 0.5})),
               {1.6449, 0.2021, 22.8106});
  const Tensor ints = torch::special::ndtr(torch::tensor({1, 2}));
  CHECK(ints.scalar_type() == torch::kFloat);
  check_values(ints, {0.8413, 0.9772});
  check_values(torch::special::expit(torch::tensor({0.0})), {0.5});
  check_values(torch::special_gammaln(torch::tensor({3.0})), {std::log(2.0)});
}

TEST_CASE("special: gradients of erfcx, i0e, i1, i1e, log_ndtr, ndtri", "[linalg_special_out]") {
  const Tensor x = torch::tensor({-2.0, 0.5, 3.0}, torch::kDouble);
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::erfcx(v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::i0e(v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::i1(v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::i1e(v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::log_ndtr(v[0]); }, {x});
  check_gradients([](const std::vector<Tensor>& v) { return torch::special::ndtri(v[0]); },
                  {torch::tensor({0.1, 0.5, 0.8}, torch::kDouble)});
  const Tensor v = x.clone().requires_grad_();
  CHECK(torch::special::erfcx(v).grad_fn()->name() == "SpecialErfcxBackward0");
}

TEST_CASE("out variants write into out, resizing and casting as LibTorch", "[linalg_special_out]") {
  const Tensor x = torch::arange(6, torch::kFloat).reshape({2, 3});
  Tensor long_out = torch::empty({0}, torch::kLong);
  torch::sum_out(long_out, x.to(torch::kLong));
  CHECK(long_out.item<int64_t>() == 15);
  Tensor out = torch::empty({5}, torch::kFloat);
  Tensor& same = torch::sum_out(out, x, {1});  // IntArrayRef dims
  CHECK(&same == &out);
  check_values(out, {3, 12});
  Tensor mm = torch::empty({0});
  torch::mm_outf(x, x.t(), mm);
  check_values(mm, {5, 14, 14, 50});
  Tensor long_result = torch::empty({0}, torch::kLong);
  CHECK_THROWS_AS(torch::mm_out(long_result, x, x.t()), c10::Error);  // a Float result cannot go into Long
  const Tensor needs_grad = torch::ones({2, 2}, torch::requires_grad());
  Tensor plain = torch::empty({2, 2});
  CHECK(error_of([&] { torch::mm_out(plain, needs_grad, needs_grad); }) ==
        "mm(): functions with out=... arguments don't support automatic differentiation, but one of the arguments "
        "requires grad.");
  Tensor det_out = torch::empty({0}, torch::kDouble);
  torch::linalg_det_out(det_out, spd());
  check_values(det_out, {43});
  Tensor erfcx_out = torch::empty({0});
  torch::special::erfcx_out(erfcx_out, torch::tensor({0.0}));
  check_values(erfcx_out, {1});
}

TEST_CASE("view copies and free functions", "[linalg_special_out]") {
  const Tensor x = torch::arange(6, torch::kFloat).reshape({2, 3});
  const Tensor t = torch::t_copy(x);
  check_values(t, {0, 3, 1, 4, 2, 5});
  CHECK_FALSE(t.is_contiguous());  // LibTorch's copies keep the view's strides (clone preserves them)
  check_values(torch::diagonal_copy(x), {0, 4});
  check_values(torch::select_copy(x, 1, 2), {2, 5});
  CHECK(torch::split_copy(x, 2, 1).size() == 2);
  CHECK(torch::numel(x) == 6);
  CHECK(torch::is_floating_point(x));
  CHECK(torch::can_cast(torch::kFloat, torch::kLong) == false);
  CHECK(torch::promote_types(torch::kLong, torch::kFloat) == torch::kFloat);
  CHECK(test_helpers::shape(x.mT()) == std::vector<int64_t>{3, 2});
  Tensor leaf = x.clone().requires_grad_();
  torch::permute_copy(leaf, {1, 0}).sum().backward();
  check_values(leaf.grad(), {1, 1, 1, 1, 1, 1});
}

TEST_CASE("special polynomials, incomplete gamma; windows, search, combinations, cov", "[linalg_special_out]") {
  const Tensor u = torch::linspace(-0.9, 0.9, 5, torch::kDouble);
  check_values(torch::special::chebyshev_polynomial_t(u, torch::arange(5, torch::kDouble)),
               {1.0, -0.45, -1.0, -0.9855, -0.2312});
  check_values(torch::special::chebyshev_polynomial_u(u, 3), {-2.2320, 1.0710, 0.0, -1.0710, 2.2320});
  const Tensor r = torch::linspace(0.5, 4.5, 5, torch::kDouble);
  check_values(torch::special::gammainc(r, r.flip({0})), {0.9973, 0.9281, 0.5841, 0.1150, 0.0006});
  check_values(torch::special::gammaincc(r, r.flip({0})), {0.0027, 0.0719, 0.4159, 0.8850, 0.9994});
  check_values(torch::tril_indices(3, 4, 1), {0, 0, 1, 1, 1, 2, 2, 2, 2, 0, 1, 0, 1, 2, 0, 1, 2, 3});
  check_values(torch::triu_indices(3, 3, -1), {0, 0, 0, 1, 1, 1, 2, 2, 0, 1, 2, 0, 1, 2, 1, 2});
  const Tensor boundaries = torch::tensor({1.0, 3.0, 5.0, 7.0});
  const Tensor probes = torch::tensor({0.5, 3.0, 6.0, 9.0});
  check_values(torch::bucketize(probes, boundaries), {0, 1, 3, 4});
  const Tensor right = torch::bucketize(probes, boundaries, true, true);
  CHECK(right.scalar_type() == torch::kInt);
  check_values(right, {0, 2, 3, 4});
  check_values(torch::combinations(torch::tensor({1, 2, 3})), {1, 2, 1, 3, 2, 3});
  check_values(torch::combinations(torch::tensor({1, 2, 3}), 2, true), {1, 1, 1, 2, 1, 3, 2, 2, 2, 3, 3, 3});
  const Tensor observations =
      torch::tensor({0.0, 1.0, 2.0, 4.0, 2.0, 1.5, 1.0, 0.0, 3.0, 3.5, 2.0, 1.0}).reshape({3, 4});
  check_values(torch::cov(observations), {2.9167, -1.4583, -1.7083, -1.4583, 0.7292, 0.8542, -1.7083, 0.8542, 1.2292});
  check_values(torch::corrcoef(observations), {1, -1, -0.9022, -1, 1, 0.9022, -0.9022, 0.9022, 1});
  check_values(torch::cov(observations, 1, torch::tensor({1, 2, 1, 1}), torch::tensor({0.5, 1.0, 1.5, 1.0})),
               {2.0, -1.0, -1.4103, -1.0, 0.5, 0.7051, -1.4103, 0.7051, 1.2179});
  check_values(torch::vander(torch::tensor({1, 2, 3})), {1, 1, 1, 4, 2, 1, 9, 3, 1});
  CHECK(error_of([] { torch::hann_window(4, torch::kLong); }) == "hann_window expects floating point dtypes, got: Long");
}
