// Module 16 (Compression), lesson section "5. Low-rank factorisation". The given code
// (compression.cpp) has computed W = U diag(S) Vh with torch::linalg::svd (S descending) and checked
// 1 <= rank <= S.size(0); it builds the two Linears of factorize_linear from your factors.
#include <utility>

#include "tinytorch/compression_kernels.h"
#include "tinytorch/errors.h"
#include "tinytorch/indexing.h"

namespace tinytorch {
namespace compression {
namespace native {

// TODO: rank_k_factors -- the best rank-k approximation W_k of W (Eckart-Young, section 5,
//   "Low-rank factorisation") as two factors with up @ down = W_k: up of shape (m, k) carrying the
//   singular values, down of shape (k, n) holding right singular vectors only. Inputs: the
//   decomposition W = U diag(S) Vh, U (m, K), S (K, descending), Vh (K, n), and k = `rank` <= K.
//   Tensor ops, no loops: the result keeps U's dtype.
//   Example: U = I, S = [3, 2, 1], Vh = I (3 x 3), rank 2 -> up [[3, 0], [0, 2], [0, 0]],
//   down [[1, 0, 0], [0, 1, 0]].
std::pair<Tensor, Tensor> rank_k_factors(const Tensor& U, const Tensor& S, const Tensor& Vh, int64_t rank) {
  // BEGIN SOLUTION name="tinytorch::compression::native::rank_k_factors" lesson="5. Low-rank factorisation"
  const Tensor up = U.narrow(1, 0, rank) * S.narrow(0, 0, rank);  // scales column j by S[j]
  const Tensor down = Vh.narrow(0, 0, rank);
  return {up.contiguous(), down.contiguous()};
  // END SOLUTION
}

}  // namespace native
}  // namespace compression
}  // namespace tinytorch
