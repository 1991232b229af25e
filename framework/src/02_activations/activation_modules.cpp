// Module 02 (Activations), given: the parameter-free modules over the functions in activation_ops.cpp.
#include <ostream>

#include "tinytorch/nn/modules/activation.h"

namespace tinytorch {
namespace nn {

LeakyReLUImpl::LeakyReLUImpl(const LeakyReLUOptions& options_)
    : Cloneable("torch::nn::LeakyReLUImpl"), options(options_) {}
Tensor LeakyReLUImpl::forward(Tensor input) { return functional::leaky_relu(std::move(input), options); }
void LeakyReLUImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LeakyReLU(negative_slope=" << options.negative_slope();
  if (options.inplace()) stream << ", inplace=" << options.inplace();
  stream << ")";
}

ReLUImpl::ReLUImpl(const ReLUOptions& options_) : Cloneable("torch::nn::ReLUImpl"), options(options_) {}
Tensor ReLUImpl::forward(Tensor input) { return functional::relu(std::move(input), options); }
void ReLUImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ReLU(";
  if (options.inplace()) stream << "inplace=true";
  stream << ")";
}

SigmoidImpl::SigmoidImpl() : Cloneable("torch::nn::SigmoidImpl") {}
Tensor SigmoidImpl::forward(const Tensor& input) { return ::tinytorch::sigmoid(input); }
void SigmoidImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sigmoid()"; }

TanhImpl::TanhImpl() : Cloneable("torch::nn::TanhImpl") {}
Tensor TanhImpl::forward(const Tensor& input) { return ::tinytorch::tanh(input); }
void TanhImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Tanh()"; }

GELUImpl::GELUImpl(GELUOptions options_) : Cloneable("torch::nn::GELUImpl"), options(std::move(options_)) {}
Tensor GELUImpl::forward(const Tensor& input) { return functional::gelu(input, options); }
void GELUImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::GELU()"; }

SoftmaxImpl::SoftmaxImpl(const SoftmaxOptions& options_) : Cloneable("torch::nn::SoftmaxImpl"), options(options_) {}
Tensor SoftmaxImpl::forward(const Tensor& input) { return ::tinytorch::softmax(input, options.dim()); }
void SoftmaxImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Softmax(dim=" << options.dim() << ")";
}

LogSoftmaxImpl::LogSoftmaxImpl(const LogSoftmaxOptions& options_)
    : Cloneable("torch::nn::LogSoftmaxImpl"), options(options_) {}
Tensor LogSoftmaxImpl::forward(const Tensor& input) { return ::tinytorch::log_softmax(input, options.dim()); }
void LogSoftmaxImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LogSoftmax(dim=" << options.dim() << ")";
}

}  // namespace nn
}  // namespace tinytorch
