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

// ---- LibTorch's other activation modules (src/02_activations/more_activation_modules.cpp) ----

class ELUImpl : public Cloneable<ELUImpl> {
 public:
  explicit ELUImpl(const ELUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::ELU(alpha=1)
  ELUOptions options;
};
TORCH_MODULE(ELU);

class SELUImpl : public Cloneable<SELUImpl> {
 public:
  explicit SELUImpl(const SELUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::SELU()
  SELUOptions options;
};
TORCH_MODULE(SELU);

class HardshrinkImpl : public Cloneable<HardshrinkImpl> {
 public:
  explicit HardshrinkImpl(const HardshrinkOptions& options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Hardshrink(0.5)
  HardshrinkOptions options;
};
TORCH_MODULE(Hardshrink);

class HardtanhImpl : public Cloneable<HardtanhImpl> {
 public:
  explicit HardtanhImpl(const HardtanhOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;  // checks max_val > min_val
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Hardtanh(min_val=-1, max_val=1)
  HardtanhOptions options;
};
TORCH_MODULE(Hardtanh);

class LogSigmoidImpl : public Cloneable<LogSigmoidImpl> {
 public:
  LogSigmoidImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(LogSigmoid);

class ReLU6Impl : public Cloneable<ReLU6Impl> {
 public:
  explicit ReLU6Impl(const ReLU6Options& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::ReLU6() / ReLU6(inplace=true)
  ReLU6Options options;
};
TORCH_MODULE(ReLU6);

class CELUImpl : public Cloneable<CELUImpl> {
 public:
  explicit CELUImpl(const CELUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::CELU(alpha=1)
  CELUOptions options;
};
TORCH_MODULE(CELU);

class SiLUImpl : public Cloneable<SiLUImpl> {
 public:
  SiLUImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(SiLU);

class MishImpl : public Cloneable<MishImpl> {
 public:
  MishImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Mish);

class SoftplusImpl : public Cloneable<SoftplusImpl> {
 public:
  explicit SoftplusImpl(const SoftplusOptions& options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Softplus(beta=1, threshold=20)
  SoftplusOptions options;
};
TORCH_MODULE(Softplus);

class SoftshrinkImpl : public Cloneable<SoftshrinkImpl> {
 public:
  explicit SoftshrinkImpl(const SoftshrinkOptions& options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Softshrink(0.5)
  SoftshrinkOptions options;
};
TORCH_MODULE(Softshrink);

class SoftsignImpl : public Cloneable<SoftsignImpl> {
 public:
  SoftsignImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Softsign);

class TanhshrinkImpl : public Cloneable<TanhshrinkImpl> {
 public:
  TanhshrinkImpl();
  Tensor forward(const Tensor& input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Tanhshrink);

class ThresholdImpl : public Cloneable<ThresholdImpl> {
 public:
  ThresholdImpl(double threshold, double value) : ThresholdImpl(ThresholdOptions(threshold, value)) {}
  explicit ThresholdImpl(const ThresholdOptions& options_);
  Tensor forward(Tensor input);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;  // torch::nn::Threshold(threshold=0.1, value=20)
  ThresholdOptions options;
};
TORCH_MODULE(Threshold);

}  // namespace nn
}  // namespace tinytorch
