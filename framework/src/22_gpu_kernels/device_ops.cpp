// Module 22 (GPU kernels): the OpenCL kernels of the ops, declared under each op's name
// (tinytorch/dispatch.h), made of the learner's kernels in this folder. Given code.
//
// Nothing names this file: the link flag -Wl,-u,tinytorch_device_kernels_registration (framework/CMakeLists.txt;
// tito adds it to a learner's builds once module 22 is in them) keeps it, and its static initializers
// declare the kernels. Without it an op on a device tensor says its kernel arrives with module 22.
//
// What runs where: + - * / pow, the comparisons and the unary ops are the learner's element-wise kernel
// with an expression; sum is reduce_rows / reduce_all after moving the reduced dims last; mm and bmm the
// learner's GEMM; softmax and log_softmax softmax_rows; the convolution im2col + GEMM (backward: GEMMs and
// col2im); copies the learner's transfers. Max pooling and the negative log-likelihood (gathers, not the
// lesson's subject) are given kernels below. Device tensors are kFloat, kLong or kBool.
#include <array>
#include <cctype>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tinytorch/device_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"
#include "tinytorch/spatial_kernels.h"
#include "tinytorch/tensor_impl.h"

extern "C" {
// Named by the link flag that keeps this object (see above).
int tinytorch_device_kernels_registration = 0;
}

