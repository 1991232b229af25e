// Module 19 (Benchmarking), given code: the Timer, torch.utils.benchmark.Timer's three ways of
// running a statement. A block of calls is timed with steady_clock (monotonic, nanosecond ticks on
// Linux; reading it costs about 20-30 ns, which is why tiny statements are timed in blocks).
#include <algorithm>
#include <chrono>
#include <utility>

#include "tinytorch/errors.h"
#include "tinytorch/utils/benchmark.h"

namespace tinytorch {
namespace utils {
namespace benchmark {

Timer::Timer(std::function<void()> stmt, std::string label, std::string description)
    : stmt_(std::move(stmt)), label_(std::move(label)), description_(std::move(description)) {
  TT_CHECK(static_cast<bool>(stmt_), "Timer '", label_, "': the statement is empty; pass a callable, e.g. "
           "Timer([&] { model->forward(x); })");
}

double Timer::time_block(int64_t number) const {
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < number; ++i) stmt_();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Measurement Timer::timeit(int64_t number) const {
  TT_CHECK(number >= 1, "Timer::timeit: number must be at least 1, got ", number);
  time_block(std::max<int64_t>(number / 100, 2));  // warm-up, as PyTorch does
  return Measurement(number, {time_block(number)}, label_, description_);
}

Measurement Timer::repeat(int64_t repeat, int64_t number, int64_t warmup) const {
  TT_CHECK(repeat >= 1, "Timer::repeat: repeat must be at least 1, got ", repeat);
  TT_CHECK(number >= 1, "Timer::repeat: number must be at least 1, got ", number);
  TT_CHECK(warmup >= 0, "Timer::repeat: warmup must not be negative, got ", warmup);
  for (int64_t i = 0; i < warmup; ++i) stmt_();
  std::vector<double> raw_times;
  raw_times.reserve(static_cast<size_t>(repeat));
  for (int64_t i = 0; i < repeat; ++i) raw_times.push_back(time_block(number));
  return Measurement(number, std::move(raw_times), label_, description_);
}

Measurement Timer::blocked_autorange(double min_run_time) const {
  TT_CHECK(min_run_time > 0, "Timer::blocked_autorange: min_run_time must be positive seconds, got ", min_run_time);
  // The clock's own cost: the median of five empty blocks.
  std::vector<double> empty_blocks;
  for (int i = 0; i < 5; ++i) empty_blocks.push_back(time_block(0));
  std::nth_element(empty_blocks.begin(), empty_blocks.begin() + 2, empty_blocks.end());
  const double overhead = empty_blocks[2];
  // The block size: grow by 10 until a block is long enough that the clock's cost is noise and it
  // takes at least a thousandth of the run; stop growing once one block alone fills the run. These
  // trial blocks are the warm-up.
  int64_t number = 1;
  while (true) {
    const double block = time_block(number);
    if (block > 0 && overhead / block <= 1e-4 && block >= min_run_time / 1000) break;
    if (block > min_run_time || number > (int64_t{1} << 40)) break;
    number *= 10;
  }
  // Blocks until min_run_time seconds have been measured (at least one block).
  std::vector<double> raw_times;
  double total = 0;
  while (total < min_run_time || raw_times.empty()) {
    raw_times.push_back(time_block(number));
    total += raw_times.back();
  }
  return Measurement(number, std::move(raw_times), label_, description_);
}

std::vector<Measurement> repeat_interleaved(const std::vector<Timer>& timers, int64_t repeat, int64_t number,
                                           int64_t warmup) {
  TT_CHECK(!timers.empty(), "repeat_interleaved: no timers; pass the statements to compare");
  TT_CHECK(repeat >= 1, "repeat_interleaved: repeat must be at least 1, got ", repeat);
  TT_CHECK(number >= 1, "repeat_interleaved: number must be at least 1, got ", number);
  TT_CHECK(warmup >= 0, "repeat_interleaved: warmup must not be negative, got ", warmup);
  for (const Timer& timer : timers) timer.time_block(warmup);
  std::vector<std::vector<double>> raw_times(timers.size());
  for (int64_t round = 0; round < repeat; ++round) {
    for (size_t t = 0; t < timers.size(); ++t) raw_times[t].push_back(timers[t].time_block(number));
  }
  std::vector<Measurement> measurements;
  for (size_t t = 0; t < timers.size(); ++t) {
    measurements.emplace_back(number, std::move(raw_times[t]), timers[t].label(), timers[t].description());
  }
  return measurements;
}

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
