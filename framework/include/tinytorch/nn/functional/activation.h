#pragma once
// torch::nn::functional's activations (namespace F = torch::nn::functional;):
//   F::relu(x), F::relu(x, F::ReLUFuncOptions().inplace(true)), F::gelu(x, F::GELUFuncOptions().approximate("tanh")),
//   F::softmax(x, F::SoftmaxFuncOptions(1)), F::log_softmax(x, F::LogSoftmaxFuncOptions(1).dtype(torch::kDouble)),
// and the options the modules in tinytorch/nn/modules/activation.h take (ReLUOptions, GELUOptions, SoftmaxOptions).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "tinytorch/activations.h"
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

namespace functional {

using ReLUFuncOptions = ReLUOptions;
using GELUFuncOptions = GELUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;

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

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
