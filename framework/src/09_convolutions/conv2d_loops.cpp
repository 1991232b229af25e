// Module 09 (Convolutions), lesson sections "2. Output size" and "3. The seven loops" and
// "4. Backward through the loops".
// The given code (conv2d.cpp) has already checked every shape with LibTorch's messages, made input,
// weight and bias contiguous, and worked out the geometry g (tinytorch/spatial_kernels.h: sizes, stride,
// padding, dilation, groups, output size from your conv_output_size). Positions outside the image
// (the zero padding) are never stored: a tap that lands there contributes 0.
// Tensors are read through raw pointers into contiguous, row-major (N, C, H, W) storage (module 01's
// strides); grad_output in the backward is the exception (see there).
#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: conv_output_size(input, kernel, stride, padding, dilation) -> the number of kernel
//   placements along one dimension, LibTorch's output size (lesson section 2). All arguments are
//   valid (checked by the caller; stride and dilation >= 1). Examples: (32, k3, s1, p1, d1) -> 32;
//   (32, k3, s1, p0, d1) -> 30; (32, k3, s2, p1, d1) -> 16; (7, k3, s2, p0, d1) -> 3; (7, k3, s1, p0, d2) -> 3.
int64_t conv_output_size(int64_t input, int64_t kernel, int64_t stride, int64_t padding, int64_t dilation) {
  // BEGIN SOLUTION name="tinytorch::native::conv_output_size" lesson="2. Output size"
  return (input + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
  // END SOLUTION
}

// TODO: conv2d_reference(input (N, C, H, W), weight (O, C / groups, kh, kw), bias (O) or undefined,
//   params) -> a new (N, O, g.out_h, g.out_w) tensor of input's dtype: the convolution by its
//   definition (lesson section 3, "The seven loops"), with stride, padding, dilation and groups as
//   LibTorch applies them (output channel o sees only the input channels of its group). Any floating
//   dtype (TT_DISPATCH_FLOATING_TYPES gives scalar_t). Throws nothing: the caller checked the shapes.
//   Example: section 3's first worked example gives out[0][0] = 6.
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

// TODO: conv2d_backward_reference(grad_output (N, O, OH, OW), input, weight, params, output_mask)
//   -> (grad_input, grad_weight, grad_bias), shaped like input, weight and (O), in input's dtype: the
//   gradients of conv2d_reference (lesson section 4, "Backward through the loops"). Only the
//   gradients whose output_mask entry is true are filled (the given code zero-initialised them);
//   the others stay undefined. grad_output may be non-contiguous (the gradient of out.sum() is one
//   number expanded, every stride 0): read it through its strides.
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
