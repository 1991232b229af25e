// Module 04 (Losses), the given part: the public torch:: loss functions (LibTorch's shape and dtype
// checks, then your kernels from losses.cpp, then the derivative declarations of the two kernel
// losses), the reduction helper, cross_entropy_loss's other paths ((N, C, d1, ...) inputs through
// nll_loss_nd, class-probability targets, label smoothing), and two losses written entirely with
// tensor ops: binary_cross_entropy_with_logits and smooth_l1_loss.
#include <cmath>
#include <vector>

#include "tinytorch/activations.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/losses.h"
#include "tinytorch/losses_extra.h"

namespace tinytorch {
namespace {

void check_reduction(int64_t reduction) {
  TT_CHECK(reduction >= Reduction::None && reduction < Reduction::END, "Unknown reduction: ", reduction,
           " (use at::Reduction::None, Mean or Sum)");
}

// nll_loss's checks, in ATen's order, on an (N, C) input and an (N) target.
void check_nll_arguments(const Tensor& self, const Tensor& target, const Tensor& weight) {
  TT_CHECK(target.scalar_type() == kLong, "expected scalar type Long but found ", target.scalar_type());
  TT_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  TT_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  TT_CHECK(no_batch_dim || self.size(0) == target.size(0), "size mismatch (got input: ", self.sizes(),
           ", target: ", target.sizes(), ")");
  TT_CHECK(self.is_floating_point(), "\"nll_loss_out_frame\" not implemented for '", self.scalar_type(), "'");
  const int64_t classes = self.size(-1);
  TT_CHECK(!weight.defined() || weight.numel() == classes, "weight tensor should be defined either for all ",
           classes, " classes or no classes but got weight tensor of shape: ", weight.sizes());
}

// The (N, C) / (N) form the kernels take: a (C) input with a () target is one sample.
struct Batched {
  Tensor input, target;
  bool unbatched;
};
Batched as_batch(const Tensor& self, const Tensor& target) {
  if (self.dim() == 1) return {self.unsqueeze(0), target.reshape({1}), true};
  return {self, target, false};
}

// A 1-sample result for reduction None goes back to the unbatched shape ().
Tensor unbatch(const Tensor& result, bool unbatched, int64_t reduction) {
  return unbatched && reduction == Reduction::None ? result.reshape({}) : result;
}

// Weights in the input's dtype, contiguous, or undefined.
Tensor prepare_weight(const Tensor& weight, ScalarType dtype) {
  return weight.defined() ? native::to_dtype(weight, dtype).contiguous() : Tensor();
}

}  // namespace

namespace native {

Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction) {
  check_reduction(reduction);
  if (reduction == Reduction::Mean) return loss.mean();
  if (reduction == Reduction::Sum) return loss.sum();
  return loss;
}

}  // namespace native

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  check_reduction(reduction);
  const ScalarType type = result_type(self, target);
  TT_CHECK(isFloatingType(type), "\"mse_cpu\" not implemented for '", type, "'");
  return native::mse_loss(self, target, reduction);
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  check_reduction(reduction);
  check_nll_arguments(self, target, weight);
  const Batched batch = as_batch(self, target);
  Tensor result;
  if (on_device(self, target, weight)) {  // module 22's given gather kernel
    result = device_kernel<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t)>(
        "nll_loss", self, target, weight)(batch.input.contiguous(), batch.target.contiguous(), weight, reduction,
                                          ignore_index);
  } else {
    result = native::nll_loss(batch.input.contiguous(), batch.target.contiguous(),
                              prepare_weight(weight, self.scalar_type()), reduction, ignore_index);
  }
  result = unbatch(result, batch.unbatched, reduction);
  OpAttributes attributes;  // for module 06's backward: which reduction and which index is ignored
  attributes.dim = reduction;
  attributes.index = ignore_index;
  static OpHandle nll_loss_op("nll_loss");
  record_op(nll_loss_op, {self, target, weight}, {result}, attributes);
  return result;
}

