// Module 01 (Tensor): the graded tests. Every expected value here was worked out by hand (the
// lesson shows the arithmetic), never computed with the code under test. Each case is tagged with
// its points ([points=N], 100 in all) and a topic; hints.json has a hint per case name.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <cstdint>
#include <limits>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::map_values;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Sizes = std::vector<int64_t>;

namespace {

// [[1, 2, 3], [4, 5, 6]]: the matrix most cases below reduce, reshape or multiply.
torch::Tensor one_to_six() { return torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}); }

// Element [i][j] of a float matrix, read without any op under test.
float entry(const torch::Tensor& m, int64_t i, int64_t j) { return m.contiguous().data_ptr<float>()[i * m.size(1) + j]; }

// A rows x columns float matrix whose element [i][j] is value(i, j): expected results built by hand.
template <typename Value>
torch::Tensor matrix_of(int64_t rows, int64_t columns, Value value) {
  auto result = torch::empty({rows, columns});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) result.data_ptr<float>()[i * columns + j] = static_cast<float>(value(i, j));
  return result;
}

// The cases below end with inputs drawn by random_tensor: under `tito grade` they come from a secret
// seed, so only code that computes the answer gets them right (`tito module test` uses a fixed seed).

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 4: element-wise arithmetic and broadcasting (elementwise.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("element-wise add sub mul and div on same-shape tensors", "[points=5][elementwise]") {
  auto a = torch::tensor({1.0, 2.0, 3.0});
  auto b = torch::tensor({4.0, 5.0, 6.0});
  CHECK_THAT(a + b, Equals(torch::tensor({5.0, 7.0, 9.0})));
  CHECK_THAT(b - a, Equals(torch::tensor({3.0, 3.0, 3.0})));
  CHECK_THAT(a * b, Equals(torch::tensor({4.0, 10.0, 18.0})));
  CHECK_THAT(b / a, AllClose(torch::tensor({4.0, 2.5, 2.0}), 1e-6, 1e-6));

  // Same shapes in 2-D: element [i][j] meets element [i][j].
  auto m = one_to_six();
  CHECK_THAT(m + m, Equals(torch::tensor({{2.0, 4.0, 6.0}, {8.0, 10.0, 12.0}})));
  CHECK_THAT(m * m, Equals(torch::tensor({{1.0, 4.0, 9.0}, {16.0, 25.0, 36.0}})));

  // Integers stay integers for + - *.
  CHECK_THAT(torch::tensor({1, 2, 3}) + torch::tensor({10, 20, 30}), Equals(torch::tensor({11, 22, 33})));

  // Division by zero is not an error: IEEE floats give infinities.
  auto inf = std::numeric_limits<float>::infinity();
  CHECK_THAT(torch::tensor({1.0, -1.0}) / torch::tensor({0.0, 0.0}), Equals(torch::tensor({inf, -inf})));

  // Drawn inputs: every element of the result from the same element of each side.
  auto x = random_tensor({3, 4}), y = random_tensor({3, 4}, 0.5, 2);
  CHECK_THAT(x + y, Equals(matrix_of(3, 4, [&](int64_t i, int64_t j) { return entry(x, i, j) + entry(y, i, j); })));
  CHECK_THAT(x - y, Equals(matrix_of(3, 4, [&](int64_t i, int64_t j) { return entry(x, i, j) - entry(y, i, j); })));
  CHECK_THAT(x * y, Equals(matrix_of(3, 4, [&](int64_t i, int64_t j) { return entry(x, i, j) * entry(y, i, j); })));
  CHECK_THAT(x / y, AllClose(matrix_of(3, 4, [&](int64_t i, int64_t j) { return entry(x, i, j) / entry(y, i, j); }), 1e-6, 1e-6));
}

TEST_CASE("a plain number works on either side of an operator", "[points=4][elementwise]") {
  auto a = torch::tensor({1.0, 2.0, 3.0});
  auto b = torch::tensor({4.0, 5.0, 6.0});
  CHECK_THAT(a + 10, Equals(torch::tensor({11.0, 12.0, 13.0})));
  CHECK_THAT(10 + a, Equals(torch::tensor({11.0, 12.0, 13.0})));
  CHECK_THAT(10 - a, Equals(torch::tensor({9.0, 8.0, 7.0})));
  CHECK_THAT(a - 2, Equals(torch::tensor({-1.0, 0.0, 1.0})));
  CHECK_THAT(a * 2, Equals(torch::tensor({2.0, 4.0, 6.0})));
  CHECK_THAT(2 * a, Equals(torch::tensor({2.0, 4.0, 6.0})));
  CHECK_THAT(b / 2, AllClose(torch::tensor({2.0, 2.5, 3.0}), 1e-6, 1e-6));
  CHECK_THAT(12 / b, AllClose(torch::tensor({3.0, 2.4, 2.0}), 1e-6, 1e-6));
  CHECK_THAT((a - 2) / 2, AllClose(torch::tensor({-0.5, 0.0, 0.5}), 1e-6, 1e-6));
}

TEST_CASE("broadcasting a 2x2 matrix with a length-2 vector adds it to every row",
          "[points=5][broadcast]") {
  auto m = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  auto row = torch::tensor({10.0, 20.0});
  CHECK_THAT(m + row, Equals(torch::tensor({{11.0, 22.0}, {13.0, 24.0}})));
  CHECK_THAT(row + m, Equals(torch::tensor({{11.0, 22.0}, {13.0, 24.0}})));  // either order
  CHECK_THAT(m - row, Equals(torch::tensor({{-9.0, -18.0}, {-7.0, -16.0}})));

  // (4,3) - (3,) is legal: the vector is subtracted from each of the four rows.
  auto four_rows = torch::ones({4, 3});
  auto result = four_rows - torch::tensor({1.0, 2.0, 3.0});
  CHECK(result.sizes() == Sizes{4, 3});
  CHECK_THAT(result, Equals(torch::tensor({{0.0, -1.0, -2.0}, {0.0, -1.0, -2.0},
                                           {0.0, -1.0, -2.0}, {0.0, -1.0, -2.0}})));

  // Drawn sizes and values: the vector meets every row.
  const int64_t rows = random_int(2, 5), columns = random_int(2, 5);
  auto drawn = random_tensor({rows, columns});
  auto vector = random_tensor({columns});
  CHECK_THAT(drawn + vector, Equals(matrix_of(rows, columns, [&](int64_t i, int64_t j) {
    return entry(drawn, i, j) + vector.data_ptr<float>()[j];
  })));
}

TEST_CASE("broadcasting a 4x1 column with a 1x3 row makes a 4x3 table", "[points=5][broadcast]") {
  auto column = torch::tensor({{1.0}, {2.0}, {3.0}, {4.0}});  // (4, 1)
  auto row = torch::tensor({{1.0, 2.0, 3.0}});                 // (1, 3)
  auto table = column * row;
  CHECK(table.sizes() == Sizes{4, 3});
  CHECK_THAT(table, Equals(torch::tensor({{1.0, 2.0, 3.0}, {2.0, 4.0, 6.0},
                                          {3.0, 6.0, 9.0}, {4.0, 8.0, 12.0}})));
  CHECK_THAT(row + column, Equals(torch::tensor({{2.0, 3.0, 4.0}, {3.0, 4.0, 5.0},
                                                 {4.0, 5.0, 6.0}, {5.0, 6.0, 7.0}})));

  // Three dimensions, sizes aligned from the right: (2,1,3) / (2,1) -> (2,2,3).
  auto a = torch::tensor({{{2.0, 4.0, 6.0}}, {{8.0, 10.0, 12.0}}});  // (2, 1, 3)
  auto b = torch::tensor({{1.0}, {2.0}});                            // (2, 1)
  auto quotient = a / b;
  CHECK(quotient.sizes() == Sizes{2, 2, 3});
  CHECK_THAT(quotient, AllClose(torch::tensor({{{2.0, 4.0, 6.0}, {1.0, 2.0, 3.0}},
                                               {{8.0, 10.0, 12.0}, {4.0, 5.0, 6.0}}}),
                                1e-6, 1e-6));
}

TEST_CASE("0-dim scalar tensors broadcast against any shape", "[points=3][broadcast]") {
  auto scalar = torch::tensor(2.0);
  REQUIRE(scalar.dim() == 0);
  auto m = one_to_six();
  CHECK_THAT(m * scalar, Equals(torch::tensor({{2.0, 4.0, 6.0}, {8.0, 10.0, 12.0}})));
  CHECK_THAT(scalar - m, Equals(torch::tensor({{1.0, 0.0, -1.0}, {-2.0, -3.0, -4.0}})));

  // Two 0-dim tensors give a 0-dim tensor.
  auto sum = torch::tensor(3.0) + torch::tensor(4.5);
  CHECK(sum.dim() == 0);
  CHECK(sum.item<float>() == Approx(7.5f));
}

TEST_CASE("int64 mixed with float promotes to float32", "[points=3][dtype]") {
  auto ints = torch::tensor({1, 2, 3});
  REQUIRE(ints.dtype() == torch::kInt64);

  // int64 tensor + float32 tensor -> float32 (either order).
  CHECK_THAT(ints + torch::tensor({0.5, 0.5, 0.5}), Equals(torch::tensor({1.5, 2.5, 3.5})));
  CHECK_THAT(torch::tensor({0.5, 0.5, 0.5}) + ints, Equals(torch::tensor({1.5, 2.5, 3.5})));
  // A floating number promotes to the default float (float32), not to double.
  CHECK_THAT(ints * 0.5, Equals(torch::tensor({0.5, 1.0, 1.5})));
  // An integer number keeps int64.
  CHECK_THAT(ints * 2, Equals(torch::tensor({2, 4, 6})));
  // `/` is true division: int64 / int64 gives float32.
  CHECK_THAT(ints / 2, Equals(torch::tensor({0.5, 1.0, 1.5})));
  CHECK_THAT(ints / torch::tensor({2, 2, 2}), Equals(torch::tensor({0.5, 1.0, 1.5})));
  // float32 with float64 -> float64.
  auto doubles = torch::ones({3}, torch::kFloat64);
  CHECK((torch::tensor({1.0, 2.0, 3.0}) + doubles).dtype() == torch::kFloat64);
}

TEST_CASE("incompatible shapes raise the LibTorch broadcast error", "[points=3][broadcast]") {
  CHECK_THROWS_WITH(torch::ones({2, 3}) + torch::ones({2, 4}),
                    Catch::Contains("The size of tensor a (3) must match the size of tensor b (4) "
                                    "at non-singleton dimension 1"));
  CHECK_THROWS_WITH(torch::ones({2, 3}) * torch::ones({4}),
                    Catch::Contains("must match the size of tensor b (4) at non-singleton dimension 1"));
  // Dimensions are counted in the result: (2,3) against (4,1,2) fails at dimension 2.
  CHECK_THROWS_WITH(torch::ones({2, 3}) - torch::ones({4, 1, 2}),
                    Catch::Contains("The size of tensor a (3) must match the size of tensor b (2) "
                                    "at non-singleton dimension 2"));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: views (shape_ops.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("reshape and view infer one -1 dimension", "[points=5][shape]") {
  auto m = one_to_six();
  auto three_by_two = m.reshape({3, 2});
  CHECK_THAT(three_by_two, Equals(torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}})));
  CHECK(m.reshape({2, -1}).sizes() == Sizes{2, 3});
  CHECK(m.reshape({-1}).sizes() == Sizes{6});
  CHECK_THAT(m.view({-1, 2}), Equals(torch::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}})));
  CHECK(m.view({1, -1, 3}).sizes() == Sizes{1, 2, 3});

  auto x = torch::arange(24);
  CHECK(x.reshape({2, 3, 4}).sizes() == Sizes{2, 3, 4});
  CHECK(x.reshape({2, 3, 4}).strides() == Sizes{12, 4, 1});
  CHECK(x.reshape({2, 3, 4}).reshape({2, -1}).sizes() == Sizes{2, 12});
  CHECK(x.view({-1, 4}).sizes() == Sizes{6, 4});

  // A view of a contiguous tensor shares its storage: no copy was made.
  CHECK(m.view({6}).data_ptr() == m.data_ptr());
}

