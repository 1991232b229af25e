#pragma once
// The singular value decomposition, LibTorch's torch::linalg::svd and torch::svd (module 16).
//
//   auto [U, S, Vh] = torch::linalg::svd(A, /*full_matrices=*/false, c10::nullopt);  // A = U diag(S) Vh
//   auto [U2, S2, V] = torch::svd(A);                                               // V = Vh^T
//
// A is (*, m, n), float or double; with k = min(m, n): U (*, m, k), S (*, k) descending, Vh (*, k, n);
// full_matrices gives U (*, m, m) and Vh (*, n, n). Computed by one-sided Jacobi rotations in double
// whatever the dtype (O(sweeps m n^2); a few sweeps suffice), then converted back. Singular vectors
// are unique only up to sign (LAPACK, which LibTorch calls, may pick the other one). No gradient:
// the results never require grad.
#include <optional>
#include <string_view>
#include <tuple>

#include "tinytorch/reductions_scans.h"
#include "tinytorch/scalar.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace linalg {

// driver: LibTorch accepts one only on CUDA ("gesvd", "gesvdj", "gesvda"); on the CPU it must be
// absent. LibTorch has no default for it; TinyTorch's default lets you omit it.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& input, bool full_matrices = true,
                                       std::optional<std::string_view> driver = std::nullopt);
// The singular values only, (*, k) descending.
Tensor svdvals(const Tensor& input, std::optional<std::string_view> driver = std::nullopt);

}  // namespace linalg

// The older spelling: V rather than Vh, `some` = !full_matrices; compute_uv false gives zero U, V
// of the full sizes (m, m) and (n, n), as LibTorch does.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some = true, bool compute_uv = true);

// ---- LU, Cholesky, QR, symmetric eigen, norms (src/01_tensor/linalg_more.cpp) ----
// Every function takes (*, m, n) float or double matrices, batched over the leading dims, computes in
// double and returns the input's dtype; LibTorch's errors ("linalg.inv: The diagonal element 2 is
// zero, ..."). Gradients: det (LinalgDetBackward0), slogdet (LinalgSlogdetBackward0), inv
// (LinalgInvExBackward0), solve (LinalgSolveExBackward0), cholesky (LinalgCholeskyExBackward0); the
// triangular and Cholesky solves, logdet, matrix_exp, the norms and vecdot are composed of
// differentiable ops. qr, eigh, lu, pinv and matrix_rank give results without gradient.
// Eigenvectors and Q are unique only up to sign (LAPACK may pick the other one).
Tensor linalg_det(const Tensor& A);
std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A);  // (sign, log|det|)
Tensor linalg_inv(const Tensor& A);
std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors = false);  // (inverse, info kInt)
Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left = true);
std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B, bool left = true,
                                           bool check_errors = false);
Tensor linalg_cholesky(const Tensor& self, bool upper = false);
std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& self, bool upper = false, bool check_errors = false);
std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode = "reduced");
std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& self, std::string_view UPLO = "L");
Tensor linalg_eigvalsh(const Tensor& self, std::string_view UPLO = "L");
std::tuple<Tensor, Tensor> linalg_lu_factor(const Tensor& A, bool pivot = true);  // (LU, pivots kInt, 1-based)
std::tuple<Tensor, Tensor, Tensor> linalg_lu(const Tensor& A, bool pivot = true);  // A = P L U
Tensor linalg_solve_triangular(const Tensor& self, const Tensor& B, bool upper, bool left = true,
                               bool unitriangular = false);
Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord = 2, OptionalIntArrayRef dim = std::nullopt,
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor linalg_matrix_norm(const Tensor& self, const Scalar& ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt);
Tensor linalg_matrix_norm(const Tensor& self, std::string_view ord = "fro", IntArrayRef dim = {-2, -1},
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& self, const std::optional<Scalar>& ord = std::nullopt,
                   OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt);
Tensor linalg_norm(const Tensor& self, std::string_view ord, OptionalIntArrayRef dim = std::nullopt,
                   bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor linalg_svdvals(const Tensor& A, std::optional<std::string_view> driver = std::nullopt);
std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices = true,
                                              std::optional<std::string_view> driver = std::nullopt);
// Singular values above max(atol, rtol * largest) count; without either, rtol = eps * max(m, n).
Tensor linalg_matrix_rank(const Tensor& input, const std::optional<Tensor>& atol = {},
                          const std::optional<Tensor>& rtol = {}, bool hermitian = false);
Tensor linalg_matrix_rank(const Tensor& self, std::optional<double> atol, std::optional<double> rtol,
                          bool hermitian = false);
Tensor linalg_matrix_rank(const Tensor& self, double tol, bool hermitian = false);
Tensor linalg_matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian = false);
Tensor linalg_pinv(const Tensor& self, const std::optional<Tensor>& atol = {}, const std::optional<Tensor>& rtol = {},
                   bool hermitian = false);
