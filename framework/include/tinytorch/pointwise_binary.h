#pragma once
// torch:: free functions of one op family (LibTorch's spellings: function, in-place `_`, `_out`).
#include "tinytorch/tensor.h"

namespace tinytorch {}  // namespace tinytorch
