#pragma once
// torch::optim::Optimizer: LibTorch 1.13's optimizer base. An optimizer holds parameter groups
// (tensors + their options: lr, momentum, ...) and per-parameter state (momentum buffers, Adam's
// moments), keyed by the parameter's TensorImpl address as a string, exactly like LibTorch.
//
//   torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
//   optimizer.zero_grad();  loss.backward();  optimizer.step();
//   optimizer.param_groups()[0].options().set_lr(0.01);          // what schedulers do
//
// Module 07 (Optimizers). Learner-written (modules/07_optimizers/optimizers.cpp): zero_grad,
// SGD::step and Adam's two kernels (tinytorch/optim/adam.h). Everything else is given.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace serialize {
class OutputArchive;
class InputArchive;
}  // namespace serialize

namespace optim {

// Per-parameter state (SGDParamState, AdamParamState, ...). serialize() writes/reads its tensors and
// counters; undefined tensors are skipped, as LibTorch does.
class OptimizerParamState {
 public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(serialize::InputArchive& archive);
  virtual void serialize(serialize::OutputArchive& archive) const;
  virtual ~OptimizerParamState() = default;
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// A parameter group's hyperparameters. get_lr()/set_lr() are the typeless door schedulers use.
class OptimizerOptions {
 public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(serialize::InputArchive& archive);
  virtual void serialize(serialize::OutputArchive& archive) const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 private:
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// Some parameters and the options that apply to them. A group built without options takes the
// optimizer's defaults when it is added.
class OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group)
      : params_(param_group.params()),
        options_(param_group.has_options() ? param_group.options().clone() : nullptr) {}
  OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}  // NOLINT
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}
  OptimizerParamGroup(OptimizerParamGroup&&) = default;
  OptimizerParamGroup& operator=(OptimizerParamGroup&&) = default;

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }

 protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class Optimizer {
 public:
  Optimizer(const Optimizer& optimizer) = delete;
  Optimizer(Optimizer&& optimizer) = default;

  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults)
      : defaults_(std::move(defaults)) {
    for (const auto& param_group : param_groups) add_param_group(param_group);
  }
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults)
      : Optimizer(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(parameters))},
                  std::move(defaults)) {}

  // Adds a group; its options default to the optimizer's. A tensor may belong to one group only.
  void add_param_group(const OptimizerParamGroup& param_group);

  virtual ~Optimizer() = default;

  using LossClosure = std::function<Tensor()>;
  // One update of every parameter that has a gradient. The closure, when given, re-evaluates the
  // loss (with grad mode on) before the update; step returns that loss (undefined without one).
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  // Appends parameters to the first group (LibTorch keeps it for old code; prefer add_param_group).
  void add_parameters(const std::vector<Tensor>& parameters);

  // Zeros the gradient of every parameter that has one (LibTorch 1.13 zeros; it does not reset
  // them to undefined). Learner-written in module 07.
  void zero_grad();

  // The first group's parameters.
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  // The number of parameters over all groups.
  size_t size() const noexcept;

  OptimizerOptions& defaults() noexcept { return *defaults_; }
  const OptimizerOptions& defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept { return param_groups_; }
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>& state() noexcept { return state_; }
  const std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>& state() const noexcept {
    return state_;
  }

  // Writes/reads the options of every group and the state of every parameter. load() needs an
  // optimizer of the same kind built over the same groups of the same parameter shapes.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  // The optimizer's name in archives ("SGD"); load() refuses another optimizer's state.
  virtual const char* kind() const { return "Optimizer"; }
  // Fresh, empty options and state of this optimizer's types, for load() to fill.
  virtual std::unique_ptr<OptimizerOptions> make_options() const;
  virtual std::unique_ptr<OptimizerParamState> make_param_state() const;
  // Runs the closure with grad mode on, as LibTorch's step does; undefined Tensor without closure.
  static Tensor evaluate_closure(const LossClosure& closure);

  std::vector<OptimizerParamGroup> param_groups_;
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

// The key of a parameter's entry in Optimizer::state(): its TensorImpl's address, as LibTorch's
// c10::guts::to_string(p.unsafeGetTensorImpl()) spells it.
std::string param_state_key(const Tensor& param);

// TinyTorch's systems extension: bytes of storage held by the optimizer's per-parameter state
// (momentum buffers, Adam's exp_avg and exp_avg_sq, ...), each storage counted once. Parameters and
// their gradients are not included; add tinytorch::memory_footprint(params) for those.
// SGD without momentum: 0. SGD with momentum: 1x the parameters. Adam: 2x (3x with amsgrad).
int64_t memory_footprint(const Optimizer& optimizer);

serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Optimizer& optimizer);
serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer);

}  // namespace optim
}  // namespace tinytorch
