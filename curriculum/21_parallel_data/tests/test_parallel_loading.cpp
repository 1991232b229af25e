// Module 21 (Parallel data loading): the graded tests of the worker pool (BatchPipeline, driven through
// torch::data::make_data_loader with workers(n)) and of the reused batch buffers (PinnedMemoryPool).
// 85 points here; test_memory_mapped.cpp has the other 15. Each case is tagged with its points and a
// topic; hints.json has a hint per case name. Every case goes through code the learner writes in
// framework/src/21_parallel_data/.
//
// Threads make mistakes show up as hangs: a case that waits runs its body on a thread of its own and
// ends the program with a message when the body has not finished within kDeadlineSeconds (see
// finish_within). Catch2's assertions are not thread-safe, so such bodies only record what they saw
// and the case checks it afterwards. Every case is tagged [threads]: once they pass, `tito module test`
// reruns them under ThreadSanitizer, which fails a data race even when the values came out right.
// Sizes come from random_int: under `tito grade` from a secret seed.
#include <catch2/catch.hpp>
#include <sys/resource.h>
#include <unistd.h>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using tinytorch::testing::random_int;
namespace data = torch::data;
using Pipeline = torch::data::detail::BatchPipeline;

namespace {

constexpr int kDeadlineSeconds = 20;

// Runs `body` on a thread of its own; when it has not returned within kDeadlineSeconds, prints why and
// ends the program (a deadlocked case would otherwise hang the whole run). Exceptions come back here.
template <typename Body>
void finish_within(const char* what, Body body) {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  std::exception_ptr error;
  std::thread runner([&] {
    try {
      body();
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    finished.notify_all();
  });
  std::unique_lock<std::mutex> lock(mutex);
  if (!finished.wait_for(lock, std::chrono::seconds(kDeadlineSeconds), [&] { return done; })) {
    std::fprintf(stderr,
                 "\n%s did not finish within %d s: a deadlock. Look for a wait whose condition can never become "
                 "true (a notify_one where every waiting thread must wake, a predicate that ignores quit_, a "
                 "result that was never stored) -- see hints.json.\n",
                 what, kDeadlineSeconds);
    std::fflush(stderr);
    std::_Exit(124);
  }
  lock.unlock();
  runner.join();
  if (error) std::rethrow_exception(error);
}

// Threads of this process (Linux), for "no thread left behind".
int thread_count() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "Threads:") {
      int count = 0;
      status >> count;
      return count;
    }
    std::getline(status, key);
  }
  return -1;
}

// Example i is the 1-element tensor {i} with target i: a batch says which examples it holds.
// Counters shared by every copy (each worker copies the dataset): loads started, and the most loads
// running at once. `slow_first_ms` delays the batch that starts with example 0; `each_ms` every batch.
struct LoadLog {
  std::atomic<int64_t> started{0};
  std::atomic<int64_t> running{0};
  std::atomic<int64_t> most_running{0};
};

class CountingDataset : public data::datasets::BatchDataset<CountingDataset, data::Example<>> {
 public:
  CountingDataset(int64_t count, std::shared_ptr<LoadLog> log, int slow_first_ms = 0, int each_ms = 0,
                  int64_t failing_index = -1)
      : count_(count), log_(std::move(log)), slow_first_ms_(slow_first_ms), each_ms_(each_ms),
        failing_index_(failing_index) {}

  data::Example<> get_batch(torch::ArrayRef<size_t> indices) override {
    log_->started.fetch_add(1);
    const int64_t now = log_->running.fetch_add(1) + 1;
    int64_t most = log_->most_running.load();
    while (now > most && !log_->most_running.compare_exchange_weak(most, now)) {
    }
    int delay = each_ms_;
    if (!indices.empty() && indices.front() == 0) delay += slow_first_ms_;
    if (delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    std::vector<int64_t> ids;
    for (size_t i : indices) {
      if (static_cast<int64_t>(i) == failing_index_) {
        log_->running.fetch_sub(1);
        throw std::runtime_error("example " + std::to_string(i) + " is corrupt");
      }
      ids.push_back(static_cast<int64_t>(i));
    }
    log_->running.fetch_sub(1);
    auto t = torch::tensor(ids);
    return {t, t.clone()};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(count_); }

 private:
  int64_t count_;
  std::shared_ptr<LoadLog> log_;
  int slow_first_ms_;
  int each_ms_;
  int64_t failing_index_;
};

std::vector<int64_t> ids_of(const torch::Tensor& batch) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < batch.numel(); ++i) ids.push_back(batch[i].item<int64_t>());
  return ids;
}

