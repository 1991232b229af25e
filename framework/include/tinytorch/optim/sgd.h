#pragma once
// torch::optim::SGD: stochastic gradient descent with optional momentum, dampening, Nesterov momentum
// and (coupled, L2) weight decay. LibTorch 1.13's update, per parameter p with gradient g:
//   g = g + weight_decay * p                              (when weight_decay != 0)
//   buf = g  on the first step,  buf = momentum * buf + (1 - dampening) * g  afterwards
//   g = g + momentum * buf  (nesterov)   or   g = buf     (when momentum != 0)
//   p = p - lr * g
#include <memory>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const SGDOptions& lhs, const SGDOptions& rhs);
  ~SGDOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct SGDParamState : public OptimizerCloneableParamState<SGDParamState> {
  TORCH_ARG(Tensor, momentum_buffer);

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const SGDParamState& lhs, const SGDParamState& rhs);
  ~SGDParamState() override = default;
};

class SGD : public Optimizer {
 public:
  explicit SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
      : Optimizer(std::move(param_groups), std::make_unique<SGDOptions>(defaults)) {
    TT_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
    TT_CHECK(defaults.momentum() >= 0, "Invalid momentum value: ", defaults.momentum());
    TT_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
    TT_CHECK(!defaults.nesterov() || (defaults.momentum() > 0 && defaults.dampening() == 0),
             "Nesterov momentum requires a momentum and zero dampening");
  }
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults)
      : SGD(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  // Learner-written in module 07 (optimizers.cpp).
  Tensor step(LossClosure closure = nullptr) override;

 protected:
  const char* kind() const override { return "SGD"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<SGDOptions>(0.0); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<SGDParamState>();
  }
};

}  // namespace optim
}  // namespace tinytorch
