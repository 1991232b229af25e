// The runtime under every kernel: intra-op threads (tinytorch/parallel.h) and the caching allocator
// (tinytorch/allocator.h).
#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_helpers.h"

namespace {
// Restores the thread count a test changed.
struct ThreadCountGuard {
  int saved = torch::get_num_threads();
  ~ThreadCountGuard() { torch::set_num_threads(saved); }
};
}  // namespace

TEST_CASE("set_num_threads / get_num_threads, with LibTorch's error for a non-positive count", "[parallel][threads]") {
  ThreadCountGuard guard;
  REQUIRE(torch::get_num_threads() >= 1);
  torch::set_num_threads(3);
  REQUIRE(torch::get_num_threads() == 3);
  REQUIRE(at::get_num_threads() == 3);  // at:: and torch:: are the same functions
  REQUIRE_THROWS_WITH(torch::set_num_threads(0), "Expected positive number of threads");
  REQUIRE(torch::get_num_threads() == 3);
  REQUIRE_FALSE(torch::in_parallel_region());
  REQUIRE(torch::get_thread_num() == 0);
}

TEST_CASE("parallel_for covers the range exactly once, in chunks of at least grain_size", "[parallel][threads]") {
  ThreadCountGuard guard;
  for (int threads : {1, 2, 4}) {
    torch::set_num_threads(threads);
    for (int64_t range : {0, 1, 7, 1000}) {
      for (int64_t grain : {1, 100, 5000}) {
        std::vector<std::atomic<int>> visits(static_cast<size_t>(range));
        std::atomic<int> chunks{0};
        torch::parallel_for(10, 10 + range, grain, [&](int64_t begin, int64_t end) {
          ++chunks;
          for (int64_t i = begin; i < end; ++i) ++visits[static_cast<size_t>(i - 10)];
        });
        INFO("threads=" << threads << " range=" << range << " grain=" << grain);
        for (auto& count : visits) REQUIRE(count.load() == 1);
        REQUIRE(chunks.load() <= threads * torch::kParallelTasksPerThread);
        if (range > 0 && range < grain) REQUIRE(chunks.load() == 1);  // small work stays on one thread
      }
    }
  }
}

TEST_CASE("parallel_for runs on several threads, never nests, and rethrows a task's exception", "[parallel][threads]") {
  ThreadCountGuard guard;
  torch::set_num_threads(2);
  std::atomic<int> inside{0}, nested_chunks{0}, bad_thread_num{0};
  torch::parallel_for(0, 2, 1, [&](int64_t, int64_t) {
    if (torch::in_parallel_region()) ++inside;
    if (torch::get_thread_num() < 0 || torch::get_thread_num() >= 2) ++bad_thread_num;
    // Nested: must run inline as one chunk instead of waking more threads.
    torch::parallel_for(0, 100, 1, [&](int64_t, int64_t) { ++nested_chunks; });
  });
  REQUIRE(inside.load() == 2);
  REQUIRE(nested_chunks.load() == 2);
  REQUIRE(bad_thread_num.load() == 0);
  REQUIRE_FALSE(torch::in_parallel_region());

  REQUIRE_THROWS_WITH(torch::parallel_for(0, 2, 1,
                                          [](int64_t begin, int64_t) {
                                            if (begin == 1) throw std::runtime_error("task 1 failed");
                                          }),
                      "task 1 failed");
  // The pool still works after a failed region.
  std::atomic<int> total{0};
  torch::parallel_for(0, 10, 1, [&](int64_t begin, int64_t end) { total += static_cast<int>(end - begin); });
  REQUIRE(total.load() == 10);
}

TEST_CASE("parallel_for: a thread that runs slow does not hold up the others", "[parallel][threads]") {
  // A region makes a few chunks per thread, claimed as threads come free: while the worker sleeps
  // in its first chunk (a core taken by another program), the caller's thread runs all the rest.
  ThreadCountGuard guard;
  torch::set_num_threads(2);
  const int64_t items = 2 * torch::kParallelTasksPerThread;
  std::atomic<int64_t> items_on_caller{0}, items_on_worker{0};
  torch::parallel_for(0, items, 1, [&](int64_t begin, int64_t end) {
    if (torch::get_thread_num() == 0) {
      items_on_caller += end - begin;
    } else {
      items_on_worker += end - begin;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  });
  REQUIRE(items_on_caller + items_on_worker == items);
  REQUIRE(items_on_worker.load() <= 1);
}

TEST_CASE("parallel_for from two program threads at once: each range done once, no deadlock", "[parallel][threads]") {
  ThreadCountGuard guard;
  torch::set_num_threads(2);
  std::atomic<int64_t> sum_a{0}, sum_b{0};
  auto work = [](std::atomic<int64_t>& sum) {
    for (int repeat = 0; repeat < 200; ++repeat) {
      torch::parallel_for(0, 64, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) sum += i;
      });
    }
  };
  std::thread other([&] { work(sum_b); });
  work(sum_a);
  other.join();
  REQUIRE(sum_a.load() == 200 * (63 * 64 / 2));
  REQUIRE(sum_b.load() == 200 * (63 * 64 / 2));
}

