#pragma once
// nn::ParameterList: a list of tensors registered as the module's parameters under "0", "1", ...
// (LibTorch's torch::nn::ParameterList), for a module whose number of weights is known only at run
// time. Each keeps the requires_grad it had when appended.
//
//   nn::ParameterList weights(torch::randn({3, 4}, torch::requires_grad()), torch::zeros({4}));
//   weights->append(torch::ones({2}));   weights[0];   weights->size();
//   for (const auto& item : *weights) std::cout << item.key() << ": " << item.value().sizes() << "\n";
#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"

namespace tinytorch {
namespace nn {

class ParameterListImpl : public Cloneable<ParameterListImpl> {
 public:
  using Iterator = std::vector<OrderedDict<std::string, Tensor>::Item>::iterator;
  using ConstIterator = std::vector<OrderedDict<std::string, Tensor>::Item>::const_iterator;

  ParameterListImpl() = default;

  template <typename... Tensors>
  explicit ParameterListImpl(Tensors&&... params) {
    (append(std::forward<Tensors>(params)), ...);
  }

  // Nothing to rebuild: the parameters are the ones appended (so, as in LibTorch, clone() fails).
  void reset() override {}

  // torch::nn::ParameterList(
  // (0): Parameter containing: [Float of size [3, 4]]
  // )
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ParameterList(" << std::endl;
    for (const auto& pair : parameters_) {
      stream << "(" << pair.key() << ")"
             << ": Parameter containing: [" << pair.value().scalar_type() << " of size " << pair.value().sizes()
             << "]" << std::endl;
    }
    stream << ")";
  }

  void append(Tensor&& param) {
    const bool requires_grad = param.requires_grad();
    register_parameter(std::to_string(parameters_.size()), std::move(param), requires_grad);
  }
  void append(const Tensor& param) {
    register_parameter(std::to_string(parameters_.size()), param, param.requires_grad());
  }
  // An item of another module's named_parameters(): its value is appended under the next index.
  void append(const OrderedDict<std::string, Tensor>::Item& pair) {
    register_parameter(std::to_string(parameters_.size()), pair.value(), pair.value().requires_grad());
  }

  // Appends every tensor (or OrderedDict item) of `container`.
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& param : container) append(param);
  }

  Iterator begin() { return parameters_.begin(); }
  ConstIterator begin() const { return parameters_.begin(); }
  Iterator end() { return parameters_.end(); }
  ConstIterator end() const { return parameters_.end(); }

  Tensor& at(size_t idx) {
    TT_CHECK(idx < size(), "Index out of range");
    return parameters_[std::to_string(idx)];
  }
  const Tensor& at(size_t idx) const {
    TT_CHECK(idx < size(), "Index out of range");
    return parameters_[std::to_string(idx)];
  }
  Tensor& operator[](size_t idx) { return at(idx); }
  const Tensor& operator[](size_t idx) const { return at(idx); }

  size_t size() const noexcept { return parameters_.size(); }
  bool is_empty() const noexcept { return parameters_.is_empty(); }

  // LibTorch's spelling: extends, and returns `other` (not this list).
  template <typename Container>
  Container& operator+=(const Container& other) {
    extend(other);
    return *this;
  }
};

TORCH_MODULE(ParameterList);

}  // namespace nn
}  // namespace tinytorch
