#pragma once
// ArrayRef<T> / IntArrayRef: a non-owning view of contiguous values (LibTorch's c10::ArrayRef).
// It lets every shape argument accept `{2, 3}`, a std::vector<int64_t> or a single number without
// copying. Like LibTorch's, it must not outlive what it points to: never store one.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <vector>

namespace tinytorch {

namespace detail {
// LibTorch's errors for a slice or index past the end (src/01_tensor/array_ref.cpp).
[[noreturn]] void throw_invalid_array_ref_slice(size_t n, size_t m, size_t size);
[[noreturn]] void throw_invalid_array_ref_slice(size_t n, size_t size);
[[noreturn]] void throw_invalid_array_ref_index(size_t index, size_t size);
}  // namespace detail

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one_element) : data_(&one_element), size_(1) {}  // NOLINT: implicit
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  ArrayRef(const std::vector<T>& values) : data_(values.data()), size_(values.size()) {}  // NOLINT
  // The list lives until the end of the full expression that contains the call, which is as long as
  // an argument needs (the same contract, and the same silenced warning, as LibTorch's ArrayRef).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(const std::initializer_list<T>& values)  // NOLINT: `{2, 3}` at call sites
      : data_(values.begin() == values.end() ? nullptr : values.begin()), size_(values.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  template <size_t N>
  constexpr ArrayRef(const T (&values)[N]) : data_(values), size_(N) {}  // NOLINT

  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  // The m elements after the first n: sizes.slice(2) drops the batch and channel dims.
  ArrayRef slice(size_t n, size_t m) const {
    if (n + m > size_) detail::throw_invalid_array_ref_slice(n, m, size_);
    return ArrayRef(data_ + n, m);
  }
  ArrayRef slice(size_t n) const {
    if (n > size_) detail::throw_invalid_array_ref_slice(n, size_);
    return slice(n, size_ - n);
  }
  const T& at(size_t index) const {
    if (index >= size_) detail::throw_invalid_array_ref_index(index, size_);
    return data_[index];
  }

  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i) {
      if (!(data_[i] == other.data_[i])) return false;
    }
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) { return a.equals(b); }
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) { return !a.equals(b); }
// Comparing with a vector is common in tests: t.sizes() == std::vector<int64_t>{2, 3}.
template <typename T>
bool operator==(ArrayRef<T> a, const std::vector<T>& b) { return a.equals(b); }
template <typename T>
bool operator==(const std::vector<T>& a, ArrayRef<T> b) { return b.equals(a); }
template <typename T>
bool operator!=(ArrayRef<T> a, const std::vector<T>& b) { return !a.equals(b); }

using IntArrayRef = ArrayRef<int64_t>;

// Prints like LibTorch: [2, 3].
std::ostream& operator<<(std::ostream& out, IntArrayRef values);

}  // namespace tinytorch
