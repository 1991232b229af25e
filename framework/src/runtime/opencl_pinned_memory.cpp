// Page-locked host memory from the OpenCL driver, and the sources of queued copies kept alive until the copies
// have run (tinytorch/opencl.h). Given code. Its own file, apart from module 22's kernels, because module 21's
// PinnedMemoryPool allocates through it: a build with module 21 and without module 22 links this and the
// runtime, never the device kernels.
#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/kernels.h"
#include "tinytorch/opencl.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {
namespace opencl {
namespace {

struct PinnedBlock {
  cl_mem buffer = nullptr;
  size_t nbytes = 0;
};

// Every live block from allocate_pinned, by host address: is_pinned_host_memory finds the block whose range
// holds an address (a view's data_ptr is inside its storage's block) with one ordered lookup. Never destroyed,
// as the runtime: a tensor may be freed after static destructors have run.
struct PinnedBlocks {
  std::mutex mutex;
  std::map<const char*, PinnedBlock> by_address;
};
PinnedBlocks& pinned_blocks() {
  static auto* blocks = new PinnedBlocks();
  return *blocks;
}

struct Holds {
  std::mutex mutex;
  std::vector<std::pair<cl_event, Storage>> pending;  // events retained
};
Holds& holds() {
  static auto* instance = new Holds();
  return *instance;
}

bool completed(cl_event event) {
  cl_int status = CL_QUEUED;
  if (clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr) != CL_SUCCESS) {
    return true;  // an event the driver no longer knows holds nothing up
  }
  return status == CL_COMPLETE || status < 0;  // negative: the command failed, and will not read its source again
}

}  // namespace

void* allocate_pinned(size_t nbytes) {
  nbytes = std::max<size_t>(nbytes, 64);
  cl_int status = CL_SUCCESS;
  // The driver allocates host memory it can copy from directly (page-locked where that matters), and mapping
  // it gives the CPU its address.
  cl_mem buffer = clCreateBuffer(context(0), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, nbytes, nullptr, &status);
  check(status, "clCreateBuffer (pinned host memory)");
  void* host = clEnqueueMapBuffer(queue(0), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, nbytes, 0, nullptr,
                                  nullptr, &status);
  if (status != CL_SUCCESS) clReleaseMemObject(buffer);
  check(status, "clEnqueueMapBuffer (pinned host memory)");
  PinnedBlocks& blocks = pinned_blocks();
  std::lock_guard<std::mutex> guard(blocks.mutex);
  blocks.by_address[static_cast<const char*>(host)] = {buffer, nbytes};
  return host;
}

void free_pinned(void* host) {
  if (host == nullptr) return;
  PinnedBlock block;
  {
    PinnedBlocks& blocks = pinned_blocks();
    std::lock_guard<std::mutex> guard(blocks.mutex);
    auto found = blocks.by_address.find(static_cast<const char*>(host));
    TT_CHECK(found != blocks.by_address.end(), "free_pinned: ", host,
             " is not a block from opencl::allocate_pinned (or it was freed already); free other memory the way it "
             "was allocated");
    block = found->second;
    blocks.by_address.erase(found);
  }
  cl_event unmapped = nullptr;
  clEnqueueUnmapMemObject(queue(0), block.buffer, host, 0, nullptr, &unmapped);
  if (unmapped != nullptr) {
    clWaitForEvents(1, &unmapped);
    clReleaseEvent(unmapped);
  }
  clReleaseMemObject(block.buffer);
}

bool is_pinned_host_memory(const void* address) {
  const char* p = static_cast<const char*>(address);
  PinnedBlocks& blocks = pinned_blocks();
  std::lock_guard<std::mutex> guard(blocks.mutex);
  auto after = blocks.by_address.upper_bound(p);  // the first block starting after p
  if (after == blocks.by_address.begin()) return false;
  const auto& [begin, block] = *std::prev(after);
  return p < begin + block.nbytes;
}

Tensor empty_pinned(IntArrayRef sizes, ScalarType dtype) {
  int64_t numel = 1;
  for (int64_t s : sizes) {
    TT_CHECK(s >= 0, "empty_pinned: sizes must be non-negative, got ", sizes);
    numel *= s;
  }
  const size_t nbytes = static_cast<size_t>(numel) * elementSize(dtype);
  void* host = allocate_pinned(nbytes);
  auto storage = std::make_shared<StorageImpl>(host, std::max<size_t>(nbytes, 64), &free_pinned);
  return Tensor(
      std::make_shared<TensorImpl>(Storage(storage), dtype, sizes.vec(), ::tinytorch::contiguous_strides(sizes), 0));
}

void hold_until_complete(cl_event event, Storage storage) {
  if (event == nullptr || !storage) return;
  clRetainEvent(event);
  {
    Holds& h = holds();
    std::lock_guard<std::mutex> guard(h.mutex);
    h.pending.emplace_back(event, std::move(storage));
  }
  release_completed_holds();
}

size_t release_completed_holds() {
  std::vector<std::pair<cl_event, Storage>> done;
  size_t still_held = 0;
  {
    Holds& h = holds();
    std::lock_guard<std::mutex> guard(h.mutex);
    auto first_done = std::stable_partition(h.pending.begin(), h.pending.end(),
                                            [](const auto& held) { return !completed(held.first); });
    std::move(first_done, h.pending.end(), std::back_inserter(done));
    h.pending.erase(first_done, h.pending.end());
    still_held = h.pending.size();
  }
  // Outside the lock: dropping a storage runs its deleter, which may hand a block back to a pool (its own lock)
  // or unmap pinned memory (a blocking call on the queue).
  for (auto& [event, storage] : done) clReleaseEvent(event);
  done.clear();
  return still_held;
}

}  // namespace opencl
}  // namespace tinytorch
