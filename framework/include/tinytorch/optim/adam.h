#pragma once
// torch::optim::Adam: adaptive moment estimation (Kingma & Ba, 2015) with LibTorch 1.13's update.
// Per parameter p with gradient g, at its step t = 1, 2, ...:
//   g = g + weight_decay * p                          (coupled L2 decay, when weight_decay != 0)
//   m = beta1 * m + (1 - beta1) * g                   exp_avg: the mean of recent gradients
//   v = beta2 * v + (1 - beta2) * g * g               exp_avg_sq: the mean of recent squared gradients
//   v_max = max(v_max, v)                             (amsgrad only; then v_max replaces v below)
//   p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
// m and v start at zero, so early averages are too small; dividing by (1 - beta^t) corrects that bias.
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdamOptions& lhs, const AdamOptions& rhs);
  ~AdamOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(Tensor, exp_avg);
  TORCH_ARG(Tensor, exp_avg_sq);
  TORCH_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const AdamParamState& lhs, const AdamParamState& rhs);
  ~AdamParamState() override = default;
};

class Adam : public Optimizer {
 public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {})
      : Optimizer(std::move(param_groups), std::make_unique<AdamOptions>(defaults)) {
    TT_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
    TT_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
    const auto betas = defaults.betas();
    TT_CHECK(0 <= std::get<0>(betas) && std::get<0>(betas) < 1.0, "Invalid beta parameter at index 0: ",
             std::get<0>(betas));
    TT_CHECK(0 <= std::get<1>(betas) && std::get<1>(betas) < 1.0, "Invalid beta parameter at index 1: ",
             std::get<1>(betas));
    TT_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
  }
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  Tensor step(LossClosure closure = nullptr) override;

 protected:
  const char* kind() const override { return "Adam"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<AdamOptions>(); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<AdamParamState>();
  }
};

namespace detail {
// Adam's two kernels, shared by Adam and AdamW (which differ only in how they decay weights).
// Learner-written in module 07 (optimizers.cpp). All tensors have the parameter's sizes and dtype.

// The moment update, in place: exp_avg = beta1 * exp_avg + (1 - beta1) * grad and
// exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad * grad.
void adam_update_moments(Tensor& exp_avg, Tensor& exp_avg_sq, const Tensor& grad, double beta1, double beta2);

// The bias-corrected step for a parameter at its step `step` (1 for its first update), in place:
// param -= lr / (1 - beta1^step) * exp_avg / (sqrt(second_moment) / sqrt(1 - beta2^step) + eps).
// second_moment is exp_avg_sq (or amsgrad's running maximum of it).
void adam_apply_update(Tensor& param, const Tensor& exp_avg, const Tensor& second_moment, int64_t step,
                       double lr, double beta1, double beta2, double eps);
}  // namespace detail

}  // namespace optim
}  // namespace tinytorch
