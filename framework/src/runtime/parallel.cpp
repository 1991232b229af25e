// The intra-op thread pool behind parallel_for (tinytorch/parallel.h).
// One pool of get_num_threads() - 1 workers, created on first use and rebuilt when the count
// changes. A parallel region publishes a job (task function + count), wakes the workers, and the
// caller works on the same job; tasks are claimed with one atomic counter, so fast threads take
// more. Only one region runs at a time: a second program thread that arrives meanwhile runs its
// range inline instead of queueing behind (never more busy threads than get_num_threads()).
#include <pthread.h>

#include <atomic>
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

thread_local bool t_in_parallel_region = false;
thread_local int t_thread_num = 0;

int default_num_threads() {
  if (const char* env = std::getenv("OMP_NUM_THREADS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n < 4096) return static_cast<int>(n);
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
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
      unfinished_ = num_tasks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    const int64_t finished = work_on_current_job();
    std::unique_lock<std::mutex> lock(mutex_);
    unfinished_ -= finished;
    done_.wait(lock, [this] { return unfinished_ == 0 && active_workers_ == 0; });
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
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen_generation; });
        if (stopping_) return;
        seen_generation = generation_;
        ++active_workers_;
      }
      const int64_t finished = work_on_current_job();
      std::lock_guard<std::mutex> lock(mutex_);
      unfinished_ -= finished;
      --active_workers_;
      if (unfinished_ == 0 && active_workers_ == 0) done_.notify_all();
    }
  }

  // Claims and runs tasks of the current job until none is left; returns how many it ran.
  int64_t work_on_current_job() {
    int64_t finished = 0;
    for (int64_t index = next_task_.fetch_add(1); index < num_tasks_; index = next_task_.fetch_add(1)) {
      try {
        task_(context_, index);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      ++finished;
    }
    return finished;
  }

  std::vector<std::thread> workers_;
  std::mutex region_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  uint64_t generation_ = 0;
  void (*task_)(void*, int64_t) = nullptr;
  void* context_ = nullptr;
  int64_t num_tasks_ = 0;  // written only while no worker is active
  std::atomic<int64_t> next_task_{0};
  int64_t unfinished_ = 0;
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

int get_num_threads() { return num_threads_setting().load(std::memory_order_relaxed); }
int get_thread_num() { return t_thread_num; }
bool in_parallel_region() { return t_in_parallel_region; }

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
