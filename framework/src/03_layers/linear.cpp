// Module 03 (Layers), lesson sections "3. Linear: initialisation" and "4. Linear: forward".
// The given code (layers.cpp) has already registered `weight` as an (out_features, in_features)
// tensor and `bias` as an (out_features) tensor, or as an undefined Tensor when the options say
// bias(false); their values are still garbage (torch::empty). You fill them and use them.
#include <cmath>

#include "tinytorch/functions.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/linear.h"

namespace tinytorch {
namespace nn {

// TODO: reset_parameters() -- LibTorch's default initialisation of Linear (lesson section 3): every
//   element of weight, and of bias when it is defined, drawn uniformly from the interval section 3
//   derives from in_features (options.in_features()), using TinyTorch's generator (so
//   torch::manual_seed makes it reproducible). In place: the registered parameters keep their
//   tensors and storage (same data_ptr()). Throws nothing.
//   Example: Linear(4, 3): every weight and bias lies in [-0.5, 0.5], and they differ.
void LinearImpl::reset_parameters() {
  // BEGIN SOLUTION name="tinytorch::nn::LinearImpl::reset_parameters" lesson="3. Linear: initialisation"
  const double bound = 1.0 / std::sqrt(static_cast<double>(options.in_features()));
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
  // END SOLUTION
}

// TODO: forward(input) -> input W^T + b for input of shape (*, in_features) (any number of leading
//   dims, including none and an empty batch): shape (*, out_features) (lesson section 4). Without
//   bias, input W^T.
//   Errors: a wrong input width -> matmul's "mat1 and mat2 shapes cannot be multiplied (1x3 and 2x2)".
//   Example: weight [[1, 2], [3, 4]], bias [10, 20], input [[1, 1]] -> [[13, 27]].
Tensor LinearImpl::forward(const Tensor& input) {
  // BEGIN SOLUTION name="tinytorch::nn::LinearImpl::forward" lesson="4. Linear: forward"
  Tensor output = input.matmul(weight.t());
  if (bias.defined()) output = output + bias;
  return output;
  // END SOLUTION
}

}  // namespace nn
}  // namespace tinytorch
