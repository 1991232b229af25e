#pragma once
// nn::Sequential: a chain of modules, each fed the previous one's output (LibTorch's
// torch::nn::Sequential, for modules whose forward takes and returns one Tensor).
//
//   nn::Sequential mlp(nn::Flatten(), nn::Linear(784, 256), nn::Dropout(0.2), nn::Linear(256, 10));
//   mlp->push_back(nn::Dropout(0.1));        // appends; children are named "0", "1", ...
//   Tensor logits = mlp(images);             // (N, 1, 28, 28) -> (N, 10)
//   mlp[1]                                   // std::shared_ptr<nn::Module> of the first Linear
//   mlp->ptr<nn::LinearImpl>(1)->weight      // typed access
#include <cstddef>
#include <functional>
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

  // Appends a module, registered as child str(size()) ("0", "1", ...) or under `name`.
  template <typename M>
  void push_back(M&& module) {
    push_back(std::to_string(size()), std::forward<M>(module));
  }
  template <typename M>
  void push_back(std::string name, M&& module) {
    append(std::move(name), to_shared(std::forward<M>(module)));
  }

  // Feeds input through every module in order.
  Tensor forward(Tensor input);

  size_t size() const noexcept { return steps_.size(); }
  bool is_empty() const noexcept { return steps_.empty(); }

  std::shared_ptr<Module> ptr(size_t index) const {
    TT_CHECK(index < size(), "Index out of range");
    return steps_[index].module;
  }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(std::is_base_of<Module, T>::value, "Can only call Sequential::ptr with an nn::Module type");
    auto typed = std::dynamic_pointer_cast<T>(ptr(index));
    TT_CHECK(typed != nullptr, "Attempted to cast module of type ", steps_[index].module->name(), " to type ",
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
  // One link of the chain: the module and how to call its forward.
  struct Step {
    std::shared_ptr<Module> module;
    std::function<Tensor(Module&, Tensor)> forward;
  };

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
    steps_.push_back(Step{module, [](Module& m, Tensor x) -> Tensor { return static_cast<Impl&>(m).forward(std::move(x)); }});
  }

  std::vector<Step> steps_;
};

TORCH_MODULE(Sequential);

}  // namespace nn
}  // namespace tinytorch