namespace tinytorch {
namespace opencl {

// ---- Device memory: one caching allocator per device ----

namespace {
int64_t index_of(const Device& device) { return device.has_index() ? device.index() : 0; }

std::mutex allocators_mutex;
std::vector<std::unique_ptr<DeviceCachingAllocator>>& allocators() {
  static auto* list = new std::vector<std::unique_ptr<DeviceCachingAllocator>>();  // outlives every tensor
  return *list;
}
}  // namespace

DeviceCachingAllocator& allocator(int64_t index) {
  std::lock_guard<std::mutex> guard(allocators_mutex);
  auto& list = allocators();
  if (static_cast<int64_t>(list.size()) <= index) list.resize(static_cast<size_t>(index) + 1);
  auto& slot = list[static_cast<size_t>(index)];
  if (!slot) slot = std::make_unique<DeviceCachingAllocator>(context(index));
  return *slot;
}

Tensor empty_on_device(IntArrayRef sizes, ScalarType dtype, const Device& device) {
  const Device resolved = resolve_device(device);
  TT_CHECK(resolved.is_opencl(), "empty_on_device needs an OpenCL device, got ", resolved.str());
  TT_CHECK(dtype == kFloat || dtype == kLong || dtype == kBool, "tensors on ", resolved.str(),
           " are Float, Long or Bool; got ", toString(dtype), ": convert on the CPU first (.to(torch::kFloat))");
  int64_t numel = 1;
  for (int64_t s : sizes) {
    TT_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", sizes);
    numel *= s;
  }
  const size_t nbytes = static_cast<size_t>(numel * elementSize(dtype));
  DeviceCachingAllocator& pool = allocator(index_of(resolved));
  DeviceBlock* block = pool.allocate(nbytes);
  auto storage = std::make_shared<StorageImpl>(
      block, nbytes, [&pool](void* b) { pool.free(static_cast<DeviceBlock*>(b)); }, resolved);
  return Tensor(
      std::make_shared<TensorImpl>(Storage(storage), dtype, sizes.vec(), ::tinytorch::contiguous_strides(sizes), 0));
}

DeviceMemoryStats memory_stats(int64_t device_index) { return allocator(device_index).stats(); }
void empty_cache(int64_t device_index) { allocator(device_index).empty_cache(); }
void reset_peak_memory_stats(int64_t device_index) { allocator(device_index).reset_peak_stats(); }

namespace {

using native::launch_elementwise;

const char* type_name(ScalarType dtype) {
  switch (dtype) {
    case kFloat: return "float";
    case kLong: return "long";
    case kBool: return "uchar";
    default: break;
  }
  TT_CHECK(false, "tensors on an OpenCL device are Float, Long or Bool; got ", toString(dtype));
  return "";
}

// The type an op computes in: long for integer and bool results, float otherwise.
const char* compute_of(ScalarType dtype) { return dtype == kFloat ? "float" : "long"; }

// A CPU 0-dim tensor (a number) as a device tensor, so that a kernel reads it like any other input.
Tensor on(const Tensor& t, const Device& device) {
  if (!t.defined() || t.device() == device) return t;
  // A double number (0.9 in Adam's mul_) lives on the device as float, the dtype the op computes in.
  if (t.dim() == 0 && t.scalar_type() == kDouble) return t.to(device, kFloat);
  return t.to(device);
}

Device device_of(const Tensor& a, const Tensor& b) { return a.is_cpu() ? b.device() : a.device(); }

void check_float(const Tensor& t, const char* op) {
  TT_CHECK(t.scalar_type() == kFloat, "\"", op, "\" on ", t.device().str(), " is implemented for Float only, got ",
           toString(t.scalar_type()));
}

// ---- empty, copies, fill ----

// t itself where it is contiguous, else a contiguous copy on its device (the learner's element-wise kernel).
Tensor contiguous_on_device(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor packed = empty_on_device(t.sizes(), t.scalar_type(), t.device());
  launch_elementwise("a", t, t, packed, 1.0f, compute_of(t.scalar_type()));
  return packed;
}


Tensor empty_kernel(int64_t numel, ScalarType dtype, const Device& device) {
  return empty_on_device({numel}, dtype, device);
}

void run_1d(KernelLaunch& launch, int64_t items, int64_t device_index);

const char* const kCopySource = R"CLC(
// dst[i] = src[i] for two views of one shape, each read or written through its own strides: a copy into a
// view (a slice being assigned, a narrow's gradient). Elements are float, long or uchar by -DT.
__kernel void copy_strided(__global T* dst, long dst_offset, __global const T* src, long src_offset, long8 sizes,
                           long8 dst_strides, long8 src_strides, int rank, long numel) {
  const long i = get_global_id(0);
  if (i >= numel) return;
  const long s[8] = {sizes.s0, sizes.s1, sizes.s2, sizes.s3, sizes.s4, sizes.s5, sizes.s6, sizes.s7};
  const long ds[8] = {dst_strides.s0, dst_strides.s1, dst_strides.s2, dst_strides.s3,
                      dst_strides.s4, dst_strides.s5, dst_strides.s6, dst_strides.s7};
  const long ss[8] = {src_strides.s0, src_strides.s1, src_strides.s2, src_strides.s3,
                      src_strides.s4, src_strides.s5, src_strides.s6, src_strides.s7};
  long rest = i, d_at = dst_offset, s_at = src_offset;
  for (int d = rank - 1; d >= 0; --d) {
    const long index = rest % s[d];
    rest /= s[d];
    d_at += index * ds[d];
    s_at += index * ss[d];
  }
  dst[d_at] = src[s_at];
}

)CLC";

// dst (a strided view on the device) <- src (same device, shape, any strides), converted to dst's dtype first.
void copy_into_view(const Tensor& dst, const Tensor& src) {
  TT_CHECK(dst.dim() <= 8, "a copy on ", dst.device().str(), " handles at most 8 dimensions, got ", dst.dim());
  Tensor source = src;
  if (src.scalar_type() != dst.scalar_type()) {
    source = empty_on_device(src.sizes(), dst.scalar_type(), dst.device());
    launch_elementwise("a", src, src, source, 1.0f, compute_of(dst.scalar_type()));
  }
  const int64_t device = index_of(dst.device());
  cl_kernel k = kernel(kCopySource, "copy_strided", std::string("-DT=") + type_name(dst.scalar_type()), device);
  KernelLaunch launch(k, device);
  launch.arg(dst).arg(source).arg(dst.sizes().vec()).arg(dst.strides().vec()).arg(source.strides().vec())
      .arg(static_cast<int32_t>(dst.dim())).arg(dst.numel());
  run_1d(launch, dst.numel(), device);
}

// dst <- src, same shape (src may be a broadcast view); either or both on the device.
void copy_kernel(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  if (!dst.is_cpu() && !src.is_cpu()) {
    TT_CHECK(dst.device() == src.device(), "copy_ between two devices (", src.device().str(), " to ",
             dst.device().str(), ") goes through the CPU: .cpu() first");
    if (dst.is_contiguous()) {
      launch_elementwise("a", src, src, dst, 1.0f, compute_of(dst.scalar_type()));
      return;
    }
    copy_into_view(dst, src);
    return;
  }
  if (dst.is_cpu()) {  // device -> host
    Tensor source = src.is_contiguous() && src.storage_offset() >= 0 ? src : src.contiguous();
    Tensor host = empty(source.sizes(), TensorOptions(source.scalar_type()));
    native::copy_device_to_host(source, host);
    Tensor target = dst;
    target.copy_(host);
    return;
  }
  // host -> device
  const Tensor host = src.contiguous().to(dst.scalar_type());
  if (dst.is_contiguous()) {
    native::copy_host_to_device(host.is_contiguous() ? host : host.contiguous(), dst, /*non_blocking=*/false);
    return;
  }
  Tensor staged = empty_on_device(dst.sizes(), dst.scalar_type(), dst.device());
  native::copy_host_to_device(host.is_contiguous() ? host : host.contiguous(), staged, /*non_blocking=*/false);
  copy_into_view(dst, staged);
}

void fill_kernel(const Tensor& t, const Scalar& value) {
  if (t.numel() == 0) return;
  launch_elementwise("(COMPUTE)alpha", t, t, t, static_cast<float>(value.toDouble()), compute_of(t.scalar_type()));
}

// ---- Element-wise ----

// A number on the CPU (the 2 of x * 2, the lr of an optimizer's update) rides in the kernel's alpha argument
// instead of being copied to the device first: a copy costs a blocking transfer, the argument nothing.
// Numbers a float does not hold exactly (an int64 beyond 2^24) take the copy.
std::optional<float> as_argument(const Tensor& t) {
  if (!t.is_cpu() || t.dim() != 0) return std::nullopt;
  const double value = t.item<double>();
  const auto narrowed = static_cast<float>(value);
  if (!t.is_floating_point() && static_cast<double>(narrowed) != value) return std::nullopt;
  return narrowed;
}

// `expression` with the one-letter operand `name` replaced by the kernel's alpha argument.
std::string with_argument(std::string expression, char name) {
  std::string result;
  for (size_t i = 0; i < expression.size(); ++i) {
    const bool word_before = i > 0 && (std::isalnum(static_cast<unsigned char>(expression[i - 1])) || expression[i - 1] == '_');
    const bool word_after = i + 1 < expression.size() &&
                            (std::isalnum(static_cast<unsigned char>(expression[i + 1])) || expression[i + 1] == '_');
    if (expression[i] == name && !word_before && !word_after) {
      result += "alpha";
    } else {
      result += expression[i];
    }
  }
  return result;
}

// out = expression(a, b) broadcast, with a CPU number among a and b passed as the alpha argument.
void launch_with_numbers(const char* expression, const Tensor& a, const Tensor& b, const Tensor& out,
                         const char* compute, const Device& device) {
  const std::optional<float> a_number = as_argument(a), b_number = as_argument(b);
  if (b_number && !a_number) {
    launch_elementwise(with_argument(expression, 'b'), a, a, out, *b_number, compute);
  } else if (a_number && !b_number) {
    launch_elementwise(with_argument(expression, 'a'), b, b, out, *a_number, compute);
  } else {
    launch_elementwise(expression, on(a, device), on(b, device), out, 1.0f, compute);
  }
}

template <const char* Expression>
Tensor binary(const Tensor& a, const Tensor& b, ScalarType dtype) {
  TT_CHECK(dtype == kFloat || dtype == kLong, "\"", Expression, "\" on an OpenCL device is implemented for Float ",
           "and Long results, got ", toString(dtype));
  const Device device = device_of(a, b);
  Tensor out = empty_on_device(infer_size(a.sizes(), b.sizes()), dtype, device);
  if (out.numel() > 0) launch_with_numbers(Expression, a, b, out, compute_of(dtype), device);
  return out;
}
constexpr char kAdd[] = "a + b";
constexpr char kSub[] = "a - b";
constexpr char kMul[] = "a * b";
constexpr char kDiv[] = "a / b";
constexpr char kPow[] = "pow(a, b)";

template <const char* Expression>
Tensor compare(const Tensor& a, const Tensor& b) {
  const ScalarType type = promoteTypes(a.scalar_type(), b.scalar_type());
  const Device device = device_of(a, b);
  Tensor out = empty_on_device(infer_size(a.sizes(), b.sizes()), kBool, device);
  if (out.numel() > 0) launch_with_numbers(Expression, a, b, out, compute_of(type), device);
  return out;
}
constexpr char kEq[] = "a == b";
constexpr char kNe[] = "a != b";
constexpr char kGt[] = "a > b";
constexpr char kLt[] = "a < b";
constexpr char kGe[] = "a >= b";
constexpr char kLe[] = "a <= b";

template <const char* Expression>
Tensor unary(const Tensor& self, ScalarType dtype) {
  TT_CHECK(dtype == kFloat || dtype == kLong, "\"", Expression, "\" on an OpenCL device is implemented for Float ",
           "and Long results, got ", toString(dtype));
  Tensor out = empty_on_device(self.sizes(), dtype, self.device());
  if (out.numel() > 0) launch_elementwise(Expression, self, self, out, 1.0f, compute_of(dtype));
  return out;
}
constexpr char kNeg[] = "-a";
constexpr char kExp[] = "exp(a)";
constexpr char kLog[] = "log(a)";
constexpr char kSqrt[] = "sqrt(a)";
constexpr char kRelu[] = "a < 0 ? (COMPUTE)0 : a";  // relu(NaN) is NaN, as LibTorch's: NaN < 0 is false
constexpr char kSigmoid[] = "1 / (1 + exp(-a))";
constexpr char kTanh[] = "tanh(a)";

// ---- Reductions ----

// self summed over `dims` (wrapped, sorted, unique; empty: all), keepdim as LibTorch's.
Tensor sum_kernel(const Tensor& self, const std::vector<int64_t>& dims, bool keepdim, ScalarType dtype) {
  TT_CHECK(dtype == kFloat, "\"sum\" on ", self.device().str(), " is implemented for Float results, got ",
           toString(dtype));
  const Tensor input = self.scalar_type() == kFloat ? self : self.to(kFloat);
  std::vector<bool> reduced(static_cast<size_t>(self.dim()), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d)] = true;
  std::vector<int64_t> kept_sizes, out_sizes, order;
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (reduced[static_cast<size_t>(d)]) {
      if (keepdim) out_sizes.push_back(1);
      cols *= self.size(d);
    } else {
      out_sizes.push_back(self.size(d));
      order.push_back(d);
      rows *= self.size(d);
    }
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (reduced[static_cast<size_t>(d)]) order.push_back(d);
  }
  Tensor out = empty_on_device(out_sizes, kFloat, self.device());
  if (out.numel() == 0) return out;
  if (cols == 0) {
    fill_kernel(out, 0);
    return out;
  }
  // The kept dims first, the reduced ones last: each output is one contiguous row to reduce.
  const Tensor arranged = contiguous_on_device(self.dim() == 0 ? input : input.permute(order));
  const Tensor matrix = ::tinytorch::native::make_view(arranged, {rows, cols}, {cols, 1}, arranged.storage_offset());
  const Tensor flat = ::tinytorch::native::make_view(out, {rows}, {1}, out.storage_offset());
  if (rows == 1) {
    native::reduce_all(native::ReduceOp::Sum, ::tinytorch::native::make_view(arranged, {cols}, {1}, arranged.storage_offset()), flat);
  } else {
    native::reduce_rows(native::ReduceOp::Sum, matrix, flat);
  }
  return out;
}

