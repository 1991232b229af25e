// Module 08 (Training), lesson section "3. Gradient clipping": torch::nn::utils::clip_grad_norm_.
// clip_grad_value_ below is given, as a model of working on gradients in place.
//
// A parameter's gradient is p.grad() (undefined until a backward pass reaches p). It is a Tensor
// handle: `Tensor grad = p.grad(); grad.mul_(c);` scales the parameter's own gradient in place.
// Do it under a NoGradGuard, as every optimizer does, so that the edit is never recorded in a graph.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/nn/utils/clip_grad.h"

namespace tinytorch {
namespace nn {
namespace utils {

// TODO: clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite) -> the total norm,
//   LibTorch's (lesson section 3).
//   Contract: the norm of order norm_type of all the defined gradients taken as ONE vector (infinity:
//   the largest |element|), computed in double; every defined gradient is then multiplied in place
//   (unrecorded by autograd) by LibTorch's clip coefficient, max_norm / (total_norm + 1e-6) clamped
//   to at most 1, which leaves small gradients alone and lets a NaN norm reach the gradients;
//   parameters without a gradient are skipped; with none at all the result is 0.0. Returns the norm
//   measured before clipping.
//   Errors: norm_type <= 0 -> "clip_grad_norm_: norm_type must be positive (2 for the Euclidean
//   norm, infinity for the largest element), but got 0"; with error_if_nonfinite, a NaN or infinite
//   norm -> LibTorch's "The total norm of order 2 for gradients from `parameters` is non-finite, so
//   it cannot be clipped. To disable this error and scale the gradients with the non-finite norm
//   anyway, set `error_if_nonfinite=false`".
//   Example: gradients [3, 4] and [12]: norm sqrt(9 + 16 + 144) = 13; with max_norm 1 they become
//   [3, 4] / 13 and [12] / 13 (norm 1), and 13 is returned. With norm_type infinity the norm is 12.
double clip_grad_norm_(std::vector<Tensor> parameters, double max_norm, double norm_type, bool error_if_nonfinite) {
  // BEGIN SOLUTION name="tinytorch::nn::utils::clip_grad_norm_" lesson="3. Gradient clipping"
  TT_CHECK(norm_type > 0, "clip_grad_norm_: norm_type must be positive (2 for the Euclidean norm, ",
           "infinity for the largest element), but got ", norm_type);
  std::vector<Tensor> grads;
  for (const Tensor& parameter : parameters) {
    if (parameter.grad().defined()) grads.push_back(parameter.grad());
  }
  if (grads.empty()) return 0.0;

  double total_norm = 0.0;
  if (std::isinf(norm_type)) {
    for (const Tensor& grad : grads) total_norm = std::max(total_norm, grad.abs().max().item<double>());
  } else {
    double sum_of_powers = 0.0;
    for (const Tensor& grad : grads) sum_of_powers += grad.abs().pow(norm_type).sum(kDouble).item<double>();
    total_norm = std::pow(sum_of_powers, 1.0 / norm_type);
  }
  TT_CHECK(!error_if_nonfinite || std::isfinite(total_norm), "The total norm of order ", norm_type,
           " for gradients from `parameters` ", "is non-finite, so it cannot be clipped. To disable this error and ",
           "scale the gradients with the non-finite norm anyway, set `error_if_nonfinite=false`");

  const double clip_coef = max_norm / (total_norm + 1e-6);
  if (!(clip_coef >= 1)) {  // also for a NaN norm: LibTorch then turns the gradients to NaN, never hides it
    NoGradGuard no_grad;
    for (Tensor& grad : grads) grad.mul_(clip_coef);
  }
  return total_norm;
  // END SOLUTION
}

void clip_grad_value_(std::vector<Tensor> parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const Tensor& parameter : parameters) {
    Tensor grad = parameter.grad();
    if (!grad.defined()) continue;
    // clamp returns a new tensor; copy it back so the parameter's gradient changes in place.
    grad.copy_(grad.clamp(-clip_value, clip_value));
  }
}

}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
