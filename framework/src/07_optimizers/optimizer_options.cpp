// Options and per-parameter state of SGD, Adam, AdamW and RMSprop: constructors, lr access for
// schedulers, equality, and how each writes itself to an archive. Given code.
// State tensors that are undefined (no momentum buffer yet, no amsgrad maximum) are not written and
// stay undefined when read, as in LibTorch.
#include "tinytorch/functions.h"
#include "tinytorch/optim/adam.h"
#include "tinytorch/optim/adamw.h"
#include "tinytorch/optim/rmsprop.h"
#include "tinytorch/optim/sgd.h"
#include "tinytorch/serialize/archive.h"
#include "07_optimizers/archive_fields.h"

namespace tinytorch {
namespace optim {

namespace detail {
void write_optional(serialize::OutputArchive& archive, const char* key, const Tensor& tensor) {
  if (tensor.defined()) archive.write(key, tensor, /*is_buffer=*/true);
}

Tensor read_optional(serialize::InputArchive& archive, const char* key) {
  Tensor tensor;
  archive.try_read(key, tensor, /*is_buffer=*/true);
  return tensor;
}

double read_double(serialize::InputArchive& archive, const char* key) {
  IValue value;
  archive.read(key, value);
  return value.toDouble();
}

bool read_bool(serialize::InputArchive& archive, const char* key) {
  IValue value;
  archive.read(key, value);
  return value.toBool();
}

int64_t read_int(serialize::InputArchive& archive, const char* key) {
  IValue value;
  archive.read(key, value);
  return value.toInt();
}
}  // namespace detail

namespace {
using detail::write_optional;
using detail::read_optional;
using detail::read_double;
using detail::read_bool;
using detail::read_int;






std::tuple<double, double> read_betas(serialize::InputArchive& archive) {
  IValue value;
  archive.read("betas", value);
  const auto betas = value.toDoubleVector();
  TT_CHECK(betas.size() == 2, "load: 'betas' holds ", betas.size(), " values instead of 2");
  return std::make_tuple(betas[0], betas[1]);
}

// Undefined equals undefined; defined tensors compare by sizes and values.
bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.defined() != b.defined()) return false;
  return !a.defined() || a.equal(b);
}

}  // namespace

// ---- SGD ----
SGDOptions::SGDOptions(double lr) : lr_(lr) {}
double SGDOptions::get_lr() const { return lr(); }
void SGDOptions::set_lr(const double lr) { this->lr(lr); }

bool operator==(const SGDOptions& lhs, const SGDOptions& rhs) {
  return lhs.lr() == rhs.lr() && lhs.momentum() == rhs.momentum() && lhs.dampening() == rhs.dampening() &&
         lhs.weight_decay() == rhs.weight_decay() && lhs.nesterov() == rhs.nesterov();
}

void SGDOptions::serialize(serialize::OutputArchive& archive) const {
  archive.write("lr", IValue(lr()));
  archive.write("momentum", IValue(momentum()));
  archive.write("dampening", IValue(dampening()));
  archive.write("weight_decay", IValue(weight_decay()));
  archive.write("nesterov", IValue(nesterov()));
}

void SGDOptions::serialize(serialize::InputArchive& archive) {
  lr(read_double(archive, "lr"));
  momentum(read_double(archive, "momentum"));
  dampening(read_double(archive, "dampening"));
  weight_decay(read_double(archive, "weight_decay"));
  nesterov(read_bool(archive, "nesterov"));
}

bool operator==(const SGDParamState& lhs, const SGDParamState& rhs) {
  return same_tensor(lhs.momentum_buffer(), rhs.momentum_buffer());
}

void SGDParamState::serialize(serialize::OutputArchive& archive) const {
  write_optional(archive, "momentum_buffer", momentum_buffer());
}

void SGDParamState::serialize(serialize::InputArchive& archive) {
  momentum_buffer(read_optional(archive, "momentum_buffer"));
}

// ---- Adam and AdamW: the same fields ----
namespace {
template <typename Options>
void write_adam_options(const Options& options, serialize::OutputArchive& archive) {
  archive.write("lr", IValue(options.lr()));
  archive.write("betas", IValue(options.betas()));
  archive.write("eps", IValue(options.eps()));
  archive.write("weight_decay", IValue(options.weight_decay()));
  archive.write("amsgrad", IValue(options.amsgrad()));
}

template <typename Options>
void read_adam_options(Options& options, serialize::InputArchive& archive) {
  options.lr(read_double(archive, "lr"));
  options.betas(read_betas(archive));
  options.eps(read_double(archive, "eps"));
  options.weight_decay(read_double(archive, "weight_decay"));
  options.amsgrad(read_bool(archive, "amsgrad"));
}

template <typename Options>
bool same_adam_options(const Options& lhs, const Options& rhs) {
  return lhs.lr() == rhs.lr() && lhs.betas() == rhs.betas() && lhs.eps() == rhs.eps() &&
         lhs.weight_decay() == rhs.weight_decay() && lhs.amsgrad() == rhs.amsgrad();
}

template <typename State>
void write_adam_state(const State& state, serialize::OutputArchive& archive) {
  archive.write("step", IValue(state.step()));
  write_optional(archive, "exp_avg", state.exp_avg());
  write_optional(archive, "exp_avg_sq", state.exp_avg_sq());
  write_optional(archive, "max_exp_avg_sq", state.max_exp_avg_sq());
}

template <typename State>
void read_adam_state(State& state, serialize::InputArchive& archive) {
  state.step(read_int(archive, "step"));
  state.exp_avg(read_optional(archive, "exp_avg"));
  state.exp_avg_sq(read_optional(archive, "exp_avg_sq"));
  state.max_exp_avg_sq(read_optional(archive, "max_exp_avg_sq"));
}

template <typename State>
bool same_adam_state(const State& lhs, const State& rhs) {
  return lhs.step() == rhs.step() && same_tensor(lhs.exp_avg(), rhs.exp_avg()) &&
         same_tensor(lhs.exp_avg_sq(), rhs.exp_avg_sq()) && same_tensor(lhs.max_exp_avg_sq(), rhs.max_exp_avg_sq());
}
}  // namespace

