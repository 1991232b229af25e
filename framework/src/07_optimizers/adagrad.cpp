// Adagrad: its options, state, serialization and step (given code). Adagrad divides each gradient by
// the root of the sum of all its squares so far, so a weight that has had large gradients takes
// small steps, and one that has rarely been touched keeps large ones.
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/optim/adagrad.h"
#include "tinytorch/serialize/archive.h"
#include "07_optimizers/archive_fields.h"

namespace tinytorch {
namespace optim {
namespace {
using detail::read_double;
}  // namespace

AdagradOptions::AdagradOptions(double lr) : lr_(lr) {}
double AdagradOptions::get_lr() const { return lr(); }
void AdagradOptions::set_lr(const double lr) { this->lr(lr); }

bool operator==(const AdagradOptions& lhs, const AdagradOptions& rhs) {
  return lhs.lr() == rhs.lr() && lhs.lr_decay() == rhs.lr_decay() && lhs.weight_decay() == rhs.weight_decay() &&
         lhs.initial_accumulator_value() == rhs.initial_accumulator_value() && lhs.eps() == rhs.eps();
}

void AdagradOptions::serialize(serialize::OutputArchive& archive) const {
  archive.write("lr", IValue(lr()));
  archive.write("lr_decay", IValue(lr_decay()));
  archive.write("weight_decay", IValue(weight_decay()));
  archive.write("initial_accumulator_value", IValue(initial_accumulator_value()));
  archive.write("eps", IValue(eps()));
}

void AdagradOptions::serialize(serialize::InputArchive& archive) {
  lr(read_double(archive, "lr"));
  lr_decay(read_double(archive, "lr_decay"));
  weight_decay(read_double(archive, "weight_decay"));
  initial_accumulator_value(read_double(archive, "initial_accumulator_value"));
  eps(read_double(archive, "eps"));
}

bool operator==(const AdagradParamState& lhs, const AdagradParamState& rhs) {
  return lhs.step() == rhs.step() && lhs.sum().defined() == rhs.sum().defined() &&
         (!lhs.sum().defined() || lhs.sum().equal(rhs.sum()));
}

void AdagradParamState::serialize(serialize::OutputArchive& archive) const {
  archive.write("sum", sum(), /*is_buffer=*/true);
  archive.write("step", IValue(step()));
}

void AdagradParamState::serialize(serialize::InputArchive& archive) {
  Tensor saved_sum;
  archive.read("sum", saved_sum, /*is_buffer=*/true);
  sum(saved_sum);
  IValue saved_step;
  archive.read("step", saved_step);
  step(saved_step.toInt());
}

void Adagrad::initialize_state(double initial_accumulator_value) {
  NoGradGuard no_grad;
  for (const auto& group : param_groups_) {
    for (const auto& p : group.params()) {
      auto state = std::make_unique<AdagradParamState>();
      state->step(0);
      state->sum(full_like(p, initial_accumulator_value));
      state_[param_state_key(p)] = std::move(state);
    }
  }
}

Tensor Adagrad::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& options = static_cast<const AdagradOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      Tensor grad = p.grad();
      auto found = state_.find(param_state_key(p));
      // LibTorch makes the state in the constructor only: a parameter added later has none.
      TT_CHECK(found != state_.end() && found->second != nullptr, "state found NULL for the Tensor of sizes ", p.sizes());
      auto& state = static_cast<AdagradParamState&>(*found->second);
      state.step(state.step() + 1);

      if (options.weight_decay() != 0) grad = grad.add(p, options.weight_decay());
      // The learning rate decays with the number of steps this parameter has taken.
      const double clr = options.lr() / (1 + static_cast<double>(state.step() - 1) * options.lr_decay());
      state.sum().add_(grad * grad);
      const Tensor std = state.sum().sqrt().add_(options.eps());
      p.add_(grad / std, -clr);
    }
  }
  return loss;
}

}  // namespace optim
}  // namespace tinytorch
