// Module 09 (Convolutions), the given half: torch::conv2d (LibTorch's shape checks and messages, the
// recorded op and its derivative), F::conv2d and nn::Conv2d.
//
// The kernels are the learner's (conv2d_loops.cpp): conv2d_reference is the definition, seven loops
// over (sample, output channel, output row, output column, input channel, kernel row, kernel column),
// and conv2d_backward_reference its gradients by the same loops. Module 17's im2col path
// (framework/src/17_acceleration/conv2d_im2col.cpp) computes the same faster; it replaces them only in
// builds that link it (runtime/fast_kernels.h), so a learner's build runs the learner's loops at every size.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "tinytorch/spatial_kernels.h"
#include "runtime/fast_kernels.h"
#include "tinytorch/convolution.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"
#include "tinytorch/nn/functional/conv.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/conv.h"

namespace tinytorch {
namespace native {

// input (N, C, H, W) and weight (O, C / groups, kh, kw): the geometry of one image of one group
// would use C / groups channels; im2col and col2im run over all C channels at once, because the
// rows of group g are simply rows [g K, (g + 1) K) of the full column matrix (K = C / groups kh kw).
Conv2dGeometry geometry_of(const Tensor& input, const Tensor& weight, const Conv2dParams& p) {
  Conv2dGeometry g{};
  g.batch = input.size(0);
  g.channels = input.size(1);
  g.height = input.size(2);
  g.width = input.size(3);
  g.out_channels = weight.size(0);
  g.group_in = weight.size(1);
  g.groups = g.group_in > 0 ? g.channels / g.group_in : 1;
  g.group_out = g.out_channels / g.groups;
  g.kernel_h = weight.size(2);
  g.kernel_w = weight.size(3);
  g.stride_h = p.stride[0];
  g.stride_w = p.stride[1];
  g.pad_h = p.padding[0];
  g.pad_w = p.padding[1];
  g.dilation_h = p.dilation[0];
  g.dilation_w = p.dilation[1];
  g.out_h = conv_output_size(g.height, g.kernel_h, g.stride_h, g.pad_h, g.dilation_h);
  g.out_w = conv_output_size(g.width, g.kernel_w, g.stride_w, g.pad_w, g.dilation_w);
  return g;
}

Tensor conv2d_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, const Conv2dParams& params) {
  if (on_device(input, weight, bias)) {  // module 22's im2col + GEMM on the device
    return device_kernel<Tensor(const Tensor&, const Tensor&, const Tensor&, const Conv2dParams&)>(
        "convolution", input, weight, bias)(input, weight, bias, params);
  }
  if (const auto fast = detail::fast_kernels().conv2d) return fast(input, weight, bias, params);
  return conv2d_reference(input, weight, bias, params);
}

std::tuple<Tensor, Tensor, Tensor> conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                   const Tensor& weight, const Conv2dParams& params,
                                                   const std::array<bool, 3>& output_mask) {
  if (on_device(grad_output, input, weight)) {
    return device_kernel<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                            const Conv2dParams&, const std::array<bool, 3>&)>(
        "convolution_backward", grad_output, input, weight)(grad_output, input, weight, params, output_mask);
  }
  if (const auto fast = detail::fast_kernels().conv2d_backward)
    return fast(grad_output, input, weight, params, output_mask);
  return conv2d_backward_reference(grad_output, input, weight, params, output_mask);
}

}  // namespace native

