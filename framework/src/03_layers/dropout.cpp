// Module 03 (Layers), lesson section "6. Dropout".
// The given code (layers.cpp) has already checked that 0 <= p <= 1; is_training() says whether
// the module is in training mode (module->train() / module->eval()).
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/modules/dropout.h"

namespace tinytorch {
namespace nn {

// TODO: forward(input) -- inverted dropout.
//   1. If !is_training(), or p == 0, or input.numel() == 0: return input itself (no copy, no cost).
//   2. If p == 1: every element is dropped; return input * 0 (input.mul_(0) when options.inplace()).
//   3. Otherwise keep each element with probability q = 1 - p: mask = (rand_like(input) < q), a bool
//      tensor; turn it into input's dtype with .to(input.scalar_type()) and divide it by q, so a kept
//      element is scaled by 1/q and the expected value of every element stays what it was.
//   4. Return input * mask (input.mul_(mask) when options.inplace()).
//   Example: p = 0.5 on ones(1000): about 500 zeros, the others exactly 2.
Tensor DropoutImpl::forward(Tensor input) {
  // BEGIN SOLUTION name="tinytorch::nn::DropoutImpl::forward" lesson="6. Dropout"
  const double p = options.p();
  if (!is_training() || p == 0.0 || input.numel() == 0) return input;
  if (p == 1.0) return options.inplace() ? input.mul_(0) : input * 0;
  const double keep = 1.0 - p;
  Tensor mask = (rand_like(input) < keep).to(input.scalar_type()) / keep;
  return options.inplace() ? input.mul_(mask) : input * mask;
  // END SOLUTION
}

}  // namespace nn
}  // namespace tinytorch