// ---- Matrix products ----

Tensor mm_kernel(const Tensor& self, const Tensor& mat2) {
  TT_CHECK(self.dim() == 2, "self must be a matrix");
  TT_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  TT_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
           self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  check_float(self, "mm");
  check_float(mat2, "mm");
  Tensor out = empty_on_device({self.size(0), mat2.size(1)}, kFloat, self.device());
  if (out.numel() > 0) native::gemm(self, mat2, out);
  return out;
}

Tensor bmm_kernel(const Tensor& self, const Tensor& mat2) {
  TT_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  TT_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  TT_CHECK(self.size(0) == mat2.size(0) && self.size(2) == mat2.size(1), "Expected size for first two dimensions of ",
           "batch2 tensor to be: [", self.size(0), ", ", self.size(2), "] but got: [", mat2.size(0), ", ",
           mat2.size(1), "].");
  check_float(self, "bmm");
  check_float(mat2, "bmm");
  Tensor out = empty_on_device({self.size(0), self.size(1), mat2.size(2)}, kFloat, self.device());
  if (out.numel() == 0) return out;
  for (int64_t i = 0; i < self.size(0); ++i) native::gemm(self.select(0, i), mat2.select(0, i), out.select(0, i));
  return out;
}

// ---- Softmax ----

template <bool Log>
Tensor softmax_kernel(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  TT_CHECK(dtype.value_or(self.scalar_type()) == kFloat, "\"", Log ? "log_softmax" : "softmax", "\" on ",
           self.device().str(), " is implemented for Float, got ", toString(dtype.value_or(self.scalar_type())));
  const Tensor input = self.dim() == 0 ? ::tinytorch::native::make_view(self, {1}, {1}, self.storage_offset()) : self;
  const int64_t last = input.dim() - 1;
  const Tensor moved = contiguous_on_device(dim == last ? input : input.transpose(dim, last));
  Tensor out = empty_on_device(moved.sizes(), kFloat, self.device());
  if (out.numel() > 0) {
    const int64_t cols = moved.size(-1), rows = moved.numel() / std::max<int64_t>(cols, 1);
    native::softmax_rows(::tinytorch::native::make_view(moved, {rows, cols}, {cols, 1}, moved.storage_offset()),
                         ::tinytorch::native::make_view(out, {rows, cols}, {cols, 1}, 0), Log);
  }
  if (dim != last) out = contiguous_on_device(out.transpose(dim, last));
  return self.dim() == 0 ? ::tinytorch::native::make_view(out, {}, {}, 0) : out;
}

