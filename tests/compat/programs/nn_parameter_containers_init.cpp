// nn::ParameterList and nn::ParameterDict (registration names, iteration, printing, errors), the rest of
// torch::nn::init (calculate_gain, eye_, dirac_, orthogonal_, sparse_, kaiming_* with fan mode and
// nonlinearity), and small Module / IntArrayRef spellings from LibTorch's tutorials.
#include <iostream>

#include "compat.h"

namespace nn_parameter_containers_init_program {

void print_error(const char* what, const std::function<void()>& body) {
  try {
    body();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << what << ": " << message.substr(0, message.find('\n')) << "\n";
  }
}

struct MixtureImpl : torch::nn::Module {
  MixtureImpl() {
    weights = register_module("weights", torch::nn::ParameterList(torch::ones({2, 3}), torch::zeros({3})));
    scales = register_module("scales", torch::nn::ParameterDict());
    scales->insert("alpha", torch::full({2}, 0.5));
    scales->insert("beta", torch::arange(4.0).requires_grad_(true));
    head = register_module("head", torch::nn::Linear(3, 2));
  }
  torch::nn::ParameterList weights;
  torch::nn::ParameterDict scales;
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Mixture);

COMPAT_PROGRAM(nn_parameter_containers_init) {
  // ---- ParameterList ----
  torch::nn::ParameterList list(torch::ones({2, 2}, torch::requires_grad()), torch::zeros({3}));
  list->append(torch::arange(4.0).reshape({2, 2}));
  std::vector<torch::Tensor> more = {torch::full({1}, 7.0), torch::eye(2, torch::kDouble)};
  list->extend(more);
  std::cout << "size " << list->size() << " is_empty " << list->is_empty() << "\n";
  for (const auto& item : *list) {
    std::cout << item.key() << " " << item.value().sizes() << " requires_grad " << item.value().requires_grad()
              << "\n";
  }
  std::cout << "list[2]\n" << list[2] << "\n" << "at(4)\n" << list->at(4) << "\n";
  std::cout << *list << "\n";
  print_error("list at(9)", [&] { list->at(9); });
  torch::nn::ParameterList copy;
  copy->extend(list->named_parameters());
  std::cout << "extended from named_parameters: " << copy->size() << "\n";

  // ---- ParameterDict ----
  torch::nn::ParameterDict dict;
  dict->insert("scale", torch::ones({4}));
  dict->insert("shift", torch::zeros({4}, torch::requires_grad()));
  std::cout << "keys";
  for (const auto& key : dict->keys()) std::cout << " " << key;
  std::cout << "\ncontains shift " << dict->contains("shift") << " bias " << dict->contains("bias") << " size "
            << dict->size() << " empty " << dict->empty() << "\n";
  dict["scale"].fill_(2);
  std::cout << "get scale " << dict->get("scale") << "\n";
  std::cout << *dict << "\n";
  torch::OrderedDict<std::string, torch::Tensor> replacements;
  replacements.insert("scale", torch::full({4}, 3.0));
  dict->update(replacements);
  std::cout << "after update " << dict["scale"].sum().item<float>() << "\n";
  auto popped = dict->pop("scale");
  std::cout << "popped " << popped.sizes() << " left " << dict->size() << "\n";
  print_error("insert twice", [&] { dict->insert("shift", torch::ones({1})); });
  print_error("pop missing", [&] { dict->pop("missing"); });
  print_error("get missing", [&] { dict->get("missing"); });
  torch::OrderedDict<std::string, torch::Tensor> fresh;
  fresh.insert("new", torch::ones({1}));
  print_error("update with a new key", [&] { dict->update(fresh); });
  dict->clear();
  std::cout << "cleared " << dict->size() << "\n";

  // ---- Inside a module ----
  Mixture model;
  for (const auto& item : model->named_parameters()) {
    std::cout << item.key() << " " << item.value().sizes() << " " << item.value().requires_grad() << "\n";
  }
  std::cout << *model << "\n";
  std::cout << "parameters(recurse=false) " << model->parameters(/*recurse=*/false).size() << " recurse "
            << model->parameters().size() << "\n";
  for (const auto& child : model->named_children()) std::cout << "child " << child.key() << "\n";
  const torch::nn::Module& as_const = *model;
  std::cout << "as<ParameterList> const " << (as_const.as<torch::nn::ParameterList>() == nullptr)
            << " as<MixtureImpl> " << (as_const.as<MixtureImpl>() != nullptr) << " as<Linear> "
            << (model->head->as<torch::nn::Linear>() != nullptr) << "\n";
  model->eval();
  std::cout << "is_training " << model->is_training() << " " << model->weights->is_training() << "\n";
  model->to(torch::kDouble);
  std::cout << "to(kDouble) " << model->weights[0].dtype() << " " << model->scales["alpha"].dtype() << "\n";
  model->head->weight.sum().backward();
  model->zero_grad(/*set_to_none=*/false);
  std::cout << "zero_grad(false) " << model->head->weight.grad().defined() << " "
            << model->head->weight.grad().abs().sum().item<double>() << "\n";
  model->zero_grad(/*set_to_none=*/true);
  std::cout << "zero_grad(true) " << model->head->weight.grad().defined() << "\n";
  int visited = 0;
  as_const.apply([&](const torch::nn::Module&) { ++visited; });
  std::cout << "const apply visited " << visited << "\n";

  // ---- IntArrayRef::slice ----
  auto shaped = torch::empty({2, 3, 4, 5});
  auto sizes = shaped.sizes();  // a view of shaped's sizes: shaped must outlive it
  std::cout << "slice(2) " << sizes.slice(2) << " slice(1, 2) " << sizes.slice(1, 2) << "\n";
  print_error("slice(3, 2)", [&] { sizes.slice(3, 2); });

  // ---- nn::init ----
  std::cout << "calculate_gain linear " << torch::nn::init::calculate_gain(torch::kLinear) << " conv2d "
            << torch::nn::init::calculate_gain(torch::kConv2D) << " sigmoid "
            << torch::nn::init::calculate_gain(torch::kSigmoid) << " tanh "
            << torch::nn::init::calculate_gain(torch::kTanh) << " relu " << torch::nn::init::calculate_gain(torch::kReLU)
            << " leaky_relu " << torch::nn::init::calculate_gain(torch::kLeakyReLU) << " leaky_relu 0.2 "
            << torch::nn::init::calculate_gain(torch::kLeakyReLU, 0.2) << "\n";
  torch::NoGradGuard no_grad;
  auto matrix = torch::empty({2, 3});
  torch::nn::init::eye_(matrix);
  std::cout << "eye_\n" << matrix << "\n";
  auto kernel = torch::empty({2, 3, 3});
  torch::nn::init::dirac_(kernel);
  std::cout << "dirac_ 3-D\n" << kernel << "\n";
  auto kernel4 = torch::empty({3, 2, 3, 2});
  torch::nn::init::dirac_(kernel4);
  std::cout << "dirac_ 4-D nonzero " << kernel4.nonzero() << "\n";
  auto kernel5 = torch::empty({2, 2, 1, 3, 3});
  torch::nn::init::dirac_(kernel5);
  std::cout << "dirac_ 5-D nonzero " << kernel5.nonzero() << "\n";
  print_error("dirac_ 2-D", [&] { torch::nn::init::dirac_(torch::empty({2, 2})); });
  print_error("eye_ 3-D", [&] { torch::nn::init::eye_(torch::empty({2, 2, 2})); });
  print_error("orthogonal_ 1-D", [&] { torch::nn::init::orthogonal_(torch::empty({3})); });
  print_error("sparse_ 3-D", [&] { torch::nn::init::sparse_(torch::empty({2, 2, 2}), 0.5); });
  print_error("kaiming_normal_ 1-D", [&] { torch::nn::init::kaiming_normal_(torch::empty({3})); });

  torch::manual_seed(0);
  auto tall = torch::empty({6, 4});
  torch::nn::init::orthogonal_(tall, 2.0);
  std::cout << "orthogonal_ 6x4 gain 2: W^T W = 4 I " << torch::allclose(tall.t().mm(tall), 4 * torch::eye(4), 1e-4, 1e-4)
            << "\n";
  auto wide = torch::empty({3, 2, 4});
  torch::nn::init::orthogonal_(wide);
  auto rows = wide.reshape({3, 8});
  std::cout << "orthogonal_ 3x(2x4): W W^T = I " << torch::allclose(rows.mm(rows.t()), torch::eye(3), 1e-4, 1e-4) << "\n";
  auto sparse = torch::empty({10, 6});
  torch::nn::init::sparse_(sparse, 0.3, 0.5);
  std::cout << "sparse_ zeros per column " << (sparse == 0).sum(0) << "\n";
  auto big = torch::empty({400, 200});
  torch::nn::init::kaiming_uniform_(big, 0, torch::kFanOut, torch::kReLU);
  const double fan_out_bound = std::sqrt(2.0) * std::sqrt(3.0 / 400);
  std::cout << "kaiming_uniform_ fan_out relu within bound " << (big.abs() <= fan_out_bound).all().item<bool>()
            << " reaches 0.95 bound " << (big.abs().max().item<double>() > 0.95 * fan_out_bound) << "\n";
  torch::nn::init::kaiming_normal_(big, 0, torch::kFanIn, torch::kTanh);
  const double fan_in_std = (5.0 / 3.0) / std::sqrt(200.0);
  std::cout << "kaiming_normal_ fan_in tanh std near " << (std::abs(big.std().item<double>() / fan_in_std - 1) < 0.02)
            << "\n";
  torch::nn::init::kaiming_normal_(big, 0.1, torch::kFanOut);
  const double leaky_std = std::sqrt(2.0 / 1.01) / std::sqrt(400.0);
  std::cout << "kaiming_normal_ fan_out leaky 0.1 std near "
            << (std::abs(big.std().item<double>() / leaky_std - 1) < 0.02) << "\n";
  torch::nn::init::xavier_uniform_(big, torch::nn::init::calculate_gain(torch::kTanh));
  std::cout << "xavier_uniform_ gain tanh within bound "
            << (big.abs() <= (5.0 / 3.0) * std::sqrt(6.0 / 600)).all().item<bool>() << "\n";
  auto fans = torch::nn::init::_calculate_fan_in_and_fan_out(torch::empty({4, 3, 5}));
  std::cout << "fans " << std::get<0>(fans) << " " << std::get<1>(fans) << "\n";
  return 0;
}

}  // namespace nn_parameter_containers_init_program
