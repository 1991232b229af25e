// Module 22, learner file: launch geometry and the element-wise kernel with broadcasting
// (tinytorch/device_kernels.h). One kernel source serves every element-wise op of device tensors: the
// given ops (device_ops.cpp) pass the expression ("a + alpha * b", "max(a, (float)0)", "a > b") and
// the element types as -D options, and opencl::kernel compiles each combination once.
//
// A work-item computes PER_ITEM neighbouring elements of `out` (one on a GPU). The position of the
// first in out's row-major order becomes coordinates (last dim fastest), and the kernel walks a and b
// with their own strides, which is how a transposed view, a slice, or a broadcast input (stride 0: the
// same element again and again) are read without a copy.
#include <algorithm>
#include <string>
#include <vector>

#include "tinytorch/device_kernels.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace opencl {
namespace native {
namespace {

constexpr int64_t kMaxRank = 8;                 // a long8 holds one size or stride per dim
constexpr int64_t kElementsPerItemOnCpu = 256;  // PER_ITEM on a CPU device (section 4, "Where the time goes")

int64_t device_index_of(const Tensor& tensor) {
  const Device device = tensor.device();
  return device.has_index() ? device.index() : 0;
}

// The OpenCL C type of a device tensor's elements.
const char* opencl_type(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: return "float";
    case ScalarType::Long: return "long";
    case ScalarType::Bool: return "uchar";
    default: break;
  }
  TT_CHECK(false, "OpenCL tensors are float32, int64 or bool, got ", dtype);
  return nullptr;
}

}  // namespace

// TODO: geometry_1d -- the work-group size and global size of a 1-D launch over `work_items` items
//   (section 4). local: at most 256, at most the device's max_work_group_size (and its
//   max_work_item_sizes[0]), rounded down to a multiple of preferred_work_group_multiple (when that is
//   not larger than it). global: work_items rounded UP to a multiple of local, so that every item has a
//   work-item (OpenCL 1.2 wants global % local == 0; the kernel skips the ones past the end).
//   0 work-items: global 0 (local as usual).
//   Example: 1000 items on a device with max 1024 and multiple 32 -> local 256, global 1024.
Geometry1d geometry_1d(int64_t work_items, const DeviceInfo& device) {
  TT_CHECK(work_items >= 0, "geometry_1d: negative work-item count ", work_items);
  // BEGIN SOLUTION name="tinytorch::opencl::native::geometry_1d" lesson="4. Element-wise kernels and launch geometry"
  int64_t local = std::min<int64_t>(256, std::max<int64_t>(device.max_work_group_size, 1));
  if (!device.max_work_item_sizes.empty()) local = std::min(local, std::max<int64_t>(device.max_work_item_sizes[0], 1));
  const int64_t multiple = device.preferred_work_group_multiple;
  if (multiple > 0 && multiple <= local) local = local / multiple * multiple;
  Geometry1d geometry;
  geometry.local = static_cast<size_t>(local);
  geometry.global = static_cast<size_t>((work_items + local - 1) / local * local);
  return geometry;
  // END SOLUTION
}

// TODO: kElementwiseSource -- the body of the kernel below (section 4). Work-item g computes the
//   PER_ITEM neighbouring elements of out from first = g * PER_ITEM (fewer at the end; none past numel).
//   Turn first into out's coordinates, last dim first (coordinate = rest % size, rest /= size), and add
//   coordinate * stride to a's and b's element offsets; then walk the elements in runs along the last
//   dim (a run ends at the end of the work-item's elements or of the row), each element
//   out[out_offset + i] = (TO)EXPR((COMPUTE)a[...], (COMPUTE)b[...], (COMPUTE)alpha), stepping a and b
//   by their last-dim strides; at the end of a row, carry into the dims before it. A long8's components
//   cannot be indexed by a variable (.s0 ... .s7 only): copy them into arrays first. Rank 0 (one
//   element) has no dims to walk. Then make it fast (section 4, "Where the time goes"): when both inputs
//   walk memory as out does, or are one repeated number, read a[a_offset + i] directly.
const char* const kElementwiseSource = R"CLC(
__kernel void elementwise(__global TO* out, long out_offset,
                          __global const TA* a, long a_offset, long8 a_strides,
                          __global const TB* b, long b_offset, long8 b_strides,
                          long8 out_sizes, int rank, long numel, float alpha) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kElementwiseSource" lesson="4. Element-wise kernels and launch geometry"
  const long first = get_global_id(0) * PER_ITEM;  // this work-item's PER_ITEM neighbouring elements of out
  if (first >= numel) return;                      // the rounded-up tail of the last work-group
  const long last = min(first + PER_ITEM, numel);
