#pragma once
// nn::Dropout: inverted dropout (LibTorch's torch::nn::Dropout).
//
// In training mode each element is zeroed with probability p and the survivors are multiplied by
// 1 / (1 - p), so the expected value of every element is unchanged; in eval mode (module->eval())
// the input passes through untouched, at no cost. p = 1 zeroes everything.
//
//   nn::Dropout drop(0.5);                                   // or nn::DropoutOptions().p(0.5)
//   Tensor y = drop(x);                                     // training: ~half zeros, the rest 2x
#include <iosfwd>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5);
  TORCH_ARG(double, p);
  // Accepted for LibTorch compatibility; when true, forward writes into its input.
  TORCH_ARG(bool, inplace) = false;
};

class DropoutImpl : public Cloneable<DropoutImpl> {
 public:
  explicit DropoutImpl(const DropoutOptions& options_ = {});

  // Checks p (given): "dropout probability has to be between 0 and 1, but got 1.5".
  void reset() override;
  // "torch::nn::Dropout(p=0.5, inplace=false)"
  void pretty_print(std::ostream& stream) const override;
  // Training: zero with probability p, scale survivors by 1/(1-p). Eval: the input.  [module 03: yours]
  Tensor forward(Tensor input);

  DropoutOptions options;
};

TORCH_MODULE(Dropout);

// nn::Dropout2d: drops whole channels of an (N, C, H, W) or (C, H, W) input (nearby pixels of a
// feature map are too alike for dropping single pixels to regularise). Given (module 09).
using Dropout2dOptions = DropoutOptions;

class Dropout2dImpl : public Cloneable<Dropout2dImpl> {
 public:
  explicit Dropout2dImpl(const Dropout2dOptions& options_ = {});
  // "dropout probability has to be between 0 and 1, but got 1.5"
  void reset() override;
  // "torch::nn::Dropout2d(p=0.5, inplace=false)"
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);

  Dropout2dOptions options;
};

TORCH_MODULE(Dropout2d);

}  // namespace nn
}  // namespace tinytorch
