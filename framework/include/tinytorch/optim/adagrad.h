#pragma once
// torch::optim::Adagrad (Duchi et al., 2011) with LibTorch 1.13's update. Per parameter p, gradient g:
//   g = g + weight_decay * p                              (when weight_decay != 0)
//   clr = lr / (1 + (step - 1) * lr_decay)
//   sum = sum + g * g                                     (starts at initial_accumulator_value)
//   p = p - clr * g / (sqrt(sum) + eps)
// Each weight's step shrinks with the gradients it has seen: rare features keep large steps.
// As in LibTorch, the state ("sum", "step") of every parameter is made by the constructor.
#include <cstdint>
#include <memory>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, lr_decay) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, initial_accumulator_value) = 0;
  TORCH_ARG(double, eps) = 1e-10;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdagradOptions& lhs, const AdagradOptions& rhs);
  ~AdagradOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct AdagradParamState : public OptimizerCloneableParamState<AdagradParamState> {
  TORCH_ARG(Tensor, sum);
  TORCH_ARG(int64_t, step) = 0;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdagradParamState& lhs, const AdagradParamState& rhs);
  ~AdagradParamState() override = default;
};

class Adagrad : public Optimizer {
 public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults = {})
      : Optimizer(std::move(param_groups), std::make_unique<AdagradOptions>(defaults)) {
    TT_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
    TT_CHECK(defaults.lr_decay() >= 0, "Invalid lr_decay value: ", defaults.lr_decay());
    TT_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
    TT_CHECK(defaults.initial_accumulator_value() >= 0,
             "Invalid initial_accumulator_value value: ", defaults.initial_accumulator_value());
    TT_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
    initialize_state(defaults.initial_accumulator_value());
  }
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {})
      : Adagrad(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  Tensor step(LossClosure closure = nullptr) override;

 protected:
  const char* kind() const override { return "Adagrad"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<AdagradOptions>(); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<AdagradParamState>();
  }

 private:
  // step 0 and sum = initial_accumulator_value (the defaults', as LibTorch) for every parameter.
  void initialize_state(double initial_accumulator_value);
};

}  // namespace optim
}  // namespace tinytorch
