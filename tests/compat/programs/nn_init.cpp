// torch::nn::init: deterministic initialisers by value, random ones by their bounds and moments
// (the values depend on the RNG, so only properties that any correct implementation meets are printed).
#include <iostream>

#include "compat.h"

namespace nn_init_program {

COMPAT_PROGRAM(nn_init) {
  torch::NoGradGuard no_grad;
  auto w = torch::empty({3, 4});
  torch::nn::init::constant_(w, 0.25);
  std::cout << "constant_\n" << w << "\n";
  torch::nn::init::ones_(w);
  std::cout << "ones_ sum " << w.sum().item<float>() << "\n";
  torch::nn::init::zeros_(w);
  std::cout << "zeros_ sum " << w.sum().item<float>() << "\n";
  torch::manual_seed(0);
  auto big = torch::empty({200, 100});
  torch::nn::init::uniform_(big, -0.5, 0.5);
  std::cout << "uniform_ within bounds " << (big.abs() <= 0.5).all().item<bool>() << " mean near 0 "
            << (big.mean().abs() < 0.01).item<bool>() << "\n";
  torch::nn::init::normal_(big, 2.0, 0.5);
  std::cout << "normal_ mean near 2 " << ((big.mean() - 2).abs() < 0.02).item<bool>() << "\n";
  torch::nn::init::xavier_uniform_(big);
  const double xavier_bound = std::sqrt(6.0 / (200 + 100));
  std::cout << "xavier_uniform_ within bound " << (big.abs() <= xavier_bound).all().item<bool>() << "\n";
  torch::nn::init::kaiming_uniform_(big);
  const double kaiming_bound = std::sqrt(6.0 / 100);
  std::cout << "kaiming_uniform_ within bound " << (big.abs() <= kaiming_bound).all().item<bool>() << "\n";
  torch::nn::Linear layer(10, 5);
  const double linear_bound = 1.0 / std::sqrt(10.0);
  std::cout << "Linear default init within 1/sqrt(in) " << (layer->weight.abs() <= linear_bound).all().item<bool>()
            << " " << (layer->bias.abs() <= linear_bound).all().item<bool>() << "\n";
  return 0;
}

}  // namespace nn_init_program