// ---- Convolution: im2col + GEMM ----

native::ConvShape conv_shape(const ::tinytorch::native::Conv2dGeometry& g) {
  native::ConvShape s;
  s.batch = g.batch;
  s.channels = g.channels;
  s.height = g.height;
  s.width = g.width;
  s.kernel_h = g.kernel_h;
  s.kernel_w = g.kernel_w;
  s.stride_h = g.stride_h;
  s.stride_w = g.stride_w;
  s.pad_h = g.pad_h;
  s.pad_w = g.pad_w;
  s.dilation_h = g.dilation_h;
  s.dilation_w = g.dilation_w;
  s.out_h = g.out_h;
  s.out_w = g.out_w;
  return s;
}

// The columns of `input` (C kh kw, N OH OW).
Tensor columns_of(const Tensor& input, const ::tinytorch::native::Conv2dGeometry& g) {
  Tensor columns =
      empty_on_device({g.channels * g.kernel_h * g.kernel_w, g.batch * g.out_h * g.out_w}, kFloat, input.device());
  if (columns.numel() > 0) native::im2col(contiguous_on_device(input), conv_shape(g), columns);
  return columns;
}

Tensor convolution_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias,
                          const ::tinytorch::native::Conv2dParams& params) {
  check_float(input, "convolution");
  check_float(weight, "convolution");
  const ::tinytorch::native::Conv2dGeometry g = ::tinytorch::native::geometry_of(input, weight, params);
  TT_CHECK(g.groups == 1, "convolution on ", input.device().str(), " has a kernel for groups=1 only, got groups=",
           g.groups);
  const int64_t taps = g.channels * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const Tensor columns = columns_of(input, g);
  Tensor product = empty_on_device({g.out_channels, g.batch * positions}, kFloat, input.device());
  if (product.numel() > 0) {
    const Tensor w = contiguous_on_device(weight);
    native::gemm(::tinytorch::native::make_view(w, {g.out_channels, taps}, {taps, 1}, w.storage_offset()), columns, product);
  }
  // (O, N, OH, OW) -> (N, O, OH, OW), adding the bias on the way.
  const Tensor arranged = ::tinytorch::native::make_view(product, {g.batch, g.out_channels, g.out_h, g.out_w},
                                            {positions, g.batch * positions, g.out_w, 1}, 0);
  Tensor out = empty_on_device({g.batch, g.out_channels, g.out_h, g.out_w}, kFloat, input.device());
  if (out.numel() == 0) return out;
  if (bias.defined()) {
    const Tensor b = ::tinytorch::native::make_view(bias, {1, g.out_channels, 1, 1}, {0, bias.stride(0), 0, 0}, bias.storage_offset());
    launch_elementwise("a + b", arranged, b, out);
  } else {
    launch_elementwise("a", arranged, arranged, out);
  }
  return out;
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward_kernel(const Tensor& grad_output, const Tensor& input,
                                                               const Tensor& weight,
                                                               const ::tinytorch::native::Conv2dParams& params,
                                                               const std::array<bool, 3>& output_mask) {
  const ::tinytorch::native::Conv2dGeometry g = ::tinytorch::native::geometry_of(input, weight, params);
  TT_CHECK(g.groups == 1, "convolution_backward on ", input.device().str(), " has a kernel for groups=1 only");
  const int64_t taps = g.channels * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  // grad_output (N, O, OH, OW) as (O, N OH OW), the layout the forward's product had.
  const Tensor go = contiguous_on_device(grad_output);
  const Tensor as_product = ::tinytorch::native::make_view(go, {g.out_channels, g.batch, positions},
                                              {positions, g.out_channels * positions, 1}, go.storage_offset());
  Tensor g2 = empty_on_device({g.out_channels, g.batch, positions}, kFloat, input.device());
  if (g2.numel() > 0) launch_elementwise("a", as_product, as_product, g2);
  const Tensor g2_matrix = ::tinytorch::native::make_view(g2, {g.out_channels, g.batch * positions}, {g.batch * positions, 1}, 0);
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[1]) {  // dW (O, C kh kw) = g2 @ columns^T
    const Tensor columns = columns_of(input, g);
    grad_weight = empty_on_device(weight.sizes(), kFloat, input.device());
    if (grad_weight.numel() > 0) {
      native::gemm(g2_matrix, columns.t(), ::tinytorch::native::make_view(grad_weight, {g.out_channels, taps}, {taps, 1}, 0));
    }
  }
  if (output_mask[0]) {  // dcolumns (C kh kw, N OH OW) = W^T @ g2, folded back onto the image by col2im
    const Tensor w = contiguous_on_device(weight);
    Tensor grad_columns = empty_on_device({taps, g.batch * positions}, kFloat, input.device());
    if (grad_columns.numel() > 0) {
      native::gemm(::tinytorch::native::make_view(w, {g.out_channels, taps}, {taps, 1}, w.storage_offset()).t(), g2_matrix,
                   grad_columns);
    }
    grad_input = empty_on_device(input.sizes(), kFloat, input.device());
    fill_kernel(grad_input, 0);
    if (grad_columns.numel() > 0) native::col2im(grad_columns, conv_shape(g), grad_input);
  }
  if (output_mask[2]) grad_bias = sum_kernel(g2_matrix, {1}, false, kFloat);
  return {grad_input, grad_weight, grad_bias};
}

