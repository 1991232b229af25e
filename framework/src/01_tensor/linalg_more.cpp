// Linear algebra beyond products and the SVD: LU with partial pivoting (det, slogdet, inv, solve,
// lu_factor, lu), Cholesky, Householder QR, cyclic Jacobi for symmetric eigenproblems, and the norms,
// pseudo-inverse, rank and matrix exponential composed from them. Each kernel copies the (*, m, n)
// input into contiguous double matrices, works matrix by matrix and converts back to the input's dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "internal.h"
#include "tinytorch/derivative.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/linalg.h"
#include "tinytorch/torch.h"

namespace tinytorch {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// ---- Checks with LibTorch's wording ----

void check_matrix_input(const Tensor& A, const char* name) {
  TORCH_CHECK(A.dim() >= 2, name, ": The input tensor A must have at least 2 dimensions.");
  const ScalarType dtype = A.scalar_type();
  TORCH_CHECK(dtype != kHalf && dtype != kBFloat16, name, ": Low precision dtypes not supported. Got ",
              toString(dtype));
  TORCH_CHECK(dtype == kFloat || dtype == kDouble, name,
              ": Expected a floating point or complex tensor as input. Got ", toString(dtype));
}

void check_square(const Tensor& A, const char* name) {
  check_matrix_input(A, name);
  TORCH_CHECK(A.size(-1) == A.size(-2), name, ": A must be batches of square matrices, but they are ", A.size(-2),
              " by ", A.size(-1), " matrices");
}

// "(Batch element 3): " for batched inputs, as LibTorch's batched error messages start.
std::string batch_prefix(const Tensor& A, int64_t b) {
  return A.dim() > 2 ? "(Batch element " + std::to_string(b) + "): " : "";
}

// ---- Contiguous double matrices ----

struct Matrices {
  Tensor data;  // (*, rows, cols) double, contiguous, owned
  int64_t batch = 1;
  int64_t rows = 0;
  int64_t cols = 0;
  double* matrix(int64_t b) const { return data.data_ptr<double>() + b * rows * cols; }
};

Matrices as_matrices(const Tensor& A) {
  Matrices m;
  m.data = empty(A.sizes(), TensorOptions().dtype(kDouble));
  detail::copy_into(m.data, A);
  m.rows = A.size(-2);
  m.cols = A.size(-1);
  m.batch = m.rows * m.cols == 0 ? 0 : A.numel() / (m.rows * m.cols);
  return m;
}

std::vector<int64_t> batch_shape(const Tensor& A) {
  return std::vector<int64_t>(A.sizes().begin(), A.sizes().end() - 2);
}
std::vector<int64_t> with_tail(std::vector<int64_t> shape, std::initializer_list<int64_t> tail) {
  shape.insert(shape.end(), tail.begin(), tail.end());
  return shape;
}

Tensor new_double(IntArrayRef shape) { return zeros(shape, TensorOptions().dtype(kDouble)); }

// ---- LU with partial pivoting (LAPACK's getrf, row-major) ----

struct LU {
  std::vector<int64_t> pivots;  // row i was swapped with row pivots[i] (0-based)
  double sign = 1;              // of the permutation
  int64_t info = 0;             // 1-based index of the first exactly zero pivot, 0 when none
};

LU lu_in_place(double* a, int64_t rows, int64_t cols) {
  LU lu;
  const int64_t k = std::min(rows, cols);
  lu.pivots.resize(k);
  for (int64_t j = 0; j < k; ++j) {
    int64_t pivot = j;
    for (int64_t i = j + 1; i < rows; ++i) {
      if (std::fabs(a[i * cols + j]) > std::fabs(a[pivot * cols + j])) pivot = i;
    }
    lu.pivots[j] = pivot;
    if (pivot != j) {
      for (int64_t c = 0; c < cols; ++c) std::swap(a[j * cols + c], a[pivot * cols + c]);
      lu.sign = -lu.sign;
    }
    const double diagonal = a[j * cols + j];
    if (diagonal == 0) {
      if (lu.info == 0) lu.info = j + 1;
      continue;
    }
    for (int64_t i = j + 1; i < rows; ++i) {
      const double factor = a[i * cols + j] / diagonal;
      a[i * cols + j] = factor;
      for (int64_t c = j + 1; c < cols; ++c) a[i * cols + c] -= factor * a[j * cols + c];
    }
  }
  return lu;
}

// Solves (LU) x = P b for the n x k right-hand sides b (row-major, overwritten).
void lu_solve_in_place(const double* lu, const LU& factors, int64_t n, double* b, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = factors.pivots[i];
    if (p != i) {
      for (int64_t c = 0; c < k; ++c) std::swap(b[i * k + c], b[p * k + c]);
    }
  }
  for (int64_t i = 0; i < n; ++i) {  // L y = P b, unit diagonal
    for (int64_t j = 0; j < i; ++j) {
      const double l = lu[i * n + j];
      for (int64_t c = 0; c < k; ++c) b[i * k + c] -= l * b[j * k + c];
    }
  }
  for (int64_t i = n - 1; i >= 0; --i) {  // U x = y
    for (int64_t j = i + 1; j < n; ++j) {
      const double u = lu[i * n + j];
      for (int64_t c = 0; c < k; ++c) b[i * k + c] -= u * b[j * k + c];
    }
    for (int64_t c = 0; c < k; ++c) b[i * k + c] /= lu[i * n + i];
  }
}

// ---- Kernels (record nothing) ----

std::tuple<Tensor, Tensor> slogdet_kernel(const Tensor& A) {
  Matrices m = as_matrices(A);
  const std::vector<int64_t> shape = batch_shape(A);
  Tensor sign = new_double(shape);
  Tensor logabs = new_double(shape);
  for (int64_t b = 0; b < m.batch; ++b) {
    const LU lu = lu_in_place(m.matrix(b), m.rows, m.cols);
    double s = lu.sign;
    double log_sum = 0;
    for (int64_t i = 0; i < m.rows; ++i) {
      const double d = m.matrix(b)[i * m.cols + i];
      s *= d > 0 ? 1 : (d < 0 ? -1 : 0);
      log_sum += std::log(std::fabs(d));
    }
    sign.data_ptr<double>()[b] = s;
    logabs.data_ptr<double>()[b] = s == 0 ? -kInfinity : log_sum;
  }
  return {detail::as_dtype(sign, A.scalar_type()), detail::as_dtype(logabs, A.scalar_type())};
}

