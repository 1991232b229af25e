// nn::Sequential: construction from modules, push_back, indexing, forward, and printing a model.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace nn_sequential_program {

COMPAT_PROGRAM(nn_sequential) {
  torch::nn::Sequential model(torch::nn::Linear(4, 3), torch::nn::ReLU(), torch::nn::Linear(3, 2));
  model->push_back(torch::nn::Sigmoid());
  std::cout << model << "\n";
  std::cout << "size " << model->size() << "\n";
  for (const auto& pair : model->named_children()) std::cout << "child " << pair.key() << "\n";
  for (const auto& pair : model->named_parameters()) std::cout << "param " << pair.key() << " " << pair.value().sizes() << "\n";
  {
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) p.copy_(torch::linspace(-0.5, 0.5, p.numel()).reshape(p.sizes()));
  }
  auto x = torch::arange(8, torch::kFloat).reshape({2, 4}) / 8;
  std::cout << "forward\n" << model->forward(x) << "\n";
  auto first = model[0]->as<torch::nn::Linear>();
  std::cout << "first layer in_features " << first->options.in_features() << "\n";
  return 0;
}

}  // namespace nn_sequential_program
