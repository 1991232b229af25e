#pragma once
// Module 21: the machinery behind DataLoaderOptions().workers(n). LibTorch splits it over templates in
// torch::data::detail (Queue, DataShuttle, the sequencers) and DataLoaderBase; here it is one class that
// knows nothing of the dataset's types, so that the learner writes it in a .cpp
// (framework/src/21_parallel_data/batch_pipeline.cpp) and the loader (dataloader.h) only wraps each
// batch's work in a Job.
//
//   caller thread                          worker threads (n)
//   start_epoch(source): prefetch max_jobs --> jobs_ --> worker_loop: seed, run the job
//   next(): wait for the next result <-------- results_ (by sequence number) <--'
//           hand it out, prefetch one more
//
// At most max_jobs batches are ever in flight (requested and not yet handed out): that bound is the
// backpressure that keeps a fast loader from filling memory ahead of a slow model.
//
// The members defined in the .cpp are declared weak: every module's build includes dataloader.h, but
// only builds with module 21 link its code (tito keeps it with a linker -u entry for
// tinytorch_parallel_data_registration, framework/CMakeLists.txt). The loader checks
// parallel_data_linked() before it makes a pipeline, so a module 05 build says what is missing.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tinytorch {
namespace data {

// An exception thrown while a worker loaded a batch, rethrown in the thread that iterates the loader
// (LibTorch's torch::data::WorkerException: same members, same message).
struct WorkerException : public std::exception {
  __attribute__((weak)) explicit WorkerException(std::exception_ptr original);
  const char* what() const noexcept override { return message.c_str(); }

  // The exception the worker caught.
  std::exception_ptr original_exception;
  // "Caught exception in DataLoader worker thread. Original message: <the worker's what()>"
  std::string message;
};

namespace detail {

// Defined in batch_pipeline.cpp: present exactly when module 21's code is linked.
extern "C" __attribute__((weak)) void tinytorch_parallel_data_registration();
inline bool parallel_data_linked() { return &tinytorch_parallel_data_registration != nullptr; }

class BatchPipeline {
 public:
  // A loaded batch. Its type is the loader's business (a template over the dataset); the pipeline
  // only moves it from a worker to the caller.
  using Batch = std::shared_ptr<void>;
  // One batch's work, run on a worker thread: load the batch with worker `worker`'s copy of the dataset.
  using Job = std::function<Batch(size_t worker)>;
  // The epoch's next job (the sampler's next indices, wrapped), or nullopt when the epoch has no more.
  // Only the caller's thread calls it.
  using JobSource = std::function<std::optional<Job>()>;

  // Starts `workers` threads (at least 1) that wait for jobs; at most max_jobs (at least 1) in flight.
  __attribute__((weak)) BatchPipeline(size_t workers, size_t max_jobs, bool enforce_ordering);
  ~BatchPipeline() { join(); }
  BatchPipeline(const BatchPipeline&) = delete;
  BatchPipeline& operator=(const BatchPipeline&) = delete;

  // Begins an epoch whose jobs come from `source`: forgets the jobs and results of an earlier epoch
  // (a worker still busy with one drops its result), makes the epoch's seed (from the shared
  // generator's state, which it does not advance, and the epoch's number) and requests the first
  // max_jobs jobs.
  __attribute__((weak)) void start_epoch(JobSource source);

  // The next batch of the epoch (in the source's order when enforce_ordering, else the first one
  // finished), after requesting one more job; nullopt when every batch of the epoch was handed out.
  // A job's exception is rethrown here as a WorkerException.
  __attribute__((weak)) std::optional<Batch> next();

  // Stops and joins the worker threads; jobs not started are dropped. Safe to call twice.
  __attribute__((weak)) void join();

  // Jobs requested from the source this epoch and not yet handed out by next().
  size_t jobs_in_flight() const { return jobs_pushed_ - jobs_yielded_; }
  // The largest jobs_in_flight() seen this epoch: never more than max_jobs.
  size_t peak_jobs_in_flight() const { return peak_jobs_in_flight_; }
  size_t workers() const { return threads_.size(); }
  size_t max_jobs() const { return max_jobs_; }

  // The seed a worker gives its own generator before job `sequence_number` of an epoch whose seed is
  // `epoch_seed`: a batch's random transforms depend on the seed and the batch, never on which
  // worker ran it or when. (Also mixes the shared generator's state with the epoch's number.)
  static uint64_t job_seed(uint64_t epoch_seed, size_t sequence_number);

 private:
  struct QueuedJob {
    size_t epoch = 0;
    size_t sequence_number = 0;
    uint64_t seed = 0;
    Job work;
  };
  struct Result {
    Batch batch;
    std::exception_ptr exception;
  };

  // Requests up to `count` more jobs from the source (fewer at the end of the epoch).
  void prefetch(size_t count);
  // What each worker thread runs until join().
  void worker_loop(size_t worker);

  const size_t max_jobs_;
  const bool enforce_ordering_;
  std::vector<std::thread> threads_;

  // Only the caller's thread touches these.
  JobSource source_;
  uint64_t epoch_seed_ = 0;
  size_t jobs_pushed_ = 0;   // the sequence number of the epoch's next job
  size_t jobs_yielded_ = 0;  // batches handed out this epoch
  size_t peak_jobs_in_flight_ = 0;

  // The mutex guards everything below; the workers and the caller share it.
  std::mutex mutex_;
  std::condition_variable job_ready_;     // a job was queued, or quit_
  std::condition_variable result_ready_;  // a result was stored
  std::deque<QueuedJob> jobs_;
  std::map<size_t, Result> results_;  // by sequence number: the smallest first
  size_t epoch_ = 0;
  bool quit_ = false;
  bool joined_ = false;
};

}  // namespace detail
}  // namespace data
}  // namespace tinytorch
