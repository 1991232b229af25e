// Module 03 (Layers), the given half: options, registration and printing of Linear, Dropout,
// Flatten and Sequential. What the layers compute is in linear.cpp and dropout.cpp (yours).
#include <ostream>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/modules/container/sequential.h"
#include "tinytorch/nn/modules/dropout.h"
#include "tinytorch/nn/modules/flatten.h"
#include "tinytorch/nn/modules/linear.h"

namespace tinytorch {
namespace nn {

// ---- Linear ----

LinearOptions::LinearOptions(int64_t in_features, int64_t out_features)
    : in_features_(in_features), out_features_(out_features) {}

LinearImpl::LinearImpl(const LinearOptions& options_) : options(options_) { reset(); }

void LinearImpl::reset() {
  // (out, in): row j of the weight is what output j dots the input with.
  weight = register_parameter("weight", empty({options.out_features(), options.in_features()}));
  if (options.bias()) {
    bias = register_parameter("bias", empty({options.out_features()}));
  } else {
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);  // absent: parameters() skips it
  }
  reset_parameters();
}

void LinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

// ---- Dropout ----

DropoutOptions::DropoutOptions(double p) : p_(p) {}

DropoutImpl::DropoutImpl(const DropoutOptions& options_) : options(options_) { reset(); }

void DropoutImpl::reset() {
  TT_CHECK(options.p() >= 0. && options.p() <= 1., "dropout probability has to be between 0 and 1, but got ",
           options.p());
}

void DropoutImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Dropout(p=" << options.p() << ", inplace=" << options.inplace() << ")";
}

// ---- Flatten ----

FlattenImpl::FlattenImpl(const FlattenOptions& options_) : options(options_) {}

void FlattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Flatten(start_dim=" << options.start_dim() << ", end_dim=" << options.end_dim() << ")";
}

Tensor FlattenImpl::forward(const Tensor& input) { return input.flatten(options.start_dim(), options.end_dim()); }

// ---- Sequential ----

Tensor SequentialImpl::forward(Tensor input) {
  TT_CHECK(!is_empty(), "Cannot call forward() on an empty Sequential");
  for (AnyModule& step : steps_) input = step.forward(std::move(input));
  return input;
}

std::shared_ptr<Module> SequentialImpl::clone() const {
  auto copy = std::make_shared<SequentialImpl>();
  const auto names = named_children().keys();
  for (size_t i = 0; i < steps_.size(); ++i) copy->push_back(names[i], steps_[i].clone());
  copy->train(is_training());
  return copy;
}

void SequentialImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sequential"; }

}  // namespace nn
}  // namespace tinytorch
