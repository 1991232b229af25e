// Module 22, learner file: reductions and the softmax in local memory (tinytorch/device_kernels.h).
//
// A work-group cooperates through local memory (CUDA's shared memory): each work-item first folds its
// share of the data into one value in a register, writes it to scratch[lid], and then the group
// halves the number of active work-items each step, every active one combining its value with the one
// `offset` places above it, until scratch[0] holds the group's result: log2(local) steps. Between two
// steps every work-item must have written before any reads: barrier(CLK_LOCAL_MEM_FENCE), which every
// work-item of the group must reach (never put one inside a branch that only some take).
#include <algorithm>
#include <cstdint>

#include "tinytorch/device_kernels.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace opencl {
namespace native {
namespace {

int64_t device_index_of(const Tensor& tensor) {
  const Device device = tensor.device();
  return device.has_index() ? device.index() : 0;
}

// The work-group size of a reduction: a power of two (the tree halves it), at most 256 and at most what
// the device allows, and no larger than needed for `items` values per group.
size_t reduction_local_size(const DeviceInfo& device, int64_t items) {
  int64_t limit = std::min<int64_t>(256, device.max_work_group_size);
  if (!device.max_work_item_sizes.empty()) limit = std::min(limit, device.max_work_item_sizes[0]);
  size_t local = 1;
  while (static_cast<int64_t>(local) * 2 <= limit && static_cast<int64_t>(local) < items) local *= 2;
  return local;
}

void check_float_contiguous(const Tensor& tensor, const char* what) {
  TT_CHECK(tensor.scalar_type() == ScalarType::Float && tensor.is_contiguous(), what,
           " takes contiguous float tensors, got ", tensor.scalar_type(),
           tensor.is_contiguous() ? "" : " (not contiguous)");
}

const char* reduce_options(ReduceOp op) { return op == ReduceOp::Max ? "-DREDUCE_MAX" : ""; }

}  // namespace

// TODO: kReductionSource -- the two kernels below and the tree they share (section 5).
//   tree_reduce: scratch[lid] holds each work-item's value; combine scratch[lid] with
//   scratch[lid + offset] for offset = size/2, size/4, ..., 1 (only the work-items below offset), with a
//   barrier before the first step and after every step; return scratch[0], the group's result.
//   reduce_rows: work-group r (get_group_id(0)) reduces row r: its work-items stride over the row
//   (j = lid, lid + size, ...) folding into one value each, then the tree; work-item 0 writes out[r].
//   reduce_all: every work-item strides over the whole input with the launch's global size
//   (i = get_global_id(0), i + get_global_size(0), ...), then the tree; work-item 0 writes the group's
//   partial to out[group]. COMBINE and IDENTITY are defined by -DREDUCE_MAX: max with NaN winning, as
//   torch.max (and -INFINITY), else the sum (and 0).
const char* const kReductionSource = R"CLC(
#ifdef REDUCE_MAX
#define IDENTITY (-INFINITY)
#define COMBINE(x, y) (((x) > (y) || isnan(x)) ? (x) : (y))
#else
#define IDENTITY 0.0f
#define COMBINE(x, y) ((x) + (y))
#endif

float tree_reduce(__local float* scratch, int lid, int size) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kReductionSource (tree_reduce)" lesson="5. Reductions in local memory"
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = size / 2; offset > 0; offset /= 2) {
    if (lid < offset) scratch[lid] = COMBINE(scratch[lid], scratch[lid + offset]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
  // END SOLUTION
}

__kernel void reduce_rows(__global const float* in, long in_offset, __global float* out, long out_offset,
                          long cols, __local float* scratch) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kReductionSource (reduce_rows)" lesson="5. Reductions in local memory"
  const long row = get_group_id(0);
  const int lid = get_local_id(0), size = get_local_size(0);
  __global const float* row_in = in + in_offset + row * cols;
  float value = IDENTITY;
  for (long j = lid; j < cols; j += size) value = COMBINE(value, row_in[j]);
  scratch[lid] = value;
  const float result = tree_reduce(scratch, lid, size);
  if (lid == 0) out[out_offset + row] = result;
  // END SOLUTION
}

