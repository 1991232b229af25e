// Module 09 (Convolutions), lesson section "7. Batch normalisation".
// The given code (batch_norm.cpp) has checked the shapes with LibTorch's messages and made input and
// grad_output contiguous. Element [n][c][s] of the (N, C, S) view is at (n C + c) S + s; each channel
// has M = N S values. Accumulate sums in double: a float sum of a million values loses digits.
#include <cmath>

#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: batch_norm_loops -- normalise every channel (section 7).
//   Training: mean = sum / M and biased var = sum of (x - mean)^2 / M over the channel's M values;
//   invstd = 1 / sqrt(var + eps); out = (x - mean) invstd weight[c] + bias[c]. If the running stats
//   are defined, update them in place, LibTorch's way: running_mean = (1 - momentum) running_mean +
//   momentum mean, and running_var alike but with the UNBIASED variance, var M / (M - 1).
//   Evaluation: normalise with running_mean and invstd = 1 / sqrt(running_var + eps); change nothing.
//   Return (out, mean, invstd), mean and invstd (C) tensors of input's dtype.
//   Example: one channel [1, 2, 3, 4] in training, eps 0: mean 2.5, var 1.25, out ~[-1.342, -0.447,
//   0.447, 1.342]; running_mean 0 -> 0.25 and running_var 1 -> 0.9 + 0.1 x 5/3 = 1.0667 (momentum 0.1).
std::tuple<Tensor, Tensor, Tensor> batch_norm_loops(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                                    const Tensor& running_mean, const Tensor& running_var,
                                                    bool training, double momentum, double eps) {
  const int64_t batch = input.size(0), channels = input.size(1);
  const int64_t positions = channels == 0 || batch == 0 ? 0 : input.numel() / (batch * channels);
  Tensor output = empty(input.sizes(), input.options());
  Tensor mean = empty({channels}, input.options());
  Tensor invstd = empty({channels}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::batch_norm_loops" lesson="7. Batch normalisation"
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

// TODO: batch_norm_backward_loops -- the gradients of out = xhat weight + bias, xhat = (x - mean)
//   invstd (section 7), per channel with g = grad_output:
//     grad_bias = sum of g;   grad_weight = sum of g xhat;
//   evaluation (mean and invstd are constants): grad_input = g weight invstd;
//   training (mean and invstd depend on every x of the channel):
//     grad_input = weight invstd (g - sum(g) / M - xhat sum(g xhat) / M).
//   weight undefined counts as 1. Fill only what output_mask asks for (undefined otherwise).
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_loops(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Tensor& mean,
                                                             const Tensor& invstd, bool training,
                                                             const std::array<bool, 3>& output_mask) {
  const int64_t batch = input.size(0), channels = input.size(1);
  const int64_t positions = channels == 0 || batch == 0 ? 0 : input.numel() / (batch * channels);
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = empty(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = empty({channels}, input.options());
  if (output_mask[2]) grad_bias = empty({channels}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::batch_norm_backward_loops" lesson="7. Batch normalisation"
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
