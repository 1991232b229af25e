#pragma once
// The DataLoader: asks a sampler for the indices of each batch, fetches the batch from the dataset
// and hands it to a range-for (LibTorch's torch::data::make_data_loader / StatelessDataLoader):
//
//   auto loader = torch::data::make_data_loader(dataset.map(Stack<>()), 32);      // RandomSampler
//   auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
//       dataset.map(Stack<>()), DataLoaderOptions(32).drop_last(true).workers(2));
//   for (auto& batch : *loader) { ... batch.data ... batch.target ... }
//
// Every `for` over the loader is one epoch: begin() resets the sampler (a RandomSampler draws a new
// order). With workers(n) > 0, n threads, each with its own copy of the dataset, load up to
// max_jobs (2n) batches ahead while the caller works on the current one; the batches come back in
// the sampler's order (enforce_ordering), so an epoch yields exactly what it yields with 0 workers.
//
// Deviations from LibTorch: no timeout option; an exception thrown while a worker loads a batch is
// rethrown as is by the loop (LibTorch wraps it in a WorkerException).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/data/dataloader_options.h"
#include "tinytorch/data/samplers/random.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace data {

template <typename Dataset, typename Sampler>
class StatelessDataLoader {
 public:
  using BatchType = typename Dataset::BatchType;
  using BatchRequestType = typename Sampler::BatchRequestType;

  // An input iterator over one epoch; it holds the current batch.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = BatchType;
    using difference_type = std::ptrdiff_t;
    using pointer = BatchType*;
    using reference = BatchType&;

    Iterator() = default;  // the end sentinel
    explicit Iterator(StatelessDataLoader* loader) : loader_(loader), batch_(loader->next()) {}

    BatchType& operator*() {
      TT_CHECK(batch_.has_value(), "Attempted to dereference the end of a DataLoader iterator");
      return *batch_;
    }
    BatchType* operator->() { return &**this; }
    Iterator& operator++() {
      TT_CHECK(batch_.has_value(), "Attempted to increment the end of a DataLoader iterator");
      batch_ = loader_->next();
      return *this;
    }
    // Only "is this the end?" is meaningful, as for LibTorch's loader iterators.
    bool operator==(const Iterator& other) const { return !batch_.has_value() && !other.batch_.has_value(); }
    bool operator!=(const Iterator& other) const { return !(*this == other); }