__kernel void reduce_all(__global const float* in, long in_offset, long n, __global float* out, long out_offset,
                         __local float* scratch) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kReductionSource (reduce_all)" lesson="5. Reductions in local memory"
  const int lid = get_local_id(0), size = get_local_size(0);
  float value = IDENTITY;
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) value = COMBINE(value, in[in_offset + i]);
  scratch[lid] = value;
  const float result = tree_reduce(scratch, lid, size);
  if (lid == 0) out[out_offset + get_group_id(0)] = result;
  // END SOLUTION
}
)CLC";

// TODO: reduce_rows -- launch "reduce_rows" (options from the op: -DREDUCE_MAX for Max) with one
//   work-group per row: local = a power of two (the tree halves it) at most 256 and the device's limit
//   (reduction_local_size above), global = rows * local, and local * sizeof(float) bytes of scratch.
//   0 rows: nothing to launch. 0 columns: the identity (0, or -inf for Max).
//   Example: [[1, 2, 3], [4, 5, 6]], Sum -> [6, 15].
void reduce_rows(ReduceOp op, const Tensor& input, const Tensor& out) {
  check_float_contiguous(input, "reduce_rows");
  TT_CHECK(input.dim() == 2, "reduce_rows takes a (rows, cols) tensor, got sizes ", input.sizes());
  TT_CHECK(out.numel() == input.size(0), "reduce_rows: out has ", out.numel(), " elements for ", input.size(0), " rows");
  // BEGIN SOLUTION name="tinytorch::opencl::native::reduce_rows" lesson="5. Reductions in local memory"
  const int64_t rows = input.size(0), cols = input.size(1);
  if (rows == 0) return;
  const int64_t device = device_index_of(input);
  cl_kernel kernel = opencl::kernel(kReductionSource, "reduce_rows", reduce_options(op), device);
  const size_t local = reduction_local_size(device_info(device), cols);
  KernelLaunch(kernel, device)
      .arg(input)
      .arg(out)
      .arg(cols)
      .local_memory(local * sizeof(float))
      .run({static_cast<size_t>(rows) * local}, {local});
  // END SOLUTION
}

// TODO: reduce_all -- the two-stage reduction (section 5). Stage 1: G work-groups (G = enough groups of
//   `local` work-items to cover the input once, at most `local` of them, at least 1) run "reduce_all"
//   over the whole input into G partials (a device tensor of G floats: opencl::empty_on_device).
//   Stage 2: one work-group runs "reduce_all" over the G partials into out[0]. No stage can wait for
//   another work-group -- work-groups never synchronise with each other inside a launch -- which is
//   why it takes two launches (the queue runs them in order). When one group covers the input, one
//   launch into out does it.
//   Example: 100000 ones, local 256 -> 256 partials of about 390 each, then 100000.
void reduce_all(ReduceOp op, const Tensor& input, const Tensor& out) {
  check_float_contiguous(input, "reduce_all");
  TT_CHECK(out.numel() >= 1, "reduce_all: out must have an element");
  // BEGIN SOLUTION name="tinytorch::opencl::native::reduce_all" lesson="5. Reductions in local memory"
  const int64_t n = input.numel();
  const int64_t device = device_index_of(input);
  cl_kernel kernel = opencl::kernel(kReductionSource, "reduce_all", reduce_options(op), device);
  const size_t local = reduction_local_size(device_info(device), n);
  const int64_t groups =
      std::max<int64_t>(1, std::min<int64_t>(static_cast<int64_t>(local), (n + local - 1) / static_cast<int64_t>(local)));
  if (groups == 1) {
    KernelLaunch(kernel, device).arg(input).arg(n).arg(out).local_memory(local * sizeof(float)).run({local}, {local});
    return;
  }
  const Tensor partials = empty_on_device({groups}, ScalarType::Float, input.device());
  KernelLaunch(kernel, device)
      .arg(input)
      .arg(n)
      .arg(partials)
      .local_memory(local * sizeof(float))
      .run({static_cast<size_t>(groups) * local}, {local});
  KernelLaunch(kernel, device).arg(partials).arg(groups).arg(out).local_memory(local * sizeof(float)).run({local}, {local});
  // END SOLUTION
}