TEST_CASE("reshape rejects impossible shapes with the LibTorch messages", "[points=4][shape]") {
  auto six = torch::arange(6);
  CHECK_THROWS_WITH(six.reshape({2, 2}), Catch::Contains("shape '[2, 2]' is invalid for input of size 6"));
  CHECK_THROWS_WITH(six.view({4, -1}), Catch::Contains("shape '[4, -1]' is invalid for input of size 6"));
  CHECK_THROWS_WITH(six.reshape({-1, -1}), Catch::Contains("only one dimension can be inferred"));

  // A transposed tensor cannot be viewed flat; reshape copies instead.
  auto transposed = one_to_six().t();
  CHECK_THROWS_WITH(transposed.view({6}), Catch::Contains("Use .reshape(...) instead"));
  CHECK_THAT(transposed.reshape({6}), Equals(torch::tensor({1.0, 4.0, 2.0, 5.0, 3.0, 6.0})));
}

TEST_CASE("transpose and t swap sizes and strides and share storage", "[points=5][views]") {
  auto m = one_to_six();
  auto t = m.t();
  CHECK(t.sizes() == Sizes{3, 2});
  CHECK(t.strides() == Sizes{1, 3});
  CHECK_FALSE(t.is_contiguous());
  CHECK(t.data_ptr() == m.data_ptr());
  CHECK_THAT(t, Equals(torch::tensor({{1.0, 4.0}, {2.0, 5.0}, {3.0, 6.0}})));
  CHECK_THAT(m.transpose(0, 1), Equals(torch::tensor({{1.0, 4.0}, {2.0, 5.0}, {3.0, 6.0}})));
  CHECK_THAT(m.transpose(-1, -2), Equals(torch::tensor({{1.0, 4.0}, {2.0, 5.0}, {3.0, 6.0}})));

  // The lesson's (2,3,4) example: transpose(0, 2) gives sizes (4,3,2) and strides (1,4,12).
  auto x = torch::arange(24).reshape({2, 3, 4});
  auto y = x.transpose(0, 2);
  CHECK(y.sizes() == Sizes{4, 3, 2});
  CHECK(y.strides() == Sizes{1, 4, 12});
  CHECK(y[3][2][1].item<int64_t>() == 23);  // x[1][2][3]
  CHECK(y[1][0][1].item<int64_t>() == 13);  // x[1][0][1]

  // Element-wise ops read their inputs through strides: [[1,2],[3,4]] + its transpose.
  auto square = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  CHECK_THAT(square + square.t(), Equals(torch::tensor({{2.0, 5.0}, {5.0, 8.0}})));
  // contiguous() makes a row-major copy of the transposed values.
  CHECK_THAT(square.t().contiguous(), Equals(torch::tensor({{1.0, 3.0}, {2.0, 4.0}})));
  CHECK(square.t().contiguous().strides() == Sizes{2, 1});
}

