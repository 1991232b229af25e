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

// TODO: rank_k_factors -- the best rank-k approximation of W (Eckart-Young, section 5) as two
//   factors: keep the `rank` LARGEST singular values (the first ones) with their vectors:
//   up = U[:, :k] diag(S[:k]) of shape (m, k) and down = Vh[:k, :] of shape (k, n), so that
//   up @ down = W_k. U (m, K), S (K), Vh (K, n), K >= k. Use tensor ops (slice / narrow, *).
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