// ---- Given kernels: max pooling and the negative log-likelihood (gathers) ----

const char* const kGatherSource = R"CLC(
__kernel void max_pool2d(__global float* out, long out_offset, __global long* indices, long indices_offset,
                         __global const float* in, long in_offset, long planes, long height, long width,
                         long out_h, long out_w, long kernel_h, long kernel_w, long stride_h, long stride_w,
                         long pad_h, long pad_w, long dilation_h, long dilation_w) {
  const long i = get_global_id(0);
  if (i >= planes * out_h * out_w) return;
  const long plane = i / (out_h * out_w), oy = (i / out_w) % out_h, ox = i % out_w;
  __global const float* image = in + in_offset + plane * height * width;
  float best = -INFINITY;
  long where = -1;
  for (long ky = 0; ky < kernel_h; ++ky) {
    const long y = oy * stride_h - pad_h + ky * dilation_h;
    if (y < 0 || y >= height) continue;
    for (long kx = 0; kx < kernel_w; ++kx) {
      const long x = ox * stride_w - pad_w + kx * dilation_w;
      if (x < 0 || x >= width) continue;
      const float v = image[y * width + x];
      if (where < 0 || v > best || isnan(v)) { best = v; where = y * width + x; }
    }
  }
  out[out_offset + i] = best;
  indices[indices_offset + i] = where;
}

// Each input pixel gathers the gradients of the windows whose maximum it was: no two work-items write
// one element, so no atomics.
__kernel void max_pool2d_backward(__global float* grad_in, long grad_in_offset, __global const float* grad_out,
                                  long grad_out_offset, __global const long* indices, long indices_offset,
                                  long planes, long height, long width, long out_h, long out_w, long kernel_h,
                                  long kernel_w, long stride_h, long stride_w, long pad_h, long pad_w,
                                  long dilation_h, long dilation_w) {
  const long i = get_global_id(0);
  if (i >= planes * height * width) return;
  const long plane = i / (height * width), y = (i / width) % height, x = i % width;
  const long here = y * width + x;
  float sum = 0;
  for (long oy = 0; oy < out_h; ++oy) {
    const long ky = y + pad_h - oy * stride_h;
    if (ky < 0 || ky % dilation_h != 0 || ky / dilation_h >= kernel_h) continue;
    for (long ox = 0; ox < out_w; ++ox) {
      const long kx = x + pad_w - ox * stride_w;
      if (kx < 0 || kx % dilation_w != 0 || kx / dilation_w >= kernel_w) continue;
      const long o = plane * out_h * out_w + oy * out_w + ox;
      if (indices[indices_offset + o] == here) sum += grad_out[grad_out_offset + o];
    }
  }
  grad_in[grad_in_offset + i] = sum;
}

