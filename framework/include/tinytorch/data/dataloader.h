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
// order). With workers(0) (module 05) each batch is loaded on the calling thread when the loop asks
// for it. With workers(n) > 0 (module 21) n threads, each with its own copy of the dataset, load up to
// max_jobs (default 2n) batches ahead while the caller works on the current one, through a
// detail::BatchPipeline (data/detail/batch_pipeline.h); with enforce_ordering (the default) the batches
// come back in the sampler's order, so an epoch yields exactly what it yields with 0 workers. Each
// worker draws random numbers from a generator of its own, seeded per batch from one seed per epoch
// (drawn under torch::manual_seed): random transforms give the same batches for any worker count >= 1.
// An exception thrown while a worker loads a batch is rethrown by the loop as a WorkerException
// carrying the worker's message, as in LibTorch.
//
// Deviations from LibTorch: no timeout option; pin_memory(true) (from PyTorch's Python loader) copies
// each batch of tensors into reused buffers of a PinnedMemoryPool.
#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/data/dataloader_options.h"
#include "tinytorch/data/detail/batch_pipeline.h"
#include "tinytorch/data/example.h"
#include "tinytorch/data/pinned_memory.h"
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
    TT_CHECK(!options_.pin_memory || kPinnable,
             "DataLoaderOptions: pin_memory(true) copies batches of tensors, but this dataset's batches are not "
             "tensors; map the dataset with torch::data::transforms::Stack<>() first");
    if (options_.pin_memory) {
      TT_CHECK(pinned_memory_linked(),
               "DataLoaderOptions: pin_memory(true) copies batches into module 21's PinnedMemoryPool (Parallel data "
               "loading), which this build does not include; drop pin_memory(true), or start module 21 "
               "(tito module start 21)");
      pinned_memory_ = std::make_unique<PinnedMemoryPool>();
    }
    if (options_.workers == 0) {
      main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
      return;
    }
    TT_CHECK(detail::parallel_data_linked(), "DataLoaderOptions: workers(", options_.workers,
             ") loads batches on worker threads, module 21's BatchPipeline (Parallel data loading), which this build "
             "does not include; use workers(0) to load on this thread, or start module 21 (tito module start 21)");
    // Every worker gets its own copy of the dataset (LibTorch does the same), so that a dataset's
    // get() never runs on two threads at once.
    for (size_t w = 0; w < options_.workers; ++w) worker_datasets_.push_back(std::make_unique<Dataset>(dataset));
    pipeline_ = std::make_unique<detail::BatchPipeline>(options_.workers, options_.max_jobs, options_.enforce_ordering);
  }

  StatelessDataLoader(const StatelessDataLoader&) = delete;
  StatelessDataLoader& operator=(const StatelessDataLoader&) = delete;
  ~StatelessDataLoader() { join(); }

  // Starts an epoch.
  Iterator begin() {
    TT_CHECK(pipeline_ == nullptr || pipeline_->jobs_in_flight() == 0,
             "Attempted to get a new DataLoader iterator while another iterator is not yet exhausted");
    reset();
    return Iterator(this);
  }
  Iterator end() { return Iterator(); }

  // Stops the worker threads (the destructor does it too).
  void join() {
    if (pipeline_ != nullptr) pipeline_->join();
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }

  // The buffers pin_memory(true) copies batches into (its statistics show the reuse).
  const PinnedMemoryPool& pinned_memory() const {
    TT_CHECK(pinned_memory_ != nullptr, "DataLoader::pinned_memory: this loader copies no batches (its options say "
                                        "pin_memory(false)); set DataLoaderOptions().pin_memory(true)");
    return *pinned_memory_;
  }
  // The worker pool of workers(n) > 0, or null with workers(0): its counters show the backpressure.
  const detail::BatchPipeline* pipeline() const noexcept { return pipeline_.get(); }

 private:
  static constexpr bool kPinnable = std::is_same<BatchType, Example<>>::value ||
                                    std::is_same<BatchType, TensorExample>::value ||
                                    std::is_same<BatchType, Tensor>::value;

  // The next batch's indices, or nullopt at the end of the epoch (drop_last ends it before a short batch).
  std::optional<BatchRequestType> get_batch_request() {
    auto indices = sampler_.next(options_.batch_size);
    if (!indices || (indices->size() < options_.batch_size && options_.drop_last)) return std::nullopt;
    TT_CHECK(!indices->empty(), "DataLoader: the sampler returned an empty batch of indices");
    return indices;
  }

  BatchType load(Dataset& dataset, BatchRequestType request) {
    BatchType batch = dataset.get_batch(std::move(request));
    if (options_.pin_memory) pin(batch);
    return batch;
  }

  void pin(BatchType& batch) {
    if constexpr (std::is_same<BatchType, Example<>>::value) {
      batch.data = pinned_memory_->copy_of(batch.data);
      if (batch.target.defined()) batch.target = pinned_memory_->copy_of(batch.target);
    } else if constexpr (std::is_same<BatchType, TensorExample>::value) {
      batch.data = pinned_memory_->copy_of(batch.data);
    } else if constexpr (std::is_same<BatchType, Tensor>::value) {
      batch = pinned_memory_->copy_of(batch);
    }
  }

  void reset() {
    sampler_.reset();
    if (pipeline_ == nullptr) return;
    // Each job loads one batch of the sampler's next indices with the worker's dataset; the pipeline
    // calls this source on this thread, up to max_jobs ahead of the loop.
    pipeline_->start_epoch([this]() -> std::optional<detail::BatchPipeline::Job> {
      auto request = get_batch_request();
      if (!request) return std::nullopt;
      return detail::BatchPipeline::Job(
          [this, request = std::move(*request)](size_t worker) mutable -> detail::BatchPipeline::Batch {
            return std::make_shared<BatchType>(load(*worker_datasets_[worker], std::move(request)));
          });
    });
  }

  std::optional<BatchType> next() {
    if (pipeline_ == nullptr) {
      auto request = get_batch_request();
      if (!request) return std::nullopt;
      return load(*main_thread_dataset_, std::move(*request));
    }
    auto batch = pipeline_->next();
    if (!batch) return std::nullopt;
    return std::move(*std::static_pointer_cast<BatchType>(*batch));
  }

  const FullDataLoaderOptions options_;
  Sampler sampler_;
  std::unique_ptr<PinnedMemoryPool> pinned_memory_;         // pin_memory(true)
  std::unique_ptr<Dataset> main_thread_dataset_;           // workers(0)
  std::vector<std::unique_ptr<Dataset>> worker_datasets_;  // workers(n): one per worker
  // Declared last, so destroyed first: its threads stop before the datasets they use go away.
  std::unique_ptr<detail::BatchPipeline> pipeline_;
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