TEST_CASE("become_background_worker: one intra-op thread and a lower priority, on the calling thread alone", "[parallel][threads]") {
  ThreadCountGuard guard;
  torch::set_num_threads(3);
  auto nice_of = [](pid_t tid) {
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    return errno == 0 ? nice : -100;
  };
  const int main_nice = nice_of(gettid());
  REQUIRE(main_nice > -100);
  int worker_threads = 0, worker_nice = -100;
  std::vector<int> chunk_threads;
  std::thread worker([&] {
    torch::detail::become_background_worker();
    worker_threads = torch::get_num_threads();
    worker_nice = nice_of(gettid());
    torch::parallel_for(0, 1 << 20, 1, [&](int64_t, int64_t) { chunk_threads.push_back(torch::get_thread_num()); });
  });
  worker.join();
  REQUIRE(worker_threads == 1);
  REQUIRE(worker_nice == std::min(19, main_nice + torch::detail::kBackgroundNiceIncrement));
  REQUIRE(chunk_threads == std::vector<int>{0});  // the whole range inline, on the worker
  REQUIRE(torch::get_num_threads() == 3);
  REQUIRE(nice_of(gettid()) == main_nice);
}

TEST_CASE("size classes round up by at most 25%, to multiples of 64", "[allocator]") {
  using torch::memory::size_class;
  REQUIRE(size_class(0) == 64);
  REQUIRE(size_class(1) == 64);
  REQUIRE(size_class(64) == 64);
  REQUIRE(size_class(65) == 128);
  REQUIRE(size_class(256) == 256);
  REQUIRE(size_class(257) == 320);    // 256 + 64
  REQUIRE(size_class(4000) == 4096);  // 4000 bytes = 1000 floats
  REQUIRE(size_class(4097) == 5120);  // 4096 * 1.25
  REQUIRE(size_class(1 << 20) == (1 << 20));
  for (size_t bytes = 1; bytes < (size_t{1} << 24); bytes = bytes * 3 / 2 + 1) {
    const size_t block = size_class(bytes);
    REQUIRE(block >= bytes);
    REQUIRE(block % 64 == 0);
    if (bytes > 256) REQUIRE(block <= bytes + bytes / 4 + 64);
  }
}

TEST_CASE("a freed block is reused by the next tensor of its size class; stats count it", "[allocator]") {
  using namespace torch::memory;
  const AllocatorStats before = allocator_stats();
  reset_peak_stats();
  { auto t = torch::empty({1000});  /* 4000 bytes: the 4096 class */ }
  AllocatorStats after_first = allocator_stats();
  REQUIRE(after_first.allocations == 1);
  REQUIRE(after_first.peak_allocated_bytes >= before.allocated_bytes + 4096);
  REQUIRE(after_first.allocated_bytes == before.allocated_bytes);  // freed again

  void* first_address = nullptr;
  {
    auto t = torch::empty({1010});  // 4040 bytes: same class
    first_address = t.data_ptr();
    REQUIRE(allocator_stats().allocated_bytes == before.allocated_bytes + 4096);
  }
  const AllocatorStats after_second = allocator_stats();
  REQUIRE(after_second.allocations == 2);
  if (after_second.caching_enabled) {
    REQUIRE(after_second.cache_hits >= 1);
    REQUIRE(after_second.cached_bytes >= 4096);
    REQUIRE(after_second.hit_rate() > 0.0);
    auto again = torch::empty({1000});
    REQUIRE(again.data_ptr() == first_address);  // the most recently freed block of the class
  } else {
    // TINYTORCH_NO_CACHING_ALLOCATOR=1: every block goes back to the system.
    REQUIRE(after_second.cache_hits == 0);
    REQUIRE(after_second.cached_bytes == 0);
    REQUIRE(after_second.cache_limit_bytes == 0);
  }

  empty_cache();
  REQUIRE(allocator_stats().cached_bytes == 0);
  REQUIRE(allocator_stats().allocated_bytes == before.allocated_bytes);
}

