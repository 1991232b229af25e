// Module 09 (Convolutions), lesson sections "2. Output size" and "3. The seven loops" and
// "4. Backward through the loops".
// The given code (conv2d.cpp) has already checked every shape with LibTorch's messages, made input,
// weight and bias contiguous, and worked out the geometry g (tinytorch/spatial_kernels.h: sizes, stride,
// padding, dilation, groups, output size from your conv_output_size). Positions outside the image
// (the zero padding) are never stored: a tap that lands there contributes 0, so skip it.
// Tensors are read through raw pointers: element [n][c][y][x] of a contiguous (N, C, H, W) tensor is
// at ((n C + c) H + y) W + x.
#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: conv_output_size -- how many kernel placements fit (lesson section 2).
//   The kernel covers dilation * (kernel - 1) + 1 input positions; the padded input has
//   input + 2 * padding; the kernel moves by stride. Examples: (32, k3, s1, p1, d1) -> 32;
//   (32, k3, s1, p0, d1) -> 30; (32, k3, s2, p1, d1) -> 16; (7, k3, s2, p0, d1) -> 3; (7, k3, s1, p0, d2) -> 3.
int64_t conv_output_size(int64_t input, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation) {
  // BEGIN SOLUTION name="tinytorch::native::conv_output_size" lesson="2. Output size"
  return (input + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
  // END SOLUTION
}

// TODO: conv2d_reference -- the convolution by its definition, seven loops (lesson section 3):
//   out[n][o][y][x] = bias[o] + sum over c < g.group_in, i < kh, j < kw of
//       input[n][first + c][y stride_h + i dilation_h - pad_h][x stride_w + j dilation_w - pad_w] * weight[o][c][i][j]
//   where first = (o / g.group_out) * g.group_in is the first input channel of o's group (0 when
//   groups = 1), and a tap outside the image counts as 0. bias is undefined when the layer has none.
//   Returns a new (N, O, OH, OW) tensor of input's dtype (TT_DISPATCH_FLOATING_TYPES gives scalar_t).
Tensor conv2d_reference(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params) {
  const Conv2dGeometry g = geometry_of(input, weight, params);
  Tensor output = empty({g.batch, g.out_channels, g.out_h, g.out_w}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::conv2d_reference" lesson="3. The seven loops"
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "conv2d_reference", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.data_ptr<scalar_t>();
    const scalar_t* b = bias.defined() ? bias.data_ptr<scalar_t>() : nullptr;
    scalar_t* out = output.data_ptr<scalar_t>();
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t o = 0; o < g.out_channels; ++o) {
        const int64_t first_channel = (o / g.group_out) * g.group_in;
        for (int64_t y = 0; y < g.out_h; ++y) {
          for (int64_t x_out = 0; x_out < g.out_w; ++x_out) {
            scalar_t sum = b != nullptr ? b[o] : scalar_t(0);
            for (int64_t c = 0; c < g.group_in; ++c) {
              for (int64_t i = 0; i < g.kernel_h; ++i) {
                const int64_t in_y = y * g.stride_h + i * g.dilation_h - g.pad_h;
                if (in_y < 0 || in_y >= g.height) continue;  // padding contributes 0
                for (int64_t j = 0; j < g.kernel_w; ++j) {
                  const int64_t in_x = x_out * g.stride_w + j * g.dilation_w - g.pad_w;
                  if (in_x < 0 || in_x >= g.width) continue;
                  const scalar_t pixel = x[((n * g.channels + first_channel + c) * g.height + in_y) * g.width + in_x];
                  sum += pixel * w[((o * g.group_in + c) * g.kernel_h + i) * g.kernel_w + j];
                }
              }
            }
            out[((n * g.out_channels + o) * g.out_h + y) * g.out_w + x_out] = sum;
          }
        }
      }
    }
  });
  // END SOLUTION
  return output;
}

// TODO: conv2d_backward_reference -- the gradients by the forward's loops (lesson section 4).
//   Every product input[pixel] * weight[tap] that went into out[n][o][y][x] sends
//   grad = grad_output[n][o][y][x] back: grad_input[pixel] += grad * weight[tap] and
//   grad_weight[tap] += grad * input[pixel]; and grad_bias[o] += grad. Fill only the gradients whose
//   output_mask entry is true (the others stay undefined, and cost nothing). grad_output may be
//   non-contiguous (the gradient of out.sum() is one number expanded): read it through its strides,
//   element [n][o][y][x] at n stride(0) + o stride(1) + y stride(2) + x stride(3).
std::tuple<Tensor, Tensor, Tensor> conv2d_backward_reference(const Tensor& grad_output, const Tensor& input_,
                                                             const Tensor& weight_, const Conv2dParams& params,
                                                             const std::array<bool, 3>& output_mask) {
  const Tensor input = input_.contiguous();
  const Tensor weight = weight_.contiguous();
  const Conv2dGeometry g = geometry_of(input, weight, params);
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) grad_input = zeros(input.sizes(), input.options());
  if (output_mask[1]) grad_weight = zeros(weight.sizes(), weight.options());
  if (output_mask[2]) grad_bias = zeros({g.out_channels}, weight.options());
  // BEGIN SOLUTION name="tinytorch::native::conv2d_backward_reference" lesson="4. Backward through the loops"
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "conv2d_backward", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    const scalar_t* w = weight.data_ptr<scalar_t>();
    const scalar_t* gy = grad_output.data_ptr<scalar_t>();
    scalar_t* gx = output_mask[0] ? grad_input.data_ptr<scalar_t>() : nullptr;
    scalar_t* gw = output_mask[1] ? grad_weight.data_ptr<scalar_t>() : nullptr;
    scalar_t* gb = output_mask[2] ? grad_bias.data_ptr<scalar_t>() : nullptr;
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t o = 0; o < g.out_channels; ++o) {
        const int64_t first_channel = (o / g.group_out) * g.group_in;
        for (int64_t y = 0; y < g.out_h; ++y) {
          for (int64_t x_out = 0; x_out < g.out_w; ++x_out) {
            const scalar_t grad = gy[n * grad_output.stride(0) + o * grad_output.stride(1) +
                                     y * grad_output.stride(2) + x_out * grad_output.stride(3)];
            if (gb != nullptr) gb[o] += grad;
            for (int64_t c = 0; c < g.group_in; ++c) {
              for (int64_t i = 0; i < g.kernel_h; ++i) {
                const int64_t in_y = y * g.stride_h + i * g.dilation_h - g.pad_h;
                if (in_y < 0 || in_y >= g.height) continue;
                for (int64_t j = 0; j < g.kernel_w; ++j) {
                  const int64_t in_x = x_out * g.stride_w + j * g.dilation_w - g.pad_w;
                  if (in_x < 0 || in_x >= g.width) continue;
                  const int64_t pixel = ((n * g.channels + first_channel + c) * g.height + in_y) * g.width + in_x;
                  const int64_t tap = ((o * g.group_in + c) * g.kernel_h + i) * g.kernel_w + j;
                  if (gx != nullptr) gx[pixel] += grad * w[tap];
                  if (gw != nullptr) gw[tap] += grad * x[pixel];
                }
              }
            }
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