namespace {

// LibTorch's expand_param_if_needed: one value means the same for both dimensions.
void expand_param(IntArrayRef values, const char* name, int64_t (&out)[2]) {
  if (values.size() == 1) {
    out[0] = out[1] = values[0];
    return;
  }
  TT_CHECK(values.size() == 2, "expected ", name,
           " to be a single integer value or a list of 2 values to match the convolution dimensions, but got ",
           name, "=", values);
  out[0] = values[0];
  out[1] = values[1];
}

// "float" for kFloat: LibTorch names C++ types in its bias message.
const char* cpp_type_name(ScalarType type) {
  switch (type) {
    case kFloat: return "float";
    case kDouble: return "double";
    case kLong: return "long int";
    case kBool: return "bool";
    default: break;
  }
  return toString(type);
}

// LibTorch's check_shape_forward, in its order, for a 4-D input.
void check_conv2d_shapes(const Tensor& input, const Tensor& weight, const Tensor& bias,
                         const native::Conv2dParams& p, int64_t groups) {
  TT_CHECK(p.padding[0] >= 0 && p.padding[1] >= 0, "negative padding is not supported");
  TT_CHECK(p.stride[0] > 0 && p.stride[1] > 0, "non-positive stride is not supported");
  TT_CHECK(p.dilation[0] > 0 && p.dilation[1] > 0, "dilation should be greater than zero");
  TT_CHECK(groups > 0, "non-positive groups is not supported");
  TT_CHECK(weight.dim() == 4, "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
           "-dimensional weight ", weight.sizes(), ", but got ", input.dim(), "-dimensional input of size ",
           input.sizes(), " instead");
  TT_CHECK(weight.size(0) >= groups, "Given groups=", groups, ", expected weight to be at least ", groups,
           " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  TT_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
           " at dimension 0, but got weight of size [", weight.sizes(), "] instead");
  TT_CHECK(input.size(1) == weight.size(1) * groups, "Given groups=", groups, ", weight of size ", weight.sizes(),
           ", expected input", input.sizes(), " to have ", weight.size(1) * groups, " channels, but got ",
           input.size(1), " channels instead");
  TT_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == weight.size(0)), "Given weight of size ",
           weight.sizes(), ", expected bias to be 1-dimensional with ", weight.size(0),
           " elements, but got bias of size ", bias.sizes(), " instead");
  const int64_t padded_h = input.size(2) + 2 * p.padding[0], padded_w = input.size(3) + 2 * p.padding[1];
  const int64_t kernel_h = p.dilation[0] * (weight.size(2) - 1) + 1;
  const int64_t kernel_w = p.dilation[1] * (weight.size(3) - 1) + 1;
  TT_CHECK(padded_h >= kernel_h && padded_w >= kernel_w, "Calculated padded input size per channel: (", padded_h,
           " x ", padded_w, "). Kernel size: (", kernel_h, " x ", kernel_w,
           "). Kernel size can't be greater than actual input size");
  TT_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", input.scalar_type(),
           " but found ", weight.scalar_type());
  TT_CHECK(!bias.defined() || bias.scalar_type() == input.scalar_type(), "Input type (",
           cpp_type_name(input.scalar_type()), ") and bias type (", cpp_type_name(bias.scalar_type()),
           ") should be the same");
  TT_CHECK(input.is_floating_point(), "\"slow_conv2d_cpu\" not implemented for '", input.scalar_type(), "'");
}

// The recorded op: a 4-D convolution (LibTorch's aten::convolution, whose node is ConvolutionBackward0).
Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const native::Conv2dParams& p,
                   int64_t groups) {
  check_conv2d_shapes(input, weight, bias, p, groups);
  Tensor result = native::conv2d_forward(input.contiguous(), weight.contiguous(),
                                        bias.defined() ? bias.contiguous() : bias, p);
  // For ConvolutionBackward0 (below): sizes = {stride, padding, dilation}, dim = groups.
  const int64_t geometry[6] = {p.stride[0], p.stride[1], p.padding[0], p.padding[1], p.dilation[0], p.dilation[1]};
  OpAttributes attributes;
  attributes.sizes = IntArrayRef(geometry);
  attributes.dim = groups;
  static OpHandle convolution_op("convolution");
  record_op(convolution_op, {input, weight, bias}, {result}, attributes);
  return result;
}

