// Module 17's int8 GEMM (framework/src/17_acceleration/extra/int8_gemm.cpp, the instructor's extra) against the learner's loops it must
// equal exactly: ragged shapes (k not a multiple of 32 or 64, odd row counts, fewer than 4 weight
// rows), 1 and 2 threads, codes at the extremes (activations 0 and 127, weights -128 and 127).
// Runs whichever kernel this CPU has (AVX2 or AVX-512 VNNI) and names it.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "../test_skip.h"
#include "test_helpers.h"
#include "17_acceleration/extra/extras.h"  // internal: module 17's instructor extra
#include "tinytorch/quantized_kernels.h"

namespace {

struct Shape {
  int64_t m, n, k;
};

}  // namespace

TEST_CASE("int8 GEMM: the fast kernel equals the learner's loops", "[int8_gemm]") {
  INFO("int8 kernel: " << torch::native::int8_gemm_kernel());
  const int saved_threads = torch::get_num_threads();
  std::mt19937 rng(15);
  const std::vector<Shape> shapes = {{1, 1, 1},   {2, 4, 64},   {3, 5, 63},    {1, 3, 65},    {7, 9, 129},
                                     {64, 64, 1024}, {5, 130, 31}, {33, 17, 300}, {0, 4, 8},   {4, 0, 8},
                                     {4, 4, 0}};
  for (int threads : {1, 2}) {
    torch::set_num_threads(threads);
    for (const Shape& s : shapes) {
      for (bool extremes : {false, true}) {
        std::vector<uint8_t> a(static_cast<size_t>(s.m * s.k));
        std::vector<int8_t> w(static_cast<size_t>(s.n * s.k));
        std::uniform_int_distribution<int> codes_a(0, 127), codes_w(-128, 127), coin(0, 1);
        for (auto& v : a) v = static_cast<uint8_t>(extremes ? 127 * coin(rng) : codes_a(rng));
        for (auto& v : w) v = static_cast<int8_t>(extremes ? (coin(rng) ? 127 : -128) : codes_w(rng));
        std::vector<int32_t> fast(static_cast<size_t>(s.m * s.n), -1), loops(static_cast<size_t>(s.m * s.n), -2);
        const bool ran = torch::native::int8_gemm_fast(s.m, s.n, s.k, a.data(), w.data(), fast.data());
        torch::native::int8_gemm_loops(s.m, s.n, s.k, a.data(), w.data(), loops.data());
        if (!ran) continue;  // a CPU without AVX2: the learner's loops run, nothing to compare
        INFO("m " << s.m << " n " << s.n << " k " << s.k << " threads " << threads << " extremes " << extremes);
        CHECK(fast == loops);
      }
    }
  }
  torch::set_num_threads(saved_threads);
}

TEST_CASE("int8 GEMM: QuantizedLinear through the fast kernel matches its float layer", "[int8_gemm]") {
  torch::manual_seed(3);
  torch::nn::Linear fc(300, 70);
  const auto x = torch::randn({9, 300});
  auto q = torch::nn::QuantizedLinear::from_float(*fc, {x});
  torch::NoGradGuard no_grad;
  const auto y = q(x), expected = fc(x);
  CHECK((y - expected).abs().max().item<double>() < 0.05);
}

// The VNNI tile runs only on a CPU that has it; elsewhere this entry (framework_tests_needs_avx512_vnni)
// is reported as skipped, not passed.
TEST_CASE("int8 GEMM: the AVX-512 VNNI kernel equals the learner's loops", "[int8_gemm][needs_avx512_vnni]") {
  if (!__builtin_cpu_supports("avx512vnni") || !__builtin_cpu_supports("avx512bw"))
    SKIP_TEST("this CPU has no AVX-512 VNNI, so the VNNI kernel cannot run here");
  REQUIRE(std::string(torch::native::int8_gemm_kernel()) == "avx512_vnni");
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> codes_a(0, 127), codes_w(-128, 127);
  for (const Shape& s : {Shape{5, 130, 31}, Shape{33, 17, 300}, Shape{64, 64, 1024}}) {
    std::vector<uint8_t> a(static_cast<size_t>(s.m * s.k));
    std::vector<int8_t> w(static_cast<size_t>(s.n * s.k));
    for (auto& v : a) v = static_cast<uint8_t>(codes_a(rng));
    for (auto& v : w) v = static_cast<int8_t>(codes_w(rng));
    std::vector<int32_t> fast(static_cast<size_t>(s.m * s.n), -1), loops(static_cast<size_t>(s.m * s.n), -2);
    REQUIRE(torch::native::int8_gemm_fast(s.m, s.n, s.k, a.data(), w.data(), fast.data()));
    torch::native::int8_gemm_loops(s.m, s.n, s.k, a.data(), w.data(), loops.data());
    CHECK(fast == loops);
  }
}
