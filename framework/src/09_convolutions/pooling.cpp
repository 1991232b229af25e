// Module 09 (Convolutions), the given half of pooling: torch::max_pool2d / avg_pool2d /
// adaptive_avg_pool2d and their 1d forms, LibTorch's shape checks and messages, the recorded ops and
// their derivatives, and the pooling layers. The loops are the learner's (pooling_loops.cpp);
// adaptive average pooling's loops are given here.
#include <algorithm>
#include <ostream>

#include "runtime/fast_kernels.h"
#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/derivative.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"
#include "tinytorch/nn/modules/pooling.h"
#include "tinytorch/pooling.h"

namespace tinytorch {
namespace {

// LibTorch's pooling_output_shape: like a convolution's output size, rounded up with ceil_mode, but
// the last window must start inside the image or its left padding.
int64_t pooling_output_size(int64_t input, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                            bool ceil_mode) {
  const int64_t numerator = input + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  // Division rounding toward -infinity, as LibTorch's div_rtn (the numerator can be negative).
  int64_t output = numerator / stride - ((numerator % stride != 0) && ((numerator < 0) != (stride < 0)) ? 1 : 0);
  output += 1;
  if (ceil_mode && (output - 1) * stride >= input + pad) --output;
  return output;
}

// One size per dimension from a one- or two-value argument (LibTorch's max_pool2d argument checks).
void expand_pool_param(IntArrayRef values, const char* op, const char* name, const char* rule, int64_t (&out)[2],
                       IntArrayRef fallback) {
  if (values.size() == 0) values = fallback;  // stride omitted: the kernel size
  TT_CHECK(values.size() == 1 || values.size() == 2, op, ": ", name, " must ", rule);
  out[0] = values[0];
  out[1] = values.size() == 2 ? values[1] : values[0];
}

struct Pool2dArgs {
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  bool ceil_mode = false;
};

Pool2dArgs pool_args(const char* op, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                     IntArrayRef dilation, bool ceil_mode) {
  Pool2dArgs a;
  expand_pool_param(kernel_size, op, "kernel_size", "either be a single int, or a tuple of two ints", a.kernel, {});
  expand_pool_param(stride, op, "stride", "either be omitted, a single int, or a tuple of two ints", a.stride,
                    kernel_size);
  expand_pool_param(padding, op, "padding", "either be a single int, or a tuple of two ints", a.padding, {});
  expand_pool_param(dilation, op, "dilation", "be either a single int, or a tuple of two ints", a.dilation, {});
  a.ceil_mode = ceil_mode;
  return a;
}

// The geometry of a (N, C, H, W) input under a window = {kernel h, w, stride h, w, padding h, w,
// dilation h, w}, the order a pooling node keeps it in (PoolAttributes); the output size is the caller's.
native::Pool2dGeometry window_geometry(IntArrayRef input_sizes, const int64_t* window) {
  native::Pool2dGeometry g{};
  g.batch = input_sizes[0];
  g.channels = input_sizes[1];
  g.height = input_sizes[2];
  g.width = input_sizes[3];
  g.kernel_h = window[0];
  g.kernel_w = window[1];
  g.stride_h = window[2];
  g.stride_w = window[3];
  g.pad_h = window[4];
  g.pad_w = window[5];
  g.dilation_h = window[6];
  g.dilation_w = window[7];
  return g;
}

// LibTorch's pooling checks (the padding in max_pool2d's and avg_pool2d's words), for an input
// already made 4-D, then the geometry.
native::Pool2dGeometry pool_geometry(IntArrayRef sizes, const Pool2dArgs& a) {
  TT_CHECK(a.kernel[0] > 0 && a.kernel[1] > 0, "kernel size should be greater than zero, but got kH: ", a.kernel[0],
           " kW: ", a.kernel[1]);
  TT_CHECK(a.stride[0] > 0 && a.stride[1] > 0, "stride should be greater than zero, but got dH: ", a.stride[0],
           " dW: ", a.stride[1]);
  TT_CHECK(a.dilation[0] > 0 && a.dilation[1] > 0, "dilation should be greater than zero, but got dilationH: ",
           a.dilation[0], " dilationW: ", a.dilation[1]);
  for (int d = 0; d < 2; ++d) {
    TT_CHECK(a.padding[d] <= a.kernel[d] / 2, "pad should be at most half of kernel size, but got pad=",
             a.padding[d], " and kernel_size=", a.kernel[d]);
  }
  const int64_t window[8] = {a.kernel[0], a.kernel[1], a.stride[0],   a.stride[1],
                             a.padding[0], a.padding[1], a.dilation[0], a.dilation[1]};
  native::Pool2dGeometry g = window_geometry(sizes, window);
  g.out_h = pooling_output_size(g.height, g.kernel_h, g.pad_h, g.stride_h, g.dilation_h, a.ceil_mode);
  g.out_w = pooling_output_size(g.width, g.kernel_w, g.pad_w, g.stride_w, g.dilation_w, a.ceil_mode);
  TT_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given input size: (", g.channels, "x", g.height, "x", g.width,
           "). Calculated output size: (", g.channels, "x", g.out_h, "x", g.out_w, "). Output size is too small");
  return g;
}

void check_pool_input(const Tensor& input, const char* op) {
  const bool valid_dims = input.dim() >= 3 && input.size(input.dim() - 3) != 0 && input.size(input.dim() - 2) != 0;
  TT_CHECK((input.dim() == 3 && input.size(0) != 0 && valid_dims) ||
               (input.dim() == 4 && valid_dims && input.size(3) != 0),
           "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:", input.sizes());
  TT_CHECK(input.is_floating_point(), "\"", op, "\" not implemented for '", input.scalar_type(), "'");
}

// The attributes a pooling node keeps: sizes = {kernel h, w, stride h, w, padding h, w, dilation h, w}.
struct PoolAttributes {
  int64_t values[8];
  OpAttributes attributes;
  explicit PoolAttributes(const native::Pool2dGeometry& g)
      : values{g.kernel_h, g.kernel_w, g.stride_h, g.stride_w, g.pad_h, g.pad_w, g.dilation_h, g.dilation_w} {
    attributes.sizes = IntArrayRef(values);
  }
};

// The geometry again, from a backward node's saved input sizes and attributes.
native::Pool2dGeometry geometry_from(IntArrayRef input_sizes, IntArrayRef grad_sizes, const OpAttributes& a) {
  native::Pool2dGeometry g = window_geometry(input_sizes, a.sizes.data());
  g.out_h = grad_sizes[2];
  g.out_w = grad_sizes[3];
  g.count_include_pad = a.keepdim;
  g.divisor_override = a.dim;
  return g;
}

// A 3-D (C, H, W) input runs as a batch of one, as LibTorch's kernels do.
Tensor batched(const Tensor& input) { return input.dim() == 3 ? input.unsqueeze(0) : input; }
Tensor unbatched_like(const Tensor& result, const Tensor& input) {
  return input.dim() == 3 ? result.squeeze(0) : result;
}

// The kernels a build runs: module 17's (your loops, the batch split between threads) when the build
// has it, else your loops.
std::tuple<Tensor, Tensor> max_pool2d_kernel(const Tensor& input, const native::Pool2dGeometry& g) {
  if (on_device(input)) {
    return device_kernel<std::tuple<Tensor, Tensor>(const Tensor&, const native::Pool2dGeometry&)>(
        "max_pool2d_with_indices", input)(input, g);
  }
  if (const auto fast = detail::fast_kernels().max_pool2d) return fast(input, g);
  return native::max_pool2d_loops(input, g);
}
Tensor max_pool2d_backward_kernel(const Tensor& grad_output, const Tensor& indices, const native::Pool2dGeometry& g) {
  if (on_device(grad_output, indices)) {
    return device_kernel<Tensor(const Tensor&, const Tensor&, const native::Pool2dGeometry&)>(
        "max_pool2d_with_indices_backward", grad_output, indices)(grad_output, indices, g);
  }
  if (const auto fast = detail::fast_kernels().max_pool2d_backward) return fast(grad_output, indices, g);
  return native::max_pool2d_backward_loops(grad_output, indices, g);
}

// out = the maximum of each window: its gradient goes to that maximum only (saved indices).
const RegisterDerivative max_pool2d_derivative("max_pool2d_with_indices", {
    "MaxPool2DWithIndicesBackward0",
    [](SaveForBackward& save) {
      save.input_sizes(0);
      save.input(1);  // indices
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const native::Pool2dGeometry g = geometry_from(ctx.saved_sizes(0), ctx.grad().sizes(), ctx.attributes);
      return {max_pool2d_backward_kernel(ctx.grad().contiguous(), ctx.saved(0), g), Tensor()};
    }});

// out = sum of each window / divisor: every input of the window gets grad / divisor.
const RegisterDerivative avg_pool2d_derivative("avg_pool2d", {
    "AvgPool2DBackward0", [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const native::Pool2dGeometry g = geometry_from(ctx.saved_sizes(0), ctx.grad().sizes(), ctx.attributes);
      return {native::avg_pool2d_backward_loops(ctx.grad().contiguous(), g)};
    }});

// Adaptive average pooling: window i of `out` over `in` is [floor(i in / out), ceil((i + 1) in / out)).
int64_t window_start(int64_t i, int64_t in, int64_t out) { return (i * in) / out; }
int64_t window_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

Tensor adaptive_avg_pool2d_loops(const Tensor& input, int64_t out_h, int64_t out_w) {
  const int64_t planes = input.size(0) * input.size(1), height = input.size(2), width = input.size(3);
  Tensor output = empty({input.size(0), input.size(1), out_h, out_w}, input.options());
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "adaptive_avg_pool2d", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    for (int64_t plane = 0; plane < planes; ++plane) {
      const scalar_t* image = in + plane * height * width;
      for (int64_t y = 0; y < out_h; ++y) {
        const int64_t y0 = window_start(y, height, out_h), y1 = window_end(y, height, out_h);
        for (int64_t x = 0; x < out_w; ++x) {
          const int64_t x0 = window_start(x, width, out_w), x1 = window_end(x, width, out_w);
          scalar_t sum = 0;
          for (int64_t i = y0; i < y1; ++i)
            for (int64_t j = x0; j < x1; ++j) sum += image[i * width + j];
          out[(plane * out_h + y) * out_w + x] = sum / scalar_t((y1 - y0) * (x1 - x0));
        }
      }
    }
  });
  return output;
}