Tensor det_kernel(const Tensor& A) {
  Matrices m = as_matrices(A);
  Tensor result = new_double(batch_shape(A));
  for (int64_t b = 0; b < m.batch; ++b) {
    const LU lu = lu_in_place(m.matrix(b), m.rows, m.cols);
    double d = lu.sign;
    for (int64_t i = 0; i < m.rows; ++i) d *= m.matrix(b)[i * m.cols + i];
    result.data_ptr<double>()[b] = d;
  }
  return detail::as_dtype(result, A.scalar_type());
}

// The inverse and LAPACK's info per matrix (0, or the 1-based index of a zero pivot).
std::tuple<Tensor, Tensor> inv_kernel(const Tensor& A) {
  Matrices m = as_matrices(A);
  const int64_t n = m.rows;
  Tensor result = new_double(A.sizes());
  Tensor info = zeros(batch_shape(A), TensorOptions().dtype(kLong));
  for (int64_t b = 0; b < m.batch; ++b) {
    const LU lu = lu_in_place(m.matrix(b), n, n);
    info.data_ptr<int64_t>()[b] = lu.info;
    double* x = result.data_ptr<double>() + b * n * n;
    if (lu.info != 0) {
      std::fill(x, x + n * n, std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    for (int64_t i = 0; i < n; ++i) x[i * n + i] = 1;
    lu_solve_in_place(m.matrix(b), lu, n, x, n);
  }
  return {detail::as_dtype(result, A.scalar_type()), info.to(kInt)};
}

void raise_inv_error(const Tensor& A, const Tensor& info, const char* name) {
  const Tensor codes = info.to(kLong).contiguous();
  for (int64_t b = 0; b < codes.numel(); ++b) {
    const int64_t code = codes.data_ptr<int64_t>()[b];
    TORCH_CHECK(code == 0, name, ": ", batch_prefix(A, b), "The diagonal element ", code,
                " is zero, the inversion could not be completed because the input matrix is singular.");
  }
}

// Solves A X = B for A (*, n, n) and B (*, n, k), the batch dims broadcast together.
std::tuple<Tensor, Tensor> solve_kernel(const Tensor& A, const Tensor& B) {
  std::vector<int64_t> batch = infer_size(batch_shape(A), batch_shape(B));
  const int64_t n = A.size(-1);
  const int64_t k = B.size(-1);
  Matrices a = as_matrices(A.expand(with_tail(batch, {n, n})));
  Matrices x = as_matrices(B.expand(with_tail(batch, {n, k})));
  Tensor info = zeros(batch, TensorOptions().dtype(kLong));
  for (int64_t b = 0; b < a.batch; ++b) {
    const LU lu = lu_in_place(a.matrix(b), n, n);
    info.data_ptr<int64_t>()[b] = lu.info;
    if (lu.info != 0) {
      std::fill(x.matrix(b), x.matrix(b) + n * k, std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    lu_solve_in_place(a.matrix(b), lu, n, x.matrix(b), k);
  }
  return {detail::as_dtype(x.data, promoteTypes(A.scalar_type(), B.scalar_type())), info.to(kInt)};
}

// The lower Cholesky factor and info (the order of the first leading minor that is not positive).
std::tuple<Tensor, Tensor> cholesky_kernel(const Tensor& A) {
  Matrices m = as_matrices(A);
  const int64_t n = m.rows;
  Tensor result = new_double(A.sizes());
  Tensor info = zeros(batch_shape(A), TensorOptions().dtype(kLong));
  for (int64_t b = 0; b < m.batch; ++b) {
    const double* a = m.matrix(b);
    double* l = result.data_ptr<double>() + b * n * n;
    for (int64_t j = 0; j < n && info.data_ptr<int64_t>()[b] == 0; ++j) {
      double diagonal = a[j * n + j];
      for (int64_t c = 0; c < j; ++c) diagonal -= l[j * n + c] * l[j * n + c];
      if (!(diagonal > 0)) {
        info.data_ptr<int64_t>()[b] = j + 1;
        break;
      }
      l[j * n + j] = std::sqrt(diagonal);
      for (int64_t i = j + 1; i < n; ++i) {
        double value = a[i * n + j];  // the lower triangle, as LAPACK's potrf with uplo L
        for (int64_t c = 0; c < j; ++c) value -= l[i * n + c] * l[j * n + c];
        l[i * n + j] = value / l[j * n + j];
      }
    }
  }
  return {detail::as_dtype(result, A.scalar_type()), info.to(kInt)};
}

void raise_cholesky_error(const Tensor& A, const Tensor& info) {
  const Tensor codes = info.to(kLong).contiguous();
  for (int64_t b = 0; b < codes.numel(); ++b) {
    const int64_t code = codes.data_ptr<int64_t>()[b];
    TORCH_CHECK(code == 0, "linalg.cholesky: ", batch_prefix(A, b),
                "The factorization could not be completed because the input is not positive-definite (the leading "
                "minor of order ",
                code, " is not positive-definite).");
  }
}

// ---- Recorded forms and their derivatives ----

const OpHandle det_op("linalg_det");
const OpHandle slogdet_op("linalg_slogdet");
const OpHandle inv_op("linalg_inv_ex");
const OpHandle solve_op("linalg_solve_ex");
const OpHandle cholesky_op("linalg_cholesky_ex");

const RegisterDerivative det_derivative("linalg_det", {
    "LinalgDetBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& A = ctx.saved(0);
      const Tensor scale = (ctx.grad() * ctx.saved(1)).unsqueeze(-1).unsqueeze(-1);
      return {scale * linalg_inv(A).mT()};
    }});
const RegisterDerivative slogdet_derivative("linalg_slogdet", {
    "LinalgSlogdetBackward0", [](SaveForBackward& save) { save.input(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.grad(1).defined()) return {Tensor()};
      return {ctx.grad(1).unsqueeze(-1).unsqueeze(-1) * linalg_inv(ctx.saved(0)).mT()};
    }});
const RegisterDerivative inv_derivative("linalg_inv_ex", {
    "LinalgInvExBackward0", [](SaveForBackward& save) { save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor inverse_t = ctx.saved(0).mT();
      return {-inverse_t.matmul(ctx.grad()).matmul(inverse_t)};
    }});
// X = A^-1 B: dB = A^-T dX, dA = -dB X^T (B a batch of column vectors here; linalg_solve reshapes).
const RegisterDerivative solve_derivative("linalg_solve_ex", {
    "LinalgSolveExBackward0", [](SaveForBackward& save) { save.input(0); save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor grad_b = linalg_solve(ctx.saved(0).mT(), ctx.grad());
      return {ctx.needs_input_grad(0) ? -grad_b.matmul(ctx.saved(1).mT()) : Tensor(),
              ctx.needs_input_grad(1) ? grad_b : Tensor()};
    }});
// LibTorch's cholesky_backward: Phi(L^T dL) (lower triangle, halved diagonal), then L^-T Phi L^-1,
// symmetrized.
const RegisterDerivative cholesky_derivative("linalg_cholesky_ex", {
    "LinalgCholeskyExBackward0", [](SaveForBackward& save) { save.output(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& L = ctx.saved(0);
      Tensor phi = L.mT().matmul(ctx.grad().tril()).tril();
      phi = phi - phi.diagonal(0, -2, -1).diag_embed() * 0.5;
      const Tensor L_inverse = linalg_inv(L);
      const Tensor grad = L_inverse.mT().matmul(phi).matmul(L_inverse);
      return {(grad + grad.mT()) * 0.5};
    }});

// B as a batch of matrices for solve: LibTorch reads B as a vector when it is 1-D or has A's shape
// without the last dim.
bool is_vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  if (B.dim() != A.dim() - 1) return false;
  return std::equal(B.sizes().begin(), B.sizes().end(), A.sizes().begin());
}

double machine_epsilon(ScalarType dtype) {
  return dtype == kFloat ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

// All dims of t when dim is nullopt.
std::vector<int64_t> reduction_dims(const Tensor& t, OptionalIntArrayRef dim) {
  if (dim.has_value() && !dim->empty()) return std::vector<int64_t>(dim->begin(), dim->end());
  std::vector<int64_t> all(t.dim());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

}  // namespace

// ---- Determinants and inverses ----

Tensor linalg_det(const Tensor& A) {
  check_square(A, "linalg.det");
  Tensor result = det_kernel(A);
  record_op(det_op, {A}, {result});
  return result;
}

std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A) {
  check_square(A, "linalg.slogdet");
  auto [sign, logabsdet] = slogdet_kernel(A);
  record_op(slogdet_op, {A}, {sign, logabsdet});
  return {sign, logabsdet};
}

std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors) {
  check_square(A, "linalg.inv");
  auto [result, info] = inv_kernel(A);
  if (check_errors) raise_inv_error(A, info, "linalg.inv_ex");
  record_op(inv_op, {A}, {result});
  return {result, info};
}

Tensor linalg_inv(const Tensor& A) {
  check_square(A, "linalg.inv");
  auto [result, info] = inv_kernel(A);
  raise_inv_error(A, info, "linalg.inv");
  record_op(inv_op, {A}, {result});
  return result;
}

std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B, bool left, bool check_errors) {
  check_square(A, "linalg.solve");
  TORCH_CHECK(B.scalar_type() == A.scalar_type(), "linalg.solve: Expected A and B to have the same dtype, but found A of type ",
              toString(A.scalar_type()), " and B of type ", toString(B.scalar_type()), " instead");
  if (!left) {  // X A = B is A^T X^T = B^T
    auto [x, info] = linalg_solve_ex(A.mT(), B.mT(), true, check_errors);
    return {x.mT(), info};
  }
  const bool vector = is_vector_rhs(A, B);
  const Tensor rhs = vector ? B.unsqueeze(-1) : B;
  TORCH_CHECK(rhs.size(-2) == A.size(-1), "linalg.solve: Incompatible shapes of A and B for the equation AX = B (",
              A.size(-2), "x", A.size(-1), " and ", rhs.size(-2), "x", rhs.size(-1), ")");
  auto [x, info] = solve_kernel(A, rhs);
  if (check_errors) {
    const Tensor codes = info.to(kLong).contiguous();
    for (int64_t b = 0; b < codes.numel(); ++b) {
      TORCH_CHECK(codes.data_ptr<int64_t>()[b] == 0,
                  "torch.linalg.solve: The solver failed because the input matrix is singular.");
    }
  }
  record_op(solve_op, {A, rhs}, {x});
  return {vector ? x.squeeze(-1) : x, info};
}

Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left) {
  return std::get<0>(linalg_solve_ex(A, B, left, true));
}

