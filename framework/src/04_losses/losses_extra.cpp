// The rest of ATen's losses (given code, tinytorch/losses_extra.h): each written as ATen writes it in
// aten/src/ATen/native/Loss.cpp and LossNLL2d.cpp, from differentiable tensor ops, so that autograd
// follows without a derivative declaration.
#include "tinytorch/losses_extra.h"

#include <cmath>
#include <vector>

#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/shape_layout.h"

namespace tinytorch {
namespace {

// The floating dtype check of ATen's TensorIterator kernels ("huber_cpu" not implemented for 'Long').
void check_floating(const Tensor& self, const Tensor& target, const char* kernel) {
  const ScalarType type = result_type(self, target);
  TT_CHECK(isFloatingType(type), "\"", kernel, "\" not implemented for '", type, "'");
}

}  // namespace

// ---- Class-index losses over spatial positions ----

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                  int64_t ignore_index) {
  TT_CHECK(target.dim() == 3, "only batches of spatial targets supported (3D tensors) but got targets of dimension: ",
           target.dim());
  TT_CHECK(self.dim() == 4, "only batches of spatial inputs supported (4D tensors), but got input of dimension: ",
           self.dim());
  TT_CHECK(!weight.defined() || weight.numel() == self.size(1),
           "weight tensor should be defined either for all or no classes");
  TT_CHECK(self.size(0) == target.size(0) && self.size(2) == target.size(1) && self.size(3) == target.size(2),
           "size mismatch (got input: ", self.sizes(), " , target: ", target.sizes());
  // Every (n, h, w) position is one row of an (N * H * W, C) problem; the mean over positions (with
  // or without class weights) is the flattened problem's mean.
  const Tensor rows = self.permute({0, 2, 3, 1}).reshape({-1, self.size(1)});
  const Tensor loss = nll_loss(rows, target.reshape({-1}), weight, reduction, ignore_index);
  return reduction == Reduction::None ? loss.view(target.sizes()) : loss;
}

Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                   int64_t ignore_index) {
  TT_CHECK(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  TT_CHECK(self.dim() == 1 || self.size(0) == target.size(0), "Expected input batch_size (", self.size(0),
           ") to match target batch_size (", target.size(0), ").");
  if (self.dim() <= 2) return nll_loss(self, target, weight, reduction, ignore_index);
  if (self.dim() == 4) return nll_loss2d(self, target, weight, reduction, ignore_index);
  // (N, C, d1, ..., dk) as (N, C, 1, d1 * ... * dk): one nll_loss2d.
  std::vector<int64_t> out_size{self.size(0)};
  for (int64_t d = 2; d < self.dim(); ++d) out_size.push_back(self.size(d));
  TT_CHECK(target.sizes().slice(1) == self.sizes().slice(2), "Expected target size ", IntArrayRef(out_size),
           ", got ", target.sizes());
  const bool empty_input = self.numel() == 0;
  const Tensor input = empty_input ? self.reshape({self.size(0), self.size(1), 0, 0})
                                   : self.contiguous().view({self.size(0), self.size(1), 1, -1});
  const Tensor flat_target =
      target.numel() == 0 ? target.reshape({target.size(0), 0, 0}) : target.contiguous().view({target.size(0), 1, -1});
  const Tensor loss = nll_loss2d(input, flat_target, weight, reduction, ignore_index);
  return reduction == Reduction::None ? loss.view(out_size) : loss;
}

// ---- Regression losses ----

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return native::apply_loss_reduction((self - target).abs(), reduction);
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  TT_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  check_floating(self, target, "huber_cpu");
  const Tensor distance = (self - target).abs();
  const Tensor inside = distance.lt(delta).to(distance.scalar_type());  // 1 where quadratic
  const Tensor capped = distance.clamp(std::nullopt, delta);           // keeps inf * 0 out of the sum
  const Tensor loss = inside * (capped * capped * 0.5) + (1 - inside) * ((distance - 0.5 * delta) * delta);
  return native::apply_loss_reduction(loss, reduction);
}

