// An optimizer over parameter groups with their own options, and the lr changed between steps.
// compat-tolerance: 1e-5
#include <iostream>
#include <memory>

#include "compat.h"

namespace optim_param_groups_program {

COMPAT_PROGRAM(optim_param_groups) {
  auto a = torch::tensor({1.0, -1.0}, torch::requires_grad());
  auto b = torch::tensor({2.0, 0.5}, torch::requires_grad());
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{a});
  groups.emplace_back(std::vector<torch::Tensor>{b}, std::make_unique<torch::optim::SGDOptions>(0.5));
  torch::optim::SGD optimizer(groups, torch::optim::SGDOptions(0.1).momentum(0.9));
  std::cout << "groups " << optimizer.param_groups().size() << "\n";
  for (auto& group : optimizer.param_groups())
    std::cout << "lr " << group.options().get_lr() << " momentum "
              << static_cast<torch::optim::SGDOptions&>(group.options()).momentum() << "\n";
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    (a * a + b * b).sum().backward();
    optimizer.step();
    std::cout << "step " << step << " a " << a[0].item<float>() << " " << a[1].item<float>() << " b "
              << b[0].item<float>() << " " << b[1].item<float>() << "\n";
  }
  optimizer.param_groups()[0].options().set_lr(0.01);
  std::cout << "lr after set_lr " << optimizer.param_groups()[0].options().get_lr() << "\n";
  torch::optim::Adam adam(std::vector<torch::Tensor>{a, b}, torch::optim::AdamOptions(0.1).betas({0.5, 0.9}));
  for (int step = 0; step < 2; ++step) {
    adam.zero_grad();
    (a * b).sum().backward();
    adam.step();
  }
  std::cout << "adam a\n" << a << "\nb\n" << b << "\n";
  return 0;
}

}  // namespace optim_param_groups_program
