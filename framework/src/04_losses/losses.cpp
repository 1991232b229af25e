// Module 04 (Losses): the losses you write. The given code (loss_ops.cpp) checks shapes and dtypes
// with LibTorch's messages and hands you inputs that fit the contract stated above each function;
// smooth_l1_loss and binary_cross_entropy_with_logits are given there, written with tensor ops.
//
// Two styles appear here, as in a real framework:
//   - composite: a loss built from tensor ops you already have (mse_loss, cross_entropy). Module 06's
//     autograd differentiates it for free, because every op it uses records itself;
//   - kernel: a loop over raw pointers (nll_loss, binary_cross_entropy). Module 06 gives each of
//     these a hand-written backward rule.
// A 0-dim result is made with full({}, value, self.options()).
#include <algorithm>
#include <cmath>

#include "tinytorch/activations.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"
#include "tinytorch/losses.h"

namespace tinytorch {
namespace native {

// TODO: mse_loss(self, target, reduction) -- the squared differences, reduced.
//   Composite: diff = self - target (broadcasts, as LibTorch's does), square it (diff * diff),
//   and return apply_loss_reduction(squared, reduction) -- it gives back the tensor itself for
//   Reduction::None, its mean() for Mean, its sum() for Sum.
//   Example: [1, 2, 3] vs [1.5, 2.5, 2.8] -> (0.25 + 0.25 + 0.04) / 3 = 0.18.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  // BEGIN SOLUTION name="tinytorch::native::mse_loss" lesson="2. Mean squared error"
  const Tensor diff = self - target;
  return apply_loss_reduction(diff * diff, reduction);
  // END SOLUTION
}

// TODO: nll_loss(self, target, weight, reduction, ignore_index) -- negative log-likelihood.
//   self: (N, C) log-probabilities, contiguous, Float or Double; target: (N) int64 class indices;
//   weight: undefined (every class weighs 1) or (C) with self's dtype (weight.defined() tells).
//   For each sample n, with t = target[n]:
//     - t == ignore_index: the sample contributes 0 and weighs nothing;
//     - otherwise t must be a class: TT_CHECK(0 <= t && t < C, "Target ", t, " is out of bounds.");
//       w = weight[t] (or 1); loss[n] = -w * self[n][t]; add w to the total weight.
//   Reduction::None -> the (N) tensor of losses; Sum -> their sum (0-dim);
//   Mean -> their sum divided by the total weight (0-dim; 0 / 0 = NaN when every sample is
//   ignored, as LibTorch gives).
//   Example: self [[-0.5, -1.0], [-2.0, -0.1]], target [0, 1] -> mean of 0.5 and 0.1 = 0.3;
//            with weight [1, 3]: (1 * 0.5 + 3 * 0.1) / (1 + 3) = 0.2.
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  // BEGIN SOLUTION name="tinytorch::native::nll_loss" lesson="3. Negative log-likelihood"
  const int64_t batch = self.size(0);
  const int64_t classes = self.size(1);
  Tensor losses = zeros({batch}, self.options());
  return TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "nll_loss_out_frame", [&] {
    const scalar_t* log_probs = static_cast<const scalar_t*>(self.data_ptr());
    const int64_t* targets = static_cast<const int64_t*>(target.data_ptr());
    const scalar_t* weights = weight.defined() ? static_cast<const scalar_t*>(weight.data_ptr()) : nullptr;
    scalar_t* loss = static_cast<scalar_t*>(losses.data_ptr());
    scalar_t total = 0;
    scalar_t total_weight = 0;
    for (int64_t n = 0; n < batch; ++n) {
      const int64_t t = targets[n];
      if (t == ignore_index) continue;  // loss[n] stays 0
      TT_CHECK(t >= 0 && t < classes, "Target ", t, " is out of bounds.");
      const scalar_t w = weights != nullptr ? weights[t] : static_cast<scalar_t>(1);
      loss[n] = -w * log_probs[n * classes + t];
      total += loss[n];
      total_weight += w;
    }
    if (reduction == Reduction::None) return losses;
    const scalar_t value = reduction == Reduction::Sum ? total : total / total_weight;
    return full({}, value, self.options());
  });
  // END SOLUTION
}

// TODO: cross_entropy(self, target, weight, reduction, ignore_index) -- softmax + negative log-likelihood.
//   self: (N, C) raw scores ("logits"), Float or Double; target: (N) int64 class indices.
//   Composite, two lines: log-probabilities with torch::log_softmax over the class dim (1), then
//   tinytorch::nll_loss(log_probs, target, weight, reduction, ignore_index) (the public one: it
//   checks the targets and calls your kernel above).
//   Never softmax then log: softmax rounds tiny probabilities to 0 and log(0) = -inf, while
//   log_softmax stays finite (logits [100, 0] with target 1 -> loss 100, not inf).
//   Example: logits [[1, 2, 3]], target [2] -> -log_softmax[2] = log(e^-2 + e^-1 + 1) = 0.4076059.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index) {
  // BEGIN SOLUTION name="tinytorch::native::cross_entropy" lesson="4. Cross-entropy"
  const Tensor log_probs = ::tinytorch::log_softmax(self, 1);
  return ::tinytorch::nll_loss(log_probs, target, weight, reduction, ignore_index);
  // END SOLUTION
}

// TODO: binary_cross_entropy(self, target, weight, reduction) -- for probabilities p = self
// (from a sigmoid) and targets y in [0, 1]:
//     loss[i] = -w[i] * (y * log(p) + (1 - y) * log(1 - p))
//   self, target (and weight, when defined) are contiguous with the same sizes and floating dtype.
//   1. Every p must be a probability: TT_CHECK(p >= 0 && p <= 1, "all elements of input should be
//      between 0 and 1") (NaN fails this check too, as it should).
//   2. log(0) = -inf, and 0 * -inf = NaN: clamp each log to at least -100 first, as LibTorch does,
//      so p = 0 with y = 1 costs exactly 100 and p = 0 with y = 0 costs 0.
//   3. Return apply_loss_reduction(loss, reduction).
//   Example: p [0.9, 0.2], y [1, 0] -> [-log 0.9, -log 0.8] = [0.1053605, 0.2231436], mean 0.1642520.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction) {
  // BEGIN SOLUTION name="tinytorch::native::binary_cross_entropy" lesson="5. Binary cross-entropy"
  Tensor loss = empty(self.sizes(), self.options());
  TT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "binary_cross_entropy", [&] {
    const scalar_t* p = static_cast<const scalar_t*>(self.data_ptr());
    const scalar_t* y = static_cast<const scalar_t*>(target.data_ptr());
    const scalar_t* w = weight.defined() ? static_cast<const scalar_t*>(weight.data_ptr()) : nullptr;
    scalar_t* out = static_cast<scalar_t*>(loss.data_ptr());
    const scalar_t one = 1;
    const scalar_t log_floor = -100;
    const int64_t n = self.numel();
    for (int64_t i = 0; i < n; ++i) {
      TT_CHECK(p[i] >= 0 && p[i] <= 1, "all elements of input should be between 0 and 1");
      const scalar_t log_p = std::max(std::log(p[i]), log_floor);
      const scalar_t log_not_p = std::max(std::log(one - p[i]), log_floor);
      out[i] = -(y[i] * log_p + (one - y[i]) * log_not_p);
      if (w != nullptr) out[i] *= w[i];
    }
  });
  return apply_loss_reduction(loss, reduction);
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