// The batches of one epoch, as lists of example ids.
template <typename Loader>
std::vector<std::vector<int64_t>> one_epoch(Loader& loader) {
  std::vector<std::vector<int64_t>> batches;
  for (auto& batch : loader) batches.push_back(ids_of(batch.data));
  return batches;
}

std::vector<std::vector<int64_t>> sequential_batches(int64_t count, int64_t batch_size, bool drop_last = false) {
  std::vector<std::vector<int64_t>> batches;
  for (int64_t start = 0; start < count; start += batch_size) {
    std::vector<int64_t> batch;
    for (int64_t i = start; i < std::min(count, start + batch_size); ++i) batch.push_back(i);
    if (drop_last && static_cast<int64_t>(batch.size()) < batch_size) break;
    batches.push_back(batch);
  }
  return batches;
}

auto sequential_loader(CountingDataset dataset, data::DataLoaderOptions options) {
  return data::make_data_loader<data::samplers::SequentialSampler>(std::move(dataset), options);
}

}  // namespace

TEST_CASE("the pipeline runs jobs on its worker threads and returns them in order", "[points=3][pipeline][threads]") {
  const int64_t jobs = random_int(5, 12);
  std::vector<int64_t> values;
  std::set<std::thread::id> job_threads;
  size_t workers = 0;
  finish_within("a BatchPipeline epoch", [&] {
    std::mutex mutex;
    Pipeline pipeline(2, 3, true);
    workers = pipeline.workers();
    int64_t next_job = 0;
    pipeline.start_epoch([&]() -> torch::optional<Pipeline::Job> {
      if (next_job == jobs) return {};
      const int64_t value = 10 * next_job++;
      return Pipeline::Job([value, &mutex, &job_threads](size_t) -> Pipeline::Batch {
        std::lock_guard<std::mutex> lock(mutex);
        job_threads.insert(std::this_thread::get_id());
        return std::make_shared<int64_t>(value);
      });
    });
    while (auto batch = pipeline.next()) values.push_back(*std::static_pointer_cast<int64_t>(*batch));
  });
  CHECK(workers == 2);
  std::vector<int64_t> expected;
  for (int64_t j = 0; j < jobs; ++j) expected.push_back(10 * j);
  CHECK(values == expected);
  CHECK(job_threads.count(std::this_thread::get_id()) == 0);
  CHECK_FALSE(job_threads.empty());
}

TEST_CASE("workers load every batch exactly once, in the sampler's order", "[points=8][workers][threads]") {
  const int64_t count = random_int(20, 40);
  const int64_t batch_size = random_int(2, 5);
  const size_t workers = static_cast<size_t>(random_int(2, 3));
  std::vector<std::vector<int64_t>> sequential, shuffled_with_workers, shuffled_without;
  finish_within("an epoch with workers", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log), data::DataLoaderOptions(batch_size).workers(workers));
    sequential = one_epoch(*loader);
    // A RandomSampler's order is drawn on the caller's thread: workers must not change it.
    torch::manual_seed(21);
    auto shuffled = data::make_data_loader(CountingDataset(count, log), data::DataLoaderOptions(batch_size).workers(workers));
    shuffled_with_workers = one_epoch(*shuffled);
    torch::manual_seed(21);
    auto in_line = data::make_data_loader(CountingDataset(count, log), data::DataLoaderOptions(batch_size));
    shuffled_without = one_epoch(*in_line);
  });
  CHECK(sequential == sequential_batches(count, batch_size));
  CHECK(shuffled_with_workers == shuffled_without);
}

// What a worker thread sees of its own thread: the intra-op thread count, and its nice value.
struct WorkerThreadLog {
  std::mutex mutex;
  std::vector<int> num_threads;
  std::vector<int> nice;
};

int this_thread_nice() {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  return errno == 0 ? nice : -100;
}

