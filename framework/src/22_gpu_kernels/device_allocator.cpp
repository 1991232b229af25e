// Module 22, learner file: the caching allocator of device memory (tinytorch/opencl.h), LibTorch's
// CUDACachingAllocator for one OpenCL device. clCreateBuffer is slow (the driver maps memory, and on a
// GPU it may synchronise the device), and a training step frees and allocates the same sizes every
// step, so freed blocks are kept and handed out again: after the first step, no driver call at all.
//
// A segment is one clCreateBuffer; it is cut into blocks, linked to their neighbours (prev/next) so
// that a free block can merge with the free blocks beside it. Free blocks wait in one of two pools,
// sets ordered by size, so that lower_bound finds the smallest block that fits (best fit). A freed
// block whose last command is still queued or running (its `last_use` event) cannot be handed out yet:
// the next command might write it before the old one has read it. It waits in `waiting_` until its
// event completes.
#include <algorithm>
#include <functional>
#include <string>

#include "tinytorch/errors.h"
#include "tinytorch/opencl.h"

namespace tinytorch {
namespace opencl {
namespace {

// Whether the command behind `event` has finished (CL_COMPLETE, or failed: a negative status).
bool has_finished(cl_event event) {
  cl_int status = CL_COMPLETE;
  check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
        "clGetEventInfo");
  return status <= CL_COMPLETE;
}

}  // namespace

// TODO: BySize -- the order of the free pools: by size, then by segment (buffer), then by offset, so
//   that two blocks are never equivalent and lower_bound({size, null, 0}) is the smallest block that
//   holds `size`. Compare cl_mem handles with std::less (pointers of different objects).
//   Example: {size 512, seg A, off 0} < {size 512, seg A, off 1024} < {size 1024, seg A, off 512}.
bool DeviceCachingAllocator::BySize::operator()(const DeviceBlock* a, const DeviceBlock* b) const {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::BySize" lesson="2. Device memory: the caching allocator"
  if (a->size != b->size) return a->size < b->size;
  if (a->buffer != b->buffer) return std::less<cl_mem>()(a->buffer, b->buffer);
  return a->offset < b->offset;
  // END SOLUTION
}

// TODO: round_size -- the size a request is served with: nbytes rounded up to a multiple of
//   kBlockAlignment, and at least one unit (a 0-byte tensor still gets a block, so that every storage
//   has a buffer to pass to a kernel). Every block offset is then a multiple of 512, which every
//   element size divides.
//   Example: 0 -> 512, 1 -> 512, 512 -> 512, 513 -> 1024.
size_t DeviceCachingAllocator::round_size(size_t nbytes) {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::round_size" lesson="2. Device memory: the caching allocator"
  if (nbytes == 0) return kBlockAlignment;
  return (nbytes + kBlockAlignment - 1) / kBlockAlignment * kBlockAlignment;
  // END SOLUTION
}

DeviceCachingAllocator::DeviceCachingAllocator(cl_context context) : context_(context) {}

// Given (a destructor must not throw, so it is not a starter's NotImplemented): everything goes back to
// the driver -- the waiting blocks' events, every block the allocator still holds (cached or waiting),
// every segment. Blocks still allocated belong to live storages, which must not outlive the allocator.
DeviceCachingAllocator::~DeviceCachingAllocator() {
  for (DeviceBlock* block : waiting_) {
    if (block->last_use != nullptr) clReleaseEvent(block->last_use);
    delete block;
  }
  for (auto* pool : {&small_free_, &large_free_}) {
    for (DeviceBlock* block : *pool) delete block;
    pool->clear();
  }
  for (const auto& segment : segment_sizes_) clReleaseMemObject(segment.first);
}

// TODO: allocate -- under the lock: first reclaim the waiting blocks that have finished, then round the
//   request (round_size) and pick its pool (small: rounded size <= kSmallRequest). Take the smallest
//   cached block that fits (lower_bound); when there is none, make a segment: kSmallSegment bytes for
//   the small pool, the size rounded up to kLargeRounding for the large one (clCreateBuffer,
//   CL_MEM_READ_WRITE). When the driver refuses, give the cache back (release the wholly free segments)
//   and try once more; then throw an Error "OpenCL out of memory: tried to allocate N bytes (R bytes
//   reserved)".
//   A block bigger than the request is split: the block keeps the rounded size, and the rest becomes a
//   new free block right after it in the segment (linked between it and its next, cached in the same
//   pool) -- in the small pool whatever the rest, in the large pool only when the rest is above
//   kSmallRequest (a smaller rest stays part of the block). Count allocations, cache hits (no new
//   segment), splits, segments, allocated and reserved bytes and their peaks.
//   Example: allocate(1000) on an empty allocator: one 2 MiB segment, a 1024-byte block at offset 0
//   and a free 2 MiB - 1024 rest at offset 1024; allocate(1000) again: the block at 1024, a cache hit.
DeviceBlock* DeviceCachingAllocator::allocate(size_t nbytes) {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::allocate" lesson="2. Device memory: the caching allocator"
  std::unique_lock<std::mutex> lock(mutex_);
  reclaim_finished();
  const size_t size = round_size(nbytes);
  const bool small = size <= kSmallRequest;
  auto& pool = small ? small_free_ : large_free_;

  DeviceBlock key;
  key.size = size;
  DeviceBlock* block = nullptr;
  auto found = pool.lower_bound(&key);
  if (found != pool.end()) {
    block = *found;
    pool.erase(found);
    ++stats_.cache_hits;
  } else {
    const size_t segment_size =
        small ? kSmallSegment : (size + kLargeRounding - 1) / kLargeRounding * kLargeRounding;
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, segment_size, nullptr, &status);
    if (status != CL_SUCCESS) {
      // The cached segments may be what fills the device: give them back and try once more.
      lock.unlock();
      empty_cache();
      lock.lock();
      buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, segment_size, nullptr, &status);
    }
    if (status != CL_SUCCESS) {
      throw Error("OpenCL out of memory: tried to allocate " + std::to_string(nbytes) + " bytes (" +
                  std::to_string(stats_.reserved_bytes) + " bytes reserved; the driver said " +
                  error_name(status) + ")");
    }
    block = new DeviceBlock();
    block->buffer = buffer;
    block->size = segment_size;
    block->small_pool = small;
    segment_sizes_[buffer] = segment_size;
    ++stats_.segments;
    stats_.reserved_bytes += static_cast<int64_t>(segment_size);
    stats_.peak_reserved_bytes = std::max(stats_.peak_reserved_bytes, stats_.reserved_bytes);
  }

  // Split: the block keeps `size` bytes, the rest stays cached right after it in the segment.
  const size_t rest = block->size - size;
  if (rest > 0 && (small || rest > kSmallRequest)) {
    DeviceBlock* remaining = new DeviceBlock();
    remaining->buffer = block->buffer;
    remaining->offset = block->offset + size;
    remaining->size = rest;
    remaining->small_pool = block->small_pool;
    remaining->prev = block;
    remaining->next = block->next;
    if (block->next != nullptr) block->next->prev = remaining;
    block->next = remaining;
    block->size = size;
    pool.insert(remaining);
    ++stats_.splits;
  }

  block->allocated = true;
  block->requested = nbytes;
  ++stats_.allocations;
  stats_.allocated_bytes += static_cast<int64_t>(block->size);
  stats_.peak_allocated_bytes = std::max(stats_.peak_allocated_bytes, stats_.allocated_bytes);
  return block;
  // END SOLUTION
}

