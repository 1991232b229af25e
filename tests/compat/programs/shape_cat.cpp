// torch::cat along each dim, with tensors of different lengths along the joined dim, and its gradient.
#include <iostream>

#include "compat.h"

namespace shape_cat_program {

COMPAT_PROGRAM(shape_cat) {
  auto a = torch::arange(6).reshape({2, 3});
  auto b = torch::arange(6, 10).reshape({2, 2});
  std::cout << "cat dim 1\n" << torch::cat({a, b}, 1) << "\n";
  std::cout << "cat dim 0\n" << torch::cat({a, a * 10}) << "\n";
  std::cout << "cat dim -1 sizes " << torch::cat({a, b}, -1).sizes() << "\n";
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = torch::tensor({3.0}, torch::requires_grad());
  auto joined = torch::cat({x, y});
  (joined * torch::tensor({1.0, 10.0, 100.0})).sum().backward();
  std::cout << "grad x\n" << x.grad() << "\ngrad y\n" << y.grad() << "\n";
  try {
    torch::cat({a, torch::zeros({3, 3}, torch::kLong)}, 1);
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << "error: " << message.substr(0, message.find('\n')) << "\n";
  }
  return 0;
}

}  // namespace shape_cat_program
