#pragma once
// Module 22 (GPU kernels): the OpenCL runtime device tensors run on. Given code, except the caching
// allocator's methods, which the learner writes (framework/src/22_gpu_kernels/device_allocator.cpp).
//
// The model is CUDA's, one for one: a work-item is a thread, a work-group a block, local memory shared
// memory, barrier(CLK_LOCAL_MEM_FENCE) __syncthreads(), the command queue a stream (in order: a command
// starts after the one queued before it has finished), an event what cudaEvent_t is.
//
// One context and one in-order queue per device, made on first use. Programs are compiled once per
// device and kept: kernel(source, name, options) compiles `source` with `options` the first time and
// returns the cached cl_kernel after that (the driver's compile takes 10-100 ms; a launch takes
// microseconds). A device tensor's storage holds a DeviceBlock from the caching allocator; kernels
// take it as two arguments, the buffer and the element offset of the tensor's first element
// (KernelLaunch::arg(tensor)), because OpenCL 1.2 has no pointer arithmetic on cl_mem.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "tinytorch/device.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace opencl {

// What the device says about itself (clGetDeviceInfo), read once.
struct DeviceInfo {
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string platform;
  int64_t compute_units = 0;          // CUDA's streaming multiprocessors
  int64_t max_work_group_size = 0;    // most work-items in one work-group (CUDA: threads per block)
  std::vector<int64_t> max_work_item_sizes;  // most work-items per dimension of a work-group
  int64_t local_memory_bytes = 0;     // local (shared) memory per work-group
  int64_t global_memory_bytes = 0;
  int64_t max_allocation_bytes = 0;   // largest single clCreateBuffer
  int64_t preferred_work_group_multiple = 0;  // a work-group size that is a multiple of this fills the SIMD lanes
  int64_t preferred_vector_width = 1;  // floats per vector the device prefers (16 with AVX-512, 1 on most GPUs)
  bool is_cpu = false;                // pocl's device is the CPU itself
};

// Throws tinytorch::Error "OpenCL error CL_OUT_OF_RESOURCES (-5) in clEnqueueNDRangeKernel" unless status is CL_SUCCESS.
void check(cl_int status, const char* call);
const char* error_name(cl_int status);

// The device tensors with Device("opencl:index") live on.
const DeviceInfo& device_info(int64_t index = 0);
cl_context context(int64_t index = 0);
cl_device_id device_id(int64_t index = 0);
cl_command_queue queue(int64_t index = 0);

// The kernel `name` of `source` compiled with `options` (e.g. "-DOP(a,b)=((a)+(b)) -DT=float") for the
// device: compiled on first use, then cached by (device, source, options, name). A compile error
// throws with the driver's build log. The returned kernel is shared: set its arguments and enqueue it
// without another thread doing the same in between (KernelLaunch holds the runtime's lock for that).
cl_kernel kernel(const std::string& source, const char* name, const std::string& options = "", int64_t index = 0);
// How many programs have been compiled (each (source, options) pair once per device).
int64_t programs_compiled();

// ---- Device memory ----

// A block of device memory: `size` bytes at `offset` in the segment `buffer` (one clCreateBuffer).
// The caching allocator hands these out; a device tensor's storage holds one.
struct DeviceBlock {
  cl_mem buffer = nullptr;
  size_t offset = 0;          // bytes from the start of the segment (a multiple of kBlockAlignment)
  size_t size = 0;            // bytes the block spans (allocator's rounded size)
  size_t requested = 0;       // bytes asked for
  bool allocated = false;     // in use by a storage
  bool small_pool = false;    // from the small pool (requests up to kSmallRequest)
  DeviceBlock* prev = nullptr;  // neighbours in the same segment (for splitting and merging)
  DeviceBlock* next = nullptr;
  cl_event last_use = nullptr;  // the last command queued that reads or writes the block (retained), or null
};


// LibTorch's CUDA caching allocator, for one OpenCL device. Requests round up to kBlockAlignment.
// Requests up to kSmallRequest come from kSmallSegment-byte segments, larger ones from segments of
// their size rounded up to kLargeRounding; a cached block larger than a request is split, and the
// rest stays cached (small pool: any rest; large pool: a rest above kSmallRequest). A freed block
// whose last command has not finished waits (events) and is reused once it has; free neighbours in a
// segment merge again. empty_cache() gives back every segment that is wholly free.
class DeviceCachingAllocator {
 public:
  static constexpr size_t kBlockAlignment = 512;
  static constexpr size_t kSmallRequest = size_t{1} << 20;   // 1 MiB
  static constexpr size_t kSmallSegment = size_t{2} << 20;   // 2 MiB
  static constexpr size_t kLargeRounding = size_t{2} << 20;  // 2 MiB

  explicit DeviceCachingAllocator(cl_context context);
  ~DeviceCachingAllocator();
  DeviceCachingAllocator(const DeviceCachingAllocator&) = delete;
  DeviceCachingAllocator& operator=(const DeviceCachingAllocator&) = delete;

