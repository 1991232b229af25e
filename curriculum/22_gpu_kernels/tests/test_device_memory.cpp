// Module 22 (GPU kernels): the graded tests of device memory -- the caching allocator
// (DeviceCachingAllocator, device_allocator.cpp) and the copies between host and device
// (transfers.cpp). 40 points here; test_device_kernels.cpp has the other 60. Each case is tagged with
// its points and a topic; hints.json has a hint per case name.
//
// Allocator cases make an allocator of their own on the device's context, so that its counters start
// at zero whatever ran before. A command that is "still running" is made with a user event
// (clCreateUserEvent): it stays CL_SUBMITTED until the case completes it, so what the allocator does
// with a busy block is tested deterministically, whatever the device's speed. Sizes come from
// random_int: under `tito grade` from a secret seed.
//
// Every case needs an OpenCL device (on a machine without a GPU, pocl runs OpenCL on the CPU: Debian's
// pocl-opencl-icd). Without one a case fails at its first line saying so, never passes.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/device_kernels.h>
#include <tinytorch/opencl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Catch::Matchers::Contains;
namespace cl = tinytorch::opencl;
namespace native = tinytorch::opencl::native;
using Allocator = tinytorch::opencl::DeviceCachingAllocator;

namespace {

constexpr size_t kMiB = 1024 * 1024;

// A command that has not finished until complete() is called -- or until kDeadlineSeconds have passed,
// so that code that waits for it where it must not (a free() that blocks) fails the case instead of
// hanging the run.
constexpr int kDeadlineSeconds = 5;

class PendingCommand {
 public:
  PendingCommand() {
    cl_int status = CL_SUCCESS;
    event = clCreateUserEvent(cl::context(), &status);
    REQUIRE(status == CL_SUCCESS);
    watchdog_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!done_.wait_for(lock, std::chrono::seconds(kDeadlineSeconds), [this] { return completed_; })) {
        completed_ = true;
        clSetUserEventStatus(event, CL_COMPLETE);
      }
    });
  }
  ~PendingCommand() {
    complete();
    watchdog_.join();
    clReleaseEvent(event);
  }
  PendingCommand(const PendingCommand&) = delete;
  PendingCommand& operator=(const PendingCommand&) = delete;
  void complete() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!completed_) clSetUserEventStatus(event, CL_COMPLETE);
    completed_ = true;
    done_.notify_all();
  }
  cl_event event = nullptr;

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  bool completed_ = false;
  std::thread watchdog_;
};

// The queue of device 0 held up behind `command`: nothing queued after this runs until it completes.
void hold_queue_behind(const PendingCommand& command) {
  REQUIRE(clEnqueueMarkerWithWaitList(cl::queue(), 1, &command.event, nullptr) == CL_SUCCESS);
}

cl_int execution_status(cl_event event) {
  cl_int status = CL_COMPLETE;
  REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr) == CL_SUCCESS);
  return status;
}

torch::Tensor empty_device(torch::IntArrayRef sizes, torch::ScalarType dtype = torch::kFloat) {
  return cl::empty_on_device(sizes, dtype, torch::Device("opencl"));
}

torch::Tensor to_host(const torch::Tensor& device_tensor) {
  torch::Tensor host = torch::empty(device_tensor.sizes(), device_tensor.scalar_type());
  native::copy_device_to_host(device_tensor, host);
  return host;
}

}  // namespace

// ---- The caching allocator ----

TEST_CASE("round_size rounds requests up to 512 bytes, and 0 bytes to one unit", "[points=2][allocator]") {
  CHECK(Allocator::round_size(0) == 512);
  CHECK(Allocator::round_size(1) == 512);
  CHECK(Allocator::round_size(512) == 512);
  CHECK(Allocator::round_size(513) == 1024);
  const size_t units = static_cast<size_t>(random_int(2, 5000));
  CHECK(Allocator::round_size(units * 512) == units * 512);
  CHECK(Allocator::round_size(units * 512 - 511) == units * 512);
  CHECK(Allocator::round_size(units * 512 + 1) == (units + 1) * 512);
}

