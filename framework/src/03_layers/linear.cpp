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

// TODO: reset_parameters() -- LibTorch's default initialisation, drawn from TinyTorch's generator.
//   1. bound = 1 / sqrt(in_features), with in_features = options.in_features() (use double arithmetic).
//   2. Fill weight in place with values uniform on [-bound, bound]: init::uniform_(weight, -bound, bound).
//      (This is init::kaiming_uniform_(weight, sqrt(5)): gain sqrt(2 / (1 + 5)) times sqrt(3 / fan_in).)
//   3. If bias.defined(), fill it the same way, with the same bound.
//   Fill in place: the registered parameter and `weight` are the same tensor, so do not assign a new one.
//   Example: Linear(4, 3): every weight and bias lies in [-0.5, 0.5].
void LinearImpl::reset_parameters() {
  // BEGIN SOLUTION name="tinytorch::nn::LinearImpl::reset_parameters" lesson="3. Linear: initialisation"
  const double bound = 1.0 / std::sqrt(static_cast<double>(options.in_features()));
  init::uniform_(weight, -bound, bound);
  if (bias.defined()) init::uniform_(bias, -bound, bound);
  // END SOLUTION
}

// TODO: forward(input) -- y = input W^T + b for input of shape (*, in_features).
//   1. output = input.matmul(weight.t()): weight is (out, in), so its transpose (in, out) maps the
//      last dimension from in_features to out_features; matmul handles any leading dimensions.
//   2. If bias.defined(), add it: broadcasting adds the (out_features) vector to every row.
//   3. Return output. A wrong input width is reported by matmul ("mat1 and mat2 shapes cannot be multiplied").
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
