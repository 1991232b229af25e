// Module 21, learner file: the worker pool behind DataLoaderOptions().workers(n). The loader hands the
// pipeline jobs (one per batch, the sampler's order) and takes batches back; see
// tinytorch/data/detail/batch_pipeline.h for the picture and for what each member holds.
#include "tinytorch/data/detail/batch_pipeline.h"

#include <algorithm>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace data {

WorkerException::WorkerException(std::exception_ptr original)
    : original_exception(std::move(original)), message("Caught exception in DataLoader worker thread.") {
  try {
    std::rethrow_exception(original_exception);
  } catch (const std::exception& error) {
    message += " Original message: ";
    message += error.what();
  } catch (...) {  // LibTorch's message stops here too when the worker threw something else
  }
}

namespace detail {

extern "C" void tinytorch_parallel_data_registration() {}

uint64_t BatchPipeline::job_seed(uint64_t epoch_seed, size_t sequence_number) {
  // splitmix64's finaliser: neighbouring sequence numbers get unrelated seeds.
  uint64_t z = epoch_seed + 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(sequence_number) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// TODO: the constructor -- check the arguments, then start `workers` threads, thread w running
// worker_loop(w). The threads wait for jobs; they run until join().
//   Example: BatchPipeline(2, 4, true) starts 2 threads; workers() == 2 and nothing is loaded yet.
BatchPipeline::BatchPipeline(size_t workers, size_t max_jobs, bool enforce_ordering)
    : max_jobs_(max_jobs), enforce_ordering_(enforce_ordering) {
  TT_CHECK(workers > 0, "BatchPipeline: needs at least 1 worker thread, got 0 (a DataLoader with workers(0) "
                        "loads on the calling thread and has no pipeline)");
  TT_CHECK(max_jobs > 0, "DataLoaderOptions: max_jobs must be at least 1, got 0 (the default is 2 * workers)");
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::BatchPipeline" lesson="3. A pool of worker threads"
  threads_.reserve(workers);
  for (size_t w = 0; w < workers; ++w) threads_.emplace_back([this, w] { worker_loop(w); });
  // END SOLUTION
}

// TODO: worker_loop -- first make this thread a background worker (tinytorch::detail::
// become_background_worker(): its ops stay on it, and it yields the cores to the training loop). Then,
// until join() says quit: wait (without spinning) for a job, take the oldest,
// then run it OUTSIDE the lock with this thread's generator seeded job.seed
// (tinytorch::detail::seed_this_thread), catching whatever it throws. Store the batch or the exception
// under the job's sequence number, unless the caller started another epoch meanwhile (then drop it),
// and wake the caller.
//   Example: jobs 0 and 1 queued, 2 workers: both run at once; results_ then holds {0: ..., 1: ...}.
void BatchPipeline::worker_loop(size_t worker) {
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::worker_loop" lesson="3. A pool of worker threads"
  tinytorch::detail::become_background_worker();
  while (true) {
    QueuedJob job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      job_ready_.wait(lock, [this] { return quit_ || !jobs_.empty(); });
      if (quit_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    Result result;
    try {
      tinytorch::detail::seed_this_thread(job.seed);
      result.batch = job.work(worker);
    } catch (...) {
      result.exception = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (job.epoch != epoch_) continue;  // the caller moved on to a new epoch meanwhile
      results_.emplace(job.sequence_number, std::move(result));
    }
    result_ready_.notify_all();
  }
  // END SOLUTION
}

// TODO: start_epoch -- adopt `source`, forget the earlier epoch (bump epoch_ and clear jobs_ and
// results_ under the lock; reset the counters), make this epoch's seed from the shared generator's
// state (tinytorch::detail::peek_seed(), so torch::manual_seed fixes it) and the epoch's number (so
// every epoch gets new augmentations), and request max_jobs jobs.
//   Example: max_jobs 4 and an epoch of 10 batches: afterwards jobs_in_flight() == 4.
void BatchPipeline::start_epoch(JobSource source) {
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::start_epoch" lesson="4. Order, backpressure and epochs"
  source_ = std::move(source);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++epoch_;
    jobs_.clear();
    results_.clear();
  }
  jobs_pushed_ = 0;
  jobs_yielded_ = 0;
  peak_jobs_in_flight_ = 0;
  epoch_seed_ = job_seed(tinytorch::detail::peek_seed(), epoch_);
  prefetch(max_jobs_);
  // END SOLUTION
}

// TODO: prefetch -- ask the source for up to `count` jobs, stopping early when it has none left or when
// max_jobs are already in flight; queue each with the epoch, its sequence number (jobs_pushed_) and its
// seed (job_seed), wake one worker per job, and keep peak_jobs_in_flight_ up to date.
//   Example: 3 in flight, max_jobs 4, prefetch(2) queues only one.
void BatchPipeline::prefetch(size_t count) {
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::prefetch" lesson="4. Order, backpressure and epochs"
  for (size_t r = 0; r < count && jobs_in_flight() < max_jobs_; ++r) {
    std::optional<Job> work = source_ ? source_() : std::nullopt;
    if (!work) break;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(QueuedJob{epoch_, jobs_pushed_, job_seed(epoch_seed_, jobs_pushed_), std::move(*work)});
    }
    ++jobs_pushed_;
    peak_jobs_in_flight_ = std::max(peak_jobs_in_flight_, jobs_in_flight());
    job_ready_.notify_one();
  }
  // END SOLUTION
}

// TODO: next -- nullopt once every requested job was handed out. Otherwise wait (without spinning)
// until the batch to hand out is there: with enforce_ordering the one whose sequence number is
// jobs_yielded_, without it any finished one. Take it out, count it, request one more job (so that
// max_jobs stay in flight), and rethrow a job's exception as WorkerException.
//   Example: batches 1 and 2 finished before batch 0: with enforce_ordering, next() waits for 0.
std::optional<BatchPipeline::Batch> BatchPipeline::next() {
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::next" lesson="4. Order, backpressure and epochs"
  if (jobs_yielded_ == jobs_pushed_) return std::nullopt;
  Result result;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    result_ready_.wait(lock, [this] {
      if (results_.empty()) return false;
      return !enforce_ordering_ || results_.begin()->first == jobs_yielded_;
    });
    auto first = results_.begin();
    result = std::move(first->second);
    results_.erase(first);
  }
  ++jobs_yielded_;
  prefetch(1);
  if (result.exception) throw WorkerException(result.exception);
  return std::move(result.batch);
  // END SOLUTION
}

// TODO: join -- only once: under the lock set quit_ and drop the queued jobs; wake EVERY worker (each
// may be waiting for a job), then join each thread.
//   Example: a loop that breaks after 1 of 10 batches, then destroys the loader: returns at once.
void BatchPipeline::join() {
  // BEGIN SOLUTION name="tinytorch::data::detail::BatchPipeline::join" lesson="5. Shutting down"
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (joined_) return;
    joined_ = true;
    quit_ = true;
    jobs_.clear();
  }
  job_ready_.notify_all();
  for (auto& thread : threads_) thread.join();
  // END SOLUTION
}

}  // namespace detail
}  // namespace data
}  // namespace tinytorch