   private:
    StatelessDataLoader* loader_ = nullptr;
    std::optional<BatchType> batch_;
  };

  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options)
      : options_(options), sampler_(std::move(sampler)) {
    TT_CHECK(options_.batch_size > 0, "DataLoaderOptions: batch_size must be at least 1, but got 0");
    for (size_t w = 0; w < options_.workers; ++w) {
      workers_.emplace_back([this, dataset]() mutable { this->worker_thread(dataset); });
    }
    if (options_.workers == 0) main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
  }

  StatelessDataLoader(const StatelessDataLoader&) = delete;
  StatelessDataLoader& operator=(const StatelessDataLoader&) = delete;
  ~StatelessDataLoader() { join(); }

  // Starts an epoch.
  Iterator begin() {
    TT_CHECK(in_flight_jobs() == 0,
             "Attempted to get a new DataLoader iterator while another iterator is not yet exhausted");
    reset();
    return Iterator(this);
  }
  Iterator end() { return Iterator(); }

  // Stops the worker threads (the destructor does it too).
  void join() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (joined_) return;
      joined_ = true;
      quit_ = true;
      jobs_.clear();
    }
    job_ready_.notify_all();
    for (auto& worker : workers_) worker.join();
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }

 private:
  struct Job {
    size_t epoch;
    size_t sequence_number;
    BatchRequestType request;
  };
  struct Result {
    std::optional<BatchType> batch;
    std::exception_ptr exception;
  };

  size_t in_flight_jobs() const { return options_.workers > 0 ? jobs_pushed_ - jobs_yielded_ : 0; }

  // The next batch's indices, or nullopt at the end of the epoch (drop_last ends it before a short batch).
  std::optional<BatchRequestType> get_batch_request() {
    auto indices = sampler_.next(options_.batch_size);
    if (!indices || (indices->size() < options_.batch_size && options_.drop_last)) return std::nullopt;
    TT_CHECK(!indices->empty(), "DataLoader: the sampler returned an empty batch of indices");
    return indices;
  }

  void reset() {
    sampler_.reset();
    {
      // Jobs and results of an earlier epoch, if any, are forgotten; a worker still busy with one
      // drops its result because its epoch number is stale.
      std::lock_guard<std::mutex> lock(mutex_);
      ++epoch_;
      jobs_.clear();
      results_.clear();
    }
    jobs_pushed_ = 0;
    jobs_yielded_ = 0;
    prefetch(options_.max_jobs);
  }

  void prefetch(size_t requested_jobs) {
    for (size_t r = 0; r < requested_jobs; ++r) {
      auto request = get_batch_request();
      if (!request) break;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(Job{epoch_, jobs_pushed_++, std::move(*request)});
      }
      job_ready_.notify_one();
    }
  }

  std::optional<BatchType> next() {
    if (options_.workers == 0) {
      auto request = get_batch_request();
      if (!request) return std::nullopt;
      return main_thread_dataset_->get_batch(std::move(*request));
    }
    if (jobs_yielded_ == jobs_pushed_) return std::nullopt;  // every requested batch was handed out
    Result result;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      auto ready = [this] {
        if (results_.empty()) return false;
        return !options_.enforce_ordering || results_.begin()->first == jobs_yielded_;
      };
      result_ready_.wait(lock, ready);
      auto first = results_.begin();
      result = std::move(first->second);
      results_.erase(first);
    }
    ++jobs_yielded_;
    if (result.exception) std::rethrow_exception(result.exception);
    prefetch(1);
    return std::move(result.batch);
  }

  void worker_thread(Dataset& dataset) {
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        job_ready_.wait(lock, [this] { return quit_ || !jobs_.empty(); });
        if (quit_) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      Result result;
      try {
        result.batch = dataset.get_batch(std::move(job.request));
      } catch (...) {
        result.exception = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (job.epoch != epoch_) continue;  // the loop moved on to a new epoch meanwhile
        results_.emplace(job.sequence_number, std::move(result));
      }
      result_ready_.notify_one();
    }
  }

  const FullDataLoaderOptions options_;
  Sampler sampler_;
  std::unique_ptr<Dataset> main_thread_dataset_;
  std::vector<std::thread> workers_;

  std::mutex mutex_;  // guards everything below except the two counters, which only the caller's thread uses
  std::condition_variable job_ready_;
  std::condition_variable result_ready_;
  std::deque<Job> jobs_;
  std::map<size_t, Result> results_;  // by sequence number: the smallest comes first
  size_t epoch_ = 0;
  bool quit_ = false;
  bool joined_ = false;
  size_t jobs_pushed_ = 0;   // sequence number of the next job of this epoch
  size_t jobs_yielded_ = 0;  // batches handed to the caller this epoch
};

// A loader over `dataset` with an explicit sampler.
template <typename Dataset, typename Sampler>
std::enable_if_t<!Dataset::is_stateful, std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>> make_data_loader(
    Dataset dataset, Sampler sampler, DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(std::move(dataset), std::move(sampler),
                                                                 std::move(options));
}

// A loader whose sampler is built from the dataset's size: make_data_loader(dataset, 32) shuffles
// (RandomSampler); make_data_loader<SequentialSampler>(dataset, options) does not.
template <typename Sampler = samplers::RandomSampler, typename Dataset>
std::enable_if_t<!Dataset::is_stateful && std::is_constructible<Sampler, size_t>::value,
                 std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  const std::optional<size_t> size = dataset.size();
  TT_CHECK(size.has_value(), "Expected the dataset to be sized in order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), std::move(options));
}

}  // namespace data
}  // namespace tinytorch
