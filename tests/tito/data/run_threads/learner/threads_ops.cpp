// The fixture's learner file: sums 0..n-1 (n even) on two threads, each through a scratch copy of
// 0..n/2-1. Both threads use one shared scratch buffer and write the same values into it: a data race
// whose result is right every time, so only ThreadSanitizer can tell (the test swaps in `own` to fix it).
#include <cstdint>
#include <thread>
#include <vector>

namespace fixture {

int64_t two_thread_sum(int64_t n) {
  const int64_t half_size = n / 2;
  std::vector<int64_t> shared_scratch(static_cast<size_t>(half_size));
  int64_t halves[2] = {0, 0};
  auto work = [&](int half) {
    std::vector<int64_t> own(static_cast<size_t>(half_size));
    int64_t* scratch = shared_scratch.data();
    for (int64_t j = 0; j < half_size; ++j) scratch[j] = j;
    int64_t sum = 0;
    for (int64_t j = 0; j < half_size; ++j) sum += half * half_size + scratch[j];
    halves[half] = sum;
  };
  std::thread other(work, 1);
  work(0);
  other.join();
  return halves[0] + halves[1];
}

}  // namespace fixture