AdamOptions::AdamOptions(double lr) : lr_(lr) {}
double AdamOptions::get_lr() const { return lr(); }
void AdamOptions::set_lr(const double lr) { this->lr(lr); }
bool operator==(const AdamOptions& lhs, const AdamOptions& rhs) { return same_adam_options(lhs, rhs); }
void AdamOptions::serialize(serialize::OutputArchive& archive) const { write_adam_options(*this, archive); }
void AdamOptions::serialize(serialize::InputArchive& archive) { read_adam_options(*this, archive); }
bool operator==(const AdamParamState& lhs, const AdamParamState& rhs) { return same_adam_state(lhs, rhs); }
void AdamParamState::serialize(serialize::OutputArchive& archive) const { write_adam_state(*this, archive); }
void AdamParamState::serialize(serialize::InputArchive& archive) { read_adam_state(*this, archive); }

AdamWOptions::AdamWOptions(double lr) : lr_(lr) {}
double AdamWOptions::get_lr() const { return lr(); }
void AdamWOptions::set_lr(const double lr) { this->lr(lr); }
bool operator==(const AdamWOptions& lhs, const AdamWOptions& rhs) { return same_adam_options(lhs, rhs); }
void AdamWOptions::serialize(serialize::OutputArchive& archive) const { write_adam_options(*this, archive); }
void AdamWOptions::serialize(serialize::InputArchive& archive) { read_adam_options(*this, archive); }
bool operator==(const AdamWParamState& lhs, const AdamWParamState& rhs) { return same_adam_state(lhs, rhs); }
void AdamWParamState::serialize(serialize::OutputArchive& archive) const { write_adam_state(*this, archive); }
void AdamWParamState::serialize(serialize::InputArchive& archive) { read_adam_state(*this, archive); }

// ---- RMSprop ----
RMSpropOptions::RMSpropOptions(double lr) : lr_(lr) {}
double RMSpropOptions::get_lr() const { return lr(); }
void RMSpropOptions::set_lr(const double lr) { this->lr(lr); }

bool operator==(const RMSpropOptions& lhs, const RMSpropOptions& rhs) {
  return lhs.lr() == rhs.lr() && lhs.alpha() == rhs.alpha() && lhs.eps() == rhs.eps() &&
         lhs.weight_decay() == rhs.weight_decay() && lhs.momentum() == rhs.momentum() &&
         lhs.centered() == rhs.centered();
}

void RMSpropOptions::serialize(serialize::OutputArchive& archive) const {
  archive.write("lr", IValue(lr()));
  archive.write("alpha", IValue(alpha()));
  archive.write("eps", IValue(eps()));
  archive.write("weight_decay", IValue(weight_decay()));
  archive.write("momentum", IValue(momentum()));
  archive.write("centered", IValue(centered()));
}

void RMSpropOptions::serialize(serialize::InputArchive& archive) {
  lr(read_double(archive, "lr"));
  alpha(read_double(archive, "alpha"));
  eps(read_double(archive, "eps"));
  weight_decay(read_double(archive, "weight_decay"));
  momentum(read_double(archive, "momentum"));
  centered(read_bool(archive, "centered"));
}

bool operator==(const RMSpropParamState& lhs, const RMSpropParamState& rhs) {
  return lhs.step() == rhs.step() && same_tensor(lhs.square_avg(), rhs.square_avg()) &&
         same_tensor(lhs.momentum_buffer(), rhs.momentum_buffer()) && same_tensor(lhs.grad_avg(), rhs.grad_avg());
}

void RMSpropParamState::serialize(serialize::OutputArchive& archive) const {
  archive.write("step", IValue(step()));
  write_optional(archive, "square_avg", square_avg());
  write_optional(archive, "momentum_buffer", momentum_buffer());
  write_optional(archive, "grad_avg", grad_avg());
}

void RMSpropParamState::serialize(serialize::InputArchive& archive) {
  step(read_int(archive, "step"));
  square_avg(read_optional(archive, "square_avg"));
  momentum_buffer(read_optional(archive, "momentum_buffer"));
  grad_avg(read_optional(archive, "grad_avg"));
}

}  // namespace optim
}  // namespace tinytorch
