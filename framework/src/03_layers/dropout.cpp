// Module 03 (Layers), lesson section "6. Dropout".
// The given code (layers.cpp) has already checked that 0 <= p <= 1; is_training() says whether
// the module is in training mode (module->train() / module->eval()).
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/modules/dropout.h"

namespace tinytorch {
namespace nn {

// TODO: forward(input) -- inverted dropout (lesson section 6). In training mode each element is
//   zeroed with probability p (options.p()), drawn from TinyTorch's generator, fresh on every call,
//   and each survivor is scaled so that every element's expected value is unchanged. In eval mode,
//   or with p == 0, or for an empty input, the result is input itself (no copy). p == 1 zeroes
//   everything. With options.inplace() the input is modified and returned. Throws nothing (p was
//   checked when the module was built).
//   Example: p = 0.5 on ones(1000) in training mode: about 500 zeros, the others exactly 2.
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
