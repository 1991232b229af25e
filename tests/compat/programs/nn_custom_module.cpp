// A custom module the way LibTorch's C++ frontend tutorial writes one: TORCH_MODULE, register_module,
// register_parameter, register_buffer, named_parameters / named_buffers, and a forward pass.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace nn_custom_module_program {

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(torch::nn::LinearOptions(hidden, out).bias(false)))) {
    scale = register_parameter("scale", torch::ones({out}));
    running = register_buffer("running", torch::zeros({out}));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    auto y = fc2->forward(x) * scale;
    running += y.detach().mean(0);
    return y;
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor scale, running;
};
TORCH_MODULE(Net);

COMPAT_PROGRAM(nn_custom_module) {
  Net net(3, 4, 2);
  {
    torch::NoGradGuard no_grad;
    for (auto& p : net->parameters()) p.copy_(torch::linspace(-1, 1, p.numel()).reshape(p.sizes()));
  }
  for (const auto& pair : net->named_parameters())
    std::cout << pair.key() << " " << pair.value().sizes() << " requires_grad " << pair.value().requires_grad() << "\n";
  for (const auto& pair : net->named_buffers()) std::cout << "buffer " << pair.key() << " " << pair.value().sizes() << "\n";
  std::cout << "parameters " << net->parameters().size() << " non-recursive " << net->parameters(false).size() << "\n";
  std::cout << "children " << net->children().size() << " modules " << net->modules().size() << "\n";
  for (const auto& pair : net->named_modules()) std::cout << "module '" << pair.key() << "'\n";
  auto x = torch::arange(6, torch::kFloat).reshape({2, 3}) / 5;
  auto y = net->forward(x);
  std::cout << "forward\n" << y << "\nrunning\n" << net->running << "\n";
  y.sum().backward();
  std::cout << "fc1.weight grad\n" << net->fc1->weight.grad() << "\nscale grad\n" << net->scale.grad() << "\n";
  net->zero_grad(/*set_to_none=*/true);  // explicit: the default changed from false (1.x) to true (2.x)
  std::cout << "after zero_grad defined " << net->scale.grad().defined() << "\n";
  return 0;
}

}  // namespace nn_custom_module_program
