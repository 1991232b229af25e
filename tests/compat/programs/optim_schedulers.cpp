// LR schedulers: StepLR over epochs, read back through the optimizer's param group.
// compat-tolerance: 1e-9
#include <iostream>

#include "compat.h"

namespace optim_schedulers_program {

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
  return 0;
}

}  // namespace optim_schedulers_program
