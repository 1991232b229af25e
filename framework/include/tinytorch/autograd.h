#pragma once
// Module 06 (Autograd): LibTorch's autograd API.
//   tensor.requires_grad_(), torch::requires_grad() on factories, .backward(), .grad(), .grad_fn(),
//   .detach(), .retain_grad(), torch::NoGradGuard / AutoGradMode (tinytorch/dispatch.h),
//   torch::autograd::grad / backward (autograd/engine.h), torch::autograd::Function<T> (custom_function.h).
//
// Declarations only: a program of modules 01-05 includes this header (through torch.h) and never
// needs a module 06 symbol to link. When module 06 is linked, its engine registers itself before
// main() (framework/src/06_autograd/registration.cpp); enable_autograd() does the same explicitly.
#include "tinytorch/autograd/custom_function.h"
#include "tinytorch/autograd/engine.h"
#include "tinytorch/autograd/node.h"
#include "tinytorch/dispatch.h"

namespace tinytorch {

// Registers module 06's gradient engine with the dispatch hook. Idempotent; it already ran if
// module 06 is linked, so LibTorch programs never call it.
void enable_autograd();

namespace autograd {
using Variable = Tensor;
}  // namespace autograd

}  // namespace tinytorch