Tensor linalg_pinv(const Tensor& self, std::optional<double> atol, std::optional<double> rtol, bool hermitian = false);
Tensor linalg_pinv(const Tensor& self, double rcond, bool hermitian = false);
Tensor linalg_pinv(const Tensor& self, const Tensor& rcond, bool hermitian = false);
Tensor linalg_matrix_exp(const Tensor& self);  // scaling and squaring of the Taylor series
Tensor linalg_diagonal(const Tensor& A, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
Tensor linalg_matmul(const Tensor& self, const Tensor& other);
Tensor linalg_vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);
Tensor linalg_tensorinv(const Tensor& self, int64_t ind = 2);
Tensor linalg_tensorsolve(const Tensor& self, const Tensor& other, OptionalIntArrayRef dims = std::nullopt);
Tensor linalg_vander(const Tensor& x, std::optional<int64_t> N = std::nullopt);

// Householder reflectors: geqrf gives LAPACK's compact QR (R above the diagonal, the reflectors' tails
// below, and tau); householder_product / orgqr multiply the reflectors out into Q's first n columns,
// ormqr applies Q (or Q^T) to other from the left or the right.
std::tuple<Tensor, Tensor> geqrf(const Tensor& self);
Tensor linalg_householder_product(const Tensor& input, const Tensor& tau);
Tensor orgqr(const Tensor& self, const Tensor& input2);
Tensor ormqr(const Tensor& self, const Tensor& input2, const Tensor& input3, bool left = true, bool transpose = false);
// P, L, U from lu_factor's output (empty where not unpacked); solves from it (composed, differentiable in B).
std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU_data, const Tensor& LU_pivots, bool unpack_data = true,
                                             bool unpack_pivots = true);
Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left = true, bool adjoint = false);
Tensor lu_solve(const Tensor& self, const Tensor& LU_data, const Tensor& LU_pivots);
// Least squares through the pseudo-inverse: (solution, residuals, rank, singular_values); residuals
// are empty as with LibTorch's default CPU driver gelsy (filled for tall full-rank A when another driver
// is named), singular_values always empty.
std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(const Tensor& self, const Tensor& b,
                                                        std::optional<double> rcond = std::nullopt,
                                                        std::optional<std::string_view> driver = std::nullopt);
