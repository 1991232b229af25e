// Catch2's main, compiled once for all of the project's own test executables.
// Catch2 v2 has no SKIP: a case that cannot check anything here calls SKIP_TEST (test_skip.h), and
// when every case that ran passed but one of them skipped, the run exits with kSkipExitCode, which
// ctest's SKIP_RETURN_CODE turns into "Skipped" (tests/CMakeLists.txt gives such cases an entry of
// their own, so a skip never hides the cases that did check something).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "test_skip.h"

namespace test_skip {
int& skipped_count() {
  static int count = 0;
  return count;
}
}  // namespace test_skip

int main(int argc, char* argv[]) {
  const int result = Catch::Session().run(argc, argv);
  if (result == 0 && test_skip::skipped_count() > 0) return test_skip::kSkipExitCode;
  return result;
}
