#pragma once
// ExpandingArray<D>: D integers given as one number or as D numbers (LibTorch's
// torch::ExpandingArray). Options of D-dimensional layers hold their sizes this way, so that
// Conv2dOptions(1, 8, 3) and Conv2dOptions(1, 8, {3, 5}) both work: 3 means {3, 3}.
//
//   ExpandingArray<2> k(3);        // [3, 3]
//   ExpandingArray<2> s({2, 1});   // [2, 1]
//   k->at(0), (*k)[1], k.size()    // the std::array inside
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/int_array_ref.h"

namespace tinytorch {

template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /* implicit */ ExpandingArray(std::initializer_list<T> list) : ExpandingArray(ArrayRef<T>(list)) {}
  /* implicit */ ExpandingArray(std::vector<T> list) : ExpandingArray(ArrayRef<T>(list)) {}
  /* implicit */ ExpandingArray(ArrayRef<T> values) {
    TT_CHECK(values.size() == D, "Expected ", D, " values, but instead got ", values.size());
    for (size_t i = 0; i < D; ++i) values_[i] = values[i];
  }
  /* implicit */ ExpandingArray(T single_size) { values_.fill(single_size); }
  /* implicit */ ExpandingArray(const std::array<T, D>& values) : values_(values) {}

  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  // Passes straight to ops that take an IntArrayRef (stride, padding, ...).
  operator ArrayRef<T>() const { return ArrayRef<T>(values_.data(), D); }
  size_t size() const noexcept { return D; }

 private:
  std::array<T, D> values_;
};

// Prints like LibTorch: [3, 3].
template <size_t D, typename T>
std::ostream& operator<<(std::ostream& stream, const ExpandingArray<D, T>& array) {
  if (array.size() == 1) return stream << array->at(0);
  return stream << static_cast<ArrayRef<T>>(array);
}

}  // namespace tinytorch
