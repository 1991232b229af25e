#pragma once
// nn::CosineSimilarity and nn::PairwiseDistance (LibTorch's torch/nn/modules/distance.h):
// forward(input1, input2) calls the functional form with the module's options.
#include <iosfwd>

#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/distance.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

class CosineSimilarityImpl : public Cloneable<CosineSimilarityImpl> {
 public:
  explicit CosineSimilarityImpl(const CosineSimilarityOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::CosineSimilarity(dim=1, eps=1e-08)
  Tensor forward(const Tensor& input1, const Tensor& input2);
  CosineSimilarityOptions options;
};
TORCH_MODULE(CosineSimilarity);

class PairwiseDistanceImpl : public Cloneable<PairwiseDistanceImpl> {
 public:
  explicit PairwiseDistanceImpl(const PairwiseDistanceOptions& options_ = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::PairwiseDistance(p=2, eps=1e-06, keepdim=false)
  Tensor forward(const Tensor& input1, const Tensor& input2);
  PairwiseDistanceOptions options;
};
TORCH_MODULE(PairwiseDistance);

}  // namespace nn
}  // namespace tinytorch
