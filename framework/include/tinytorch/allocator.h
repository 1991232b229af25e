#pragma once
// The CPU caching allocator behind every tensor's storage, and its statistics.
//
// Why: fresh memory from the system costs a page fault per 4 KiB page on first touch (about 11 us
// per page on the course machine), so a training step that allocates its intermediates from the
// system every time pays milliseconds for nothing. Like PyTorch's allocators, a freed block is kept
// in a free list for its size class and handed to the next request of that class.
//
// Size classes: requests up to 256 bytes round up to a multiple of 64; larger ones to one of four
// steps per power of two (1, 1.25, 1.5, 1.75 x 2^k), so a block wastes at most 25%.
// Threads: each thread that allocates keeps up to 8 MiB of the blocks it frees in a cache of its own
// (no lock shared with other threads: a DataLoader's workers and the training loop do not wait for
// each other), in front of free lists shared by all threads. The shared lists hold at most
// $TINYTORCH_CACHE_LIMIT_MB MiB (default 256; a thread's own cache at most that too); a block freed
// beyond that goes back to the system, and so do a thread's blocks beyond the limit when it ends.
// TINYTORCH_NO_CACHING_ALLOCATOR=1 turns caching off (every free goes to the system, as
// AddressSanitizer wants), read once at the first allocation.
//
// The names follow torch.cuda.memory_stats() / empty_cache() / reset_peak_memory_stats().
#include <cstddef>
#include <cstdint>

namespace tinytorch {
namespace memory {

struct AllocatorStats {
  bool caching_enabled = true;
  int64_t allocations = 0;          // requests served (hits + misses)
  int64_t cache_hits = 0;           // served from a free list: no system call, no page faults
  int64_t cache_misses = 0;         // served by the system
  int64_t allocated_bytes = 0;      // bytes in blocks now owned by storages (size-class bytes)
  int64_t peak_allocated_bytes = 0; // the most allocated_bytes has been since the last reset
  int64_t cached_bytes = 0;         // bytes in free blocks kept for reuse
  int64_t cache_limit_bytes = 0;    // the most the shared lists keep (each thread up to 8 MiB more)
  double hit_rate() const { return allocations == 0 ? 0.0 : static_cast<double>(cache_hits) / allocations; }
};

// A snapshot of the counters, summed over the threads: exact while no other thread allocates at the
// same moment. While several threads allocate at once (a DataLoader's workers), each adds its bytes to
// the total that peak_allocated_bytes follows only every 64 KiB, so the peak may miss up to 64 KiB per
// thread; with one thread allocating (the intra-op pool's threads do not count), it is exact.
AllocatorStats allocator_stats();
// Returns every cached free block to the system (blocks in use are untouched).
void empty_cache();
// Starts peak_allocated_bytes again from the current allocated_bytes, and zeroes the hit and miss
// counts, so that a measurement can cover exactly one piece of code.
void reset_peak_stats();
// The size class a request of nbytes is served from (what allocated_bytes counts).
size_t size_class(size_t nbytes);

namespace detail {
// A 64-byte aligned block of at least nbytes (never null; 0 bytes gets a 64-byte block) and the
// matching release. StorageImpl::allocate is the only caller.
void* allocate_block(size_t nbytes);
void release_block(void* data, size_t nbytes);
}  // namespace detail

}  // namespace memory
}  // namespace tinytorch