TEST_CASE("permute reorders strides and a write through a view reaches the original",
          "[points=5][views]") {
  auto x = torch::arange(24).reshape({2, 3, 4});
  auto p = x.permute({2, 0, 1});
  CHECK(p.sizes() == Sizes{4, 2, 3});
  CHECK(p.strides() == Sizes{1, 12, 4});
  CHECK(p.data_ptr() == x.data_ptr());
  CHECK(p[3][1][2].item<int64_t>() == 23);  // x[1][2][3]
  CHECK(p[2][0][1].item<int64_t>() == 6);   // x[0][1][2]
  CHECK(x.transpose(1, 2).strides() == Sizes{12, 1, 4});

  // Writing through a view changes the tensor it views: they share one storage.
  auto zeros = torch::zeros({2, 3});
  auto view = zeros.t();
  view[2][1] = 5.0;  // the element x[1][2]
  CHECK_THAT(zeros, Equals(torch::tensor({{0.0, 0.0, 0.0}, {0.0, 0.0, 5.0}})));
  auto flat = zeros.view({6});
  flat[0] = 7.0;
  CHECK(zeros[0][0].item<float>() == Approx(7.0f));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: matrix multiplication (matmul.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("mm multiplies 2x2 by 2x2 and 2x3 by 3x2", "[points=6][matmul]") {
  auto a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  auto b = torch::tensor({{5.0, 6.0}, {7.0, 8.0}});
  CHECK_THAT(torch::mm(a, b), Equals(torch::tensor({{19.0, 22.0}, {43.0, 50.0}})));
  CHECK_THAT(a.mm(b), Equals(torch::tensor({{19.0, 22.0}, {43.0, 50.0}})));
  CHECK_THAT(torch::matmul(b, a), Equals(torch::tensor({{23.0, 34.0}, {31.0, 46.0}})));

  auto c = one_to_six();                                                // (2, 3)
  auto d = torch::tensor({{7.0, 8.0}, {9.0, 10.0}, {11.0, 12.0}});      // (3, 2)
  CHECK_THAT(c.matmul(d), Equals(torch::tensor({{58.0, 64.0}, {139.0, 154.0}})));
  auto product = torch::mm(d, c);                                       // (3, 3)
  CHECK(product.sizes() == Sizes{3, 3});
  CHECK_THAT(product, Equals(torch::tensor({{39.0, 54.0, 69.0}, {49.0, 68.0, 87.0},
                                            {59.0, 82.0, 105.0}})));
  // Integer matrices multiply exactly.
  CHECK_THAT(torch::mm(torch::tensor({{1, 2}, {3, 4}}), torch::tensor({{5, 6}, {7, 8}})),
             Equals(torch::tensor({{19, 22}, {43, 50}})));

  // Drawn sizes and values: element [i][j] is row i of a times column j of b.
  const int64_t n = random_int(1, 5), k = random_int(1, 6), m = random_int(1, 5);
  auto left = random_tensor({n, k}), right = random_tensor({k, m});
  auto expected = matrix_of(n, m, [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < k; ++p) sum += double(entry(left, i, p)) * entry(right, p, j);
    return sum;
  });
  CHECK_THAT(torch::mm(left, right), AllClose(expected, 1e-5, 1e-5));
}

TEST_CASE("matmul handles matrix @ vector and vector @ vector", "[points=4][matmul]") {
  auto m = one_to_six();
  auto v = torch::tensor({1.0, 2.0, 3.0});
  auto mv = torch::matmul(m, v);
  CHECK(mv.sizes() == Sizes{2});
  CHECK_THAT(mv, Equals(torch::tensor({14.0, 32.0})));

  auto vm = torch::matmul(torch::tensor({1.0, 2.0}), m);
  CHECK(vm.sizes() == Sizes{3});
  CHECK_THAT(vm, Equals(torch::tensor({9.0, 12.0, 15.0})));

  auto dot = torch::matmul(v, torch::tensor({4.0, 5.0, 6.0}));
  CHECK(dot.dim() == 0);
  CHECK(dot.item<float>() == Approx(32.0f));
}

TEST_CASE("bmm and batched matmul broadcast the batch dimensions", "[points=4][matmul]") {
  auto a = torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}, {{1.0, 0.0}, {0.0, 1.0}}});  // (2, 2, 2)
  auto b = torch::tensor({{{1.0}, {1.0}}, {{2.0}, {3.0}}});                      // (2, 2, 1)
  auto batched = torch::bmm(a, b);
  CHECK(batched.sizes() == Sizes{2, 2, 1});
  CHECK_THAT(batched, Equals(torch::tensor({{{3.0}, {7.0}}, {{2.0}, {3.0}}})));
  // mat2 a view whose matrices lie 6 elements apart (a narrowed batch), not n m = 4: bmm must step by
  // its batch stride.
  auto stacked = torch::tensor({{{1.0, 0.0}, {0.0, 1.0}, {9.0, 9.0}}, {{2.0, 0.0}, {0.0, 2.0}, {9.0, 9.0}}});
  CHECK_THAT(torch::bmm(a, stacked.narrow(1, 0, 2)),
             Equals(torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}, {{2.0, 0.0}, {0.0, 2.0}}})));

  // (2,2,2) @ (2,2): one matrix applied to every batch (it swaps the columns).
  auto swap = torch::tensor({{0.0, 1.0}, {1.0, 0.0}});
  CHECK_THAT(torch::matmul(a, swap), Equals(torch::tensor({{{2.0, 1.0}, {4.0, 3.0}},
                                                           {{0.0, 1.0}, {1.0, 0.0}}})));

  // Batch sizes broadcast: (1,2,2) @ (3,2,1) -> (3,2,1).
  auto single = torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}});
  auto columns = torch::tensor({{{1.0}, {0.0}}, {{0.0}, {1.0}}, {{1.0}, {1.0}}});
  auto broadcast = torch::matmul(single, columns);
  CHECK(broadcast.sizes() == Sizes{3, 2, 1});
  CHECK_THAT(broadcast, Equals(torch::tensor({{{1.0}, {3.0}}, {{2.0}, {4.0}}, {{3.0}, {7.0}}})));
}

