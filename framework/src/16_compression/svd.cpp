// torch::linalg::svd and torch::svd (module 16; given: the learner uses the factors, see
// compression.cpp). One-sided Jacobi (Hestenes): rotate pairs of columns of A until every pair is
// orthogonal; then A V = W has orthogonal columns, S_j = |W_j|, U_j = W_j / S_j and A = U S V^T.
// All arithmetic in double: a float accumulation would lose the small singular values.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/linalg.h"

namespace tinytorch {
namespace {

// A column-major matrix: column j is data[j * rows, (j + 1) * rows).
struct Columns {
  int64_t rows = 0, cols = 0;
  std::vector<double> data;
  double* col(int64_t j) { return data.data() + j * rows; }
  const double* col(int64_t j) const { return data.data() + j * rows; }
};

double dot(const double* a, const double* b, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// Makes columns [first, cols) of q orthonormal to every earlier column and to each other, starting
// from the unit vectors e_0, e_1, ... (Gram-Schmidt, twice for accuracy): completes a basis.
void complete_basis(Columns& q, int64_t first) {
  int64_t candidate = 0;
  for (int64_t j = first; j < q.cols; ++j) {
    double* v = q.col(j);
    for (;; ++candidate) {
      TT_CHECK(candidate < q.rows, "svd: could not complete an orthonormal basis");
      std::fill(v, v + q.rows, 0.0);
      v[candidate] = 1.0;
      for (int pass = 0; pass < 2; ++pass) {
        for (int64_t k = 0; k < j; ++k) {
          const double projection = dot(v, q.col(k), q.rows);
          for (int64_t i = 0; i < q.rows; ++i) v[i] -= projection * q.col(k)[i];
        }
      }
      const double norm = std::sqrt(dot(v, v, q.rows));
      if (norm > 1e-6) {  // e_candidate was not (nearly) in the span already
        for (int64_t i = 0; i < q.rows; ++i) v[i] /= norm;
        ++candidate;
        break;
      }
    }
  }
}

struct Decomposition {
  Columns u;                   // rows x (full ? rows : k)
  std::vector<double> s;       // k, descending
  Columns v;                   // cols x cols (square: the rotations applied)
};

// SVD of a tall (rows >= cols) column-major matrix.
Decomposition jacobi_svd(Columns w, bool full) {
  const int64_t m = w.rows, n = w.cols;
  Columns v{n, n, std::vector<double>(static_cast<size_t>(n * n), 0.0)};
  for (int64_t j = 0; j < n; ++j) v.col(j)[j] = 1.0;
  const double eps = 1e-15;
  for (int sweep = 0; sweep < 100; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p + 1 < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double* wp = w.col(p);
        double* wq = w.col(q);
        const double alpha = dot(wp, wp, m), beta = dot(wq, wq, m), gamma = dot(wp, wq, m);
        if (gamma == 0.0 || std::abs(gamma) <= eps * std::sqrt(alpha * beta)) continue;
        rotated = true;
        // The rotation that makes columns p and q orthogonal (the smaller of the two angles).
        const double zeta = (beta - alpha) / (2.0 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
        for (int64_t i = 0; i < m; ++i) {
          const double a = wp[i], b = wq[i];
          wp[i] = c * a - s * b;
          wq[i] = s * a + c * b;
        }
        double* vp = v.col(p);
        double* vq = v.col(q);
        for (int64_t i = 0; i < n; ++i) {
          const double a = vp[i], b = vq[i];
          vp[i] = c * a - s * b;
          vq[i] = s * a + c * b;
        }
      }
    }
    if (!rotated) break;
  }
  // Singular values are the column norms; order them largest first.
  std::vector<double> norms(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) norms[j] = std::sqrt(dot(w.col(j), w.col(j), m));
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return norms[a] > norms[b]; });

  Decomposition result;
  const int64_t u_cols = full ? m : n;
  result.u = Columns{m, u_cols, std::vector<double>(static_cast<size_t>(m * u_cols), 0.0)};
  result.v = Columns{n, n, std::vector<double>(static_cast<size_t>(n * n), 0.0)};
  result.s.resize(static_cast<size_t>(n));
  const double tiny = norms.empty() ? 0.0 : std::max(norms[order[0]], 1.0) * 1e-13 * static_cast<double>(m);
  int64_t valid = 0;  // U's columns with a direction of their own (non-zero singular value)
  for (int64_t j = 0; j < n; ++j) {
    const int64_t from = order[j];
    result.s[j] = norms[from];
    std::copy(v.col(from), v.col(from) + n, result.v.col(j));
    if (norms[from] > tiny) {
      for (int64_t i = 0; i < m; ++i) result.u.col(j)[i] = w.col(from)[i] / norms[from];
      valid = j + 1;
    }
  }
  // Zero singular values (and the extra columns of a full U) get any orthonormal completion.
  complete_basis(result.u, valid);
  return result;
}

