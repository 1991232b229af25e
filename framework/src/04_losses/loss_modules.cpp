// Module 04 (Losses), given: the loss modules over the functional forms (tinytorch/nn/functional/loss.h).
#include <ostream>

#include "tinytorch/nn/modules/loss.h"

namespace tinytorch {
namespace nn {
namespace {
// The module's own copy of a weight from its options, so that clone() copies do not share it.
Tensor own_copy(const Tensor& weight) { return weight.defined() ? weight.clone() : Tensor(); }
}  // namespace

MSELossImpl::MSELossImpl(MSELossOptions options_) : Cloneable("torch::nn::MSELossImpl"), options(options_) {}
void MSELossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::MSELoss()"; }
Tensor MSELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::mse_loss(input, target, options);
}

NLLLossImpl::NLLLossImpl(NLLLossOptions options_) : Cloneable("torch::nn::NLLLossImpl"), options(std::move(options_)) {
  reset();
}
void NLLLossImpl::reset() { weight = register_buffer("weight", own_copy(options.weight())); }
void NLLLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::NLLLoss()"; }
Tensor NLLLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::nll_loss(input, target, NLLLossOptions(options).weight(weight));
}

CrossEntropyLossImpl::CrossEntropyLossImpl(CrossEntropyLossOptions options_)
    : Cloneable("torch::nn::CrossEntropyLossImpl"), options(std::move(options_)) {
  reset();
}
void CrossEntropyLossImpl::reset() { weight = register_buffer("weight", own_copy(options.weight())); }
void CrossEntropyLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::CrossEntropyLoss()"; }
Tensor CrossEntropyLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::cross_entropy(input, target, CrossEntropyLossOptions(options).weight(weight));
}

BCELossImpl::BCELossImpl(BCELossOptions options_) : Cloneable("torch::nn::BCELossImpl"), options(std::move(options_)) {
  reset();
}
void BCELossImpl::reset() { register_buffer("weight", own_copy(options.weight())); }
void BCELossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::BCELoss()"; }
Tensor BCELossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy(input, target, options);
}

BCEWithLogitsLossImpl::BCEWithLogitsLossImpl(BCEWithLogitsLossOptions options_)
    : Cloneable("torch::nn::BCEWithLogitsLossImpl"), options(std::move(options_)) {
  reset();
}
void BCEWithLogitsLossImpl::reset() {
  weight = register_buffer("weight", own_copy(options.weight()));
  pos_weight = register_buffer("pos_weight", own_copy(options.pos_weight()));
}
void BCEWithLogitsLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::BCEWithLogitsLoss()"; }
Tensor BCEWithLogitsLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::binary_cross_entropy_with_logits(
      input, target, BCEWithLogitsLossOptions(options).weight(weight).pos_weight(pos_weight));
}

SmoothL1LossImpl::SmoothL1LossImpl(SmoothL1LossOptions options_)
    : Cloneable("torch::nn::SmoothL1LossImpl"), options(options_) {}
void SmoothL1LossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::SmoothL1Loss"; }
Tensor SmoothL1LossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::smooth_l1_loss(input, target, options);
}

}  // namespace nn
}  // namespace tinytorch
