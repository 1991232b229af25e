// torch::autograd::grad: gradients returned instead of accumulated, grad_outputs, create_graph, allow_unused.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace autograd_grad_program {

COMPAT_PROGRAM(autograd_grad) {
  auto x = torch::tensor({1.0, -2.0, 0.5}, torch::requires_grad());
  auto w = torch::tensor({2.0, 0.5, -1.0}, torch::requires_grad());
  auto y = (x * w).sum() + x.pow(2).sum();
  auto grads = torch::autograd::grad({y}, {x, w});
  std::cout << "dy/dx\n" << grads[0] << "\ndy/dw\n" << grads[1] << "\n";
  std::cout << "x.grad defined after grad(): " << x.grad().defined() << "\n";

  auto v = x * x;
  auto vjp = torch::autograd::grad({v}, {x}, {torch::tensor({1.0, 0.5, 2.0})});
  std::cout << "with grad_outputs\n" << vjp[0] << "\n";

  auto s = x.pow(3).sum();
  auto first = torch::autograd::grad({s}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  auto second = torch::autograd::grad({first.sum()}, {x})[0];
  std::cout << "first\n" << first << "\nsecond\n" << second << "\n";

  auto unused = torch::tensor({1.0}, torch::requires_grad());
  auto r = torch::autograd::grad({x.sum()}, {x, unused}, {}, c10::nullopt, false, /*allow_unused=*/true);
  std::cout << "allow_unused: used defined " << r[0].defined() << ", unused defined " << r[1].defined() << "\n";
  try {
    torch::autograd::grad({x.sum()}, {unused});
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << "error: " << message.substr(0, message.find('\n')) << "\n";
  }
  return 0;
}

}  // namespace autograd_grad_program
