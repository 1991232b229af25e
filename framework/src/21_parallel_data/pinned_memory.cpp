// Module 21, learner file: the pool of reused batch buffers (tinytorch/data/pinned_memory.h).
#include "tinytorch/data/pinned_memory.h"

#include <cstdlib>
#include <functional>
#include <new>
#include <utility>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/from_blob.h"
#include "tinytorch/opencl.h"
#include "tinytorch/tensor_factories.h"

namespace tinytorch {
namespace data {
namespace {

constexpr size_t kAlignment = 64;  // a cache line, and what the vector kernels like

void* allocate_ordinary(size_t nbytes) {
  const size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  void* block = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

}  // namespace

extern "C" void tinytorch_pinned_memory_registration() {}

// Decided per block, so that a pool made before the model moved to the device pins the blocks it allocates
// after. Asking whether a device is in use never sets one up: a CPU-only program never loads the driver.
PinnedMemoryPool::HostAllocator PinnedMemoryPool::default_host_allocator() {
  return {[](size_t nbytes) {
            return opencl::is_initialized() ? opencl::allocate_pinned(nbytes) : allocate_ordinary(nbytes);
          },
          [](void* block) {
            if (opencl::is_pinned_host_memory(block)) {
              opencl::free_pinned(block);
            } else {
              std::free(block);
            }
          }};
}

PinnedMemoryPool::PinnedMemoryPool() : PinnedMemoryPool(default_host_allocator()) {}

PinnedMemoryPool::PinnedMemoryPool(HostAllocator allocator) : state_(std::make_shared<State>()) {
  TT_CHECK(allocator.allocate && allocator.release,
           "PinnedMemoryPool: the HostAllocator needs both functions, allocate and release");
  state_->allocator = std::move(allocator);
}

PinnedMemoryPool::State::~State() {
  for (auto& entry : free_blocks) allocator.release(entry.second);
}

// TODO: empty -- under the state's lock, take a free block of exactly nbytes (counting a reuse) or
// allocate a new one with state_->allocator.allocate(nbytes) (counting it and its bytes); either way one
// more block is in use. Wrap it in a tensor (from_blob with a deleter) whose deleter hands the block BACK
// to the free blocks -- it must not free it, and must not be handed out again while a tensor still uses
// it. The deleter may run after the pool is gone and on any thread: let it hold the shared State, and lock.
//   Example: empty({64, 784}, kFloat) twice while the first tensor lives: 2 blocks allocated; drop
//   the first, call it again: 2 allocated, 1 reused.
Tensor PinnedMemoryPool::empty(IntArrayRef sizes, ScalarType dtype) {
  int64_t numel = 1;
  for (int64_t size : sizes) {
    TT_CHECK(size >= 0, "PinnedMemoryPool::empty: sizes must be non-negative, got ", sizes);
    numel *= size;
  }
  const size_t nbytes = static_cast<size_t>(numel) * elementSize(dtype);
  // BEGIN SOLUTION name="tinytorch::data::PinnedMemoryPool::empty" lesson="6. Reused batch buffers"
  void* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    auto free_block = state_->free_blocks.find(nbytes);
    if (free_block != state_->free_blocks.end()) {
      block = free_block->second;
      state_->free_blocks.erase(free_block);
      ++state_->stats.blocks_reused;
    } else {
      block = state_->allocator.allocate(nbytes);
      ++state_->stats.blocks_allocated;
      state_->stats.bytes_reserved += nbytes;
    }
    ++state_->stats.blocks_in_use;
  }
  std::shared_ptr<State> state = state_;
  auto give_back = [state, nbytes](void* data) {
    std::lock_guard<std::mutex> lock(state->mutex);
    state->free_blocks.emplace(nbytes, data);
    --state->stats.blocks_in_use;
  };
  return from_blob(block, sizes, give_back, TensorOptions(dtype));
  // END SOLUTION
}

Tensor PinnedMemoryPool::copy_of(const Tensor& source) {
  TT_CHECK(source.defined(), "PinnedMemoryPool::copy_of: the source tensor is undefined");
  Tensor copy = empty(source.sizes(), source.scalar_type());
  copy.copy_(source);
  return copy;
}

// TODO: empty_cache -- under the lock, give every free block back with state_->allocator.release (never
// std::free: a pinned block belongs to the driver) and take its bytes off bytes_reserved; blocks in use stay
// where they are.
//   Example: 3 blocks of 1 KiB, 1 in use: afterwards bytes_reserved is 1024.
void PinnedMemoryPool::empty_cache() {
  // BEGIN SOLUTION name="tinytorch::data::PinnedMemoryPool::empty_cache" lesson="6. Reused batch buffers"
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (auto& entry : state_->free_blocks) {
    state_->allocator.release(entry.second);
    state_->stats.bytes_reserved -= entry.first;
  }
  state_->free_blocks.clear();
  // END SOLUTION
}

PinnedMemoryPool::Stats PinnedMemoryPool::stats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->stats;
}

}  // namespace data
}  // namespace tinytorch
