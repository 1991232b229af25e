#pragma once
// What module tests use to compare tensors: Catch2 printing for tinytorch::Tensor and two matchers,
//   CHECK_THAT(actual, Equals(expected));            // same sizes, same dtype, same values
//   CHECK_THAT(actual, AllClose(expected, 1e-5));    // same sizes, |a - e| <= atol + rtol * |e|
// and inputs drawn for grading:
//   auto x = random_tensor({3, 4});                  // values from graded_rng(), multiples of 1/8
// Include after <catch2/catch.hpp> and <tinytorch/torch.h>.
//
// Under `tito grade` the matchers and Catch2's assertions also record what the code under test
// produced; tito compares that record with the reference solution's, outside the test program
// (INSTRUCTOR.md, "Results are verified, not believed").
//
// Everything here reads tensors only through sizes(), dtype(), numel(), contiguous() and
// data_ptr<T>(): arithmetic, views and comparisons are the learner's code under test, and a
// test's verdict must not depend on them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
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

// Names the checks that follow in the same scope, for the hint tito shows when one of them fails:
// hints.json can give a case's hint per check ("checks": {"grad_weight": [...]}), and a failure under
//   LABEL_CHECKS("grad_weight");
// shows that hint instead of the case's. Scoped like Catch2's INFO; the innermost label wins.
#define LABEL_CHECKS(label) INTERNAL_CATCH_INFO("LABEL_CHECKS", (label))

// First line of a case that needs an OpenCL device (module 22): without one the case fails saying how to get
// one, never passes. ctest finds the cases that use it and reports their module skipped where clinfo lists
// no device (tests/run_if_opencl.sh); `tito module test` shows the failure's message.
#define REQUIRE_OPENCL_DEVICE()                                                                              \
  do {                                                                                                       \
    if (!::tinytorch::opencl::is_available())                                                                \
      FAIL("no OpenCL device on this machine: install an OpenCL driver (Debian: pocl-opencl-icd, which runs " \
           "OpenCL on the CPU) and check with `clinfo -l`");                                                 \
  } while (0)

namespace tinytorch {
namespace testing {

// What `out << value` prints (a tensor, a module, a dtype), for comparing with LibTorch's text.
template <typename T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Matchers describe themselves as "\nexpected: <tensor>\nactual: <tensor>" followed by what differed;
// tito's event listener splits the learner's value from the expected one at those markers. A large
// tensor that differs in its values is shown only near its first mismatch, so that a failure reads
// in a few lines whatever the tensor's size.
struct TensorMismatch {
  std::string expected, actual;  // as shown: whole when small, else the values around the mismatch
  std::string difference;        // "" when the tensors agree
};

class TensorEqualsMatcher : public Catch::MatcherBase<Tensor> {
 public:
  explicit TensorEqualsMatcher(const Tensor& expected) : expected_(expected) {}
  bool match(const Tensor& actual) const override;
  std::string describe() const override;

 private:
  Tensor expected_;
  mutable TensorMismatch mismatch_;  // found by match(), shown by describe()
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
  mutable TensorMismatch mismatch_;
};

// ---- Inputs drawn for grading ----
// `tito grade` draws a secret seed for each grading run; tests that take their inputs from here see
// numbers nobody knew when the code was written, so the answers cannot be hard-coded. Under
// `tito module test` (no TITO_GRADING_SEED) the seed is a fixed public one: the same numbers every run.
// The generator restarts at every test case from (seed, case name), so a case draws the same inputs
// whichever other cases run before it.
std::mt19937_64& graded_rng();

// A tensor of the given sizes whose values are drawn uniformly from [low, high]: multiples of 1/8 for
// floating dtypes (so sums and products of a few of them are exact in float), integers for kLong.
Tensor random_tensor(IntArrayRef sizes, double low = -2, double high = 2, ScalarType dtype = ScalarType::Float);

// An integer drawn uniformly from [low, high], e.g. a size.
int64_t random_int(int64_t low, int64_t high);

// The expected result of an element-wise rule, worked out value by value without any op under test:
// a float tensor of x's sizes holding rule(v) for every value v of x (x a float tensor).
template <typename Rule>
Tensor map_values(const Tensor& x, Rule rule) {
  const Tensor dense = x.contiguous();
  Tensor result = empty(x.sizes(), ScalarType::Float);
  const float* in = dense.data_ptr<float>();
  float* out = result.data_ptr<float>();
  for (int64_t i = 0; i < dense.numel(); ++i) out[i] = static_cast<float>(rule(in[i]));
  return result;
}

namespace detail {
void restart_graded_rng(const std::string& case_name);  // called by the event listener at each case start
}  // namespace detail

inline TensorEqualsMatcher Equals(const Tensor& expected) { return TensorEqualsMatcher(expected); }

// torch::allclose's defaults; NaN is never close to anything, equal infinities are.
inline TensorAllCloseMatcher AllClose(const Tensor& expected, double rtol = 1e-5, double atol = 1e-8) {
  return TensorAllCloseMatcher(expected, rtol, atol);
}

}  // namespace testing
}  // namespace tinytorch