const RegisterDerivative adaptive_avg_pool2d_derivative("adaptive_avg_pool2d", {
    "AdaptiveAvgPool2DBackward0", [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef sizes = ctx.saved_sizes(0);
      const Tensor grad = ctx.grad().contiguous();
      const int64_t planes = sizes[0] * sizes[1], height = sizes[2], width = sizes[3];
      const int64_t out_h = grad.size(2), out_w = grad.size(3);
      Tensor grad_input = zeros(sizes, grad.options());
      TT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "adaptive_avg_pool2d_backward", [&] {
        const scalar_t* gy = grad.data_ptr<scalar_t>();
        scalar_t* gx = grad_input.data_ptr<scalar_t>();
        for (int64_t plane = 0; plane < planes; ++plane) {
          for (int64_t y = 0; y < out_h; ++y) {
            const int64_t y0 = window_start(y, height, out_h), y1 = window_end(y, height, out_h);
            for (int64_t x = 0; x < out_w; ++x) {
              const int64_t x0 = window_start(x, width, out_w), x1 = window_end(x, width, out_w);
              const scalar_t share = gy[(plane * out_h + y) * out_w + x] / scalar_t((y1 - y0) * (x1 - x0));
              for (int64_t i = y0; i < y1; ++i)
                for (int64_t j = x0; j < x1; ++j) gx[(plane * height + i) * width + j] += share;
            }
          }
        }
      });
      return {grad_input};
    }});

