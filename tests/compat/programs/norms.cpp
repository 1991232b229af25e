// Tensor::norm with p, dims and keepdim; torch::norm; and the frobenius norm.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace norms_program {

COMPAT_PROGRAM(norms) {
  auto x = torch::tensor({{3.0, -4.0, 0.0}, {1.0, 2.0, -2.0}});
  std::cout << "norm() " << x.norm() << "\n";
  std::cout << "norm(1) " << x.norm(1) << "\n";
  std::cout << "norm(2, {1})\n" << x.norm(2, {1}) << "\n";
  std::cout << "norm(1, {0}, true)\n" << x.norm(1, {0}, true) << "\n";
  std::cout << "norm(3, 1)\n" << x.norm(3, 1) << "\n";
  std::cout << "norm(inf, 1)\n" << x.norm(INFINITY, 1) << "\n";
  std::cout << "norm(0)\n" << x.norm(0) << "\n";
  std::cout << "torch::norm(x, 2, torch::IntArrayRef{0, 1}, false) " << torch::norm(x, 2, torch::IntArrayRef{0, 1}, false) << "\n";
  std::cout << "frobenius " << torch::frobenius_norm(x) << "\n";
  auto w = torch::tensor({0.5, -1.5, 2.0}, torch::requires_grad());
  auto n = w.norm();
  n.backward();
  std::cout << "d norm / dw\n" << w.grad() << "\n";
  auto d = torch::arange(8, torch::kDouble).reshape({2, 2, 2});
  std::cout << "double norm(2, {1, 2}, true)\n" << d.norm(2, {1, 2}, true) << "\n";
  return 0;
}

}  // namespace norms_program
