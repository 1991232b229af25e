// Adam::step and AdamW::step: the bookkeeping around Adam's two kernels (the moment update and the
// bias-corrected step, learner-written in optimizers.cpp). Given code.
//
// The two optimizers differ in one line, which is the point of AdamW:
//   Adam:  grad = grad + weight_decay * p     (decay goes through the moments and gets normalised)
//   AdamW: p = p * (1 - lr * weight_decay)    (decay applied to the weight directly, before the step)
#include <algorithm>

#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"
#include "tinytorch/optim/adam.h"
#include "tinytorch/optim/adamw.h"

namespace tinytorch {
namespace optim {
namespace {

// amsgrad: running_max = max(running_max, value), element by element (both contiguous, same dtype).
void maximum_in_place(Tensor& running_max, const Tensor& value) {
  TT_CHECK(running_max.is_contiguous() && value.is_contiguous() && running_max.sizes() == value.sizes(),
           "amsgrad: the running maximum and exp_avg_sq must be contiguous tensors of the same sizes");
  TT_DISPATCH_FLOATING_TYPES(running_max.scalar_type(), "amsgrad_maximum", [&] {
    scalar_t* out = running_max.data_ptr<scalar_t>();
    const scalar_t* in = value.data_ptr<scalar_t>();
    for (int64_t i = 0; i < value.numel(); ++i) out[i] = std::max(out[i], in[i]);
  });
}

// One Adam-family update of every parameter that has a gradient. State and Options are Adam's or
// AdamW's (same fields); decoupled_decay selects AdamW's weight decay.
template <typename State, typename Options>
void adam_family_step(std::vector<OptimizerParamGroup>& param_groups,
                      std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>& state_map,
                      bool decoupled_decay) {
  for (auto& group : param_groups) {
    const auto& options = static_cast<const Options&>(group.options());
    const double beta1 = std::get<0>(options.betas());
    const double beta2 = std::get<1>(options.betas());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = p.grad();
      const std::string key = param_state_key(p);
      if (state_map.find(key) == state_map.end()) {
        // Lazy state: a parameter that never gets a gradient costs no memory.
        auto fresh = std::make_unique<State>();
        fresh->step(0);
        fresh->exp_avg(zeros_like(p));
        fresh->exp_avg_sq(zeros_like(p));
        if (options.amsgrad()) fresh->max_exp_avg_sq(zeros_like(p));
        state_map[key] = std::move(fresh);
      }
      auto& state = static_cast<State&>(*state_map[key]);
      state.step(state.step() + 1);

      if (options.weight_decay() != 0) {
        if (decoupled_decay) {
          p.mul_(1 - options.lr() * options.weight_decay());
        } else {
          grad = grad.add(p, options.weight_decay());
        }
      }
      detail::adam_update_moments(state.exp_avg(), state.exp_avg_sq(), grad, beta1, beta2);
      Tensor second_moment = state.exp_avg_sq();
      if (options.amsgrad()) {
        maximum_in_place(state.max_exp_avg_sq(), state.exp_avg_sq());
        second_moment = state.max_exp_avg_sq();
      }
      detail::adam_apply_update(p, state.exp_avg(), second_moment, state.step(), options.lr(), beta1, beta2,
                                options.eps());
    }
  }
}

}  // namespace

Tensor Adam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  adam_family_step<AdamParamState, AdamOptions>(param_groups_, state_, /*decoupled_decay=*/false);
  return loss;
}

Tensor AdamW::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  adam_family_step<AdamWParamState, AdamWOptions>(param_groups_, state_, /*decoupled_decay=*/true);
  return loss;
}

}  // namespace optim
}  // namespace tinytorch
