// Module 22, learner file: copies between host memory and device memory (tinytorch/device_kernels.h),
// what tensor.to(torch::Device("opencl")) and tensor.cpu() run.
//
// A copy is a command on the device's queue like a kernel, so it runs in order with them: a kernel
// queued after a write reads the written bytes. What differs is when the call returns. A blocking
// write returns once the bytes have left `src`; a non-blocking one returns at once, and the driver
// reads `src` later -- safe only when `src` is memory that stays put and that the device can read
// directly (pinned, page-locked memory). Pageable memory may be paged out or reused by the caller
// the moment the call returns, so from pageable memory a copy is always blocking, whatever the caller
// asked (LibTorch does the same for tensor.to(device, non_blocking=true) from unpinned memory).
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

void check_copy(const Tensor& src, const Tensor& dst, const char* what) {
  TT_CHECK(src.scalar_type() == dst.scalar_type(), what, ": the tensors' dtypes differ (", src.scalar_type(), " and ",
           dst.scalar_type(), ")");
  TT_CHECK(src.numel() == dst.numel(), what, ": the tensors have ", src.numel(), " and ", dst.numel(), " elements");
  TT_CHECK(src.is_contiguous() && dst.is_contiguous(), what, ": both tensors must be contiguous");
}

}  // namespace

// TODO: copy_host_to_device -- write src's bytes into dst's block: clEnqueueWriteBuffer on dst's device
//   queue, into the block's buffer at byte offset block.offset + dst.storage_offset() * element size.
//   Blocking (CL_TRUE) unless the caller asked for non_blocking AND src's memory is pinned
//   (opencl::is_pinned_host_memory(src.data_ptr())). Stamp the block with the write's event
//   (record_use), then release your reference to the event. 0 elements: nothing to queue.
//   Example: copy_host_to_device(torch::ones({3}), d, true) from pageable memory: returns after the
//   write has completed, as if non_blocking were false.
void copy_host_to_device(const Tensor& src, const Tensor& dst, bool non_blocking) {
  check_copy(src, dst, "copy_host_to_device");
  TT_CHECK(src.is_cpu() && dst.is_opencl(), "copy_host_to_device copies from the CPU to an OpenCL device, got ",
           src.device().str(), " -> ", dst.device().str());
  // BEGIN SOLUTION name="tinytorch::opencl::native::copy_host_to_device" lesson="3. Copies: pinned and pageable"
  const size_t nbytes = static_cast<size_t>(src.numel()) * static_cast<size_t>(src.element_size());
  if (nbytes == 0) return;
  DeviceBlock& block = block_of(dst);
  const size_t offset = block.offset + static_cast<size_t>(dst.storage_offset() * dst.element_size());
  const void* host = src.data_ptr();
  const bool blocking = !(non_blocking && is_pinned_host_memory(host));
  cl_event event = nullptr;
  check(clEnqueueWriteBuffer(queue(device_index_of(dst)), block.buffer, blocking ? CL_TRUE : CL_FALSE, offset, nbytes,
                             host, 0, nullptr, &event),
        "clEnqueueWriteBuffer");
  record_use(block, event);
  clReleaseEvent(event);
  // END SOLUTION
}

// TODO: copy_device_to_host -- read src's bytes (block's buffer, byte offset block.offset +
//   src.storage_offset() * element size) into dst with a blocking clEnqueueReadBuffer on src's device
//   queue: the caller reads dst as soon as this returns. Stamp the block with the read's event too.
//   0 elements: nothing to queue.
void copy_device_to_host(const Tensor& src, const Tensor& dst) {
  check_copy(src, dst, "copy_device_to_host");
  TT_CHECK(src.is_opencl() && dst.is_cpu(), "copy_device_to_host copies from an OpenCL device to the CPU, got ",
           src.device().str(), " -> ", dst.device().str());
  // BEGIN SOLUTION name="tinytorch::opencl::native::copy_device_to_host" lesson="3. Copies: pinned and pageable"
  const size_t nbytes = static_cast<size_t>(src.numel()) * static_cast<size_t>(src.element_size());
  if (nbytes == 0) return;
  DeviceBlock& block = block_of(src);
  const size_t offset = block.offset + static_cast<size_t>(src.storage_offset() * src.element_size());
  cl_event event = nullptr;
  check(clEnqueueReadBuffer(queue(device_index_of(src)), block.buffer, CL_TRUE, offset, nbytes, dst.data_ptr(), 0,
                            nullptr, &event),
        "clEnqueueReadBuffer");
  record_use(block, event);
  clReleaseEvent(event);
  // END SOLUTION
}

}  // namespace native
}  // namespace opencl
}  // namespace tinytorch
