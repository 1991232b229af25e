#pragma once
// More of LibTorch's factories (src/01_tensor/tensor_factories.cpp and random.cpp): logspace,
// randint_like, and the random functions bernoulli, normal and poisson. The basic
// factories (empty, zeros, arange, linspace, eye, rand, ...) are in tinytorch/factories.h.
// Random numbers come from TinyTorch's generator (manual_seed): reproducible, but not LibTorch's
// streams. LibTorch's optional Generator argument is not offered.
#include <optional>

#include "tinytorch/data/tensor_ops.h"  // torch::randperm (module 05)
#include "tinytorch/factories.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// base ** linspace(start, end, steps): {1, 10, 100} for logspace(0, 2, 3).
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                TensorOptions options = {});

// Random integers in [0, high) or [low, high) with self's sizes and (unless options say) dtype.
Tensor randint_like(const Tensor& self, int64_t high, TensorOptions options = {});
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, TensorOptions options = {});

// 1 with probability self[i] (or p), else 0, in self's dtype.
Tensor bernoulli(const Tensor& self);
Tensor bernoulli(const Tensor& self, double p);

// Normal samples with a tensor of means and/or of standard deviations (the result takes their
// shape), or a fixed mean and std and a size.
Tensor normal(const Tensor& mean, double std = 1);
Tensor normal(double mean, const Tensor& std);
Tensor normal(const Tensor& mean, const Tensor& std);
Tensor normal(double mean, double std, IntArrayRef size, TensorOptions options = {});
// LibTorch's spelling with the (absent) generator argument: normal(0, 1, {2}, c10::nullopt, kDouble).
inline Tensor normal(double mean, double std, IntArrayRef size, std::nullopt_t /*generator*/,
                     TensorOptions options = {}) {
  return normal(mean, std, size, options);
}

// Poisson samples with rates self[i], in self's dtype.
Tensor poisson(const Tensor& self);

}  // namespace tinytorch
