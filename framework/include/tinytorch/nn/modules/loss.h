#pragma once
// The loss modules, LibTorch's nn::MSELoss, nn::CrossEntropyLoss, nn::NLLLoss, nn::BCELoss,
// nn::BCEWithLogitsLoss and nn::SmoothL1Loss: forward(input, target) calls the functional form with
// the module's options; class weights are registered as buffers, as in LibTorch.
//
//   nn::CrossEntropyLoss criterion(nn::CrossEntropyLossOptions().label_smoothing(0.1));
//   Tensor loss = criterion(model(x), labels);
#include <iosfwd>

#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/loss.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

class MSELossImpl : public Cloneable<MSELossImpl> {
 public:
  explicit MSELossImpl(MSELossOptions options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::MSELoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  MSELossOptions options;
};
TORCH_MODULE(MSELoss);

class NLLLossImpl : public Cloneable<NLLLossImpl> {
 public:
  explicit NLLLossImpl(NLLLossOptions options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;  // torch::nn::NLLLoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  NLLLossOptions options;
  Tensor weight;  // buffer "weight" (undefined: every class weighs 1)
};
TORCH_MODULE(NLLLoss);

class CrossEntropyLossImpl : public Cloneable<CrossEntropyLossImpl> {
 public:
  explicit CrossEntropyLossImpl(CrossEntropyLossOptions options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;  // torch::nn::CrossEntropyLoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  CrossEntropyLossOptions options;
  Tensor weight;  // buffer "weight"
};
TORCH_MODULE(CrossEntropyLoss);

class BCELossImpl : public Cloneable<BCELossImpl> {
 public:
  explicit BCELossImpl(BCELossOptions options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;  // torch::nn::BCELoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  BCELossOptions options;
};
TORCH_MODULE(BCELoss);

class BCEWithLogitsLossImpl : public Cloneable<BCEWithLogitsLossImpl> {
 public:
  explicit BCEWithLogitsLossImpl(BCEWithLogitsLossOptions options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;  // torch::nn::BCEWithLogitsLoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  BCEWithLogitsLossOptions options;
  Tensor weight;      // buffer "weight"
  Tensor pos_weight;  // buffer "pos_weight"
};
TORCH_MODULE(BCEWithLogitsLoss);

class SmoothL1LossImpl : public Cloneable<SmoothL1LossImpl> {
 public:
  explicit SmoothL1LossImpl(SmoothL1LossOptions options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::SmoothL1Loss (no parentheses, as LibTorch)
  Tensor forward(const Tensor& input, const Tensor& target);
  SmoothL1LossOptions options;
};
TORCH_MODULE(SmoothL1Loss);

// forward(input, target) = F::kl_div(input, target, options) (module 16).
class KLDivLossImpl : public Cloneable<KLDivLossImpl> {
 public:
  explicit KLDivLossImpl(KLDivLossOptions options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::KLDivLoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  KLDivLossOptions options;
};
TORCH_MODULE(KLDivLoss);

}  // namespace nn
}  // namespace tinytorch
