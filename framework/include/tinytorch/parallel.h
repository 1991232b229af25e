#pragma once
// Intra-op threads, as in LibTorch's ATen/Parallel.h: torch::set_num_threads(n), get_num_threads(),
// and parallel_for(begin, end, grain_size, f) which splits [begin, end) into chunks and runs
// f(chunk_begin, chunk_end) on a small persistent thread pool.
//
// When threads pay off: waking a second thread costs microseconds, so a kernel asks for threads only
// above a measured work threshold (grain_size), and small work runs inline on the caller's thread.
// Nested use never oversubscribes: inside a parallel region (or while another thread of the program
// holds the pool) parallel_for runs its whole range inline.
//
// Chunks are claimed as threads come free, a few per thread (kParallelTasksPerThread): on a shared
// or virtual machine one core often runs slower than the other for a while, and with one chunk per
// thread the fast thread would wait for the slow one at the end of every region.
//
// The thread count starts at $OMP_NUM_THREADS when it is a positive integer (LibTorch's OpenMP build
// honours it too), otherwise at std::thread::hardware_concurrency().
#include <algorithm>
#include <cstdint>

namespace tinytorch {

// Threads a parallel region may use (the caller's thread included; 1 on a background worker, below).
// LibTorch: "Expected positive number of threads" for n < 1.
void set_num_threads(int num_threads);
int get_num_threads();
// 0 on the caller's thread and outside parallel regions, 1..n-1 on the pool's workers.
int get_thread_num();
bool in_parallel_region();

inline int64_t divup(int64_t x, int64_t y) { return (x + y - 1) / y; }

// Chunks a parallel region makes per thread, at most (fewer when the grain size says so).
constexpr int64_t kParallelTasksPerThread = 4;

namespace detail {
// Makes the calling thread a background worker, as a DataLoader's workers are (module 21): from now on
// its ops run on it alone (get_num_threads() is 1 on it, as torch.get_num_threads() is in PyTorch's
// worker processes; the pool stays the training loop's), and it runs at a lower scheduling priority
// than the thread that started it (nice + kBackgroundNiceIncrement on Linux). Why the priority: with
// 2 workers and a training loop on 2 cores, three threads want two cores; at equal priority the
// scheduler shares them out and the loop, which every step waits for, loses a third of its core
// while the workers are ahead (lesson 21, section 8). For the rest of the thread's life.
// Why 10: with a step that costs about as much as its batch's loading (milestone 08's case, lesson 21's
// MLP 784-512-10 on 2 cores), the slowest of 5 runs took 1.26-1.33x the step in memory at +5, 1.09-1.13x
// at +10 and 1.05-1.09x at +19; at +10 a worker still gets about a tenth of a core against another
// program at the default priority (scheduler weights 110 and 1024), where +19 would get it a 68th.
constexpr int kBackgroundNiceIncrement = 10;
void become_background_worker();

// Runs task(context, i) for i in [0, num_tasks) on the pool and the calling thread; returns when all
// are done and rethrows the first exception a task threw.
void run_parallel_tasks(int64_t num_tasks, void (*task)(void* context, int64_t index), void* context);
}  // namespace detail

// The number of chunks parallel_for makes of a range of `range` items (range > 0) with this grain
// size: 1 when it would run the range inline on the caller's thread (one thread, inside a parallel
// region, or too little work). For a kernel that keeps one scratch or partial result per chunk.
inline int64_t parallel_task_count(int64_t range, int64_t grain_size) {
  if (get_num_threads() <= 1 || in_parallel_region()) return 1;
  const int64_t max_tasks = grain_size > 0 ? divup(range, grain_size) : range;
  return std::max<int64_t>(1, std::min<int64_t>(get_num_threads() * kParallelTasksPerThread, max_tasks));
}

// f(chunk_begin, chunk_end) over [begin, end) in chunks of at least grain_size elements.
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
  const int64_t range = end - begin;
  const int64_t num_tasks = parallel_task_count(range, grain_size);
  if (num_tasks <= 1) {
    f(begin, end);
    return;
  }
  const int64_t chunk = divup(range, num_tasks);
  struct Job {
    const F* f;
    int64_t begin, end, chunk;
  } job{&f, begin, end, chunk};
  detail::run_parallel_tasks(
      num_tasks,
      [](void* context, int64_t index) {
        const Job& j = *static_cast<const Job*>(context);
        const int64_t chunk_begin = j.begin + index * j.chunk;
        const int64_t chunk_end = std::min(j.end, chunk_begin + j.chunk);
        if (chunk_begin < chunk_end) (*j.f)(chunk_begin, chunk_end);
      },
      &job);
}

}  // namespace tinytorch
