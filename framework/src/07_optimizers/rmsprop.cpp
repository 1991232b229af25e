// RMSprop::step: divide each gradient by a running root-mean-square of its recent values, so that
// every weight moves at a similar speed whatever the scale of its gradient. Given code; Adam
// (optimizers.cpp) adds momentum's first moment and bias correction to this idea.
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/optim/rmsprop.h"

namespace tinytorch {
namespace optim {

Tensor RMSprop::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& options = static_cast<const RMSpropOptions&>(group.options());
    const double alpha = options.alpha();
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = p.grad();
      const std::string key = param_state_key(p);
      if (state_.find(key) == state_.end()) {
        auto fresh = std::make_unique<RMSpropParamState>();
        fresh->step(0);
        fresh->square_avg(zeros_like(p));
        if (options.momentum() > 0) fresh->momentum_buffer(zeros_like(p));
        if (options.centered()) fresh->grad_avg(zeros_like(p));
        state_[key] = std::move(fresh);
      }
      auto& state = static_cast<RMSpropParamState&>(*state_[key]);
      state.step(state.step() + 1);

      if (options.weight_decay() != 0) grad = grad.add(p, options.weight_decay());
      state.square_avg().mul_(alpha).add_(grad * grad, 1 - alpha);
      Tensor avg;
      if (options.centered()) {
        // Subtracting the squared mean turns the second moment into a variance estimate.
        state.grad_avg().mul_(alpha).add_(grad, 1 - alpha);
        avg = (state.square_avg() - state.grad_avg() * state.grad_avg()).sqrt().add_(options.eps());
      } else {
        avg = state.square_avg().sqrt().add_(options.eps());
      }
      if (options.momentum() > 0) {
        state.momentum_buffer().mul_(options.momentum()).add_(grad / avg);
        p.add_(state.momentum_buffer(), -options.lr());
      } else {
        p.add_(grad / avg, -options.lr());
      }
    }
  }
  return loss;
}

}  // namespace optim
}  // namespace tinytorch
