// torch::optim::Adagrad and torch::optim::LBFGS (fixed step and strong Wolfe line search) training a
// tiny deterministic regression; their options and state (save/load: tests/framework/test_nn_more.cpp).
// compat-tolerance: 1e-4
#include <iostream>

#include "compat.h"

namespace optim_adagrad_lbfgs_program {

struct Problem {
  torch::Tensor x = torch::linspace(-1, 1, 12).reshape({6, 2});
  torch::Tensor y = (x.select(1, 0) * 1.5 - x.select(1, 1) * 0.5 + 0.25).unsqueeze(1) + x.select(1, 0).unsqueeze(1).pow(2);
};

torch::nn::Sequential make_model() {
  torch::nn::Sequential model(torch::nn::Linear(2, 3), torch::nn::Tanh(), torch::nn::Linear(3, 1));
  torch::NoGradGuard no_grad;
  int64_t i = 0;
  for (auto& p : model->parameters()) {
    p.copy_(torch::linspace(-0.5, 0.5, p.numel()).reshape(p.sizes()) * (i % 2 == 0 ? 1.0 : -0.3));
    ++i;
  }
  return model;
}

void print_error(const char* what, const std::function<void()>& body) {
  try {
    body();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << what << ": " << message.substr(0, message.find('\n')) << "\n";
  }
}

COMPAT_PROGRAM(optim_adagrad_lbfgs) {
  Problem data;
  // ---- Adagrad ----
  auto model = make_model();
  torch::optim::Adagrad adagrad(model->parameters(),
                                torch::optim::AdagradOptions(0.1).lr_decay(0.01).weight_decay(0.001).initial_accumulator_value(0.1));
  std::cout << "adagrad state entries before a step " << adagrad.state().size() << "\n";
  for (int step = 0; step < 5; ++step) {
    adagrad.zero_grad();
    auto loss = torch::mse_loss(model->forward(data.x), data.y);
    loss.backward();
    adagrad.step();
    std::cout << "adagrad step " << step << " loss " << loss.item<float>() << "\n";
  }
  auto first = model->parameters()[0];
  const torch::optim::AdagradParamState* found = nullptr;
  for (const auto& entry : adagrad.state()) {  // the state of the (3, 2) weight: the only one of that shape
    const auto& state = static_cast<const torch::optim::AdagradParamState&>(*entry.second);
    if (state.sum().sizes() == first.sizes()) found = &state;
  }
  const auto& adagrad_state = *found;
  std::cout << "adagrad state step " << adagrad_state.step() << " sum\n" << adagrad_state.sum() << "\n";
  std::cout << "weight after adagrad\n" << first << "\n";
  auto& options = static_cast<torch::optim::AdagradOptions&>(adagrad.defaults());
  std::cout << "adagrad defaults lr " << options.lr() << " lr_decay " << options.lr_decay() << " eps "
            << options.eps() << "\n";
  torch::optim::AdagradOptions defaults;
  std::cout << "AdagradOptions() lr " << defaults.lr() << " lr_decay " << defaults.lr_decay() << " weight_decay "
            << defaults.weight_decay() << " initial_accumulator_value " << defaults.initial_accumulator_value()
            << " eps " << defaults.eps() << "\n";

  print_error("Adagrad negative lr", [] { torch::optim::Adagrad(std::vector<torch::Tensor>{torch::ones(1)}, -1.0); });
  print_error("Adagrad negative lr_decay", [] {
    torch::optim::Adagrad(std::vector<torch::Tensor>{torch::ones(1)}, torch::optim::AdagradOptions().lr_decay(-1));
  });

  // ---- LBFGS, fixed step ----
  auto lbfgs_model = make_model();
  torch::optim::LBFGS lbfgs(lbfgs_model->parameters(), torch::optim::LBFGSOptions(0.5).max_iter(4).history_size(3));
  auto& lbfgs_options = static_cast<torch::optim::LBFGSOptions&>(lbfgs.defaults());
  std::cout << "lbfgs max_eval " << lbfgs_options.max_eval().value() << " tolerance_grad "
            << lbfgs_options.tolerance_grad() << " tolerance_change " << lbfgs_options.tolerance_change()
            << " line_search_fn set " << lbfgs_options.line_search_fn().has_value() << "\n";
  int evaluations = 0;
  auto closure = [&] {
    ++evaluations;
    lbfgs.zero_grad();
    auto loss = torch::mse_loss(lbfgs_model->forward(data.x), data.y);
    loss.backward();
    return loss;
  };
  for (int step = 0; step < 3; ++step) {
    auto loss = lbfgs.step(closure);
    std::cout << "lbfgs step " << step << " loss " << loss.item<float>() << " evaluations " << evaluations << "\n";
  }
  std::cout << "lbfgs state entries " << lbfgs.state().size() << "\n";  // global, under the first parameter
  const auto& lbfgs_state = static_cast<const torch::optim::LBFGSParamState&>(*lbfgs.state().begin()->second);
  std::cout << "lbfgs state func_evals " << lbfgs_state.func_evals() << " n_iter " << lbfgs_state.n_iter()
            << " history " << lbfgs_state.old_dirs().size() << "\n";
  std::cout << "loss after lbfgs " << torch::mse_loss(lbfgs_model->forward(data.x), data.y).item<float>() << "\n";

  // ---- LBFGS with strong Wolfe line search ----
  auto wolfe_model = make_model();
  torch::optim::LBFGS wolfe(wolfe_model->parameters(),
                            torch::optim::LBFGSOptions(1).max_iter(6).line_search_fn("strong_wolfe"));
  auto wolfe_closure = [&] {
    wolfe.zero_grad();
    auto loss = torch::mse_loss(wolfe_model->forward(data.x), data.y);
    loss.backward();
    return loss;
  };
  for (int step = 0; step < 2; ++step) {
    auto loss = wolfe.step(wolfe_closure);
    std::cout << "strong_wolfe step " << step << " loss " << loss.item<float>() << "\n";
  }
  const auto& wolfe_state = static_cast<const torch::optim::LBFGSParamState&>(*wolfe.state().begin()->second);
  std::cout << "strong_wolfe func_evals " << wolfe_state.func_evals() << " n_iter " << wolfe_state.n_iter() << "\n";
  std::cout << "loss after strong_wolfe " << torch::mse_loss(wolfe_model->forward(data.x), data.y).item<float>()
            << "\n";

  // A quadratic LBFGS solves in a few iterations.
  auto w = torch::zeros({3}, torch::requires_grad());
  auto target = torch::tensor({1.0, -2.0, 0.5});
  torch::optim::LBFGS quadratic({w}, torch::optim::LBFGSOptions(1).line_search_fn("strong_wolfe"));
  quadratic.step([&] {
    quadratic.zero_grad();
    auto loss = ((w - target) * (w - target) * torch::tensor({1.0, 4.0, 9.0})).sum();
    loss.backward();
    return loss;
  });
  std::cout << "quadratic minimum " << w << "\n";
  print_error("LBFGS with two groups", [] {
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(std::vector<torch::Tensor>{torch::ones(1)});
    groups.emplace_back(std::vector<torch::Tensor>{torch::ones(2)});
    torch::optim::LBFGS(groups, torch::optim::LBFGSOptions());
  });
  print_error("unknown line search", [] {
    auto p = torch::ones({1}, torch::requires_grad());
    torch::optim::LBFGS bad({p}, torch::optim::LBFGSOptions().line_search_fn("backtracking"));
    bad.step([&] {
      bad.zero_grad();
      auto loss = (p * p).sum();
      loss.backward();
      return loss;
    });
  });
  return 0;
}

}  // namespace optim_adagrad_lbfgs_program
