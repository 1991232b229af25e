#pragma once
// nn::Linear: y = x W^T + b (LibTorch's torch::nn::Linear).
//
// weight is (out_features, in_features): row j holds the weights of output j, so computing output
// j reads one contiguous row. bias is (out_features), or undefined with LinearOptions(...).bias(false).
// Both start as U(-1/sqrt(in_features), 1/sqrt(in_features)), LibTorch's default
// (kaiming_uniform_ with a = sqrt(5)). Parameters: out*in + out; bytes: 4 per parameter in float.
//
//   nn::Linear fc(784, 256);                                // 200,960 parameters
//   nn::Linear no_bias(nn::LinearOptions(784, 256).bias(false));
//   Tensor y = fc(torch::randn({32, 784}));                 // (32, 256); any leading dims work
#include <cstdint>
#include <iosfwd>

#include "tinytorch/nn/arg.h"
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features);
  TORCH_ARG(int64_t, in_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

class LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features) : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions& options_);

  // Registers weight and bias (given), then calls reset_parameters().
  void reset() override;
  // Draws weight and bias from U(-1/sqrt(in_features), 1/sqrt(in_features)).   [module 03: yours]
  void reset_parameters();
  // "torch::nn::Linear(in_features=2, out_features=1, bias=true)"
  void pretty_print(std::ostream& stream) const override;
  // input (*, in_features) -> (*, out_features).                                [module 03: yours]
  Tensor forward(const Tensor& input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;
};

TORCH_MODULE(Linear);

}  // namespace nn
}  // namespace tinytorch
