// backward() with retain_graph and create_graph (LibTorch's autograd tutorial), and gradient accumulation.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace autograd_backward_program {

COMPAT_PROGRAM(autograd_backward) {
  auto x = torch::ones({2, 2}, torch::requires_grad());
  auto y = x + 2;
  std::cout << "y.grad_fn " << y.grad_fn()->name() << "\n";
  auto z = y * y * 3;
  auto out = z.mean();
  std::cout << "z\n" << z << "\nout " << out << "\n";
  out.backward({}, /*retain_graph=*/true);
  std::cout << "x.grad\n" << x.grad() << "\n";
  out.backward();
  std::cout << "accumulated x.grad\n" << x.grad() << "\n";
  x.grad().zero_();

  auto v = torch::tensor({1.0, 2.0, 3.0}, torch::requires_grad());
  auto cube = v.pow(3);
  cube.backward(torch::tensor({0.1, 1.0, 0.0001}));
  std::cout << "vector-Jacobian product\n" << v.grad() << "\n";

  auto t = torch::tensor(2.0, torch::requires_grad());
  auto f = t * t * t;
  f.backward({}, /*retain_graph=*/true, /*create_graph=*/true);
  auto first = t.grad().clone();
  std::cout << "df/dt " << first.item<double>() << " requires_grad " << t.grad().requires_grad() << "\n";
  auto g = t.grad();
  t.mutable_grad() = torch::Tensor();
  g.backward();
  std::cout << "d2f/dt2 " << t.grad().item<double>() << "\n";

  std::cout << "is_leaf x " << x.is_leaf() << " y " << y.is_leaf() << "\n";
  auto kept = x * 2;
  kept.retain_grad();
  (kept * kept).sum().backward();
  std::cout << "retained grad\n" << kept.grad() << "\n";
  return 0;
}

}  // namespace autograd_backward_program
