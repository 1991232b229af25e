#pragma once
// nn::ParameterDict: tensors registered as the module's parameters under string keys, in insertion
// order (LibTorch's torch::nn::ParameterDict).
//
//   nn::ParameterDict params;
//   params->insert("scale", torch::ones({4}, torch::requires_grad()));
//   params["scale"];  params->contains("shift");  params->keys();  params->pop("scale");
//   for (const auto& item : *params) std::cout << item.key() << ": " << item.value().sizes() << "\n";
#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/ordered_dict.h"
#include "tinytorch/nn/pimpl.h"

namespace tinytorch {
namespace nn {

class ParameterDictImpl : public Cloneable<ParameterDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, Tensor>::Iterator;
  using ConstIterator = OrderedDict<std::string, Tensor>::ConstIterator;

  ParameterDictImpl() = default;
  // Takes the dictionary as it is (its key description included), without changing requires_grad.
  explicit ParameterDictImpl(const OrderedDict<std::string, Tensor>& params) { parameters_ = params; }

  void reset() override {}

  // torch::nn::ParameterDict(
  // (scale): Parameter containing: [Float of size [4]]
  // )
  void pretty_print(std::ostream& stream) const override {
    stream << "torch::nn::ParameterDict(" << std::endl;
    for (const auto& pair : parameters_) {
      stream << "(" << pair.key() << ")"
             << ": Parameter containing: [" << pair.value().scalar_type() << " of size " << pair.value().sizes()
             << "]" << std::endl;
    }
    stream << ")";
  }

  // Registers a new parameter; a key already present is an error ("Parameter 'k' already defined").
  Tensor& insert(std::string key, Tensor param) {
    const bool requires_grad = param.requires_grad();
    return register_parameter(std::move(key), std::move(param), requires_grad);
  }

  // Removes and returns the parameter under `key`.
  Tensor pop(const std::string& key) {
    Tensor value = parameters_[key];
    parameters_.erase(key);
    return value;
  }

  std::vector<std::string> keys() const { return parameters_.keys(); }
  std::vector<Tensor> values() const { return parameters_.values(); }

  Iterator begin() { return parameters_.begin(); }
  ConstIterator begin() const { return parameters_.begin(); }
  Iterator end() { return parameters_.end(); }
  ConstIterator end() const { return parameters_.end(); }

  size_t size() const noexcept { return parameters_.size(); }
  bool empty() const noexcept { return parameters_.is_empty(); }

  // Replaces the values of keys already present (as LibTorch does, a new key is an error: update
  // overwrites, insert adds).
  template <typename Container>
  void update(const Container& container) {
    for (auto& item : container) parameters_[item.key()] = item.value();
  }

  void clear() { parameters_.clear(); }
  bool contains(const std::string& key) const noexcept { return parameters_.contains(key); }

  const Tensor& get(const std::string& key) const { return parameters_[key]; }
  Tensor& get(const std::string& key) { return parameters_[key]; }
  Tensor& operator[](const std::string& key) { return parameters_[key]; }
  const Tensor& operator[](const std::string& key) const { return parameters_[key]; }
};

TORCH_MODULE(ParameterDict);

}  // namespace nn
}  // namespace tinytorch