  // A block of at least nbytes (0 bytes: a block of kBlockAlignment). Throws "OpenCL out of memory"
  // naming the request and the reserved bytes when the driver refuses.
  DeviceBlock* allocate(size_t nbytes);
  // Gives the block back: cached for reuse, at once when its last command has finished, else once it has.
  void free(DeviceBlock* block);
  void empty_cache();
  DeviceMemoryStats stats() const;
  void reset_peak_stats();
  // The size a request is served with: nbytes rounded up to kBlockAlignment (at least one unit).
  static size_t round_size(size_t nbytes);

 private:
  // Ordered by (size, segment, offset): lower_bound finds the smallest block that fits.
  struct BySize {
    bool operator()(const DeviceBlock* a, const DeviceBlock* b) const;
  };
  // Moves waiting blocks whose last command has finished into their pool (merging neighbours).
  void reclaim_finished();
  void insert_free(DeviceBlock* block);
  DeviceBlock* merge_free_neighbours(DeviceBlock* block);

  cl_context context_;
  mutable std::mutex mutex_;
  std::set<DeviceBlock*, BySize> small_free_;
  std::set<DeviceBlock*, BySize> large_free_;
  std::vector<DeviceBlock*> waiting_;      // freed, last command still running
  std::map<cl_mem, size_t> segment_sizes_;  // every live segment and its bytes
  DeviceMemoryStats stats_;
};

// The allocator of device `index` (made with the device's context on first use).
DeviceCachingAllocator& allocator(int64_t index = 0);

// The block of a device tensor's storage, and the element offset of its first element in the block's
// buffer: block offset / element size + storage offset (blocks are aligned to every element size).
DeviceBlock& block_of(const Tensor& tensor);
int64_t element_offset_of(const Tensor& tensor);

// An uninitialised tensor on device `device` (an OpenCL device), row-major, from the caching allocator.
Tensor empty_on_device(IntArrayRef sizes, ScalarType dtype, const Device& device);

// Sets a kernel's arguments and enqueues it. arg(tensor) passes two arguments: the block's buffer and
// the element offset (a long). run() enqueues on the tensors' device queue, stamps every block passed
// as the block's last use, and returns the event (owned by the launch: valid until it is destroyed).
// The runtime's lock is held from the constructor to run(): kernels are shared objects.
class KernelLaunch {
 public:
  explicit KernelLaunch(cl_kernel kernel, int64_t device_index = 0);
  ~KernelLaunch();
  KernelLaunch(const KernelLaunch&) = delete;
  KernelLaunch& operator=(const KernelLaunch&) = delete;

  KernelLaunch& arg(const Tensor& tensor);       // __global T* data, long offset
  KernelLaunch& arg(int64_t value);              // long
  KernelLaunch& arg(int32_t value);              // int
  KernelLaunch& arg(float value);                // float
  KernelLaunch& arg(const std::vector<int64_t>& values);  // a small constant array: passed as a long8 (at most 8)
  KernelLaunch& local_memory(size_t bytes);      // __local T* scratch of `bytes`
  // Enqueues over `global` work-items in work-groups of `local` (same rank, 1 to 3; each global size a
  // multiple of its local size; an empty `local` lets the driver choose).
  cl_event run(const std::vector<size_t>& global, const std::vector<size_t>& local);

 private:
  cl_kernel kernel_;
  int64_t device_index_;
  cl_uint next_ = 0;
  std::vector<DeviceBlock*> blocks_;
  cl_event event_ = nullptr;
  std::unique_lock<std::mutex> lock_;
};

// Stamps `block` as used by `event` (retains it; releases the previous one).
void record_use(DeviceBlock& block, cl_event event);

// Times of the commands that produced an event, in nanoseconds (queues are made with profiling on).
int64_t event_duration_ns(cl_event event);


}  // namespace opencl
}  // namespace tinytorch

namespace tinytorch {
namespace opencl {
// Page-locked host memory (CUDA's pinned memory, cudaHostAlloc and cudaFreeHost): host bytes the driver can
// copy to the device without staging them first, so a copy from them may be queued and left to run
// (non_blocking). Given code (runtime/opencl_pinned_memory.cpp). allocate_pinned asks device 0's driver for a
// CL_MEM_ALLOC_HOST_PTR buffer of at least nbytes and maps it: the mapping is the host address returned.
// free_pinned takes exactly such an address back (anything else throws, naming it).
void* allocate_pinned(size_t nbytes);
void free_pinned(void* host);
// Whether `address` lies inside a block from allocate_pinned that is still allocated.
bool is_pinned_host_memory(const void* address);
// A CPU tensor in pinned memory: what Tensor::pin_memory() copies into. Module 21's PinnedMemoryPool takes
// its blocks from allocate_pinned where this process uses a device (is_initialized()).
Tensor empty_pinned(IntArrayRef sizes, ScalarType dtype);

// Keeps `storage` alive until `event`'s command has completed: a non-blocking copy's source, which the driver
// reads after the call returned. Without it a batch's block could go back to its pool, and be filled with
// the next batch, while the copy still reads it (LibTorch's CachingHostAllocator records the copy's stream
// on the block for the same reason). Released at the next hold or synchronize() once complete.
void hold_until_complete(cl_event event, Storage storage);
// Drops what hold_until_complete kept for commands that have completed; how many it still keeps.
size_t release_completed_holds();
}  // namespace opencl
}  // namespace tinytorch
