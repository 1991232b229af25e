// nn containers: ModuleList, ModuleDict, AnyModule, Functional (function pointer, lambda, bound
// arguments) and Sequential with named children, as LibTorch's documentation uses them.
// compat-tolerance: 1e-5
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compat.h"

namespace nn_containers_program {

torch::Tensor double_it(torch::Tensor x) { return x * 2; }

// Weights from arange, so both libraries compute the same numbers.
void fill(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (auto& parameter : module.parameters()) {
    parameter.copy_(torch::arange(parameter.numel(), torch::kFloat).reshape(parameter.sizes()) / 10 - 0.3);
  }
}

struct StackImpl : torch::nn::Module {
  StackImpl() {
    layers = register_module("layers", torch::nn::ModuleList(torch::nn::Linear(3, 4), torch::nn::Linear(4, 4)));
    layers->push_back(torch::nn::Linear(4, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (const auto& layer : *layers) x = torch::relu(layer->as<torch::nn::Linear>()->forward(x));
    return x;
  }
  torch::nn::ModuleList layers;
};
TORCH_MODULE(Stack);

struct ScaleImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, double factor) { return x * factor; }
};
TORCH_MODULE(Scale);

COMPAT_PROGRAM(nn_containers) {
  auto input = torch::linspace(-1, 1, 6).reshape({2, 3});

  // ModuleList: registration, iteration, typed access, printing.
  Stack stack;
  fill(*stack);
  std::cout << *stack << "\n";
  std::cout << "list size " << stack->layers->size() << " parameters " << stack->parameters().size() << "\n";
  for (const auto& item : stack->named_parameters()) std::cout << item.key() << " " << item.value().sizes() << "\n";
  std::cout << "typed " << stack->layers->ptr<torch::nn::LinearImpl>(2)->weight.sizes() << " "
            << stack->layers->at<torch::nn::LinearImpl>(0).options.out_features() << "\n";
  std::cout << "indexed " << stack->layers[1]->name() << "\n";
  std::cout << "forward\n" << stack->forward(input) << "\n";
  auto more = torch::nn::ModuleList();
  more->extend(*stack->layers);
  more->insert(0, torch::nn::ReLU());
  std::cout << "extended " << more->size() << " first " << more[0]->name() << "\n";

  // ModuleDict: keys in insertion order, lookup, pop, update.
  std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>> named_heads = {
      {"digit", torch::nn::Linear(3, 10).ptr()}, {"parity", torch::nn::Linear(3, 2).ptr()}};
  torch::nn::ModuleDict heads(named_heads);
  std::cout << *heads << "\n";
  std::cout << "keys";
  for (const auto& key : heads->keys()) std::cout << " " << key;
  std::cout << "\ncontains parity " << heads->contains("parity") << " size " << heads->size() << "\n";
  std::cout << "at " << heads->at<torch::nn::LinearImpl>("digit").weight.sizes() << "\n";
  heads->pop("parity");
  std::cout << "after pop " << heads->size() << " contains " << heads->contains("parity") << "\n";
  heads->update({{"sign", torch::nn::Linear(3, 1).ptr()}});
  for (const auto& item : *heads) std::cout << "item " << item.key() << "\n";

  // AnyModule: one type for any module; forward with the module's own arguments.
  torch::nn::AnyModule any_linear(torch::nn::Linear(3, 2));
  fill(*any_linear.ptr());
  std::cout << "any forward\n" << any_linear.forward(input) << "\n";
  torch::nn::AnyModule any_scale(Scale{});
  std::cout << "any forward with a double\n" << any_scale.forward(input, 0.5) << "\n";
  std::cout << "any get " << any_linear.get<torch::nn::Linear>()->options.in_features() << " ptr "
            << any_linear.ptr<torch::nn::LinearImpl>()->bias.sizes() << "\n";
  auto raw = any_linear.any_forward(input);
  std::cout << "any_forward value " << raw.get<torch::Tensor>().sizes() << "\n";
  try {
    any_scale.forward(input);
  } catch (const c10::Error&) {
    std::cout << "any forward with too few arguments fails\n";
  }

  // Functional: a free function, a lambda, a function with bound arguments.
  torch::nn::Functional relu(torch::relu);
  torch::nn::Functional lambda([](torch::Tensor x) { return x + 1; });
  torch::nn::Functional doubled(double_it);
  torch::nn::Functional gelu_tanh(torch::gelu, /*approximate=*/"tanh");
  std::cout << relu << "\n" << relu(input) << "\n" << lambda(input) << "\n" << doubled(input) << "\n"
            << gelu_tanh(input) << "\n";

  // Sequential with named children, Functional and any module.
  torch::nn::Sequential net({{"fc1", torch::nn::Linear(3, 4)},
                             {"act", torch::nn::Functional(torch::tanh)},
                             {"fc2", torch::nn::Linear(4, 2)}});
  fill(*net);
  std::cout << net << "\n";
  for (const auto& item : net->named_parameters()) std::cout << item.key() << " " << item.value().sizes() << "\n";
  std::cout << "named forward\n" << net->forward(input) << "\n";
  std::cout << "typed " << net->ptr<torch::nn::LinearImpl>(2)->options.out_features() << "\n";
  net->push_back("out", torch::nn::Functional(torch::sigmoid));
  std::cout << "children";
  for (const auto& item : net->named_children()) std::cout << " " << item.key();
  std::cout << "\n";
  auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(net->clone());
  std::cout << "clone equal " << copy->forward(input).allclose(net->forward(input)) << " shares storage "
            << (copy->parameters()[0].data_ptr() == net->parameters()[0].data_ptr()) << "\n";
  return 0;
}

}  // namespace nn_containers_program