// out = conv(input, weight) + bias:
//   grad_input  = the transposed convolution of grad_out with weight (weight^T x grad_out, folded back),
//   grad_weight = grad_out x unfolded input^T,   grad_bias = grad_out summed over samples and positions.
const RegisterDerivative convolution_derivative("convolution", {
    "ConvolutionBackward0",
    [](SaveForBackward& save) {
      save.input(0);  // input
      save.input(1);  // weight
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& input = ctx.saved(0);
      const Tensor& weight = ctx.saved(1);
      const Tensor& grad = ctx.grad();
      // The kernels are not themselves recorded, so a graph of the gradient (create_graph) cannot be built.
      TT_CHECK(!GradMode::is_enabled() || !(grad.requires_grad() || input.requires_grad() || weight.requires_grad()),
               "double backward through conv2d (create_graph=true) is not supported by TinyTorch yet");
      const IntArrayRef geometry = ctx.attributes.sizes;
      native::Conv2dParams params;
      for (int d = 0; d < 2; ++d) {
        params.stride[d] = geometry[d];
        params.padding[d] = geometry[2 + d];
        params.dilation[d] = geometry[4 + d];
      }
      auto [grad_input, grad_weight, grad_bias] = native::conv2d_backward(
          grad, input, weight, params,
          {ctx.needs_input_grad(0), ctx.needs_input_grad(1), ctx.needs_input_grad(2)});
      return {grad_input, grad_weight, grad_bias};
    }});

}  // namespace

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  TT_CHECK(input.dim() == 3 || input.dim() == 4,
           "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: ", input.sizes());
  native::Conv2dParams params;
  expand_param(stride, "stride", params.stride);
  expand_param(padding, "padding", params.padding);
  expand_param(dilation, "dilation", params.dilation);
  const Tensor bias_tensor = bias.has_value() ? *bias : Tensor();
  if (input.dim() == 4) return convolution(input, weight, bias_tensor, params, groups);
  // Unbatched (C, H, W): a batch of one, as LibTorch's batchify does (so the grad_fn is a squeeze).
  return convolution(input.unsqueeze(0), weight, bias_tensor, params, groups).squeeze(0);
}

namespace {

// The transposed convolution, recorded as one op: its output is the input-gradient of a convolution
// whose output is `input`, so it runs the same kernels (module 09's loops, or module 17's im2col).
// For its node: sizes = {stride h, w, padding h, w, dilation h, w}, dim = groups.
Tensor convolution_transpose(const Tensor& input, const Tensor& weight, const Tensor& bias,
                             const native::Conv2dParams& p, const int64_t (&output_padding)[2], int64_t groups) {
  TT_CHECK(groups > 0, "non-positive groups is not supported");
  TT_CHECK(weight.dim() == 4, "Expected 4-dimensional input for 4-dimensional weight ", weight.sizes(),
           ", but got ", input.dim(), "-dimensional input of size ", input.sizes(), " instead");
  TT_CHECK(input.size(1) == weight.size(0), "Given transposed=1, weight of size ", weight.sizes(),
           ", expected input", input.sizes(), " to have ", weight.size(0), " channels, but got ", input.size(1),
           " channels instead");
  const int64_t out_channels = weight.size(1) * groups;
  TT_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == out_channels), "Given transposed=1, weight of size ",
           weight.sizes(), ", expected bias to be 1-dimensional with ", out_channels, " elements, but got bias of size ",
           bias.sizes(), " instead");
  for (int d = 0; d < 2; ++d) {
    TT_CHECK(p.stride[d] > 0 && p.dilation[d] > 0 && p.padding[d] >= 0 && output_padding[d] >= 0,
             "conv_transpose2d: stride and dilation must be positive, padding and output_padding non-negative");
    TT_CHECK(output_padding[d] < p.stride[d] || output_padding[d] < p.dilation[d],
             "output padding must be smaller than either stride or dilation, but got output_padding_height: ",
             output_padding[0], " output_padding_width: ", output_padding[1], " stride_height: ", p.stride[0],
             " stride_width: ", p.stride[1], " dilation_height: ", p.dilation[0], " dilation_width: ", p.dilation[1]);
  }
  TT_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", input.scalar_type(), " but found ",
           weight.scalar_type());
  TT_CHECK(input.is_floating_point(), "\"slow_conv_transpose2d_cpu\" not implemented for '", input.scalar_type(), "'");
  int64_t out_size[2];
  for (int d = 0; d < 2; ++d) {
    out_size[d] = (input.size(2 + d) - 1) * p.stride[d] - 2 * p.padding[d] + p.dilation[d] * (weight.size(2 + d) - 1) +
                  output_padding[d] + 1;
    TT_CHECK(out_size[d] > 0, "Given input size per channel: (", input.size(2), " x ", input.size(3),
             "). Calculated output size per channel: (", out_size[0], " x ", out_size[1], "). Output size is too small");
  }
  Tensor result;
  {
    NoGradGuard no_grad;
    // Only the shape of the convolution's input is read (its values would be for grad_weight).
    const Tensor conv_input_shape = empty({input.size(0), out_channels, out_size[0], out_size[1]}, input.options());
    result = std::get<0>(native::conv2d_backward(input.contiguous(), conv_input_shape, weight.contiguous(), p,
                                                 {true, false, false}));
    if (bias.defined()) result.add_(bias.reshape({1, out_channels, 1, 1}));
  }
  const int64_t geometry[6] = {p.stride[0], p.stride[1], p.padding[0], p.padding[1], p.dilation[0], p.dilation[1]};
  OpAttributes attributes;
  attributes.sizes = IntArrayRef(geometry);
  attributes.dim = groups;
  static OpHandle convolution_transpose_op("convolution_transpose");
  record_op(convolution_transpose_op, {input, weight, bias}, {result}, attributes);
  return result;
}