#if A_DENSE && B_DENSE
  // Both inputs laid out as out (or a single repeated number): element i is at offset + i (stride 0 for a
  // number), with no coordinates to compute. The divisions below cost more than the memory traffic.
  for (long i = first; i < last; ++i)
    out[out_offset + i] = (TO)(EXPR((COMPUTE)a[a_offset + i * A_STEP], (COMPUTE)b[b_offset + i * B_STEP], (COMPUTE)alpha));
  return;
#endif
  const long sizes[8] = {out_sizes.s0, out_sizes.s1, out_sizes.s2, out_sizes.s3,
                         out_sizes.s4, out_sizes.s5, out_sizes.s6, out_sizes.s7};
  const long a_step[8] = {a_strides.s0, a_strides.s1, a_strides.s2, a_strides.s3,
                          a_strides.s4, a_strides.s5, a_strides.s6, a_strides.s7};
  const long b_step[8] = {b_strides.s0, b_strides.s1, b_strides.s2, b_strides.s3,
                          b_strides.s4, b_strides.s5, b_strides.s6, b_strides.s7};
  // The coordinates of the first element, once for the work-item's PER_ITEM elements.
  long coordinate[8];
  long rest = first, a_at = a_offset, b_at = b_offset;
  for (int d = rank - 1; d >= 0; --d) {
    coordinate[d] = rest % sizes[d];
    rest /= sizes[d];
    a_at += coordinate[d] * a_step[d];
    b_at += coordinate[d] * b_step[d];
  }
  if (rank == 0) {  // one element, no dims to walk
    out[out_offset] = (TO)(EXPR((COMPUTE)a[a_at], (COMPUTE)b[b_at], (COMPUTE)alpha));
    return;
  }
  // Then runs along the last dim: a plain strided loop, which the compiler vectorizes when it knows the
  // strides (A_INNER, B_INNER: 0 or 1 as -D options, -1 for "read it from the array"); at the end of a
  // row, carry into the dims before it.
  const int inner = rank - 1;
  const long a_inner = A_INNER >= 0 ? A_INNER : a_step[inner];
  const long b_inner = B_INNER >= 0 ? B_INNER : b_step[inner];
  for (long i = first; i < last;) {
    const long run = min(last - i, sizes[inner] - coordinate[inner]);
    for (long s = 0; s < run; ++s) {
      out[out_offset + i + s] = (TO)(EXPR((COMPUTE)a[a_at + s * a_inner], (COMPUTE)b[b_at + s * b_inner], (COMPUTE)alpha));
    }
    i += run;
    a_at += run * a_inner;
    b_at += run * b_inner;
    coordinate[inner] += run;
    for (int d = inner; d > 0 && coordinate[d] == sizes[d]; --d) {
      a_at += a_step[d - 1] - coordinate[d] * a_step[d];
      b_at += b_step[d - 1] - coordinate[d] * b_step[d];
      coordinate[d] = 0;
      ++coordinate[d - 1];
    }
  }
  // END SOLUTION
}
)CLC";

