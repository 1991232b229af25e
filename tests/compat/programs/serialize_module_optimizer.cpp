// Checkpointing as LibTorch's tutorials do it: torch::save(model, ...), torch::save(optimizer, ...),
// then load both into fresh objects and continue training identically.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace serialize_module_optimizer_program {

torch::nn::Sequential make_model() {
  torch::nn::Sequential model(torch::nn::Linear(3, 4), torch::nn::Tanh(), torch::nn::Linear(4, 1));
  torch::NoGradGuard no_grad;
  for (auto& p : model->parameters()) p.copy_(torch::linspace(-0.7, 0.9, p.numel()).reshape(p.sizes()));
  return model;
}

void train_steps(torch::nn::Sequential& model, torch::optim::Adam& optimizer, int steps) {
  auto x = torch::linspace(-1, 1, 12).reshape({4, 3});
  auto y = torch::tensor({{0.5}, {-0.5}, {1.0}, {0.0}});
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    std::cout << "loss " << loss.item<float>() << "\n";
    loss.backward();
    optimizer.step();
  }
}

COMPAT_PROGRAM(serialize_module_optimizer) {
  auto model = make_model();
  std::cout << "initial forward\n" << model->forward(torch::linspace(-1, 1, 12).reshape({4, 3})) << "\n";
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.05));
  train_steps(model, optimizer, 3);
  torch::save(model, "model.pt");
  torch::save(optimizer, "optimizer.pt");

  torch::nn::Sequential restored(torch::nn::Linear(3, 4), torch::nn::Tanh(), torch::nn::Linear(4, 1));
  torch::load(restored, "model.pt");
  torch::optim::Adam restored_optimizer(restored->parameters(), torch::optim::AdamOptions(0.05));
  torch::load(restored_optimizer, "optimizer.pt");
  bool same = true;
  for (size_t i = 0; i < model->parameters().size(); ++i)
    same = same && torch::equal(model->parameters()[i], restored->parameters()[i]);
  std::cout << "restored parameters equal " << same << "\n";

  train_steps(model, optimizer, 2);
  train_steps(restored, restored_optimizer, 2);
  std::cout << "original last layer\n" << model->parameters().back() << "\n";
  std::cout << "restored last layer\n" << restored->parameters().back() << "\n";
  std::cout << "continued identically " << torch::allclose(model->parameters()[0], restored->parameters()[0]) << "\n";
  return 0;
}

}  // namespace serialize_module_optimizer_program
