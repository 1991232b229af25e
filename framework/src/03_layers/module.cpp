// nn::Module: registration, tree walks, training mode and printing (given code).
#include "tinytorch/nn/module.h"

#include <cxxabi.h>

#include <cstdlib>
#include <ostream>
#include <typeinfo>

#include "tinytorch/dispatch.h"

namespace tinytorch {
namespace nn {
namespace {

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

void check_tensor_name(const std::string& name, const char* what) {
  TT_CHECK(!name.empty(), what, " name must not be empty");
  TT_CHECK(name.find('.') == std::string::npos, what, " name must not contain a dot (got '", name, "')");
}

}  // namespace

namespace detail {
void check_submodule_name(const std::string& name) { check_tensor_name(name, "Submodule"); }

// Our users write torch::, as in LibTorch, so that is how class names are shown.
std::string demangled_type_name(const std::type_info& type) {
  int status = 0;
  char* raw = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string name = (status == 0 && raw != nullptr) ? raw : type.name();
  std::free(raw);
  const std::string ours = "tinytorch::";
  if (name.compare(0, ours.size(), ours) == 0) name = "torch::" + name.substr(ours.size());
  return name;
}
}  // namespace detail

Module::Module(std::string name) : name_(std::move(name)) {}
Module::Module() = default;

const std::string& Module::name() const noexcept {
  if (name_.empty()) name_ = detail::demangled_type_name(typeid(*this));
  return name_;
}

std::shared_ptr<Module> Module::clone() const {
  throw Error(::tinytorch::detail::str("clone() has not been implemented for ", name(),
                          ". Subclass torch::nn::Cloneable<", name(),
                          "> instead of torch::nn::Module to inherit the ability to clone."));
}

// ---- Registration ----

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_tensor_name(name, "Parameter");
  // Without an engine, requires_grad_(true) throws (autograd is module 06): remember the intent.
  if (tensor.defined() && autograd_layer() != nullptr) tensor.set_requires_grad(requires_grad);
  parameter_requires_grad_[name] = requires_grad;
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  check_tensor_name(name, "Buffer");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::unregister_module(const std::string& name) {
  TT_CHECK(children_.contains(name), "No Module with name `", name, "` is registered");
  children_.erase(name);
}

void Module::set_forward_pre_hook(const std::string& key, ForwardPreHook hook) {
  TT_CHECK(hook != nullptr, "Forward pre-hook '", key, "' is empty: pass a callable");
  if (ForwardPreHook* existing = forward_pre_hooks_.find(key)) {
    *existing = std::move(hook);
  } else {
    forward_pre_hooks_.insert(key, std::move(hook));
  }
}

void Module::remove_forward_pre_hook(const std::string& key) {
  TT_CHECK(forward_pre_hooks_.contains(key), "No forward pre-hook '", key, "' is set on ", name());
  forward_pre_hooks_.erase(key);
}

// ---- Tree walks ----

void Module::apply(const ModuleApplyFunction& fn) {
  fn(*this);
  for (auto& child : children_) child.value()->apply(fn);
}

void Module::apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix) {
  fn(name_prefix, *this);
  for (auto& child : children_) child.value()->apply(fn, join_name(name_prefix, child.key()));
}

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  for (const auto& parameter : parameters_) {
    if (parameter.value().defined()) result.insert(parameter.key(), parameter.value());
  }
  if (recurse) {
    for (const auto& child : children_) {
      for (const auto& parameter : child.value()->named_parameters(true)) {
        result.insert(join_name(child.key(), parameter.key()), parameter.value());
      }
    }
  }
  return result;
}

std::vector<Tensor> Module::parameters(bool recurse) const { return named_parameters(recurse).values(); }

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  for (const auto& buffer : buffers_) {
    if (buffer.value().defined()) result.insert(buffer.key(), buffer.value());
  }
  if (recurse) {
    for (const auto& child : children_) {
      for (const auto& buffer : child.value()->named_buffers(true)) {
        result.insert(join_name(child.key(), buffer.key()), buffer.value());
      }
    }
  }
  return result;
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(const std::string& name_prefix,
                                                                        bool include_self) const {
  OrderedDict<std::string, std::shared_ptr<Module>> result;
  if (include_self) {
    // A module can hand out a shared_ptr to itself only if a shared_ptr owns it.
    std::shared_ptr<const Module> self = weak_from_this().lock();
    TT_CHECK(self != nullptr,
             "It looks like you attempted to retrieve your top-level module as a shared_ptr, but it is not "
             "stored in a shared_ptr. Use std::make_shared<", name(),
             "> instead of creating your module on the stack, or alternatively do not try to access your "
             "top-level module at all by passing /*include_self=*/false to modules() or named_modules()");
    result.insert(name_prefix, std::const_pointer_cast<Module>(self));
  }
  for (const auto& child : children_) {
    const std::string child_name = join_name(name_prefix, child.key());
    for (const auto& item : child.value()->named_modules(child_name, true)) result.insert(item.key(), item.value());
  }
  return result;
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) const {
  return named_modules(std::string(), include_self).values();
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_children() const { return children_; }

// ---- Training mode ----

void Module::train(bool on) {
  for (auto& child : children_) child.value()->train(on);
  is_training_ = on;
}

void Module::zero_grad(bool set_to_none) {
  if (autograd_layer() == nullptr) return;  // before module 06 no tensor has a gradient
  for (auto& child : children_) child.value()->zero_grad(set_to_none);
  for (auto& parameter : parameters_) {
    if (!parameter.value().defined() || !parameter.value().grad().defined()) continue;
    Tensor& grad = parameter.value().mutable_grad();
    if (set_to_none) {
      grad = Tensor();
    } else {
      NoGradGuard no_grad;
      grad.zero_();
    }
  }
}

// ---- Printing ----

void Module::pretty_print(std::ostream& stream) const { stream << name(); }

void Module::pretty_print_recursive(std::ostream& stream, const std::string& indentation) const {
  pretty_print(stream);
  if (children_.is_empty()) return;
  stream << "(\n";
  const std::string next_indentation = indentation + "  ";
  for (const auto& child : children_) {
    stream << next_indentation << "(" << child.key() << "): ";
    child.value()->pretty_print_recursive(stream, next_indentation);
    stream << '\n';
  }
  stream << indentation << ")";
}

std::ostream& operator<<(std::ostream& stream, const Module& module) {
  module.pretty_print_recursive(stream, "");
  return stream;
}

}  // namespace nn
}  // namespace tinytorch
