// Tensor creation and options, as LibTorch's "Tensor Creation API" note presents them.
#include <iostream>

#include "compat.h"

namespace tensor_creation_program {

void describe(const char* label, const torch::Tensor& t) {
  std::cout << label << ": sizes=" << t.sizes() << " dtype=" << t.dtype() << " requires_grad=" << t.requires_grad()
            << "\n" << t << "\n";
}

COMPAT_PROGRAM(tensor_creation) {
  describe("zeros", torch::zeros({2, 3}));
  describe("ones long", torch::ones({2, 2}, torch::kInt64));
  describe("full", torch::full({3}, 7.5));
  describe("full long", torch::full({2}, 3, torch::dtype(torch::kLong)));
  describe("arange", torch::arange(5));
  describe("arange step", torch::arange(1, 4, 0.5));
  describe("linspace", torch::linspace(0, 1, 5));
  describe("eye", torch::eye(3));
  describe("tensor list", torch::tensor({1.5, 2.5, -3.0}));
  describe("tensor ints", torch::tensor({1, 2, 3}));
  describe("tensor nested", torch::tensor({{1.0, 2.0}, {3.0, 4.0}}));
  auto options = torch::TensorOptions().dtype(torch::kFloat64).requires_grad(true);
  describe("options", torch::ones({2}, options));
  describe("dtype helper", torch::zeros({2}, torch::dtype(torch::kFloat32).requires_grad(true)));
  auto base = torch::arange(6, torch::kFloat).reshape({2, 3});
  describe("zeros_like", torch::zeros_like(base));
  describe("ones_like double", torch::ones_like(base, torch::kDouble));
  describe("full_like", torch::full_like(base, 2));
  auto empty = torch::empty({0, 4});
  std::cout << "empty numel=" << empty.numel() << " dim=" << empty.dim() << "\n";
  std::cout << "scalar " << torch::tensor(3.5).item<double>() << " dim=" << torch::tensor(3.5).dim() << "\n";
  std::cout << "element_size float=" << base.element_size() << " long=" << torch::arange(3).element_size() << "\n";
  return 0;
}

}  // namespace tensor_creation_program