// ---- Cholesky ----

std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& self, bool upper, bool check_errors) {
  check_square(self, "linalg.cholesky");
  auto [L, info] = cholesky_kernel(self);
  if (check_errors) raise_cholesky_error(self, info);
  record_op(cholesky_op, {self}, {L});
  return {upper ? L.mT() : L, info};
}

Tensor linalg_cholesky(const Tensor& self, bool upper) {
  check_square(self, "linalg.cholesky");
  auto [L, info] = cholesky_kernel(self);
  raise_cholesky_error(self, info);
  record_op(cholesky_op, {self}, {L});
  return upper ? L.mT() : L;
}

// ---- Triangular solves (composed: the triangle of A, then solve) ----

Tensor linalg_solve_triangular(const Tensor& self, const Tensor& B, bool upper, bool left, bool unitriangular) {
  check_matrix_input(self, "linalg.solve_triangular");
  Tensor triangle = upper ? self.triu() : self.tril();
  if (unitriangular) {
    triangle = triangle - triangle.diagonal(0, -2, -1).diag_embed() +
               eye(self.size(-1), TensorOptions().dtype(self.scalar_type()));
  }
  return linalg_solve(triangle, B, left);
}

std::tuple<Tensor, Tensor> triangular_solve(const Tensor& self, const Tensor& A, bool upper, bool transpose,
                                            bool unitriangular) {
  const Tensor coefficient = transpose ? A.mT() : A;
  const Tensor solution =
      linalg_solve_triangular(coefficient, self, transpose ? !upper : upper, true, unitriangular);
  return {solution, A.clone()};
}

Tensor cholesky_solve(const Tensor& self, const Tensor& input2, bool upper) {
  const Tensor lower = upper ? input2.mT() : input2;
  const Tensor y = linalg_solve_triangular(lower, self, false);
  return linalg_solve_triangular(lower.mT(), y, true);
}

Tensor cholesky_inverse(const Tensor& self, bool upper) {
  const Tensor lower = upper ? self.mT() : self;
  return linalg_inv(lower.matmul(lower.mT()));
}

Tensor cholesky(const Tensor& self, bool upper) { return linalg_cholesky(self, upper); }

// ---- LU factorization ----