namespace {
void check_no_weight_gradient(const SaveForBackward& save) {
  const Tensor& weight = save.op.inputs[2];
  TT_CHECK(!weight.defined() || !weight.requires_grad(), "the derivative for 'weight' is not implemented.");
}

// A per-sample gradient `grad` for reduction None, or one number otherwise, shaped to broadcast
// against a (N, ...) per-element coefficient.
Tensor broadcastable(const Tensor& grad, int64_t reduction, int64_t trailing_dims) {
  if (reduction != Reduction::None) return grad;
  Tensor g = grad;
  for (int64_t i = 0; i < trailing_dims; ++i) g = g.unsqueeze(-1);
  return g;
}

// loss_n = -w[t_n] * self[n][t_n]: the gradient is -w[t_n] at the target class of each sample
// (divided by the total weight for Mean), 0 elsewhere and for ignored samples.
const RegisterDerivative nll_loss_derivative("nll_loss", {
    "NllLossBackward0",
    [](SaveForBackward& save) {
      check_no_weight_gradient(save);
      save.input(1);  // target
      save.input(2);  // weight (may be undefined)
      save.input_sizes(0);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef self_sizes = ctx.saved_sizes(0);
      const int64_t reduction = ctx.attributes.dim;
      const int64_t ignore_index = ctx.attributes.index;
      const int64_t classes = self_sizes.back();
      const int64_t batch = self_sizes.size() == 2 ? self_sizes[0] : 1;
      if (on_device(ctx.grad(), ctx.saved(0))) {  // the same gradient from module 22's given kernel
        return {device_kernel<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, int64_t, int64_t)>(
                    "nll_loss_backward", ctx.grad(), ctx.saved(0), ctx.saved(1))(
                    ctx.grad(), ctx.saved(0).reshape({batch}).contiguous(), ctx.saved(1), self_sizes, reduction,
                    ignore_index),
                Tensor(), Tensor()};
      }
      const Tensor targets = ctx.saved(0).reshape({batch}).contiguous();
      const Tensor& weight = ctx.saved(1);
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
      const std::vector<int64_t> grad_sizes =
          reduction == Reduction::None ? std::vector<int64_t>{batch} : std::vector<int64_t>{};
      const Tensor g = broadcastable(ctx.grad().reshape(grad_sizes), reduction, 1);
      return {(g * coefficient.to(g.scalar_type())).reshape(self_sizes), Tensor(), Tensor()};
    }});
}  // namespace

namespace {
// The class weights shaped (1, C, 1, ..., 1) to broadcast against an (N, C, d1, ...) input.
Tensor class_weight_view(const Tensor& weight, const Tensor& input) {
  if (input.dim() <= 1) return weight;
  std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
  shape[1] = weight.size(0);
  return weight.view(shape);
}

// Soft targets: loss = -sum over classes of w_c * target_c * log_softmax(self)_c at each position;
// mean divides by the number of positions (not by the weights).
Tensor cross_entropy_with_probabilities(const Tensor& self, const Tensor& target, const Tensor& weight,
                                        int64_t reduction, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t classes = self.size(class_dim);
  TT_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == classes),
           "cross_entropy: weight tensor should be defined either for all ", classes,
           " classes or no classes but got weight tensor of shape: ", weight.sizes());
  const Tensor log_probs = log_softmax(self, class_dim);
  Tensor smoothed = target;
  if (label_smoothing > 0.0) {
    TT_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    smoothed = target * (1 - label_smoothing) + label_smoothing / static_cast<double>(classes);
  }
  Tensor product = log_probs * smoothed;
  if (weight.defined()) product = product * class_weight_view(prepare_weight(weight, log_probs.scalar_type()), log_probs);
  if (reduction == Reduction::Sum) return -product.sum();
  if (reduction == Reduction::None) return -product.sum({class_dim});
  if (log_probs.numel() == 0) return -product.sum().fill_(NAN);
  return -product.sum() / (log_probs.numel() / classes);
}

// Class indices with label smoothing: (1 - eps) * nll + (eps / C) * sum over classes of -w_c * log p_c,
// the second term with nll's ignore rule and, for mean, nll's denominator.
Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor log_probs = log_softmax(self, class_dim);
  const Tensor nll = nll_loss_nd(log_probs, target, weight, reduction, ignore_index);
  const int64_t classes = log_probs.size(class_dim);
  const Tensor class_weight = prepare_weight(weight, log_probs.scalar_type());
  const Tensor kept = target.ne(ignore_index);
  Tensor smooth = class_weight.defined() ? -(log_probs * class_weight_view(class_weight, log_probs)).sum({class_dim})
                                         : -log_probs.sum({class_dim});
  smooth = smooth.masked_fill(kept.logical_not(), 0.0);
  Tensor reduced = smooth;
  if (reduction == Reduction::Mean) {
    reduced = class_weight.defined()
                  ? smooth.sum() / class_weight.index_select(0, target.masked_select(kept).reshape({-1})).sum()
                  : smooth.sum() / kept.sum();
  } else if (reduction == Reduction::Sum) {
    reduced = smooth.sum();
  }
  return nll * (1 - label_smoothing) + reduced * (label_smoothing / static_cast<double>(classes));
}
}  // namespace

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                          int64_t ignore_index, double label_smoothing) {
  check_reduction(reduction);
  if (self.sizes() == target.sizes()) {
    // A target of the input's shape holds class probabilities.
    TT_CHECK(isFloatingType(target.scalar_type()),
             "Expected floating point type for target with class probabilities, got ", target.scalar_type());
    TT_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
    return cross_entropy_with_probabilities(self, target, weight, reduction, label_smoothing);
  }
  if (label_smoothing > 0.0) {
    TT_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing);
  }
  if (self.dim() > 2) return nll_loss_nd(log_softmax(self, 1), target, weight, reduction, ignore_index);
  TT_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  TT_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const Batched batch = as_batch(self, target);
  TT_CHECK(batch.input.size(0) == batch.target.size(0), "Expected input batch_size (", batch.input.size(0),
           ") to match target batch_size (", batch.target.size(0), ").");
  return unbatch(native::cross_entropy(batch.input, batch.target, weight, reduction, ignore_index), batch.unbatched,
                 reduction);
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction) {
  check_reduction(reduction);
  TT_CHECK(self.sizes() == target.sizes(), "Using a target size (", target.sizes(),
           ") that is different to the input size (", self.sizes(),
           ") is deprecated. Please ensure they have the same size.");
  TT_CHECK(target.scalar_type() == self.scalar_type(), "Found dtype ", target.scalar_type(), " but expected ",
           self.scalar_type());
  TT_CHECK(self.is_floating_point(), "\"binary_cross_entropy\" not implemented for '", self.scalar_type(), "'");
  const Tensor full_weight =
      weight.defined() ? native::to_dtype(weight, self.scalar_type()).expand(self.sizes()).contiguous() : Tensor();
  Tensor result = native::binary_cross_entropy(self.contiguous(), target.contiguous(), full_weight, reduction);
  OpAttributes attributes;
  attributes.dim = reduction;
  static OpHandle binary_cross_entropy_op("binary_cross_entropy");
  record_op(binary_cross_entropy_op, {self, target, weight}, {result}, attributes);
  return result;
}

