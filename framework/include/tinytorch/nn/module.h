#pragma once
// nn::Module: the base class of every layer, LibTorch's torch::nn::Module.
//
// A module owns three named collections, each in declaration order:
//   parameters  tensors that training changes (Linear's weight and bias),
//   buffers     tensors that are state but not trained (BatchNorm's running mean),
//   children    submodules (an MLP's fc1, fc2).
// Everything else follows from them: parameters() walks the tree and collects every parameter,
// named_parameters() names them by path ("fc1.weight"), train()/eval() flip a flag in the whole tree.
//
//   struct NetImpl : nn::Module {
//     NetImpl() : fc1(register_module("fc1", nn::Linear(784, 256))), fc2(register_module("fc2", nn::Linear(256, 10))) {}
//     Tensor forward(Tensor x) { return fc2(fc1(x).relu()); }
//     nn::Linear fc1, fc2;
//   };
//   TORCH_MODULE(Net);
//
// Parameters are ordinary Tensors: the tensor stored here and the member that forward() uses are
// two handles to one storage, so an in-place update (p.add_(...)) through parameters() changes
// what the next forward() computes.
//
// requires_grad: autograd arrives in module 06. Until it registers its engine
// (tinytorch/dispatch.h), Tensor::requires_grad_(true) throws, so register_parameter only records
// the intent; once an engine is registered, register_parameter calls
// tensor.set_requires_grad(requires_grad) exactly as LibTorch does.
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace detail {
struct ReparametrizationAccess;
}  // namespace detail