// A target outside 0..classes-1 (and not ignore_index) of sample n raises the flag to batch - n: the flag
// (the first 4 bytes of a zeroed long, as an int: atomic_max on a long is an extension) ends up naming
// the first such sample, the one whose target the CPU's loop throws at.
void flag_bad_target(__global long* flag, long flag_offset, long batch, long n) {
  atomic_max((volatile __global int*)(flag + flag_offset), (int)(batch - n));
}

// loss[n] = -self[n, target[n]] (0 for an ignored target); a bad target writes NaN and is flagged.
__kernel void nll_loss(__global float* loss, long loss_offset, __global const float* self, long self_offset,
                       __global const long* target, long target_offset, __global long* flag, long flag_offset,
                       long batch, long classes, long ignore_index) {
  const long n = get_global_id(0);
  if (n >= batch) return;
  const long t = target[target_offset + n];
  if (t == ignore_index) { loss[loss_offset + n] = 0; return; }
  if (t < 0 || t >= classes) {
    flag_bad_target(flag, flag_offset, batch, n);
    loss[loss_offset + n] = NAN;
    return;
  }
  loss[loss_offset + n] = -self[self_offset + n * classes + t];
}

// grad[n, c] = -scale[n] where c = target[n], 0 elsewhere; scale is the incoming gradient (per sample or one
// number) divided by the count of samples not ignored for the mean. Column 0 of each row flags a bad target.
__kernel void nll_loss_backward(__global float* grad, long grad_offset, __global const float* grad_out,
                                long grad_out_offset, __global const long* target, long target_offset,
                                __global long* flag, long flag_offset, long batch, long classes, long ignore_index,
                                long per_sample, float divisor) {
  const long i = get_global_id(0);
  if (i >= batch * classes) return;
  const long n = i / classes, c = i % classes;
  const long t = target[target_offset + n];
  if (c == 0 && t != ignore_index && (t < 0 || t >= classes)) flag_bad_target(flag, flag_offset, batch, n);
  const float g = grad_out[grad_out_offset + (per_sample ? n : 0)];
  grad[grad_offset + i] = (t == c && t != ignore_index) ? -g / divisor : 0.0f;
}
)CLC";

void run_1d(KernelLaunch& launch, int64_t items, int64_t device_index) {
  const native::Geometry1d geometry = native::geometry_1d(items, device_info(device_index));
  launch.run({geometry.global}, {geometry.local});
}

std::tuple<Tensor, Tensor> max_pool2d_kernel(const Tensor& input, const ::tinytorch::native::Pool2dGeometry& g) {
  check_float(input, "max_pool2d");
  const Tensor x = contiguous_on_device(input);
  const int64_t device = index_of(input.device());
  Tensor out = empty_on_device({g.batch, g.channels, g.out_h, g.out_w}, kFloat, input.device());
  Tensor indices = empty_on_device({g.batch, g.channels, g.out_h, g.out_w}, kLong, input.device());
  if (out.numel() == 0) return {out, indices};
  cl_kernel k = kernel(kGatherSource, "max_pool2d", "", device);
  KernelLaunch launch(k, device);
  launch.arg(out).arg(indices).arg(x).arg(g.batch * g.channels).arg(g.height).arg(g.width).arg(g.out_h)
      .arg(g.out_w).arg(g.kernel_h).arg(g.kernel_w).arg(g.stride_h).arg(g.stride_w).arg(g.pad_h).arg(g.pad_w)
      .arg(g.dilation_h).arg(g.dilation_w);
  run_1d(launch, out.numel(), device);
  return {out, indices};
}

Tensor max_pool2d_backward_kernel(const Tensor& grad_output, const Tensor& indices, const ::tinytorch::native::Pool2dGeometry& g) {
  const Tensor go = contiguous_on_device(grad_output);
  const Tensor idx = contiguous_on_device(indices);
  const int64_t device = index_of(grad_output.device());
  Tensor grad_input = empty_on_device({g.batch, g.channels, g.height, g.width}, kFloat, grad_output.device());
  if (grad_input.numel() == 0) return grad_input;
  cl_kernel k = kernel(kGatherSource, "max_pool2d_backward", "", device);
  KernelLaunch launch(k, device);
  launch.arg(grad_input).arg(go).arg(idx).arg(g.batch * g.channels).arg(g.height).arg(g.width).arg(g.out_h)
      .arg(g.out_w).arg(g.kernel_h).arg(g.kernel_w).arg(g.stride_h).arg(g.stride_w).arg(g.pad_h).arg(g.pad_w)
      .arg(g.dilation_h).arg(g.dilation_w);
  run_1d(launch, grad_input.numel(), device);
  return grad_input;
}

