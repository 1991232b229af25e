#pragma once
// A pool of reused host buffers for batches: what DataLoaderOptions().pin_memory(true) copies each batch
// into (PyTorch's DataLoader(pin_memory=True); LibTorch's C++ loader has no such option). On a GPU
// machine these would be page-locked ("pinned") pages, which a device can copy from without the driver
// staging them first; here they are ordinary 64-byte aligned blocks. What matters on any machine is
// the reuse: a block goes back to the pool when the last tensor using it goes away, and the next
// batch of the same size takes it instead of asking the allocator (LibTorch's CachingHostAllocator
// does the same). Module 22 copies batches to a device from these buffers.
//
// Thread-safe: the loader's workers take blocks concurrently, and a block may come back on any thread.
//
// The members defined in pinned_memory.cpp are weak, as BatchPipeline's are (data/detail/batch_pipeline.h):
// builds without module 21 include the loader but not this code.
#include <cstddef>
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

  __attribute__((weak)) PinnedMemoryPool();

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
    std::mutex mutex;
    std::multimap<size_t, void*> free_blocks;  // by byte size
    Stats stats;
  };

 private:
  std::shared_ptr<State> state_;
};

}  // namespace data
}  // namespace tinytorch