std::tuple<Tensor, Tensor> linalg_lu_factor(const Tensor& A, bool pivot) {
  check_matrix_input(A, "torch.linalg.lu_factor");
  TORCH_CHECK(pivot, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  Matrices m = as_matrices(A);
  const int64_t k = std::min(m.rows, m.cols);
  Tensor pivots = zeros(with_tail(batch_shape(A), {k}), TensorOptions().dtype(kLong));
  for (int64_t b = 0; b < m.batch; ++b) {
    const LU lu = lu_in_place(m.matrix(b), m.rows, m.cols);
    for (int64_t i = 0; i < k; ++i) pivots.data_ptr<int64_t>()[b * k + i] = lu.pivots[i] + 1;
  }
  return {detail::as_dtype(m.data, A.scalar_type()), pivots.to(kInt)};
}

std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU_data, const Tensor& LU_pivots, bool unpack_data,
                                             bool unpack_pivots) {
  const int64_t m = LU_data.size(-2);
  const int64_t n = LU_data.size(-1);
  const int64_t k = std::min(m, n);
  const TensorOptions options = TensorOptions().dtype(LU_data.scalar_type());
  Tensor L = empty({0}, options);
  Tensor U = empty({0}, options);
  if (unpack_data) {
    L = LU_data.narrow(-1, 0, k).tril(-1) + eye(m, k, options);
    U = LU_data.narrow(-2, 0, k).triu();
  }
  if (!unpack_pivots) return {empty({0}, options), L, U};
  // P from the row swaps: row i of P^T A is row perm[i] of A.
  Matrices pivot_rows = as_matrices(LU_pivots.to(kDouble).unsqueeze(-1));
  Tensor P = new_double(with_tail(batch_shape(LU_data), {m, m}));
  for (int64_t b = 0; b < std::max<int64_t>(pivot_rows.batch, 0); ++b) {
    std::vector<int64_t> perm(m);
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[static_cast<int64_t>(pivot_rows.matrix(b)[i]) - 1]);
    for (int64_t i = 0; i < m; ++i) P.data_ptr<double>()[b * m * m + perm[i] * m + i] = 1;
  }
  return {detail::as_dtype(P, LU_data.scalar_type()), L, U};
}

std::tuple<Tensor, Tensor, Tensor> linalg_lu(const Tensor& A, bool pivot) {
  check_matrix_input(A, "linalg.lu");
  TORCH_CHECK(pivot, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  auto [LU_data, pivots] = linalg_lu_factor(A, pivot);
  return lu_unpack(LU_data, pivots);
}

Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left, bool adjoint) {
  if (!left) return linalg_lu_solve(LU, pivots, B.mT(), true, !adjoint).mT();
  auto [P, L, U] = lu_unpack(LU, pivots);
  if (!adjoint) {  // A = P L U
    const Tensor y = linalg_solve_triangular(L, P.mT().matmul(B), false, true, true);
    return linalg_solve_triangular(U, y, true);
  }
  const Tensor y = linalg_solve_triangular(U.mT(), B, false);  // A^T = U^T L^T P^T
  return P.matmul(linalg_solve_triangular(L.mT(), y, true, true, true));
}
Tensor lu_solve(const Tensor& self, const Tensor& LU_data, const Tensor& LU_pivots) {
  return linalg_lu_solve(LU_data, LU_pivots, self);
}

// ---- Householder reflectors ----

std::tuple<Tensor, Tensor> geqrf(const Tensor& self) {
  check_matrix_input(self, "geqrf");
  Matrices r = as_matrices(self);
  const int64_t m = r.rows;
  const int64_t n = r.cols;
  const int64_t k = std::min(m, n);
  Tensor tau = new_double(with_tail(batch_shape(self), {k}));
  for (int64_t b = 0; b < r.batch; ++b) {
    double* a = r.matrix(b);
    for (int64_t j = 0; j < k; ++j) {
      const double alpha = a[j * n + j];
      double tail = 0;
      for (int64_t i = j + 1; i < m; ++i) tail += a[i * n + j] * a[i * n + j];
      if (tail == 0) continue;
      const double beta = -std::copysign(std::sqrt(alpha * alpha + tail), alpha);
      const double t = (beta - alpha) / beta;
      tau.data_ptr<double>()[b * k + j] = t;
      for (int64_t i = j + 1; i < m; ++i) a[i * n + j] /= (alpha - beta);
      for (int64_t c = j + 1; c < n; ++c) {  // the trailing columns: H = I - tau v v^T, v = (1, a[j+1:, j])
        double dot = a[j * n + c];
        for (int64_t i = j + 1; i < m; ++i) dot += a[i * n + j] * a[i * n + c];
        a[j * n + c] -= t * dot;
        for (int64_t i = j + 1; i < m; ++i) a[i * n + c] -= t * a[i * n + j] * dot;
      }
      a[j * n + j] = beta;
    }
  }
  return {detail::as_dtype(r.data, self.scalar_type()), detail::as_dtype(tau, self.scalar_type())};
}

namespace {
// The full (*, m, m) Q = H_0 H_1 ... H_{k-1} of reflectors stored below input's diagonal.
Tensor householder_q(const Tensor& input, const Tensor& tau) {
  Matrices a = as_matrices(input);
  const int64_t m = a.rows;
  const int64_t n = a.cols;
  const int64_t k = tau.size(-1);
  TORCH_CHECK(k <= n, "torch.linalg.householder_product: input.shape[-1] must be greater than or equal to tau.shape[-1]");
  const Tensor taus = detail::as_contiguous(tau, kDouble);
  Tensor Q = new_double(with_tail(batch_shape(input), {m, m}));
  std::vector<double> v(m);
  for (int64_t b = 0; b < a.batch; ++b) {
    double* q = Q.data_ptr<double>() + b * m * m;
    for (int64_t i = 0; i < m; ++i) q[i * m + i] = 1;
    for (int64_t j = k - 1; j >= 0; --j) {  // Q = H_j Q
      const double t = taus.data_ptr<double>()[b * k + j];
      for (int64_t i = 0; i < m; ++i) v[i] = i < j ? 0 : (i == j ? 1 : a.matrix(b)[i * n + j]);
      for (int64_t c = 0; c < m; ++c) {
        double dot = 0;
        for (int64_t i = j; i < m; ++i) dot += v[i] * q[i * m + c];
        for (int64_t i = j; i < m; ++i) q[i * m + c] -= t * v[i] * dot;
      }
    }
  }
  return detail::as_dtype(Q, input.scalar_type());
}
}  // namespace

Tensor linalg_householder_product(const Tensor& input, const Tensor& tau) {
  check_matrix_input(input, "torch.linalg.householder_product");
  TORCH_CHECK(input.size(-2) >= input.size(-1),
              "torch.linalg.householder_product: input.shape[-2] must be greater than or equal to input.shape[-1]");
  return householder_q(input, tau).narrow(-1, 0, input.size(-1)).contiguous();
}
Tensor orgqr(const Tensor& self, const Tensor& input2) { return linalg_householder_product(self, input2); }
Tensor ormqr(const Tensor& self, const Tensor& input2, const Tensor& input3, bool left, bool transpose) {
  const Tensor Q = householder_q(self, input2);
  const Tensor op = transpose ? Q.mT() : Q;
  return left ? op.matmul(input3) : input3.matmul(op);
}

