// torch::dropout / nn::Dropout: identity when not training or p = 0, all zeros at p = 1, and the kept
// elements scaled by 1 / (1 - p) (which elements are kept depends on the RNG, so only that is printed).
#include <iostream>

#include "compat.h"

namespace functional_dropout_program {

COMPAT_PROGRAM(functional_dropout) {
  auto x = torch::arange(1, 9, torch::kFloat);
  std::cout << "train=false identity " << torch::equal(torch::dropout(x, 0.5, false), x) << "\n";
  std::cout << "p=0 identity " << torch::equal(torch::dropout(x, 0.0, true), x) << "\n";
  std::cout << "p=1\n" << torch::dropout(x, 1.0, true) << "\n";
  auto ones = torch::ones({1000});
  auto dropped = torch::dropout(ones, 0.25, true);
  auto kept = dropped != 0;
  std::cout << "kept values all 1/(1-p) " << (dropped * kept.to(torch::kFloat)).max().item<float>() << " "
            << torch::allclose(dropped.sum() / kept.sum(), torch::tensor(1.0f / 0.75f)) << "\n";
  std::cout << "some dropped " << (kept.sum().item<int64_t>() < 1000) << " some kept " << (kept.sum().item<int64_t>() > 0)
            << "\n";
  torch::nn::Dropout module(torch::nn::DropoutOptions().p(0.5));
  std::cout << module << "\n";
  module->eval();
  std::cout << "module eval identity " << torch::equal(module(x), x) << "\n";
  try {
    torch::dropout(x, 1.5, true);
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << "error: " << message.substr(0, message.find('\n')) << "\n";
  }
  return 0;
}

}  // namespace functional_dropout_program
