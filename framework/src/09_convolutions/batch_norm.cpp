// Module 09 (Convolutions), the given half of batch normalisation: torch::batch_norm (LibTorch's
// checks and messages, the recorded op, its derivative), F::batch_norm and nn::BatchNorm1d/2d. The
// loops are the learner's (batch_norm_loops.cpp).
#include <ostream>

#include "tinytorch/spatial_kernels.h"
#include "tinytorch/autograd.h"
#include "tinytorch/derivative.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/batchnorm.h"
#include "tinytorch/normalization.h"

namespace tinytorch {
namespace {

void check_per_channel(const char* name, const Tensor& t, int64_t channels) {
  if (!t.defined()) return;
  TT_CHECK(t.numel() == channels, name, " should contain ", channels, " elements not ", t.numel());
}

// The op records its batch statistics as extra inputs (they need no gradient), so that its node can
// keep them: inputs {input, weight, bias, mean, invstd}; keepdim = training.
const RegisterDerivative batch_norm_derivative("native_batch_norm", {
    "NativeBatchNormBackward0",
    [](SaveForBackward& save) {
      save.input(0);  // input
      save.input(1);  // weight
      save.input(3);  // mean used
      save.input(4);  // invstd used
    },
    [](const BackwardContext& ctx) -> tensor_list {
      TT_CHECK(!GradMode::is_enabled() || !ctx.grad().requires_grad(),
               "double backward through batch_norm (create_graph=true) is not supported by TinyTorch yet");
      const Tensor& input = ctx.saved(0);
      auto [grad_input, grad_weight, grad_bias] = native::batch_norm_backward_loops(
          ctx.grad().contiguous(), input, ctx.saved(1), ctx.saved(2), ctx.saved(3), ctx.attributes.keepdim,
          {ctx.needs_input_grad(0), ctx.needs_input_grad(1) && ctx.saved(1).defined(),
           ctx.needs_input_grad(2)});
      return {grad_input, grad_weight, grad_bias, Tensor(), Tensor()};
    }});

}  // namespace

Tensor batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                  const Tensor& running_var, bool training, double momentum, double eps, bool /*cudnn_enabled*/) {
  TT_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dimensions (N, C, ...), but got ",
           input.sizes());
  const int64_t channels = input.size(1);
  check_per_channel("running_mean", running_mean, channels);
  check_per_channel("running_var", running_var, channels);
  check_per_channel("weight", weight, channels);
  check_per_channel("bias", bias, channels);
  TT_CHECK(training || (running_mean.defined() && running_var.defined()),
           "running_mean and running_var must be defined in evaluation mode");
  TT_CHECK(input.is_floating_point(), "\"batch_norm\" not implemented for '", input.scalar_type(), "'");
  for (const Tensor* t : {&weight, &bias, &running_mean, &running_var}) {
    TT_CHECK(!t->defined() || t->scalar_type() == input.scalar_type(), "expected scalar type ",
             input.scalar_type(), " but found ", t->scalar_type());
  }
  const Tensor x = input.contiguous();
  Tensor output, mean, invstd;
  {
    // The running statistics are updated in place, outside any graph (they are buffers).
    NoGradGuard no_grad;
    std::tie(output, mean, invstd) = native::batch_norm_loops(
        x, weight.defined() ? weight.contiguous() : weight, bias.defined() ? bias.contiguous() : bias,
        running_mean, running_var, training, momentum, eps);
  }
  OpAttributes attributes;
  attributes.keepdim = training;
  static OpHandle native_batch_norm_op("native_batch_norm");
  record_op(native_batch_norm_op, {x, weight, bias, mean, invstd}, {output}, attributes);
  return output;
}

namespace nn {
namespace functional {

Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                  const BatchNormFuncOptions& options) {
  if (options.training()) {
    TT_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dimensions (N, C, ...), but got ",
             input.sizes());
    int64_t values_per_channel = input.size(0);
    for (int64_t d = 2; d < input.dim(); ++d) values_per_channel *= input.size(d);
    TT_CHECK(values_per_channel != 1, "Expected more than 1 value per channel when training, got input size ",
             input.sizes());
  }
  return ::tinytorch::batch_norm(input, options.weight(), options.bias(), running_mean, running_var,
                                 options.training(), options.momentum().value_or(0.1), options.eps());
}

}  // namespace functional

template <size_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset() {
  if (options.affine()) {
    weight = this->register_parameter("weight", empty({options.num_features()}));
    bias = this->register_parameter("bias", empty({options.num_features()}));
  } else {
    weight = this->register_parameter("weight", Tensor(), /*requires_grad=*/false);
    bias = this->register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  if (options.track_running_stats()) {
    running_mean = this->register_buffer("running_mean", zeros({options.num_features()}));
    running_var = this->register_buffer("running_var", ones({options.num_features()}));
    num_batches_tracked = this->register_buffer("num_batches_tracked", zeros({}, kLong));
  } else {
    running_mean = this->register_buffer("running_mean", Tensor());
    running_var = this->register_buffer("running_var", Tensor());
    num_batches_tracked = this->register_buffer("num_batches_tracked", Tensor());
  }
  reset_parameters();
}

template <size_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset_running_stats() {
  if (!options.track_running_stats()) return;
  NoGradGuard no_grad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

template <size_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset_parameters() {
  reset_running_stats();
  if (options.affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

template <size_t D, typename Derived>
void BatchNormImplBase<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::BatchNorm" << D << "d(" << options.num_features()
         << ", eps=" << options.eps() << ", momentum=";
  if (options.momentum().has_value()) {
    stream << *options.momentum();
  } else {
    stream << "None";
  }
  stream << ", affine=" << options.affine() << ", track_running_stats=" << options.track_running_stats() << ")";
}

// LibTorch's BatchNormImplBase::forward: count the batch, pick the averaging factor, normalise.
template <size_t D, typename Derived>
Tensor BatchNormImplBase<D, Derived>::forward(const Tensor& input) {
  check_input_dim(input);
  double average_factor = options.momentum().value_or(0.0);
  if (this->is_training() && options.track_running_stats() && num_batches_tracked.defined()) {
    NoGradGuard no_grad;
    num_batches_tracked.add_(1);
    if (!options.momentum().has_value()) average_factor = 1.0 / num_batches_tracked.item<double>();
  }
  return functional::batch_norm(input, running_mean, running_var,
                                functional::BatchNormFuncOptions()
                                    .weight(weight)
                                    .bias(bias)
                                    .training(this->is_training() || !options.track_running_stats())
                                    .momentum(average_factor)
                                    .eps(options.eps()));
}

template class BatchNormImplBase<1, BatchNorm1dImpl>;
template class BatchNormImplBase<2, BatchNorm2dImpl>;

BatchNorm1dImpl::BatchNorm1dImpl(const BatchNormOptions& options_) : BatchNormImplBase(options_) { reset(); }

void BatchNorm1dImpl::check_input_dim(const Tensor& input) const {
  TT_CHECK(input.dim() == 2 || input.dim() == 3, "expected 2D or 3D input (got ", input.dim(), "D input)");
}

BatchNorm2dImpl::BatchNorm2dImpl(const BatchNormOptions& options_) : BatchNormImplBase(options_) { reset(); }

void BatchNorm2dImpl::check_input_dim(const Tensor& input) const {
  TT_CHECK(input.dim() == 4, "expected 4D input (got ", input.dim(), "D input)");
}

}  // namespace nn
}  // namespace tinytorch
