#pragma once
// torch::optim::AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019). Instead of
// adding weight_decay * p to the gradient (where Adam's normalisation would rescale it), AdamW
// shrinks the weight directly before Adam's step:
//   p = p * (1 - lr * weight_decay);   then Adam's moments and step on the pure gradient.
// Default weight_decay is 1e-2 (Adam's is 0).
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  AdamWOptions(double lr = 1e-3);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 1e-2;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdamWOptions& lhs, const AdamWOptions& rhs);
  ~AdamWOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct AdamWParamState : public OptimizerCloneableParamState<AdamWParamState> {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(Tensor, exp_avg);
  TORCH_ARG(Tensor, exp_avg_sq);
  TORCH_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdamWParamState& lhs, const AdamWParamState& rhs);
  ~AdamWParamState() override = default;
};

class AdamW : public Optimizer {
 public:
  explicit AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults = {})
      : Optimizer(std::move(param_groups), std::make_unique<AdamWOptions>(defaults)) {
    TT_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
    TT_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
    const auto betas = defaults.betas();
    TT_CHECK(0 <= std::get<0>(betas) && std::get<0>(betas) < 1.0, "Invalid beta parameter at index 0: ",
             std::get<0>(betas));
    TT_CHECK(0 <= std::get<1>(betas) && std::get<1>(betas) < 1.0, "Invalid beta parameter at index 1: ",
             std::get<1>(betas));
    TT_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
  }
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {})
      : AdamW(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  Tensor step(LossClosure closure = nullptr) override;

 protected:
  const char* kind() const override { return "AdamW"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<AdamWOptions>(); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<AdamWParamState>();
  }
};

}  // namespace optim
}  // namespace tinytorch
