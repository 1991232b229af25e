#pragma once
// Two tensor functions module 05 needs, with LibTorch's signatures (given code, not the learner's):
//   torch::stack({a, b, c}, dim = 0)   joins same-shaped tensors along a NEW dimension: three [64]
//                                      rows -> one [3, 64] tensor (dtypes promote, as in torch::cat)
//   torch::randperm(n)                 0..n-1 in a random order, kLong, from TinyTorch's generator
//                                      (reproducible under torch::manual_seed; not LibTorch's stream)
#include <cstdint>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/scalar_type.h"
#include "tinytorch/tensor.h"
#include "tinytorch/tensor_options.h"

namespace tinytorch {

Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor randperm(int64_t n, TensorOptions options = kLong);

}  // namespace tinytorch
