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

// TODO: zero_grad() -- zero every parameter's gradient, in every group.
//   Loop over param_groups_ and each group's params(). A parameter whose grad is undefined
//   (p.grad().defined() is false: it never took part in a backward) is skipped; otherwise zero its
//   gradient in place: p.mutable_grad().zero_() (grad() is read-only; mutable_grad() is the same
//   tensor, writable). LibTorch 1.13 zeros the gradient rather than dropping it, so the memory is
//   reused by the next backward.
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

// TODO: the body of SGD's update for one parameter p whose gradient is defined.
//   The group's options: const auto& options = static_cast<const SGDOptions&>(group.options());
//   (lr(), momentum(), dampening(), weight_decay(), nesterov()). In order:
//   1. d_p = p.grad(); if weight_decay != 0: d_p = d_p.add(p, weight_decay)   (a new tensor: never
//      modify p.grad() itself, the caller may still read it)
//   2. if momentum != 0, the momentum buffer lives in state_[param_state_key(p)]:
//        - first step (no entry yet): buf = d_p.clone(); store it:
//            auto state = std::make_unique<SGDParamState>(); state->momentum_buffer(buf);
//            state_[key] = std::move(state);
//        - later steps: buf = static_cast<SGDParamState&>(*state_[key]).momentum_buffer();
//            buf.mul_(momentum).add_(d_p, 1 - dampening);   (in place: the state keeps it)
//        then d_p = nesterov ? d_p.add(buf, momentum) : buf
//   3. p.add_(d_p, -lr)
//   Example: p = [1, 2], grad = [0.1, 0.2], lr 0.1 -> p = [0.99, 1.98]. With momentum 0.9 and the
//   same gradient again, the second step uses buf = 0.9 * [0.1, 0.2] + [0.1, 0.2] = [0.19, 0.38].
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

// TODO: adam_update_moments -- update Adam's two moving averages in place.
//   exp_avg    = beta1 * exp_avg    + (1 - beta1) * grad          exp_avg.mul_(beta1).add_(grad, 1 - beta1)
//   exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad * grad
//   In place (mul_, add_): the tensors are the optimizer's state and must keep their storage.
//   Example: from zeros, grad = [0.1, 0.2], betas (0.9, 0.999) -> exp_avg = [0.01, 0.02],
//   exp_avg_sq = [1e-05, 4e-05].
void adam_update_moments(Tensor& exp_avg, Tensor& exp_avg_sq, const Tensor& grad, double beta1, double beta2) {
  // BEGIN SOLUTION name="torch::optim::detail::adam_update_moments" lesson="4. Adam: two moving averages"
  exp_avg.mul_(beta1).add_(grad, 1 - beta1);
  exp_avg_sq.mul_(beta2).add_(grad * grad, 1 - beta2);
  // END SOLUTION
}

// TODO: adam_apply_update -- the bias-corrected step, in place on param.
//   bias_correction1 = 1 - beta1^step,  bias_correction2 = 1 - beta2^step   (std::pow)
//   denom = sqrt(second_moment) / sqrt(bias_correction2) + eps             (a new tensor)
//   param -= (lr / bias_correction1) * exp_avg / denom                       param.add_(..., -step_size)
//   eps is added after the square root and the correction, as LibTorch does: the order changes the
//   result when the gradients are tiny.
//   Example: the first step (step = 1) of any gradient moves each weight by about lr against the
//   sign of its gradient: m / (1 - beta1) = g and sqrt(v / (1 - beta2)) = |g|.
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
