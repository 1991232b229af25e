// The intra-op thread pool behind parallel_for (tinytorch/parallel.h).
// One pool of get_num_threads() - 1 workers, created on first use and rebuilt when the count
// changes. A parallel region publishes a job (task function + count), wakes the workers, and the
// caller works on the same job; tasks are claimed with one atomic counter, so fast threads take
// more. Only one region runs at a time: a second program thread that arrives meanwhile runs its
// range inline instead of queueing behind (never more busy threads than get_num_threads()).
//
// Waking a sleeping thread is a system call on each side (tens of microseconds on a VM), and a
// training step runs regions back to back with short serial stretches between them. So a worker
// that finishes a job, and a caller that waits for its workers, first spin for kSpinBeforeSleep
// on an atomic, and only then sleep on a condition variable, as OpenMP's runtime (GOMP_SPINCOUNT)
// which LibTorch uses does.
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace {

// Long enough to bridge the serial stretches between a training step's regions, short enough that
// an idle program soon stops burning a core.
constexpr std::chrono::microseconds kSpinBeforeSleep{1000};

// Spins until done() or kSpinBeforeSleep has passed; true when done() held.
template <class Done>
bool spin_until(const Done& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleep;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return false;
  }
}

thread_local bool t_in_parallel_region = false;
thread_local int t_thread_num = 0;
thread_local bool t_background_worker = false;  // detail::become_background_worker() was called here

