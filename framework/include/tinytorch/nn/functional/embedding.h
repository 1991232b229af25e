#pragma once
// torch::nn::functional::embedding and one_hot with their option builder (LibTorch's
// torch/nn/functional/embedding.h and options/embedding.h).
//
//   namespace F = torch::nn::functional;
//   Tensor out = F::embedding(indices, weight, F::EmbeddingFuncOptions().padding_idx(0).max_norm(1.0));
//   Tensor hot = F::one_hot(labels, 10);   // (N) Long -> (N, 10) Long
// Note the argument order: F::embedding takes (input, weight), torch::embedding (weight, indices).
#include <cstdint>
#include <optional>

#include "tinytorch/embedding.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace functional {

struct EmbeddingFuncOptions {
  TORCH_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TORCH_ARG(std::optional<double>, max_norm) = std::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
};

namespace detail {
// What F::embedding and nn::Embedding run: checks padding_idx (a negative one counts from the end),
// renormalises the looked-up rows in place under no-grad when max_norm is set, then looks up.
Tensor embedding(const Tensor& input, const Tensor& weight, std::optional<int64_t> padding_idx,
                 std::optional<double> max_norm, double norm_type, bool scale_grad_by_freq, bool sparse);
}  // namespace detail

inline Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options = {}) {
  return detail::embedding(input, weight, options.padding_idx(), options.max_norm(), options.norm_type(),
                           options.scale_grad_by_freq(), options.sparse());
}

inline Tensor one_hot(const Tensor& tensor, int64_t num_classes = -1) {
  return ::tinytorch::one_hot(tensor, num_classes);
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
