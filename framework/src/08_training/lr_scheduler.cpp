// Module 08 (Training), given: the scheduler base (LibTorch 1.13's lr_scheduler.cpp, step for
// step) and the schedulers' constructors. The schedules themselves, get_lrs(), are yours
// (schedulers.cpp).
#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/optim/schedulers/cosine_annealing_lr.h"
#include "tinytorch/optim/schedulers/lr_scheduler.h"
#include "tinytorch/optim/schedulers/step_lr.h"

namespace tinytorch {
namespace optim {

LRScheduler::LRScheduler(Optimizer& optimizer) : optimizer_(optimizer) {}

void LRScheduler::step() {
  const std::vector<double> learning_rates = get_lrs();
  set_optimizer_lrs(learning_rates);
  ++step_count_;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double>& learning_rates) {
  TT_CHECK(learning_rates.size() == optimizer_.param_groups().size(),
           "Number of learning rates not equal to the number of param groups\n",
           "Number of learning rates given: ", learning_rates.size(),
           "\nNumber of param groups: ", optimizer_.param_groups().size());
  for (size_t group = 0; group < optimizer_.param_groups().size(); ++group) {
    optimizer_.param_groups()[group].options().set_lr(learning_rates[group]);
  }
}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> learning_rates(optimizer_.param_groups().size());
  for (size_t group = 0; group < learning_rates.size(); ++group) {
    learning_rates[group] = optimizer_.param_groups()[group].options().get_lr();
  }
  return learning_rates;
}

StepLR::StepLR(Optimizer& optimizer, const unsigned step_size, const double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  // LibTorch divides by step_size without checking; 0 would be a division by zero at the first step.
  TT_CHECK(step_size >= 1, "StepLR: step_size must be at least 1 (the number of epochs between two decays), but got 0");
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, const unsigned T_max, const double eta_min)
    : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min), base_lrs_(get_current_lrs()) {
  TT_CHECK(T_max >= 1, "CosineAnnealingLR: T_max must be at least 1 (the number of epochs of the half cosine), but got 0");
}

}  // namespace optim
}  // namespace tinytorch
