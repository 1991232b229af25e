#pragma once
// Module 22 (GPU kernels): the functions a learner writes (framework/src/22_gpu_kernels/) and the plain
// types the given code hands them. The given code (22_gpu_kernels/device_ops.cpp) makes the ops of
// device tensors out of them: torch::add on two OpenCL tensors runs launch_elementwise with the
// expression "a + alpha * b", torch::sum runs reduce_rows or reduce_all, torch::mm runs gemm,
// torch::conv2d runs im2col and gemm, and every backward is made of the same ops, so it runs on the
// device too. Programs include tinytorch/torch.h and call tensor.to(torch::Device("opencl")).
//
// Device tensors are float32 (kFloat), int64 (kLong, for class labels) or bool (kBool, as uchar); every
// kernel here is compiled from OpenCL C source through opencl::kernel(source, name, options), so one
// source serves every dtype and operator through -D options.
#include <cstdint>
#include <string>
#include <vector>

#include "tinytorch/opencl.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace opencl {
namespace native {

// ---- Launch geometry (elementwise_kernels.cpp) ----

// A 1-D launch over `work_items` items: work-groups of `local` work-items (a multiple of the device's
// preferred multiple, at most its max_work_group_size, at most 256) and `global` = work_items rounded up
// to a multiple of `local` (kernels skip the items past the end). 0 work-items: global 0.
struct Geometry1d {
  size_t global = 0;
  size_t local = 0;
};
Geometry1d geometry_1d(int64_t work_items, const DeviceInfo& device);

// ---- Element-wise kernels with broadcasting (elementwise_kernels.cpp) ----

// The OpenCL C source of the element-wise kernel "elementwise": for every element i of `out`
// (contiguous, rank <= 8), out[i] = EXPR(a at i's broadcast position, b at its broadcast position, alpha),
// where a and b are read through their own sizes and strides (any view, any storage offset; a dim of
// size 1 or a missing leading dim repeats). Compiled with -DTA=... -DTB=... -DTO=... (the element
// types: float, long or uchar), -DCOMPUTE=... (the type EXPR computes in) and -DEXPR(a,b,alpha)=...
// Arguments, in order: out (buffer, offset), a (buffer, offset), a's strides seen through out's dims (a
// long8, one stride per dim of out: 0 where a's size is 1 or a has no such dim, so that the element
// repeats), b likewise, out's sizes (long8), rank (int), numel (long), alpha (float). EXPR is passed
// quoted, -D"EXPR(a,b,alpha)=(a + alpha * b)", because build options are split at spaces.
extern const char* const kElementwiseSource;

// out = expression(a, b, alpha) element by element, broadcasting a and b to out's shape (out is
// contiguous and already has that shape; a and b are on out's device). `expression` is OpenCL C over
// a, b and alpha in COMPUTE, e.g. "a + alpha * b", "max(a, (float)0)", "a > b"; a unary op passes
// b = a. `compute_type` is "float" or "long". Launched with geometry_1d(out.numel()).
void launch_elementwise(const std::string& expression, const Tensor& a, const Tensor& b, const Tensor& out,
                        float alpha = 1.0f, const char* compute_type = "float");

// ---- Reductions (reduction_kernels.cpp) ----

enum class ReduceOp { Sum, Max };

// The OpenCL C source of "reduce_rows" and "reduce_all": a work-group reduces its share into local
// memory and halves the active work-items each step (a tree: log2(local) steps, a barrier between steps).
extern const char* const kReductionSource;

// out[r] = op over input[r, 0..cols) for a contiguous float (rows, cols) input; out has `rows` elements.
// One work-group per row, its work-items striding over the row, then the tree.
void reduce_rows(ReduceOp op, const Tensor& input, const Tensor& out);
// out[0] = op over every element of a contiguous float input, in two launches: each work-group reduces
// a slice to one partial, then one work-group reduces the partials (the two-stage reduction).
void reduce_all(ReduceOp op, const Tensor& input, const Tensor& out);

// out = softmax (or log_softmax) of each row of a contiguous float (rows, cols) input, numerically
// stable: subtract the row's max before exp. One work-group per row.
extern const char* const kSoftmaxSource;
void softmax_rows(const Tensor& input, const Tensor& out, bool log);

// ---- Matrix products and the convolution (gemm_kernels.cpp) ----

enum class GemmKernel {
  Naive,        // one work-item per element of C, reading A and B from global memory
  Tiled,        // TILE x TILE tiles of A and B staged in local memory
  RegisterTiled // the tiled kernel where each work-item keeps a WPTM x VW block of sums in registers
};
extern const char* const kGemmSource;

// c (m x n, contiguous, float) = a (m x k) @ b (k x n); a and b are float views with any strides
// (a transposed view needs no copy). Any m, n, k (not only multiples of the tile), k == 0 gives zeros.
void gemm(const Tensor& a, const Tensor& b, const Tensor& c, GemmKernel kernel = GemmKernel::RegisterTiled);

// The shape of a 2-D convolution, as module 09's Conv2dGeometry.
struct ConvShape {
  int64_t batch = 0, channels = 0, height = 0, width = 0;
  int64_t kernel_h = 0, kernel_w = 0, stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0;
  int64_t dilation_h = 1, dilation_w = 1, out_h = 0, out_w = 0;
};
extern const char* const kIm2colSource;
// columns (C kh kw, N OH OW) from contiguous images (N, C, H, W): row (c, i, j), column (n, oy, ox) holds
// image n's pixel under tap (i, j) of the window at (oy, ox), 0 in the padding. Then the convolution is
// one GEMM: weight (OC, C kh kw) @ columns.
void im2col(const Tensor& images, const ConvShape& shape, const Tensor& columns);
// The adjoint: images (zeroed by the caller) += every column entry at its pixel (overlapping taps add).
// Each work-item owns one pixel and gathers its taps, so no two work-items write the same element.
void col2im(const Tensor& columns, const ConvShape& shape, const Tensor& images);

// ---- Copies between host and device (transfers.cpp) ----

// dst (device, contiguous) <- src (CPU, contiguous, same dtype and numel). When `non_blocking` and src's
// memory is pinned (allocated by module 21's PinnedMemoryPool or Tensor::pin_memory()), the write is
// only queued and the call returns at once; otherwise it returns when the bytes are on the device.
void copy_host_to_device(const Tensor& src, const Tensor& dst, bool non_blocking);
// dst (CPU, contiguous) <- src (device, contiguous): returns when the bytes are in dst.
void copy_device_to_host(const Tensor& src, const Tensor& dst);

}  // namespace native
}  // namespace opencl
}  // namespace tinytorch
