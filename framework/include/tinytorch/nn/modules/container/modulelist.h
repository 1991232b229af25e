#pragma once
// nn::ModuleList: modules kept in a list and registered as children "0", "1", ... so that their
// parameters are the list's (LibTorch's torch::nn::ModuleList). Unlike Sequential it has no
// forward(): the owner decides how to call them.
//
//   nn::ModuleList layers(nn::Linear(4, 8), nn::Linear(8, 8));
//   layers->push_back(nn::Linear(8, 2));
//   for (const auto& layer : *layers) x = layer->as<nn::Linear>()->forward(x);
//   layers->ptr<nn::LinearImpl>(2)->weight;  layers[0];  layers->at<nn::LinearImpl>(1);
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"

namespace tinytorch {
namespace nn {

class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() = default;
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules) {
    modules_.reserve(sizeof...(Modules));
    (push_back(std::forward<Modules>(modules)), ...);
  }

  // Each module cloned, in order.
  std::shared_ptr<Module> clone() const override {
    auto copy = std::make_shared<ModuleListImpl>();
    for (const auto& module : modules_) copy->push_back(module->clone());
    copy->train(is_training());
    return copy;
  }
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::ModuleList"; }

  void push_back(std::shared_ptr<Module> module) {
    modules_.push_back(std::move(module));
    register_module(std::to_string(modules_.size() - 1), modules_.back());
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M&& module) {
    push_back(std::shared_ptr<Module>(std::make_shared<std::decay_t<M>>(std::forward<M>(module))));
  }
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {
    push_back(std::shared_ptr<Module>(module_holder.ptr()));
  }
  // Appends every module of another container (a ModuleList, a vector of shared_ptrs...).
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  template <typename T>
  T& at(size_t index) {
    return *ptr<T>(index);
  }
  template <typename T>
  const T& at(size_t index) const {
    return *ptr<T>(index);
  }
  std::shared_ptr<Module> ptr(size_t index) const {
    TT_CHECK(index < size(), "Index out of range");
    return modules_[index];
  }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(std::is_base_of<Module, T>::value, "Can only call ModuleList::ptr with an nn::Module type");
    auto typed = std::dynamic_pointer_cast<T>(ptr(index));
    TT_CHECK(typed != nullptr, "Attempted to cast module of type ", modules_[index]->name(), " to type ",
             detail::demangled_type_name(typeid(T)));
    return typed;
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

  // Inserts before position `index` (index == size() appends); the children are renamed "0", "1", ...
  // in their new order.
  void insert(size_t index, std::shared_ptr<Module> module) {
    TT_CHECK(index <= size(), "Index out of range");
    if (index == size()) {
      push_back(std::move(module));
      return;
    }
    modules_.insert(modules_.begin() + static_cast<std::ptrdiff_t>(index), std::move(module));
    for (size_t i = index; i + 1 < size(); ++i) replace_module(std::to_string(i), modules_[i]);
    register_module(std::to_string(size() - 1), modules_.back());
  }
  template <typename M>
  void insert(size_t index, const ModuleHolder<M>& module_holder) {
    insert(index, std::shared_ptr<Module>(module_holder.ptr()));
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  void insert(size_t index, M&& module) {
    insert(index, std::shared_ptr<Module>(std::make_shared<std::decay_t<M>>(std::forward<M>(module))));
  }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

TORCH_MODULE(ModuleList);

}  // namespace nn
}  // namespace tinytorch
