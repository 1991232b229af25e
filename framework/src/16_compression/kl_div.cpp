// Module 16 (Compression), given: torch::kl_div and nn::KLDivLoss, the divergence distillation
// compares a student's and a teacher's softened outputs with. Built from differentiable tensor ops,
// so its gradient needs no rule of its own: d/d input = -target (times exp(target) with log_target).
#include <limits>
#include <ostream>

#include "tinytorch/losses.h"
#include "tinytorch/nn/modules/loss.h"

namespace tinytorch {

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  TT_CHECK(self.is_floating_point() && target.is_floating_point(), "kl_div: expected floating point input and target, "
           "got ", toString(self.scalar_type()), " and ", toString(target.scalar_type()),
           ": pass log-probabilities (F::log_softmax) and probabilities (F::softmax)");
  Tensor pointwise;
  if (log_target) {
    pointwise = target.exp() * (target - self);
  } else {
    // xlogy(target, target): target log target, with 0 log 0 = 0. Clamping the log's argument to the
    // smallest normal number keeps it finite there (0 * log(tiny) = 0) and exact everywhere else.
    const double smallest = target.scalar_type() == kDouble ? std::numeric_limits<double>::min()
                                                            : static_cast<double>(std::numeric_limits<float>::min());
    pointwise = target * target.clamp(smallest).log() - target * self;
  }
  return native::apply_loss_reduction(pointwise, reduction);
}

namespace nn {

KLDivLossImpl::KLDivLossImpl(KLDivLossOptions options_) : Cloneable("torch::nn::KLDivLossImpl"), options(options_) {}
void KLDivLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::KLDivLoss()"; }
Tensor KLDivLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::kl_div(input, target, options);
}

}  // namespace nn
}  // namespace tinytorch
