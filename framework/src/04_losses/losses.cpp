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

// TODO: mse_loss(self, target, reduction) -> the squared differences of self and target (which
//   broadcast, as LibTorch's do), reduced (lesson section 2): Reduction::None keeps one per
//   element, Mean averages them (0-dim), Sum adds them (0-dim). apply_loss_reduction(t, reduction)
//   is given. Throws nothing (the given torch::mse_loss checked the dtypes).
//   Example: [1, 2, 3] vs [1.5, 2.5, 2.8] -> (0.25 + 0.25 + 0.04) / 3 = 0.18.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  // BEGIN SOLUTION name="tinytorch::native::mse_loss" lesson="2. Mean squared error"
  const Tensor diff = self - target;
  return apply_loss_reduction(diff * diff, reduction);
  // END SOLUTION
}

// TODO: nll_loss(self, target, weight, reduction, ignore_index) -> the negative log-likelihood of
//   the target classes (lesson section 3).
//   self: (N, C) log-probabilities, contiguous, Float or Double; target: (N) int64 class indices;
//   weight: undefined (every class weighs 1) or (C) with self's dtype (weight.defined() tells).
//   A sample whose target is ignore_index contributes nothing, to the losses or to the weights.
//   Reduction::None -> the (N) losses; Sum -> their sum; Mean -> their weighted mean, dividing by the
//   total weight of the counted samples (0 / 0 = NaN when every sample is ignored, as LibTorch).
//   Errors: a target outside 0..C-1 (and not ignore_index) -> "Target 5 is out of bounds."
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

// TODO: cross_entropy(self, target, weight, reduction, ignore_index) -> LibTorch's cross-entropy of
//   raw scores ("logits") self, (N, C) Float or Double, against int64 class indices target, (N);
//   weight, reduction and ignore_index mean what they mean for nll_loss (lesson section 4).
//   It must stay finite for any finite logits (logits [100, 0] with target 1 -> loss 100, not inf).
//   Errors: those of the public tinytorch::nll_loss, which checks the targets.
//   Example: logits [[1, 2, 3]], target [2] -> log(e^-2 + e^-1 + 1) = 0.4076059.
Tensor cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index) {
  // BEGIN SOLUTION name="tinytorch::native::cross_entropy" lesson="4. Cross-entropy"
  const Tensor log_probs = ::tinytorch::log_softmax(self, 1);
  return ::tinytorch::nll_loss(log_probs, target, weight, reduction, ignore_index);
  // END SOLUTION
}

// TODO: binary_cross_entropy(self, target, weight, reduction) -> LibTorch's binary cross-entropy of
//   probabilities p = self (from a sigmoid) against targets y in [0, 1], each term weighted by
//   weight when it is defined, then reduced like mse_loss (lesson section 5). self, target (and
//   weight) are contiguous with the same sizes and floating dtype. Never inf or NaN for p in
//   [0, 1]: like LibTorch, each log is clamped to at least -100, so p = 0 with y = 1 costs exactly
//   100 and p = 0 with y = 0 costs 0.
//   Errors: any p outside [0, 1], NaN included -> "all elements of input should be between 0 and 1".
//   Example: p [0.9, 0.2], y [1, 0] -> [0.1053605, 0.2231436] (None), mean 0.1642520.
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
