// The fast matrix multiply (framework/src/17_acceleration/gemm.cpp, module 17's) against the naive triple loop it must equal: every
// micro-kernel this CPU has, 1 and 2 threads, ragged shapes (not multiples of the tile, the vector
// width or the cache blocks), 1-row and 1-column matrices, strided and transposed inputs, double
// and int64, and mm/bmm/matmul on views.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "test_helpers.h"
#include <tinytorch/acceleration_kernels.h>  // module 17's GEMM

namespace {

struct Shape {
  int64_t m, n, k;
};

// Ragged against every blocking in gemm.cpp: tiles 12x32 / 6x16 / 4x8, KC 256, MC 120-144, NC 2048,
// and the unpacked small-product path (at most kSmallGemmMaxMultiplyAdds; 32 / 8 / 1 columns at a
// time, 8-float dot products with 4 columns at a time and a scalar tail).
const std::vector<Shape> kRaggedShapes = {
    {1, 1, 1},     {1, 37, 5},    {37, 1, 5},     {1, 1, 300},   {13, 17, 19},  {12, 32, 256}, {25, 65, 257},
    {6, 16, 7},    {7, 15, 1},    {145, 33, 300}, {300, 1, 300}, {1, 300, 513}, {50, 2100, 3}, {0, 5, 3},
    {5, 0, 3},     {4, 3, 0},     {97, 97, 97},   {9, 45, 23},   {33, 70, 40},  {32, 10, 32},  {64, 32, 32},
};
static_assert(9 * 45 * 23 <= torch::cpublas::kSmallGemmMaxMultiplyAdds &&
                  33 * 70 * 40 <= torch::cpublas::kSmallGemmMaxMultiplyAdds &&
                  97 * 97 * 97 > torch::cpublas::kSmallGemmMaxMultiplyAdds,
              "the shapes must exercise both the small and the packed path");

// The plain triple loop the fast GEMM must equal (module 01's definition, on raw strides).
template <typename T>
void gemm_reference(int64_t m, int64_t n, int64_t k, const T* a, int64_t a_rs, int64_t a_cs, const T* b, int64_t b_rs,
                    int64_t b_cs, T* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      T dot = 0;
      for (int64_t p = 0; p < k; ++p) dot += a[i * a_rs + p * a_cs] * b[p * b_rs + j * b_cs];
      c[i * ldc + j] = dot;
    }
  }
}

// Values with a non-trivial fractional part, so that a wrong index shows in the sum.
template <typename T>
std::vector<T> pattern(int64_t count, int seed) {
  std::vector<T> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    values[i] = static_cast<T>(((i * 37 + seed * 11) % 23) - 11) / static_cast<T>(std::is_integral_v<T> ? 1 : 8);
  }
  return values;
}

// Fast vs reference on A and B read through the given element strides (row stride, column stride).
template <typename T>
void check_with_strides(const Shape& s, int64_t a_rs, int64_t a_cs, int64_t b_rs, int64_t b_cs,
                        const std::string& label) {
  const auto a = pattern<T>(std::max<int64_t>((s.m - 1) * a_rs + (s.k - 1) * a_cs + 1, 1), 1);
  const auto b = pattern<T>(std::max<int64_t>((s.k - 1) * b_rs + (s.n - 1) * b_cs + 1, 1), 2);
  // ldc wider than n: the gap must stay untouched.
  const int64_t ldc = s.n + 3;
  const T sentinel = static_cast<T>(-777);
  std::vector<T> fast(static_cast<size_t>(std::max<int64_t>(s.m * ldc, 1)), sentinel);
  std::vector<T> expected(fast.size(), sentinel);
  torch::cpublas::gemm(s.m, s.n, s.k, a.data(), a_rs, a_cs, b.data(), b_rs, b_cs, fast.data(), ldc);
  gemm_reference(s.m, s.n, s.k, a.data(), a_rs, a_cs, b.data(), b_rs, b_cs, expected.data(), ldc);
  INFO(label << " m=" << s.m << " n=" << s.n << " k=" << s.k << " A strides (" << a_rs << ", " << a_cs
             << ") B strides (" << b_rs << ", " << b_cs << ")");
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      const T got = fast[i * ldc + j], want = expected[i * ldc + j];
      if (j >= s.n) {
        REQUIRE(got == sentinel);
      } else if (std::is_integral_v<T>) {
        REQUIRE(got == want);
      } else {
        // Blocking changes the order of the sum: allow rounding that grows with k.
        REQUIRE(std::abs(static_cast<double>(got - want)) <= 1e-5 * (1.0 + static_cast<double>(s.k)));
      }
    }
  }
}

