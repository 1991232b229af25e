#pragma once
// nn::AnyModule: any module behind one type, as LibTorch's torch::nn::AnyModule. Containers keep
// modules of different classes in one list and still call their own forward(), whatever its
// argument types; the arguments are checked when forward() is called, not when it is compiled.
//
//   nn::AnyModule any(nn::Linear(3, 2));
//   Tensor y = any.forward(torch::ones({1, 3}));      // ReturnType defaults to Tensor
//   nn::AnyValue raw = any.any_forward(x);            // the result, type-erased
//   nn::Linear linear = any.get<nn::Linear>();        // back to the concrete module
//
// The argument types are read from &ModuleType::forward; a module whose forward is overloaded is
// called as forward(Tensor) -> Tensor. Arguments are passed by value into AnyValues and handed to forward as the
// decayed parameter types, so they must match exactly (an int is not an int64_t), as in LibTorch.
#include <any>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

// A value of any type, with a checked get<T>() (LibTorch's torch::nn::AnyValue).
class AnyValue {
 public:
  template <typename T, typename = std::enable_if_t<!std::is_same<std::decay_t<T>, AnyValue>::value>>
  explicit AnyValue(T&& value) : value_(std::forward<T>(value)) {}

  // A pointer to the value if it holds a T, else nullptr.
  template <typename T>
  T* try_get() {
    return std::any_cast<T>(&value_);
  }
  template <typename T>
  T& get() {
    T* value = try_get<T>();
    TT_CHECK(value != nullptr, "Attempted to cast AnyValue to ", detail::demangled_type_name(typeid(T)),
             ", but its actual type is ", detail::demangled_type_name(value_.type()));
    return *value;
  }
  const std::type_info& type_info() const noexcept { return value_.type(); }

 private:
  std::any value_;
};

namespace detail {

// The return and argument types of a forward() member function.
template <typename Method>
struct forward_signature;
template <typename Class, typename Return, typename... Arguments>
struct forward_signature<Return (Class::*)(Arguments...)> {
  using return_type = Return;
  static constexpr size_t arity = sizeof...(Arguments);
  template <typename Module, size_t... I>
  static Return call(Module& module, std::vector<AnyValue>& arguments, std::index_sequence<I...>) {
    return module.forward(arguments[I].template get<std::decay_t<Arguments>>()...);
  }
};
template <typename Class, typename Return, typename... Arguments>
struct forward_signature<Return (Class::*)(Arguments...) const> : forward_signature<Return (Class::*)(Arguments...)> {};

// &ModuleType::forward, or, when forward is overloaded (no single address), forward(Tensor) -> Tensor.
template <typename ModuleType, typename = void>
struct forward_method {
  using type = Tensor (ModuleType::*)(Tensor);
};
template <typename ModuleType>
struct forward_method<ModuleType, std::void_t<decltype(&ModuleType::forward)>> {
  using type = decltype(&ModuleType::forward);
};

// What AnyModule keeps: the module and how to call its forward with AnyValues.
struct AnyModulePlaceholder {
  virtual ~AnyModulePlaceholder() = default;
  virtual AnyValue forward(std::vector<AnyValue>&& arguments) = 0;
  virtual std::shared_ptr<Module> ptr() const = 0;
  virtual const std::type_info& type_info() const = 0;
  virtual std::unique_ptr<AnyModulePlaceholder> copy() const = 0;         // the same module
  virtual std::unique_ptr<AnyModulePlaceholder> clone_module() const = 0;  // a deep copy of it
};

template <typename ModuleType>
struct AnyModuleHolder final : AnyModulePlaceholder {
  using Signature = forward_signature<typename forward_method<ModuleType>::type>;
  static_assert(!std::is_void<typename Signature::return_type>::value,
                "AnyModule holds modules whose forward() returns a value");

  explicit AnyModuleHolder(std::shared_ptr<ModuleType> module_) : module(std::move(module_)) {}

