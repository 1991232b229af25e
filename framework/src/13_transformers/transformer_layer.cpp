// Module 13 (Transformers), given: nn::TransformerEncoderLayer and nn::TransformerEncoder as
// LibTorch 1.13 builds them (post-LN, (S, N, E)), on module 12's nn::MultiheadAttention and this
// module's nn::LayerNorm.
#include "tinytorch/activations.h"
#include "tinytorch/autograd.h"
#include "tinytorch/nn/modules/transformerlayer.h"

namespace tinytorch {
namespace nn {

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(const TransformerEncoderLayerOptions& options_)
    : options(options_) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  self_attn = register_module(
      "self_attn", MultiheadAttention(MultiheadAttentionOptions(options.d_model(), options.nhead()).dropout(options.dropout())));
  linear1 = register_module("linear1", Linear(options.d_model(), options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), options.d_model()));
  norm1 = register_module("norm1", LayerNorm(LayerNormOptions({options.d_model()})));
  norm2 = register_module("norm2", LayerNorm(LayerNormOptions({options.d_model()})));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

void TransformerEncoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  const Tensor attended =
      std::get<0>(self_attn->forward(src, src, src, src_key_padding_mask, /*need_weights=*/true, src_mask));
  const Tensor x = norm1->forward(src + dropout1->forward(attended));  // add, then norm: post-LN
  const Tensor hidden = linear1->forward(x);
  Tensor activated;
  if (std::holds_alternative<enumtype::kGELU>(options.activation())) {
    activated = gelu(hidden);
  } else if (std::holds_alternative<enumtype::kReLU>(options.activation())) {
    activated = relu(hidden);
  } else {
    const auto& callable = std::get<std::function<Tensor(const Tensor&)>>(options.activation());
    TT_CHECK(static_cast<bool>(callable), "activation should be kGELU, kReLU, or a callable");
    activated = callable(hidden);
  }
  return norm2->forward(x + dropout2->forward(linear2->forward(dropout->forward(activated))));
}

TransformerEncoderImpl::TransformerEncoderImpl(TransformerEncoderOptions options_) : options(std::move(options_)) {
  reset();
}

void TransformerEncoderImpl::reset() {
  TT_CHECK(!options.encoder_layer().is_empty(),
           "TransformerEncoderOptions: encoder_layer is empty: pass an nn::TransformerEncoderLayer");
  layers = register_module("layers", ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) layers->push_back(options.encoder_layer()->clone());
  if (!options.norm().is_empty()) {
    norm = options.norm().clone();
    register_module("norm", norm.ptr());
  }
}

void TransformerEncoderImpl::reset_parameters() {
  for (const auto& layer : *layers) layer->as<TransformerEncoderLayerImpl>()->reset_parameters();
}

Tensor TransformerEncoderImpl::forward(const Tensor& src, const Tensor& src_mask, const Tensor& src_key_padding_mask) {
  Tensor output = src;
  for (const auto& layer : *layers) {
    output = layer->as<TransformerEncoderLayerImpl>()->forward(output, src_mask, src_key_padding_mask);
  }
  if (!norm.is_empty()) output = norm.forward<Tensor>(output);
  return output;
}

}  // namespace nn
}  // namespace tinytorch