// Fast vs reference on row-major (or, with transposed=true, column-major) A and B.
template <typename T>
void check_against_reference(const Shape& s, bool transpose_a, bool transpose_b, const std::string& label) {
  const int64_t a_rs = transpose_a ? 1 : s.k, a_cs = transpose_a ? s.m : 1;
  const int64_t b_rs = transpose_b ? 1 : s.n, b_cs = transpose_b ? s.k : 1;
  check_with_strides<T>(s, a_rs, a_cs, b_rs, b_cs, label);
}

// Every layout the packing and the unpacked paths tell apart: row-major and transposed A and B, and
// both operands strided in both directions (every second element of a wider matrix).
void check_every_layout(const Shape& s, const std::string& label) {
  for (bool transpose_a : {false, true}) {
    for (bool transpose_b : {false, true}) check_against_reference<float>(s, transpose_a, transpose_b, label);
  }
  check_with_strides<float>(s, 2 * s.k + 1, 2, 2, 2 * s.k + 3, label + " strided");
  check_with_strides<float>(s, 2, 2 * s.m + 1, 2 * s.n + 3, 2, label + " strided");
}

// Runs `body` once per float micro-kernel and per thread count, restoring both afterwards.
template <typename Body>
void for_each_kernel_and_thread_count(Body body) {
  const int saved_threads = torch::get_num_threads();
  for (const std::string& kernel : torch::cpublas::available_float_kernels()) {
    torch::cpublas::set_float_kernel(kernel);
    for (int threads : {1, 2}) {
      torch::set_num_threads(threads);
      body(kernel + " threads=" + std::to_string(threads));
    }
  }
  torch::cpublas::set_float_kernel("");
  torch::set_num_threads(saved_threads);
}

}  // namespace

TEST_CASE("gemm equals the triple loop on ragged shapes, every kernel, 1 and 2 threads", "[gemm][threads]") {
  REQUIRE(torch::cpublas::available_float_kernels().back() == "generic");
  for_each_kernel_and_thread_count([](const std::string& label) {
    for (const Shape& s : kRaggedShapes) {
      for (bool transpose_a : {false, true}) {
        for (bool transpose_b : {false, true}) check_against_reference<float>(s, transpose_a, transpose_b, label);
      }
    }
  });
}

TEST_CASE("gemm above the thread threshold splits rows between threads and still matches", "[gemm][threads]") {
  // 200 x 300 x 300 = 18M multiply-adds: above kGemmParallelThreshold, and 200 rows do not split
  // evenly into 2 threads' whole tiles.
  REQUIRE(200 * 300 * 300 >= torch::cpublas::kGemmParallelThreshold);
  for_each_kernel_and_thread_count([](const std::string& label) {
    check_against_reference<float>({200, 300, 300}, false, false, label);
    check_against_reference<float>({200, 300, 300}, true, true, label);
  });
}

TEST_CASE("gemm on few rows (m = 1..7), k = 1, tile-sized and strided operands, every kernel, 1 and 2 threads",
          "[gemm][threads]") {
  // m <= kGemmFewRows reads A and B in place whatever the size (threads split C's columns above
  // kGemmParallelThreshold); m = 5..7 is a ragged edge of every tile. The attention-sized products
  // (64 x 64 x 32, 64 x 32 x 64) sit at the small-product bound, where the SIMD path declines
  // products of a whole 12 x 32 tile in favour of the packed one. k = 1: one depth step per panel;
  // k = 17, 33: the 16-step transposes of the SIMD packing with a ragged end.
  REQUIRE(torch::cpublas::kGemmFewRows == 4);
  REQUIRE(3 * 1500 * 1000 >= torch::cpublas::kGemmParallelThreshold);
  REQUIRE(64 * 64 * 32 <= torch::cpublas::kSmallGemmMaxMultiplyAdds);
  const std::vector<Shape> shapes = {
      {1, 300, 513}, {2, 300, 513}, {3, 77, 600},  {4, 129, 1000}, {5, 300, 513}, {6, 65, 300},  {7, 1030, 257},
      {1, 1, 1},     {3, 40, 1},    {4, 1, 37},    {7, 33, 1},     {2, 9, 17},    {13, 45, 33},  {64, 64, 32},
      {64, 32, 64},  {12, 32, 16},  {12, 32, 15},  {11, 31, 16},   {3, 1500, 1000}};
  for_each_kernel_and_thread_count([&](const std::string& label) {
    for (const Shape& s : shapes) check_every_layout(s, label);
  });
}