class ThreadProbeDataset : public data::datasets::BatchDataset<ThreadProbeDataset, data::Example<>> {
 public:
  ThreadProbeDataset(int64_t count, std::shared_ptr<WorkerThreadLog> log) : count_(count), log_(std::move(log)) {}
  data::Example<> get_batch(torch::ArrayRef<size_t> indices) override {
    {
      std::lock_guard<std::mutex> lock(log_->mutex);
      log_->num_threads.push_back(torch::get_num_threads());
      log_->nice.push_back(this_thread_nice());
    }
    auto t = torch::zeros({static_cast<int64_t>(indices.size())});
    return {t, t.clone()};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(count_); }

 private:
  int64_t count_;
  std::shared_ptr<WorkerThreadLog> log_;
};

TEST_CASE("workers run their ops on their own thread, below the loop's priority", "[points=4][workers][threads]") {
  const int64_t count = random_int(8, 16);
  const int loop_threads = static_cast<int>(random_int(2, 3));
  const int before = torch::get_num_threads();
  torch::set_num_threads(loop_threads);
  auto log = std::make_shared<WorkerThreadLog>();
  int loop_nice = 0, loop_threads_after = 0;
  finish_within("an epoch that records its workers", [&] {
    loop_nice = this_thread_nice();
    auto loader = data::make_data_loader(ThreadProbeDataset(count, log), data::DataLoaderOptions(2).workers(2));
    for (auto& batch : *loader) (void)batch;
    loop_threads_after = torch::get_num_threads();
  });
  torch::set_num_threads(before);
  REQUIRE(!log->num_threads.empty());
  // PyTorch's worker processes run torch.set_num_threads(1); threads must not change the count for
  // the whole program, only see 1 on themselves: the intra-op pool stays the training loop's.
  for (int n : log->num_threads) CHECK(n == 1);
  CHECK(loop_threads_after == loop_threads);
  // Lower priority (a higher nice value) than the loop, which each step waits for.
  REQUIRE(loop_nice > -100);
  for (int nice : log->nice) CHECK(nice >= std::min(19, loop_nice + 1));
}

TEST_CASE("enforce_ordering keeps the sampler's order when later batches finish first", "[points=8][ordering][threads]") {
  const int64_t count = random_int(12, 24);
  std::vector<std::vector<int64_t>> batches;
  finish_within("an ordered epoch", [&] {
    // Batch 0 takes 200 ms, the others none: the other worker finishes batches 1, 2, ... long before it.
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log, 200),
                                    data::DataLoaderOptions(2).workers(2).max_jobs(4).enforce_ordering(true));
    batches = one_epoch(*loader);
  });
  CHECK(batches == sequential_batches(count, 2));
}

TEST_CASE("without enforce_ordering the first finished batch comes first", "[points=4][ordering][threads]") {
  const int64_t count = random_int(12, 24);
  std::vector<std::vector<int64_t>> batches;
  finish_within("an unordered epoch", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log, 500),
                                    data::DataLoaderOptions(2).workers(2).max_jobs(4).enforce_ordering(false));
    batches = one_epoch(*loader);
  });
  // Every batch exactly once, but batch 0 (500 ms) is not the first handed out.
  auto sorted = batches;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == sequential_batches(count, 2));
  REQUIRE_FALSE(batches.empty());
  CHECK(batches.front() != std::vector<int64_t>{0, 1});
}

TEST_CASE("never more than max_jobs batches in flight, and max_jobs loading ahead", "[points=10][backpressure][threads]") {
  const int64_t count = random_int(30, 50);
  const size_t max_jobs = static_cast<size_t>(random_int(2, 4));
  int64_t most_ahead = 0, least_ahead_mid_epoch = 1 << 30, batches = 0, peak = 0;
  finish_within("an epoch with a slow loop", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log),
                                    data::DataLoaderOptions(1).workers(2).max_jobs(max_jobs));
    for (auto& batch : *loader) {
      (void)batch;
      ++batches;
      // The loop is slow (a model's step): the workers have time to run as far ahead as allowed.
      std::this_thread::sleep_for(std::chrono::milliseconds(15));
      const int64_t ahead = log->started.load() - batches;  // loads started beyond what the loop took
      most_ahead = std::max(most_ahead, ahead);
      if (batches < count - static_cast<int64_t>(max_jobs)) least_ahead_mid_epoch = std::min(least_ahead_mid_epoch, ahead);
    }
    peak = static_cast<int64_t>(loader->pipeline()->peak_jobs_in_flight());
  });
  CHECK(batches == count);
  // Requested and not yet handed out: at most max_jobs, and during a 15 ms step the workers get there.
  CHECK(most_ahead == static_cast<int64_t>(max_jobs));
  // Loading ahead all along: each batch handed out makes room for one more request.
  CHECK(least_ahead_mid_epoch >= 1);
  CHECK(peak == static_cast<int64_t>(max_jobs));
}

