#pragma once
// Positional encodings: what tells a transformer where each token is. LibTorch has no class for
// them (PyTorch models write their own), so these are TinyTorch's, under tinytorch::nn (torch::nn
// through torch.h's alias), built like LibTorch's layers.
//
//   nn::SinusoidalPositionalEncoding sinusoid(512, 64);   // Vaswani et al. (2017): fixed, no parameters
//   nn::LearnedPositionalEmbedding learned(512, 64);      // GPT-2 / BERT: an nn::Embedding of positions
//   Tensor h = learned(token_vectors);                   // (B, T, 64) + rows 0..T-1 of the table
//   Tensor next = learned(one_token, /*start_pos=*/t);   // (B, 1, 64) + row t: generation, one token at a time
//
// forward(input, start_pos) adds the encodings of positions start_pos, ..., start_pos + T - 1 to an
// input (..., T, embedding_dim) (T along dim -2, broadcast over any leading dims). start_pos lets a
// token generated alone (module 18's KV cache) get its true position instead of position 0.
// Memory: both keep a (max_len, embedding_dim) table; the learned one's is max_len d parameters
// (1,024 x 768 = 786,432 for GPT-2), the sinusoidal one's a buffer (saved, not trained).
#include <cstdint>
#include <iosfwd>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/embedding.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct PositionalEncodingOptions {
  PositionalEncodingOptions(int64_t max_len, int64_t embedding_dim);
  TORCH_ARG(int64_t, max_len);        // positions 0 .. max_len - 1 exist
  TORCH_ARG(int64_t, embedding_dim);  // the size of each position's vector (the model's width)
};

class SinusoidalPositionalEncodingImpl : public Cloneable<SinusoidalPositionalEncodingImpl> {
 public:
  SinusoidalPositionalEncodingImpl(int64_t max_len, int64_t embedding_dim)
      : SinusoidalPositionalEncodingImpl(PositionalEncodingOptions(max_len, embedding_dim)) {}
  explicit SinusoidalPositionalEncodingImpl(const PositionalEncodingOptions& options_);

  // Registers the buffer "table" = the (max_len, embedding_dim) sine/cosine table.
  void reset() override;
  // "torch::nn::SinusoidalPositionalEncoding(max_len=512, embedding_dim=64)"
  void pretty_print(std::ostream& stream) const override;
  // input (..., T, embedding_dim) + table rows start_pos .. start_pos + T - 1.   [module 11: yours]
  Tensor forward(const Tensor& input, int64_t start_pos = 0);

  PositionalEncodingOptions options;
  Tensor table;
};

TORCH_MODULE(SinusoidalPositionalEncoding);

class LearnedPositionalEmbeddingImpl : public Cloneable<LearnedPositionalEmbeddingImpl> {
 public:
  LearnedPositionalEmbeddingImpl(int64_t max_len, int64_t embedding_dim)
      : LearnedPositionalEmbeddingImpl(PositionalEncodingOptions(max_len, embedding_dim)) {}
  explicit LearnedPositionalEmbeddingImpl(const PositionalEncodingOptions& options_);

  // Registers the submodule "embedding", an nn::Embedding(max_len, embedding_dim) (N(0, 1) start).
  void reset() override;
  // "torch::nn::LearnedPositionalEmbedding(max_len=512, embedding_dim=64)"
  void pretty_print(std::ostream& stream) const override;
  // input (..., T, embedding_dim) + embedding of positions start_pos .. start_pos + T - 1.   [module 11: yours]
  Tensor forward(const Tensor& input, int64_t start_pos = 0);

  PositionalEncodingOptions options;
  Embedding embedding = nullptr;
};

TORCH_MODULE(LearnedPositionalEmbedding);

}  // namespace nn
}  // namespace tinytorch