TEST_CASE("mm rejects mismatched inner dimensions", "[points=3][matmul]") {
  CHECK_THROWS_WITH(torch::mm(torch::ones({2, 3}), torch::ones({4, 5})),
                    Catch::Contains("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"));
  CHECK_THROWS_WITH(torch::matmul(torch::ones({2, 3}), torch::ones({4, 5})),
                    Catch::Contains("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"));
  CHECK_THROWS_WITH(torch::bmm(torch::ones({2, 3}), torch::ones({2, 3, 4})),
                    Catch::Contains("batch1 must be a 3D tensor"));
  CHECK_THROWS_WITH(torch::matmul(torch::tensor(1.0), torch::ones({4})),
                    Catch::Contains("both arguments to matmul need to be at least 1D"));
}

TEST_CASE("matmul reads transposed (non-contiguous) inputs correctly", "[points=3][matmul]") {
  auto a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  CHECK_THAT(a.t().matmul(a), Equals(torch::tensor({{10.0, 14.0}, {14.0, 20.0}})));
  CHECK_THAT(a.matmul(a.t()), Equals(torch::tensor({{5.0, 11.0}, {11.0, 25.0}})));

  // x @ W.t(), the linear layer's product, with W stored (out, in) = (2, 3).
  auto x = one_to_six();
  auto w = torch::tensor({{1.0, 0.0, 1.0}, {0.0, 1.0, 0.0}});
  CHECK_THAT(torch::mm(x, w.t()), Equals(torch::tensor({{4.0, 2.0}, {10.0, 5.0}})));
  CHECK_THAT(torch::matmul(w.t().t(), x.t()), Equals(torch::tensor({{4.0, 10.0}, {2.0, 5.0}})));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 7: reductions (reductions.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("sum and mean over all elements or one dim with keepdim", "[points=5][reductions]") {
  auto m = one_to_six();
  auto total = m.sum();
  CHECK(total.dim() == 0);
  CHECK(total.item<float>() == Approx(21.0f));
  CHECK_THAT(m.sum(0), Equals(torch::tensor({5.0, 7.0, 9.0})));
  CHECK_THAT(m.sum(1), Equals(torch::tensor({6.0, 15.0})));
  auto kept = m.sum(1, /*keepdim=*/true);
  CHECK(kept.sizes() == Sizes{2, 1});
  CHECK_THAT(kept, Equals(torch::tensor({{6.0}, {15.0}})));

  CHECK(m.mean().item<float>() == Approx(3.5f));
  CHECK_THAT(m.mean(0), AllClose(torch::tensor({2.5, 3.5, 4.5}), 1e-6, 1e-6));
  CHECK_THAT(m.mean(1, /*keepdim=*/true), AllClose(torch::tensor({{2.0}, {5.0}}), 1e-6, 1e-6));

  // Integer sums stay int64.
  auto int_total = torch::tensor({{1, 2}, {3, 4}}).sum();
  CHECK(int_total.dtype() == torch::kInt64);
  CHECK(int_total.item<int64_t>() == 10);

  // Drawn values: each row's sum, and each column's mean.
  auto drawn = random_tensor({3, 5});
  CHECK_THAT(drawn.sum(1, /*keepdim=*/true), AllClose(matrix_of(3, 1, [&](int64_t i, int64_t) {
    double sum = 0;
    for (int64_t j = 0; j < 5; ++j) sum += entry(drawn, i, j);
    return sum;
  }), 1e-5, 1e-6));
  CHECK_THAT(drawn.mean(0, /*keepdim=*/true), AllClose(matrix_of(1, 5, [&](int64_t, int64_t j) {
    double sum = 0;
    for (int64_t i = 0; i < 3; ++i) sum += entry(drawn, i, j);
    return sum / 3;
  }), 1e-5, 1e-6));
}

TEST_CASE("max and min along a dim return values with indices and argmax", "[points=5][reductions]") {
  auto m = torch::tensor({{3.0, 7.0, 1.0}, {9.0, 2.0, 9.0}});
  CHECK(m.max().item<float>() == Approx(9.0f));
  CHECK(m.min().item<float>() == Approx(1.0f));

  auto [row_max, row_argmax] = m.max(1);
  CHECK_THAT(row_max, Equals(torch::tensor({7.0, 9.0})));
  CHECK_THAT(row_argmax, Equals(torch::tensor({1, 0})));  // a tie reports the first index

  auto [col_min, col_argmin] = m.min(0);
  CHECK_THAT(col_min, Equals(torch::tensor({3.0, 2.0, 1.0})));
  CHECK_THAT(col_argmin, Equals(torch::tensor({0, 1, 0})));

  auto [kept_max, kept_index] = m.max(1, /*keepdim=*/true);
  CHECK(kept_max.sizes() == Sizes{2, 1});
  CHECK(kept_index.sizes() == Sizes{2, 1});

  auto flat = m.argmax();  // index into the flattened tensor
  CHECK(flat.dim() == 0);
  CHECK(flat.item<int64_t>() == 3);
  CHECK_THAT(m.argmax(0), Equals(torch::tensor({1, 0, 1})));
  CHECK_THAT(m.argmax(1, /*keepdim=*/true), Equals(torch::tensor({{1}, {0}})));
}

TEST_CASE("reductions accept negative dims and several dims at once", "[points=4][reductions]") {
  auto m = one_to_six();
  CHECK_THAT(m.sum(-1), Equals(torch::tensor({6.0, 15.0})));
  CHECK_THAT(m.mean(-2), AllClose(torch::tensor({2.5, 3.5, 4.5}), 1e-6, 1e-6));
  CHECK_THAT(std::get<0>(m.max(-1)), Equals(torch::tensor({3.0, 6.0})));
  CHECK_THAT(m.argmax(-2), Equals(torch::tensor({1, 1, 1})));

  auto cube = torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}, {{5.0, 6.0}, {7.0, 8.0}}});  // (2, 2, 2)
  CHECK_THAT(cube.sum(Sizes{1, 2}), Equals(torch::tensor({10.0, 26.0})));
  CHECK_THAT(cube.sum(Sizes{0, 2}), Equals(torch::tensor({14.0, 22.0})));
  CHECK(cube.sum(Sizes{0, 2}, /*keepdim=*/true).sizes() == Sizes{1, 2, 1});
  CHECK_THAT(cube.mean(Sizes{-1, -2}), AllClose(torch::tensor({2.5, 6.5}), 1e-6, 1e-6));
}