TEST_CASE("epoch after epoch, no batch is dropped or repeated at the boundary", "[points=8][epochs][threads]") {
  const int64_t count = random_int(10, 25);
  const int64_t batch_size = random_int(3, 4);
  std::vector<std::vector<std::vector<int64_t>>> epochs, epochs_drop_last;
  finish_within("three epochs in a row", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log), data::DataLoaderOptions(batch_size).workers(2));
    for (int e = 0; e < 3; ++e) epochs.push_back(one_epoch(*loader));
    auto dropping = sequential_loader(CountingDataset(count, log),
                                      data::DataLoaderOptions(batch_size).workers(2).drop_last(true));
    for (int e = 0; e < 2; ++e) epochs_drop_last.push_back(one_epoch(*dropping));
  });
  REQUIRE(epochs.size() == 3);
  for (const auto& epoch : epochs) CHECK(epoch == sequential_batches(count, batch_size));
  for (const auto& epoch : epochs_drop_last) CHECK(epoch == sequential_batches(count, batch_size, true));
}

TEST_CASE("a worker's exception reaches the loop as a WorkerException with its message", "[points=8][exceptions][threads]") {
  const int64_t count = random_int(20, 30);
  const int64_t failing = random_int(5, count - 1);
  std::string message;
  bool original_is_runtime_error = false;
  int64_t batches_before = 0;
  finish_within("an epoch whose worker throws", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log, 0, 0, failing), data::DataLoaderOptions(1).workers(2));
    try {
      for (auto& batch : *loader) {
        (void)batch;
        ++batches_before;
      }
    } catch (const data::WorkerException& error) {
      message = error.what();
      try {
        std::rethrow_exception(error.original_exception);
      } catch (const std::runtime_error&) {
        original_is_runtime_error = true;
      } catch (...) {
      }
    }
  });  // and the loader, destroyed with the exception on its way, stops its threads
  CHECK(message == "Caught exception in DataLoader worker thread. Original message: example " +
                       std::to_string(failing) + " is corrupt");
  CHECK(original_is_runtime_error);
  CHECK(batches_before == failing);  // the batches before the bad one were all handed out, in order
}

TEST_CASE("breaking out early and destroying the loader leaves no thread behind", "[points=8][shutdown][threads]") {
  const int64_t count = random_int(40, 60);
  const size_t workers = static_cast<size_t>(random_int(2, 4));
  const int64_t batch_size = random_int(2, 6);
  int threads_before = 0, threads_during = 0, threads_after = 0;
  std::vector<int64_t> first_batch;
  finish_within("destroying a loader in the middle of an epoch", [&] {
    threads_before = thread_count();
    {
      auto log = std::make_shared<LoadLog>();
      auto loader = sequential_loader(CountingDataset(count, log, 0, 5),
                                      data::DataLoaderOptions(batch_size).workers(workers));
      threads_during = thread_count();
      for (auto& batch : *loader) {
        first_batch = ids_of(batch.data);
        break;  // the loop stops; jobs are queued and running
      }
    }
    // A loader with idle workers (no epoch ever started) must stop as well.
    {
      auto idle = sequential_loader(CountingDataset(count, std::make_shared<LoadLog>()), data::DataLoaderOptions(2).workers(workers));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // every worker is now waiting for a job
    }
    threads_after = thread_count();
  });
  CHECK(first_batch == sequential_batches(count, batch_size).front());
  CHECK(threads_during == threads_before + static_cast<int>(workers));
  CHECK(threads_after == threads_before);
}

