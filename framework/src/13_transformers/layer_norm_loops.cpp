// Module 13 (Transformers), lesson section "2. Layer normalisation".
// The given code (layer_norm.cpp) has checked the shapes with LibTorch's messages and made input,
// weight, bias and grad_output contiguous: `rows` rows of F = `features` values each, row-major
// (a row is one token's features). Accumulate sums in double: a float sum of thousands of values
// loses digits.
#include <cmath>
#include <vector>

#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"
#include "tinytorch/transformer_kernels.h"

namespace tinytorch {
namespace native {

// TODO: layer_norm_loops(input, weight (F) or undefined, bias (F) or undefined, rows, features, eps)
//   -> (out, mean, rstd): out shaped like input, mean and rstd (rows) tensors of input's dtype
//   (section 2). Each row is normalised with its own statistics, LibTorch's way (section 2 says which
//   variance), then scaled and shifted per feature (undefined weight and bias: 1 and 0).
//   Example: one row [1, 2, 3, 4], eps 0: mean 2.5, var 1.25, out ~[-1.342, -0.447, 0.447, 1.342].
std::tuple<Tensor, Tensor, Tensor> layer_norm_loops(const Tensor& input, const Tensor& weight, const Tensor& bias,
                                                    int64_t rows, int64_t features, double eps) {
  Tensor output = empty(input.sizes(), input.options());
  Tensor mean = empty({rows}, input.options());
  Tensor rstd = empty({rows}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::layer_norm_loops" lesson="2. Layer normalisation"
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "layer_norm", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.defined() ? weight.data_ptr<scalar_t>() : nullptr;
    const scalar_t* b = bias.defined() ? bias.data_ptr<scalar_t>() : nullptr;
    scalar_t* out = output.data_ptr<scalar_t>();
    for (int64_t r = 0; r < rows; ++r) {
      const scalar_t* row = x + r * features;
      double sum = 0;
      for (int64_t f = 0; f < features; ++f) sum += row[f];
      const double row_mean = sum / static_cast<double>(features);
      double squares = 0;
      for (int64_t f = 0; f < features; ++f) {
        const double centred = row[f] - row_mean;
        squares += centred * centred;
      }
      const double row_rstd = 1.0 / std::sqrt(squares / static_cast<double>(features) + eps);
      for (int64_t f = 0; f < features; ++f) {
        const double normalised = (row[f] - row_mean) * row_rstd;
        out[r * features + f] =
            static_cast<scalar_t>(normalised * (w != nullptr ? w[f] : 1.0) + (b != nullptr ? b[f] : 0.0));
      }
      mean.data_ptr<scalar_t>()[r] = static_cast<scalar_t>(row_mean);
      rstd.data_ptr<scalar_t>()[r] = static_cast<scalar_t>(row_rstd);
    }
  });
  // END SOLUTION
  return {output, mean, rstd};
}

// TODO: layer_norm_backward_loops(grad_output, input, weight, mean, rstd, rows, features, output_mask)
//   -> (grad_input, grad_weight, grad_bias), shaped like input, (F) and (F): the gradients of
//   layer_norm_loops given the mean and rstd it returned (section 2). Every input of a row moves that
//   row's mean and rstd. weight undefined counts as 1. The given code allocated the gradients
//   output_mask asks for (grad_weight and grad_bias zeroed); the rest stay undefined.
std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_loops(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& weight, const Tensor& mean,
                                                             const Tensor& rstd, int64_t rows, int64_t features,
                                                             const std::array<bool, 3>& output_mask) {
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = empty(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = zeros({features}, input.options());
  if (output_mask[2]) grad_bias = zeros({features}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::layer_norm_backward_loops" lesson="2. Layer normalisation"
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "layer_norm_backward", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* g = grad_output.data_ptr<scalar_t>();
    const scalar_t* w = weight.defined() ? weight.data_ptr<scalar_t>() : nullptr;
    const scalar_t* mu = mean.data_ptr<scalar_t>();
    const scalar_t* rs = rstd.data_ptr<scalar_t>();
    std::vector<double> weight_sums(output_mask[1] ? features : 0, 0.0), bias_sums(output_mask[2] ? features : 0, 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t start = r * features;
      double sum_gw = 0, sum_gw_xhat = 0;
      for (int64_t f = 0; f < features; ++f) {
        const double xhat = (x[start + f] - static_cast<double>(mu[r])) * rs[r];
        const double gw = g[start + f] * (w != nullptr ? w[f] : 1.0);
        sum_gw += gw;
        sum_gw_xhat += gw * xhat;
        if (output_mask[1]) weight_sums[f] += g[start + f] * xhat;
        if (output_mask[2]) bias_sums[f] += g[start + f];
      }
      if (!output_mask[0]) continue;
      scalar_t* gx = grad_input.data_ptr<scalar_t>();
      for (int64_t f = 0; f < features; ++f) {
        const double xhat = (x[start + f] - static_cast<double>(mu[r])) * rs[r];
        const double gw = g[start + f] * (w != nullptr ? w[f] : 1.0);
        gx[start + f] = static_cast<scalar_t>(
            rs[r] * (gw - sum_gw / static_cast<double>(features) - xhat * sum_gw_xhat / static_cast<double>(features)));
      }
    }
    for (int64_t f = 0; f < features; ++f) {
      if (output_mask[1]) grad_weight.data_ptr<scalar_t>()[f] = static_cast<scalar_t>(weight_sums[f]);
      if (output_mask[2]) grad_bias.data_ptr<scalar_t>()[f] = static_cast<scalar_t>(bias_sums[f]);
    }
  });
  // END SOLUTION
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace native
}  // namespace tinytorch
