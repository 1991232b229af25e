#pragma once
// What module tests use to compare tensors: Catch2 printing for tinytorch::Tensor and two matchers,
//   CHECK_THAT(actual, Equals(expected));            // same sizes, same dtype, same values
//   CHECK_THAT(actual, AllClose(expected, 1e-5));    // same sizes, |a - e| <= atol + rtol * |e|
// Include after <catch2/catch.hpp> and <tinytorch/torch.h>.
//
// Everything here reads tensors only through sizes(), dtype(), numel(), contiguous() and
// data_ptr<T>(): arithmetic, views and comparisons are the learner's code under test, and a
// test's verdict must not depend on them.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>
#include <tinytorch/torch.h>

namespace Catch {
// One line, e.g. "tensor([[1, 2], [3, 4]], dtype=float)"; long tensors keep their first and last
// few values per dimension and state their size.
template <>
struct StringMaker<tinytorch::Tensor> {
  static std::string convert(const tinytorch::Tensor& tensor);
};
// Sizes written as a std::vector in a test print as tinytorch prints sizes() ("[2, 3]"), so the
// expected and the actual side of `t.sizes() == Sizes{2, 3}` read the same way.
template <>
struct StringMaker<std::vector<int64_t>> {
  static std::string convert(const std::vector<int64_t>& values);
};
}  // namespace Catch

namespace tinytorch {
namespace testing {

// What `out << value` prints (a tensor, a module, a dtype), for comparing with LibTorch's text.
template <typename T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Matchers describe themselves as "\nexpected: <tensor>" followed by what differed; tito's event
// listener splits the learner's value from the expected one at that marker.
class TensorEqualsMatcher : public Catch::MatcherBase<Tensor> {
 public:
  explicit TensorEqualsMatcher(const Tensor& expected) : expected_(expected) {}
  bool match(const Tensor& actual) const override;
  std::string describe() const override;

 private:
  Tensor expected_;
  mutable std::string difference_;  // found by match(), shown by describe()
};

class TensorAllCloseMatcher : public Catch::MatcherBase<Tensor> {
 public:
  TensorAllCloseMatcher(const Tensor& expected, double rtol, double atol)
      : expected_(expected), rtol_(rtol), atol_(atol) {}
  bool match(const Tensor& actual) const override;
  std::string describe() const override;

 private:
  Tensor expected_;
  double rtol_, atol_;
  mutable std::string difference_;
};

inline TensorEqualsMatcher Equals(const Tensor& expected) { return TensorEqualsMatcher(expected); }

// torch::allclose's defaults; NaN is never close to anything, equal infinities are.
inline TensorAllCloseMatcher AllClose(const Tensor& expected, double rtol = 1e-5, double atol = 1e-8) {
  return TensorAllCloseMatcher(expected, rtol, atol);
}

}  // namespace testing
}  // namespace tinytorch