// ---- Least squares, condition numbers, nuclear norms, pairwise distances, symeig ----

std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(const Tensor& self, const Tensor& b,
                                                        std::optional<double> rcond,
                                                        std::optional<std::string_view> driver) {
  check_matrix_input(self, "torch.linalg.lstsq");
  const bool vector = b.dim() == self.dim() - 1;
  const Tensor rhs = vector ? b.unsqueeze(-1) : b;
  const Tensor pseudo_inverse = rcond.has_value() ? linalg_pinv(self, *rcond) : linalg_pinv(self);
  Tensor solution = pseudo_inverse.matmul(rhs);
  const Tensor rank = linalg_matrix_rank(self);
  const TensorOptions options = TensorOptions().dtype(self.scalar_type());
  Tensor residuals = empty({0}, options);
  const int64_t m = self.size(-2);
  const int64_t n = self.size(-1);
  // LAPACK's gelsy (the CPU default) reports no residuals; the other drivers do for tall full-rank A.
  const bool reports_residuals = driver.has_value() && *driver != "gelsy";
  if (reports_residuals && m > n && rank.eq(n).all().item<bool>()) residuals = (self.matmul(solution) - rhs).square().sum(-2);
  if (vector) solution = solution.squeeze(-1);
  return {solution, residuals, rank, empty({0}, options)};
}

Tensor linalg_cond(const Tensor& self, const std::optional<Scalar>& p) {
  check_matrix_input(self, "linalg.cond");
  const double order = p.has_value() ? p->toDouble() : 2.0;
  if (std::fabs(order) == 2) {
    const Tensor S = linalg_svdvals(self);
    const Tensor largest = S.narrow(-1, 0, 1).squeeze(-1);
    const Tensor smallest = S.narrow(-1, S.size(-1) - 1, 1).squeeze(-1);
    return order > 0 ? largest / smallest : smallest / largest;
  }
  check_square(self, "linalg.cond");
  return linalg_matrix_norm(self, *p) * linalg_matrix_norm(linalg_inv(self), *p);
}
Tensor linalg_cond(const Tensor& self, std::string_view p) {
  check_square(self, "linalg.cond");
  return linalg_matrix_norm(self, p) * linalg_matrix_norm(linalg_inv(self), p);
}

Tensor nuclear_norm(const Tensor& self, bool keepdim) {
  TORCH_CHECK(self.dim() == 2, "Expected a tensor with 2 dimensions, but got a tensor with ", self.dim(),
              " dimension", self.dim() == 1 ? "" : "s", " instead.");
  return linalg_matrix_norm(self, std::string_view("nuc"), {-2, -1}, keepdim);
}
Tensor nuclear_norm(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return linalg_matrix_norm(self, std::string_view("nuc"), dim, keepdim);
}

Tensor pdist(const Tensor& self, double p) {
  TORCH_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  TORCH_CHECK(p >= 0, "pdist only supports non-negative p values");
  const int64_t n = self.size(0);
  const Tensor pairs = triu_indices(n, n, 1);
  const Tensor first = self.index_select(0, pairs[0]);
  const Tensor second = self.index_select(0, pairs[1]);
  return linalg_vector_norm(first - second, p, IntArrayRef{-1});
}

std::tuple<Tensor, Tensor> symeig(const Tensor& self, bool eigenvectors, bool upper) {
  auto [values, vectors] = linalg_eigh(self, upper ? "U" : "L");
  if (!eigenvectors) return {values, empty({0}, TensorOptions().dtype(self.scalar_type()))};
  return {values, vectors};
}

// ---- QR by Householder reflections (LAPACK's geqrf signs: R's diagonal may be negative) ----

std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode) {
  TORCH_CHECK(mode == "reduced" || mode == "complete" || mode == "r",
              "qr received unrecognized mode '", std::string(mode), "' but expected one of 'reduced' (default), 'r', or 'complete'");
  check_matrix_input(A, "linalg.qr");
  Matrices r = as_matrices(A);
  const int64_t m = r.rows;
  const int64_t n = r.cols;
  const int64_t k = std::min(m, n);
  Tensor Q = new_double(with_tail(batch_shape(A), {m, m}));
  std::vector<double> v(m);
  for (int64_t b = 0; b < r.batch; ++b) {
    double* a = r.matrix(b);
    double* q = Q.data_ptr<double>() + b * m * m;
    for (int64_t i = 0; i < m; ++i) q[i * m + i] = 1;
    for (int64_t j = 0; j < k; ++j) {
      const double alpha = a[j * n + j];
      double tail = 0;
      for (int64_t i = j + 1; i < m; ++i) tail += a[i * n + j] * a[i * n + j];
      if (tail == 0) continue;  // H = I (LAPACK's tau = 0)
      const double beta = -std::copysign(std::sqrt(alpha * alpha + tail), alpha);
      const double tau = (beta - alpha) / beta;
      v[j] = 1;
      for (int64_t i = j + 1; i < m; ++i) v[i] = a[i * n + j] / (alpha - beta);
      for (int64_t c = j; c < n; ++c) {  // R = H R
        double dot = 0;
        for (int64_t i = j; i < m; ++i) dot += v[i] * a[i * n + c];
        for (int64_t i = j; i < m; ++i) a[i * n + c] -= tau * v[i] * dot;
      }
      for (int64_t row = 0; row < m; ++row) {  // Q = Q H
        double dot = 0;
        for (int64_t i = j; i < m; ++i) dot += q[row * m + i] * v[i];
        for (int64_t i = j; i < m; ++i) q[row * m + i] -= tau * dot * v[i];
      }
    }
  }
  const ScalarType dtype = A.scalar_type();
  Tensor R = detail::as_dtype(r.data, dtype).triu();
  Tensor Qt = detail::as_dtype(Q, dtype);
  if (mode == "complete") return {Qt, R};
  R = R.narrow(-2, 0, k).contiguous();
  if (mode == "r") return {empty({0}, TensorOptions().dtype(dtype)), R};
  return {Qt.narrow(-1, 0, k).contiguous(), R};
}

std::tuple<Tensor, Tensor> qr(const Tensor& self, bool some) { return linalg_qr(self, some ? "reduced" : "complete"); }

// ---- Symmetric eigenproblems by cyclic Jacobi rotations ----

