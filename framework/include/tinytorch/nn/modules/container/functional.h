#pragma once
// nn::Functional: a function used as a module (LibTorch's torch::nn::Functional), so that a free
// function such as torch::relu can sit in a Sequential. Extra arguments are bound after the input.
//
//   nn::Sequential net(nn::Linear(4, 8), nn::Functional(torch::relu), nn::Linear(8, 2));
//   nn::Functional scaled([](torch::Tensor x) { return x * 2; });
//   nn::Functional gelu_tanh(torch::gelu, "tanh");    // gelu(x, "tanh")
#include <functional>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

class FunctionalImpl : public Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function) : function_(std::move(function)) {}

  // function(input, args...): std::bind keeps the bound arguments by value.
  template <typename SomeFunction, typename... Args, typename = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args)
      : function_(std::bind(original_function, std::placeholders::_1, std::forward<Args>(args)...)) {}

  void reset() override {}  // no parameters
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Functional()"; }

  Tensor forward(Tensor input) {
    TT_CHECK(static_cast<bool>(function_), "Functional holds no function");
    return function_(std::move(input));
  }
  Tensor operator()(Tensor input) { return forward(std::move(input)); }

 private:
  Function function_;
};

TORCH_MODULE(Functional);

}  // namespace nn
}  // namespace tinytorch