// TODO: kSoftmaxSource -- "softmax_rows": work-group r computes row r (section 6), in three passes over
//   the row, each of the first two ending in a tree: (1) the row's max m; (2) the sum s of exp(x - m);
//   (3) out = exp(x - m) / s, or with -DLOG_SOFTMAX x - m - log(s). Subtracting m keeps every exp at
//   most 1: exp(1000) is inf in float, and inf / inf is NaN. The trees, tree_max and tree_sum, are
//   given: section 5's tree_reduce, with one more barrier so that every work-item has read scratch[0]
//   before the next pass writes scratch again.
const char* const kSoftmaxSource = R"CLC(
float tree_max(__local float* scratch, int lid, int size) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = size / 2; offset > 0; offset /= 2) {
    if (lid < offset) scratch[lid] = fmax(scratch[lid], scratch[lid + offset]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float result = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read scratch[0] before it is written again
  return result;
}

float tree_sum(__local float* scratch, int lid, int size) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = size / 2; offset > 0; offset /= 2) {
    if (lid < offset) scratch[lid] += scratch[lid + offset];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float result = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

__kernel void softmax_rows(__global const float* in, long in_offset, __global float* out, long out_offset,
                           long cols, __local float* scratch) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kSoftmaxSource" lesson="6. Softmax"
  const long row = get_group_id(0);
  const int lid = get_local_id(0), size = get_local_size(0);
  __global const float* x = in + in_offset + row * cols;
  __global float* y = out + out_offset + row * cols;

  float partial = -INFINITY;
  for (long j = lid; j < cols; j += size) partial = fmax(partial, x[j]);
  scratch[lid] = partial;
  const float m = tree_max(scratch, lid, size);

  partial = 0.0f;
  for (long j = lid; j < cols; j += size) partial += exp(x[j] - m);
  scratch[lid] = partial;
  const float s = tree_sum(scratch, lid, size);

  for (long j = lid; j < cols; j += size) {
#ifdef LOG_SOFTMAX
    y[j] = x[j] - m - log(s);
#else
    y[j] = exp(x[j] - m) / s;
#endif
  }
  // END SOLUTION
}
)CLC";

// TODO: softmax_rows -- launch "softmax_rows" (-DLOG_SOFTMAX for log) with one work-group per row, as
//   reduce_rows does. 0 rows or 0 columns: nothing to compute.
//   Example: [[0, ln 3]] -> [[0.25, 0.75]]; log -> [[ln 0.25, ln 0.75]].
void softmax_rows(const Tensor& input, const Tensor& out, bool log) {
  check_float_contiguous(input, "softmax_rows");
  check_float_contiguous(out, "softmax_rows");
  TT_CHECK(input.dim() == 2 && out.sizes() == input.sizes(), "softmax_rows takes (rows, cols) tensors of one shape, got ",
           input.sizes(), " and ", out.sizes());
  // BEGIN SOLUTION name="tinytorch::opencl::native::softmax_rows" lesson="6. Softmax"
  const int64_t rows = input.size(0), cols = input.size(1);
  if (rows == 0 || cols == 0) return;
  const int64_t device = device_index_of(input);
  cl_kernel kernel = opencl::kernel(kSoftmaxSource, "softmax_rows", log ? "-DLOG_SOFTMAX" : "", device);
  const size_t local = reduction_local_size(device_info(device), cols);
  KernelLaunch(kernel, device)
      .arg(input)
      .arg(out)
      .arg(cols)
      .local_memory(local * sizeof(float))
      .run({static_cast<size_t>(rows) * local}, {local});
  // END SOLUTION
}

}  // namespace native
}  // namespace opencl
}  // namespace tinytorch