std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& self, std::string_view UPLO) {
  TORCH_CHECK(UPLO == "L" || UPLO == "U", "Expected UPLO argument to be 'L' or 'U', but got ", std::string(UPLO));
  check_square(self, "linalg.eigh");
  Matrices a = as_matrices(self);
  const int64_t n = a.rows;
  Tensor values = new_double(with_tail(batch_shape(self), {n}));
  Tensor vectors = new_double(self.sizes());
  std::vector<double> w(n);
  std::vector<double> vec(n * n);
  std::vector<int64_t> order(n);
  for (int64_t b = 0; b < a.batch; ++b) {
    double* s = a.matrix(b);
    for (int64_t i = 0; i < n; ++i) {  // only the chosen triangle counts
      for (int64_t j = i + 1; j < n; ++j) {
        if (UPLO == "L") s[i * n + j] = s[j * n + i];
        else s[j * n + i] = s[i * n + j];
      }
    }
    std::fill(vec.begin(), vec.end(), 0.0);
    for (int64_t i = 0; i < n; ++i) vec[i * n + i] = 1;
    for (int sweep = 0; sweep < 100; ++sweep) {
      double off = 0;
      double total = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) (i == j ? total : off) += s[i * n + j] * s[i * n + j];
      }
      if (off <= 1e-30 * (total + off) || off == 0) break;
      for (int64_t p = 0; p < n; ++p) {
        for (int64_t q = p + 1; q < n; ++q) {
          const double apq = s[p * n + q];
          if (apq == 0) continue;
          const double theta = (s[q * n + q] - s[p * n + p]) / (2 * apq);
          const double t = std::copysign(1.0, theta) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
          const double c = 1 / std::sqrt(t * t + 1);
          const double sn = t * c;
          for (int64_t i = 0; i < n; ++i) {  // S = S J (columns p, q)
            const double sp = s[i * n + p];
            const double sq = s[i * n + q];
            s[i * n + p] = c * sp - sn * sq;
            s[i * n + q] = sn * sp + c * sq;
          }
          for (int64_t i = 0; i < n; ++i) {  // S = J^T S (rows p, q)
            const double sp = s[p * n + i];
            const double sq = s[q * n + i];
            s[p * n + i] = c * sp - sn * sq;
            s[q * n + i] = sn * sp + c * sq;
          }
          for (int64_t i = 0; i < n; ++i) {  // V = V J
            const double vp = vec[i * n + p];
            const double vq = vec[i * n + q];
            vec[i * n + p] = c * vp - sn * vq;
            vec[i * n + q] = sn * vp + c * vq;
          }
        }
      }
    }
    for (int64_t i = 0; i < n; ++i) w[i] = s[i * n + i];
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return w[x] < w[y]; });
    for (int64_t c = 0; c < n; ++c) {
      values.data_ptr<double>()[b * n + c] = w[order[c]];
      for (int64_t i = 0; i < n; ++i) vectors.data_ptr<double>()[b * n * n + i * n + c] = vec[i * n + order[c]];
    }
  }
  return {detail::as_dtype(values, self.scalar_type()), detail::as_dtype(vectors, self.scalar_type())};
}

Tensor linalg_eigvalsh(const Tensor& self, std::string_view UPLO) { return std::get<0>(linalg_eigh(self, UPLO)); }

// ---- SVD spellings, rank and pseudo-inverse ----

Tensor linalg_svdvals(const Tensor& A, std::optional<std::string_view> driver) { return linalg::svdvals(A, driver); }
std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices,
                                              std::optional<std::string_view> driver) {
  return linalg::svd(A, full_matrices, driver);
}
std::tuple<Tensor, Tensor, Tensor> Tensor::svd(bool some, bool compute_uv) const {
  return tinytorch::svd(*this, some, compute_uv);
}

namespace {
// The cut-off below which singular values count as zero: max(atol, rtol * largest), LibTorch's defaults.
Tensor singular_value_cutoff(const Tensor& S, const ScalarType dtype, int64_t m, int64_t n,
                             const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol) {
  const Tensor largest = S.numel() == 0 ? zeros_like(S.sum(-1, true)) : S.amax(-1, true);
  const TensorOptions options = TensorOptions().dtype(S.scalar_type());
  Tensor rtol_value;
  if (rtol.has_value()) {
    rtol_value = rtol->to(S.scalar_type()).unsqueeze(-1);
  } else {
    const bool atol_positive = atol.has_value() && atol->gt(0).any().item<bool>();
    rtol_value = full({}, atol_positive ? 0.0 : machine_epsilon(dtype) * std::max(m, n), options);
  }
  const Tensor atol_value = atol.has_value() ? atol->to(S.scalar_type()).unsqueeze(-1) : zeros({}, options);
  return maximum(atol_value, rtol_value * largest);
}

Tensor singular_values_of(const Tensor& A, bool hermitian) {
  return hermitian ? std::get<0>(linalg_eigvalsh(A).abs().sort(-1, true)) : linalg_svdvals(A);
}
}  // namespace

Tensor linalg_matrix_rank(const Tensor& input, const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol,
                          bool hermitian) {
  check_matrix_input(input, "torch.linalg.matrix_rank");
  const Tensor S = singular_values_of(input, hermitian);
  const Tensor cutoff = singular_value_cutoff(S, input.scalar_type(), input.size(-2), input.size(-1), atol, rtol);
  return S.gt(cutoff).sum(-1);
}
Tensor linalg_matrix_rank(const Tensor& self, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  const auto as_tensor = [](std::optional<double> v) -> std::optional<Tensor> {
    if (!v.has_value()) return std::nullopt;
    return full({}, *v, TensorOptions().dtype(kDouble));
  };
  return linalg_matrix_rank(self, as_tensor(atol), as_tensor(rtol), hermitian);
}
Tensor linalg_matrix_rank(const Tensor& self, double tol, bool hermitian) {
  return linalg_matrix_rank(self, std::optional<double>(tol), std::optional<double>(0.0), hermitian);
}
Tensor linalg_matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian) {
  return linalg_matrix_rank(input, std::optional<Tensor>(tol), std::optional<Tensor>(zeros_like(tol)), hermitian);
}