TEST_CASE("small requests are cut from one 2 MiB segment, one after another", "[points=3][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const size_t first_bytes = static_cast<size_t>(random_int(1, 4000));
  cl::DeviceBlock* first = allocator.allocate(first_bytes);
  REQUIRE(first != nullptr);
  CHECK(first->buffer != nullptr);
  CHECK(first->offset == 0);
  CHECK(first->size == Allocator::round_size(first_bytes));
  CHECK(first->requested == first_bytes);
  CHECK(first->allocated);
  CHECK(first->small_pool);
  auto stats = allocator.stats();
  CHECK(stats.segments == 1);
  CHECK(stats.reserved_bytes == int64_t(2 * kMiB));
  CHECK(stats.allocated_bytes == int64_t(first->size));
  CHECK(stats.splits == 1);  // the rest of the segment stays cached
  CHECK(stats.cache_hits == 0);

  // The next ones come from the rest of the same segment, right after the one before.
  std::vector<cl::DeviceBlock*> blocks = {first};
  size_t expected_offset = first->size, allocated = first->size;
  const int more = static_cast<int>(random_int(2, 6));
  for (int i = 0; i < more; ++i) {
    const size_t bytes = static_cast<size_t>(random_int(1, 100000));
    cl::DeviceBlock* block = allocator.allocate(bytes);
    CHECK(block->buffer == first->buffer);
    CHECK(block->offset == expected_offset);
    CHECK(block->size == Allocator::round_size(bytes));
    expected_offset += block->size;
    allocated += block->size;
    blocks.push_back(block);
  }
  stats = allocator.stats();
  CHECK(stats.segments == 1);
  CHECK(stats.cache_hits == more);
  CHECK(stats.allocations == more + 1);
  CHECK(stats.allocated_bytes == int64_t(allocated));
  CHECK(stats.peak_allocated_bytes == int64_t(allocated));
  for (cl::DeviceBlock* block : blocks) allocator.free(block);
  CHECK(allocator.stats().allocated_bytes == 0);
}

TEST_CASE("a freed block is handed out again: the smallest cached block that fits", "[points=4][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  // Three blocks of different sizes with allocated blocks between them, so that none can merge.
  const size_t unit = 512 * static_cast<size_t>(random_int(1, 8));
  std::vector<cl::DeviceBlock*> keep;
  cl::DeviceBlock* large = allocator.allocate(6 * unit);
  keep.push_back(allocator.allocate(512));
  cl::DeviceBlock* small = allocator.allocate(2 * unit);
  keep.push_back(allocator.allocate(512));
  cl::DeviceBlock* medium = allocator.allocate(4 * unit);
  keep.push_back(allocator.allocate(512));
  const auto where = [](const cl::DeviceBlock* b) { return std::make_pair(b->buffer, b->offset); };
  const auto large_at = where(large), small_at = where(small), medium_at = where(medium);
  allocator.free(large);
  allocator.free(small);
  allocator.free(medium);
  const int64_t segments = allocator.stats().segments;

  cl::DeviceBlock* reused = allocator.allocate(3 * unit);  // fits medium and large: medium is the smaller
  CHECK(where(reused) == medium_at);
  cl::DeviceBlock* again = allocator.allocate(2 * unit - 100);  // rounds to 2 units: exactly `small`
  CHECK(where(again) == small_at);
  CHECK(again->size == 2 * unit);
  cl::DeviceBlock* last = allocator.allocate(5 * unit);
  CHECK(where(last) == large_at);
  CHECK(allocator.stats().segments == segments);  // no new segment
  for (cl::DeviceBlock* b : {reused, again, last}) allocator.free(b);
  for (cl::DeviceBlock* b : keep) allocator.free(b);
}

TEST_CASE("large requests get segments rounded to 2 MiB and never mix with the small pool", "[points=3][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const size_t bytes = kMiB + static_cast<size_t>(random_int(1, 3 * 1024 * 1024));  // just over the small limit
  cl::DeviceBlock* large = allocator.allocate(bytes);
  const size_t rounded = Allocator::round_size(bytes);
  const size_t segment = (rounded + 2 * kMiB - 1) / (2 * kMiB) * (2 * kMiB);
  CHECK_FALSE(large->small_pool);
  CHECK(allocator.stats().reserved_bytes == int64_t(segment));
  // A rest above 1 MiB is split off and cached; a smaller rest stays part of the block.
  if (segment - rounded > kMiB) {
    CHECK(large->size == rounded);
    CHECK(allocator.stats().splits == 1);
  } else {
    CHECK(large->size == segment);
    CHECK(allocator.stats().splits == 0);
  }
  allocator.free(large);
  // A small request does not come out of the large segment: it makes a small one.
  cl::DeviceBlock* small = allocator.allocate(static_cast<size_t>(random_int(1, 1000)));
  CHECK(small->small_pool);
  CHECK(small->buffer != large->buffer);
  CHECK(allocator.stats().segments == 2);
  CHECK(allocator.stats().reserved_bytes == int64_t(segment + 2 * kMiB));
  allocator.free(small);

  // A 3 MiB request served from a cached 4 MiB block: the 1 MiB rest is not worth a block of its own.
  Allocator fresh(cl::context());
  cl::DeviceBlock* four = fresh.allocate(4 * kMiB);
  CHECK(four->size == 4 * kMiB);
  fresh.free(four);
  cl::DeviceBlock* three = fresh.allocate(3 * kMiB);
  CHECK(three->size == 4 * kMiB);
  CHECK(fresh.stats().splits == 0);
  CHECK(fresh.stats().cache_hits == 1);
  fresh.free(three);
}

