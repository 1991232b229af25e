#pragma once
// TORCH_ARG(type, name): LibTorch's option-builder member. Inside an options struct it declares
// a field `name_` with a chainable setter `name(value)` and a getter `name()`:
//   struct LinearOptions { TORCH_ARG(bool, bias) = true; };
//   LinearOptions(784, 10).bias(false).bias()   // false
#include <utility>

#define TORCH_ARG(T, name)                                                   \
 public:                                                                    \
  inline auto name(const T& new_##name)->decltype(*this) { /* NOLINT */     \
    this->name##_ = new_##name;                                             \
    return *this;                                                           \
  }                                                                         \
  inline auto name(T&& new_##name)->decltype(*this) { /* NOLINT */          \
    this->name##_ = std::move(new_##name);                                  \
    return *this;                                                           \
  }                                                                         \
  inline const T& name() const noexcept { /* NOLINT */                      \
    return this->name##_;                                                   \
  }                                                                         \
  inline T& name() noexcept { /* NOLINT */                                  \
    return this->name##_;                                                   \
  }                                                                         \
                                                                            \
 private:                                                                   \
  T name##_ /* NOLINT */