int default_num_threads() {
  if (const char* env = std::getenv("OMP_NUM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n < 4096) return static_cast<int>(n);
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
}

// ThreadSanitizer's annotations, present only in a program linked with it (tito's race check builds
// learner code with -fsanitize=thread against this uninstrumented library). A job's tasks are handed
// back through the atomic counter `unfinished_`, whose ordering TSan cannot see in code it did not
// instrument; without these edges every buffer a worker wrote and the caller reuses would be a race.
extern "C" void __tsan_acquire(void* address) __attribute__((weak));
extern "C" void __tsan_release(void* address) __attribute__((weak));
void tsan_release(void* address) {
  if (__tsan_release != nullptr) __tsan_release(address);
}
void tsan_acquire(void* address) {
  if (__tsan_acquire != nullptr) __tsan_acquire(address);
}

std::atomic<int>& num_threads_setting() {
  static std::atomic<int> setting{default_num_threads()};
  return setting;
}

class ThreadPool {
 public:
  // Throws std::system_error when the system refuses a thread (a sandbox's process or memory
  // limit); the workers already started are stopped first.
  explicit ThreadPool(int num_workers) {
    try {
      for (int i = 0; i < num_workers; ++i) workers_.emplace_back([this, i] { worker_loop(i + 1); });
    } catch (...) {
      stop_workers();
      throw;
    }
  }
  ~ThreadPool() { stop_workers(); }
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_workers() const { return static_cast<int>(workers_.size()); }

  // Called with region_mutex_ held by the caller (one region at a time).
  void run(int64_t num_tasks, void (*task)(void*, int64_t), void* context) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // A worker that woke late for the previous job may still be leaving it: let it go first, so
      // that no thread ever claims a task index of one job against the counters of another.
      done_.wait(lock, [this] { return active_workers_ == 0; });
      task_ = task;
      context_ = context;
      num_tasks_ = num_tasks;
      next_task_.store(0);
      unfinished_.store(num_tasks);
      error_ = nullptr;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    work_on_current_job();
    const auto all_done = [this] { return unfinished_.load(std::memory_order_acquire) == 0; };
    if (!spin_until(all_done)) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, all_done);
    }
    tsan_acquire(&unfinished_);
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_) std::rethrow_exception(error_);
  }

  std::mutex& region_mutex() { return region_mutex_; }

 private:
  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  void worker_loop(int thread_num) {
    t_in_parallel_region = true;
    t_thread_num = thread_num;
    uint64_t seen_generation = 0;
    for (;;) {
      spin_until([&] { return generation_.load(std::memory_order_acquire) != seen_generation; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen_generation; });
        if (stopping_) return;
        seen_generation = generation_.load();
        ++active_workers_;
      }
      work_on_current_job();
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_workers_ == 0) done_.notify_all();
    }
  }

  // Claims and runs tasks of the current job until none is left. A caller that stopped spinning is
  // woken by the last worker to leave the job (worker_loop), after every task it ran is counted.
  void work_on_current_job() {
    for (int64_t index = next_task_.fetch_add(1); index < num_tasks_; index = next_task_.fetch_add(1)) {
      try {
        task_(context_, index);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      tsan_release(&unfinished_);
      unfinished_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  std::vector<std::thread> workers_;
  std::mutex region_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  std::atomic<uint64_t> generation_{0};  // written under mutex_, read by spinning workers without it
  void (*task_)(void*, int64_t) = nullptr;
  void* context_ = nullptr;
  int64_t num_tasks_ = 0;  // written only while no worker is active
  std::atomic<int64_t> next_task_{0};
  std::atomic<int64_t> unfinished_{0};  // tasks of the current job not yet done
  int active_workers_ = 0;
  std::exception_ptr error_;
};

// The current pool. Never destroyed (joining workers during static destruction would race with
// other statics that still use threads); a caller keeps its pool alive with its own reference, so
// set_num_threads on one thread cannot pull the pool from under a region running on another.
std::mutex g_pool_mutex;
std::shared_ptr<ThreadPool>& current_pool() {
  static auto* pool = new std::shared_ptr<ThreadPool>();
  return *pool;
}

// fork() copies only the forking thread: the child must not wait for the parent's workers. Hold the
// pool lock across fork, and in the child forget the parent's pool (leaking it: its threads do not
// exist there) so that the first parallel region builds a fresh one.
void lock_pool_before_fork() { g_pool_mutex.lock(); }
void unlock_pool_in_parent() { g_pool_mutex.unlock(); }
void forget_pool_in_child() {
  new (&current_pool()) std::shared_ptr<ThreadPool>();
  g_pool_mutex.unlock();
}

std::shared_ptr<ThreadPool> pool_with_workers(int num_workers) {
  static const bool registered = [] {
    return pthread_atfork(lock_pool_before_fork, unlock_pool_in_parent, forget_pool_in_child) == 0;
  }();
  (void)registered;
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  std::shared_ptr<ThreadPool>& pool = current_pool();
  if (pool == nullptr || pool->num_workers() != num_workers) {
    pool.reset();
    try {
      pool = std::make_shared<ThreadPool>(num_workers);
    } catch (const std::system_error&) {
      return nullptr;  // no threads to be had: the caller runs the region on its own thread
    }
  }
  return pool;
}

}  // namespace

void set_num_threads(int num_threads) {
  TT_CHECK(num_threads > 0, "Expected positive number of threads");
  num_threads_setting().store(num_threads);
}

int get_num_threads() { return t_background_worker ? 1 : num_threads_setting().load(std::memory_order_relaxed); }
int get_thread_num() { return t_thread_num; }
bool in_parallel_region() { return t_in_parallel_region; }

void detail::become_background_worker() {
  t_background_worker = true;
#ifdef __linux__
  // Linux keeps a nice value per thread: setpriority on a thread's id changes that thread alone, and
  // raising it needs no privilege. Where it is refused (a sandbox), the thread keeps its priority.
  const auto self = static_cast<id_t>(gettid());
  errno = 0;
  const int nice_now = getpriority(PRIO_PROCESS, self);
  if (errno == 0) setpriority(PRIO_PROCESS, self, std::min(19, nice_now + kBackgroundNiceIncrement));
#endif
}

void detail::run_parallel_tasks(int64_t num_tasks, void (*task)(void*, int64_t), void* context) {
  auto run_inline = [&] {
    for (int64_t i = 0; i < num_tasks; ++i) task(context, i);
  };
  const int num_workers = get_num_threads() - 1;
  if (num_tasks <= 1 || num_workers <= 0 || t_in_parallel_region) return run_inline();
  const std::shared_ptr<ThreadPool> pool = pool_with_workers(num_workers);
  if (pool == nullptr) return run_inline();
  std::unique_lock<std::mutex> region(pool->region_mutex(), std::try_to_lock);
  if (!region.owns_lock()) return run_inline();  // another program thread is using the pool
  t_in_parallel_region = true;
  try {
    pool->run(num_tasks, task, context);
  } catch (...) {
    t_in_parallel_region = false;
    throw;
  }
  t_in_parallel_region = false;
}

}  // namespace tinytorch