class Module : public std::enable_shared_from_this<Module> {
 public:
  using ModuleApplyFunction = std::function<void(Module&)>;
  using ConstModuleApplyFunction = std::function<void(const Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction = std::function<void(const std::string&, const Module&)>;
  using ModulePointerApplyFunction = std::function<void(const std::shared_ptr<Module>&)>;
  using NamedModulePointerApplyFunction = std::function<void(const std::string&, const std::shared_ptr<Module>&)>;

  // `name` is what printing shows for a module without its own pretty_print; by default it is the
  // class name, e.g. "torch::nn::LinearImpl".
  explicit Module(std::string name);
  Module();
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  virtual ~Module() = default;

  const std::string& name() const noexcept;

  // A deep copy with fresh parameter storage. Only modules derived from nn::Cloneable can clone.
  virtual std::shared_ptr<Module> clone() const;

  // ---- What the module holds ----
  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  // Every module of the tree, depth first, this one first when include_self.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(const std::string& name_prefix = std::string(),
                                                                  bool include_self = true) const;
  // The direct submodules only.
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  // Calls fn on this module and on every module below it.
  void apply(const ModuleApplyFunction& fn);
  void apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix = std::string());
  void apply(const ConstModuleApplyFunction& fn) const {
    fn(*this);
    for (const auto& child : children_) std::as_const(*child.value()).apply(fn);
  }
  void apply(const ConstNamedModuleApplyFunction& fn, const std::string& name_prefix = std::string()) const {
    fn(name_prefix, *this);
    for (const auto& child : children_) {
      std::as_const(*child.value()).apply(fn, name_prefix.empty() ? child.key() : name_prefix + "." + child.key());
    }
  }
  // The pointer forms need this module to be owned by a shared_ptr (made by a holder or make_shared).
  void apply(const ModulePointerApplyFunction& fn) const {
    fn(shared_from_this_checked());
    for (const auto& child : children_) std::as_const(*child.value()).apply(fn);
  }
  void apply(const NamedModulePointerApplyFunction& fn, const std::string& name_prefix = std::string()) const {
    fn(name_prefix, shared_from_this_checked());
    for (const auto& child : children_) {
      std::as_const(*child.value()).apply(fn, name_prefix.empty() ? child.key() : name_prefix + "." + child.key());
    }
  }

  // Clears the gradient of every parameter, recursively. set_to_none drops the gradient tensor (the
  // next backward allocates a new one); false zeros it in place. The default is LibTorch 2.x's
  // (true); LibTorch 1.13's Module::zero_grad defaulted to false.
  virtual void zero_grad(bool set_to_none = true);

  // ---- Device and dtype (src/03_layers/module_to.cpp) ----
  // Converts every parameter and buffer in place (the tensors keep their identity, so optimizers
  // built earlier still hold them). CPU-only: a CUDA device fails as a CPU-only LibTorch does.
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);

  // ---- Training mode (Dropout and BatchNorm behave differently in eval) ----
  virtual void train(bool on = true);
  void eval() { train(false); }
  virtual bool is_training() const noexcept { return is_training_; }

  // Printing: operator<< prints pretty_print() and then the children, indented.
  virtual void pretty_print(std::ostream& stream) const;

  // ---- Registration (call these in the constructor, or in reset()) ----
  // Stores `tensor` under `name` and returns a reference to the stored handle. An undefined tensor
  // registers an absent parameter (Linear without bias): it is skipped by parameters().
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);

  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }
  // Swaps an already registered submodule for another.
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name, std::shared_ptr<ModuleType> module);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name, ModuleHolder<ModuleType> module_holder) {
    return replace_module(name, module_holder.ptr());
  }
  // Removes a registered submodule.
  void unregister_module(const std::string& name);

  // ---- Forward pre-hooks (Python's, which LibTorch's C++ Module lacks) ----
  // A hook runs just before forward() when the module is called through its holder (fc(x)) or a
  // container (Sequential, AnyModule), and not on a direct fc->forward(x): Python runs them in
  // __call__, not in forward(). Keyed, so that its owner can replace or remove it: pruning keeps
  // `weight = weight_orig * weight_mask` current with the hook "prune.weight".
  using ForwardPreHook = std::function<void(Module&)>;
  void set_forward_pre_hook(const std::string& key, ForwardPreHook hook);
  void remove_forward_pre_hook(const std::string& key);
  bool has_forward_pre_hook(const std::string& key) const { return forward_pre_hooks_.contains(key); }
  void run_forward_pre_hooks() {
    for (auto& hook : forward_pre_hooks_) hook.value()(*this);
  }

  // The module as a subclass, or nullptr: `if (auto* linear = m.as<nn::Linear>()) ...`.
  template <typename ModuleType>
  typename ModuleType::ContainedType* as() noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType>
  const typename ModuleType::ContainedType* as() const noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType, typename = std::enable_if_t<!detail::is_module_holder<ModuleType>::value>>
  ModuleType* as() noexcept {
    return dynamic_cast<ModuleType*>(this);
  }
  template <typename ModuleType, typename = std::enable_if_t<!detail::is_module_holder<ModuleType>::value>>
  const ModuleType* as() const noexcept {
    return dynamic_cast<const ModuleType*>(this);
  }

 protected:
  // The parameters of this module only (not of its children), in registration order.
  OrderedDict<std::string, Tensor> parameters_{"Parameter"};

 private:
  template <typename Derived>
  friend class Cloneable;
  // torch::nn::utils::prune moves a parameter to NAME_orig and adds the buffer NAME_mask (prune.cpp).
  friend struct detail::ReparametrizationAccess;

  void pretty_print_recursive(std::ostream& stream, const std::string& indentation) const;
  // shared_from_this(), with LibTorch's error for a module not owned by a shared_ptr.
  std::shared_ptr<Module> shared_from_this_checked() const {
    std::shared_ptr<const Module> self = weak_from_this().lock();
    TT_CHECK(self != nullptr,
             "It looks like you attempted to retrieve your top-level module as a shared_ptr, but it is not stored "
             "in a shared_ptr. Use std::make_shared<", name(), "> instead of creating your module on the stack, or "
             "alternatively do not try to access your top-level module at all by passing /*include_self=*/false to "
             "modules() or named_modules()");
    return std::const_pointer_cast<Module>(self);
  }
  friend std::ostream& operator<<(std::ostream& stream, const Module& module);

  OrderedDict<std::string, Tensor> buffers_{"Buffer"};
  OrderedDict<std::string, std::shared_ptr<Module>> children_{"Submodule"};
  // requires_grad as asked for in register_parameter, kept until autograd (module 06) can apply it.
  std::unordered_map<std::string, bool> parameter_requires_grad_;
  OrderedDict<std::string, ForwardPreHook> forward_pre_hooks_{"Forward pre-hook"};
  mutable std::string name_;  // computed from the dynamic type on first use when not given
  bool is_training_ = true;
};

// Prints the module tree as LibTorch does:
//   torch::nn::Sequential(
//     (0): torch::nn::Linear(in_features=784, out_features=256, bias=true)
//     (1): torch::nn::Dropout(p=0.5, inplace=false)
//   )
std::ostream& operator<<(std::ostream& stream, const Module& module);

namespace detail {
void check_submodule_name(const std::string& name);
// "tinytorch::nn::LinearImpl" -> "torch::nn::LinearImpl": the class name as users spell it.
std::string demangled_type_name(const std::type_info& type);
}  // namespace detail

template <typename ModuleType>
std::shared_ptr<ModuleType> Module::register_module(std::string name, std::shared_ptr<ModuleType> module) {
  detail::check_submodule_name(name);
  TT_CHECK(module != nullptr, "Submodule '", name, "' is empty: register a constructed module");
  children_.insert(std::move(name), module);
  return module;
}

template <typename ModuleType>
std::shared_ptr<ModuleType> Module::replace_module(const std::string& name, std::shared_ptr<ModuleType> module) {
  TT_CHECK(module != nullptr, "Submodule '", name, "' is empty: register a constructed module");
  children_[name] = module;  // throws "Submodule 'name' is not defined" for an unknown name
  return module;
}

}  // namespace nn
}  // namespace tinytorch
