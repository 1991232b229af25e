#pragma once
// A pool of reused host buffers for batches: what DataLoaderOptions().pin_memory(true) copies each batch
// into (PyTorch's DataLoader(pin_memory=True); LibTorch's C++ loader has no such option). Where this process
// uses an OpenCL device (torch::opencl::is_initialized(): a model or tensor was moved to it first), the
// blocks are page-locked ("pinned") memory from the device's driver, which it copies from without staging
// them first, so that batch.to(device, /*non_blocking=*/true) only queues the copy (module 22); elsewhere
// they are ordinary 64-byte aligned blocks, as PyTorch pins nothing where no accelerator is in use. What
// matters on any machine is the reuse: a block goes back to the pool when the last tensor using it goes
// away, and the next batch of the same size takes it instead of asking the allocator (LibTorch's
// CachingHostAllocator does the same; page-locking is a system call per page, far too slow per batch).
//
// Thread-safe: the loader's workers take blocks concurrently, and a block may come back on any thread.
//
// The members defined in pinned_memory.cpp are weak, as BatchPipeline's are (data/detail/batch_pipeline.h):
// builds without module 21 include the loader but not this code.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace data {

// Defined in pinned_memory.cpp: present exactly when module 21's code is linked.
extern "C" __attribute__((weak)) void tinytorch_pinned_memory_registration();
inline bool pinned_memory_linked() { return &tinytorch_pinned_memory_registration != nullptr; }

class PinnedMemoryPool {
 public:
  struct Stats {
    size_t blocks_allocated = 0;  // blocks ever taken from the system
    size_t blocks_reused = 0;     // empty() calls served by a free block
    size_t blocks_in_use = 0;     // blocks some tensor still uses
    size_t bytes_reserved = 0;    // bytes of every block the pool holds, in use or free
  };

  // Where the pool's blocks come from and go back to (LibTorch's c10::Allocator, cut to two calls). A block
  // from `allocate` goes back through `release` and nothing else: pinned and ordinary blocks are freed
  // differently.
  struct HostAllocator {
    std::function<void*(size_t nbytes)> allocate;
    std::function<void(void* block)> release;
  };
  // Pinned blocks from the OpenCL driver where this process uses a device (opencl::allocate_pinned and
  // free_pinned), 64-byte aligned ordinary memory elsewhere; decided per block.
  __attribute__((weak)) static HostAllocator default_host_allocator();

  __attribute__((weak)) PinnedMemoryPool();
  // A pool whose blocks come from `allocator` (a test counts its calls with one of its own).
  __attribute__((weak)) explicit PinnedMemoryPool(HostAllocator allocator);

  // A contiguous, uninitialised tensor of `sizes` and `dtype` in a block of this pool: a free block of
  // the same byte size when there is one, else a new block.
  __attribute__((weak)) Tensor empty(IntArrayRef sizes, ScalarType dtype);
  // A contiguous copy of `source` (same sizes and dtype) in a block of this pool.
  __attribute__((weak)) Tensor copy_of(const Tensor& source);
  // Gives the free blocks back to the system; blocks in use stay.
  __attribute__((weak)) void empty_cache();
  __attribute__((weak)) Stats stats() const;

  // What the pool and the deleters of the tensors it handed out share: a tensor may outlive the pool.
  struct State {
    __attribute__((weak)) ~State();
    HostAllocator allocator;
    std::mutex mutex;
    std::multimap<size_t, void*> free_blocks;  // by byte size
    Stats stats;
  };

 private:
  std::shared_ptr<State> state_;
};

}  // namespace data
}  // namespace tinytorch