Tensor linalg_pinv(const Tensor& self, const std::optional<Tensor>& atol, const std::optional<Tensor>& rtol,
                   bool hermitian) {
  check_matrix_input(self, "linalg.pinv");
  (void)hermitian;  // the SVD serves symmetric inputs too
  auto [U, S, Vh] = linalg::svd(self, false);
  const Tensor cutoff = singular_value_cutoff(S, self.scalar_type(), self.size(-2), self.size(-1), atol, rtol);
  const Tensor inverse_s = where(S.gt(cutoff), S.reciprocal(), zeros_like(S));
  return (Vh.mT() * inverse_s.unsqueeze(-2)).matmul(U.mT());
}
Tensor linalg_pinv(const Tensor& self, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  const auto as_tensor = [](std::optional<double> v) -> std::optional<Tensor> {
    if (!v.has_value()) return std::nullopt;
    return full({}, *v, TensorOptions().dtype(kDouble));
  };
  return linalg_pinv(self, as_tensor(atol), as_tensor(rtol), hermitian);
}
Tensor linalg_pinv(const Tensor& self, double rcond, bool hermitian) {
  return linalg_pinv(self, std::optional<double>(0.0), std::optional<double>(rcond), hermitian);
}
Tensor linalg_pinv(const Tensor& self, const Tensor& rcond, bool hermitian) {
  return linalg_pinv(self, std::optional<Tensor>(zeros_like(rcond)), std::optional<Tensor>(rcond), hermitian);
}
Tensor pinverse(const Tensor& self, double rcond) { return linalg_pinv(self, rcond); }

// ---- Norms (composed, so they differentiate) ----

Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptionalIntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  TORCH_CHECK(isFloatingType(self.scalar_type()),
              "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
              toString(self.scalar_type()));
  const Tensor x = dtype.has_value() ? self.to(*dtype) : self;
  const std::vector<int64_t> dims = reduction_dims(x, dim);
  const double p = ord.toDouble();
  const Tensor magnitude = x.abs();
  if (x.dim() == 0) {
    if (p == 0) return x.ne(0).to(x.scalar_type());
    return magnitude;
  }
  if (std::isinf(p)) return p > 0 ? magnitude.amax(dims, keepdim) : magnitude.amin(dims, keepdim);
  if (p == 0) return x.ne(0).to(x.scalar_type()).sum(dims, keepdim);
  if (p == 1) return magnitude.sum(dims, keepdim);
  if (p == 2) return x.square().sum(dims, keepdim).sqrt();
  return magnitude.pow(p).sum(dims, keepdim).pow(1.0 / p);
}

namespace {
// Reduces the two matrix dims d0, d1 of A with the (*, 2-D) -> (*) function `reduce` applied to
// A with those dims moved last; keepdim puts them back as size 1.
template <typename Reduce>
Tensor reduce_matrix_dims(const Tensor& A, int64_t d0, int64_t d1, bool keepdim, Reduce reduce) {
  Tensor result = reduce(A.movedim({d0, d1}, {-2, -1}));
  if (keepdim) {
    result = result.unsqueeze(std::min(d0, d1)).unsqueeze(std::max(d0, d1));
  }
  return result;
}
}  // namespace

