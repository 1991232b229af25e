#pragma once
// How a DataLoader batches (LibTorch's torch::data::DataLoaderOptions, a builder):
//   DataLoaderOptions(32).drop_last(true).workers(2)
#include <cstddef>
#include <optional>

namespace tinytorch {
namespace data {

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  DataLoaderOptions(size_t batch_size) : batch_size_(batch_size) {}  // NOLINT: implicit, as in LibTorch

  // Each option is read with name() and set with name(value), which returns *this for chaining.
#define TT_DATALOADER_ARG_(TYPE, NAME, DEFAULT)                     \
 public:                                                           \
  DataLoaderOptions& NAME(const TYPE& value) {                     \
    NAME##_ = value;                                               \
    return *this;                                                  \
  }                                                                \
  const TYPE& NAME() const noexcept { return NAME##_; }            \
                                                                   \
 private:                                                          \
  TYPE NAME##_ = DEFAULT;

  // Examples per batch.
  TT_DATALOADER_ARG_(size_t, batch_size, 1)
  // Threads that load batches in the background; 0 loads each batch on the calling thread when asked.
  TT_DATALOADER_ARG_(size_t, workers, 0)
  // Batches requested ahead of time (default 2 * workers).
  TT_DATALOADER_ARG_(std::optional<size_t>, max_jobs, std::nullopt)
  // Yield batches in sampler order even when workers finish them out of order.
  TT_DATALOADER_ARG_(bool, enforce_ordering, true)
  // Skip the last batch of an epoch when it has fewer than batch_size examples.
  TT_DATALOADER_ARG_(bool, drop_last, false)
  // Copy every batch into a reused buffer of a PinnedMemoryPool (tinytorch/data/pinned_memory.h) before
  // handing it out: PyTorch's DataLoader(pin_memory=True); LibTorch's C++ options have no such field.
  TT_DATALOADER_ARG_(bool, pin_memory, false)
#undef TT_DATALOADER_ARG_
};

// The options with every default filled in, as the loader uses them.
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(const DataLoaderOptions& options)
      : batch_size(options.batch_size()),
        workers(options.workers()),
        max_jobs(options.max_jobs().value_or(2 * options.workers())),
        enforce_ordering(options.enforce_ordering()),
        drop_last(options.drop_last()),
        pin_memory(options.pin_memory()) {}

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  bool enforce_ordering;
  bool drop_last;
  bool pin_memory;
};

}  // namespace data
}  // namespace tinytorch
