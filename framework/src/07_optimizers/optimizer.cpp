// torch::optim::Optimizer, the base every optimizer shares: parameter groups, per-parameter state,
// saving and loading, and the state's memory footprint. Given code (the learner writes zero_grad
// in optimizers.cpp).
//
// Archive layout of a saved optimizer (tinytorch's own; LibTorch's differs):
//   "optimizer"     the kind ("SGD", "Adam", ...): loading into another kind is refused
//   "param_groups"  { "size": n, "0": { "options": {lr, ...}, "params": [global indices] }, ... }
//   "state"         { "<global index>": { the parameter's state } } for each parameter with state
// Parameters are named by position (0, 1, ... over the groups in order), as PyTorch's state_dict
// does, so that state saved from one model loads into a fresh copy of it.
#include <set>
#include <sstream>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/optim/optimizer.h"
#include "tinytorch/serialize/archive.h"

namespace tinytorch {
namespace optim {

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  throw Error(
      "clone() has not been implemented for torch::optim::OptimizerParamState. Subclass "
      "torch::optim::OptimizerCloneableParamState<YourOptimizerParamState> instead of "
      "torch::optim::OptimizerParamState to inherit the ability to clone.");
}

void OptimizerParamState::serialize(serialize::InputArchive& /*archive*/) {
  throw Error(
      "void serialize(torch::serialize::InputArchive& archive) has not been implemented for "
      "torch::optim::OptimizerParamState. You must override it in your subclass of "
      "torch::optim::OptimizerCloneableParamState<YourOptimizerParamState>.");
}

void OptimizerParamState::serialize(serialize::OutputArchive& /*archive*/) const {
  throw Error(
      "void serialize(torch::serialize::OutputArchive& archive) has not been implemented for "
      "torch::optim::OptimizerParamState. You must override it in your subclass of "
      "torch::optim::OptimizerCloneableParamState<YourOptimizerParamState>.");
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  throw Error(
      "clone() has not been implemented for torch::optim::OptimizerOptions. Subclass "
      "torch::optim::OptimizerCloneableOptions<YourOptimizerOptions> instead of torch::optim::OptimizerOptions "
      "to inherit the ability to clone.");
}

void OptimizerOptions::serialize(serialize::InputArchive& /*archive*/) {
  throw Error(
      "void serialize(torch::serialize::InputArchive& archive) has not been implemented for "
      "torch::optim::OptimizerOptions. You must override it in your subclass of "
      "torch::optim::OptimizerCloneableOptions<YourOptimizerOptions>.");
}

void OptimizerOptions::serialize(serialize::OutputArchive& /*archive*/) const {
  throw Error(
      "void serialize(torch::serialize::OutputArchive& archive) has not been implemented for "
      "torch::optim::OptimizerOptions. You must override it in your subclass of "
      "torch::optim::OptimizerCloneableOptions<YourOptimizerOptions>.");
}

double OptimizerOptions::get_lr() const {
  throw Error(
      "double get_lr() has not been overridden and implemented in subclass of torch::optim::OptimizerOptions, "
      "you must override it in your subclass of torch::optim::OptimizerOptions.");
}

void OptimizerOptions::set_lr(const double /*lr*/) {
  throw Error(
      "double set_lr() has not been overridden and implemented in subclass of torch::optim::OptimizerOptions, "
      "you must override it in your subclass of torch::optim::OptimizerOptions.");
}

OptimizerOptions& OptimizerParamGroup::options() {
  TT_CHECK(has_options(), "params group has no options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  TT_CHECK(has_options(), "params group has no options");
  return *options_;
}

std::string param_state_key(const Tensor& param) {
  std::ostringstream key;
  key << static_cast<const void*>(param.unsafeGetTensorImpl());
  return key.str();
}

void Optimizer::add_param_group(const OptimizerParamGroup& param_group) {
  std::set<const TensorImpl*> seen;
  for (const auto& group : param_groups_) {
    for (const auto& p : group.params()) seen.insert(p.unsafeGetTensorImpl());
  }
  for (size_t i = 0; i < param_group.params().size(); ++i) {
    const Tensor& param = param_group.params()[i];
    TT_CHECK(param.defined(), "add_param_group: parameter ", i,
             " of the group is an undefined tensor; pass the model's parameters (model->parameters())");
    TT_CHECK(param.is_leaf(), "can't optimize a non-leaf Tensor");
    TT_CHECK(seen.insert(param.unsafeGetTensorImpl()).second,
             "some parameters appear in more than one parameter group (or twice in one); give each tensor to one "
             "group, once");
  }
  TT_CHECK(defaults_ != nullptr, "add_param_group: the optimizer has no default options");
  OptimizerParamGroup group(param_group.params());
  group.set_options(param_group.has_options() ? param_group.options().clone() : defaults_->clone());
  param_groups_.emplace_back(std::move(group));
}

void Optimizer::add_parameters(const std::vector<Tensor>& parameters) {
  TT_CHECK(!param_groups_.empty(), "add_parameters: the optimizer has no parameter group to add to");
  // Checked as a new group would be, then moved into the first group.
  add_param_group(OptimizerParamGroup(parameters));
  param_groups_.pop_back();
  auto& first = param_groups_.front().params();
  first.insert(first.end(), parameters.begin(), parameters.end());
}

const std::vector<Tensor>& Optimizer::parameters() const noexcept { return param_groups_.at(0).params(); }
std::vector<Tensor>& Optimizer::parameters() noexcept { return param_groups_.at(0).params(); }

size_t Optimizer::size() const noexcept {
  size_t count = 0;
  for (const auto& group : param_groups_) count += group.params().size();
  return count;
}

Tensor Optimizer::evaluate_closure(const LossClosure& closure) {
  if (closure == nullptr) return Tensor();
  AutoGradMode enable_grad(true);
  return closure();
}

std::unique_ptr<OptimizerOptions> Optimizer::make_options() const {
  throw Error(tinytorch::detail::str("load: ", kind(), " does not say which options type it loads; override make_options()"));
}

std::unique_ptr<OptimizerParamState> Optimizer::make_param_state() const {
  throw Error(tinytorch::detail::str("load: ", kind(), " does not say which state type it loads; override make_param_state()"));
}

void Optimizer::save(serialize::OutputArchive& archive) const {
  archive.write("optimizer", IValue(kind()));
  serialize::OutputArchive groups;
  groups.write("size", IValue(static_cast<int64_t>(param_groups_.size())));
  serialize::OutputArchive states;
  int64_t global_index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    serialize::OutputArchive group_archive;
    serialize::OutputArchive options;
    param_groups_[g].options().serialize(options);
    group_archive.write("options", options);
    std::vector<int64_t> indices;
    for (const auto& p : param_groups_[g].params()) {
      indices.push_back(global_index);
      const auto found = state_.find(param_state_key(p));
      if (found != state_.end()) {
        serialize::OutputArchive state;
        found->second->serialize(state);
        states.write(std::to_string(global_index), state);
      }
      ++global_index;
    }
    group_archive.write("params", IValue(indices));
    groups.write(std::to_string(g), group_archive);
  }
  archive.write("param_groups", groups);
  archive.write("state", states);
}

void Optimizer::load(serialize::InputArchive& archive) {
  IValue saved_kind;
  archive.read("optimizer", saved_kind);
  TT_CHECK(saved_kind.toStringRef() == kind(), "load: the archive holds the state of a torch::optim::",
           saved_kind.toStringRef(), ", not of a torch::optim::", kind(), "; load it into a torch::optim::",
           saved_kind.toStringRef(), " built over the same parameters");
  serialize::InputArchive groups;
  archive.read("param_groups", groups);
  IValue group_count;
  groups.read("size", group_count);
  TT_CHECK(group_count.toInt() == static_cast<int64_t>(param_groups_.size()), "load: the archive has ",
           group_count.toInt(), " parameter groups, this optimizer has ", param_groups_.size(),
           "; build the optimizer with the same parameter groups it was saved with");
  serialize::InputArchive states;
  archive.read("state", states);

  // Everything is read and checked before anything is replaced: a failed load changes nothing.
  std::vector<std::unique_ptr<OptimizerOptions>> loaded_options;
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> loaded_state;
  int64_t global_index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    serialize::InputArchive group_archive;
    groups.read(std::to_string(g), group_archive);
    IValue indices;
    group_archive.read("params", indices);
    const auto& params = param_groups_[g].params();
    TT_CHECK(indices.toIntVector().size() == params.size(), "load: parameter group ", g, " was saved with ",
             indices.toIntVector().size(), " parameters, this optimizer's has ", params.size(),
             "; build the optimizer over the same model it was saved with");
    serialize::InputArchive options_archive;
    group_archive.read("options", options_archive);
    auto options = make_options();
    options->serialize(options_archive);
    loaded_options.push_back(std::move(options));
    for (const auto& p : params) {
      serialize::InputArchive state_archive;
      if (states.try_read(std::to_string(global_index), state_archive)) {
        auto state = make_param_state();
        state->serialize(state_archive);
        // Every state tensor of these optimizers has its parameter's sizes: a mismatch means
        // another model.
        serialize::OutputArchive probe;
        state->serialize(probe);
        for (const auto& t : probe.tensors()) {
          TT_CHECK(t.sizes() == p.sizes(), "load: the saved state of parameter ", global_index, " has sizes ",
                   t.sizes(), ", the parameter has ", p.sizes(), "; build the optimizer over the same model it was saved with");
        }
        loaded_state[param_state_key(p)] = std::move(state);
      }
      ++global_index;
    }
  }
  for (size_t g = 0; g < param_groups_.size(); ++g) param_groups_[g].set_options(std::move(loaded_options[g]));
  state_ = std::move(loaded_state);
}

int64_t memory_footprint(const Optimizer& optimizer) {
  // Each state writes its tensors to an archive: that lists them without knowing the state's type.
  std::vector<Tensor> tensors;
  for (const auto& entry : optimizer.state()) {
    serialize::OutputArchive archive;
    entry.second->serialize(archive);
    for (auto& t : archive.tensors()) tensors.push_back(t);
  }
  return tinytorch::memory_footprint(tensors);
}

serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Optimizer& optimizer) {
  optimizer.save(archive);
  return archive;
}

serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer) {
  optimizer.load(archive);
  return archive;
}

}  // namespace optim
}  // namespace tinytorch
