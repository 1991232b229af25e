#pragma once
// torch::optim::LBFGS: limited-memory BFGS (Nocedal & Wright, Algorithm 7.4), LibTorch 1.13's port of
// PyTorch's. One step(closure) runs up to max_iter iterations, each re-evaluating the loss through
// the closure: the direction d = -H g comes from the last history_size pairs (s = step taken,
// y = change of gradient) by the two-loop recursion, and the step length is lr (the first one scaled
// by 1 / |g|_1), or found by a strong-Wolfe line search with line_search_fn = "strong_wolfe".
//
//   torch::optim::LBFGS lbfgs(model->parameters(), torch::optim::LBFGSOptions(1).line_search_fn("strong_wolfe"));
//   lbfgs.step([&] { lbfgs.zero_grad(); auto loss = criterion(model->forward(x), y); loss.backward(); return loss; });
//
// Its state is global, but kept (as in LibTorch) under the first parameter's key. One parameter
// group only.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"

namespace tinytorch {
namespace optim {

struct LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1);  // NOLINT: implicit, as LibTorch's
  TORCH_ARG(double, lr) = 1;
  TORCH_ARG(int64_t, max_iter) = 20;
  // Closure evaluations per step; unset means max_iter * 5 / 4 (set by the constructor).
  TORCH_ARG(std::optional<int64_t>, max_eval) = std::nullopt;
  TORCH_ARG(double, tolerance_grad) = 1e-7;
  TORCH_ARG(double, tolerance_change) = 1e-9;
  TORCH_ARG(int64_t, history_size) = 100;
  TORCH_ARG(std::optional<std::string>, line_search_fn) = std::nullopt;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const LBFGSOptions& lhs, const LBFGSOptions& rhs);
  ~LBFGSOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct LBFGSParamState : public OptimizerCloneableParamState<LBFGSParamState> {
  TORCH_ARG(int64_t, func_evals) = 0;
  TORCH_ARG(int64_t, n_iter) = 0;
  TORCH_ARG(double, t) = 0;
  TORCH_ARG(double, prev_loss) = 0;
  TORCH_ARG(Tensor, d) = {};
  TORCH_ARG(Tensor, H_diag) = {};
  TORCH_ARG(Tensor, prev_flat_grad) = {};
  TORCH_ARG(std::deque<Tensor>, old_dirs);
  TORCH_ARG(std::deque<Tensor>, old_stps);
  TORCH_ARG(std::deque<Tensor>, ro);
  TORCH_ARG(std::optional<std::vector<Tensor>>, al) = std::nullopt;

 public:
  void serialize(serialize::InputArchive& archive) override;
  void serialize(serialize::OutputArchive& archive) const override;
  friend bool operator==(const LBFGSParamState& lhs, const LBFGSParamState& rhs);
  ~LBFGSParamState() override = default;
};

class LBFGS : public Optimizer {
 public:
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {})
      : Optimizer(std::move(param_groups), std::make_unique<LBFGSOptions>(defaults)) {
    TT_CHECK(param_groups_.size() == 1, "LBFGS doesn't support per-parameter options (parameter groups)");
    if (defaults.max_eval() == std::nullopt) {
      const int64_t max_eval = (defaults.max_iter() * 5) / 4;
      static_cast<LBFGSOptions&>(param_groups_[0].options()).max_eval(max_eval);
      static_cast<LBFGSOptions&>(*defaults_).max_eval(max_eval);
    }
  }
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {})
      : LBFGS(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

  // No default closure: LBFGS evaluates the loss many times per step.
  Tensor step(LossClosure closure) override;

 protected:
  const char* kind() const override { return "LBFGS"; }
  std::unique_ptr<OptimizerOptions> make_options() const override { return std::make_unique<LBFGSOptions>(); }
  std::unique_ptr<OptimizerParamState> make_param_state() const override {
    return std::make_unique<LBFGSParamState>();
  }

 private:
  std::optional<int64_t> numel_cache_;
  int64_t _numel();
  // Every parameter's gradient, flattened and concatenated (zeros for a parameter without one).
  Tensor _gather_flat_grad();
  // p += step_size * (p's segment of the flat `update`), for every parameter.
  void _add_grad(const double step_size, const Tensor& update);
  // The loss and flat gradient at x + t d, the parameters put back to x afterwards.
  std::tuple<double, Tensor> _directional_evaluate(const LossClosure& closure, const std::vector<Tensor>& x,
                                                   double t, const Tensor& d);
  void _set_param(const std::vector<Tensor>& params_data);
  std::vector<Tensor> _clone_param();
};

}  // namespace optim
}  // namespace tinytorch
