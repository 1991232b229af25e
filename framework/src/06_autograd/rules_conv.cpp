// Backward rule of the convolution (module 09's conv2d), given. The kernels are module 09's loops, or
// module 17's GEMMs and col2im in builds that have them (native::conv2d_backward); this file only
// connects them to the graph.
#include "09_convolutions/conv2d_kernels.h"
#include "tinytorch/autograd/functions.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace autograd {
namespace generated {

// out = conv(input, weight) + bias:
//   grad_input  = the transposed convolution of grad_out with weight (weight^T x grad_out, folded back),
//   grad_weight = grad_out x unfolded input^T,   grad_bias = grad_out summed over samples and positions.
variable_list ConvolutionBackward0::apply(variable_list&& grads) {
  const Tensor input = input_.unpack();
  const Tensor weight = weight_.unpack();
  // The kernels are not themselves recorded, so a graph of the gradient (create_graph) cannot be built.
  TT_CHECK(!GradMode::is_enabled() || !(grads[0].requires_grad() || input.requires_grad() || weight.requires_grad()),
           "double backward through conv2d (create_graph=true) is not supported by TinyTorch yet");
  native::Conv2dParams params;
  for (int d = 0; d < 2; ++d) {
    params.stride[d] = stride[d];
    params.padding[d] = padding[d];
    params.dilation[d] = dilation[d];
  }
  auto [grad_input, grad_weight, grad_bias] = native::conv2d_backward(
      grads[0], input, weight, params, {should_compute_output(0), should_compute_output(1), should_compute_output(2)});
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace generated
}  // namespace autograd
}  // namespace tinytorch
