// binary_cross_entropy and binary_cross_entropy_with_logits with weight, pos_weight and reductions.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace losses_bce_program {
namespace F = torch::nn::functional;

COMPAT_PROGRAM(losses_bce) {
  auto logits = torch::tensor({{1.5, -0.5}, {-2.0, 0.25}, {0.0, 3.0}});
  auto target = torch::tensor({{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}});
  std::cout << "with_logits " << F::binary_cross_entropy_with_logits(logits, target).item<float>() << "\n";
  std::cout << "pos_weight "
            << F::binary_cross_entropy_with_logits(
                   logits, target, F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(torch::tensor({2.0, 0.5})))
                   .item<float>()
            << "\n";
  std::cout << "weight none\n"
            << F::binary_cross_entropy_with_logits(logits, target,
                                                   F::BinaryCrossEntropyWithLogitsFuncOptions()
                                                       .weight(torch::tensor({1.0, 3.0}))
                                                       .reduction(torch::kNone))
            << "\n";
  std::cout << "torch:: spelling " << torch::binary_cross_entropy_with_logits(logits, target).item<float>() << "\n";
  auto probabilities = torch::sigmoid(logits);
  std::cout << "bce " << F::binary_cross_entropy(probabilities, target).item<float>() << "\n";
  std::cout << "bce sum weight "
            << F::binary_cross_entropy(probabilities, target,
                                       F::BinaryCrossEntropyFuncOptions().weight(torch::tensor({0.5, 1.0})).reduction(
                                           torch::kSum))
                   .item<float>()
            << "\n";
  torch::nn::BCEWithLogitsLoss module(torch::nn::BCEWithLogitsLossOptions().reduction(torch::kSum));
  std::cout << "module " << module(logits, target).item<float>() << "\n";
  auto x = logits.clone().requires_grad_();
  F::binary_cross_entropy_with_logits(x, target).backward();
  std::cout << "grad\n" << x.grad() << "\n";
  return 0;
}

}  // namespace losses_bce_program
