// train()/eval() propagate to children (Dropout obeys them), apply() visits every module, clone()
// is a deep copy with its own parameters.
#include <iostream>

#include "compat.h"

namespace nn_train_eval_clone_program {

COMPAT_PROGRAM(nn_train_eval_clone) {
  torch::nn::Sequential model(torch::nn::Linear(2, 2), torch::nn::Dropout(0.5));
  std::cout << "default training " << model->is_training() << "\n";
  model->eval();
  std::cout << "after eval: model " << model->is_training() << " child " << model[1]->is_training() << "\n";
  auto x = torch::ones({3, 2});
  auto dropout = model[1]->as<torch::nn::Dropout>();
  std::cout << "dropout in eval is identity " << torch::equal(dropout->forward(x), x) << "\n";
  model->train();
  std::cout << "after train " << model[1]->is_training() << "\n";

  int count = 0;
  model->apply([&](torch::nn::Module& module) {
    ++count;
    std::cout << "visit " << module.name() << "\n";
  });
  std::cout << "visited " << count << "\n";
  model->apply([](const std::string& name, torch::nn::Module& module) {
    std::cout << "named visit '" << name << "' " << module.name() << "\n";
  });

  torch::nn::Linear linear(2, 2);
  {
    torch::NoGradGuard no_grad;
    linear->weight.fill_(1);
  }
  auto copy = std::dynamic_pointer_cast<torch::nn::LinearImpl>(linear->clone());
  {
    torch::NoGradGuard no_grad;
    copy->weight.fill_(7);
  }
  std::cout << "original weight\n" << linear->weight << "\nclone weight\n" << copy->weight << "\n";
  std::cout << "clone shares storage " << (copy->weight.data_ptr() == linear->weight.data_ptr()) << "\n";
  return 0;
}

}  // namespace nn_train_eval_clone_program