// out = conv_transpose(input, weight) + bias, the adjoint of a convolution C in its input:
//   grad_input = C(grad, weight), grad_weight = C's weight-gradient for input grad and output-gradient
//   input, grad_bias = grad summed over samples and positions.
const RegisterDerivative convolution_transpose_derivative("convolution_transpose", {
    "ConvolutionBackward0",
    [](SaveForBackward& save) {
      save.input(0);
      save.input(1);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& input = ctx.saved(0);
      const Tensor& weight = ctx.saved(1);
      const Tensor grad = ctx.grad().contiguous();
      TT_CHECK(!GradMode::is_enabled() || !(grad.requires_grad() || input.requires_grad() || weight.requires_grad()),
               "double backward through conv_transpose2d (create_graph=true) is not supported by TinyTorch yet");
      native::Conv2dParams params;
      for (int d = 0; d < 2; ++d) {
        params.stride[d] = ctx.attributes.sizes[d];
        params.padding[d] = ctx.attributes.sizes[2 + d];
        params.dilation[d] = ctx.attributes.sizes[4 + d];
      }
      Tensor grad_input, grad_weight, grad_bias;
      if (ctx.needs_input_grad(0)) grad_input = native::conv2d_forward(grad, weight.contiguous(), Tensor(), params);
      if (ctx.needs_input_grad(1)) {
        grad_weight = std::get<1>(native::conv2d_backward(input.contiguous(), grad, weight, params, {false, true, false}));
      }
      if (ctx.needs_input_grad(2)) grad_bias = grad.sum({0, 2, 3});
      return {grad_input, grad_weight, grad_bias};
    }});

}  // namespace

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  TT_CHECK(input.dim() == 3 || input.dim() == 4,
           "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got input of size: ", input.sizes());
  native::Conv2dParams params;
  int64_t extra[2];
  expand_param(stride, "stride", params.stride);
  expand_param(padding, "padding", params.padding);
  expand_param(dilation, "dilation", params.dilation);
  expand_param(output_padding, "output_padding", extra);
  const Tensor bias_tensor = bias.has_value() ? *bias : Tensor();
  if (input.dim() == 4) return convolution_transpose(input, weight, bias_tensor, params, extra, groups);
  return convolution_transpose(input.unsqueeze(0), weight, bias_tensor, params, extra, groups).squeeze(0);
}

