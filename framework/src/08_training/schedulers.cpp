// Module 08 (Training), lesson section "2. Learning-rate schedules": the two schedules.
// The given code (lr_scheduler.cpp) calls get_lrs() from step() and writes what it returns into
// the optimizer's parameter groups; step_count_ is the number of step() calls made before this one
// (0 on the first call). get_current_lrs() gives the groups' rates as they are now; base_lrs_ holds
// the rates the groups had when the CosineAnnealingLR was constructed.
#include <cmath>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/schedulers/cosine_annealing_lr.h"
#include "tinytorch/optim/schedulers/step_lr.h"

namespace tinytorch {
namespace optim {

// TODO: StepLR::get_lrs() -> one rate per parameter group, for the call numbered step_count_ (0 on
//   the first call): LibTorch's StepLR (lesson section 2), which decays every rate by gamma_ every
//   step_size_ calls, starting from the rates the groups have now. Throws nothing.
//   Example: lr 1, step_size 2, gamma 0.5; the rate after each call of step(), for calls 1 to 7:
//   1, 1, 0.5, 0.5, 0.25, 0.25, 0.125 (the call with step_count_ == 2 is the first to decay).
std::vector<double> StepLR::get_lrs() {
  // BEGIN SOLUTION name="tinytorch::optim::StepLR::get_lrs" lesson="2. Learning-rate schedules"
  std::vector<double> learning_rates = get_current_lrs();
  if (step_count_ == 0 || step_count_ % step_size_ != 0) return learning_rates;
  for (double& lr : learning_rates) lr *= gamma_;
  return learning_rates;
  // END SOLUTION
}

// TODO: CosineAnnealingLR::get_lrs() -> one rate per parameter group: PyTorch's closed form (lesson
//   section 2) at t = step_count_, from each group's starting rate (base_lrs_[i]) down to eta_min_
//   at t = T_max_. It depends on t alone, never on the current rates, so a rate changed by hand is
//   overwritten at the next step. Throws nothing.
//   Example: base 0.1, eta_min 0.01, T_max 100: t = 0 -> 0.1, t = 25 -> 0.0868198, t = 50 -> 0.055,
//   t = 100 -> 0.01, t = 150 -> 0.055 (past T_max the formula climbs again).
std::vector<double> CosineAnnealingLR::get_lrs() {
  // BEGIN SOLUTION name="tinytorch::optim::CosineAnnealingLR::get_lrs" lesson="2. Learning-rate schedules"
  const double pi = std::acos(-1.0);
  const double progress = static_cast<double>(step_count_) / static_cast<double>(T_max_);
  std::vector<double> learning_rates;
  learning_rates.reserve(base_lrs_.size());
  for (const double base_lr : base_lrs_) {
    learning_rates.push_back(eta_min_ + (base_lr - eta_min_) * (1 + std::cos(pi * progress)) / 2);
  }
  return learning_rates;
  // END SOLUTION
}

}  // namespace optim
}  // namespace tinytorch
