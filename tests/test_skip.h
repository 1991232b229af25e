#pragma once
// SKIP_TEST("why"): this case cannot check anything on this machine (missing data, a forbidden
// system feature). It stops the case, says why, and makes the test program exit with kSkipExitCode
// so that ctest reports the entry as skipped rather than passed (tests/catch_main.cpp).
#include <catch2/catch.hpp>

namespace test_skip {
constexpr int kSkipExitCode = 77;  // the automake convention, also used by SKIP_RETURN_CODE below
int& skipped_count();
}  // namespace test_skip

#define SKIP_TEST(reason)                  \
  do {                                     \
    ++test_skip::skipped_count();          \
    WARN("SKIPPED: " << reason);           \
    return;                                \
  } while (false)