// (N, C, L) -> (N, C, 1, L) and back: the 1d ops are the 2d ones over a height of 1, as in LibTorch.
void check_1d_input(const Tensor& input, const char* op) {
  TT_CHECK(input.dim() == 2 || input.dim() == 3, op, "() Expected 2D or 3D input tensor, but got ", input.sizes());
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const Pool2dArgs args = pool_args("max_pool2d", kernel_size, stride, padding, dilation, ceil_mode);
  check_pool_input(self, "max_pool2d");
  const Tensor input = batched(self).contiguous();
  const native::Pool2dGeometry g = pool_geometry(input.sizes(), args);
  auto [output, indices] = max_pool2d_kernel(input, g);
  PoolAttributes attributes(g);
  static OpHandle max_pool2d_with_indices_op("max_pool2d_with_indices");
  record_op(max_pool2d_with_indices_op, {input, indices}, {output}, attributes.attributes);
  return {unbatched_like(output, self), unbatched_like(indices, self)};
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  const Pool2dArgs args = pool_args("avg_pool2d", kernel_size, stride, padding, 1, ceil_mode);
  TT_CHECK(!divisor_override.has_value() || *divisor_override != 0, "divisor must be not zero");
  check_pool_input(self, "avg_pool2d");
  const Tensor input = batched(self).contiguous();
  native::Pool2dGeometry g = pool_geometry(input.sizes(), args);
  g.count_include_pad = count_include_pad;
  g.divisor_override = divisor_override.value_or(0);
  Tensor output = native::avg_pool2d_loops(input, g);
  PoolAttributes attributes(g);
  attributes.attributes.keepdim = count_include_pad;
  attributes.attributes.dim = g.divisor_override;
  static OpHandle avg_pool2d_op("avg_pool2d");
  record_op(avg_pool2d_op, {input}, {output}, attributes.attributes);
  return unbatched_like(output, self);
}

Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  TT_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  TT_CHECK(output_size[0] >= 0 && output_size[1] >= 0,
           "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {",
           output_size[0], ", ", output_size[1], "}");
  TT_CHECK(self.dim() == 3 || self.dim() == 4,
           "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", self.sizes());
  for (int64_t d = 1; d < self.dim(); ++d) {
    TT_CHECK(self.size(d) > 0, "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
             "dimensions, but input has sizes ", self.sizes(), " with dimension ", d, " being empty");
  }
  TT_CHECK(self.is_floating_point(), "\"adaptive_avg_pool2d\" not implemented for '", self.scalar_type(), "'");
  const Tensor input = batched(self).contiguous();
  Tensor output = adaptive_avg_pool2d_loops(input, output_size[0], output_size[1]);
  static OpHandle adaptive_avg_pool2d_op("adaptive_avg_pool2d");
  record_op(adaptive_avg_pool2d_op, {input}, {output});
  return unbatched_like(output, self);
}

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  check_1d_input(self, "max_pool1d");
  TT_CHECK(kernel_size.size() == 1, "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size ", kernel_size.size());
  TT_CHECK(stride.size() <= 1, "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size ", stride.size());
  TT_CHECK(padding.size() == 1, "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size ", padding.size());
  TT_CHECK(dilation.size() == 1, "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size ", dilation.size());
  const int64_t k[2] = {1, kernel_size[0]};
  const int64_t s[2] = {1, stride.size() == 0 ? kernel_size[0] : stride[0]};
  const int64_t p[2] = {0, padding[0]};
  const int64_t d[2] = {1, dilation[0]};
  return max_pool2d(self.unsqueeze(-2), k, s, p, d, ceil_mode).squeeze(-2);
}

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  bool ceil_mode, bool count_include_pad) {
  check_1d_input(self, "avg_pool1d");
  TT_CHECK(kernel_size.size() == 1, "avg_pool1d() argument 'kernel_size' should contain one int (got ",
           kernel_size.size(), ")");
  TT_CHECK(stride.size() <= 1, "avg_pool1d() argument 'stride' should contain one int (got ", stride.size(), ")");
  TT_CHECK(padding.size() == 1, "avg_pool1d() argument 'padding' should contain one int (got ", padding.size(), ")");
  const int64_t k[2] = {1, kernel_size[0]};
  const int64_t s[2] = {1, stride.size() == 0 ? kernel_size[0] : stride[0]};
  const int64_t p[2] = {0, padding[0]};
  return avg_pool2d(self.unsqueeze(-2), k, s, p, ceil_mode, count_include_pad).squeeze(-2);
}

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  check_1d_input(self, "adaptive_avg_pool1d");
  TT_CHECK(output_size.size() == 1, "adaptive_avg_pool1d: output_size must be 1");
  const int64_t out[2] = {1, output_size[0]};
  return adaptive_avg_pool2d(self.unsqueeze(-2), out).squeeze(-2);
}

