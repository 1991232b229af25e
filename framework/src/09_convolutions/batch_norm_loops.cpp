// Module 09 (Convolutions), lesson section "7. Batch normalisation".
// The given code (batch_norm.cpp) has checked the shapes with LibTorch's messages and made input and
// grad_output contiguous, viewed as row-major (N, C, S) with S = H W; each channel has M = N S values.
// Accumulate sums in double: a float sum of a million values loses digits.
#include <cmath>

#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: batch_norm_loops(input, weight, bias, running_mean, running_var, training, momentum, eps)
//   -> (out, mean, invstd): out shaped like input, mean and invstd (C) tensors of input's dtype
//   (section 7). Training: normalise each channel with its batch statistics and, when the running
//   statistics are defined, update them in place as LibTorch does (section 7 says which variance
//   each use takes). Evaluation: normalise with the running statistics and change nothing.
//   weight and bias may be undefined (then 1 and 0).
//   Example: one channel [1, 2, 3, 4] in training, eps 0: mean 2.5, var 1.25, out ~[-1.342, -0.447,
//   0.447, 1.342]; running_mean 0 -> 0.25 and running_var 1 -> 0.9 + 0.1 x 5/3 = 1.0667 (momentum 0.1).
std::tuple<Tensor, Tensor, Tensor> batch_norm_loops(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                                    const Tensor& running_mean, const Tensor& running_var,
                                                    bool training, double momentum, double eps) {
  const int64_t batch = input.size(0), channels = input.size(1);
  Tensor output = empty(input.sizes(), input.options());
  Tensor mean = empty({channels}, input.options());
  Tensor invstd = empty({channels}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::batch_norm_loops" lesson="7. Batch normalisation"
  const int64_t positions = channels == 0 || batch == 0 ? 0 : input.numel() / (batch * channels);  // S
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.defined() ? weight.data_ptr<scalar_t>() : nullptr;
    const scalar_t* b = bias.defined() ? bias.data_ptr<scalar_t>() : nullptr;
    scalar_t* rm = running_mean.defined() ? running_mean.data_ptr<scalar_t>() : nullptr;
    scalar_t* rv = running_var.defined() ? running_var.data_ptr<scalar_t>() : nullptr;
    scalar_t* out = output.data_ptr<scalar_t>();
    const double count = static_cast<double>(batch * positions);
    for (int64_t c = 0; c < channels; ++c) {
      double channel_mean, channel_invstd;
      if (training) {
        double sum = 0;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t s = 0; s < positions; ++s) sum += x[(n * channels + c) * positions + s];
        channel_mean = sum / count;
        double squares = 0;
        for (int64_t n = 0; n < batch; ++n) {
          for (int64_t s = 0; s < positions; ++s) {
            const double centred = x[(n * channels + c) * positions + s] - channel_mean;
            squares += centred * centred;
          }
        }
        const double biased_var = squares / count;
        channel_invstd = 1.0 / std::sqrt(biased_var + eps);
        if (rm != nullptr) rm[c] = static_cast<scalar_t>((1 - momentum) * rm[c] + momentum * channel_mean);
        if (rv != nullptr) {
          const double unbiased_var = squares / (count - 1);
          rv[c] = static_cast<scalar_t>((1 - momentum) * rv[c] + momentum * unbiased_var);
        }
      } else {
        channel_mean = rm[c];
        channel_invstd = 1.0 / std::sqrt(static_cast<double>(rv[c]) + eps);
      }
      const double scale = channel_invstd * (w != nullptr ? w[c] : 1.0);
      const double shift = b != nullptr ? b[c] : 0.0;
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t s = 0; s < positions; ++s) {
          const int64_t at = (n * channels + c) * positions + s;
          out[at] = static_cast<scalar_t>((x[at] - channel_mean) * scale + shift);
        }
      }
      mean.data_ptr<scalar_t>()[c] = static_cast<scalar_t>(channel_mean);
      invstd.data_ptr<scalar_t>()[c] = static_cast<scalar_t>(channel_invstd);
    }
  });
  // END SOLUTION
  return {output, mean, invstd};
}

// TODO: batch_norm_backward_loops(grad_output, input, weight, mean, invstd, training, output_mask)
//   -> (grad_input, grad_weight, grad_bias), shaped like input, (C) and (C): the gradients of
//   batch_norm_loops given the mean and invstd it returned (section 7). In training the statistics
//   depend on the input, in evaluation they are constants: the two modes differ. weight undefined
//   counts as 1. The given code allocated the gradients output_mask asks for; the rest stay undefined.
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_loops(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Tensor& mean,
                                                             const Tensor& invstd, bool training,
                                                             const std::array<bool, 3>& output_mask) {
  const int64_t batch = input.size(0), channels = input.size(1);
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = empty(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = empty({channels}, input.options());
  if (output_mask[2]) grad_bias = empty({channels}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::batch_norm_backward_loops" lesson="7. Batch normalisation"
  const int64_t positions = channels == 0 || batch == 0 ? 0 : input.numel() / (batch * channels);  // S
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "batch_norm_backward", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* gy = grad_output.data_ptr<scalar_t>();
    const scalar_t* w = weight.defined() ? weight.data_ptr<scalar_t>() : nullptr;
    const scalar_t* mu = mean.data_ptr<scalar_t>();
    const scalar_t* is = invstd.data_ptr<scalar_t>();
    const double count = static_cast<double>(batch * positions);
    for (int64_t c = 0; c < channels; ++c) {
      double sum_g = 0, sum_g_xhat = 0;
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t s = 0; s < positions; ++s) {
          const int64_t at = (n * channels + c) * positions + s;
          sum_g += gy[at];
          sum_g_xhat += gy[at] * (x[at] - static_cast<double>(mu[c])) * is[c];
        }
      }
      if (output_mask[2]) grad_bias.data_ptr<scalar_t>()[c] = static_cast<scalar_t>(sum_g);
      if (output_mask[1]) grad_weight.data_ptr<scalar_t>()[c] = static_cast<scalar_t>(sum_g_xhat);
      if (!output_mask[0]) continue;
      const double scale = static_cast<double>(is[c]) * (w != nullptr ? w[c] : 1.0);
      scalar_t* gx = grad_input.data_ptr<scalar_t>();
      for (int64_t n = 0; n < batch; ++n) {
        for (int64_t s = 0; s < positions; ++s) {
          const int64_t at = (n * channels + c) * positions + s;
          if (training) {
            const double xhat = (x[at] - static_cast<double>(mu[c])) * is[c];
            gx[at] = static_cast<scalar_t>(scale * (gy[at] - sum_g / count - xhat * sum_g_xhat / count));
          } else {
            gx[at] = static_cast<scalar_t>(scale * gy[at]);
          }
        }
      }
    }
  });
  // END SOLUTION
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace native
}  // namespace tinytorch
