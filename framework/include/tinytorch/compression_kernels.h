#pragma once
// Module 16's learner functions (framework/src/16_compression/) that the given code (prune.cpp,
// compression.cpp) calls; not part of LibTorch's API.
#include <cstdint>
#include <utility>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace compression {
namespace native {

// pruning_masks.cpp: new masks, each a copy of masks[i] with `count` more zeros in all, at the
// `count` smallest importance[i] entries ranked together across every tensor among those still kept.
std::vector<Tensor> smallest_magnitude_masks(const std::vector<Tensor>& importance, const std::vector<Tensor>& masks,
                                             int64_t count);
// pruning_masks.cpp: the weight forward() uses, orig * mask, with a gradient to orig.
Tensor apply_mask(const Tensor& orig, const Tensor& mask);
// pruning_masks.cpp: the Ln norm of each slice of weight along dim: (weight.size(dim)) in double.
Tensor channel_norms(const Tensor& weight, double n, int64_t dim);
// low_rank.cpp: from W = U diag(S) Vh, the factors of the best rank-`rank` approximation
// W_k = up @ down: up (m, rank) = U_k diag(S_k), down (rank, n) = Vh_k.
std::pair<Tensor, Tensor> rank_k_factors(const Tensor& U, const Tensor& S, const Tensor& Vh, int64_t rank);

}  // namespace native
}  // namespace compression
}  // namespace tinytorch
