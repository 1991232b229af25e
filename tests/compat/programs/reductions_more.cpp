// prod, amax/amin, logsumexp, var/std (unbiased, dims, keepdim) and cumsum, as the LibTorch
// tutorials use them, and their gradients.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace reductions_more_program {

COMPAT_PROGRAM(reductions_more) {
  auto x = torch::linspace(-1.5, 2.0, 12).reshape({3, 4});
  std::cout << "prod " << x.prod() << "\nprod(1)\n" << x.prod(1) << "\nprod(0, keepdim)\n" << x.prod(0, true) << "\n";
  std::cout << "prod of longs\n" << torch::prod(torch::arange(1, 7).reshape({2, 3}), 1) << "\n";
  std::cout << "amax\n" << x.amax(1) << "\n" << torch::amax(x, {0, 1}) << "\n" << x.amin({0}, true) << "\n";
  std::cout << "logsumexp\n" << x.logsumexp({1}) << "\n" << torch::logsumexp(x * 100, {0}, true) << "\n";
  std::cout << "var " << x.var() << "\nvar biased " << x.var(false) << "\n";
  std::cout << "var(1)\n" << x.var({1}) << "\nvar(0, biased, keepdim)\n" << x.var({0}, false, true) << "\n";
  std::cout << "std\n" << x.std() << "\n" << torch::std(x, {1}, true, true) << "\n";
  std::cout << "var with correction 0\n" << x.var({1}, /*correction=*/0) << "\n";
  std::cout << "where(condition)\n";
  for (const auto& coordinates : torch::where(x > 1)) std::cout << coordinates << "\n";
  std::cout << "where of two numbers\n" << torch::where(x > 0, 1.0, -1.0) << "\n";
  std::cout << "cumsum(1)\n" << x.cumsum(1) << "\ncumsum(0) of longs\n" << torch::cumsum(torch::arange(6).reshape({2, 3}), 0)
            << "\n";

  auto w = torch::tensor({{2.0, 0.0, 3.0}, {1.0, 4.0, -1.0}}, torch::requires_grad());
  w.prod(1).sum().backward();
  std::cout << "grad of prod(1) (with a zero)\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.cumsum(1).pow(2).sum().backward();
  std::cout << "grad of cumsum\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.var({1}).sum().backward();
  std::cout << "grad of var\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.logsumexp({0}).sum().backward();
  std::cout << "grad of logsumexp\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.std().backward();
  std::cout << "grad of std\n" << w.grad() << "\n";
  return 0;
}

}  // namespace reductions_more_program