// TODO: free -- under the lock: the block is no longer allocated (its bytes leave allocated_bytes). If
//   its last command is still queued or running (clGetEventInfo, CL_EVENT_COMMAND_EXECUTION_STATUS
//   above CL_COMPLETE), it waits in waiting_; otherwise release its event and cache it (insert_free).
//   Example: a tensor freed right after a kernel that writes it was queued: waiting_blocks becomes 1,
//   and the next allocate of that size makes a new block rather than handing this one out.
void DeviceCachingAllocator::free(DeviceBlock* block) {
  if (block == nullptr) return;
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::free" lesson="2. Device memory: the caching allocator"
  std::lock_guard<std::mutex> lock(mutex_);
  block->allocated = false;
  block->requested = 0;
  stats_.allocated_bytes -= static_cast<int64_t>(block->size);
  if (block->last_use != nullptr && !has_finished(block->last_use)) {
    waiting_.push_back(block);
    stats_.waiting_blocks = static_cast<int64_t>(waiting_.size());
    return;
  }
  if (block->last_use != nullptr) clReleaseEvent(block->last_use);
  block->last_use = nullptr;
  insert_free(block);
  // END SOLUTION
}

// TODO: reclaim_finished -- (the lock is held) every waiting block whose event has finished: release
//   the event, take the block out of waiting_ and cache it (insert_free). The others keep waiting.
void DeviceCachingAllocator::reclaim_finished() {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::reclaim_finished" lesson="2. Device memory: the caching allocator"
  auto still_waiting = waiting_.begin();
  for (DeviceBlock* block : waiting_) {
    if (block->last_use != nullptr && !has_finished(block->last_use)) {
      *still_waiting++ = block;
      continue;
    }
    if (block->last_use != nullptr) clReleaseEvent(block->last_use);
    block->last_use = nullptr;
    insert_free(block);
  }
  waiting_.erase(still_waiting, waiting_.end());
  stats_.waiting_blocks = static_cast<int64_t>(waiting_.size());
  // END SOLUTION
}

