// NoGradGuard, detach, requires_grad_ and what they do to the graph.
#include <iostream>

#include "compat.h"

namespace autograd_no_grad_program {

COMPAT_PROGRAM(autograd_no_grad) {
  auto x = torch::ones({3}, torch::requires_grad());
  {
    torch::NoGradGuard no_grad;
    auto y = x * 2;
    std::cout << "in NoGradGuard: requires_grad " << y.requires_grad() << " grad_mode " << torch::GradMode::is_enabled()
              << "\n";
    x.mul_(3);  // in-place on a leaf is allowed without grad mode
  }
  std::cout << "after guard: grad_mode " << torch::GradMode::is_enabled() << " x " << x << "\n";
  auto d = x.detach();
  std::cout << "detach: requires_grad " << d.requires_grad() << " shares storage " << (d.data_ptr() == x.data_ptr())
            << "\n";
  auto plain = torch::zeros({2});
  plain.requires_grad_();
  std::cout << "requires_grad_ " << plain.requires_grad() << " leaf " << plain.is_leaf() << "\n";
  auto z = (x * x).sum();
  z.backward();
  std::cout << "grad\n" << x.grad() << "\n";
  try {
    x.add_(1);
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << "in-place on a leaf: " << message.substr(0, message.find('\n')) << "\n";
  }
  {
    torch::AutoGradMode disabled(false);
    std::cout << "AutoGradMode(false): " << (x * 2).requires_grad() << "\n";
  }
  std::cout << "x.data() requires_grad " << x.data().requires_grad() << "\n";
  return 0;
}

}  // namespace autograd_no_grad_program
