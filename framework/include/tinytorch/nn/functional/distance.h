#pragma once
// F::cosine_similarity and F::pairwise_distance with their options (LibTorch's
// torch/nn/functional/distance.h); the module forms are in nn/modules/distance.h.
//   F::cosine_similarity(a, b, F::CosineSimilarityFuncOptions().dim(1))
//   F::pairwise_distance(a, b, F::PairwiseDistanceFuncOptions().p(1).keepdim(true))
#include <cstdint>

#include "tinytorch/losses_extra.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct CosineSimilarityOptions {
  TORCH_ARG(int64_t, dim) = 1;
  TORCH_ARG(double, eps) = 1e-8;
};

struct PairwiseDistanceOptions {
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(double, eps) = 1e-6;
  TORCH_ARG(bool, keepdim) = false;
};

namespace functional {

using CosineSimilarityFuncOptions = CosineSimilarityOptions;
using PairwiseDistanceFuncOptions = PairwiseDistanceOptions;

inline Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, const CosineSimilarityFuncOptions& options = {}) {
  return ::tinytorch::cosine_similarity(x1, x2, options.dim(), options.eps());
}

inline Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, const PairwiseDistanceFuncOptions& options = {}) {
  return ::tinytorch::pairwise_distance(x1, x2, options.p(), options.eps(), options.keepdim());
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
