#pragma once
// Tensor factories with LibTorch's names, arguments and dtype inference:
//   zeros({2, 3}), ones({2}, kLong), full({2}, 7) (kLong, inferred from 7), arange(5) (kLong),
//   arange(0.0, 1.0, 0.25) (kFloat), tensor({{1, 2}, {3, 4}}) (kLong), tensor({1.5, 2.0}) (kFloat).
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor empty(IntArrayRef size, TensorOptions options = {});
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
// Without a dtype, full() takes the fill value's: bool -> kBool, integer -> kLong, floating -> kFloat.
Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options = {});
// A 0-dim tensor holding one value (dtype inferred like full()).
Tensor scalar_tensor(const Scalar& value, TensorOptions options = {});

// Integers everywhere -> kLong; any floating argument -> kFloat. Length ceil((end - start) / step).
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options = {});
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options = {});
Tensor eye(int64_t n, TensorOptions options = {});
Tensor eye(int64_t n, int64_t m, TensorOptions options = {});

// Random tensors from TinyTorch's own generator (std::mt19937_64). The streams are reproducible
// under manual_seed() but are NOT LibTorch's streams: the same seed gives different numbers.
void manual_seed(uint64_t seed);
Tensor rand(IntArrayRef size, TensorOptions options = {});   // uniform on [0, 1)
Tensor randn(IntArrayRef size, TensorOptions options = {});  // standard normal
Tensor randint(int64_t high, IntArrayRef size, TensorOptions options = kLong);  // [0, high)
Tensor randint(int64_t low, int64_t high, IntArrayRef size, TensorOptions options = kLong);

namespace detail {
// From seed_this_thread(seed) until forget_thread_seed(), the random factories on the calling thread
// draw from a generator of that thread's own, seeded `seed`, instead of the shared one manual_seed()
// seeds. A DataLoader worker does this before each batch (module 21): its random transforms are then
// reproducible, whichever worker loads the batch, and never race with the other threads.
void seed_this_thread(uint64_t seed);
void forget_thread_seed();
// A seed read from the shared generator's state without advancing it: manual_seed() fixes it, and a
// DataLoader with workers leaves the shared stream exactly where workers(0) leaves it (the next
// epoch's shuffle does not depend on the worker count).
uint64_t peek_seed();
}  // namespace detail

// Same size (and, for dense layouts, same strides) as `self`; dtype from options or from self.
Tensor empty_like(const Tensor& self, TensorOptions options = {});
Tensor zeros_like(const Tensor& self, TensorOptions options = {});
Tensor ones_like(const Tensor& self, TensorOptions options = {});
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options = {});
Tensor rand_like(const Tensor& self, TensorOptions options = {});
Tensor randn_like(const Tensor& self, TensorOptions options = {});

// The argument of torch::tensor(): a number, a std::vector, or braced lists nested to any depth.
// Floating numbers become the default dtype (kFloat), integers kLong, bools kBool, as in LibTorch.
class TensorDataContainer {
 public:
  TensorDataContainer(bool value) : type_(kBool), values_{Scalar(value)} {}  // NOLINT: implicit
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  TensorDataContainer(T value)  // NOLINT
      : type_(std::is_floating_point_v<T> ? kDouble : kLong), values_{Scalar(value)} {}
  TensorDataContainer(std::initializer_list<TensorDataContainer> nested);  // NOLINT
  template <typename T>
  TensorDataContainer(const std::vector<T>& values)  // NOLINT
      : sizes_{static_cast<int64_t>(values.size())},
        type_(std::is_same_v<T, bool> ? kBool : std::is_floating_point_v<T> ? kDouble : kLong) {
    values_.reserve(values.size());
    for (const T& v : values) values_.emplace_back(v);
  }

  IntArrayRef sizes() const { return sizes_; }
  ScalarType scalar_type() const { return type_; }  // kDouble for floating data before defaulting
  Tensor convert_to_tensor(TensorOptions options) const;

 private:
  std::vector<int64_t> sizes_;  // empty for a single number
  ScalarType type_;
  std::vector<Scalar> values_;  // row-major
};

Tensor tensor(const TensorDataContainer& data, TensorOptions options = {});

}  // namespace tinytorch
