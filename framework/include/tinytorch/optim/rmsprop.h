#pragma once
// torch::optim::RMSprop (Hinton's lecture 6e) with LibTorch 1.13's update. Per parameter p, gradient g:
//   g = g + weight_decay * p                               (when weight_decay != 0)
//   square_avg = alpha * square_avg + (1 - alpha) * g * g
//   centered:  grad_avg = alpha * grad_avg + (1 - alpha) * g;  avg = sqrt(square_avg - grad_avg^2) + eps
//   otherwise: avg = sqrt(square_avg) + eps
//   momentum > 0:  buf = momentum * buf + g / avg;  p = p - lr * buf
//   otherwise:     p = p - lr * g / avg
#include <cstdint>
#include <memory>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, alpha) = 0.99;
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(bool, centered) = false;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const RMSpropOptions& lhs, const RMSpropOptions& rhs);
  ~RMSpropOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct RMSpropParamState : public OptimizerCloneableParamState<RMSpropParamState> {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(Tensor, square_avg);
  TORCH_ARG(Tensor, momentum_buffer) = {};
  TORCH_ARG(Tensor, grad_avg) = {};

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const RMSpropParamState& lhs, const RMSpropParamState& rhs);
  ~RMSpropParamState() override = default;
};

class RMSprop : public Optimizer {
 public:
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults = {})
      : Optimizer(std::move(param_groups), std::make_unique<RMSpropOptions>(defaults)) {
    TT_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
    TT_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
    TT_CHECK(defaults.momentum() >= 0, "Invalid momentum value: ", defaults.momentum());
    TT_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
    TT_CHECK(defaults.alpha() >= 0, "Invalid alpha value: ", defaults.alpha());
  }
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {})
      : RMSprop(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  Tensor step(LossClosure closure = nullptr) override;

 protected:
  const char* kind() const override { return "RMSprop"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<RMSpropOptions>(); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<RMSpropParamState>();
  }
};

}  // namespace optim
}  // namespace tinytorch
