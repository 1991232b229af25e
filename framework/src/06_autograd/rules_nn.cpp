// Backward rules of the activations (module 02) and the kernel losses (module 04), given.
// Saved outputs make most of them cheap: sigmoid' = y (1 - y), tanh' = 1 - y^2.
#include <cmath>

#include "tinytorch/activations.h"
#include "tinytorch/autograd/functions.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/losses.h"

namespace tinytorch {
namespace autograd {
namespace generated {
namespace {

// The standard normal CDF, element by element (there is no erf op to build it from).
Tensor normal_cdf(const Tensor& x) {
  const Tensor input = x.contiguous();
  Tensor out = empty_like(input);
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "gelu_backward", [&] {
    const scalar_t* in = static_cast<const scalar_t*>(input.data_ptr());
    scalar_t* result = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t i = 0; i < input.numel(); ++i) result[i] = static_cast<scalar_t>(0.5 * std::erfc(-in[i] * M_SQRT1_2));
  });
  return out;
}

// A per-sample gradient `grad` for reduction None, or one number otherwise, shaped to broadcast
// against a (N, ...) per-element coefficient.
Tensor broadcastable(const Tensor& grad, int64_t reduction, int64_t trailing_dims) {
  if (reduction != Reduction::None) return grad;
  Tensor g = grad;
  for (int64_t i = 0; i < trailing_dims; ++i) g = g.unsqueeze(-1);
  return g;
}

}  // namespace

variable_list SigmoidBackward0::apply(variable_list&& grads) {
  const Tensor y = result_.unpack();
  return {grads[0] * y * (1 - y)};
}

variable_list TanhBackward0::apply(variable_list&& grads) {
  const Tensor y = result_.unpack();
  return {grads[0] * (1 - y * y)};
}

// Exact GELU x * Phi(x): Phi(x) + x * phi(x). Tanh form: product rule on 0.5 x (1 + tanh(inner)).
variable_list GeluBackward0::apply(variable_list&& grads) {
  const Tensor x = self_.unpack();
  if (!tanh_approximation) {
    const Tensor pdf = (x * x * -0.5).exp() * (0.5 * M_2_SQRTPI * M_SQRT1_2);  // 1 / sqrt(2 pi)
    return {grads[0] * (normal_cdf(x) + x * pdf)};
  }
  const double beta = M_SQRT2 * M_2_SQRTPI * 0.5;  // sqrt(2 / pi)
  const double kappa = 0.044715;
  const Tensor inner_t = tanh((x + x * x * x * kappa) * beta);
  const Tensor left_derivative = (inner_t + 1) * 0.5;
  const Tensor right_derivative = x * 0.5 * (1 - inner_t * inner_t) * ((x * x * (3 * kappa) + 1) * beta);
  return {grads[0] * (left_derivative + right_derivative)};
}

// y = softmax(x): dx = y * (g - sum(g * y)) along dim: the Jacobian applied without building it.
variable_list SoftmaxBackward0::apply(variable_list&& grads) {
  const Tensor y = result_.unpack();
  const Tensor& g = grads[0];
  const Tensor dx = y * (g - (g * y).sum({dim}, /*keepdim=*/true));
  return {dx.scalar_type() == self_scalar_type ? dx : dx.to(self_scalar_type)};
}

// y = log_softmax(x): dx = g - softmax(x) * sum(g) along dim, with softmax(x) = exp(y).
variable_list LogSoftmaxBackward0::apply(variable_list&& grads) {
  const Tensor& g = grads[0];
  const Tensor dx = g - result_.unpack().exp() * g.sum({dim}, /*keepdim=*/true);
  return {dx.scalar_type() == self_scalar_type ? dx : dx.to(self_scalar_type)};
}

// loss_n = -w[t_n] * self[n][t_n]: the gradient is -w[t_n] at the target class of each sample
// (divided by the total weight for Mean), 0 elsewhere and for ignored samples.
variable_list NllLossBackward0::apply(variable_list&& grads) {
  const int64_t classes = self_sizes.back();
  const int64_t batch = self_sizes.size() == 2 ? self_sizes[0] : 1;
  const Tensor targets = target_.unpack().reshape({batch}).contiguous();
  const Tensor weight = weight_.unpack();
  const Tensor weights = weight.defined() ? weight.to(kDouble).contiguous() : Tensor();
  Tensor coefficient = zeros({batch, classes}, kDouble);
  double* c = coefficient.data_ptr<double>();
  const int64_t* t = targets.data_ptr<int64_t>();
  double total_weight = 0;
  for (int64_t n = 0; n < batch; ++n) {
    if (t[n] == ignore_index) continue;
    TT_CHECK(t[n] >= 0 && t[n] < classes, "Target ", t[n], " is out of bounds.");
    const double w = weights.defined() ? weights.data_ptr<double>()[t[n]] : 1.0;
    c[n * classes + t[n]] = -w;
    total_weight += w;
  }
  if (reduction == Reduction::Mean) coefficient = coefficient / total_weight;
  const Tensor g = broadcastable(grads[0].reshape(reduction == Reduction::None ? std::vector<int64_t>{batch}
                                                                                : std::vector<int64_t>{}),
                                 reduction, 1);
  return {(g * coefficient.to(self_scalar_type)).reshape(self_sizes), Tensor(), Tensor()};
}

// loss = -w (y log p + (1 - y) log(1 - p)):
//   d p = w (p - y) / (p (1 - p)), with p (1 - p) kept >= 1e-12 as LibTorch does;
//   d y = w (log(1 - p) - log p), each log clamped at -100 like the forward.
variable_list BinaryCrossEntropyBackward0::apply(variable_list&& grads) {
  const Tensor p = self_.unpack();
  const Tensor y = target_.unpack();
  const Tensor weight = weight_.unpack();
  Tensor g = broadcastable(grads[0], reduction, 0);
  if (reduction == Reduction::Mean) g = g / static_cast<double>(p.numel());
  if (weight.defined()) g = g * weight.to(p.scalar_type());
  variable_list result(3);
  if (should_compute_output(0)) result[0] = g * (p - y) / (p * (1 - p)).clamp(1e-12);
  if (should_compute_output(1)) result[1] = g * ((1 - p).log().clamp(-100) - p.log().clamp(-100));
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
