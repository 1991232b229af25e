// Tensor hooks: register_hook that observes a gradient, one that replaces it, and remove_hook.
#include <iostream>

#include "compat.h"

namespace autograd_hooks_program {

COMPAT_PROGRAM(autograd_hooks) {
  auto x = torch::tensor({1.0, 2.0, 3.0}, torch::requires_grad());
  auto y = x * 2;
  y.register_hook([](torch::Tensor grad) { std::cout << "hook on y sees\n" << grad << "\n"; });
  x.register_hook([](torch::Tensor grad) { return grad * 10; });
  (y * y).sum().backward();
  std::cout << "x.grad (scaled by the hook)\n" << x.grad() << "\n";

  auto a = torch::tensor({1.0, 1.0}, torch::requires_grad());
  auto handle = a.register_hook([](torch::Tensor grad) { return grad + 100; });
  (a * 3).sum().backward();
  std::cout << "with hook\n" << a.grad() << "\n";
  a.remove_hook(handle);
  a.grad().zero_();
  (a * 3).sum().backward();
  std::cout << "after remove_hook\n" << a.grad() << "\n";
  return 0;
}

}  // namespace autograd_hooks_program
