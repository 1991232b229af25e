// Module 11 (Embeddings), lesson sections "2. The lookup" and "3. The gradient is a scatter-add".
// The given code (embedding.cpp) has already checked the indices with LibTorch's messages (kLong,
// every entry in [0, V)), flattened them to (n) and made weight and grad_output contiguous. Rows are
// read through raw pointers into row-major storage (module 01's strides).
#include "tinytorch/embedding_kernels.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: embedding_lookup(weight (V, d), indices (n) kLong, all valid) -> out (n, d) of weight's
//   dtype whose row i equals weight's row indices[i] (section 2). Example: weight [[0, 1], [2, 3], [4, 5]],
//   indices [2, 0, 2] -> out [[4, 5], [0, 1], [4, 5]].
Tensor embedding_lookup(const Tensor& weight, const Tensor& indices) {
  Tensor out = empty({indices.numel(), weight.size(1)}, weight.options());
  // BEGIN SOLUTION name="tinytorch::native::embedding_lookup" lesson="2. The lookup"
  const int64_t n = indices.numel(), d = weight.size(1);
  TT_DISPATCH_FLOATING_TYPES(weight.scalar_type(), "embedding", [&] {
    const scalar_t* table = weight.data_ptr<scalar_t>();
    const int64_t* rows = indices.data_ptr<int64_t>();
    scalar_t* result = out.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) {
      const scalar_t* row = table + rows[i] * d;
      for (int64_t c = 0; c < d; ++c) result[i * d + c] = row[c];
    }
  });
  // END SOLUTION
  return out;
}

// TODO: embedding_backward_scatter(grad_output (n, d), indices (n), num_weights V, padding_idx)
//   -> grad_weight (V, d), the gradient of embedding_lookup with respect to weight (section 3): every
//   occurrence of an index contributes, and rows no index used stay zero. The row padding_idx
//   (already wrapped into [0, V); -1 when there is none) gets nothing, so padding never learns. Example: indices [0, 2, 0],
//   grad_output all ones (3, 2) -> grad_weight [[2, 2], [0, 0], [1, 1]] for V = 3.
Tensor embedding_backward_scatter(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                  int64_t padding_idx) {
  Tensor grad_weight = zeros({num_weights, grad_output.size(1)}, grad_output.options());
  // BEGIN SOLUTION name="tinytorch::native::embedding_backward_scatter" lesson="3. The gradient is a scatter-add"
  const int64_t n = indices.numel(), d = grad_output.size(1);
  TT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "embedding_backward", [&] {
    const scalar_t* grad = grad_output.data_ptr<scalar_t>();
    const int64_t* rows = indices.data_ptr<int64_t>();
    scalar_t* result = grad_weight.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (rows[i] == padding_idx) continue;  // the padding row never learns
      scalar_t* row = result + rows[i] * d;
      for (int64_t c = 0; c < d; ++c) row[c] += grad[i * d + c];
    }
  });
  // END SOLUTION
  return grad_weight;
}

}  // namespace native
}  // namespace tinytorch
