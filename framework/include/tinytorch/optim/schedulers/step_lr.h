#pragma once
// StepLR: multiplies every learning rate by gamma once every step_size epochs (LibTorch's
// torch::optim::StepLR). With lr 0.1, step_size 30, gamma 0.1 and step() called at the start of
// each epoch: epochs 0-29 train at 0.1, epochs 30-59 at 0.01, epochs 60-89 at 0.001.
//
// get_lrs() is written in module 08 (the learner's modules/08_training/schedulers.cpp).
#include <vector>

#include "tinytorch/optim/schedulers/lr_scheduler.h"

namespace tinytorch {
namespace optim {

class StepLR : public LRScheduler {
 public:
  // step_size must be at least 1.
  StepLR(Optimizer& optimizer, const unsigned step_size, const double gamma = 0.1);

 private:
  std::vector<double> get_lrs() override;

  const unsigned step_size_;
  const double gamma_;
};

}  // namespace optim
}  // namespace tinytorch
