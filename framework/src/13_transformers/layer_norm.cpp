// Module 13 (Transformers), the given half of layer normalisation: torch::layer_norm (LibTorch's
// checks and messages, the recorded op, its derivative) and nn::LayerNorm. The loops are the
// learner's (layer_norm_loops.cpp).
#include <ostream>
#include <sstream>

#include "tinytorch/autograd.h"
#include "tinytorch/derivative.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/functional/normalization.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/normalization.h"
#include "tinytorch/normalization.h"
#include "tinytorch/transformer_kernels.h"

namespace tinytorch {
namespace {

// The op records the statistics it normalised with as extra inputs (they need no gradient), so that
// its node can keep them: inputs {input, weight, bias, mean, rstd}; attributes.length = features,
// attributes.dim = normalized_shape's length.
const RegisterDerivative layer_norm_derivative("native_layer_norm", {
    "NativeLayerNormBackward0",
    [](SaveForBackward& save) {
      save.input(0);  // input
      save.input(1);  // weight
      save.input(3);  // mean
      save.input(4);  // rstd
    },
    [](const BackwardContext& ctx) -> tensor_list {
      TT_CHECK(!GradMode::is_enabled() || !ctx.grad().requires_grad(),
               "double backward through layer_norm (create_graph=true) is not supported by TinyTorch yet");
      const Tensor& input = ctx.saved(0);
      const int64_t features = ctx.attributes.length;
      const int64_t rows = features == 0 ? 0 : input.numel() / features;
      auto [grad_input, grad_weight, grad_bias] = native::layer_norm_backward_loops(
          ctx.grad().contiguous(), input, ctx.saved(1), ctx.saved(2), ctx.saved(3), rows, features,
          {ctx.needs_input_grad(0), ctx.needs_input_grad(1) && ctx.saved(1).defined(), ctx.needs_input_grad(2)});
      // weight and bias have normalized_shape: input's last attributes.dim sizes.
      const IntArrayRef sizes = input.sizes();
      const IntArrayRef normalized_shape(sizes.data() + sizes.size() - ctx.attributes.dim,
                                         static_cast<size_t>(ctx.attributes.dim));
      if (grad_weight.defined()) grad_weight = grad_weight.view(normalized_shape);
      if (grad_bias.defined()) grad_bias = grad_bias.view(normalized_shape);
      return {grad_input, grad_weight, grad_bias, Tensor(), Tensor()};
    }});

}  // namespace

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight, const Tensor& bias,
                  double eps, bool /*cudnn_enable*/) {
  const int64_t normalized_ndim = static_cast<int64_t>(normalized_shape.size());
  TT_CHECK(normalized_ndim >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., ",
           "containing at least one element, but got normalized_shape = ", normalized_shape);
  TT_CHECK(!weight.defined() || weight.sizes().equals(normalized_shape),
           "Expected weight to be of same shape as normalized_shape, but got ", "weight of shape ", weight.sizes(),
           " and normalized_shape = ", normalized_shape);
  TT_CHECK(!bias.defined() || bias.sizes().equals(normalized_shape),
           "Expected bias to be of same shape as normalized_shape, but got ", "bias of shape ", bias.sizes(),
           " and normalized_shape = ", normalized_shape);
  const int64_t input_ndim = input.dim();
  if (input_ndim < normalized_ndim ||
      !IntArrayRef(input.sizes().data() + (input_ndim - normalized_ndim), normalized_shape.size()).equals(normalized_shape)) {
    std::ostringstream message;
    message << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (int64_t size : normalized_shape) message << ", " << size;
    message << "], but got input of size" << input.sizes();
    throw Error(message.str());
  }
  TT_CHECK(input.is_floating_point(), "\"LayerNormKernelImpl\" not implemented for '", input.scalar_type(), "'");
  for (const Tensor* t : {&weight, &bias}) {
    TT_CHECK(!t->defined() || t->scalar_type() == input.scalar_type(), "expected scalar type ",
             input.scalar_type(), " but found ", t->scalar_type());
  }
  int64_t features = 1;
  for (int64_t size : normalized_shape) features *= size;
  const int64_t rows = features == 0 ? 0 : input.numel() / features;
  const Tensor x = input.contiguous();
  Tensor output, mean, rstd;
  {
    NoGradGuard no_grad;  // the loops' own tensor ops are internal: only native_layer_norm is recorded
    std::tie(output, mean, rstd) =
        native::layer_norm_loops(x, weight.defined() ? weight.contiguous() : weight,
                                 bias.defined() ? bias.contiguous() : bias, rows, features, eps);
  }
  OpAttributes attributes;
  attributes.length = features;
  attributes.dim = normalized_ndim;
  static OpHandle native_layer_norm_op("native_layer_norm");
  record_op(native_layer_norm_op, {x, weight, bias, mean, rstd}, {output}, attributes);
  return output;
}

namespace nn {

LayerNormImpl::LayerNormImpl(const LayerNormOptions& options_) : options(options_) { reset(); }

void LayerNormImpl::reset() {
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", ::tinytorch::empty(options.normalized_shape()));
    bias = register_parameter("bias", ::tinytorch::empty(options.normalized_shape()));
  } else {
    weight = register_parameter("weight", Tensor(), /*requires_grad=*/false);
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (options.elementwise_affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

void LayerNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm(" << IntArrayRef(options.normalized_shape())
         << ", eps=" << options.eps() << ", elementwise_affine=" << options.elementwise_affine() << ")";
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return functional::layer_norm(
      input, functional::LayerNormFuncOptions(options.normalized_shape()).weight(weight).bias(bias).eps(options.eps()));
}

}  // namespace nn
}  // namespace tinytorch
