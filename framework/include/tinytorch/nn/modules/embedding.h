#pragma once
// nn::Embedding: a table of num_embeddings vectors of embedding_dim numbers, looked up by index
// (LibTorch's torch::nn::Embedding).
//
// weight is (num_embeddings, embedding_dim), drawn from N(0, 1) as LibTorch does; the row padding_idx
// (if set; a negative one counts from the end) starts at zero and its gradient is always zero.
// Parameters: V d; bytes: 4 V d in float (50,257 x 768 for GPT-2's vocabulary: 38.6 M, 154 MB).
//
//   nn::Embedding embed(nn::EmbeddingOptions(1000, 64).padding_idx(0));
//   Tensor x = embed(torch::tensor({{5, 9, 0}}));        // (1, 3) Long -> (1, 3, 64)
//   auto frozen = nn::Embedding::from_pretrained(vectors, nn::EmbeddingFromPretrainedOptions().freeze(true));
// max_norm renormalises, in place and without recording, every looked-up row whose norm exceeds it.
// sparse(true) is refused: TinyTorch has no sparse tensors, every gradient is a dense (V, d) tensor.
#include <cstdint>
#include <iosfwd>
#include <optional>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/embedding.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim);
  TORCH_ARG(int64_t, num_embeddings);
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TORCH_ARG(std::optional<double>, max_norm) = std::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
  // A (num_embeddings, embedding_dim) tensor to use as the weight instead of a random one.
  TORCH_ARG(Tensor, _weight) = Tensor();
};

struct EmbeddingFromPretrainedOptions {
  TORCH_ARG(bool, freeze) = true;
  TORCH_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TORCH_ARG(std::optional<double>, max_norm) = std::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
};

class EmbeddingImpl : public Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingImpl(const EmbeddingOptions& options_);

  // Checks padding_idx (a negative one becomes num_embeddings + padding_idx), registers the weight
  // (options._weight() if given, else a new one filled by reset_parameters()).
  void reset() override;
  // weight ~ N(0, 1), then the padding row set to zero.
  void reset_parameters();
  // "torch::nn::Embedding(num_embeddings=10, embedding_dim=3, padding_idx=0)"
  void pretty_print(std::ostream& stream) const override;
  // indices (*) Long -> (*, embedding_dim).
  Tensor forward(const Tensor& indices);

  EmbeddingOptions options;
  Tensor weight;
};

class Embedding : public ModuleHolder<EmbeddingImpl> {
 public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;
  using Impl = EmbeddingImpl;

  // An Embedding whose weight is `embeddings` (V, d) itself (shared, not copied); freeze(true), the
  // default, makes it a constant (weight.requires_grad() is false).
  static Embedding from_pretrained(const Tensor& embeddings, const EmbeddingFromPretrainedOptions& options = {});
};

}  // namespace nn
}  // namespace tinytorch