void check_svd_input(const Tensor& input, const char* function) {
  TT_CHECK(input.dim() >= 2, function, ": The input tensor A must have at least 2 dimensions.");
  TT_CHECK(input.scalar_type() == kFloat || input.scalar_type() == kDouble, function,
           ": Expected a floating point or complex tensor as input. Got ", toString(input.scalar_type()));
}

}  // namespace

namespace linalg {

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& input, bool full_matrices, std::optional<std::string_view> driver) {
  check_svd_input(input, "linalg.svd");
  TT_CHECK(!driver.has_value(), "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
           "cuSOLVER backend.");
  const int64_t m = input.size(-2), n = input.size(-1), k = std::min(m, n);
  std::vector<int64_t> batch(input.sizes().begin(), input.sizes().end() - 2);
  int64_t batch_count = 1;
  for (int64_t b : batch) batch_count *= b;
  const int64_t u_cols = full_matrices ? m : k, vh_rows = full_matrices ? n : k;
  auto with = [&](std::vector<int64_t> last) {
    std::vector<int64_t> sizes = batch;
    sizes.insert(sizes.end(), last.begin(), last.end());
    return sizes;
  };
  const Tensor a = input.to(kDouble).contiguous();
  Tensor u = zeros(with({m, u_cols}), input.options().dtype(kDouble));
  Tensor s = zeros(with({k}), input.options().dtype(kDouble));
  Tensor vh = zeros(with({vh_rows, n}), input.options().dtype(kDouble));
  const double* a_data = a.data_ptr<double>();
  double* u_data = u.data_ptr<double>();
  double* s_data = s.data_ptr<double>();
  double* vh_data = vh.data_ptr<double>();
  const bool tall = m >= n;
  for (int64_t b = 0; b < batch_count && k > 0; ++b) {
    const double* matrix = a_data + b * m * n;  // row-major m x n
    // Work on A when tall, on A^T otherwise, so Jacobi always rotates the fewer, longer columns.
    const int64_t rows = tall ? m : n, cols = tall ? n : m;
    Columns w{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (tall) w.col(j)[i] = matrix[i * n + j];
        else w.col(i)[j] = matrix[i * n + j];
      }
    const Decomposition d = jacobi_svd(std::move(w), full_matrices);
    // tall: A = d.u S d.v^T.  wide: A^T = d.u S d.v^T, so A = d.v S d.u^T.
    const Columns& left = tall ? d.u : d.v;    // U's columns
    const Columns& right = tall ? d.v : d.u;   // V's columns (Vh's rows)
    double* u_out = u_data + b * m * u_cols;
    double* vh_out = vh_data + b * vh_rows * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < u_cols; ++j) u_out[i * u_cols + j] = left.col(j)[i];
    for (int64_t r = 0; r < vh_rows; ++r)
      for (int64_t j = 0; j < n; ++j) vh_out[r * n + j] = right.col(r)[j];
    for (int64_t j = 0; j < k; ++j) s_data[b * k + j] = d.s[j];
  }
  const ScalarType dtype = input.scalar_type();
  return {u.to(dtype), s.to(dtype), vh.to(dtype)};
}

Tensor svdvals(const Tensor& input, std::optional<std::string_view> driver) {
  return std::get<1>(svd(input, false, driver));
}

}  // namespace linalg

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some, bool compute_uv) {
  check_svd_input(self, "linalg.svd");
  auto [u, s, vh] = linalg::svd(self, !some);
  if (!compute_uv) {
    const int64_t m = self.size(-2), n = self.size(-1);
    std::vector<int64_t> batch(self.sizes().begin(), self.sizes().end() - 2);
    std::vector<int64_t> u_sizes = batch, v_sizes = batch;
    u_sizes.insert(u_sizes.end(), {m, m});
    v_sizes.insert(v_sizes.end(), {n, n});
    return {zeros(u_sizes, self.options()), s, zeros(v_sizes, self.options())};
  }
  return {u, s, vh.transpose(-2, -1)};
}

}  // namespace tinytorch