namespace {

// A random augmentation: each example's value plus noise from torch::rand, flipped in sign with
// probability 1/2 (torch::randint) -- drawn from whatever generator the loading thread uses.
class NoisyDataset : public data::datasets::Dataset<NoisyDataset, data::Example<>> {
 public:
  explicit NoisyDataset(int64_t count) : count_(count) {}
  data::Example<> get(size_t index) override {
    auto value = torch::full({3}, static_cast<double>(index)) + torch::rand({3});
    if (torch::randint(2, {1}).item<int64_t>() == 1) value = -value;
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // let the workers interleave
    return {value, torch::tensor(static_cast<int64_t>(index))};
  }
  torch::optional<size_t> size() const override { return static_cast<size_t>(count_); }

 private:
  int64_t count_;
};

std::vector<torch::Tensor> noisy_epochs(int64_t count, size_t workers, int epochs) {
  torch::manual_seed(2021);
  auto loader = data::make_data_loader<data::samplers::SequentialSampler>(
      NoisyDataset(count).map(data::transforms::Stack<>()), data::DataLoaderOptions(4).workers(workers));
  std::vector<torch::Tensor> batches;
  for (int e = 0; e < epochs; ++e)
    for (auto& batch : *loader) batches.push_back(batch.data);
  return batches;
}

bool same_batches(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!torch::equal(a[i], b[i])) return false;
  return true;
}

}  // namespace

TEST_CASE("random transforms are reproducible for a seed, whatever the worker count", "[points=10][seeds][threads]") {
  const int64_t count = random_int(24, 40);
  std::vector<torch::Tensor> one_worker, two_workers, two_again, three_workers;
  finish_within("epochs of a random transform", [&] {
    one_worker = noisy_epochs(count, 1, 2);
    two_workers = noisy_epochs(count, 2, 2);
    two_again = noisy_epochs(count, 2, 2);
    three_workers = noisy_epochs(count, 3, 2);
  });
  CHECK(one_worker.size() == static_cast<size_t>(2 * ((count + 3) / 4)));  // two epochs of batches of 4
  CHECK(same_batches(two_workers, two_again));  // the same seed and worker count: the same batches
  CHECK(same_batches(one_worker, two_workers));
  CHECK(same_batches(one_worker, three_workers));
  // ... and a new augmentation every epoch: the second epoch's batches differ from the first's.
  const size_t per_epoch = one_worker.size() / 2;
  REQUIRE(per_epoch > 0);
  CHECK_FALSE(torch::equal(one_worker[0], one_worker[per_epoch]));
}

TEST_CASE("pin_memory reuses a bounded set of buffers and never overwrites a batch in use", "[points=8][pinned][threads]") {
  const int64_t count = random_int(30, 50);
  const size_t max_jobs = 2;
  std::vector<int64_t> kept_ids, kept_ids_at_end;
  data::PinnedMemoryPool::Stats stats;
  int64_t batches = 0;
  bool pinned_is_separate = true;
  finish_within("an epoch with pin_memory", [&] {
    auto log = std::make_shared<LoadLog>();
    auto loader = sequential_loader(CountingDataset(count, log),
                                    data::DataLoaderOptions(1).workers(2).max_jobs(max_jobs).pin_memory(true));
    torch::Tensor kept;
    for (auto& batch : *loader) {
      ++batches;
      if (batches == 3) {
        kept = batch.data;  // held on to: its buffer must not go to another batch
        kept_ids = ids_of(kept);
      }
      pinned_is_separate = pinned_is_separate && !batch.data.storage().is_alias_of(batch.target.storage());
    }
    kept_ids_at_end = ids_of(kept);
    stats = loader->pinned_memory().stats();
  });
  CHECK(batches == count);
  CHECK(kept_ids == std::vector<int64_t>{2});
  CHECK(kept_ids_at_end == kept_ids);
  CHECK(pinned_is_separate);
  // Two tensors per batch; at most max_jobs batches in flight, the loop's current one, the one replacing
  // it and the kept one: the pool allocates a handful of blocks, then reuses them.
  CHECK(stats.blocks_allocated <= 2 * (max_jobs + 3));
  CHECK(stats.blocks_allocated + stats.blocks_reused == static_cast<size_t>(2 * count));
  CHECK(stats.blocks_in_use == 1);  // only the kept batch's data still uses its block
}