// TODO: insert_free -- (the lock is held) merge the free block with its free neighbours
//   (merge_free_neighbours), then put the result in its pool (small_pool says which).
void DeviceCachingAllocator::insert_free(DeviceBlock* block) {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::insert_free" lesson="2. Device memory: the caching allocator"
  block = merge_free_neighbours(block);
  (block->small_pool ? small_free_ : large_free_).insert(block);
  // END SOLUTION
}

// TODO: merge_free_neighbours -- (the lock is held) `block` is free and in no pool. A neighbour merges
//   with it when it is cached in the pool (free and not waiting: allocated and waiting neighbours stay
//   apart): take the neighbour out of its pool, let the lower block of the two span both, unlink and
//   delete the other. Do it on both sides; return the block that spans the result.
//   Example: blocks [A 1024 | B 1024 | C rest] with A and C cached: freeing B gives one block at offset
//   0 spanning the whole segment (prev and next null again).
DeviceBlock* DeviceCachingAllocator::merge_free_neighbours(DeviceBlock* block) {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::merge_free_neighbours" lesson="2. Device memory: the caching allocator"
  auto& pool = block->small_pool ? small_free_ : large_free_;
  // `later` is absorbed into `earlier`, its neighbour just before it in the segment.
  auto absorb = [](DeviceBlock* earlier, DeviceBlock* later) {
    earlier->size += later->size;
    earlier->next = later->next;
    if (later->next != nullptr) later->next->prev = earlier;
    delete later;
  };
  if (block->prev != nullptr && pool.erase(block->prev) == 1) {
    DeviceBlock* earlier = block->prev;
    absorb(earlier, block);
    block = earlier;
  }
  if (block->next != nullptr && pool.erase(block->next) == 1) absorb(block, block->next);
  return block;
  // END SOLUTION
}

// TODO: empty_cache -- under the lock: wait for the waiting blocks' events (clWaitForEvents) and
//   reclaim them, then release every segment that is one whole free block (no prev, no next):
//   clReleaseMemObject, and the segment leaves segments and reserved_bytes. Blocks in use stay.
//   Example: every tensor gone, then empty_cache(): reserved_bytes 0, segments 0.
void DeviceCachingAllocator::empty_cache() {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::empty_cache" lesson="2. Device memory: the caching allocator"
  std::lock_guard<std::mutex> lock(mutex_);
  for (DeviceBlock* block : waiting_) {
    if (block->last_use != nullptr) check(clWaitForEvents(1, &block->last_use), "clWaitForEvents");
  }
  reclaim_finished();
  for (auto* pool : {&small_free_, &large_free_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      DeviceBlock* block = *it;
      if (block->prev != nullptr || block->next != nullptr) {
        ++it;
        continue;
      }
      it = pool->erase(it);
      check(clReleaseMemObject(block->buffer), "clReleaseMemObject");
      segment_sizes_.erase(block->buffer);
      stats_.reserved_bytes -= static_cast<int64_t>(block->size);
      --stats_.segments;
      delete block;
    }
  }
  // END SOLUTION
}

// TODO: stats -- a copy of the counters, read under the lock.
DeviceMemoryStats DeviceCachingAllocator::stats() const {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::stats" lesson="2. Device memory: the caching allocator"
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
  // END SOLUTION
}

// TODO: reset_peak_stats -- under the lock: the peaks start again from the current values, and the
//   split count from 0.
void DeviceCachingAllocator::reset_peak_stats() {
  // BEGIN SOLUTION name="tinytorch::opencl::DeviceCachingAllocator::reset_peak_stats" lesson="2. Device memory: the caching allocator"
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_allocated_bytes = stats_.allocated_bytes;
  stats_.peak_reserved_bytes = stats_.reserved_bytes;
  stats_.splits = 0;
  // END SOLUTION
}

}  // namespace opencl
}  // namespace tinytorch
