#pragma once
// Module 04 (Losses): LibTorch's loss functions as free functions, with the reduction as an integer
// from at::Reduction, exactly as ATen declares them:
//   torch::mse_loss(input, target)                                   // mean of (input - target)^2
//   torch::cross_entropy_loss(logits, targets, {}, at::Reduction::Sum, -100, 0.1)
//   torch::nll_loss(log_probs, targets)       torch::binary_cross_entropy(probs, targets)
//   torch::binary_cross_entropy_with_logits(logits, targets)       torch::smooth_l1_loss(input, target, Mean, 0.5)
// The option-builder spellings (F::cross_entropy, nn::CrossEntropyLoss) are in tinytorch/nn/.
//
// Learner files include this header, so it stays as light as tensor.h.
#include <cstdint>

#include "tinytorch/tensor.h"

namespace tinytorch {

// ATen's reduction codes: what a loss does with its per-element values.
namespace Reduction {
enum Reduction {
  None,  // keep one loss per element (per sample for nll/cross-entropy)
  Mean,  // their mean (for nll/cross-entropy: weighted mean over the samples not ignored)
  Sum,   // their sum
  END
};
}  // namespace Reduction

// mean/sum/none of (input - target)^2; input and target broadcast against each other.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// Negative log-likelihood: self holds log-probabilities, (C) or (N, C); target the class indices,
// () or (N), int64. loss_n = -weight[t_n] * self[n, t_n]; samples whose target is ignore_index count
// nothing (and nothing in the mean's denominator, which is the sum of the weights used).
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
// nll_loss(log_softmax(self, class dim), target), optionally with label smoothing: the target
// distribution puts 1 - label_smoothing + label_smoothing / C on the true class and
// label_smoothing / C on each other class.
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                          int64_t reduction = Reduction::Mean, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);
// -weight * (t log p + (1 - t) log(1 - p)), each log clamped to >= -100 so p = 0 or 1 stays finite.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                            int64_t reduction = Reduction::Mean);
// binary_cross_entropy(sigmoid(self), target) in one stable formula (no sigmoid that saturates to 0
// or 1); pos_weight multiplies the positive term (one weight per class, broadcast over the last dim).
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                                        const Tensor& pos_weight = {}, int64_t reduction = Reduction::Mean);
// Huber-like: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (d = input - target); beta = 0 is L1.
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean,
                      double beta = 1.0);
// Kullback-Leibler divergence, pointwise target (log target - self): self holds log-probabilities,
// target probabilities (log-probabilities with log_target); a target of 0 contributes 0 (xlogy).
// Mean divides by every element; F::kl_div's batchmean (sum / batch) is the KL of the maths (module 16).
Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean, bool log_target = false);

namespace native {
// ---------------------------------------------------------------------------------------------
// Module 04: the kernels. The public functions above check shapes and dtypes first (LibTorch's
// messages), then call these.
// ---------------------------------------------------------------------------------------------

// `loss` (one value per element) reduced as `reduction` says: itself, loss.mean() or loss.sum().
// Given (loss_ops.cpp).
Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction);

// losses.cpp (learner) -- lesson section "2. Mean squared error". self and target are floating
// and broadcastable; build it from tensor ops (-, pow or *, apply_loss_reduction).
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction);
// losses.cpp (learner) -- lesson section "3. Negative log-likelihood". self: contiguous (N, C)
// Float or Double; target: contiguous (N) Long; weight: undefined or contiguous (C) of self's dtype.
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index);
// losses.cpp (learner) -- lesson section "4. Cross-entropy". self: (N, C) or (C) floating logits;
// target as torch::nll_loss takes it. Compose torch::log_softmax and torch::nll_loss.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index);
// losses.cpp (learner) -- lesson section "5. Binary cross-entropy". self, target: contiguous, same
// sizes, same floating dtype; weight: undefined or contiguous with self's sizes and dtype.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction);
}  // namespace native

}  // namespace tinytorch