TEST_CASE("free neighbours merge again, and empty_cache gives back wholly free segments", "[points=4][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const int count = static_cast<int>(random_int(3, 8));
  std::vector<cl::DeviceBlock*> blocks;
  int64_t expected_bytes = 0;
  for (int i = 0; i < count; ++i) {
    const size_t bytes = static_cast<size_t>(random_int(1, 64 * 1024));
    expected_bytes += int64_t((bytes + 511) / 512 * 512);
    blocks.push_back(allocator.allocate(bytes));
  }
  CHECK(allocator.stats().allocated_bytes == expected_bytes);
  cl::DeviceBlock* other_segment_block = allocator.allocate(3 * kMiB);  // a large segment, kept in use
  const int64_t large_reserved = allocator.stats().reserved_bytes - int64_t(2 * kMiB);

  // Free every other block first, then the rest: each free must merge with what is free beside it.
  for (int i = 0; i < count; i += 2) allocator.free(blocks[static_cast<size_t>(i)]);
  allocator.empty_cache();  // nothing is wholly free yet
  CHECK(allocator.stats().segments == 2);
  for (int i = 1; i < count; i += 2) allocator.free(blocks[static_cast<size_t>(i)]);

  // The whole small segment is one free block again: a request of all of it fits without a new segment.
  cl::DeviceBlock* whole = allocator.allocate(kMiB);
  CHECK(whole->offset == 0);
  CHECK(whole->buffer == blocks[0]->buffer);
  CHECK(allocator.stats().segments == 2);
  allocator.free(whole);

  allocator.empty_cache();
  auto stats = allocator.stats();
  CHECK(stats.segments == 1);  // the large one is still in use
  CHECK(stats.reserved_bytes == large_reserved);
  allocator.free(other_segment_block);
  allocator.empty_cache();
  stats = allocator.stats();
  CHECK(stats.segments == 0);
  CHECK(stats.reserved_bytes == 0);
  CHECK(stats.allocated_bytes == 0);
}

TEST_CASE("a block whose last command is still running is not handed out until it finishes",
          "[points=5][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const size_t bytes = static_cast<size_t>(random_int(1, 200000));
  PendingCommand running;
  cl::DeviceBlock* busy = allocator.allocate(bytes);
  CHECK(busy->size == (bytes + 511) / 512 * 512);
  const auto busy_at = std::make_pair(busy->buffer, busy->offset);
  cl::record_use(*busy, running.event);  // a kernel still reading or writing it
  allocator.free(busy);
  CHECK(allocator.stats().waiting_blocks == 1);
  CHECK(allocator.stats().allocated_bytes == 0);

  cl::DeviceBlock* other = allocator.allocate(bytes);  // must not be the busy block
  CHECK(std::make_pair(other->buffer, other->offset) != busy_at);
  allocator.free(other);
  CHECK(allocator.stats().waiting_blocks == 1);

  running.complete();
  std::vector<cl::DeviceBlock*> taken;
  bool got_it_back = false;
  for (int i = 0; i < 4 && !got_it_back; ++i) {  // the finished block is in the pool again
    taken.push_back(allocator.allocate(bytes));
    got_it_back = std::make_pair(taken.back()->buffer, taken.back()->offset) == busy_at;
  }
  CHECK(got_it_back);
  CHECK(allocator.stats().waiting_blocks == 0);
  for (cl::DeviceBlock* b : taken) allocator.free(b);
  allocator.empty_cache();
  CHECK(allocator.stats().reserved_bytes == 0);
}