// (N, C, L) runs as (N, C, 1, L) with a (O, C / groups, 1, k) weight, as LibTorch's CPU path does.
Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  TT_CHECK(input.dim() == 2 || input.dim() == 3,
           "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: ", input.sizes());
  TT_CHECK(weight.dim() == 3, "Expected ", input.dim(), "-dimensional input for 3-dimensional weight ", weight.sizes(),
           ", but got ", weight.dim(), "-dimensional weight instead");
  for (const IntArrayRef& values : {stride, padding, dilation}) {
    TT_CHECK(values.size() == 1, "expected stride, padding and dilation of conv1d to be a single integer value or a "
             "list of 1 value to match the convolution dimensions, but got ", values);
  }
  const int64_t stride_2d[2] = {1, stride[0]}, padding_2d[2] = {0, padding[0]}, dilation_2d[2] = {1, dilation[0]};
  const int64_t height_dim = input.dim() - 1;  // the new height goes just before the length
  return conv2d(input.unsqueeze(height_dim), weight.unsqueeze(2), bias, stride_2d, padding_2d, dilation_2d, groups)
      .squeeze(height_dim);
}

namespace nn {
namespace functional {

ExpandingArray<2> conv2d_padding_sizes(const Conv2dFuncOptions::padding_t& padding, IntArrayRef kernel_size,
                                       IntArrayRef stride, IntArrayRef dilation) {
  if (const auto* sizes = std::get_if<ExpandingArray<2>>(&padding)) return *sizes;
  if (std::holds_alternative<enumtype::kValid>(padding)) return ExpandingArray<2>(0);
  std::array<int64_t, 2> same{};
  for (size_t d = 0; d < 2; ++d) {
    const int64_t s = stride.size() == 1 ? stride[0] : stride[d];
    const int64_t k = kernel_size.size() == 1 ? kernel_size[0] : kernel_size[d];
    const int64_t dil = dilation.size() == 1 ? dilation[0] : dilation[d];
    TT_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
    const int64_t total = dil * (k - 1);
    TT_CHECK(total % 2 == 0, "padding='same' with an even kernel extent (dilation * (kernel_size - 1) = ", total,
             ") needs asymmetric padding, which TinyTorch does not support yet: use an odd kernel size or explicit "
             "padding");
    same[d] = total / 2;
  }
  return ExpandingArray<2>(same);
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options) {
  const int64_t unknown = 1;  // a weight of the wrong rank is reported by conv2d itself
  const IntArrayRef kernel = weight.dim() == 4 ? IntArrayRef(weight.sizes().data() + 2, 2) : IntArrayRef(unknown);
  const ExpandingArray<2> padding =
      conv2d_padding_sizes(options.padding(), kernel, options.stride(), options.dilation());
  return ::tinytorch::conv2d(input, weight, options.bias(), options.stride(), padding, options.dilation(),
                             options.groups());
}

ExpandingArray<1> conv1d_padding_sizes(const Conv1dFuncOptions::padding_t& padding, int64_t kernel_size,
                                       int64_t stride, int64_t dilation) {
  if (const auto* sizes = std::get_if<ExpandingArray<1>>(&padding)) return *sizes;
  if (std::holds_alternative<enumtype::kValid>(padding)) return ExpandingArray<1>(0);
  TT_CHECK(stride == 1, "padding='same' is not supported for strided convolutions");
  const int64_t total = dilation * (kernel_size - 1);
  TT_CHECK(total % 2 == 0, "padding='same' with an even kernel extent (dilation * (kernel_size - 1) = ", total,
           ") needs asymmetric padding, which TinyTorch does not support yet: use an odd kernel size or explicit "
           "padding");
  return ExpandingArray<1>(total / 2);
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Conv1dFuncOptions& options) {
  const int64_t kernel = weight.dim() == 3 ? weight.size(2) : 1;  // a wrong rank is reported by conv1d
  const ExpandingArray<1> padding =
      conv1d_padding_sizes(options.padding(), kernel, (*options.stride())[0], (*options.dilation())[0]);
  return ::tinytorch::conv1d(input, weight, options.bias(), options.stride(), padding, options.dilation(),
                             options.groups());
}

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const ConvTranspose2dFuncOptions& options) {
  return ::tinytorch::conv_transpose2d(input, weight, options.bias(), options.stride(), options.padding(),
                                       options.output_padding(), options.groups(), options.dilation());
}

}  // namespace functional