namespace {
// loss = -w (y log p + (1 - y) log(1 - p)):
//   d p = w (p - y) / (p (1 - p)), with p (1 - p) kept >= 1e-12 as LibTorch does;
//   d y = w (log(1 - p) - log p), each log clamped at -100 like the forward.
const RegisterDerivative binary_cross_entropy_derivative("binary_cross_entropy", {
    "BinaryCrossEntropyBackward0",
    [](SaveForBackward& save) {
      check_no_weight_gradient(save);
      save.input(0);  // self (p)
      save.input(1);  // target (y)
      save.input(2);  // weight
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& p = ctx.saved(0);
      const Tensor& y = ctx.saved(1);
      const Tensor& weight = ctx.saved(2);
      const int64_t reduction = ctx.attributes.dim;
      Tensor g = broadcastable(ctx.grad(), reduction, 0);
      if (reduction == Reduction::Mean) g = g / static_cast<double>(p.numel());
      if (weight.defined()) g = g * weight.to(p.scalar_type());
      tensor_list result(3);
      if (ctx.needs_input_grad(0)) result[0] = g * (p - y) / (p * (1 - p)).clamp(1e-12);
      if (ctx.needs_input_grad(1)) result[1] = g * ((1 - p).log().clamp(-100) - p.log().clamp(-100));
      return result;
    }});
}  // namespace

// Stable form of -[y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))] = (1 - y) x + log(1 + exp(-x)),
// with log(1 + exp(-x)) = m + log(exp(-m) + exp(-x - m)), m = max(-x, 0): no exp() of a positive number.
// pos_weight l scales the positive term: (1 - y) x + (1 + (l - 1) y) log(1 + exp(-x)).
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const Tensor& weight,
                                        const Tensor& pos_weight, int64_t reduction) {
  check_reduction(reduction);
  TT_CHECK(self.sizes() == target.sizes(), "Target size (", target.sizes(), ") must be the same as input size (",
           self.sizes(), ")");
  TT_CHECK(self.is_floating_point(), "\"binary_cross_entropy_with_logits\" not implemented for '",
           self.scalar_type(), "'");
  const Tensor m = (-self).clamp(0);
  const Tensor log_one_plus_exp = ((-m).exp() + (-self - m).exp()).log() + m;  // log(1 + exp(-x))
  Tensor loss;
  if (pos_weight.defined()) {
    const Tensor log_weight = (pos_weight - 1) * target + 1;
    loss = (1 - target) * self + log_weight * log_one_plus_exp;
  } else {
    loss = (1 - target) * self + log_one_plus_exp;
  }
  if (weight.defined()) loss = loss * weight;
  return native::apply_loss_reduction(loss, reduction);
}

// |d| < beta: 0.5 d^2 / beta (smooth near 0); else |d| - 0.5 beta (linear: outliers pull gently).
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  check_reduction(reduction);
  TT_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  const ScalarType type = result_type(self, target);
  TT_CHECK(isFloatingType(type), "\"smooth_l1_cpu\" not implemented for '", type, "'");
  const Tensor distance = (self - target).abs();
  if (beta == 0.0) return native::apply_loss_reduction(distance, reduction);  // L1
  const Tensor inside = distance.lt(beta).to(distance.scalar_type());      // 1 where quadratic
  const Tensor capped = distance.clamp(std::nullopt, beta);                // keeps inf * 0 out of the sum
  const Tensor loss = inside * (capped * capped * (0.5 / beta)) + (1 - inside) * (distance - 0.5 * beta);
  return native::apply_loss_reduction(loss, reduction);
}

}  // namespace tinytorch