// A HostAllocator that keeps a list of the blocks it handed out: every block the pool takes must come from it,
// and go back through it (a pinned block freed with std::free corrupts the driver's heap).
struct RecordingHostAllocator {
  std::set<void*> live;
  int64_t foreign_releases = 0;  // blocks given back that it never handed out
  data::PinnedMemoryPool::HostAllocator functions() {
    return {[this](size_t nbytes) {
              void* block = std::aligned_alloc(64, (nbytes + 63) / 64 * 64 + 64);
              if (block == nullptr) throw std::bad_alloc();
              live.insert(block);
              return block;
            },
            [this](void* block) {
              if (live.erase(block) == 0) {
                ++foreign_releases;
                return;  // not ours: leave it to whoever allocated it
              }
              std::free(block);
            }};
  }
};

TEST_CASE("PinnedMemoryPool hands a free block out again and empty_cache frees only free blocks", "[points=3][pinned][threads]") {
  const int64_t n = random_int(64, 256);
  RecordingHostAllocator host;
  auto pool_owner = std::make_unique<data::PinnedMemoryPool>(host.functions());
  data::PinnedMemoryPool& pool = *pool_owner;
  auto a = pool.empty({n}, torch::kFloat);
  auto b = pool.empty({n}, torch::kFloat);
  CHECK(a.sizes() == torch::IntArrayRef{n});
  CHECK(a.scalar_type() == torch::kFloat);
  CHECK(a.data_ptr() != b.data_ptr());
  void* b_block = b.data_ptr();
  b = torch::Tensor();  // its block goes back to the pool, not to the system
  auto c = pool.empty({n}, torch::kFloat);
  CHECK(c.data_ptr() == b_block);
  auto stats = pool.stats();
  CHECK(stats.blocks_allocated == 2);
  CHECK(stats.blocks_reused == 1);
  CHECK(stats.blocks_in_use == 2);
  CHECK(stats.bytes_reserved == static_cast<size_t>(2 * n * 4));
  CHECK(host.live.size() == 2);  // both blocks came from the pool's HostAllocator
  c = torch::Tensor();
  pool.empty_cache();
  stats = pool.stats();
  CHECK(stats.bytes_reserved == static_cast<size_t>(n * 4));  // a's block stays: a still uses it
  CHECK(stats.blocks_in_use == 1);
  CHECK(host.live.size() == 1);  // the free block went back through the HostAllocator's release
  CHECK(host.foreign_releases == 0);
  a.fill_(1.5);  // still writable
  CHECK(a.sum().item<double>() == Approx(1.5 * static_cast<double>(n)));
  // The pool goes first, then a: a's block comes back to the shared state, which gives it back on the way out.
  pool_owner.reset();
  a = torch::Tensor();
  CHECK(host.live.empty());
  CHECK(host.foreign_releases == 0);
}

TEST_CASE("PinnedMemoryPool blocks come back safely from many threads at once", "[points=3][pinned][threads]") {
  const int rounds = static_cast<int>(random_int(200, 400));
  data::PinnedMemoryPool pool;
  std::atomic<int64_t> wrong{0};
  std::mutex error_mutex;
  std::exception_ptr error;  // the first exception of any thread (an exception leaving a thread ends the program)
  finish_within("four threads sharing a pool", [&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        try {
          for (int r = 0; r < rounds; ++r) {
            auto block = pool.empty({16}, torch::kLong);
            block.fill_(t * 100000 + r);
            std::this_thread::yield();
            if (block.min().item<int64_t>() != t * 100000 + r || block.max().item<int64_t>() != t * 100000 + r)
              wrong.fetch_add(1);  // another thread was handed the same block
          }
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    if (error) std::rethrow_exception(error);
  });
  auto stats = pool.stats();
  CHECK(wrong.load() == 0);
  CHECK(stats.blocks_in_use == 0);
  CHECK(stats.blocks_allocated <= 4);
  CHECK(stats.blocks_allocated + stats.blocks_reused == static_cast<size_t>(4 * rounds));
}
