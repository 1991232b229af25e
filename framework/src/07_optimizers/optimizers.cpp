// Module 07 (Optimizers): the parts you write. An optimizer turns gradients into weight updates.
// You write the three ideas every modern optimizer is made of:
//   - zero_grad: backward() adds into .grad, so gradients must be cleared between steps;
//   - SGD's step, with momentum (a running sum of past gradients) and weight decay;
//   - Adam's two kernels: the moving averages of g and g^2, and the bias-corrected step.
// The given code around them (optimizer.cpp, adam.cpp, rmsprop.cpp) keeps the parameter groups,
// creates per-parameter state lazily, runs every step under NoGradGuard and saves/loads state.
//
// All updates are in place on the parameter's own storage (p.add_, buf.mul_, ...): the model keeps
// pointing at the same tensors, and no memory is allocated per step beyond a few temporaries.
// Each step runs under NoGradGuard, so these in-place ops are not recorded by autograd.
#include <cmath>
#include <memory>
#include <string>

#include "tinytorch/dispatch.h"
#include "tinytorch/optim/adam.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/optim/sgd.h"

namespace tinytorch {
namespace optim {

// TODO: zero_grad() -- after it, every parameter of every group that had a gradient has a gradient
//   of zeros: the same tensor as before (same data_ptr(), LibTorch 1.13's behaviour), not a new one.
//   A parameter whose gradient is undefined (it never took part in a backward) keeps it undefined.
//   Throws nothing. Example: grads [1, 2] and undefined -> [0, 0] (same storage) and undefined.
void Optimizer::zero_grad() {
  // BEGIN SOLUTION name="torch::optim::Optimizer::zero_grad" lesson="2. zero_grad: gradients accumulate"
  NoGradGuard no_grad;
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      if (p.grad().defined()) p.mutable_grad().zero_();
    }
  }
  // END SOLUTION
}

// TODO: the body of SGD's update for one parameter p whose gradient is defined: LibTorch's SGD
//   with the group's options (static_cast<const SGDOptions&>(group.options()): lr, momentum,
//   dampening, weight_decay, nesterov), in the order of lesson section 3 (weight decay, momentum,
//   Nesterov, the step).
//   Contract: p changes in place (same tensor, same storage); p.grad() is left exactly as backward
//   wrote it; with momentum != 0 the parameter's buffer is an SGDParamState stored under
//   state_[param_state_key(p)], created on its first step and updated in place afterwards; with
//   momentum == 0 no state is created. Options were checked when the optimizer was built.
//   Example: p = [1, 2], grad = [0.1, 0.2], lr 0.1 -> p = [0.99, 1.98]. With momentum 0.9 and the
//   same gradient again, the second step moves p by 0.1 * [0.19, 0.38].
Tensor SGD::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      // BEGIN SOLUTION name="torch::optim::SGD::step" lesson="3. SGD: momentum and weight decay"
      const auto& options = static_cast<const SGDOptions&>(group.options());
      Tensor d_p = p.grad();
      if (options.weight_decay() != 0) d_p = d_p.add(p, options.weight_decay());
      if (options.momentum() != 0) {
        const std::string key = param_state_key(p);
        auto found = state_.find(key);
        Tensor buf;
        if (found == state_.end()) {
          buf = d_p.clone();  // the first step starts the running sum at the gradient itself
          auto state = std::make_unique<SGDParamState>();
          state->momentum_buffer(buf);
          state_[key] = std::move(state);
        } else {
          buf = static_cast<SGDParamState&>(*found->second).momentum_buffer();
          buf.mul_(options.momentum()).add_(d_p, 1 - options.dampening());
        }
        d_p = options.nesterov() ? d_p.add(buf, options.momentum()) : buf;
      }
      p.add_(d_p, -options.lr());
      // END SOLUTION
    }
  }
  return loss;
}

namespace detail {

// TODO: adam_update_moments -- one step of Adam's two moving averages (lesson section 4): exp_avg
//   of the gradient with weight beta1 on the past, exp_avg_sq of the squared gradient with weight
//   beta2. All three tensors have the parameter's shape; grad is not changed. In place: the two
//   moments are the optimizer's state and must keep their storage (same data_ptr()).
//   Example: from zeros, grad = [0.1, 0.2], betas (0.9, 0.999) -> exp_avg = [0.01, 0.02],
//   exp_avg_sq = [1e-05, 4e-05].
void adam_update_moments(Tensor& exp_avg, Tensor& exp_avg_sq, const Tensor& grad, double beta1, double beta2) {
  // BEGIN SOLUTION name="torch::optim::detail::adam_update_moments" lesson="4. Adam: two moving averages"
  exp_avg.mul_(beta1).add_(grad, 1 - beta1);
  exp_avg_sq.mul_(beta2).add_(grad * grad, 1 - beta2);
  // END SOLUTION
}

// TODO: adam_apply_update -- Adam's bias-corrected step (lesson section 5), in place on param.
//   exp_avg and second_moment (exp_avg_sq, or amsgrad's running maximum of it) are read, not
//   changed; step is the parameter's own step count, 1 on its first update. Match LibTorch to the
//   last bit: where eps enters the computation matters when the gradients are tiny (section 5).
//   Example: on the first step (step = 1), any gradient moves each weight by almost exactly lr
//   against the sign of its gradient: p = [1, 1], grad = [0.5, -2], lr 0.1 -> p ~ [0.9, 1.1].
void adam_apply_update(Tensor& param, const Tensor& exp_avg, const Tensor& second_moment, int64_t step, double lr,
                       double beta1, double beta2, double eps) {
  // BEGIN SOLUTION name="torch::optim::detail::adam_apply_update" lesson="5. Adam: bias correction and the step"
  const double bias_correction1 = 1 - std::pow(beta1, static_cast<double>(step));
  const double bias_correction2 = 1 - std::pow(beta2, static_cast<double>(step));
  const Tensor denom = (second_moment.sqrt() / std::sqrt(bias_correction2)).add_(eps);
  param.add_(exp_avg / denom, -lr / bias_correction1);
  // END SOLUTION
}

}  // namespace detail
}  // namespace optim
}  // namespace tinytorch