Tensor linalg_matrix_norm(const Tensor& self, const Scalar& ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  TORCH_CHECK(self.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  TORCH_CHECK(isFloatingType(self.scalar_type()),
              "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got ",
              toString(self.scalar_type()));
  TORCH_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got ", dim.size(), " dims");
  const Tensor A = dtype.has_value() ? self.to(*dtype) : self;
  const int64_t d0 = dim[0] < 0 ? dim[0] + A.dim() : dim[0];
  const int64_t d1 = dim[1] < 0 ? dim[1] + A.dim() : dim[1];
  const double p = ord.toDouble();
  TORCH_CHECK(std::fabs(p) == 2 || std::fabs(p) == 1 || std::isinf(p),
              "linalg.matrix_norm: Order ", p, " not supported.");
  if (std::fabs(p) == 2) {
    return reduce_matrix_dims(A, d0, d1, keepdim, [&](const Tensor& m) {
      const Tensor S = linalg_svdvals(m);
      return p > 0 ? S.amax(-1) : S.amin(-1);
    });
  }
  // 1: the largest column sum (sum over d0, then max over d1); inf: the largest row sum.
  const int64_t sum_dim = std::fabs(p) == 1 ? d0 : d1;
  const int64_t max_dim = std::fabs(p) == 1 ? d1 : d0;
  const Tensor sums = A.abs().sum({sum_dim}, true);
  Tensor result = p > 0 ? sums.amax({max_dim}, true) : sums.amin({max_dim}, true);
  if (!keepdim) result = result.squeeze(std::max(d0, d1)).squeeze(std::min(d0, d1));
  return result;
}

Tensor linalg_matrix_norm(const Tensor& self, std::string_view ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  TORCH_CHECK(ord == "fro" || ord == "nuc", "linalg.matrix_norm: Order ", std::string(ord), " not supported.");
  TORCH_CHECK(self.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  TORCH_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got ", dim.size(), " dims");
  if (ord == "fro") return linalg_vector_norm(self, 2, dim, keepdim, dtype);
  TORCH_CHECK(isFloatingType(self.scalar_type()),
              "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got ",
              toString(self.scalar_type()));
  const Tensor A = dtype.has_value() ? self.to(*dtype) : self;
  const int64_t d0 = dim[0] < 0 ? dim[0] + A.dim() : dim[0];
  const int64_t d1 = dim[1] < 0 ? dim[1] + A.dim() : dim[1];
  return reduce_matrix_dims(A, d0, d1, keepdim, [](const Tensor& m) { return linalg_svdvals(m).sum(-1); });
}

Tensor linalg_norm(const Tensor& self, const std::optional<Scalar>& ord, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  if (dim.has_value()) {
    TORCH_CHECK(dim->size() == 1 || dim->size() == 2, "linalg.norm: If dim is specified, it must be of length 1 or 2. Got ",
                dim->size());
  } else if (ord.has_value()) {
    TORCH_CHECK(self.dim() == 1 || self.dim() == 2, "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ",
                self.dim(), "D.");
  }
  const bool matrix = (dim.has_value() && dim->size() == 2) || (!dim.has_value() && ord.has_value() && self.dim() == 2);
  if (matrix) {
    const std::vector<int64_t> dims = dim.has_value() ? std::vector<int64_t>(dim->begin(), dim->end())
                                                      : std::vector<int64_t>{-2, -1};
    if (!ord.has_value()) return linalg_matrix_norm(self, std::string_view("fro"), dims, keepdim, dtype);
    return linalg_matrix_norm(self, *ord, dims, keepdim, dtype);
  }
  return linalg_vector_norm(self, ord.value_or(Scalar(2.0)), dim, keepdim, dtype);
}

Tensor linalg_norm(const Tensor& self, std::string_view ord, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  if (dim.has_value()) {
    TORCH_CHECK(dim->size() == 2, "linalg.norm: If dim is specified, it mut be of length 2. Got ", dim->size());
  } else {
    TORCH_CHECK(self.dim() == 2, "linalg.norm: If dim is not specified but ord is, the input must be 2D. Got ",
                self.dim(), "D.");
  }
  const std::vector<int64_t> dims = dim.has_value() ? std::vector<int64_t>(dim->begin(), dim->end())
                                                    : std::vector<int64_t>{-2, -1};
  return linalg_matrix_norm(self, ord, dims, keepdim, dtype);
}

// ---- Matrix exponential: scaling and squaring of the Taylor series (composed) ----

Tensor linalg_matrix_exp(const Tensor& self) {
  check_square(self, "linalg.matrix_exp");
  const int64_t n = self.size(-1);
  const Tensor identity = eye(n, TensorOptions().dtype(self.scalar_type())).expand(self.sizes());
  if (self.numel() == 0) return self.clone();
  const double norm = self.detach().abs().sum(-2).amax().item<double>();
  const int squarings = norm > 0.5 ? static_cast<int>(std::ceil(std::log2(norm / 0.5))) : 0;
  const Tensor X = self / std::ldexp(1.0, squarings);
  Tensor result = identity + X;
  Tensor term = X;
  for (int k = 2; k <= 18; ++k) {
    term = term.matmul(X) / static_cast<double>(k);
    result = result + term;
  }
  for (int i = 0; i < squarings; ++i) result = result.matmul(result);
  return result;
}
Tensor matrix_exp(const Tensor& self) { return linalg_matrix_exp(self); }

// ---- Small compositions ----

Tensor linalg_diagonal(const Tensor& A, int64_t offset, int64_t dim1, int64_t dim2) {
  return A.diagonal(offset, dim1, dim2);
}
Tensor linalg_matmul(const Tensor& self, const Tensor& other) { return self.matmul(other); }
Tensor linalg_vecdot(const Tensor& x, const Tensor& y, int64_t dim) { return (x * y).sum({dim}); }

Tensor linalg_tensorinv(const Tensor& self, int64_t ind) {
  TORCH_CHECK(ind > 0, "Expected a strictly positive integer for 'ind', but got ", ind);
  const std::vector<int64_t> out_shape(self.sizes().begin() + ind, self.sizes().end());
  const std::vector<int64_t> in_shape(self.sizes().begin(), self.sizes().begin() + ind);
  const int64_t rows = std::accumulate(in_shape.begin(), in_shape.end(), int64_t{1}, std::multiplies<>());
  const int64_t cols = std::accumulate(out_shape.begin(), out_shape.end(), int64_t{1}, std::multiplies<>());
  TORCH_CHECK(rows == cols, "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
              "but got ", cols, " != ", rows);
  std::vector<int64_t> result_shape = out_shape;
  result_shape.insert(result_shape.end(), in_shape.begin(), in_shape.end());
  return linalg_inv(self.reshape({rows, cols})).reshape(result_shape);
}

Tensor linalg_tensorsolve(const Tensor& self, const Tensor& other, OptionalIntArrayRef dims) {
  Tensor a = self;
  if (dims.has_value() && !dims->empty()) {
    std::vector<int64_t> destination;
    for (size_t i = 0; i < dims->size(); ++i) destination.push_back(self.dim() - static_cast<int64_t>(dims->size()) + i);
    a = self.movedim(*dims, destination);
  }
  const std::vector<int64_t> result_shape(a.sizes().begin() + other.dim(), a.sizes().end());
  const int64_t rows = other.numel();
  const int64_t cols = std::accumulate(result_shape.begin(), result_shape.end(), int64_t{1}, std::multiplies<>());
  return linalg_solve(a.reshape({rows, cols}), other.reshape({rows})).reshape(result_shape);
}

Tensor linalg_vander(const Tensor& x, std::optional<int64_t> N) {
  TORCH_CHECK(x.dim() >= 1, "x must be at least 1-dimensional.");
  const int64_t n = N.value_or(x.size(-1));
  TORCH_CHECK(n > 1, "N must be greater than 1.");
  std::vector<Tensor> powers{ones_like(x)};
  for (int64_t k = 1; k < n; ++k) powers.push_back(powers.back() * x);
  return stack(powers, -1);
}

// ---- The older spellings ----

Tensor det(const Tensor& self) { return linalg_det(self); }
Tensor logdet(const Tensor& self) {
  auto [sign, logabsdet] = linalg_slogdet(self);
  return logabsdet + sign.log();  // nan for a negative determinant, -inf for a zero one
}
std::tuple<Tensor, Tensor> slogdet(const Tensor& self) { return linalg_slogdet(self); }
Tensor inverse(const Tensor& self) { return linalg_inv(self); }

Tensor Tensor::det() const { return tinytorch::det(*this); }
Tensor Tensor::logdet() const { return tinytorch::logdet(*this); }
std::tuple<Tensor, Tensor> Tensor::slogdet() const { return tinytorch::slogdet(*this); }
Tensor Tensor::inverse() const { return tinytorch::inverse(*this); }
Tensor Tensor::cholesky(bool upper) const { return tinytorch::cholesky(*this, upper); }
Tensor Tensor::cholesky_solve(const Tensor& input2, bool upper) const {
  return tinytorch::cholesky_solve(*this, input2, upper);
}
Tensor Tensor::cholesky_inverse(bool upper) const { return tinytorch::cholesky_inverse(*this, upper); }
std::tuple<Tensor, Tensor> Tensor::qr(bool some) const { return tinytorch::qr(*this, some); }
std::tuple<Tensor, Tensor> Tensor::triangular_solve(const Tensor& A, bool upper, bool transpose,
                                                    bool unitriangular) const {
  return tinytorch::triangular_solve(*this, A, upper, transpose, unitriangular);
}
Tensor Tensor::pinverse(double rcond) const { return tinytorch::pinverse(*this, rcond); }
Tensor Tensor::matrix_exp() const { return tinytorch::matrix_exp(*this); }
Tensor Tensor::mT() const {
  TORCH_CHECK(dim() >= 2, "tensor.mT is only supported on matrices or batches of matrices. Got ", dim(), "-D tensor.");
  return transpose(-2, -1);
}
Tensor Tensor::mH() const {
  TORCH_CHECK(dim() >= 2, "tensor.mH is only supported on matrices or batches of matrices. Got ", dim(), "-D tensor.");
  return transpose(-2, -1);
}
Tensor Tensor::matrix_H() const {
  TORCH_CHECK(dim() == 2, "tensor.H is only supported on matrices (2-D tensors). Got ", dim(), "-D tensor.");
  return transpose(0, 1);
}
Tensor Tensor::adjoint() const {
  TORCH_CHECK(dim() >= 2, "tensor.adjoint() is only supported on matrices or batches of matrices. Got ", dim(),
              "-D tensor.");
  return transpose(-2, -1);
}

}  // namespace tinytorch