void check_no_class_weight(const Tensor& weight, const char* op) {
  TT_CHECK(!weight.defined(), op, " with class weights has no OpenCL kernel: leave weight undefined, or compute ",
           "the loss on the CPU");
}

// The flag the nll_loss kernels raise at a target out of range: a zeroed long on the device.
Tensor bad_target_flag(const Device& device, int64_t batch) {
  TT_CHECK(batch <= std::numeric_limits<int32_t>::max(), "nll_loss on ", device.str(), " takes at most 2^31 - 1 ",
           "samples in one call, got ", batch, ": split the batch");
  Tensor flag = empty_on_device({1}, kLong, device);
  fill_kernel(flag, 0);
  return flag;
}

// Throws the CPU's error (LibTorch's "Target 5 is out of bounds.") when a kernel raised the flag. Reading
// it back waits for the kernel: the price of an error at the call that caused it rather than NaN later.
// (LibTorch's CUDA kernel asserts on the device instead: "device-side assert triggered" at a later call.)
void check_bad_target_flag(const Tensor& flag, const Tensor& target, int64_t batch) {
  const Tensor host = flag.cpu();
  int32_t raised = 0;  // the kernels' int lives in the long's first 4 bytes, whatever the byte order
  std::memcpy(&raised, host.data_ptr(), sizeof(raised));
  if (raised == 0) return;
  const int64_t first = batch - raised;
  TT_CHECK(false, "Target ", target[first].item<int64_t>(), " is out of bounds.");
}

// self (N, C) log-probabilities, target (N) class indices, both on the device.
Tensor nll_loss_kernel(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                       int64_t ignore_index) {
  check_no_class_weight(weight, "nll_loss");
  check_float(self, "nll_loss");
  TT_CHECK(target.scalar_type() == kLong, "expected scalar type Long but found ", toString(target.scalar_type()));
  const int64_t batch = self.size(0), classes = self.size(1);
  const int64_t device = index_of(self.device());
  Tensor loss = empty_on_device({batch}, kFloat, self.device());
  if (batch > 0) {
    const Tensor flag = bad_target_flag(self.device(), batch);
    {
      cl_kernel k = kernel(kGatherSource, "nll_loss", "", device);
      KernelLaunch launch(k, device);
      launch.arg(loss).arg(self).arg(target).arg(flag).arg(batch).arg(classes).arg(ignore_index);
      run_1d(launch, batch, device);
    }
    check_bad_target_flag(flag, target, batch);
  }
  if (reduction == 0) return loss;
  NoGradGuard no_record;
  const Tensor total = loss.sum();
  if (reduction == 2) return total;
  // Mean over the samples not ignored: their count is a sum of a comparison on the device.
  const Tensor counted = target.ne(ignore_index).to(kFloat).sum();
  return total / counted;
}

Tensor nll_loss_backward_kernel(const Tensor& grad, const Tensor& target, const Tensor& weight, IntArrayRef self_sizes,
                                int64_t reduction, int64_t ignore_index) {
  check_no_class_weight(weight, "nll_loss backward");
  const int64_t classes = self_sizes.back();
  const int64_t batch = self_sizes.size() == 2 ? self_sizes[0] : 1;
  const int64_t device = index_of(target.device());
  float divisor = 1.0f;
  if (reduction == 1) {  // Mean: one number read back, the count of samples that count
    NoGradGuard no_record;
    divisor = static_cast<float>(target.ne(ignore_index).to(kFloat).sum().item<double>());
  }
  Tensor result = empty_on_device({batch, classes}, kFloat, target.device());
  const Tensor g = contiguous_on_device(grad.is_cpu() ? grad.to(target.device()) : grad);
  if (result.numel() > 0) {
    const Tensor flag = bad_target_flag(target.device(), batch);
    {
      cl_kernel k = kernel(kGatherSource, "nll_loss_backward", "", device);
      KernelLaunch launch(k, device);
      launch.arg(result).arg(g).arg(target).arg(flag).arg(batch).arg(classes).arg(ignore_index)
          .arg(static_cast<int64_t>(reduction == 0 ? 1 : 0)).arg(divisor);
      run_1d(launch, result.numel(), device);
    }
    check_bad_target_flag(flag, target, batch);
  }
  return self_sizes.size() == 2 ? result : result.reshape(self_sizes);
}

// ---- Pinned host memory through Tensor ----

bool is_pinned_kernel(const Tensor& self, std::optional<Device> /*device*/) {
  return is_pinned_host_memory(self.storage().data());
}

Tensor pin_memory_kernel(const Tensor& self, std::optional<Device> /*device*/) {
  if (is_pinned_kernel(self, std::nullopt)) return self;
  Tensor pinned = empty_pinned(self.sizes(), self.scalar_type());
  pinned.copy_(self);
  return pinned;
}

// dst (device, contiguous) <- src (pinned host memory, contiguous, same dtype): queued, not waited for.
void copy_non_blocking_kernel(const Tensor& dst, const Tensor& src) {
  native::copy_host_to_device(src, dst, /*non_blocking=*/true);
  // The driver reads src after this returns: src's memory stays allocated until the write has run, even if
  // the caller drops src at once (a batch's block would otherwise go back to module 21's pool and be refilled).
  const DeviceBlock& block = block_of(dst);
  hold_until_complete(block.last_use, src.storage());
}