// TODO: launch_elementwise -- compile (once: opencl::kernel caches) and launch the kernel above over
//   out.numel() / PER_ITEM work-items, rounded up, with geometry_1d (section 4); PER_ITEM is
//   kElementsPerItemOnCpu (256) on a CPU device (is_cpu), 1 on a GPU. Options: -DPER_ITEM=..., -DTA=, -DTB=, -DTO= the OpenCL C
//   types of a, b and out (kFloat float, kLong long, kBool uchar), -DCOMPUTE=compute_type, and
//   -D"EXPR(a,b,alpha)=(expression)" -- quoted, because options are split at spaces. a's strides as
//   the kernel sees them: one per dim of out, aligned at the LAST dim (a may have fewer dims), 0 where
//   a's size is 1 or a has no such dim (broadcast), a.stride(d) otherwise; the same for b. 0 elements:
//   launch nothing.
//   Example: a (3, 1) with strides (1, 1), b (4,), out (3, 4): a's strides (1, 0), b's (0, 1).
void launch_elementwise(const std::string& expression, const Tensor& a, const Tensor& b, const Tensor& out,
                        float alpha, const char* compute_type) {
  TT_CHECK(out.is_contiguous(), "launch_elementwise: out must be contiguous");
  TT_CHECK(out.dim() <= kMaxRank, "OpenCL element-wise kernels take tensors of at most ", kMaxRank, " dims, got ",
           out.dim());
  for (const Tensor* input : {&a, &b}) {
    TT_CHECK(input->dim() <= out.dim(), "launch_elementwise: an input has more dims (", input->dim(),
             ") than the output (", out.dim(), ")");
    for (int64_t d = 0; d < input->dim(); ++d) {
      const int64_t size = input->size(d), wanted = out.size(out.dim() - input->dim() + d);
      TT_CHECK(size == wanted || size == 1, "launch_elementwise: an input of sizes ", input->sizes(),
               " does not broadcast to ", out.sizes());
    }
  }
  // BEGIN SOLUTION name="tinytorch::opencl::native::launch_elementwise" lesson="4. Element-wise kernels and launch geometry"
  if (out.numel() == 0) return;
  const int64_t rank = out.dim();
  // Strides of an input as seen through out's dims: 0 where it repeats.
  auto broadcast_strides = [&](const Tensor& input) {
    std::vector<int64_t> strides(static_cast<size_t>(rank), 0);
    const int64_t missing = rank - input.dim();
    for (int64_t d = missing; d < rank; ++d) {
      const int64_t input_dim = d - missing;
      if (input.size(input_dim) != 1) strides[static_cast<size_t>(d)] = input.stride(input_dim);
    }
    return strides;
  };
  // An input that walks memory as out does (contiguous, same shape) or stays on one element (a number)
  // needs no coordinates: the kernel then takes the dense path, compiled in by -DA_DENSE / -DB_DENSE.
  const std::vector<int64_t> out_strides = out.strides().vec();
  auto dense_step = [&](const std::vector<int64_t>& strides) -> int {
    if (strides == out_strides) return 1;
    if (std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 0; })) return 0;
    return -1;
  };
  const int a_step = dense_step(broadcast_strides(a)), b_step = dense_step(broadcast_strides(b));
  // The last dim's stride, when it is 0 (broadcast) or 1 (contiguous rows): known at compile time, the
  // kernel's inner loop becomes vector loads (or one value held in a register); -1: read at run time.
  auto inner_step = [&](const Tensor& input) -> int64_t {
    const std::vector<int64_t> strides = broadcast_strides(input);
    if (strides.empty()) return -1;
    return strides.back() == 0 || strides.back() == 1 ? strides.back() : -1;
  };
  const std::string options = std::string("-DTA=") + opencl_type(a.scalar_type()) + " -DTB=" +
                              opencl_type(b.scalar_type()) + " -DTO=" + opencl_type(out.scalar_type()) +
                              " -DCOMPUTE=" + compute_type + " -D\"EXPR(a,b,alpha)=(" + expression + ")\"" +
                              " -DA_DENSE=" + (a_step >= 0 ? "1" : "0") + " -DB_DENSE=" + (b_step >= 0 ? "1" : "0") +
                              " -DA_STEP=" + std::to_string(std::max(a_step, 0)) +
                              " -DB_STEP=" + std::to_string(std::max(b_step, 0)) +
                              " -DA_INNER=" + std::to_string(inner_step(a)) + " -DB_INNER=" + std::to_string(inner_step(b));
  const int64_t device = device_index_of(out);
  const DeviceInfo& info = device_info(device);
  // A GPU wants one element a work-item (neighbouring work-items, neighbouring addresses: one memory
  // transaction for a warp); pocl runs a work-group as a loop on one core, so there a work-item takes
  // enough elements to pay for its index arithmetic and to fill vector instructions.
  const int64_t per_item = info.is_cpu ? kElementsPerItemOnCpu : 1;
  cl_kernel kernel =
      opencl::kernel(kElementwiseSource, "elementwise", options + " -DPER_ITEM=" + std::to_string(per_item), device);
  const Geometry1d geometry = geometry_1d((out.numel() + per_item - 1) / per_item, info);
  KernelLaunch(kernel, device)
      .arg(out)
      .arg(a)
      .arg(broadcast_strides(a))
      .arg(b)
      .arg(broadcast_strides(b))
      .arg(out.sizes().vec())
      .arg(static_cast<int32_t>(rank))
      .arg(out.numel())
      .arg(alpha)
      .run({geometry.global}, {geometry.local});
  // END SOLUTION
}

}  // namespace native
}  // namespace opencl
}  // namespace tinytorch
