#pragma once
// CosineAnnealingLR: lowers each learning rate from its starting value to eta_min along half a
// cosine over T_max epochs (PyTorch's torch.optim.lr_scheduler.CosineAnnealingLR, closed form):
//
//   lr(t) = eta_min + (base_lr - eta_min) * (1 + cos(pi * t / T_max)) / 2,    t = step_count_
//
// base_lr is each parameter group's lr when the scheduler is constructed. At t = 0 the rate is
// base_lr, at t = T_max / 2 halfway, at t = T_max it is eta_min; past T_max the cosine climbs back
// (a warm restart every 2 * T_max), exactly as PyTorch's closed form does, so set T_max to the
// number of epochs you train. LibTorch 1.13 has no cosine scheduler in C++; this one follows the
// C++ schedulers' conventions (LRScheduler: step() sets the rate of epoch step_count_).
//
// get_lrs() is written in module 08 (the learner's modules/08_training/schedulers.cpp).
#include <vector>

#include "tinytorch/optim/schedulers/lr_scheduler.h"

namespace tinytorch {
namespace optim {

class CosineAnnealingLR : public LRScheduler {
 public:
  // T_max must be at least 1.
  CosineAnnealingLR(Optimizer& optimizer, const unsigned T_max, const double eta_min = 0.0);

 private:
  std::vector<double> get_lrs() override;

  const unsigned T_max_;
  const double eta_min_;
  const std::vector<double> base_lrs_;  // each parameter group's lr at construction
};

}  // namespace optim
}  // namespace tinytorch
