#pragma once
// nn::NamedAnyModule: a name and a module, what Sequential's named constructor takes
// (LibTorch's torch::nn::NamedAnyModule):
//
//   nn::Sequential net({{"fc1", nn::Linear(4, 8)}, {"relu", nn::ReLU()}, {"fc2", nn::Linear(8, 2)}});
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/container/any.h"
#include "tinytorch/nn/pimpl.h"

namespace tinytorch {
namespace nn {

class NamedAnyModule {
 public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module_ptr)
      : NamedAnyModule(std::move(name), AnyModule(std::move(module_ptr))) {}
  template <typename M, typename = std::enable_if_t<std::is_base_of<Module, std::decay_t<M>>::value>>
  NamedAnyModule(std::string name, M&& module)
      : NamedAnyModule(std::move(name), std::make_shared<std::decay_t<M>>(std::forward<M>(module))) {}
  template <typename M>
  NamedAnyModule(std::string name, const ModuleHolder<M>& module_holder)
      : NamedAnyModule(std::move(name), module_holder.ptr()) {}
  NamedAnyModule(std::string name, AnyModule any_module) : name_(std::move(name)), module_(std::move(any_module)) {}

  const std::string& name() const noexcept { return name_; }
  AnyModule& module() noexcept { return module_; }
  const AnyModule& module() const noexcept { return module_; }

 private:
  std::string name_;
  AnyModule module_;
};

}  // namespace nn
}  // namespace tinytorch