namespace {

// LibTorch's ConvNdImpl::pretty_print, shared by every convolution layer.
template <typename Options>
void print_conv(std::ostream& stream, const char* name, const Options& options, const std::string& padding_text) {
  stream << "torch::nn::" << name << "(" << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << options.kernel_size() << ", stride=" << options.stride() << padding_text;
  using Sizes = std::decay_t<decltype(options.dilation())>;
  if (*options.dilation() != *Sizes(1)) stream << ", dilation=" << options.dilation();
  if (*options.output_padding() != *Sizes(0)) stream << ", output_padding=" << options.output_padding();
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=false";
  stream << ")";
}

template <size_t D>
std::string padding_text(const detail::conv_padding_t<D>& padding) {
  if (std::holds_alternative<enumtype::kValid>(padding)) return ", padding='valid'";
  if (std::holds_alternative<enumtype::kSame>(padding)) return ", padding='same'";
  const auto& sizes = std::get<ExpandingArray<D>>(padding);
  if (*sizes == *ExpandingArray<D>(0)) return "";
  std::ostringstream text;
  text << ", padding=" << sizes;
  return text.str();
}

// LibTorch's reset_parameters for every convolution: kaiming_uniform_(a = sqrt(5)) for the weight,
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias.
void reset_conv_parameters(Tensor& weight, Tensor& bias) {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const int64_t fan_in = init::_calculate_fan_in_and_fan_out(weight).first;
    const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
    init::uniform_(bias, -bound, bound);
  }
}

}  // namespace

// ---- Conv1d ----

Conv1dImpl::Conv1dImpl(Conv1dOptions options_) : options(std::move(options_)) { reset(); }

void Conv1dImpl::reset() {
  TT_CHECK(options.in_channels() > 0 && options.groups() > 0 && options.out_channels() > 0,
           "in_channels, groups and out_channels must be a positive integer.");
  TT_CHECK(options.in_channels() % options.groups() == 0, "in_channels must be divisible by groups");
  TT_CHECK(options.out_channels() % options.groups() == 0, "out_channels must be divisible by groups");
  TT_CHECK(!options.transposed(), "Conv1dOptions::transposed(true) is not supported: use nn::ConvTranspose2d");
  TT_CHECK(std::holds_alternative<enumtype::kZeros>(options.padding_mode()),
           "TinyTorch's Conv1d supports only padding_mode(torch::kZeros) for now: use torch::kZeros, or pad the "
           "input yourself");
  functional::conv1d_padding_sizes(options.padding(), (*options.kernel_size())[0], (*options.stride())[0],
                                   (*options.dilation())[0]);
  weight = register_parameter(
      "weight", empty({options.out_channels(), options.in_channels() / options.groups(), (*options.kernel_size())[0]}));
  bias = options.bias() ? register_parameter("bias", empty({options.out_channels()}))
                        : register_parameter("bias", Tensor(), /*requires_grad=*/false);
  reset_parameters();
}

void Conv1dImpl::reset_parameters() { reset_conv_parameters(weight, bias); }

void Conv1dImpl::pretty_print(std::ostream& stream) const {
  print_conv(stream, "Conv1d", options, padding_text<1>(options.padding()));
}

Tensor Conv1dImpl::forward(const Tensor& input) {
  const ExpandingArray<1> padding = functional::conv1d_padding_sizes(
      options.padding(), (*options.kernel_size())[0], (*options.stride())[0], (*options.dilation())[0]);
  return ::tinytorch::conv1d(input, weight, bias, options.stride(), padding, options.dilation(), options.groups());
}

