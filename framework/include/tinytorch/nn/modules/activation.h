#pragma once
// The activation modules, LibTorch's nn::ReLU, nn::Sigmoid, nn::Tanh, nn::GELU, nn::Softmax and
// nn::LogSoftmax. They hold no parameters; forward() calls the function of the same name, and
// printing gives LibTorch's text ("torch::nn::Softmax(dim=1)").
//
//   nn::Sequential net(nn::Linear(4, 8), nn::ReLU(), nn::Linear(8, 3), nn::Softmax(1));
#include <iosfwd>

#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/functional/activation.h"
#include "tinytorch/nn/pimpl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

class ReLUImpl : public Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::ReLU() / ReLU(inplace=true)
  ReLUOptions options;
};
TORCH_MODULE(ReLU);

class LeakyReLUImpl : public Cloneable<LeakyReLUImpl> {
 public:
  explicit LeakyReLUImpl(const LeakyReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::LeakyReLU(negative_slope=0.01)
  LeakyReLUOptions options;
};
TORCH_MODULE(LeakyReLU);

class SigmoidImpl : public Cloneable<SigmoidImpl> {
 public:
  SigmoidImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Sigmoid);

class TanhImpl : public Cloneable<TanhImpl> {
 public:
  TanhImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Tanh);

class GELUImpl : public Cloneable<GELUImpl> {
 public:
  explicit GELUImpl(GELUOptions options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::GELU(), whatever the approximation
  GELUOptions options;
};
TORCH_MODULE(GELU);

class SoftmaxImpl : public Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim) : SoftmaxImpl(SoftmaxOptions(dim)) {}
  explicit SoftmaxImpl(const SoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Softmax(dim=1)
  SoftmaxOptions options;
};
TORCH_MODULE(Softmax);

class LogSoftmaxImpl : public Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim) : LogSoftmaxImpl(LogSoftmaxOptions(dim)) {}
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::LogSoftmax(dim=1)
  LogSoftmaxOptions options;
};
TORCH_MODULE(LogSoftmax);

}  // namespace nn
}  // namespace tinytorch
