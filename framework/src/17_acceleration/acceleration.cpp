// Module 17's public face (tinytorch/acceleration.h), given and linked in every build: torch::im2col
// and torch::col2im (checks, shapes, the autograd record; the loops are the learner's im2col.cpp,
// reached through the fast-kernel table), and the measuring helpers naive_mm / fast_mm. Nothing here
// names a module-17 learner function, so a build without module 17 links it and gets a clear error
// instead of an undefined symbol. For the same reason the sliding blocks' count is written out here
// rather than calling module 09's conv_output_size: a learner's build before module 09 links this file.
#include <string>

#include "runtime/fast_kernels.h"
#include "tinytorch/acceleration.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

const char* const kNeedsModule17 =
    " needs module 17 (Acceleration) in this build: this program was built without it (a learner's build "
    "before module 17 is complete runs the loops of modules 01 and 09). Complete module 17 (tito module "
    "complete 17), or call the op your earlier module provides";

std::string sizes_text(IntArrayRef values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

void check_pair(IntArrayRef values, const char* name, int64_t minimum) {
  TT_CHECK(values.size() == 2, "It is expected ", name, " equals to 2, but got size ", values.size());
  TT_CHECK(values[0] >= minimum && values[1] >= minimum, name, " should be ",
           minimum == 0 ? "non-negative" : "greater than zero", ", but got ", name, ": ", sizes_text(values));
}

// The geometry of one im2col / col2im: image (channels, height, width), kernel and the rest.
native::Conv2dGeometry fold_geometry(int64_t batch, int64_t channels, int64_t height, int64_t width,
                                     IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                                     IntArrayRef stride) {
  check_pair(kernel_size, "kernel_size", 1);
  check_pair(dilation, "dilation", 1);
  check_pair(padding, "padding", 0);
  check_pair(stride, "stride", 1);
  native::Conv2dGeometry g{};
  g.batch = batch;
  g.channels = channels;
  g.height = height;
  g.width = width;
  g.out_channels = channels;
  g.groups = 1;
  g.group_in = channels;
  g.group_out = channels;
  g.kernel_h = kernel_size[0];
  g.kernel_w = kernel_size[1];
  g.dilation_h = dilation[0];
  g.dilation_w = dilation[1];
  g.pad_h = padding[0];
  g.pad_w = padding[1];
  g.stride_h = stride[0];
  g.stride_w = stride[1];
  g.out_h = (height + 2 * g.pad_h - g.dilation_h * (g.kernel_h - 1) - 1) / g.stride_h + 1;
  g.out_w = (width + 2 * g.pad_w - g.dilation_w * (g.kernel_w - 1) - 1) / g.stride_w + 1;
  TT_CHECK(g.out_h > 0 && g.out_w > 0, "Given input with spatial size (", height, ", ", width, "), kernel_size=",
           sizes_text(kernel_size), ", dilation=", sizes_text(dilation), ", padding=", sizes_text(padding),
           ", calculated shape of the array of sliding blocks as (", g.out_h, ", ", g.out_w,
           "), but its components must be at least one.");
  return g;
}

// For the derivatives: sizes = {kernel (2), dilation (2), padding (2), stride (2), output_size (2)}.
OpAttributes fold_attributes(const int64_t (&geometry)[10]) {
  OpAttributes attributes;
  attributes.sizes = IntArrayRef(geometry);
  return attributes;
}

}  // namespace

Tensor im2col(const Tensor& input, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
              IntArrayRef stride) {
  TT_CHECK(input.dim() == 3 || input.dim() == 4,
           "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for "
           "input, but got: ", sizes_text(input.sizes()));
  TT_CHECK(input.is_floating_point(), "\"im2col_out_cpu\" not implemented for '", input.scalar_type(), "'");
  const bool batched = input.dim() == 4;
  const Tensor images = (batched ? input : input.unsqueeze(0)).contiguous();
  const native::Conv2dGeometry g = fold_geometry(images.size(0), images.size(1), images.size(2), images.size(3),
                                                 kernel_size, dilation, padding, stride);
  const auto unfold = detail::fast_kernels().im2col;
  TT_CHECK(unfold != nullptr, "torch::im2col (F::unfold)", kNeedsModule17, ".");
  Tensor result = unfold(images.detach(), g);
  if (!batched) result = result.squeeze(0).contiguous();
  const int64_t geometry[10] = {kernel_size[0], kernel_size[1], dilation[0], dilation[1], padding[0],
                                padding[1],     stride[0],      stride[1],   g.height,    g.width};
  static OpHandle im2col_op("im2col");
  record_op(im2col_op, {input}, {result}, fold_attributes(geometry));
  return result;
}

