// LibTorch's other activation modules over the functions of more_activations.cpp: ELU, SELU, CELU,
// Hardshrink, Hardtanh, ReLU6, LogSigmoid, SiLU, Mish, Softplus, Softshrink, Softsign, Tanhshrink,
// Threshold, printing as LibTorch's pretty_print does.
#include <ostream>

#include "tinytorch/errors.h"
#include "tinytorch/nn/modules/activation.h"

namespace tinytorch {
namespace nn {

ELUImpl::ELUImpl(const ELUOptions& options_) : Cloneable("torch::nn::ELUImpl"), options(options_) {}
Tensor ELUImpl::forward(Tensor input) { return functional::elu(std::move(input), options); }
void ELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ELU(alpha=" << options.alpha();
  if (options.inplace()) stream << std::boolalpha << ", inplace=" << options.inplace();
  stream << ")";
}

SELUImpl::SELUImpl(const SELUOptions& options_) : Cloneable("torch::nn::SELUImpl"), options(options_) {}
Tensor SELUImpl::forward(Tensor input) { return functional::selu(std::move(input), options); }
void SELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SELU(";
  if (options.inplace()) stream << std::boolalpha << "inplace=" << options.inplace();
  stream << ")";
}

HardshrinkImpl::HardshrinkImpl(const HardshrinkOptions& options_)
    : Cloneable("torch::nn::HardshrinkImpl"), options(options_) {}
Tensor HardshrinkImpl::forward(const Tensor& input) { return functional::hardshrink(input, options); }
void HardshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardshrink(" << options.lambda() << ")";
}

HardtanhImpl::HardtanhImpl(const HardtanhOptions& options_) : Cloneable("torch::nn::HardtanhImpl"), options(options_) {
  reset();
}
void HardtanhImpl::reset() {
  TT_CHECK(options.max_val() > options.min_val(), "max_val must be greater than min_val");
}
Tensor HardtanhImpl::forward(Tensor input) { return functional::hardtanh(std::move(input), options); }
void HardtanhImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Hardtanh(min_val=" << options.min_val() << ", max_val=" << options.max_val();
  if (options.inplace()) stream << std::boolalpha << ", inplace=" << options.inplace();
  stream << ")";
}

LogSigmoidImpl::LogSigmoidImpl() : Cloneable("torch::nn::LogSigmoidImpl") {}
Tensor LogSigmoidImpl::forward(const Tensor& input) { return functional::logsigmoid(input); }
void LogSigmoidImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::LogSigmoid()"; }

ReLU6Impl::ReLU6Impl(const ReLU6Options& options_) : Cloneable("torch::nn::ReLU6Impl"), options(options_) {}
Tensor ReLU6Impl::forward(Tensor input) { return functional::relu6(std::move(input), options); }
void ReLU6Impl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU6(";
  if (options.inplace()) stream << std::boolalpha << "inplace=" << options.inplace();
  stream << ")";
}

CELUImpl::CELUImpl(const CELUOptions& options_) : Cloneable("torch::nn::CELUImpl"), options(options_) {}
Tensor CELUImpl::forward(Tensor input) { return functional::celu(std::move(input), options); }
void CELUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CELU(alpha=" << options.alpha();
  if (options.inplace()) stream << std::boolalpha << ", inplace=" << options.inplace();
  stream << ")";
}

SiLUImpl::SiLUImpl() : Cloneable("torch::nn::SiLUImpl") {}
Tensor SiLUImpl::forward(const Tensor& input) { return functional::silu(input); }
void SiLUImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::SiLU()"; }

MishImpl::MishImpl() : Cloneable("torch::nn::MishImpl") {}
Tensor MishImpl::forward(const Tensor& input) { return functional::mish(input); }
void MishImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Mish()"; }

SoftplusImpl::SoftplusImpl(const SoftplusOptions& options_) : Cloneable("torch::nn::SoftplusImpl"), options(options_) {}
Tensor SoftplusImpl::forward(const Tensor& input) { return functional::softplus(input, options); }
void SoftplusImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softplus(beta=" << options.beta() << ", threshold=" << options.threshold() << ")";
}

SoftshrinkImpl::SoftshrinkImpl(const SoftshrinkOptions& options_)
    : Cloneable("torch::nn::SoftshrinkImpl"), options(options_) {}
Tensor SoftshrinkImpl::forward(const Tensor& input) { return functional::softshrink(input, options); }
void SoftshrinkImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softshrink(" << options.lambda() << ")";
}

SoftsignImpl::SoftsignImpl() : Cloneable("torch::nn::SoftsignImpl") {}
Tensor SoftsignImpl::forward(const Tensor& input) { return functional::softsign(input); }
void SoftsignImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Softsign()"; }

TanhshrinkImpl::TanhshrinkImpl() : Cloneable("torch::nn::TanhshrinkImpl") {}
Tensor TanhshrinkImpl::forward(const Tensor& input) { return functional::tanhshrink(input); }
void TanhshrinkImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Tanhshrink()"; }

ThresholdImpl::ThresholdImpl(const ThresholdOptions& options_) : Cloneable("torch::nn::ThresholdImpl"), options(options_) {}
Tensor ThresholdImpl::forward(Tensor input) { return functional::threshold(std::move(input), options); }
void ThresholdImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Threshold(threshold=" << options.threshold() << ", value=" << options.value();
  if (options.inplace()) stream << std::boolalpha << ", inplace=" << options.inplace();
  stream << ")";
}

}  // namespace nn
}  // namespace tinytorch