TEST_CASE("empty_cache waits for freed blocks still in use, then releases their segment", "[points=2][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  PendingCommand running;
  const size_t bytes = static_cast<size_t>(random_int(1, 100000));
  cl::DeviceBlock* busy = allocator.allocate(bytes);
  CHECK(busy->size == (bytes + 511) / 512 * 512);
  cl::record_use(*busy, running.event);
  allocator.free(busy);
  std::atomic<bool> emptied{false};
  std::thread emptier([&] {
    allocator.empty_cache();
    emptied = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const bool returned_early = emptied;
  running.complete();
  emptier.join();
  CHECK_FALSE(returned_early);
  CHECK(allocator.stats().segments == 0);
  CHECK(allocator.stats().waiting_blocks == 0);
}

TEST_CASE("peaks follow the most bytes in use until reset_peak_stats", "[points=2][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const int count = static_cast<int>(random_int(2, 6));
  std::vector<cl::DeviceBlock*> blocks;
  int64_t total = 0;
  for (int i = 0; i < count; ++i) {
    blocks.push_back(allocator.allocate(static_cast<size_t>(random_int(1, 300000))));
    total += int64_t(blocks.back()->size);
  }
  for (cl::DeviceBlock* b : blocks) allocator.free(b);
  auto stats = allocator.stats();
  CHECK(stats.allocated_bytes == 0);
  CHECK(stats.peak_allocated_bytes == total);
  CHECK(stats.peak_reserved_bytes == stats.reserved_bytes);
  allocator.reset_peak_stats();
  stats = allocator.stats();
  CHECK(stats.peak_allocated_bytes == 0);
  CHECK(stats.splits == 0);
  cl::DeviceBlock* one = allocator.allocate(1000);
  CHECK(allocator.stats().peak_allocated_bytes == 1024);
  allocator.free(one);
  allocator.empty_cache();
  CHECK(allocator.stats().peak_reserved_bytes == stats.peak_reserved_bytes);  // peaks stay after empty_cache
}

TEST_CASE("a request the device cannot hold fails with an out-of-memory error", "[points=2][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const size_t impossible = size_t{1} << 50;  // a petabyte
  CHECK_THROWS_WITH(allocator.allocate(impossible), Contains("out of memory") && Contains(std::to_string(impossible)));
  CHECK(allocator.stats().segments == 0);
  const size_t small = static_cast<size_t>(random_int(1, 4096));
  cl::DeviceBlock* fine = allocator.allocate(small);  // the allocator still works
  CHECK(fine->size == (small + 511) / 512 * 512);
  allocator.free(fine);
}

TEST_CASE("the allocator stays consistent when many threads allocate and free at once", "[points=3][allocator]") {
  REQUIRE_OPENCL_DEVICE();
  Allocator allocator(cl::context());
  const int threads = 4, rounds = static_cast<int>(random_int(150, 250));
  std::vector<std::thread> workers;
  std::atomic<int> overlaps{0};
  std::mutex errors_mutex;
  std::vector<std::string> errors;  // what a worker threw: Catch2's checks are not thread-safe, so record it
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
     try {
      std::vector<cl::DeviceBlock*> mine;
      for (int r = 0; r < rounds; ++r) {
        const size_t bytes = static_cast<size_t>(((r * 7919 + t * 104729) % 60000) + 1);
        mine.push_back(allocator.allocate(bytes));
        if (mine.size() > 3) {
          allocator.free(mine.front());
          mine.erase(mine.begin());
        }
        // Blocks this thread holds never overlap one another.
        for (size_t i = 0; i + 1 < mine.size(); ++i)
          if (mine[i]->buffer == mine.back()->buffer && mine[i]->offset < mine.back()->offset + mine.back()->size &&
              mine.back()->offset < mine[i]->offset + mine[i]->size)
            ++overlaps;
      }
      for (cl::DeviceBlock* b : mine) allocator.free(b);
     } catch (const std::exception& error) {
      std::lock_guard<std::mutex> lock(errors_mutex);
      errors.push_back(error.what());
     }
    });
  }
  for (auto& worker : workers) worker.join();
  for (const std::string& error : errors) FAIL_CHECK("a worker thread threw: " << error);
  REQUIRE(errors.empty());
  CHECK(overlaps == 0);
  auto stats = allocator.stats();
  CHECK(stats.allocations == threads * rounds);
  CHECK(stats.allocated_bytes == 0);
  allocator.empty_cache();
  CHECK(allocator.stats().reserved_bytes == 0);
}

// ---- Copies ----

TEST_CASE("host to device to host gives the same bytes for float, long and bool tensors", "[points=3][copies]") {
  REQUIRE_OPENCL_DEVICE();
  const std::vector<int64_t> sizes = {1, 7, 17, 65, 129, random_int(1000, 100000), 0};
  for (int64_t n : sizes) {
    INFO("numel " << n);
    const torch::Tensor floats = random_tensor({n}, -100, 100);
    const torch::Tensor longs = random_tensor({n}, -1000000, 1000000, torch::kLong);
    const torch::Tensor bools = random_tensor({n}, 0, 1, torch::kLong).to(torch::kBool);
    for (const torch::Tensor& host : {floats, longs, bools}) {
      torch::Tensor device = empty_device({n}, host.scalar_type());
      native::copy_host_to_device(host, device, false);
      CHECK_THAT(to_host(device), Equals(host));
    }
  }
}

