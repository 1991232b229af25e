#pragma once
// nn::ModuleDict: modules kept under string keys, in insertion order, and registered as children
// under those keys (LibTorch's torch::nn::ModuleDict).
//
//   std::vector<std::pair<std::string, std::shared_ptr<nn::Module>>> named = {{"digit", nn::Linear(8, 10).ptr()}};
//   nn::ModuleDict heads(named);
//   heads["digit"];  heads->at<nn::LinearImpl>("parity");  heads->keys();  heads->pop("parity");
//   for (const auto& item : *heads) std::cout << item.key();
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"

namespace tinytorch {
namespace nn {

class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator = OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;

  ModuleDictImpl() = default;
  explicit ModuleDictImpl(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
    update(modules);
  }
  explicit ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules) { update(modules); }

  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const { return modules_.pairs(); }
  std::vector<std::string> keys() const { return modules_.keys(); }
  std::vector<std::shared_ptr<Module>> values() const { return modules_.values(); }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  size_t size() const noexcept { return modules_.size(); }
  bool empty() const noexcept { return modules_.is_empty(); }
  bool contains(const std::string& key) const noexcept { return modules_.contains(key); }
  // Forgets the modules but, as LibTorch (and PyTorch) do, keeps them registered as children.
  void clear() { modules_.clear(); }

  std::shared_ptr<Module> clone() const override {
    auto copy = std::make_shared<ModuleDictImpl>();
    for (const auto& item : modules_) copy->insert(item.key(), item.value()->clone());
    copy->train(is_training());
    return copy;
  }
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::ModuleDict"; }

  // Throws "Key 'name' is not defined" for an unknown key.
  std::shared_ptr<Module> operator[](const std::string& key) const { return modules_[key]; }
  template <typename T>
  T& at(const std::string& key) {
    static_assert(std::is_base_of<Module, T>::value, "Can only call ModuleDict::at with an nn::Module type");
    return *cast<T>(key);
  }
  template <typename T>
  const T& at(const std::string& key) const {
    static_assert(std::is_base_of<Module, T>::value, "Can only call ModuleDict::at with an nn::Module type");
    return *cast<T>(key);
  }

  // Removes the module under `key` and returns it; it stays registered as a child, as in LibTorch.
  std::shared_ptr<Module> pop(const std::string& key) {
    auto module = modules_[key];
    modules_.erase(key);
    return module;
  }

  // Adds each (key, module), replacing the module of a key already present.
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
    for (const auto& item : modules) insert(item.first, item.second);
  }
  template <typename Container>
  void update(const Container& container) {
    for (const auto& item : container) insert(item.key(), item.value());
  }

 private:
  template <typename T>
  std::shared_ptr<T> cast(const std::string& key) const {
    const std::shared_ptr<Module>& module = modules_[key];
    auto typed = std::dynamic_pointer_cast<T>(module);
    TT_CHECK(typed != nullptr, "Attempted to cast module of type ", module->name(), " to type ",
             detail::demangled_type_name(typeid(T)));
    return typed;
  }

  void insert(const std::string& key, std::shared_ptr<Module> module) {
    if (contains(key)) {
      modules_[key] = module;
      replace_module(key, std::move(module));
    } else {
      modules_.insert(key, module);
      register_module(key, std::move(module));
    }
  }

  OrderedDict<std::string, std::shared_ptr<Module>> modules_{"Key"};
};

TORCH_MODULE(ModuleDict);

}  // namespace nn
}  // namespace tinytorch