TEST_CASE("reductions reject a dim out of range", "[points=2][reductions]") {
  auto m = one_to_six();
  // For 2 dims the valid range is [-2, 1], both ends included.
  CHECK_THAT(m.sum(1), Equals(torch::tensor({6.0, 15.0})));
  CHECK_THAT(m.sum(-2), Equals(torch::tensor({5.0, 7.0, 9.0})));
  CHECK_THROWS_WITH(m.sum(2), Catch::Contains("Dimension out of range (expected to be in range of "
                                              "[-2, 1], but got 2)"));
  CHECK_THROWS_WITH(m.mean(-3), Catch::Contains("Dimension out of range (expected to be in range of "
                                                "[-2, 1], but got -3)"));
  CHECK_THROWS_WITH(m.max(2), Catch::Contains("Dimension out of range"));
  CHECK_THROWS_WITH(m.argmax(5), Catch::Contains("Dimension out of range"));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 8: memory footprint (memory.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("memory_footprint counts the bytes of an ImageNet batch and of int64 tensors",
          "[points=3][memory]") {
  // 32 images x 3 channels x 224 x 224 float32 = 4,816,896 elements x 4 bytes.
  auto images = torch::zeros({32, 3, 224, 224});
  CHECK(images.memory_footprint() == 19267584);
  CHECK(torch::zeros({1000, 1000}).memory_footprint() == 4000000);
  CHECK(torch::zeros({1000, 1000}, torch::kFloat64).memory_footprint() == 8000000);
  CHECK(torch::zeros({10}, torch::kInt64).memory_footprint() == 80);
  CHECK(torch::arange(5).memory_footprint() == 40);
  CHECK(torch::zeros({7}, torch::kBool).memory_footprint() == 7);
  CHECK(torch::tensor(1.0).memory_footprint() == 4);
  CHECK(torch::Tensor().memory_footprint() == 0);  // an undefined tensor holds nothing
}

TEST_CASE("memory_footprint of a view is its whole shared storage", "[points=3][memory]") {
  auto x = torch::zeros({1000, 1000});
  CHECK(x.t().memory_footprint() == 4000000);
  CHECK(x.view({-1}).memory_footprint() == 4000000);
  // One row is 4,000 bytes of elements, but it keeps the whole matrix alive.
  auto row = x[0];
  CHECK(row.nbytes() == 4000);
  CHECK(row.memory_footprint() == 4000000);
  // A copy holds storage of its own, sized to its elements.
  CHECK(row.clone().memory_footprint() == 4000);
}

TEST_CASE("memory_footprint of a list counts a shared storage once", "[points=3][memory]") {
  auto x = torch::zeros({1000, 1000});
  CHECK(tinytorch::memory_footprint({x, x.t(), x.view({-1})}) == 4000000);
  CHECK(tinytorch::memory_footprint({x, x.t().contiguous()}) == 8000000);
  auto bias = torch::zeros({1000});
  CHECK(tinytorch::memory_footprint({x, bias, x[3], bias}) == 4004000);
  CHECK(tinytorch::memory_footprint({x, torch::Tensor()}) == 4000000);  // undefined tensors are skipped
  CHECK(tinytorch::memory_footprint({}) == 0);
}

// ---------------------------------------------------------------------------------------------
// Everything together
// ---------------------------------------------------------------------------------------------

TEST_CASE("integration of a two-layer network computing x @ W.t() + b", "[points=8][integration]") {
  // Weights stored (out, in) as torch::nn::Linear stores them: 3 -> 4 -> 2.
  auto x = one_to_six();                                                    // (2, 3) batch
  auto w1 = torch::tensor({{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}, {1.0, 1.0, 1.0}});
  auto b1 = torch::tensor({0.5, 0.5, 0.5, -1.0});
  auto w2 = torch::tensor({{1.0, -1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, 0.5}});
  auto b2 = torch::tensor({1.0, -1.0});

  auto hidden = x.matmul(w1.t()) + b1;
  CHECK(hidden.sizes() == Sizes{2, 4});
  CHECK_THAT(hidden, Equals(torch::tensor({{1.5, 2.5, 3.5, 5.0}, {4.5, 5.5, 6.5, 14.0}})));

  auto output = hidden.matmul(w2.t()) + b2;
  CHECK(output.sizes() == Sizes{2, 2});
  CHECK_THAT(output, Equals(torch::tensor({{0.0, 5.0}, {0.0, 12.5}})));

  // A mean squared error against a target, and a per-feature batch mean.
  auto target = torch::tensor({{0.0, 5.0}, {0.0, 12.0}});
  auto difference = output - target;
  CHECK((difference * difference).mean().item<float>() == Approx(0.0625f));
  CHECK_THAT(output.mean(0), AllClose(torch::tensor({0.0, 8.75}), 1e-6, 1e-6));
  CHECK(output.argmax(1).sizes() == Sizes{2});

  // Flatten a (2, 2, 3) batch and push it through the first layer.
  auto images = torch::arange(12, torch::kFloat32).reshape({2, 2, 3});
  auto flat = images.reshape({2, -1}).view({4, 3});
  CHECK(flat.matmul(w1.t()).sizes() == Sizes{4, 4});

  // The parameters: 12 + 4 + 8 + 2 floats; w1.t() is a view and adds nothing.
  CHECK(tinytorch::memory_footprint({w1, b1, w2, b2, w1.t()}) == 104);
}
