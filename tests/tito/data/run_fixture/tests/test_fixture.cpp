// The fixture module's tests; the case names and points are checked by test_run_module_tests.cpp.
#include <catch2/catch.hpp>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

namespace fixture {
int add(int a, int b);
int multiply(int a, int b);
int norm(int value);
int read_through(int* pointer);
int spin();
std::size_t hoard();
int divide(int a, int b);
int write_past_end();
}  // namespace fixture

namespace {
// Describes itself the way tinytorch::testing's matchers do, so the listener can split values.
class IsInt : public Catch::MatcherBase<int> {
 public:
  explicit IsInt(int expected) : expected_(expected) {}
  bool match(const int& actual) const override { return actual == expected_; }
  std::string describe() const override { return "\nexpected: " + std::to_string(expected_) + "\nthey differ"; }

 private:
  int expected_;
};
}  // namespace

TEST_CASE("add passes", "[fixture][points=10]") { CHECK(fixture::add(2, 3) == 5); }

TEST_CASE("multiply fails a comparison", "[fixture][points=10]") { CHECK(fixture::multiply(2, 3) == 6); }

TEST_CASE("multiply fails a matcher", "[fixture][points=3]") { CHECK_THAT(fixture::multiply(4, 5), IsInt(20)); }

TEST_CASE("norm is not implemented", "[fixture][points=5]") { CHECK(fixture::norm(3) == 3); }

TEST_CASE("norm rejects negatives with a clear error", "[fixture][points=2]") {
  CHECK_THROWS_WITH(fixture::norm(-1), Catch::Contains("norm of a negative"));
}

TEST_CASE("read_through crashes", "[fixture][points=5]") {
  CHECK(fixture::add(1, 1) == 3);  // a failure before the crash, which Catch2's own report would repeat
  std::cout << "learner's own print" << std::endl;
  int* volatile nowhere = nullptr;
  CHECK(fixture::read_through(nowhere) == 0);
}

TEST_CASE("names, with [special] \"characters\" still run", "[fixture][points=1]") { CHECK(true); }

TEST_CASE("spin never returns", "[fixture][points=5]") { CHECK(fixture::spin() == 0); }

TEST_CASE("hoard exhausts memory", "[fixture][points=5]") { CHECK(fixture::hoard() > 0); }

TEST_CASE("divide throws", "[fixture][points=2]") { CHECK(fixture::divide(1, 0) == 0); }

TEST_CASE("write_past_end overflows the heap", "[fixture][memory][points=3]") { CHECK(fixture::write_past_end() == 1); }

TEST_CASE("spin hangs again, the same way", "[fixture][points=1]") { CHECK(fixture::spin() == 1); }

TEST_CASE("add still passes after the crashes", "[fixture][points=4]") { CHECK(fixture::add(-1, 1) == 0); }

// The event line carries the byte as U+FFFD (curriculum/common/src/json_text.h), so the failure still arrives.
TEST_CASE("a message with a byte that is not UTF-8 still arrives", "[fixture][points=1]") { FAIL_CHECK("bad \xff byte"); }

// What testing.h's LABEL_CHECKS expands to (the fixture links no tinytorch), and a long list compared
// whole: the listener reports the label apart from the context, and both lists near their first difference.
TEST_CASE("a labelled check shows long lists near their first difference", "[fixture][points=1]") {
  std::vector<int> got(300, 1), wanted(300, 1);
  got[141] = 7;
  INTERNAL_CATCH_INFO("LABEL_CHECKS", "the long list");
  INFO("context stays in the message");
  CHECK(got == wanted);
}

TEST_CASE("a hidden case is not graded", "[.][fixture]") { CHECK(false); }
