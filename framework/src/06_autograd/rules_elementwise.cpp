// Backward rules of element-wise arithmetic and matrix products (module 06, given). Every rule is
// written with tensor ops, so that create_graph can differentiate it again.
#include "tinytorch/autograd/functions.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"

namespace tinytorch {
namespace autograd {
namespace generated {
namespace {
// 1.0 where the condition holds, 0.0 elsewhere, in `like`'s dtype.
Tensor as_weight(const Tensor& mask, const Tensor& like) { return mask.to(like.scalar_type()); }
}  // namespace

// out = self - alpha * other: d self = grad, d other = -alpha * grad.
variable_list SubBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  if (should_compute_output(0)) result[0] = sum_to(grad, self_sizes);
  if (should_compute_output(1)) {
    result[1] = sum_to(alpha.toDouble() == 1.0 ? -grad : grad * (-alpha.toDouble()), other_sizes);
  }
  return result;
}

// out = self / other: d self = grad / other, d other = -grad * self / other^2.
variable_list DivBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  const Tensor other = other_.unpack();
  if (should_compute_output(0)) result[0] = sum_to(grad / other, self_sizes);
  if (should_compute_output(1)) result[1] = sum_to(-grad * self_.unpack() / (other * other), other_sizes);
  return result;
}

variable_list NegBackward0::apply(variable_list&& grads) { return {-grads[0]}; }

// out = self^e for a number e: d self = e * self^(e - 1) (0 when e == 0, even at self == 0).
variable_list PowBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  const Tensor self = self_.unpack();
  const double e = exponent.toDouble();
  if (e == 0.0) return {zeros_like(self)};
  return {grad * self.pow(e - 1.0) * e};
}

// out = self^exponent, both tensors: d self = e * self^(e - 1), d exponent = out * log(self)
// (taken as 0 where self == 0, as LibTorch does, instead of 0 * -inf).
variable_list PowBackward1::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  const Tensor self = self_.unpack();
  const Tensor exponent = exponent_.unpack();
  if (should_compute_output(0)) result[0] = sum_to(grad * exponent * self.pow(exponent - 1), self_sizes);
  if (should_compute_output(1)) {
    const Tensor safe_log = (self + as_weight(self.eq(0), self)).log();  // log(1) = 0 where self == 0
    result[1] = sum_to(grad * result_.unpack() * safe_log, exponent_sizes);
  }
  return result;
}

variable_list ExpBackward0::apply(variable_list&& grads) { return {grads[0] * result_.unpack()}; }

variable_list LogBackward0::apply(variable_list&& grads) { return {grads[0] / self_.unpack()}; }

variable_list SqrtBackward0::apply(variable_list&& grads) { return {grads[0] / (result_.unpack() * 2)}; }

// d|x| = sign(x): +1, -1, and 0 at 0.
variable_list AbsBackward0::apply(variable_list&& grads) {
  const Tensor self = self_.unpack();
  return {grads[0] * (as_weight(self.gt(0), self) - as_weight(self.lt(0), self))};
}

// The gradient passes where the input was inside [min, max] (bounds included), 0 where clamped.
variable_list ClampBackward1::apply(variable_list&& grads) {
  const Tensor self = self_.unpack();
  Tensor inside = ones_like(self);
  if (min) inside = inside * as_weight(self.ge(*min), self);
  if (max) inside = inside * as_weight(self.le(*max), self);
  return {grads[0] * inside};
}

// out (b, n, m) = self (b, n, k) @ mat2 (b, k, m), one mm per batch.
variable_list BmmBackward0::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list result(2);
  if (should_compute_output(0)) result[0] = grad.bmm(mat2_.unpack().transpose(1, 2));
  if (should_compute_output(1)) result[1] = self_.unpack().transpose(1, 2).bmm(grad);
  return result;
}

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