  AnyValue forward(std::vector<AnyValue>&& arguments) override {
    TT_CHECK(arguments.size() == Signature::arity, demangled_type_name(typeid(ModuleType)), "'s forward() method expects ",
             Signature::arity, " argument(s), but received ", arguments.size(), ".");
    module->run_forward_pre_hooks();
    return AnyValue(Signature::call(*module, arguments, std::make_index_sequence<Signature::arity>()));
  }
  std::shared_ptr<Module> ptr() const override { return module; }
  const std::type_info& type_info() const override { return typeid(ModuleType); }
  std::unique_ptr<AnyModulePlaceholder> copy() const override { return std::make_unique<AnyModuleHolder>(module); }
  std::unique_ptr<AnyModulePlaceholder> clone_module() const override {
    auto copy = std::dynamic_pointer_cast<ModuleType>(module->clone());
    TT_CHECK(copy != nullptr, "clone() of ", demangled_type_name(typeid(ModuleType)), " returned another module type");
    return std::make_unique<AnyModuleHolder>(std::move(copy));
  }

  std::shared_ptr<ModuleType> module;
};

}  // namespace detail

class AnyModule {
 public:
  AnyModule() = default;  // empty: is_empty() is true
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module)
      : content_(std::make_unique<detail::AnyModuleHolder<ModuleType>>(std::move(module))) {
    static_assert(std::is_base_of<Module, ModuleType>::value, "AnyModule holds nn::Module types");
  }
  template <typename ModuleType, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<ModuleType>>::value>>
  explicit AnyModule(ModuleType&& module)
      : AnyModule(std::make_shared<std::decay_t<ModuleType>>(std::forward<ModuleType>(module))) {}
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder) : AnyModule(module_holder.ptr()) {}

  // Copies share the module (as copying a holder does); clone() copies it.
  AnyModule(const AnyModule& other) : content_(other.content_ ? other.content_->copy() : nullptr) {}
  AnyModule& operator=(const AnyModule& other) {
    if (this != &other) content_ = other.content_ ? other.content_->copy() : nullptr;
    return *this;
  }
  AnyModule(AnyModule&&) noexcept = default;
  AnyModule& operator=(AnyModule&&) noexcept = default;

  template <typename ModuleType>
  AnyModule& operator=(std::shared_ptr<ModuleType> module) {
    return *this = AnyModule(std::move(module));
  }

  // Calls the module's forward; the result stays type-erased.
  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments) {
    TT_CHECK(!is_empty(), "Cannot call forward() on an empty AnyModule");
    std::vector<AnyValue> values;
    values.reserve(sizeof...(ArgumentTypes));
    (values.emplace_back(std::decay_t<ArgumentTypes>(std::forward<ArgumentTypes>(arguments))), ...);
    return content_->forward(std::move(values));
  }
  template <typename ReturnType = Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments) {
    return any_forward(std::forward<ArgumentTypes>(arguments)...).template get<ReturnType>();
  }

  // The module as its own type: get<LinearImpl>() is a reference, get<Linear>() a holder.
  template <typename T, typename = std::enable_if_t<std::is_base_of<Module, T>::value>>
  T& get() {
    return *ptr<T>();
  }
  template <typename T, typename ContainedType = typename T::ContainedType>
  T get() const {
    return T(ptr<ContainedType>());
  }

  std::shared_ptr<Module> ptr() const {
    TT_CHECK(!is_empty(), "Cannot call ptr() on an empty AnyModule");
    return content_->ptr();
  }
  template <typename T, typename = std::enable_if_t<std::is_base_of<Module, T>::value>>
  std::shared_ptr<T> ptr() const {
    TT_CHECK(!is_empty(), "Cannot call ptr() on an empty AnyModule");
    TT_CHECK(typeid(T) == content_->type_info(), "Attempted to cast module of type ",
             detail::demangled_type_name(content_->type_info()), " to type ", detail::demangled_type_name(typeid(T)));
    return std::static_pointer_cast<T>(content_->ptr());
  }

  const std::type_info& type_info() const {
    TT_CHECK(!is_empty(), "Cannot call type_info() on an empty AnyModule");
    return content_->type_info();
  }
  bool is_empty() const noexcept { return content_ == nullptr; }

  // A deep copy: the module cloned with fresh parameters.
  AnyModule clone() const {
    AnyModule copy;
    if (content_) copy.content_ = content_->clone_module();
    return copy;
  }

 private:
  std::unique_ptr<detail::AnyModulePlaceholder> content_;
};

}  // namespace nn
}  // namespace tinytorch
