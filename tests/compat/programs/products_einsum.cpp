// LibTorch's products beyond matmul: dot, vdot, inner, outer/ger, mv, addmv, addr, baddbmm, addbmm
// (and the in-place forms, addmm_ included), matrix_power, kron, trace, cross, tensordot, einsum,
// chain_matmul and linalg::multi_dot, with their gradients and node names.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace products_einsum_program {

COMPAT_PROGRAM(products_einsum) {
  auto a = torch::arange(1, 4, torch::kFloat), b = torch::linspace(-1, 1, 3);
  auto m = torch::arange(6, torch::kFloat).reshape({2, 3});
  std::cout << "dot " << a.dot(b) << "\nvdot " << torch::vdot(a, b) << "\n";
  std::cout << "inner\n" << m.inner(a) << "\n" << torch::inner(m, m) << "\n";
  std::cout << "outer\n" << a.outer(b) << "\nger\n" << torch::ger(b, a) << "\n";
  std::cout << "mv\n" << m.mv(a) << "\naddmv\n" << torch::ones({2}).addmv(m, a, 0.5, 2) << "\n";
  std::cout << "addr\n" << torch::addr(torch::ones({3, 3}), a, b, 2, 0.5) << "\n";
  auto batch1 = torch::linspace(-1, 1, 12).reshape({2, 2, 3}), batch2 = torch::linspace(0, 2, 12).reshape({2, 3, 2});
  std::cout << "baddbmm\n" << torch::ones({2, 2}).baddbmm(batch1, batch2, 0.5, 2) << "\n";
  std::cout << "addbmm\n" << torch::addbmm(torch::ones({2, 2}), batch1, batch2) << "\n";
  auto s = torch::ones({2, 2});
  s.addmm_(m, m.t(), 0.5, 2);
  std::cout << "addmm_\n" << s << "\n";
  auto v = torch::zeros({2});
  v.addmv_(m, a);
  std::cout << "addmv_\n" << v << "\n";
  auto q = torch::tensor({{2.0, 1.0}, {1.0, 3.0}});
  std::cout << "matrix_power\n" << q.matrix_power(0) << "\n" << q.matrix_power(5) << "\n" << torch::matrix_power(q, -2)
            << "\n";
  std::cout << "kron\n" << q.kron(torch::tensor({1.0, 10.0})) << "\n" << torch::kron(a, q) << "\n";
  std::cout << "trace " << m.trace() << " " << torch::trace(torch::arange(9).reshape({3, 3})) << "\n";
  std::cout << "cross\n" << torch::cross(m, torch::ones({2, 3})) << "\n" << torch::linalg_cross(a, b, 0) << "\n";
  std::cout << "tensordot\n" << torch::tensordot(batch1, batch2, {1, 2}, {2, 1}) << "\n";
  std::cout << "einsum matmul\n" << torch::einsum("ij,jk->ik", {m, m.t()}) << "\n";
  std::cout << "einsum implicit\n" << torch::einsum("ij,kj", {m, m}) << "\n";
  std::cout << "einsum trace " << torch::einsum("ii", {q}) << "\neinsum diagonal\n" << torch::einsum("ii->i", {q}) << "\n";
  std::cout << "einsum batch\n" << torch::einsum("bij,bjk->bik", {batch1, batch2}) << "\n";
  std::cout << "einsum ellipsis\n" << torch::einsum("...ij->...ji", {batch1}) << "\n";
  std::cout << "einsum three operands\n" << torch::einsum("bn,anm,bm->ba", {m, torch::ones({4, 3, 3}), m}) << "\n";
  std::cout << "einsum outer and sum\n" << torch::einsum("i,j->ij", {a, b}) << "\n" << torch::einsum("ijk->k", {batch1})
            << "\n";
  std::cout << "chain_matmul\n" << torch::linalg::multi_dot({m, m.t(), q}) << "\n"
            << torch::linalg::multi_dot({a, m.t(), torch::tensor({1.0, 2.0})}) << "\n";

  auto x = torch::tensor({{0.5, -1.0, 2.0}, {1.5, 0.25, -0.75}}, torch::requires_grad());
  auto y = torch::tensor({0.3, -1.2, 2.5}, torch::requires_grad());
  torch::einsum("ij,j->i", {x, y}).pow(2).sum().backward();
  std::cout << "grads of einsum\n" << x.grad() << "\n" << y.grad() << "\n";
  x.mutable_grad() = torch::Tensor();
  y.mutable_grad() = torch::Tensor();
  torch::ones({2}).addmv(x, y, 0.5, 2).pow(2).sum().backward();
  std::cout << "grads of addmv\n" << x.grad() << "\n" << y.grad() << "\n";
  x.mutable_grad() = torch::Tensor();
  y.mutable_grad() = torch::Tensor();
  x.cross(torch::ones({2, 3}) * y).sum().backward();
  std::cout << "grads of cross\n" << x.grad() << "\n" << y.grad() << "\n";
  x.mutable_grad() = torch::Tensor();
  y.mutable_grad() = torch::Tensor();
  (x.mm(x.t())).matrix_power(3).sum().backward();
  std::cout << "grad of matrix_power\n" << x.grad() << "\n";
  x.mutable_grad() = torch::Tensor();
  x.kron(y).pow(2).sum().backward();
  std::cout << "grad of kron\n" << x.grad() << "\n";
  std::cout << "nodes " << y.dot(y).grad_fn()->name() << " " << x.mv(y).grad_fn()->name() << " "
            << x.trace().grad_fn()->name() << " " << torch::ones({3, 3}).addr(y, y).grad_fn()->name() << "\n";
  return 0;
}

}  // namespace products_einsum_program
