#pragma once
// nn::Cloneable<Derived>: LibTorch's base for modules that can be deep-copied with clone().
//
// A module derives from Cloneable<itself> and puts its parameter creation in reset(); clone() then
// copies the C++ object, calls reset() on the copy to give it parameters and submodules of its own,
// and copies the values of this module's parameters and buffers into them. The copy shares no storage.
//
//   class LinearImpl : public nn::Cloneable<LinearImpl> { public: void reset() override; ... };
#include <memory>

#include "tinytorch/dispatch.h"
#include "tinytorch/nn/module.h"

namespace tinytorch {
namespace nn {
namespace detail {
// target takes source's values and dtype, in place (every handle to target sees them); its
// autograd state stays. Defined in src/03_layers/module_to.cpp.
void assign_data(const Tensor& target, const Tensor& source);
}  // namespace detail

template <typename Derived>
class Cloneable : public Module {
 public:
  using Module::Module;

  // (Re)creates every parameter, buffer and submodule. Called by constructors and by clone().
  virtual void reset() = 0;

  std::shared_ptr<Module> clone() const override {
    NoGradGuard no_grad;
    const auto& self = static_cast<const Derived&>(*this);
    auto copy = std::make_shared<Derived>(self);
    copy->parameters_.clear();
    copy->buffers_.clear();
    copy->children_.clear();
    copy->parameter_requires_grad_.clear();
    copy->reset();
    // reset() built fresh parameters (also in the submodules it registered): copy the values over,
    // matching them by their full names ("fc1.weight").
    copy_values(named_parameters(), copy->named_parameters(), "parameters");
    copy_values(named_buffers(), copy->named_buffers(), "buffers");
    copy->train(is_training());
    return copy;
  }

 private:
  static void copy_values(const OrderedDict<std::string, Tensor>& from, OrderedDict<std::string, Tensor> to,
                          const char* what) {
    TT_CHECK(from.size() == to.size(), "The cloned module does not have the same number of ", what,
             " as the original module (", to.size(), " vs ", from.size(), "): does reset() register all of them?");
    // A parameter converted with Module::to keeps its dtype in the copy, as in LibTorch.
    for (const auto& item : from) detail::assign_data(to[item.key()], item.value());
  }
};

}  // namespace nn
}  // namespace tinytorch
