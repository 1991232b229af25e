#pragma once
// torch::nn::functional's activations (namespace F = torch::nn::functional;):
//   F::relu(x), F::relu(x, F::ReLUFuncOptions().inplace(true)), F::gelu(x, F::GELUFuncOptions().approximate("tanh")),
//   F::softmax(x, F::SoftmaxFuncOptions(1)), F::log_softmax(x, F::LogSoftmaxFuncOptions(1).dtype(torch::kDouble)),
// and the options the modules in tinytorch/nn/modules/activation.h take (ReLUOptions, GELUOptions, SoftmaxOptions).
// LibTorch's other activations follow the same shape: F::elu(x, F::ELUFuncOptions().alpha(0.5).inplace(true)),
// F::softplus(x, F::SoftplusFuncOptions().beta(2)), F::threshold(x, F::ThresholdFuncOptions(0.1, 20)), ...
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "tinytorch/activations.h"
#include "tinytorch/more_activations.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {

struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false) : inplace_(inplace) {}
  TORCH_ARG(bool, inplace);
};

struct GELUOptions {
  TORCH_ARG(std::string, approximate) = "none";  // "none" (erf, exact) or "tanh"
};

struct LeakyReLUOptions {
  TORCH_ARG(double, negative_slope) = 1e-2;
  TORCH_ARG(bool, inplace) = false;
};

struct SoftmaxOptions {
  /* implicit */ SoftmaxOptions(int64_t dim) : dim_(dim) {}
  TORCH_ARG(int64_t, dim);
};

struct LogSoftmaxOptions {
  /* implicit */ LogSoftmaxOptions(int64_t dim) : dim_(dim) {}
  TORCH_ARG(int64_t, dim);
};

struct ELUOptions {
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

struct SELUOptions {
  /* implicit */ SELUOptions(bool inplace = false) : inplace_(inplace) {}
  TORCH_ARG(bool, inplace);
};

struct HardshrinkOptions {
  /* implicit */ HardshrinkOptions(double lambda = 0.5) : lambda_(lambda) {}
  TORCH_ARG(double, lambda);
};

struct HardtanhOptions {
  TORCH_ARG(double, min_val) = -1.0;
  TORCH_ARG(double, max_val) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

struct ReLU6Options {
  /* implicit */ ReLU6Options(bool inplace = false) : inplace_(inplace) {}
  TORCH_ARG(bool, inplace);
};

struct CELUOptions {
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

struct SoftplusOptions {
  TORCH_ARG(double, beta) = 1.0;
  TORCH_ARG(double, threshold) = 20.0;
};

struct SoftshrinkOptions {
  /* implicit */ SoftshrinkOptions(double lambda = 0.5) : lambda_(lambda) {}
  TORCH_ARG(double, lambda);
};

struct ThresholdOptions {
  ThresholdOptions(double threshold, double value) : threshold_(threshold), value_(value) {}
  TORCH_ARG(double, threshold);  // x <= threshold is replaced
  TORCH_ARG(double, value);      // by value
  TORCH_ARG(bool, inplace) = false;
};

namespace functional {

using ReLUFuncOptions = ReLUOptions;
using GELUFuncOptions = GELUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using ELUFuncOptions = ELUOptions;
using SELUFuncOptions = SELUOptions;
using HardshrinkFuncOptions = HardshrinkOptions;
using HardtanhFuncOptions = HardtanhOptions;
using ReLU6FuncOptions = ReLU6Options;
using CELUFuncOptions = CELUOptions;
using SoftplusFuncOptions = SoftplusOptions;
using SoftshrinkFuncOptions = SoftshrinkOptions;
using ThresholdFuncOptions = ThresholdOptions;

struct SoftmaxFuncOptions {
  /* implicit */ SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

struct LogSoftmaxFuncOptions {
  /* implicit */ LogSoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

// inplace = true overwrites `input` with the result and returns it (LibTorch's torch::relu_).
inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  if (!options.inplace()) return ::tinytorch::relu(input);
  input.copy_(::tinytorch::relu(input));
  return input;
}

// F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.2)); inplace overwrites x.
inline Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {}) {
  if (!options.inplace()) return ::tinytorch::leaky_relu(input, options.negative_slope());
  input.copy_(::tinytorch::leaky_relu(input, options.negative_slope()));
  return input;
}

inline Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {}) {
  return ::tinytorch::gelu(input, options.approximate());
}

inline Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  return ::tinytorch::softmax(input, options.dim(), options.dtype());
}

inline Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options) {
  return ::tinytorch::log_softmax(input, options.dim(), options.dtype());
}


// ---- LibTorch's other activations; `inplace` overwrites input and returns it ----
inline Tensor elu(Tensor input, const ELUFuncOptions& options = {}) {
  if (options.inplace()) return ::tinytorch::elu_(input, options.alpha());
  return ::tinytorch::elu(input, options.alpha());
}

inline Tensor selu(Tensor input, const SELUFuncOptions& options = {}) {
  if (options.inplace()) return ::tinytorch::selu_(input);
  return ::tinytorch::selu(input);
}

inline Tensor hardshrink(const Tensor& input, const HardshrinkFuncOptions& options = {}) {
  return ::tinytorch::hardshrink(input, options.lambda());
}

inline Tensor hardtanh(Tensor input, const HardtanhFuncOptions& options = {}) {
  if (options.inplace()) return ::tinytorch::hardtanh_(input, options.min_val(), options.max_val());
  return ::tinytorch::hardtanh(input, options.min_val(), options.max_val());
}

inline Tensor logsigmoid(const Tensor& input) { return ::tinytorch::log_sigmoid(input); }

inline Tensor silu(const Tensor& input) { return ::tinytorch::silu(input); }

inline Tensor mish(const Tensor& input) { return ::tinytorch::mish(input); }

inline Tensor relu6(Tensor input, const ReLU6FuncOptions& options = {}) {
  if (options.inplace()) return ::tinytorch::relu6_(input);
  return ::tinytorch::relu6(input);
}

inline Tensor celu(Tensor input, const CELUFuncOptions& options = {}) {
  if (options.inplace()) return ::tinytorch::celu_(input, options.alpha());
  return ::tinytorch::celu(input, options.alpha());
}

inline Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {}) {
  return ::tinytorch::softplus(input, options.beta(), options.threshold());
}

inline Tensor softshrink(const Tensor& input, const SoftshrinkFuncOptions& options = {}) {
  return ::tinytorch::softshrink(input, options.lambda());
}

// x / (1 + |x|) and x - tanh(x): composed of recorded ops, so they differentiate as LibTorch's do.
inline Tensor softsign(const Tensor& input) { return input / (input.abs() + 1); }

inline Tensor tanhshrink(const Tensor& input) { return input - input.tanh(); }

inline Tensor threshold(Tensor input, const ThresholdFuncOptions& options) {
  if (options.inplace()) return ::tinytorch::threshold_(input, options.threshold(), options.value());
  return ::tinytorch::threshold(input, options.threshold(), options.value());
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
