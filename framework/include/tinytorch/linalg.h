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

}  // namespace tinytorch
