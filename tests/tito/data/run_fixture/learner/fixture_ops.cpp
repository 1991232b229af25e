// A "learner's" file with one function per way learner code goes wrong.
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <tinytorch/errors.h>

namespace fixture {

int add(int a, int b) { return a + b; }

int multiply(int a, int b) { return a + b; }  // the learner's bug: adds instead

int norm(int) { throw tinytorch::NotImplemented("fixture::norm", "01_tensor", "1.2"); }

int read_through(int* pointer) { return *pointer; }  // called with a null pointer

// Loops forever without the compiler being allowed to remove the loop.
int spin() {
  volatile std::uint64_t counter = 0;
  while (true) counter = counter + 1;
}

// Allocates until the memory limit stops it, touching every page.
std::size_t hoard() {
  std::vector<std::unique_ptr<char[]>> blocks;
  const std::size_t block_bytes = 16 << 20;
  while (true) {
    blocks.emplace_back(new char[block_bytes]);  // not value-initialised: each page is touched once, below
    std::memset(blocks.back().get(), 1, block_bytes);
  }
}

// Writes far past the end of a heap block: a plain build crashes once it leaves the heap, a
// sanitized one stops at the first write out of bounds.
int write_past_end() {
  std::vector<int> values(4);
  volatile int* data = values.data();
  for (std::size_t i = 0; i < (std::size_t(1) << 34); ++i) data[i] = 1;  // the out-of-bounds write
  return values[0];
}

int divide(int a, int b) {
  if (b == 0) throw std::runtime_error("division by zero");
  return a / b;
}

}  // namespace fixture
