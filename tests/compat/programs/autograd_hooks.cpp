// Tensor hooks: register_hook that observes a gradient (void), one that replaces it (Tensor), hooks
// on leaves and non-leaves, their order with retain_grad(), remove_hook, and the errors.
#include <exception>
#include <iostream>
#include <vector>

#include "compat.h"

namespace autograd_hooks_program {

COMPAT_PROGRAM(autograd_hooks) {
  auto x = torch::tensor({1.0, 2.0, 3.0}, torch::requires_grad());
  auto y = x * 2;
  y.register_hook([](torch::Tensor grad) { std::cout << "hook on y sees\n" << grad << "\n"; });
  x.register_hook([](torch::Tensor grad) { return grad * 10; });
  (y * y).sum().backward();
  std::cout << "x.grad (scaled by the hook)\n" << x.grad() << "\n";

  // A hook on a non-leaf changes what flows on to the leaves.
  auto w = torch::tensor({1.0, -1.0}, torch::requires_grad());
  auto h = w * 3;
  h.register_hook([](torch::Tensor grad) { return grad + 1; });
  h.sum().backward();
  std::cout << "w.grad through a changed non-leaf gradient\n" << w.grad() << "\n";

  // Hooks run in registration order, each on the previous one's result; retain_grad() is one of them.
  std::vector<int> order;
  auto a = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto b = a * a;
  b.register_hook([&order](torch::Tensor grad) {
    order.push_back(1);
    return grad * 2;
  });
  b.retain_grad();
  b.register_hook([&order](torch::Tensor grad) {
    order.push_back(2);
    return grad + 5;
  });
  b.register_hook([&order](const torch::Tensor&) { order.push_back(3); });
  b.sum().backward();
  std::cout << "order";
  for (int step : order) std::cout << " " << step;
  std::cout << "\nb.grad (retained after the first hook)\n" << b.grad() << "\na.grad\n" << a.grad() << "\n";

  // remove_hook: the handle is the hook's index; the other hooks keep theirs.
  auto c = torch::tensor({1.0, 1.0}, torch::requires_grad());
  auto first = c.register_hook([](torch::Tensor grad) { return grad + 100; });
  auto second = c.register_hook([](torch::Tensor grad) { return grad * 2; });
  std::cout << "handles " << first << " " << second << "\n";
  (c * 3).sum().backward();
  std::cout << "with both hooks\n" << c.grad() << "\n";
  c.remove_hook(first);
  c.grad().zero_();
  (c * 3).sum().backward();
  std::cout << "after remove_hook(first)\n" << c.grad() << "\n";

  // Hooks stay for every backward through the tensor.
  auto d = torch::tensor({2.0}, torch::requires_grad());
  int calls = 0;
  d.register_hook([&calls](torch::Tensor) { ++calls; });
  for (int i = 0; i < 3; ++i) (d * d).sum().backward();
  std::cout << "hook calls over 3 backwards " << calls << " d.grad " << d.grad().item<double>() << "\n";

  // autograd::grad with respect to a tensor that has hooks.
  auto f = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto g = f * 3;
  g.register_hook([](torch::Tensor grad) { return grad * 7; });
  std::cout << "grad of a hooked non-leaf\n" << torch::autograd::grad({(g * g).sum()}, {g})[0] << "\n";
  f.register_hook([](torch::Tensor grad) { return grad * 0.5; });
  std::cout << "grad of a hooked leaf\n" << torch::autograd::grad({(f * f).sum()}, {f})[0] << "\n";

  // Errors, with LibTorch's wording.
  try {
    torch::ones({2}).register_hook([](torch::Tensor grad) { return grad; });
  } catch (const c10::Error& e) {
    std::cout << "no grad: " << e.what_without_backtrace() << "\n";
  }
  try {
    c.remove_hook(7);
  } catch (const c10::Error& e) {
    std::cout << "bad handle: " << e.what_without_backtrace() << "\n";
  }
  auto e = torch::tensor({1.0, 2.0}, torch::requires_grad());
  e.register_hook([](torch::Tensor grad) { return grad.sum(); });
  try {
    (e * 2).sum().backward();
  } catch (const std::exception& error) {  // LibTorch throws a std::runtime_error here, not a c10::Error
    std::cout << "wrong size: " << error.what() << "\n";
  }
  return 0;
}

}  // namespace autograd_hooks_program
