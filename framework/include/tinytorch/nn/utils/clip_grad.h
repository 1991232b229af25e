#pragma once
// Gradient clipping, LibTorch's torch::nn::utils::clip_grad_norm_ and clip_grad_value_ (1.13).
//
//   loss.backward();
//   double norm = torch::nn::utils::clip_grad_norm_(model->parameters(), /*max_norm=*/1.0);
//   optimizer.step();
//
// clip_grad_norm_ treats the gradients of all the parameters as one long vector: it computes that
// vector's p-norm (p = norm_type, 2 by default, infinity for the largest |g|) and, if it exceeds
// max_norm, scales every gradient by max_norm / (norm + 1e-6), which keeps their direction. It
// returns the norm measured before clipping (log it: a spike means an unstable step). Parameters
// without a gradient are skipped; with none, the result is 0.
//
// clip_grad_norm_ is written in module 08 (modules/08_training/clip_grad.cpp).
// Deviation: LibTorch 1.13 accepts norm_type 0 and then returns the number of tensors; here
// norm_type must be positive (or infinity).
#include <initializer_list>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace utils {

double clip_grad_norm_(std::vector<Tensor> parameters, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);

inline double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite);
}

inline double clip_grad_norm_(Tensor parameter, double max_norm, double norm_type = 2.0,
                              bool error_if_nonfinite = false) {
  return clip_grad_norm_(std::vector<Tensor>{std::move(parameter)}, max_norm, norm_type, error_if_nonfinite);
}

// Clamps every gradient element to [-clip_value, clip_value], in place.
void clip_grad_value_(std::vector<Tensor> parameters, double clip_value);

inline void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}

inline void clip_grad_value_(Tensor parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{std::move(parameter)}, clip_value);
}

}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