// ---- The declarations ----

using Binary = Tensor(const Tensor&, const Tensor&, ScalarType);
using Compare = Tensor(const Tensor&, const Tensor&);
using Unary = Tensor(const Tensor&, ScalarType);
constexpr DeviceType kOpenCL = DeviceType::OPENCL;

const RegisterDeviceKernel<bool(const Tensor&, std::optional<Device>)> is_pinned_opencl("is_pinned", kOpenCL,
                                                                                      &is_pinned_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, std::optional<Device>)> pin_memory_opencl("pin_memory", kOpenCL,
                                                                                          &pin_memory_kernel);
const RegisterDeviceKernel<Tensor(int64_t, ScalarType, const Device&)> empty_opencl("empty", kOpenCL, &empty_kernel);
const RegisterDeviceKernel<void(const Tensor&, const Tensor&)> copy_opencl("copy_", kOpenCL, &copy_kernel);
const RegisterDeviceKernel<void(const Tensor&, const Tensor&)> copy_non_blocking_opencl("copy_non_blocking", kOpenCL,
                                                                                       &copy_non_blocking_kernel);
const RegisterDeviceKernel<void(const Tensor&, const Scalar&)> fill_opencl("fill_", kOpenCL, &fill_kernel);
const RegisterDeviceKernel<Binary> add_opencl("add", kOpenCL, &binary<kAdd>);
const RegisterDeviceKernel<Binary> sub_opencl("sub", kOpenCL, &binary<kSub>);
const RegisterDeviceKernel<Binary> mul_opencl("mul", kOpenCL, &binary<kMul>);
const RegisterDeviceKernel<Binary> div_opencl("div", kOpenCL, &binary<kDiv>);
const RegisterDeviceKernel<Binary> pow_opencl("pow", kOpenCL, &binary<kPow>);
const RegisterDeviceKernel<Compare> eq_opencl("eq", kOpenCL, &compare<kEq>);
const RegisterDeviceKernel<Compare> ne_opencl("ne", kOpenCL, &compare<kNe>);
const RegisterDeviceKernel<Compare> gt_opencl("gt", kOpenCL, &compare<kGt>);
const RegisterDeviceKernel<Compare> lt_opencl("lt", kOpenCL, &compare<kLt>);
const RegisterDeviceKernel<Compare> ge_opencl("ge", kOpenCL, &compare<kGe>);
const RegisterDeviceKernel<Compare> le_opencl("le", kOpenCL, &compare<kLe>);
const RegisterDeviceKernel<Unary> neg_opencl("neg", kOpenCL, &unary<kNeg>);
const RegisterDeviceKernel<Unary> exp_opencl("exp", kOpenCL, &unary<kExp>);
const RegisterDeviceKernel<Unary> log_opencl("log", kOpenCL, &unary<kLog>);
const RegisterDeviceKernel<Unary> sqrt_opencl("sqrt", kOpenCL, &unary<kSqrt>);
const RegisterDeviceKernel<Unary> relu_opencl("relu", kOpenCL, &unary<kRelu>);
const RegisterDeviceKernel<Unary> sigmoid_opencl("sigmoid", kOpenCL, &unary<kSigmoid>);
const RegisterDeviceKernel<Unary> tanh_opencl("tanh", kOpenCL, &unary<kTanh>);
const RegisterDeviceKernel<Tensor(const Tensor&, const std::vector<int64_t>&, bool, ScalarType)> sum_opencl(
    "sum", kOpenCL, &sum_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&)> mm_opencl("mm", kOpenCL, &mm_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&)> bmm_opencl("bmm", kOpenCL, &bmm_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, int64_t, std::optional<ScalarType>)> softmax_opencl(
    "softmax", kOpenCL, &softmax_kernel<false>);
const RegisterDeviceKernel<Tensor(const Tensor&, int64_t, std::optional<ScalarType>)> log_softmax_opencl(
    "log_softmax", kOpenCL, &softmax_kernel<true>);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&, const Tensor&, const ::tinytorch::native::Conv2dParams&)>
    convolution_opencl("convolution", kOpenCL, &convolution_kernel);
const RegisterDeviceKernel<std::tuple<Tensor, Tensor, Tensor>(const Tensor&, const Tensor&, const Tensor&,
                                                              const ::tinytorch::native::Conv2dParams&, const std::array<bool, 3>&)>
    convolution_backward_opencl("convolution_backward", kOpenCL, &convolution_backward_kernel);
const RegisterDeviceKernel<std::tuple<Tensor, Tensor>(const Tensor&, const ::tinytorch::native::Pool2dGeometry&)>
    max_pool2d_opencl("max_pool2d_with_indices", kOpenCL, &max_pool2d_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&, const ::tinytorch::native::Pool2dGeometry&)>
    max_pool2d_backward_opencl("max_pool2d_with_indices_backward", kOpenCL, &max_pool2d_backward_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t, int64_t)> nll_loss_opencl(
    "nll_loss", kOpenCL, &nll_loss_kernel);
const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&, const Tensor&, IntArrayRef, int64_t, int64_t)>
    nll_loss_backward_opencl("nll_loss_backward", kOpenCL, &nll_loss_backward_kernel);

}  // namespace
}  // namespace opencl
}  // namespace tinytorch