// ---- Margin and embedding losses (targets +1 / -1) ----

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return native::apply_loss_reduction((-self * target).exp().log1p(), reduction);
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                           int64_t reduction) {
  return native::apply_loss_reduction((-target * (input1 - input2) + margin).clamp_min(0), reduction);
}

Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin, int64_t reduction) {
  const Tensor zeros = zeros_like(self);
  const Tensor margin_clamp = (margin - self).clamp_min(0);
  const Tensor output_margin = where(target != 1, margin_clamp, zeros);
  const Tensor output_self = where(target != -1, self, zeros);
  return native::apply_loss_reduction(output_margin + output_self, reduction);
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                             int64_t reduction) {
  const int64_t target_dim = target.dim();
  TT_CHECK(target_dim == 1 || target_dim == 0, "0D or 1D target tensor expected, multi-target not supported");
  if (target_dim == 1) {
    TT_CHECK(input1.dim() == 2 && input2.dim() == 2, "1D target tensor expects 2D input tensors, but found inputs with sizes ",
             input1.sizes(), " and ", input2.sizes(), ".");
  } else {
    TT_CHECK(input1.dim() == 1 && input2.dim() == 1, "0D target tensor expects 1D input tensors, but found inputs with sizes ",
             input1.sizes(), " and ", input2.sizes(), ".");
  }
  constexpr double kEpsilon = 1e-12;  // keeps a zero vector's magnitude off 0
  const Tensor prod_sum = (input1 * input2).sum({target_dim});
  const Tensor mag_square1 = (input1 * input1).sum({target_dim}) + kEpsilon;
  const Tensor mag_square2 = (input2 * input2).sum({target_dim}) + kEpsilon;
  const Tensor cos = prod_sum / (mag_square1 * mag_square2).sqrt();
  const Tensor zeros = zeros_like(cos);
  const Tensor output_pos = where(target == 1, 1 - cos, zeros);
  const Tensor output_neg = where(target == -1, (cos - margin).clamp_min(0), zeros);
  return native::apply_loss_reduction(output_pos + output_neg, reduction);
}

// ---- Distances ----

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim, double eps) {
  const ScalarType common = result_type(x1, x2);
  TT_CHECK(isFloatingType(common), "expected common dtype to be floating point, yet common dtype is ", common);
  const std::vector<Tensor> expanded = broadcast_tensors({x1.to(common), x2.to(common)});
  // Each input is divided by its norm first (the result stays within [-1, 1]). The norms are clamped
  // to eps as LibTorch does it, in place under no_grad: the gradient flows as if unclamped.
  auto clamped_norm = [&](const Tensor& x) {
    const Tensor norm = (x * x).sum({dim}, /*keepdim=*/true).sqrt();
    return norm + (norm.clamp_min(eps) - norm).detach();
  };
  return ((expanded[0] / clamped_norm(expanded[0])) * (expanded[1] / clamped_norm(expanded[1]))).sum({dim});
}

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  const int64_t output_dim = std::max(x1.dim(), x2.dim());
  return (x1 - x2 + eps).norm(Scalar(p), {output_dim - 1}, keepdim);
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin,
                           double p, double eps, bool swap, int64_t reduction) {
  TT_CHECK(anchor.dim() == positive.dim() && positive.dim() == negative.dim(),
           "All inputs should have same dimension but got ", anchor.dim(), "D, ", positive.dim(), "D and ",
           negative.dim(), "D inputs.");
  const Tensor dist_pos = pairwise_distance(anchor, positive, p, eps);
  Tensor dist_neg = pairwise_distance(anchor, negative, p, eps);
  if (swap) dist_neg = dist_neg.min(pairwise_distance(positive, negative, p, eps));
  return native::apply_loss_reduction((margin + dist_pos - dist_neg).clamp_min(0), reduction);
}

// ---- Poisson negative log-likelihood ----

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction) {
  Tensor loss = log_input ? input.exp() - target * input : input - target * (input + eps).log();
  if (full) {
    constexpr double kPi = 3.14159265358979323846;
    // Stirling's approximation of log(target!), counted only where it is accurate enough (target > 1).
    const Tensor stirling_term = target * target.log() - target + 0.5 * (2 * kPi * target).log();
    loss = loss + stirling_term.masked_fill(target <= 1, 0);
  }
  return native::apply_loss_reduction(loss, reduction);
}

}  // namespace tinytorch
