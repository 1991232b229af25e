// LibTorch's other activations: torch::silu, mish, softplus, hardtanh, relu6, elu, selu, celu,
// hardsigmoid, hardswish, hardshrink, softshrink, threshold, log_sigmoid; their F:: spellings with
// FuncOptions (in place too), softsign / tanhshrink / logsigmoid, the nn:: modules and their printing,
// gradients with the backward nodes' names, and the dtype errors.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace activations_more_program {

namespace F = torch::nn::functional;

void show(const char* name, const torch::Tensor& t) { std::cout << name << "\n" << t << "\n"; }

template <typename Fn>
void expect_error(const char* what, Fn fn) {
  try {
    fn();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << what << ": " << message.substr(0, message.find('\n')) << "\n";
  }
}

COMPAT_PROGRAM(activations_more) {
  const auto x = torch::linspace(-4, 4, 9);
  show("silu", torch::silu(x));
  show("mish", torch::mish(x));
  show("softplus", torch::softplus(x));
  show("softplus beta 2 threshold 3", torch::softplus(x, 2, 3));
  show("hardtanh", torch::hardtanh(x));
  show("hardtanh -2 2", torch::hardtanh(x, -2, 2));
  show("relu6", torch::relu6(x * 2));
  show("elu", torch::elu(x));
  show("elu 0.5 2 1.5", torch::elu(x, 0.5, 2, 1.5));
  show("selu", torch::selu(x));
  show("celu 2", torch::celu(x, 2.0));
  show("hardsigmoid", torch::hardsigmoid(x));
  show("hardswish", torch::hardswish(x));
  show("hardshrink", torch::hardshrink(x / 4));
  show("hardshrink method 1", (x / 2).hardshrink(1));
  show("softshrink 1", torch::softshrink(x, 1));
  show("threshold 1 20", torch::threshold(x, 1, 20));
  show("log_sigmoid", torch::log_sigmoid(x));
  show("double silu", torch::silu(x.to(torch::kDouble)));
  show("long hardtanh", torch::hardtanh(torch::arange(-3, 4), -2, 2));
  show("long threshold", torch::threshold(torch::arange(-3, 4), 0, 7));

  show("F::silu", F::silu(x));
  show("F::mish", F::mish(x));
  show("F::softplus", F::softplus(x, F::SoftplusFuncOptions().beta(0.5).threshold(1)));
  show("F::hardtanh", F::hardtanh(x, F::HardtanhFuncOptions().min_val(-3).max_val(0.5)));
  show("F::relu6", F::relu6(x * 2));
  show("F::elu", F::elu(x, F::ELUFuncOptions().alpha(0.3)));
  show("F::selu", F::selu(x));
  show("F::celu", F::celu(x, F::CELUFuncOptions().alpha(0.5)));
  show("F::hardshrink", F::hardshrink(x, F::HardshrinkFuncOptions().lambda(2)));
  show("F::softshrink", F::softshrink(x, F::SoftshrinkFuncOptions(1.5)));
  show("F::softsign", F::softsign(x));
  show("F::tanhshrink", F::tanhshrink(x));
  show("F::threshold", F::threshold(x, F::ThresholdFuncOptions(0.5, -1)));
  show("F::logsigmoid", F::logsigmoid(x));

  // inplace = true overwrites the input and returns it.
  auto y = x.clone();
  auto returned = F::elu(y, F::ELUFuncOptions().inplace(true));
  std::cout << "F::elu inplace same tensor " << returned.is_same(y) << "\n" << y << "\n";
  y = x.clone();
  F::hardtanh(y, F::HardtanhFuncOptions().inplace(true));
  show("F::hardtanh inplace", y);
  y = x.clone();
  F::relu6(y, F::ReLU6FuncOptions(true));
  show("F::relu6 inplace", y);
  y = x.clone();
  F::selu(y, true);
  show("F::selu inplace", y);
  y = x.clone();
  F::celu(y, F::CELUFuncOptions().inplace(true));
  show("F::celu inplace", y);
  y = x.clone();
  F::threshold(y, F::ThresholdFuncOptions(0, 9).inplace(true));
  show("F::threshold inplace", y);
  y = x.clone();
  torch::silu_(y);
  torch::mish_(y);
  torch::hardsigmoid_(y);
  torch::hardswish_(y);
  show("silu_ mish_ hardsigmoid_ hardswish_", y);
  auto out = torch::empty({0});
  torch::softplus_out(out, x);
  show("softplus_out", out);
  torch::log_sigmoid_out(out, x);
  show("log_sigmoid_out", out);

  // Modules: printing with default and given options, and forward.
  torch::nn::SiLU silu_module;
  torch::nn::Mish mish_module;
  torch::nn::Softplus softplus_module(torch::nn::SoftplusOptions().beta(2).threshold(10));
  torch::nn::Hardtanh hardtanh_module(torch::nn::HardtanhOptions().min_val(-2).max_val(3).inplace(true));
  torch::nn::ReLU6 relu6_module(torch::nn::ReLU6Options().inplace(true));
  torch::nn::ELU elu_module(torch::nn::ELUOptions().alpha(0.5));
  torch::nn::SELU selu_module(torch::nn::SELUOptions(true));
  torch::nn::CELU celu_module(torch::nn::CELUOptions().alpha(2.5).inplace(true));
  torch::nn::Softsign softsign_module;
  torch::nn::Tanhshrink tanhshrink_module;
  torch::nn::Hardshrink hardshrink_module(torch::nn::HardshrinkOptions(0.25));
  torch::nn::Softshrink softshrink_module(torch::nn::SoftshrinkOptions().lambda(1.5));
  torch::nn::Threshold threshold_module(0.1, 20);
  torch::nn::Threshold threshold_inplace(torch::nn::ThresholdOptions(1, 2).inplace(true));
  torch::nn::LogSigmoid logsigmoid_module;
  torch::nn::Sequential net(silu_module, mish_module, softplus_module, hardtanh_module, relu6_module, elu_module,
                            selu_module, celu_module, softsign_module, tanhshrink_module, hardshrink_module,
                            softshrink_module, threshold_module, threshold_inplace, logsigmoid_module);
  std::cout << net << "\n";
  std::cout << torch::nn::Softplus() << "\n" << torch::nn::Hardtanh() << "\n" << torch::nn::ReLU6() << "\n"
            << torch::nn::ELU() << "\n" << torch::nn::SELU() << "\n" << torch::nn::CELU() << "\n"
            << torch::nn::Hardshrink() << "\n" << torch::nn::Softshrink() << "\n";
  show("module forwards", torch::stack({silu_module(x), mish_module(x), softplus_module(x), elu_module(x),
                                        softsign_module(x), tanhshrink_module(x), hardshrink_module(x / 4),
                                        softshrink_module(x), threshold_module(x), logsigmoid_module(x)}));
  show("Sequential forward", net->forward(x.clone()));

  // Gradients, with LibTorch's node names.
  auto w = torch::linspace(-3.5, 3.5, 8).requires_grad_(true);
  std::vector<torch::Tensor> outputs = {
      torch::silu(w),          torch::mish(w),          torch::softplus(w, 2, 3),  torch::hardtanh(w, -2, 2),
      torch::relu6(w * 2),     torch::elu(w, 0.5, 2, 1.5), torch::selu(w),         torch::celu(w, 2.0),
      torch::hardsigmoid(w),   torch::hardswish(w),     torch::hardshrink(w, 1),   torch::softshrink(w, 1),
      torch::threshold(w, 1, 20), torch::log_sigmoid(w), F::softsign(w),          F::tanhshrink(w)};
  for (const auto& output : outputs) std::cout << output.grad_fn()->name() << " ";
  std::cout << "\n";
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto grad = torch::autograd::grad({outputs[i].sum()}, {w})[0];
    std::cout << i << " " << grad << "\n";
  }
  auto v = (w * 1).detach().requires_grad_(true);
  auto z = v * 1;
  torch::elu_(z);
  std::cout << "elu_ node " << z.grad_fn()->name() << "\n";
  z.sum().backward();
  show("elu_ grad", v.grad());

  expect_error("silu long", [] { torch::silu(torch::arange(3)); });
  expect_error("mish int", [] { torch::mish(torch::arange(3).to(torch::kInt)); });
  expect_error("elu long", [] { torch::elu(torch::arange(3)); });
  expect_error("hardtanh bool", [] { torch::hardtanh(torch::ones({2}, torch::kBool)); });
  expect_error("threshold bool", [] { torch::threshold(torch::ones({2}, torch::kBool), 0, 1); });
  expect_error("softshrink negative", [&] { torch::softshrink(x, -1); });
  expect_error("log_sigmoid long", [] { torch::log_sigmoid(torch::arange(3)); });
  return 0;
}

}  // namespace activations_more_program
