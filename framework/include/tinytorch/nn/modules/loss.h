#pragma once
// The loss modules, LibTorch's nn::MSELoss, nn::CrossEntropyLoss, nn::NLLLoss, nn::BCELoss,
// nn::BCEWithLogitsLoss, nn::SmoothL1Loss, nn::L1Loss, nn::HuberLoss, nn::SoftMarginLoss,
// nn::MarginRankingLoss, nn::HingeEmbeddingLoss, nn::CosineEmbeddingLoss, nn::TripletMarginLoss and
// nn::PoissonNLLLoss: forward(input, target) calls the functional form with
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

// The losses of tinytorch/losses_extra.h (src/04_losses/loss_modules_extra.cpp).
class L1LossImpl : public Cloneable<L1LossImpl> {
 public:
  explicit L1LossImpl(const L1LossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::L1Loss()
  Tensor forward(const Tensor& input, const Tensor& target);
  L1LossOptions options;
};
TORCH_MODULE(L1Loss);

class HuberLossImpl : public Cloneable<HuberLossImpl> {
 public:
  explicit HuberLossImpl(const HuberLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::HuberLoss (no parentheses, as LibTorch)
  Tensor forward(const Tensor& input, const Tensor& target);
  HuberLossOptions options;
};
TORCH_MODULE(HuberLoss);

class SoftMarginLossImpl : public Cloneable<SoftMarginLossImpl> {
 public:
  explicit SoftMarginLossImpl(const SoftMarginLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::SoftMarginLoss()
  Tensor forward(const Tensor& input, const Tensor& target);
  SoftMarginLossOptions options;
};
TORCH_MODULE(SoftMarginLoss);

class MarginRankingLossImpl : public Cloneable<MarginRankingLossImpl> {
 public:
  explicit MarginRankingLossImpl(const MarginRankingLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::MarginRankingLoss()
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target);
  MarginRankingLossOptions options;
};
TORCH_MODULE(MarginRankingLoss);

class HingeEmbeddingLossImpl : public Cloneable<HingeEmbeddingLossImpl> {
 public:
  explicit HingeEmbeddingLossImpl(const HingeEmbeddingLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::HingeEmbeddingLoss(margin=1)
  Tensor forward(const Tensor& input, const Tensor& target);
  HingeEmbeddingLossOptions options;
};
TORCH_MODULE(HingeEmbeddingLoss);

class CosineEmbeddingLossImpl : public Cloneable<CosineEmbeddingLossImpl> {
 public:
  explicit CosineEmbeddingLossImpl(const CosineEmbeddingLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::CosineEmbeddingLoss(margin=0)
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target);
  CosineEmbeddingLossOptions options;
};
TORCH_MODULE(CosineEmbeddingLoss);

class TripletMarginLossImpl : public Cloneable<TripletMarginLossImpl> {
 public:
  explicit TripletMarginLossImpl(const TripletMarginLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::TripletMarginLoss(margin=1, p=2, eps=1e-06, swap=false)
  Tensor forward(const Tensor& anchor, const Tensor& positive, const Tensor& negative);
  TripletMarginLossOptions options;
};
TORCH_MODULE(TripletMarginLoss);

class PoissonNLLLossImpl : public Cloneable<PoissonNLLLossImpl> {
 public:
  explicit PoissonNLLLossImpl(const PoissonNLLLossOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::PoissonNLLLoss()
  Tensor forward(const Tensor& log_input, const Tensor& targets);
  PoissonNLLLossOptions options;
};
TORCH_MODULE(PoissonNLLLoss);

}  // namespace nn
}  // namespace tinytorch
