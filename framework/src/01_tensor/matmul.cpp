// Module 01 (Tensor), lesson section "6. Matrix multiplication".
// The given code (linalg.cpp) has already checked that both inputs have the same dtype (and not
// bool); your functions check shapes and compute. A matrix product of (n x m) and (m x p) costs
// n * p * m multiply-adds: 2 * n * m * p FLOPs.
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: mm(self, mat2) -> the matrix product of an (n x m) and an (m x p) matrix, (n x p), with the
//   dtype and options of self, computed by your own loops (lesson section 6). The inputs may be
//   views (a transposed matrix has strides {1, rows}). Element types: TT_DISPATCH_NUMERIC_TYPES
//   (self.scalar_type(), "addmm_impl_cpu_", [&] { ... scalar_t ... }) gives you scalar_t.
//   Errors: "self must be a matrix" / "mat2 must be a matrix" (not 2-D); inner sizes that differ ->
//   "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)" (n x m and m2 x p).
//   Example: [[1, 2], [3, 4]] mm [[5], [6]] = [[17], [39]].
Tensor mm(const Tensor& self, const Tensor& mat2) {
  // BEGIN SOLUTION name="tinytorch::native::mm" lesson="6. Matrix multiplication"
  TT_CHECK(self.dim() == 2, "self must be a matrix");
  TT_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  const int64_t n = self.size(0), m = self.size(1), p = mat2.size(1);
  TT_CHECK(m == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", n, "x", m, " and ", mat2.size(0), "x",
           p, ")");
  Tensor out = zeros({n, p}, self.options());
  // A transposed mat2 (a Linear layer's weight.t()) is copied into row-major order once, n p m work
  // against m p for the copy: then every row of it is unit-stride, and the inner loop below vectorises.
  const Tensor b_rows = mat2.stride(1) == 1 || n < 4 ? mat2 : mat2.contiguous();
  // The strides as plain numbers: a call per element in the inner loop would cost more than the work.
  const int64_t a_row = self.stride(0), a_col = self.stride(1);
  const int64_t b_row_stride = b_rows.stride(0), b_col = b_rows.stride(1);
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "addmm_impl_cpu_", [&] {
    const scalar_t* a = static_cast<const scalar_t*>(self.data_ptr());
    const scalar_t* b = static_cast<const scalar_t*>(b_rows.data_ptr());
    scalar_t* c = static_cast<scalar_t*>(out.data_ptr());
    // i, k, j order: the innermost loop walks a row of mat2 and a row of out, which is contiguous
    // memory for the usual layouts; each out[i][j] still adds its m products in the order k = 0, 1, ...
    for (int64_t i = 0; i < n; ++i) {
      scalar_t* c_row = c + i * p;
      for (int64_t k = 0; k < m; ++k) {
        const scalar_t a_ik = a[i * a_row + k * a_col];
        const scalar_t* b_row = b + k * b_row_stride;
        if (b_col == 1) {  // unit stride, stated plainly so that the compiler vectorises
          for (int64_t j = 0; j < p; ++j) c_row[j] += a_ik * b_row[j];
        } else {
          for (int64_t j = 0; j < p; ++j) c_row[j] += a_ik * b_row[j * b_col];
        }
      }
    }
  });
  return out;
  // END SOLUTION
}

// TODO: bmm(self, mat2) -> a batch of matrix products: (b x n x m) bmm (b x m x p) -> (b x n x p),
//   product s of matrix s of each input; inputs may be views, as in mm (lesson section 6).
//   Errors: "batch1 must be a 3D tensor" / "batch2 must be a 3D tensor"; mat2's first two sizes not
//   {b, m} -> "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."
//   (note the final period).
//   Example: [[[1, 2]], [[3, 4]]] (2 x 1 x 2) bmm [[[1], [1]], [[2], [0]]] (2 x 2 x 1) = [[[3]], [[6]]].
Tensor bmm(const Tensor& self, const Tensor& mat2) {
  // BEGIN SOLUTION name="tinytorch::native::bmm" lesson="6. Matrix multiplication"
  TT_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  TT_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  const int64_t batches = self.size(0), n = self.size(1), m = self.size(2), p = mat2.size(2);
  TT_CHECK(mat2.size(0) == batches && mat2.size(1) == m, "Expected size for first two dimensions of batch2 tensor to be: [",
           batches, ", ", m, "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  Tensor out = zeros({batches, n, p}, self.options());
  // As in mm: mat2's rows unit-stride (copied once when they are not: attention's k.transpose(1, 2)),
  // and the strides read once, outside the loops.
  const Tensor b_rows = mat2.stride(2) == 1 || n < 4 ? mat2 : mat2.contiguous();
  const int64_t a_batch = self.stride(0), a_row = self.stride(1), a_col = self.stride(2);
  const int64_t b_batch = b_rows.stride(0), b_row_stride = b_rows.stride(1), b_col = b_rows.stride(2);
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "bmm", [&] {
    const scalar_t* a = static_cast<const scalar_t*>(self.data_ptr());
    const scalar_t* b = static_cast<const scalar_t*>(b_rows.data_ptr());
    scalar_t* c = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t s = 0; s < batches; ++s) {
      for (int64_t i = 0; i < n; ++i) {
        scalar_t* c_row = c + (s * n + i) * p;
        for (int64_t k = 0; k < m; ++k) {
          const scalar_t a_ik = a[s * a_batch + i * a_row + k * a_col];
          const scalar_t* b_row = b + s * b_batch + k * b_row_stride;
          if (b_col == 1) {
            for (int64_t j = 0; j < p; ++j) c_row[j] += a_ik * b_row[j];
          } else {
            for (int64_t j = 0; j < p; ++j) c_row[j] += a_ik * b_row[j * b_col];
          }
        }
      }
    }
  });
  return out;
  // END SOLUTION
}

