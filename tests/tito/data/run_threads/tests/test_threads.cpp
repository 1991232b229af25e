// The threads fixture's tests; test_run_module_tests.cpp checks what tito makes of them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>

namespace fixture {
int64_t two_thread_sum(int64_t n);
}  // namespace fixture

TEST_CASE("two threads sum like one", "[points=5][threads]") { CHECK(fixture::two_thread_sum(4096) == 4096 * 4095 / 2); }

TEST_CASE("measured: a table", "[points=1][measure]") {
  std::printf("\n  size   time\n  4096   1.0 ms\n");
  CHECK(fixture::two_thread_sum(16) == 120);
}
