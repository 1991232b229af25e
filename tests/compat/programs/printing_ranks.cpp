// Printing tensors of rank 0 to 4 and of each dtype, in LibTorch's layout (scale factors, sci notation).
#include <iostream>

#include "compat.h"

namespace printing_ranks_program {

COMPAT_PROGRAM(printing_ranks) {
  std::cout << torch::tensor(3.25) << "\n";
  std::cout << torch::tensor({1.0, -2.5, 100.0}) << "\n";
  std::cout << torch::arange(6).reshape({2, 3}) << "\n";
  std::cout << (torch::arange(12, torch::kDouble).reshape({2, 2, 3}) / 7) << "\n";
  std::cout << torch::arange(16).reshape({2, 2, 2, 2}) << "\n";
  std::cout << torch::tensor({true, false}) << "\n";
  std::cout << torch::tensor({1e-5, 1.0}) << "\n";
  std::cout << torch::tensor({1e6, 2.0, 3.5}) << "\n";
  std::cout << torch::tensor({12345.0, 0.5}) << "\n";
  std::cout << torch::zeros({0}) << "\n";
  std::cout << torch::zeros({2, 0}) << "\n";
  std::cout << torch::arange(30).reshape({3, 10}) * 1000 << "\n";
  std::cout << torch::linspace(0, 1, 3).sizes() << " " << torch::ones({2, 3}).strides() << "\n";
  std::cout << torch::Tensor() << "\n";
  return 0;
}

}  // namespace printing_ranks_program
