// Losses with LibTorch's options: weight, reduction, ignore_index, label_smoothing and (N, C, d1) inputs.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace losses_options_program {
namespace F = torch::nn::functional;

COMPAT_PROGRAM(losses_options) {
  auto logits = torch::tensor({{2.0, 0.5, -1.0}, {0.1, 0.2, 0.3}, {-1.0, 3.0, 0.0}, {0.0, 0.0, 4.0}});
  auto target = torch::tensor({0, 2, 1, 1});
  auto weight = torch::tensor({1.0, 2.0, 0.5});
  std::cout << "cross_entropy " << F::cross_entropy(logits, target).item<float>() << "\n";
  std::cout << "weighted " << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().weight(weight)).item<float>()
            << "\n";
  std::cout << "sum " << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().reduction(torch::kSum)).item<float>()
            << "\n";
  std::cout << "none\n" << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().reduction(torch::kNone)) << "\n";
  std::cout << "ignore_index 1 "
            << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().ignore_index(1)).item<float>() << "\n";
  std::cout << "label_smoothing 0.1 "
            << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().label_smoothing(0.1)).item<float>() << "\n";
  std::cout << "weight + smoothing + ignore "
            << F::cross_entropy(logits, target,
                                F::CrossEntropyFuncOptions().weight(weight).label_smoothing(0.2).ignore_index(2))
                   .item<float>()
            << "\n";
  torch::nn::CrossEntropyLoss module(torch::nn::CrossEntropyLossOptions().weight(weight).reduction(torch::kSum));
  std::cout << "module " << module(logits, target).item<float>() << "\n";

  auto spatial = torch::linspace(-2, 2, 24).reshape({2, 3, 4});
  auto spatial_target = torch::tensor({{0, 1, 2, 1}, {2, 2, 0, 1}});
  std::cout << "(N, C, d1) mean " << F::cross_entropy(spatial, spatial_target).item<float>() << "\n";
  std::cout << "(N, C, d1) none\n"
            << F::cross_entropy(spatial, spatial_target, F::CrossEntropyFuncOptions().reduction(torch::kNone)) << "\n";
  auto log_probs = F::log_softmax(logits, F::LogSoftmaxFuncOptions(1));
  std::cout << "nll_loss weighted " << F::nll_loss(log_probs, target, F::NLLLossFuncOptions().weight(weight)).item<float>()
            << "\n";
  std::cout << "mse sum "
            << F::mse_loss(logits, torch::zeros_like(logits), F::MSELossFuncOptions().reduction(torch::kSum)).item<float>()
            << "\n";
  // (No beta here: LibTorch 1.13's F::smooth_l1_loss ignores SmoothL1LossFuncOptions().beta().)
  std::cout << "smooth_l1 " << F::smooth_l1_loss(logits, torch::ones_like(logits)).item<float>() << "\n";
  return 0;
}

}  // namespace losses_options_program
