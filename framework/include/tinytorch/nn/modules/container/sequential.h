#pragma once
// nn::Sequential: a chain of modules, each fed the previous one's output (LibTorch's
// torch::nn::Sequential, for modules whose forward takes and returns one Tensor).
//
//   nn::Sequential mlp(nn::Flatten(), nn::Linear(784, 256), nn::Dropout(0.2), nn::Linear(256, 10));
//   mlp->push_back(nn::Dropout(0.1));        // appends; children are named "0", "1", ...
//   Tensor logits = mlp(images);             // (N, 1, 28, 28) -> (N, 10)
//   mlp[1]                                   // std::shared_ptr<nn::Module> of the first Linear
//   mlp->ptr<nn::LinearImpl>(1)->weight      // typed access
//   nn::Sequential named({{"fc1", nn::Linear(4, 8)}, {"relu", nn::Functional(torch::relu)}});  // named children
//
// Each step is kept as an nn::AnyModule (any.h), as LibTorch does.
#include <cstddef>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/container/any.h"
#include "tinytorch/nn/modules/container/named_any.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  SequentialImpl() = default;

  // Sequential(nn::Linear(2, 3), nn::Dropout(0.5), ...): holders, shared_ptrs or module values.
  template <typename First, typename... Rest,
            typename = std::enable_if_t<!std::is_base_of<SequentialImpl, std::decay_t<First>>::value>>
  explicit SequentialImpl(First&& first, Rest&&... rest) {
    push_back(std::forward<First>(first));
    (push_back(std::forward<Rest>(rest)), ...);
  }

  // Sequential({{"fc1", nn::Linear(4, 8)}, ...}) and from an OrderedDict: children named by the caller.
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) {
    for (const NamedAnyModule& named : named_modules) push_back(named.name(), named.module());
  }
  explicit SequentialImpl(OrderedDict<std::string, AnyModule>&& ordered_dict) {
    for (auto& item : ordered_dict) push_back(item.key(), std::move(item.value()));
  }

  // Appends a module, registered as child str(size()) ("0", "1", ...) or under `name`.
  template <typename M>
  void push_back(M&& module) {
    push_back(std::to_string(size()), std::forward<M>(module));
  }
  template <typename M>
  void push_back(std::string name, M&& module) {
    if constexpr (std::is_same<std::decay_t<M>, AnyModule>::value) {
      register_module(name, module.ptr());
      steps_.push_back(std::forward<M>(module));  // its forward is checked when called
    } else {
      append(std::move(name), to_shared(std::forward<M>(module)));
    }
  }
  // Appends every module of another container (a Sequential, a vector of holders...).
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;
  Iterator begin() { return steps_.begin(); }
  ConstIterator begin() const { return steps_.begin(); }
  Iterator end() { return steps_.end(); }
  ConstIterator end() const { return steps_.end(); }

  // Feeds input through every module in order.
  Tensor forward(Tensor input);

  size_t size() const noexcept { return steps_.size(); }
  bool is_empty() const noexcept { return steps_.empty(); }

  std::shared_ptr<Module> ptr(size_t index) const {
    TT_CHECK(index < size(), "Index out of range");
    return steps_[index].ptr();
  }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(std::is_base_of<Module, T>::value, "Can only call Sequential::ptr with an nn::Module type");
    auto typed = std::dynamic_pointer_cast<T>(ptr(index));
    TT_CHECK(typed != nullptr, "Attempted to cast module of type ", steps_[index].ptr()->name(), " to type ",
             detail::demangled_type_name(typeid(T)));
    return typed;
  }
  template <typename T>
  T& at(size_t index) {
    return *ptr<T>(index);
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }

  // Copies every module (fresh storage), keeping the order and names.
  std::shared_ptr<Module> clone() const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

 private:
  template <typename M>
  static auto to_shared(M&& module) {
    using Decayed = std::decay_t<M>;
    if constexpr (detail::is_module_holder<Decayed>::value) {
      return module.ptr();
    } else if constexpr (std::is_convertible<Decayed, std::shared_ptr<Module>>::value) {
      return module;
    } else {
      static_assert(std::is_base_of<Module, Decayed>::value,
                    "Sequential takes modules: holders (nn::Linear(2, 3)), std::shared_ptr<SomeImpl> or SomeImpl values");
      return std::make_shared<Decayed>(std::forward<M>(module));
    }
  }

  template <typename Impl>
  void append(std::string name, std::shared_ptr<Impl> module) {
    static_assert(std::is_convertible<decltype(std::declval<Impl&>().forward(std::declval<Tensor>())), Tensor>::value,
                  "Sequential chains modules whose forward takes one Tensor and returns a Tensor");
    register_module(name, module);
    steps_.emplace_back(std::move(module));
  }

  std::vector<AnyModule> steps_;
};

// The holder, with the constructor that makes `Sequential({{"fc1", ...}, ...})` work (a braced
// list cannot reach SequentialImpl through ModuleHolder's forwarding constructor).
class Sequential : public ModuleHolder<SequentialImpl> {
 public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  using Impl = SequentialImpl;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

}  // namespace nn
}  // namespace tinytorch
