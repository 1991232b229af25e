// LR schedulers: StepLR over epochs, read back through the optimizer's param group.
// compat-tolerance: 1e-9
#include <iostream>
#include <memory>
#include <vector>

#include "compat.h"

namespace optim_schedulers_program {

// A schedule of one's own, as LibTorch's LRScheduler intends: one rate per parameter group from
// get_lrs(). Halves each group's rate every other step, counting the steps itself.
class HalvingScheduler : public torch::optim::LRScheduler {
 public:
  explicit HalvingScheduler(torch::optim::Optimizer& optimizer) : torch::optim::LRScheduler(optimizer) {}

 private:
  std::vector<double> get_lrs() override {
    std::vector<double> rates = get_current_lrs();
    if (steps_++ % 2 == 1) {
      for (double& rate : rates) rate /= 2;
    }
    return rates;
  }
  unsigned steps_ = 0;
};

COMPAT_PROGRAM(optim_schedulers) {
  auto w = torch::tensor({1.0}, torch::requires_grad());
  torch::optim::SGD optimizer({w}, torch::optim::SGDOptions(1.0));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/2, /*gamma=*/0.5);
  for (int epoch = 0; epoch < 7; ++epoch) {
    optimizer.zero_grad();
    (w * w).sum().backward();
    optimizer.step();
    scheduler.step();
    std::cout << "epoch " << epoch << " lr " << optimizer.param_groups()[0].options().get_lr() << " w "
              << w.item<float>() << "\n";
  }
  auto a = torch::tensor({1.0}, torch::requires_grad());
  auto b = torch::tensor({2.0}, torch::requires_grad());
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{a}, std::make_unique<torch::optim::SGDOptions>(0.8));
  groups.emplace_back(std::vector<torch::Tensor>{b}, std::make_unique<torch::optim::SGDOptions>(0.1));
  torch::optim::SGD two_groups(groups, torch::optim::SGDOptions(1.0));
  HalvingScheduler halving(two_groups);
  for (int step = 0; step < 5; ++step) {
    halving.step();
    std::cout << "own schedule step " << step;
    for (auto& group : two_groups.param_groups()) std::cout << " " << group.options().get_lr();
    std::cout << "\n";
  }
  return 0;
}

}  // namespace optim_schedulers_program