TEST_CASE("gemm for double and int64 matches the triple loop", "[gemm]") {
  for (const Shape& s : kRaggedShapes) {
    check_against_reference<double>(s, false, false, "double");
    check_against_reference<double>(s, true, false, "double");
    check_against_reference<int64_t>(s, false, true, "int64");
  }
}

TEST_CASE("mm, bmm and matmul on non-contiguous views equal the same product on contiguous copies", "[gemm]") {
  torch::manual_seed(7);
  for_each_kernel_and_thread_count([](const std::string& label) {
    INFO(label);
    const auto big = torch::randn({70, 90});
    const auto w = torch::randn({33, 45});
    // Every second row and a column window: strides (180, 1) with an offset.
    const auto rows = big.slice(0, 1, 70, 2).narrow(1, 3, 45);  // 35 x 45
    REQUIRE_FALSE(rows.is_contiguous());
    const auto fast = torch::mm(rows, w.t());  // w.t() is a transposed view
    const auto expected = torch::mm(rows.contiguous(), w.t().contiguous());
    REQUIRE(test_helpers::shape(fast) == std::vector<int64_t>{35, 33});
    REQUIRE(torch::allclose(fast, expected, 1e-5, 1e-5));

    // A column view (1 column, stride 90) times a row.
    const auto column = big.narrow(1, 5, 1);
    REQUIRE(torch::allclose(torch::mm(column, big.narrow(0, 0, 1)),
                            torch::mm(column.contiguous(), big.narrow(0, 0, 1).contiguous()), 1e-5, 1e-5));

    // bmm over a permuted batch (batch stride not the largest) and an expanded (stride 0) batch.
    const auto batched = torch::randn({13, 4, 29}).permute({1, 0, 2});   // 4 x 13 x 29
    const auto shared = torch::randn({29, 17}).unsqueeze(0).expand({4, 29, 17});
    const auto product = torch::bmm(batched, shared);
    for (int64_t s = 0; s < 4; ++s) {
      REQUIRE(torch::allclose(product[s], torch::mm(batched[s].contiguous(), shared[s].contiguous()), 1e-5, 1e-5));
    }
    REQUIRE(torch::allclose(torch::matmul(batched, shared[0]), product, 1e-5, 1e-5));
  });
}

TEST_CASE("mm of double and int64 tensors uses the same kernel and gives exact integers", "[gemm]") {
  const auto a = torch::arange(0, 35, torch::kLong).view({5, 7});
  const auto b = torch::arange(0, 21, torch::kLong).view({7, 3});
  const auto product = torch::mm(a, b);
  REQUIRE(product.scalar_type() == torch::kLong);
  // Row 0: sum_k k * (3k + j) for k < 7 = 3 * 91 + j * 21.
  REQUIRE(product[0][0].item<int64_t>() == 273);
  REQUIRE(product[0][2].item<int64_t>() == 273 + 42);
  const auto ad = a.to(torch::kDouble), bd = b.to(torch::kDouble);
  REQUIRE(test_helpers::values(torch::mm(ad, bd)) == test_helpers::values(product));
  REQUIRE(test_helpers::values(torch::mm(bd.t(), ad.t())) == test_helpers::values(product.t()));
}

TEST_CASE("set_float_kernel refuses a kernel the CPU does not have, naming the choices", "[gemm]") {
  try {
    torch::cpublas::set_float_kernel("neon9000");
    FAIL("expected an error");
  } catch (const c10::Error& error) {
    const std::string message = error.what();
    REQUIRE(message.find("'neon9000' is not available") != std::string::npos);
    REQUIRE(message.find("generic") != std::string::npos);
  }
  REQUIRE(torch::cpublas::float_kernel() == torch::cpublas::available_float_kernels().front());
}