Tensor col2im(const Tensor& input, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  TT_CHECK(input.dim() == 2 || input.dim() == 3,
           "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
           "input, but got: ", sizes_text(input.sizes()));
  TT_CHECK(input.is_floating_point(), "\"col2im_out_cpu\" not implemented for '", input.scalar_type(), "'");
  TT_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  check_pair(kernel_size, "kernel_size", 1);
  const bool batched = input.dim() == 3;
  const Tensor columns = (batched ? input : input.unsqueeze(0)).contiguous();
  const int64_t taps = kernel_size[0] * kernel_size[1];
  TT_CHECK(columns.size(1) % taps == 0, "Expected size of input's dimension 1 to be divisible by the product of "
           "kernel_size, but got input.size(1)=", columns.size(1), " and kernel_size=", sizes_text(kernel_size));
  const native::Conv2dGeometry g = fold_geometry(columns.size(0), columns.size(1) / taps, output_size[0],
                                                 output_size[1], kernel_size, dilation, padding, stride);
  TT_CHECK(columns.size(2) == g.out_h * g.out_w, "Given output_size=", sizes_text(output_size), ", kernel_size=",
           sizes_text(kernel_size), ", dilation=", sizes_text(dilation), ", padding=", sizes_text(padding),
           ", stride=", sizes_text(stride), ", expected size of input's dimension 2 to match the calculated number "
           "of sliding blocks ", g.out_h, " * ", g.out_w, " = ", g.out_h * g.out_w, ", but got input.size(2)=",
           columns.size(2), ".");
  const auto fold = detail::fast_kernels().col2im;
  TT_CHECK(fold != nullptr, "torch::col2im (F::fold)", kNeedsModule17, ".");
  Tensor result = fold(columns.detach(), g);
  if (!batched) result = result.squeeze(0).contiguous();
  const int64_t geometry[10] = {kernel_size[0], kernel_size[1], dilation[0], dilation[1], padding[0],
                                padding[1],     stride[0],      stride[1],   output_size[0], output_size[1]};
  static OpHandle col2im_op("col2im");
  record_op(col2im_op, {input}, {result}, fold_attributes(geometry));
  return result;
}

namespace {
IntArrayRef pair(const int64_t* first) { return IntArrayRef(first, 2); }

// im2col and col2im are each other's adjoints, so each one's gradient is the other (LibTorch's
// Im2ColBackward0 / Col2ImBackward0). The output_size slot holds the image's (H, W).
const RegisterDerivative im2col_derivative("im2col", {
    "Im2ColBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list {
      const int64_t* s = ctx.attributes.sizes.data();
      return {ctx.needs_input_grad(0) ? col2im(ctx.grad(), pair(s + 8), pair(s), pair(s + 2), pair(s + 4), pair(s + 6))
                                      : Tensor()};
    }});
const RegisterDerivative col2im_derivative("col2im", {
    "Col2ImBackward0", nullptr, [](const BackwardContext& ctx) -> tensor_list {
      const int64_t* s = ctx.attributes.sizes.data();
      return {ctx.needs_input_grad(0) ? im2col(ctx.grad(), pair(s), pair(s + 2), pair(s + 4), pair(s + 6)) : Tensor()};
    }});
}  // namespace

namespace acceleration {

bool fast_kernels_available() { return detail::fast_kernels().mm != nullptr; }

Tensor naive_mm(const Tensor& self, const Tensor& mat2) {
  if (self.dim() == 2 && mat2.dim() == 2) {
    TT_CHECK(self.scalar_type() == mat2.scalar_type(), "expected scalar type ", toString(self.scalar_type()),
             " but found ", toString(mat2.scalar_type()));
  }
  return native::mm(self, mat2);
}

Tensor textbook_mm(const Tensor& self, const Tensor& mat2) {
  TT_CHECK(self.dim() == 2 && mat2.dim() == 2 && self.size(1) == mat2.size(0),
           "torch::acceleration::textbook_mm: expected two matrices (n x m) and (m x p), got sizes ", self.sizes(),
           " and ", mat2.sizes());
  TT_CHECK(self.scalar_type() == kFloat && mat2.scalar_type() == kFloat,
           "torch::acceleration::textbook_mm: expected float matrices, got ", toString(self.scalar_type()), " and ",
           toString(mat2.scalar_type()));
  const Tensor a = self.contiguous(), b = mat2.contiguous();
  const int64_t n = a.size(0), m = a.size(1), p = b.size(1);
  Tensor c = empty({n, p});
  const float* a_data = a.data_ptr<float>();
  const float* b_data = b.data_ptr<float>();
  float* c_data = c.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < p; ++j) {
      float sum = 0;
      for (int64_t k = 0; k < m; ++k) sum += a_data[i * m + k] * b_data[k * p + j];
      c_data[i * p + j] = sum;
    }
  return c;
}

Tensor fast_mm(const Tensor& self, const Tensor& mat2) {
  const auto fast = detail::fast_kernels().mm;
  TT_CHECK(fast != nullptr, "torch::acceleration::fast_mm", kNeedsModule17,
           " (torch::acceleration::naive_mm runs module 01's loops in every build).");
  if (self.dim() == 2 && mat2.dim() == 2) {
    TT_CHECK(self.scalar_type() == mat2.scalar_type(), "expected scalar type ", toString(self.scalar_type()),
             " but found ", toString(mat2.scalar_type()));
  }
  Tensor result = fast(self, mat2);
  return result.defined() ? result : native::mm(self, mat2);  // a shape it cannot take: module 01's error
}

}  // namespace acceleration
}  // namespace tinytorch
