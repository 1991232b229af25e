// torch::linalg beyond products (det, slogdet, inv, solve, cholesky, qr, eigh, norms, pinv, rank,
// matrix_exp) with their gradients, torch::special's functions, the out= spellings (at::NAME_out /
// NAME_outf: resizing, casting) and the *_copy views. Eigenvectors and Q are unique up to sign:
// printed as absolute values and reconstructions.
// compat-tolerance: 1e-4
#include <iostream>
#include <tuple>

#include "compat.h"

namespace linalg_special_out_program {

COMPAT_PROGRAM(linalg_special_out) {
  auto A = torch::tensor({4., 1., 2., 1., 3., 0., 2., 0., 5.}, torch::kDouble).reshape({3, 3});
  auto B = torch::linspace(-1, 1, 6, torch::kDouble).reshape({3, 2});
  std::cout << "det " << torch::linalg::det(A) << " " << torch::det(A) << " " << A.det() << "\n";
  std::cout << "batched det\n" << torch::linalg::det(torch::stack({A, A * 2, A.t()})) << "\n";
  auto [sign, logabsdet] = torch::linalg::slogdet(A);
  std::cout << "slogdet " << sign << " " << logabsdet << " logdet " << torch::logdet(A) << "\n";
  std::cout << "inv\n" << torch::linalg::inv(A) << "\n" << torch::inverse(A) << "\n";
  std::cout << "solve\n" << torch::linalg::solve(A, B, true) << "\n";
  std::cout << "solve vector\n" << torch::linalg::solve(A, torch::arange(3, torch::kDouble), true) << "\n";
  std::cout << "solve right\n" << torch::linalg::solve(A, B.t(), false) << "\n";
  std::cout << "cholesky\n" << torch::linalg::cholesky(A) << "\n" << torch::cholesky(A, true) << "\n";
  auto L = torch::linalg::cholesky(A);
  std::cout << "cholesky_solve\n" << torch::cholesky_solve(B, L) << "\n";
  std::cout << "cholesky_inverse\n" << torch::cholesky_inverse(L) << "\n";
  auto [X, coefficients] = torch::triangular_solve(B, L, false);
  std::cout << "triangular_solve\n" << X << "\n";
  std::cout << "solve_triangular\n" << torch::linalg::solve_triangular(L.t(), B, true, true, false) << "\n";
  auto [Q, R] = torch::linalg::qr(A, "reduced");
  std::cout << "qr |Q|\n" << Q.abs() << "\n|R|\n" << R.abs() << "\nQR\n" << Q.matmul(R) << "\n";
  auto M = torch::arange(6, torch::kDouble).reshape({3, 2}) + 1;
  auto [Qc, Rc] = torch::linalg::qr(M, "complete");
  std::cout << "complete sizes " << Qc.sizes() << " " << Rc.sizes() << "\n" << Qc.matmul(Rc) << "\n";
  auto [w, V] = torch::linalg::eigh(A, "L");
  std::cout << "eigh " << w << "\n|V|\n" << V.abs() << "\n";
  std::cout << "eigvalsh upper " << torch::linalg::eigvalsh(A.triu(), "U") << "\n";
  std::cout << "matrix_exp\n" << torch::linalg::matrix_exp(A * 0.1) << "\n" << (A * 0.1).matrix_exp() << "\n";
  std::cout << "pinv\n" << torch::linalg::pinv(M, 1e-15, false) << "\n" << M.pinverse() << "\n";
  auto singular = torch::zeros({3, 3}, torch::kDouble);
  singular[0][0] = 1;
  singular[1][1] = 2;
  std::cout << "rank " << torch::linalg::matrix_rank(singular, 1e-6, false) << " "
            << torch::linalg::matrix_rank(A, 1e-3, false) << "\n";
  std::cout << "matrix_norm fro " << torch::linalg::matrix_norm(A, "fro", {-2, -1}, false, c10::nullopt)
            << " nuc " << torch::linalg::matrix_norm(A, "nuc", {-2, -1}, false, c10::nullopt)
            << " 2 " << torch::linalg::matrix_norm(A, 2, {-2, -1}, false, c10::nullopt)
            << " 1 " << torch::linalg::matrix_norm(M, 1, {-2, -1}, false, c10::nullopt)
            << " -inf " << torch::linalg::matrix_norm(M, -INFINITY, {-2, -1}, false, c10::nullopt) << "\n";
  std::cout << "vector_norm " << torch::linalg::vector_norm(M, 3.5, c10::nullopt, false, c10::nullopt) << " "
            << torch::linalg::vector_norm(M, INFINITY, c10::nullopt, false, c10::nullopt) << "\n"
            << torch::linalg::vector_norm(M, 1, torch::IntArrayRef{1}, true, c10::nullopt) << "\n";
  std::cout << "norm " << torch::linalg::norm(M, c10::nullopt, c10::nullopt, false, c10::nullopt) << "\n";

  auto [reflectors, tau] = torch::geqrf(M);
  std::cout << "geqrf\n" << reflectors << "\n" << tau << "\n";
  std::cout << "householder_product\n" << torch::linalg::householder_product(reflectors, tau) << "\n"
            << torch::orgqr(reflectors, tau) << "\n";
  std::cout << "ormqr\n" << torch::ormqr(reflectors, tau, B, true, true) << "\n"
            << torch::ormqr(reflectors, tau, B.t(), false, false) << "\n";
  auto [LU_data, LU_pivots] = torch::linalg::lu_factor(A.flip(0), true);
  std::cout << "lu_factor\n" << LU_data << "\n" << LU_pivots << "\n";
  auto [P, Lower, Upper] = torch::lu_unpack(LU_data, LU_pivots);
  std::cout << "lu_unpack\n" << P << "\n" << Lower << "\n" << Upper << "\n";
  std::cout << "lu_solve\n" << torch::lu_solve(B, LU_data, LU_pivots) << "\n"
            << torch::linalg_lu_solve(LU_data, LU_pivots, B, true, true) << "\n"
            << torch::linalg_lu_solve(LU_data, LU_pivots, B.t(), false, false) << "\n";
  auto [P2, L2, U2] = torch::linalg::lu(M, true);
  std::cout << "lu rectangular\n" << P2 << "\n" << L2 << "\n" << U2 << "\n";
  auto tall = torch::tensor({1.0, 1.0, 1.0, 2.0, 1.0, 3.0, 1.0, 4.0}, torch::kDouble).reshape({4, 2});
  auto [solution_ls, residuals, rank_ls, singular_ls] =
      torch::linalg::lstsq(tall, torch::tensor({6.0, 5.0, 7.0, 10.0}, torch::kDouble).unsqueeze(1), c10::nullopt,
                           c10::nullopt);
  std::cout << "lstsq\n" << solution_ls << "\n" << residuals << "\n" << rank_ls << "\n" << singular_ls.sizes()
            << "\n";
  std::cout << "cond " << torch::linalg_cond(A, c10::nullopt) << " " << torch::linalg_cond(A, 1) << " "
            << torch::linalg_cond(A, "fro") << "\n";
  std::cout << "nuclear_norm " << torch::nuclear_norm(M) << " " << torch::nuclear_norm(A.unsqueeze(0), {1, 2}) << "\n";
  std::cout << "pdist " << torch::pdist(M) << torch::pdist(M, 1) << "\n";
  auto [symeig_values, symeig_vectors] = torch::symeig(A, true);
  std::cout << "symeig " << symeig_values << symeig_vectors.abs() << "\n";

  // Gradients (and LibTorch's node names).
  auto Ag = A.clone().requires_grad_(true);
  auto d = torch::linalg::det(Ag);
  d.backward();
  std::cout << d.grad_fn()->name() << "\n" << Ag.grad() << "\n";
  Ag.mutable_grad() = torch::Tensor();
  auto inverse = torch::linalg::inv(Ag);
  (inverse * B.sum(1, true)).sum().backward();
  std::cout << inverse.grad_fn()->name() << "\n" << Ag.grad() << "\n";
  Ag.mutable_grad() = torch::Tensor();
  auto Bg = B.clone().requires_grad_(true);
  auto solution = torch::linalg::solve(Ag, Bg, true);
  (solution * solution).sum().backward();
  std::cout << solution.grad_fn()->name() << "\n" << Ag.grad() << "\n" << Bg.grad() << "\n";
  Ag.mutable_grad() = torch::Tensor();
  auto factor = torch::linalg::cholesky(Ag);
  (factor * torch::arange(9, torch::kDouble).reshape({3, 3})).sum().backward();
  std::cout << factor.grad_fn()->name() << "\n" << Ag.grad() << "\n";
  Ag.mutable_grad() = torch::Tensor();
  auto logabs = std::get<1>(torch::linalg::slogdet(Ag));
  logabs.backward();
  std::cout << logabs.grad_fn()->name() << "\n" << Ag.grad() << "\n";

  // Errors.
  try {
    torch::linalg::inv(singular);
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << "\n";
  }
  try {
    torch::linalg::cholesky(-A);
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << "\n";
  }
  try {
    torch::linalg::det(torch::ones({2, 3}, torch::kDouble));
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << "\n";
  }
  try {
    torch::linalg::inv(torch::ones({2, 2}, torch::kLong));
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << "\n";
  }

  // torch::special.
  auto x = torch::linspace(-3, 3, 7);
  auto p = torch::linspace(0.05, 0.95, 5);
  std::cout << "erfcx " << torch::special::erfcx(x) << "\n";
  std::cout << "i0e " << torch::special::i0e(x) << "\ni1 " << torch::special::i1(x) << "\ni1e "
            << torch::special::i1e(x) << "\n";
  std::cout << "ndtr " << torch::special::ndtr(x) << "\nlog_ndtr " << torch::special::log_ndtr(x) << "\n";
  std::cout << "ndtri " << torch::special::ndtri(p) << "\n";
  std::cout << "entr " << torch::special::entr(x) << "\n";
  std::cout << "expit " << torch::special::expit(x) << "\nlogit " << torch::special::logit(p) << "\n";
  std::cout << "gammaln " << torch::special::gammaln(p * 4) << "\npsi " << torch::special::psi(p * 4) << "\n";
  std::cout << "xlog1py " << torch::special::xlog1py(x, p.sum()) << "\nxlogy " << torch::special::xlogy(x, 2.0)
            << "\n";
  std::cout << "zeta " << torch::special::zeta(torch::linspace(2, 4, 5), torch::linspace(0.5, 2.5, 5)) << "\n";
  std::cout << "sinc " << torch::special::sinc(x) << "\nround " << torch::special::round(x * 0.37) << "\n";
  std::cout << "logsumexp " << torch::special::logsumexp(M, {1}, false) << "\n";
  std::cout << "softmax " << torch::special::softmax(M, 1, c10::nullopt) << "\n";
  std::cout << "integer input " << torch::special::ndtr(torch::arange(3)) << "\n";
  auto u = torch::linspace(-0.9, 0.9, 5, torch::kDouble);
  auto degrees = torch::arange(5, torch::kDouble);
  std::cout << "chebyshev t " << torch::special::chebyshev_polynomial_t(u, degrees) << " u "
            << torch::special::chebyshev_polynomial_u(u, 3) << " v " << torch::special::chebyshev_polynomial_v(u, 9)
            << " w " << torch::special::chebyshev_polynomial_w(u, 4) << "\n";
  std::cout << "shifted t " << torch::special::shifted_chebyshev_polynomial_t(u.abs(), 3) << "\n";
  std::cout << "hermite " << torch::special::hermite_polynomial_h(u, 4) << " he "
            << torch::special::hermite_polynomial_he(u, degrees) << "\n";
  std::cout << "laguerre " << torch::special::laguerre_polynomial_l(u, 3) << " legendre "
            << torch::special::legendre_polynomial_p(u, 5) << "\n";
  auto r = torch::linspace(0.5, 4.5, 5, torch::kDouble);
  std::cout << "bessel " << torch::special::bessel_j0(r) << torch::special::bessel_j1(-r) << torch::special::bessel_y0(r)
            << torch::special::bessel_y1(r) << "\n";
  std::cout << "modified " << torch::special::modified_bessel_i0(r) << torch::special::modified_bessel_i1(r)
            << torch::special::modified_bessel_k0(r) << torch::special::modified_bessel_k1(r)
            << torch::special::scaled_modified_bessel_k0(r) << torch::special::scaled_modified_bessel_k1(r) << "\n";
  std::cout << "spherical " << torch::special::spherical_bessel_j0(r) << " airy "
            << torch::special::airy_ai(torch::linspace(-3, 3, 7, torch::kDouble)) << "\n";
  std::cout << "gammainc " << torch::special::gammainc(r, r.flip(0)) << " gammaincc "
            << torch::special::gammaincc(r, r.flip(0)) << " igamma " << torch::igamma(r, r) << "\n";
  auto xg = torch::linspace(-2, 2, 5, torch::kDouble).requires_grad_(true);
  auto y = torch::special::erfcx(xg) + torch::special::i1e(xg) + torch::special::log_ndtr(xg);
  y.sum().backward();
  std::cout << "special grad " << xg.grad() << "\n";

  // out= spellings.
  auto t = torch::arange(6, torch::kFloat).reshape({2, 3});
  auto out = torch::empty({0});
  std::cout << "mm_out " << torch::mm_out(out, t, t.t()) << "\n";
  auto longs = torch::empty({0}, torch::kLong);
  std::cout << "sum_out long " << torch::sum_out(longs, t.to(torch::kLong), torch::IntArrayRef{1}) << "\n";
  auto into = torch::empty({0});
  torch::cat_outf({t, t}, 0, into);
  std::cout << "cat_outf " << into.sizes() << "\n";
  auto det_out = torch::empty({0}, torch::kDouble);
  std::cout << "linalg_det_out " << torch::linalg_det_out(det_out, A) << "\n";
  auto erfcx_out = torch::empty({0});
  std::cout << "special erfcx_out " << torch::special::erfcx_out(erfcx_out, x) << "\n";
  auto needs_grad = torch::ones({2, 2}, torch::requires_grad());
  auto plain = torch::empty({2, 2});
  try {
    torch::mm_out(plain, needs_grad, needs_grad);
  } catch (const c10::Error& e) {
    std::cout << e.what_without_backtrace() << "\n";
  }

  // Windows, indices, sorted search, products of sets, integration, covariance.
  std::cout << "hann " << torch::hann_window(5) << torch::hann_window(5, false) << "\nhamming "
            << torch::hamming_window(6, true, 0.5, 0.4) << "\nblackman " << torch::blackman_window(5, false)
            << "\nbartlett " << torch::bartlett_window(6) << "\nkaiser " << torch::kaiser_window(5, false, 6.0)
            << torch::hann_window(4, torch::kDouble) << "\n";
  std::cout << "tril_indices " << torch::tril_indices(3, 4, 1) << "\ntriu_indices " << torch::triu_indices(3, 3, -1)
            << "\n";
  auto boundaries = torch::tensor({1.0, 3.0, 5.0, 7.0});
  auto probes = torch::tensor({0.5, 3.0, 6.0, 9.0});
  std::cout << "bucketize " << torch::bucketize(probes, boundaries) << torch::bucketize(probes, boundaries, true, true)
            << "\nsearchsorted " << torch::searchsorted(boundaries, probes, false, false, "right")
            << torch::searchsorted(torch::stack({boundaries, boundaries * 2}), torch::stack({probes, probes})) << "\n";
  auto a = torch::tensor({1, 2, 3});
  auto b = torch::tensor({4, 5});
  std::cout << "cartesian_prod " << torch::cartesian_prod({a, b}) << "\ncombinations " << torch::combinations(a)
            << torch::combinations(a, 2, true) << torch::combinations(torch::arange(4), 3) << "\n";
  std::cout << "block_diag " << torch::block_diag({torch::ones({2, 2}), torch::tensor({5.0, 6.0}), torch::tensor(7.0)})
            << "\n";
  std::cout << "cdist " << torch::cdist(M, M * 0.5) << torch::cdist(M, M.flip(0), 1) << "\n";
  auto ys = torch::linspace(0, 2, 5).pow(2);
  auto xs = torch::linspace(0, 2, 5).pow(1.5);
  std::cout << "trapezoid " << torch::trapezoid(ys) << " " << torch::trapezoid(ys, xs) << " "
            << torch::trapz(ys, 0.5) << " " << torch::trapezoid(M, 1, 0) << "\ncumulative "
            << torch::cumulative_trapezoid(ys, xs) << torch::cumulative_trapezoid(M, 2, 1) << "\n";
  auto observations = torch::tensor({0.0, 1.0, 2.0, 4.0, 2.0, 1.5, 1.0, 0.0, 3.0, 3.5, 2.0, 1.0}).reshape({3, 4});
  std::cout << "cov " << torch::cov(observations) << torch::cov(observations, 0) << "\ncorrcoef "
            << torch::corrcoef(observations) << "\ncov weights "
            << torch::cov(observations, 1, torch::tensor({1, 2, 1, 1}), torch::tensor({0.5, 1.0, 1.5, 1.0})) << "\n";
  std::cout << "vander " << torch::vander(torch::tensor({1, 2, 3})) << torch::vander(torch::tensor({1.5, 2.0}), 4, true)
            << "\n";

  // Views, copied.
  std::cout << "t_copy " << torch::t_copy(t) << "\ndiagonal_copy " << torch::diagonal_copy(t) << "\n";
  std::cout << "permute_copy " << torch::permute_copy(t, {1, 0}).is_contiguous() << " select_copy "
            << torch::select_copy(t, 1, 2) << "\nunsqueeze_copy " << torch::unsqueeze_copy(t, 0).sizes() << "\n";
  std::cout << "numel " << torch::numel(t) << " can_cast " << torch::can_cast(torch::kFloat, torch::kLong)
            << " promote " << torch::promote_types(torch::kLong, torch::kFloat) << "\n";
  return 0;
}

}  // namespace linalg_special_out_program
