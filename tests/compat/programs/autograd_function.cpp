// A custom torch::autograd::Function, as LibTorch's "Autograd in C++ Frontend" tutorial writes LinearFunction.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace autograd_function_program {
using torch::autograd::AutogradContext;
using torch::autograd::Function;
using torch::autograd::variable_list;

struct LinearFunction : public Function<LinearFunction> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor input, torch::Tensor weight,
                               torch::Tensor bias = torch::Tensor()) {
    ctx->save_for_backward({input, weight, bias});
    auto output = input.mm(weight.t());
    if (bias.defined()) output += bias.unsqueeze(0).expand_as(output);
    return output;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto input = saved[0];
    auto weight = saved[1];
    auto bias = saved[2];
    auto grad_output = grad_outputs[0];
    auto grad_input = grad_output.mm(weight);
    auto grad_weight = grad_output.t().mm(input);
    auto grad_bias = torch::Tensor();
    if (bias.defined()) grad_bias = grad_output.sum(0);
    return {grad_input, grad_weight, grad_bias};
  }
};

struct MulConstant : public Function<MulConstant> {
  static torch::Tensor forward(AutogradContext* ctx, torch::Tensor tensor, double constant) {
    ctx->saved_data["constant"] = constant;
    return tensor * constant;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    return {grad_outputs[0] * ctx->saved_data["constant"].toDouble(), torch::Tensor()};
  }
};

COMPAT_PROGRAM(autograd_function) {
  auto x = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  auto weight = torch::tensor({{0.5, -1.0, 2.0}, {1.0, 0.0, -0.5}}, torch::dtype(torch::kDouble).requires_grad(true));
  auto bias = torch::tensor({0.1, -0.2}, torch::dtype(torch::kDouble).requires_grad(true));
  auto y = LinearFunction::apply(x, weight, bias);
  std::cout << "forward\n" << y << "\n";
  y.sum().backward();
  std::cout << "grad x\n" << x.grad() << "\ngrad weight\n" << weight.grad() << "\ngrad bias\n" << bias.grad() << "\n";

  auto a = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto b = MulConstant::apply(a, 5.5);
  b.sum().backward();
  std::cout << "MulConstant grad\n" << a.grad() << "\n";
  return 0;
}

}  // namespace autograd_function_program
