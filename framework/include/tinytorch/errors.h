#pragma once
// Errors raised by tinytorch. Messages use LibTorch's wording so that what a learner sees here is
// what they will later see (and search for) with LibTorch.
#include <stdexcept>
#include <string>
#include <type_traits>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/scalar_type.h"

namespace tinytorch {

// The one exception type of the framework, LibTorch's c10::Error (torch.h aliases it as such).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  // LibTorch's c10::Error appends a C++ backtrace to what(); we never do, so both spellings agree.
  const char* what_without_backtrace() const noexcept { return what(); }
};

// Thrown by the starter code of a learner-written function until the learner writes it. The test
// runner recognises it and reports "not implemented yet" instead of a failure.
class NotImplemented : public Error {
 public:
  NotImplemented(const std::string& function, const std::string& module, const std::string& lesson_section)
      : Error(function + " is not implemented yet: it is yours to write in module " + module +
              " (lesson section " + lesson_section + "), then run `tito module test " +
              module.substr(0, 2) + "`"),
        function_(function), module_(module), lesson_section_(lesson_section) {}

  const std::string& function() const { return function_; }
  const std::string& module() const { return module_; }
  const std::string& lesson_section() const { return lesson_section_; }

 private:
  std::string function_;
  std::string module_;
  std::string lesson_section_;
};

namespace detail {
// Builds error messages from parts without pulling <sstream> into every header (learner files
// include this one and must compile fast). The parts are formatted as std::ostream would.
class MessageBuilder {
 public:
  MessageBuilder& operator<<(const char* text);
  MessageBuilder& operator<<(const std::string& text);
  MessageBuilder& operator<<(char c);
  MessageBuilder& operator<<(bool value);
  MessageBuilder& operator<<(double value);
  MessageBuilder& operator<<(long long value);
  MessageBuilder& operator<<(unsigned long long value);
  MessageBuilder& operator<<(IntArrayRef values);  // [2, 3]
  MessageBuilder& operator<<(ScalarType type);     // Float
  MessageBuilder& operator<<(TypeMeta dtype);      // float
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T>, int> = 0>
  MessageBuilder& operator<<(T value) { return *this << static_cast<long long>(value); }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T>, int> = 0>
  MessageBuilder& operator<<(T value) { return *this << static_cast<unsigned long long>(value); }
  MessageBuilder& operator<<(float value) { return *this << static_cast<double>(value); }
  std::string str() const { return text_; }

 private:
  std::string text_;
};

// Concatenates every argument, as TORCH_CHECK does for its message.
template <typename... Args>
std::string str(const Args&... args) {
  MessageBuilder builder;
  (builder << ... << args);
  return builder.str();
}
}  // namespace detail

}  // namespace tinytorch

// TT_CHECK(condition, message parts...): throws tinytorch::Error with the parts streamed together
// when the condition is false. The parts are only formatted on failure, so checks cost one branch.
#define TT_CHECK(condition, ...)                                        \
  do {                                                                  \
    if (!(condition)) {                                                 \
      throw ::tinytorch::Error(::tinytorch::detail::str(__VA_ARGS__));  \
    }                                                                   \
  } while (false)

namespace tinytorch {
namespace detail {
// TORCH_CHECK's message: the caller's parts, or LibTorch's default text when there are none.
inline std::string torch_check_message(const char* condition) {
  return str("Expected ", condition, " to be true, but got false.  (Could this error message be improved?  If so, ",
             "please report an enhancement request to PyTorch.)");
}
template <typename First, typename... Rest>
std::string torch_check_message(const char* /*condition*/, const First& first, const Rest&... rest) {
  return str(first, rest...);
}
template <typename... Args>
std::string internal_assert_message(const char* condition, const char* file, int line, const Args&... args) {
  return str(condition, " INTERNAL ASSERT FAILED at \"", file, "\":", line, ", please report a bug to PyTorch. ",
             args...);
}
}  // namespace detail
}  // namespace tinytorch

// LibTorch's checks, with its wording: TORCH_CHECK(cond, parts...) throws c10::Error (tinytorch::Error)
// with the parts streamed together; AT_ASSERT / TORCH_INTERNAL_ASSERT report an internal bug.
#define TORCH_CHECK(condition, ...)                                                                \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      throw ::tinytorch::Error(::tinytorch::detail::torch_check_message(#condition, ##__VA_ARGS__)); \
    }                                                                                              \
  } while (false)
#define TORCH_INTERNAL_ASSERT(condition, ...)                                                                 \
  do {                                                                                                        \
    if (!(condition)) {                                                                                       \
      throw ::tinytorch::Error(                                                                               \
          ::tinytorch::detail::internal_assert_message(#condition, __FILE__, __LINE__, ##__VA_ARGS__));       \
    }                                                                                                         \
  } while (false)
#define AT_ASSERT(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)