// ---- ConvTranspose2d ----

ConvTranspose2dImpl::ConvTranspose2dImpl(ConvTranspose2dOptions options_) : options(std::move(options_)) { reset(); }

void ConvTranspose2dImpl::reset() {
  TT_CHECK(options.in_channels() > 0 && options.groups() > 0 && options.out_channels() > 0,
           "in_channels, groups and out_channels must be a positive integer.");
  TT_CHECK(options.in_channels() % options.groups() == 0, "in_channels must be divisible by groups");
  TT_CHECK(options.out_channels() % options.groups() == 0, "out_channels must be divisible by groups");
  TT_CHECK(std::holds_alternative<enumtype::kZeros>(options.padding_mode()),
           "Only \"zeros\" padding mode is supported for ConvTranspose2d");
  const auto& kernel = *options.kernel_size();
  weight = register_parameter(
      "weight", empty({options.in_channels(), options.out_channels() / options.groups(), kernel[0], kernel[1]}));
  bias = options.bias() ? register_parameter("bias", empty({options.out_channels()}))
                        : register_parameter("bias", Tensor(), /*requires_grad=*/false);
  reset_parameters();
}

void ConvTranspose2dImpl::reset_parameters() { reset_conv_parameters(weight, bias); }

void ConvTranspose2dImpl::pretty_print(std::ostream& stream) const {
  std::string padding;
  if (*options.padding() != *ExpandingArray<2>(0)) {
    std::ostringstream text;
    text << ", padding=" << options.padding();
    padding = text.str();
  }
  print_conv(stream, "ConvTranspose2d", options, padding);
}

Tensor ConvTranspose2dImpl::forward(const Tensor& input) {
  return ::tinytorch::conv_transpose2d(input, weight, bias, options.stride(), options.padding(),
                                       options.output_padding(), options.groups(), options.dilation());
}

// ---- Conv2d ----

Conv2dImpl::Conv2dImpl(Conv2dOptions options_) : options(std::move(options_)) { reset(); }

void Conv2dImpl::reset() {
  TT_CHECK(options.in_channels() > 0 && options.groups() > 0 && options.out_channels() > 0,
           "in_channels, groups and out_channels must be a positive integer.");
  TT_CHECK(options.in_channels() % options.groups() == 0, "in_channels must be divisible by groups");
  TT_CHECK(options.out_channels() % options.groups() == 0, "out_channels must be divisible by groups");
  TT_CHECK(!options.transposed(), "Conv2dOptions::transposed(true) is not supported: TinyTorch has no ConvTranspose2d yet");
  TT_CHECK(std::holds_alternative<enumtype::kZeros>(options.padding_mode()),
           "TinyTorch's Conv2d supports only padding_mode(torch::kZeros) for now (reflect, replicate and circular "
           "padding need a pad op): use torch::kZeros, or pad the input yourself");
  // 'same' with a stride is refused here, as LibTorch does when the layer is built.
  functional::conv2d_padding_sizes(options.padding(), options.kernel_size(), options.stride(), options.dilation());
  const auto& kernel = *options.kernel_size();
  weight = register_parameter(
      "weight", empty({options.out_channels(), options.in_channels() / options.groups(), kernel[0], kernel[1]}));
  if (options.bias()) {
    bias = register_parameter("bias", empty({options.out_channels()}));
  } else {
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void Conv2dImpl::reset_parameters() { reset_conv_parameters(weight, bias); }

void Conv2dImpl::pretty_print(std::ostream& stream) const {
  print_conv(stream, "Conv2d", options, padding_text<2>(options.padding()));
}

Tensor Conv2dImpl::forward(const Tensor& input) {
  const ExpandingArray<2> padding =
      functional::conv2d_padding_sizes(options.padding(), options.kernel_size(), options.stride(), options.dilation());
  return ::tinytorch::conv2d(input, weight, bias, options.stride(), padding, options.dilation(), options.groups());
}

}  // namespace nn
}  // namespace tinytorch