TEST_CASE("copies reach the tensor's own elements: block offset plus storage offset", "[points=2][copies]") {
  REQUIRE_OPENCL_DEVICE();
  // Two tensors in one segment (the second's block starts past the first), and a slice of the second.
  const int64_t n = random_int(10, 300), start = random_int(1, 9), length = random_int(1, n - start);
  const torch::Tensor first_values = random_tensor({n}), second_values = random_tensor({n});
  torch::Tensor first = empty_device({n}), second = empty_device({n});
  native::copy_host_to_device(first_values, first, false);
  native::copy_host_to_device(second_values, second, false);
  const torch::Tensor slice_values = random_tensor({length});
  torch::Tensor slice = second.narrow(0, start, length);
  REQUIRE(slice.storage_offset() == start);
  native::copy_host_to_device(slice_values, slice, false);
  torch::Tensor expected = second_values.clone();
  for (int64_t i = 0; i < length; ++i) expected.data_ptr<float>()[start + i] = slice_values.data_ptr<float>()[i];
  CHECK_THAT(to_host(first), Equals(first_values));
  CHECK_THAT(to_host(second), Equals(expected));
  torch::Tensor back = torch::empty({length});
  native::copy_device_to_host(slice, back);
  CHECK_THAT(back, Equals(slice_values));
}

TEST_CASE("a copy is stamped as the block's last use", "[points=1][copies]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t n = random_int(1, 5000);
  torch::Tensor device = empty_device({n});
  cl::DeviceBlock& block = cl::block_of(device);
  const cl_event before = block.last_use;
  const torch::Tensor values = random_tensor({n});
  native::copy_host_to_device(values, device, false);
  REQUIRE(block.last_use != nullptr);
  CHECK_THAT(to_host(device), Equals(values));
  CHECK(block.last_use != before);
  const cl_event write = block.last_use;
  CHECK(execution_status(write) == CL_COMPLETE);  // blocking: done when the call returned
  to_host(device);
  CHECK(block.last_use != nullptr);
  CHECK(block.last_use != write);
}

TEST_CASE("non_blocking from pageable memory still waits for the copy", "[points=2][copies]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t n = random_int(100, 10000);
  const torch::Tensor values = random_tensor({n});  // plain (pageable) host memory
  torch::Tensor device = empty_device({n});
  PendingCommand earlier;
  hold_queue_behind(earlier);  // the copy cannot run before `earlier` completes
  std::atomic<bool> returned{false};
  std::thread copier([&] {
    native::copy_host_to_device(values, device, /*non_blocking=*/true);
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const bool returned_before_copy = returned;
  earlier.complete();
  copier.join();
  CHECK_FALSE(returned_before_copy);
  CHECK_THAT(to_host(device), Equals(values));
}

TEST_CASE("non_blocking from pinned memory returns before the copy has run", "[points=2][copies]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t n = random_int(100, 10000);
  const torch::Tensor values = random_tensor({n});
  torch::Tensor device = empty_device({n});
  // A batch buffer of module 21's pool: page-locked memory from the driver, now that this process uses the device.
  torch::data::PinnedMemoryPool pool;
  torch::Tensor pinned = pool.empty({n}, torch::kFloat);
  REQUIRE(cl::is_pinned_host_memory(pinned.data_ptr()));
  std::memcpy(pinned.data_ptr<float>(), values.data_ptr<float>(), static_cast<size_t>(n) * sizeof(float));
  PendingCommand earlier;
  hold_queue_behind(earlier);
  std::atomic<bool> returned{false};
  std::thread copier([&] {
    native::copy_host_to_device(pinned, device, /*non_blocking=*/true);
    returned = true;
  });
  // A blocking copy waits for `earlier`, which completes itself after kDeadlineSeconds.
  for (int i = 0; i < 200 && !returned; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const bool returned_while_queued = returned;
  if (returned_while_queued) CHECK(execution_status(cl::block_of(device).last_use) != CL_COMPLETE);
  earlier.complete();
  copier.join();
  CHECK(returned_while_queued);
  torch::opencl::synchronize();
  CHECK_THAT(to_host(device), Equals(values));
}