namespace nn {

template <size_t D, typename Derived>
void MaxPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::MaxPool" << D << "d(kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride() << ", padding=" << options.padding() << ", dilation=" << options.dilation()
         << ", ceil_mode=" << options.ceil_mode() << ")";
}
template class MaxPoolImpl<1, MaxPool1dImpl>;
template class MaxPoolImpl<2, MaxPool2dImpl>;

Tensor MaxPool1dImpl::forward(const Tensor& input) { return functional::max_pool1d(input, options); }
Tensor MaxPool2dImpl::forward(const Tensor& input) { return functional::max_pool2d(input, options); }
std::tuple<Tensor, Tensor> MaxPool2dImpl::forward_with_indices(const Tensor& input) {
  return functional::max_pool2d_with_indices(input, options);
}

template <size_t D, typename Derived>
void AvgPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::AvgPool" << D << "d(kernel_size=" << options.kernel_size() << ", stride=" << options.stride()
         << ", padding=" << options.padding() << ")";
}
template class AvgPoolImpl<1, AvgPool1dImpl>;
template class AvgPoolImpl<2, AvgPool2dImpl>;

Tensor AvgPool1dImpl::forward(const Tensor& input) { return functional::avg_pool1d(input, options); }
Tensor AvgPool2dImpl::forward(const Tensor& input) { return functional::avg_pool2d(input, options); }

template <size_t D, typename Derived>
void AdaptiveAvgPoolImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::AdaptiveAvgPool" << D << "d(output_size=" << options.output_size() << ")";
}
template class AdaptiveAvgPoolImpl<1, AdaptiveAvgPool1dImpl>;
template class AdaptiveAvgPoolImpl<2, AdaptiveAvgPool2dImpl>;

Tensor AdaptiveAvgPool1dImpl::forward(const Tensor& input) { return functional::adaptive_avg_pool1d(input, options); }
Tensor AdaptiveAvgPool2dImpl::forward(const Tensor& input) { return functional::adaptive_avg_pool2d(input, options); }

}  // namespace nn
}  // namespace tinytorch