// TODO: matmul(self, other) -> LibTorch's matmul (lesson section 6, "The three entry points"): by
//   the ranks, a dot product (1-D x 1-D, a 0-dim result), matrix-vector, vector-matrix, mm, or a
//   batched product whose leading dims broadcast (section 4's rule) while the last two multiply.
//   Build it from the public ops (tinytorch::mm, bmm, unsqueeze, squeeze, expand, reshape,
//   infer_size): it needs no loop of its own. A batch of 3 or more dims times a matrix or vector
//   (a Linear layer on a (B, T, E) input) folds the batch into rows: one mm of (B T, E), whose result
//   goes back to the batch shape through tinytorch::_unsafe_view(result, shape), as in LibTorch.
//   Errors, LibTorch's messages: a 0-dim side -> "both arguments to matmul need to be at least 1D,
//   but they are 0D and 1D" (the actual ranks); 1-D x 1-D of different lengths -> "inconsistent
//   tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and
//   4 elements respectively"; 2-D x 1-D mismatch -> "size mismatch, got 2, 2x3,4" (self.size(0),
//   self.size(0) x self.size(1), other.size(0)); other mismatches -> mm's and bmm's errors.
//   Examples: [1, 2, 3] matmul [4, 5, 6] = 32 (0-dim); {10, 1, 2, 3} matmul {5, 3, 4} -> {10, 5, 2, 4}.
Tensor matmul(const Tensor& self, const Tensor& other) {
  // BEGIN SOLUTION name="tinytorch::native::matmul" lesson="6. Matrix multiplication"
  const int64_t dim_a = self.dim(), dim_b = other.dim();
  TT_CHECK(dim_a > 0 && dim_b > 0, "both arguments to matmul need to be at least 1D, but they are ", dim_a, "D and ",
           dim_b, "D");
  if (dim_a == 1 && dim_b == 1) {
    TT_CHECK(self.size(0) == other.size(0), "inconsistent tensor size, expected tensor [", self.size(0),
             "] and src [", other.size(0), "] to have the same number of elements, but got ", self.size(0), " and ",
             other.size(0), " elements respectively");
    return tinytorch::mm(self.unsqueeze(0), other.unsqueeze(1)).reshape({});
  }
  if (dim_a == 2 && dim_b == 1) {
    TT_CHECK(self.size(1) == other.size(0), "size mismatch, got ", self.size(0), ", ", self.size(0), "x",
             self.size(1), ",", other.size(0));
    return tinytorch::mm(self, other.unsqueeze(1)).squeeze(1);
  }
  if (dim_a == 1 && dim_b == 2) return tinytorch::mm(self.unsqueeze(0), other).squeeze(0);
  if (dim_a == 2 && dim_b == 2) return tinytorch::mm(self, other);
  if (dim_a >= 3 && dim_b <= 2) {
    // (batch..., n, m) x (m, p) or (m): fold the batch into the rows, one (batch n, m) product, as
    // LibTorch does: one big product instead of many small ones, and a weight gradient of one mm.
    const int64_t m = self.size(-1);
    std::vector<int64_t> out_shape(self.sizes().begin(), self.sizes().end() - 1);
    const Tensor rows = self.reshape({-1, m});
    if (dim_b == 1) {
      TT_CHECK(other.size(0) == m, "size mismatch, got ", rows.size(0), ", ", rows.size(0), "x", m, ",", other.size(0));
      return tinytorch::_unsafe_view(tinytorch::mm(rows, other.unsqueeze(1)), out_shape);
    }
    out_shape.push_back(other.size(1));
    return tinytorch::_unsafe_view(tinytorch::mm(rows, other), out_shape);
  }

  // Batched: (batch_a..., n, m) x (batch_b..., m, p) with the batch dims broadcast.
  const Tensor a = dim_a == 1 ? self.unsqueeze(0) : self;
  const Tensor b = dim_b == 1 ? other.unsqueeze(1) : other;
  const int64_t n = a.size(-2), m = a.size(-1), m_b = b.size(-2), p = b.size(-1);
  const std::vector<int64_t> batch_a(a.sizes().begin(), a.sizes().end() - 2);
  const std::vector<int64_t> batch_b(b.sizes().begin(), b.sizes().end() - 2);
  const std::vector<int64_t> batch = infer_size(batch_a, batch_b);
  const int64_t batch_count = product(batch);

  std::vector<int64_t> a_shape = batch, b_shape = batch;
  a_shape.insert(a_shape.end(), {n, m});
  b_shape.insert(b_shape.end(), {m_b, p});
  const Tensor a3 = a.expand(a_shape).reshape({batch_count, n, m});
  const Tensor b3 = b.expand(b_shape).reshape({batch_count, m_b, p});

  std::vector<int64_t> out_shape = batch;
  if (dim_a > 1) out_shape.push_back(n);
  if (dim_b > 1) out_shape.push_back(p);
  return tinytorch::bmm(a3, b3).view(out_shape);
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