TEST_CASE("allocator: threads allocating at once are all counted, and a block may die on another thread", "[allocator][threads]") {
  using namespace torch::memory;
  empty_cache();
  const AllocatorStats before = allocator_stats();
  reset_peak_stats();
  constexpr int kRounds = 2000;
  // Each thread allocates and frees small tensors (its own cache serves them) and hands a 1 MiB
  // tensor to the main thread, which frees it (a DataLoader's batch does that).
  std::vector<torch::Tensor> handed(2);
  auto work = [&](int index) {
    auto x = torch::rand({784});
    for (int i = 0; i < kRounds; ++i) x = x * 1.0001 + 0.0001;
    handed[index] = torch::empty({1 << 18});
  };
  work(0);  // on this thread alone first: how many allocations the work makes
  handed[0] = torch::Tensor();
  const int64_t allocations_alone = allocator_stats().allocations;
  reset_peak_stats();
  std::thread first(work, 0), second(work, 1);
  first.join();
  second.join();
  const AllocatorStats held = allocator_stats();  // the threads have ended: every count is in
  const int64_t mib = static_cast<int64_t>(size_class(size_t{1} << 20));
  REQUIRE(held.allocated_bytes == before.allocated_bytes + 2 * mib);
  REQUIRE(allocations_alone > 2 * kRounds);
  REQUIRE(held.allocations == 2 * allocations_alone);
  REQUIRE(held.cache_hits + held.cache_misses == held.allocations);
  if (held.caching_enabled) REQUIRE(held.hit_rate() > 0.99);
  REQUIRE(held.peak_allocated_bytes >= held.allocated_bytes);
  handed.clear();  // the blocks die on this thread
  const AllocatorStats after = allocator_stats();
  REQUIRE(after.allocated_bytes == before.allocated_bytes);
  if (after.caching_enabled) REQUIRE(after.cached_bytes >= 2 * mib);
  empty_cache();
  REQUIRE(allocator_stats().cached_bytes == 0);
}

TEST_CASE("allocator: the peak is exact with one thread allocating, also after set_num_threads(2)", "[allocator][threads]") {
  using namespace torch::memory;
  ThreadCountGuard guard;
  torch::set_num_threads(2);
  // A convolution large enough for the intra-op pool: its threads allocate scratch memory.
  auto image = torch::rand({32, 3, 32, 32}, torch::requires_grad());
  auto weight = torch::rand({32, 3, 3, 3}, torch::requires_grad());
  torch::conv2d(image, weight, {}, 1, 1).sum().backward();
  const AllocatorStats before = allocator_stats();
  reset_peak_stats();
  const int64_t block = static_cast<int64_t>(size_class(4000));
  {
    auto a = torch::empty({1000});
    auto b = torch::empty({1000});
  }
  auto c = torch::empty({1000});
  const AllocatorStats after = allocator_stats();
  REQUIRE(after.peak_allocated_bytes == before.allocated_bytes + 2 * block);
  REQUIRE(after.allocated_bytes == before.allocated_bytes + block);
  REQUIRE(after.allocations == 3);
}

TEST_CASE("allocator: empty_cache frees the blocks another live thread keeps", "[allocator][threads]") {
  using namespace torch::memory;
  std::mutex mutex;
  std::condition_variable changed;
  bool freed = false, may_end = false;
  std::thread other([&] {
    { auto t = torch::empty({1 << 16}); }  // now in this thread's own cache
    std::unique_lock<std::mutex> lock(mutex);
    freed = true;
    changed.notify_all();
    changed.wait(lock, [&] { return may_end; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return freed; });
  }
  if (allocator_stats().caching_enabled) REQUIRE(allocator_stats().cached_bytes >= (1 << 18));
  empty_cache();
  REQUIRE(allocator_stats().cached_bytes == 0);
  {
    std::lock_guard<std::mutex> lock(mutex);
    may_end = true;
  }
  changed.notify_all();
  other.join();
  REQUIRE(allocator_stats().cached_bytes == 0);
}

TEST_CASE("tensors from the cache behave like fresh ones: zeros are zeros, sizes are exact", "[allocator]") {
  {
    auto dirty = torch::full({64}, 3.5);
    (void)dirty;
  }
  const auto clean = torch::zeros({64});  // may reuse dirty's block: zeros() must still write zeros
  REQUIRE(clean.sum().item<double>() == 0.0);
  REQUIRE(clean.nbytes() == 256);
  REQUIRE(clean.memory_footprint() == 256);  // the storage reports what was asked, not the class size
}