// The condition number: largest over smallest singular value for p = 2 (default), else
// norm(A, p) * norm(A^-1, p).
Tensor linalg_cond(const Tensor& self, const std::optional<Scalar>& p = std::nullopt);
Tensor linalg_cond(const Tensor& self, std::string_view p);
// A string literal order would otherwise also convert to Scalar (through bool).
inline Tensor linalg_cond(const Tensor& self, const char* p) { return linalg_cond(self, std::string_view(p)); }
inline Tensor linalg_norm(const Tensor& self, const char* ord, OptionalIntArrayRef dim = std::nullopt,
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor linalg_matrix_norm(const Tensor& self, const char* ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                                 std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_matrix_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
Tensor nuclear_norm(const Tensor& self, bool keepdim = false);
Tensor nuclear_norm(const Tensor& self, IntArrayRef dim, bool keepdim = false);
// The p-norm distances between the rows of a (N, M) input, pairs i < j in row-major order.
Tensor pdist(const Tensor& self, double p = 2);
// Deprecated in LibTorch for linalg::eigh: eigenvalues ascending, eigenvectors (empty unless asked).
std::tuple<Tensor, Tensor> symeig(const Tensor& self, bool eigenvectors = false, bool upper = true);

// The older torch:: spellings (and Tensor methods of the same names).
Tensor det(const Tensor& self);
Tensor logdet(const Tensor& self);
std::tuple<Tensor, Tensor> slogdet(const Tensor& self);
Tensor inverse(const Tensor& self);
Tensor cholesky(const Tensor& self, bool upper = false);
Tensor cholesky_solve(const Tensor& self, const Tensor& input2, bool upper = false);
Tensor cholesky_inverse(const Tensor& self, bool upper = false);
std::tuple<Tensor, Tensor> qr(const Tensor& self, bool some = true);
Tensor pinverse(const Tensor& self, double rcond = 1e-15);
Tensor matrix_exp(const Tensor& self);
std::tuple<Tensor, Tensor> triangular_solve(const Tensor& self, const Tensor& A, bool upper = true,
                                            bool transpose = false, bool unitriangular = false);

namespace linalg {
// torch::linalg::NAME (LibTorch's torch/linalg.h; its arguments have no defaults there, TinyTorch's
// take at::linalg_NAME's).
inline Tensor det(const Tensor& A) { return linalg_det(A); }
inline std::tuple<Tensor, Tensor> slogdet(const Tensor& A) { return linalg_slogdet(A); }
inline Tensor inv(const Tensor& A) { return linalg_inv(A); }
inline std::tuple<Tensor, Tensor> inv_ex(const Tensor& A, bool check_errors = false) {
  return linalg_inv_ex(A, check_errors);
}
inline Tensor solve(const Tensor& A, const Tensor& B, bool left = true) { return linalg_solve(A, B, left); }
inline std::tuple<Tensor, Tensor> solve_ex(const Tensor& A, const Tensor& B, bool left = true,
                                           bool check_errors = false) {
  return linalg_solve_ex(A, B, left, check_errors);
}
inline Tensor cholesky(const Tensor& self, bool upper = false) { return linalg_cholesky(self, upper); }
inline std::tuple<Tensor, Tensor> cholesky_ex(const Tensor& self, bool upper = false, bool check_errors = false) {
  return linalg_cholesky_ex(self, upper, check_errors);
}
inline std::tuple<Tensor, Tensor> qr(const Tensor& A, std::string_view mode = "reduced") { return linalg_qr(A, mode); }
inline std::tuple<Tensor, Tensor> eigh(const Tensor& self, std::string_view uplo = "L") {
  return linalg_eigh(self, uplo);
}
inline Tensor eigvalsh(const Tensor& self, std::string_view uplo = "L") { return linalg_eigvalsh(self, uplo); }
inline std::tuple<Tensor, Tensor> lu_factor(const Tensor& A, bool pivot = true) { return linalg_lu_factor(A, pivot); }
inline std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& A, bool pivot = true) { return linalg_lu(A, pivot); }
inline Tensor solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left = true,
                               bool unitriangular = false) {
  return linalg_solve_triangular(A, B, upper, left, unitriangular);
}
inline Tensor vector_norm(const Tensor& self, const Scalar& ord = 2, OptionalIntArrayRef dim = std::nullopt,
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_vector_norm(self, ord, dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& self, const Scalar& ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_matrix_norm(self, ord, dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& self, const std::string& ord = "fro", IntArrayRef dim = {-2, -1},
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_matrix_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& self, const char* ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_matrix_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor norm(const Tensor& self, const std::optional<Scalar>& ord = std::nullopt,
                   OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_norm(self, ord, dim, keepdim, dtype);
}
inline Tensor norm(const Tensor& self, const std::string& ord, OptionalIntArrayRef dim = std::nullopt,
                   bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor norm(const Tensor& self, const char* ord, OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_norm(self, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor matrix_rank(const Tensor& input, double tol, bool hermitian = false) {
  return linalg_matrix_rank(input, tol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian = false) {
  return linalg_matrix_rank(input, tol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, std::optional<double> atol, std::optional<double> rtol,
                          bool hermitian = false) {
  return linalg_matrix_rank(input, atol, rtol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, const std::optional<Tensor>& atol = {},
                          const std::optional<Tensor>& rtol = {}, bool hermitian = false) {
  return linalg_matrix_rank(input, atol, rtol, hermitian);
}
inline Tensor pinv(const Tensor& input, double rcond, bool hermitian = false) {
  return linalg_pinv(input, rcond, hermitian);
}
inline Tensor pinv(const Tensor& input, std::optional<double> atol, std::optional<double> rtol,
                   bool hermitian = false) {
  return linalg_pinv(input, atol, rtol, hermitian);
}
inline Tensor pinv(const Tensor& input, const std::optional<Tensor>& atol = {}, const std::optional<Tensor>& rtol = {},
                   bool hermitian = false) {
  return linalg_pinv(input, atol, rtol, hermitian);
}
inline Tensor matrix_exp(const Tensor& input) { return linalg_matrix_exp(input); }
inline Tensor diagonal(const Tensor& A, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) {
  return linalg_diagonal(A, offset, dim1, dim2);
}
inline Tensor matmul(const Tensor& self, const Tensor& other) { return linalg_matmul(self, other); }
inline Tensor vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1) { return linalg_vecdot(x, y, dim); }
inline Tensor tensorinv(const Tensor& self, int64_t ind = 2) { return linalg_tensorinv(self, ind); }
inline Tensor tensorsolve(const Tensor& self, const Tensor& other, OptionalIntArrayRef dims = std::nullopt) {
  return linalg_tensorsolve(self, other, dims);
}
inline Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt) { return linalg_vander(x, N); }
inline Tensor householder_product(const Tensor& input, const Tensor& tau) { return linalg_householder_product(input, tau); }
inline std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(const Tensor& self, const Tensor& b,
                                                        std::optional<double> cond = std::nullopt,
                                                        std::optional<std::string_view> driver = std::nullopt) {
  return linalg_lstsq(self, b, cond, driver);
}

}  // namespace linalg

}  // namespace tinytorch
