#pragma once
// nn::TransformerEncoderLayer and nn::TransformerEncoder (LibTorch 1.13's): the 2017 encoder layer,
// post-LN, on (S, N, E) sequences:
//   x = norm1(x + dropout1(self_attn(x, x, x, src_key_padding_mask, src_mask)))
//   x = norm2(x + dropout2(linear2(dropout(activation(linear1(x))))))
//
//   nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(512, 8).dim_feedforward(2048));
//   nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(layer, 6));   // 6 clones of layer
//   Tensor y = encoder(src);                                                // src (S, N, 512)
// src_mask (S, S): float (added to the scores) or kBool (true = not attended); src_key_padding_mask
// (N, S): true = padding. models::GPT is the pre-LN, decoder-only relative.
#include <cstdint>
#include <functional>
#include <variant>

#include "tinytorch/enum.h"  // torch::kReLU, torch::kGELU
#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/attention.h"
#include "tinytorch/nn/modules/container/any.h"
#include "tinytorch/nn/modules/container/modulelist.h"
#include "tinytorch/nn/modules/dropout.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/nn/modules/normalization.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace nn {

using activation_t = std::variant<enumtype::kReLU, enumtype::kGELU, std::function<Tensor(const Tensor&)>>;

struct TransformerEncoderLayerOptions {
  /* implicit */ TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TORCH_ARG(int64_t, d_model);
  TORCH_ARG(int64_t, nhead);
  TORCH_ARG(int64_t, dim_feedforward) = 2048;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(activation_t, activation) = ::tinytorch::kReLU;
};

class TransformerEncoderLayerImpl : public Cloneable<TransformerEncoderLayerImpl> {
 public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(const TransformerEncoderLayerOptions& options_);

  // src (S, N, E) -> (S, N, E).
  Tensor forward(const Tensor& src, const Tensor& src_mask = {}, const Tensor& src_key_padding_mask = {});
  void reset() override;
  void reset_parameters();

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
};

TORCH_MODULE(TransformerEncoderLayer);

struct TransformerEncoderOptions {
  TransformerEncoderOptions(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : encoder_layer_(std::move(encoder_layer)), num_layers_(num_layers) {}
  TransformerEncoderOptions(const TransformerEncoderLayerOptions& encoder_layer_options, int64_t num_layers)
      : encoder_layer_(TransformerEncoderLayer(encoder_layer_options)), num_layers_(num_layers) {}
  TORCH_ARG(TransformerEncoderLayer, encoder_layer) = nullptr;
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(AnyModule, norm);  // applied after the last layer when set (e.g. a LayerNorm)
};

class TransformerEncoderImpl : public Cloneable<TransformerEncoderImpl> {
 public:
  TransformerEncoderImpl(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : TransformerEncoderImpl(TransformerEncoderOptions(std::move(encoder_layer), num_layers)) {}
  explicit TransformerEncoderImpl(TransformerEncoderOptions options_);

  Tensor forward(const Tensor& src, const Tensor& src_mask = {}, const Tensor& src_key_padding_mask = {});
  void reset() override;
  void reset_parameters();

  TransformerEncoderOptions options;
  ModuleList layers = nullptr;  // num_layers clones of options.encoder_layer()
  AnyModule norm;
};

TORCH_MODULE(TransformerEncoder);

}  // namespace nn
}  // namespace tinytorch
