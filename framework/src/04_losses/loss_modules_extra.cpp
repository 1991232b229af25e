// The modules over the losses and distances of tinytorch/losses_extra.h (given code): forward calls the
// functional form with the module's options; printing is LibTorch's.
#include <ios>
#include <ostream>

#include "tinytorch/nn/modules/distance.h"
#include "tinytorch/nn/modules/loss.h"

namespace tinytorch {
namespace nn {

L1LossImpl::L1LossImpl(const L1LossOptions& options_) : Cloneable("torch::nn::L1LossImpl"), options(options_) {}
void L1LossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::L1Loss()"; }
Tensor L1LossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::l1_loss(input, target, options);
}

HuberLossImpl::HuberLossImpl(const HuberLossOptions& options_)
    : Cloneable("torch::nn::HuberLossImpl"), options(options_) {}
// No parentheses, as LibTorch prints it.
void HuberLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::HuberLoss"; }
Tensor HuberLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::huber_loss(input, target, options);
}

SoftMarginLossImpl::SoftMarginLossImpl(const SoftMarginLossOptions& options_)
    : Cloneable("torch::nn::SoftMarginLossImpl"), options(options_) {}
void SoftMarginLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::SoftMarginLoss()"; }
Tensor SoftMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::soft_margin_loss(input, target, options);
}

MarginRankingLossImpl::MarginRankingLossImpl(const MarginRankingLossOptions& options_)
    : Cloneable("torch::nn::MarginRankingLossImpl"), options(options_) {}
void MarginRankingLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::MarginRankingLoss()"; }
Tensor MarginRankingLossImpl::forward(const Tensor& input1, const Tensor& input2, const Tensor& target) {
  return functional::margin_ranking_loss(input1, input2, target, options);
}

HingeEmbeddingLossImpl::HingeEmbeddingLossImpl(const HingeEmbeddingLossOptions& options_)
    : Cloneable("torch::nn::HingeEmbeddingLossImpl"), options(options_) {}
void HingeEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::HingeEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor HingeEmbeddingLossImpl::forward(const Tensor& input, const Tensor& target) {
  return functional::hinge_embedding_loss(input, target, options);
}

CosineEmbeddingLossImpl::CosineEmbeddingLossImpl(const CosineEmbeddingLossOptions& options_)
    : Cloneable("torch::nn::CosineEmbeddingLossImpl"), options(options_) {}
void CosineEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CosineEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor CosineEmbeddingLossImpl::forward(const Tensor& input1, const Tensor& input2, const Tensor& target) {
  return functional::cosine_embedding_loss(input1, input2, target, options);
}

TripletMarginLossImpl::TripletMarginLossImpl(const TripletMarginLossOptions& options_)
    : Cloneable("torch::nn::TripletMarginLossImpl"), options(options_) {}
void TripletMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TripletMarginLoss(margin=" << options.margin() << ", p=" << options.p()
         << ", eps=" << std::defaultfloat << options.eps() << std::boolalpha << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginLossImpl::forward(const Tensor& anchor, const Tensor& positive, const Tensor& negative) {
  return functional::triplet_margin_loss(anchor, positive, negative, options);
}

PoissonNLLLossImpl::PoissonNLLLossImpl(const PoissonNLLLossOptions& options_)
    : Cloneable("torch::nn::PoissonNLLLossImpl"), options(options_) {}
void PoissonNLLLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::PoissonNLLLoss()"; }
Tensor PoissonNLLLossImpl::forward(const Tensor& log_input, const Tensor& targets) {
  return functional::poisson_nll_loss(log_input, targets, options);
}

CosineSimilarityImpl::CosineSimilarityImpl(const CosineSimilarityOptions& options_)
    : Cloneable("torch::nn::CosineSimilarityImpl"), options(options_) {}
void CosineSimilarityImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CosineSimilarity(dim=" << options.dim() << ", eps=" << options.eps() << ")";
}
Tensor CosineSimilarityImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::cosine_similarity(input1, input2, options);
}

PairwiseDistanceImpl::PairwiseDistanceImpl(const PairwiseDistanceOptions& options_)
    : Cloneable("torch::nn::PairwiseDistanceImpl"), options(options_) {}
void PairwiseDistanceImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::PairwiseDistance(p=" << options.p() << ", eps=" << options.eps()
         << ", keepdim=" << options.keepdim() << ")";
}
Tensor PairwiseDistanceImpl::forward(const Tensor& input1, const Tensor& input2) {
  return functional::pairwise_distance(input1, input2, options);
}

}  // namespace nn
}  // namespace tinytorch
