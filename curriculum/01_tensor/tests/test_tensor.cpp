// Module 01 (Tensor): the graded tests. Every expected value here was worked out by hand (the
// lesson shows the arithmetic) or, for drawn inputs, from the definition with plain loops over the
// values; none is computed with the code under test. Each case is tagged with its points
// ([points=N], 100 in all) and a topic; hints.json has a hint per case name.
// Every case ends with inputs drawn by random_tensor / random_int: under `tito grade` they come from
// a secret seed, so only code that computes the answer gets them right (`tito module test` draws
// with a fixed seed).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::graded_rng;
using tinytorch::testing::map_values;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
using Sizes = std::vector<int64_t>;

namespace {

// [[1, 2, 3], [4, 5, 6]]: the matrix most cases below reduce, reshape or multiply.
torch::Tensor one_to_six() { return torch::tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}); }

// Element [i][j] of a float matrix, read without any op under test.
float entry(const torch::Tensor& m, int64_t i, int64_t j) { return m.contiguous().data_ptr<float>()[i * m.size(1) + j]; }

// Element n (row-major) of a float or an int64 tensor of any shape, read without any op under test.
float element(const torch::Tensor& t, int64_t n) { return t.contiguous().data_ptr<float>()[n]; }
int64_t long_element(const torch::Tensor& t, int64_t n) { return t.contiguous().data_ptr<int64_t>()[n]; }

// A rows x columns float matrix whose element [i][j] is value(i, j): expected results built by hand.
template <typename Value>
torch::Tensor matrix_of(int64_t rows, int64_t columns, Value value) {
  auto result = torch::empty({rows, columns});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) result.data_ptr<float>()[i * columns + j] = static_cast<float>(value(i, j));
  return result;
}

// A float tensor of the given sizes whose element n (row-major) is value(n): expected results of any
// shape built by hand.
template <typename Value>
torch::Tensor float_tensor_of(const Sizes& sizes, Value value) {
  auto result = torch::empty(sizes);
  for (int64_t n = 0; n < result.numel(); ++n) result.data_ptr<float>()[n] = static_cast<float>(value(n));
  return result;
}

// The same for an int64 tensor (indices, integer arithmetic).
template <typename Value>
torch::Tensor long_tensor_of(const Sizes& sizes, Value value) {
  auto result = torch::empty(sizes, torch::kLong);
  for (int64_t n = 0; n < result.numel(); ++n) result.data_ptr<int64_t>()[n] = static_cast<int64_t>(value(n));
  return result;
}

// The matrix product of two float matrices, from its definition (row i of a times column j of b),
// summed in double.
torch::Tensor product_of(const torch::Tensor& a, const torch::Tensor& b) {
  return matrix_of(a.size(0), b.size(1), [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < a.size(1); ++p) sum += double(entry(a, i, p)) * entry(b, p, j);
    return sum;
  });
}

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

  // A drawn tensor and a drawn number: the number meets every element, on the side it was written.
  auto x = random_tensor({2, 5}, 0.5, 2);          // no zeros, so number / x stays finite
  const double number = random_int(1, 24) / 8.0;   // never 0, so x / number does too
  auto expected = [&](auto rule) {
    return matrix_of(2, 5, [&](int64_t i, int64_t j) { return rule(entry(x, i, j)); });
  };
  CHECK_THAT(x + number, Equals(expected([&](double v) { return v + number; })));
  CHECK_THAT(number - x, Equals(expected([&](double v) { return number - v; })));
  CHECK_THAT(x * number, Equals(expected([&](double v) { return v * number; })));
  CHECK_THAT(number / x, AllClose(expected([&](double v) { return number / v; }), 1e-6, 1e-6));
  CHECK_THAT(x / number, AllClose(expected([&](double v) { return v / number; }), 1e-6, 1e-6));
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

  // A drawn column and a drawn row: element [i][j] of the table pairs column[i] with row[j].
  const int64_t rows = random_int(2, 5), columns = random_int(2, 5);
  auto drawn_column = random_tensor({rows, 1}), drawn_row = random_tensor({1, columns});
  auto drawn_table = drawn_column * drawn_row;
  CHECK(drawn_table.sizes() == Sizes{rows, columns});
  CHECK_THAT(drawn_table, Equals(matrix_of(rows, columns, [&](int64_t i, int64_t j) {
    return entry(drawn_column, i, 0) * entry(drawn_row, 0, j);
  })));
  CHECK_THAT(drawn_row - drawn_column, Equals(matrix_of(rows, columns, [&](int64_t i, int64_t j) {
    return entry(drawn_row, 0, j) - entry(drawn_column, i, 0);
  })));
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

  // Drawn numbers as 0-dim tensors, against a drawn matrix and against each other.
  const double s = random_int(-16, 16) / 8.0, t = random_int(-16, 16) / 8.0;
  auto drawn_scalar = torch::tensor(s);
  auto drawn = random_tensor({2, 3});
  CHECK_THAT(drawn * drawn_scalar,
             Equals(matrix_of(2, 3, [&](int64_t i, int64_t j) { return entry(drawn, i, j) * s; })));
  CHECK_THAT(drawn_scalar - drawn,
             Equals(matrix_of(2, 3, [&](int64_t i, int64_t j) { return s - entry(drawn, i, j); })));
  auto drawn_sum = drawn_scalar + torch::tensor(t);
  CHECK(drawn_sum.dim() == 0);
  CHECK(drawn_sum.item<float>() == Approx(s + t));
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

  // Drawn int64 values with drawn float32 values and drawn numbers.
  auto drawn_ints = random_tensor({6}, -9, 9, torch::kLong);
  auto drawn_floats = random_tensor({6});
  const int64_t factor = random_int(-5, 5), divisor = random_int(1, 5);
  const double fraction = random_int(-8, 8) / 8.0;
  CHECK_THAT(drawn_ints + drawn_floats, Equals(float_tensor_of({6}, [&](int64_t n) {
    return double(long_element(drawn_ints, n)) + element(drawn_floats, n);
  })));
  CHECK_THAT(drawn_ints * fraction, Equals(float_tensor_of({6}, [&](int64_t n) {
    return double(long_element(drawn_ints, n)) * fraction;
  })));
  CHECK_THAT(drawn_ints * factor,
             Equals(long_tensor_of({6}, [&](int64_t n) { return long_element(drawn_ints, n) * factor; })));
  CHECK_THAT(drawn_ints / divisor, AllClose(float_tensor_of({6}, [&](int64_t n) {
    return double(long_element(drawn_ints, n)) / double(divisor);
  }), 1e-6, 1e-6));
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


  // Drawn sizes: the message names them.
  const int64_t size_a = random_int(2, 5), size_b = size_a + random_int(1, 3);
  CHECK_THROWS_WITH(torch::ones({2, size_a}) + torch::ones({size_b}),
                    Catch::Contains("The size of tensor a (" + std::to_string(size_a) + ") must match the size of "
                                    "tensor b (" + std::to_string(size_b) + ") at non-singleton dimension 1"));
  // Compatible drawn shapes still work: (r,1,c) + (k,1) -> (r,k,c), element [i][j][l] = a[i][0][l] + b[j][0].
  const int64_t r = random_int(1, 3), k = random_int(2, 4), c = random_int(2, 4);
  auto left = random_tensor({r, 1, c}), right = random_tensor({k, 1});
  auto broadcast_sum = left + right;
  CHECK(broadcast_sum.sizes() == Sizes{r, k, c});
  CHECK_THAT(broadcast_sum, Equals(float_tensor_of({r, k, c}, [&](int64_t n) {
    const int64_t i = n / (k * c), j = n / c % k, l = n % c;
    return element(left, i * c + l) + element(right, j);
  })));
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


  // Drawn sizes: the -1 becomes numel divided by the other sizes, and the values keep their order.
  const int64_t depth = random_int(2, 4), rows = random_int(2, 5), columns = random_int(2, 5);
  auto drawn = random_tensor({depth * rows * columns});
  CHECK_THAT(drawn.view({-1, columns}), Equals(matrix_of(depth * rows, columns, [&](int64_t i, int64_t j) {
    return element(drawn, i * columns + j);
  })));
  CHECK(drawn.reshape({depth, -1}).sizes() == Sizes{depth, rows * columns});
  CHECK(drawn.reshape({depth, -1, columns}).strides() == Sizes{rows * columns, columns, 1});
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


  // A drawn matrix: one element too many is impossible; transposed, view refuses and reshape reads
  // it column by column (element n of the result is drawn[n % rows][n / rows]).
  const int64_t rows = random_int(2, 5), columns = random_int(2, 5), count = rows * columns;
  auto drawn = random_tensor({rows, columns});
  CHECK_THROWS_WITH(drawn.reshape({count + 1}), Catch::Contains("shape '[" + std::to_string(count + 1) +
                                                                "]' is invalid for input of size " +
                                                                std::to_string(count)));
  CHECK_THROWS_WITH(drawn.t().view({count}), Catch::Contains("Use .reshape(...) instead"));
  CHECK_THAT(drawn.t().reshape({-1}), Equals(float_tensor_of({count}, [&](int64_t n) {
    return entry(drawn, n % rows, n / rows);
  })));
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


  // A drawn matrix: t() reads element [j][i] of the original through swapped strides.
  const int64_t rows = random_int(2, 5), columns = random_int(2, 5);
  auto drawn = random_tensor({rows, columns});
  auto drawn_t = drawn.t();
  CHECK(drawn_t.sizes() == Sizes{columns, rows});
  CHECK(drawn_t.strides() == Sizes{1, columns});
  CHECK_THAT(drawn_t, Equals(matrix_of(columns, rows, [&](int64_t i, int64_t j) { return entry(drawn, j, i); })));
  // A drawn (a,b,c) cube: transpose(0, 2) has sizes (c,b,a) and strides (1, c, b c).
  const int64_t a = random_int(2, 4), b = random_int(2, 4), c = random_int(2, 4);
  auto cube = random_tensor({a, b, c}).transpose(0, 2);
  CHECK(cube.sizes() == Sizes{c, b, a});
  CHECK(cube.strides() == Sizes{1, c, b * c});
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


  // A drawn (a,b,c) cube: permute({2, 0, 1}) puts dim 2 first, so p[l][i][j] is cube[i][j][l].
  const int64_t a = random_int(2, 4), b = random_int(2, 4), c = random_int(2, 4);
  auto cube = random_tensor({a, b, c});
  auto permuted = cube.permute({2, 0, 1});
  CHECK(permuted.sizes() == Sizes{c, a, b});
  CHECK(permuted.strides() == Sizes{1, b * c, c});
  CHECK_THAT(permuted, Equals(float_tensor_of({c, a, b}, [&](int64_t n) {
    const int64_t l = n / (a * b), i = n / b % a, j = n % b;
    return element(cube, (i * b + j) * c + l);
  })));
  // A drawn value written at a drawn place through a transposed view lands at the swapped place.
  auto blank = torch::zeros({a, c});
  const int64_t row = random_int(0, a - 1), column = random_int(0, c - 1);
  const double value = random_int(1, 9);
  blank.t()[column][row] = value;
  CHECK_THAT(blank, Equals(matrix_of(a, c, [&](int64_t i, int64_t j) {
    return i == row && j == column ? value : 0.0;
  })));
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


  // Drawn sizes and values: matrix @ vector sums over the columns, vector @ matrix over the rows.
  const int64_t rows = random_int(1, 5), inner = random_int(1, 5);
  auto matrix = random_tensor({rows, inner});
  auto vector = random_tensor({inner}), other_vector = random_tensor({inner}), row_weights = random_tensor({rows});
  auto drawn_mv = torch::matmul(matrix, vector);
  CHECK(drawn_mv.sizes() == Sizes{rows});
  CHECK_THAT(drawn_mv, AllClose(float_tensor_of({rows}, [&](int64_t i) {
    double sum = 0;
    for (int64_t p = 0; p < inner; ++p) sum += double(entry(matrix, i, p)) * element(vector, p);
    return sum;
  }), 1e-5, 1e-5));
  CHECK_THAT(torch::matmul(row_weights, matrix), AllClose(float_tensor_of({inner}, [&](int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < rows; ++p) sum += double(element(row_weights, p)) * entry(matrix, p, j);
    return sum;
  }), 1e-5, 1e-5));
  double expected_dot = 0;
  for (int64_t p = 0; p < inner; ++p) expected_dot += double(element(vector, p)) * element(other_vector, p);
  auto drawn_dot = torch::matmul(vector, other_vector);
  CHECK(drawn_dot.dim() == 0);
  CHECK(drawn_dot.item<float>() == Approx(expected_dot));
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


  // Drawn sizes and values: matrix s of the result is left[s] @ right[s]; one shared matrix applies
  // to every batch.
  const int64_t batch = random_int(1, 3), n = random_int(1, 4), k = random_int(1, 4), m = random_int(1, 4);
  auto left = random_tensor({batch, n, k}), right = random_tensor({batch, k, m}), shared = random_tensor({k, m});
  auto batched_product = [&](bool use_shared) {
    return float_tensor_of({batch, n, m}, [&](int64_t index) {
      const int64_t s = index / (n * m), i = index / m % n, j = index % m;
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        const float b_pj = use_shared ? element(shared, p * m + j) : element(right, (s * k + p) * m + j);
        sum += double(element(left, (s * n + i) * k + p)) * b_pj;
      }
      return sum;
    });
  };
  CHECK_THAT(torch::bmm(left, right), AllClose(batched_product(false), 1e-5, 1e-5));
  CHECK_THAT(torch::matmul(left, shared), AllClose(batched_product(true), 1e-5, 1e-5));
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


  // Drawn sizes: the message names both shapes; with matching inner sizes the product is computed.
  const int64_t rows = random_int(1, 5), inner = random_int(1, 5), columns = random_int(1, 5);
  const int64_t wrong_inner = inner + random_int(1, 3);
  CHECK_THROWS_WITH(torch::mm(torch::ones({rows, inner}), torch::ones({wrong_inner, columns})),
                    Catch::Contains("mat1 and mat2 shapes cannot be multiplied (" + std::to_string(rows) + "x" +
                                    std::to_string(inner) + " and " + std::to_string(wrong_inner) + "x" +
                                    std::to_string(columns) + ")"));
  auto left = random_tensor({rows, inner}), right = random_tensor({inner, columns});
  CHECK_THAT(torch::mm(left, right), AllClose(product_of(left, right), 1e-5, 1e-5));
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


  // Drawn inputs and weights: x @ W.t() is sum over p of x[i][p] W[j][p]; a transposed left operand
  // (stored (inner, rows)) is read through its strides too.
  const int64_t batch = random_int(1, 4), inner = random_int(2, 4), outputs = random_int(1, 4);
  auto inputs = random_tensor({batch, inner}), weight = random_tensor({outputs, inner});
  CHECK_THAT(torch::mm(inputs, weight.t()), AllClose(matrix_of(batch, outputs, [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < inner; ++p) sum += double(entry(inputs, i, p)) * entry(weight, j, p);
    return sum;
  }), 1e-5, 1e-5));
  auto stored = random_tensor({batch, inner}), right = random_tensor({batch, outputs});
  CHECK_THAT(torch::mm(stored.t(), right), AllClose(matrix_of(inner, outputs, [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < batch; ++p) sum += double(entry(stored, p, i)) * entry(right, p, j);
    return sum;
  }), 1e-5, 1e-5));
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


  // Drawn distinct values (a shuffled ladder of quarters, so no ties) in a drawn shape: each row's
  // largest value and where it sits, each column's smallest, and the flat position of the largest.
  const int64_t rows = random_int(2, 4), columns = random_int(2, 5);
  std::vector<float> values;
  for (int64_t n = 0; n < rows * columns; ++n) values.push_back(0.25f * static_cast<float>(n) - 2.0f);
  std::shuffle(values.begin(), values.end(), graded_rng());
  auto drawn = matrix_of(rows, columns, [&](int64_t i, int64_t j) { return values[i * columns + j]; });
  std::vector<int64_t> row_best(rows, 0), column_least(columns, 0);
  int64_t flat_best = 0;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < columns; ++j) {
      if (entry(drawn, i, j) > entry(drawn, i, row_best[i])) row_best[i] = j;
      if (entry(drawn, i, j) < entry(drawn, column_least[j], j)) column_least[j] = i;
      if (values[i * columns + j] > values[flat_best]) flat_best = i * columns + j;
    }
  }
  auto [drawn_row_max, drawn_row_argmax] = drawn.max(1);
  CHECK_THAT(drawn_row_max, Equals(float_tensor_of({rows}, [&](int64_t i) { return entry(drawn, i, row_best[i]); })));
  CHECK_THAT(drawn_row_argmax, Equals(long_tensor_of({rows}, [&](int64_t i) { return row_best[i]; })));
  auto [drawn_column_min, drawn_column_argmin] = drawn.min(0, /*keepdim=*/true);
  CHECK_THAT(drawn_column_min, Equals(float_tensor_of({1, columns}, [&](int64_t j) {
    return entry(drawn, column_least[j], j);
  })));
  CHECK_THAT(drawn_column_argmin, Equals(long_tensor_of({1, columns}, [&](int64_t j) { return column_least[j]; })));
  CHECK(drawn.argmax().item<int64_t>() == flat_best);
  CHECK(drawn.max().item<float>() == Approx(values[flat_best]));
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


  // A drawn (a,b,c) cube, reduced over negative dims and over several at once.
  const int64_t a = random_int(2, 3), b = random_int(2, 3), c = random_int(2, 4);
  auto drawn = random_tensor({a, b, c});
  auto at = [&](int64_t i, int64_t j, int64_t l) { return double(element(drawn, (i * b + j) * c + l)); };
  CHECK_THAT(drawn.sum(-1), AllClose(matrix_of(a, b, [&](int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t l = 0; l < c; ++l) sum += at(i, j, l);
    return sum;
  }), 1e-5, 1e-6));
  CHECK_THAT(drawn.sum(Sizes{0, -1}), AllClose(float_tensor_of({b}, [&](int64_t j) {
    double sum = 0;
    for (int64_t i = 0; i < a; ++i)
      for (int64_t l = 0; l < c; ++l) sum += at(i, j, l);
    return sum;
  }), 1e-5, 1e-6));
  CHECK_THAT(drawn.mean(Sizes{-1, -3}, /*keepdim=*/true), AllClose(float_tensor_of({1, b, 1}, [&](int64_t j) {
    double sum = 0;
    for (int64_t i = 0; i < a; ++i)
      for (int64_t l = 0; l < c; ++l) sum += at(i, j, l);
    return sum / double(a * c);
  }), 1e-5, 1e-6));
  CHECK_THAT(std::get<0>(drawn.max(-2)), Equals(matrix_of(a, c, [&](int64_t i, int64_t l) {
    double best = at(i, 0, l);
    for (int64_t j = 1; j < b; ++j) best = std::max(best, at(i, j, l));
    return best;
  })));
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


  // A drawn matrix at both ends of the valid range, and a drawn dim past it named in the message.
  const int64_t rows = random_int(1, 4), columns = random_int(1, 5);
  auto drawn = random_tensor({rows, columns});
  CHECK_THAT(drawn.sum(1), AllClose(float_tensor_of({rows}, [&](int64_t i) {
    double sum = 0;
    for (int64_t j = 0; j < columns; ++j) sum += entry(drawn, i, j);
    return sum;
  }), 1e-5, 1e-6));
  CHECK_THAT(drawn.sum(-2), AllClose(float_tensor_of({columns}, [&](int64_t j) {
    double sum = 0;
    for (int64_t i = 0; i < rows; ++i) sum += entry(drawn, i, j);
    return sum;
  }), 1e-5, 1e-6));
  const int64_t too_far = random_int(2, 9);
  CHECK_THROWS_WITH(drawn.sum(too_far), Catch::Contains("[-2, 1], but got " + std::to_string(too_far) + ")"));
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

  // Drawn sizes: elements times bytes per element (4 for float32, 8 for float64 and int64, 1 for bool).
  const int64_t rows = random_int(1, 100), columns = random_int(1, 100);
  CHECK(torch::zeros({rows, columns}).memory_footprint() == rows * columns * 4);
  CHECK(torch::zeros({rows, columns}, torch::kFloat64).memory_footprint() == rows * columns * 8);
  CHECK(torch::arange(columns).memory_footprint() == columns * 8);
  CHECK(torch::zeros({rows}, torch::kBool).memory_footprint() == rows);
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

  // Drawn sizes: any view of a drawn matrix, a drawn row included, keeps all of its bytes alive.
  const int64_t rows = random_int(2, 100), columns = random_int(2, 100);
  auto matrix = torch::zeros({rows, columns});
  CHECK(matrix.t().memory_footprint() == rows * columns * 4);
  auto drawn_row = matrix[random_int(0, rows - 1)];
  CHECK(drawn_row.nbytes() == static_cast<std::size_t>(columns * 4));
  CHECK(drawn_row.memory_footprint() == rows * columns * 4);
  CHECK(drawn_row.clone().memory_footprint() == columns * 4);
}

TEST_CASE("memory_footprint of a list counts a shared storage once", "[points=3][memory]") {
  auto x = torch::zeros({1000, 1000});
  CHECK(tinytorch::memory_footprint({x, x.t(), x.view({-1})}) == 4000000);
  CHECK(tinytorch::memory_footprint({x, x.t().contiguous()}) == 8000000);
  auto bias = torch::zeros({1000});
  CHECK(tinytorch::memory_footprint({x, bias, x[3], bias}) == 4004000);
  CHECK(tinytorch::memory_footprint({x, torch::Tensor()}) == 4000000);  // undefined tensors are skipped
  CHECK(tinytorch::memory_footprint({}) == 0);

  // Drawn sizes: a weight, its views, a row of it and a bias listed twice count each storage once.
  const int64_t rows = random_int(2, 100), columns = random_int(2, 100);
  auto weight = torch::zeros({rows, columns});
  auto drawn_bias = torch::zeros({rows});
  CHECK(tinytorch::memory_footprint({weight, weight.t(), drawn_bias, weight[random_int(0, rows - 1)], drawn_bias}) ==
        (rows * columns + rows) * 4);
  CHECK(tinytorch::memory_footprint({weight, weight.t().contiguous()}) == 2 * rows * columns * 4);
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


  // The same network with drawn sizes, weights and biases: each layer worked out from its
  // definition, out[i][j] = b[j] + sum over p of in[i][p] W[j][p].
  const int64_t batch = random_int(1, 4), inputs = random_int(1, 4), hidden_units = random_int(1, 4),
                outputs = random_int(1, 3);
  auto drawn_x = random_tensor({batch, inputs});
  auto drawn_w1 = random_tensor({hidden_units, inputs}), drawn_b1 = random_tensor({hidden_units});
  auto drawn_w2 = random_tensor({outputs, hidden_units}), drawn_b2 = random_tensor({outputs});
  auto layer = [](const torch::Tensor& in, const torch::Tensor& w, const torch::Tensor& b) {
    return matrix_of(in.size(0), w.size(0), [&](int64_t i, int64_t j) {
      double sum = element(b, j);
      for (int64_t p = 0; p < in.size(1); ++p) sum += double(entry(in, i, p)) * entry(w, j, p);
      return sum;
    });
  };
  auto expected_hidden = layer(drawn_x, drawn_w1, drawn_b1);
  auto expected_output = layer(expected_hidden, drawn_w2, drawn_b2);
  auto drawn_hidden = drawn_x.matmul(drawn_w1.t()) + drawn_b1;
  CHECK_THAT(drawn_hidden, AllClose(expected_hidden, 1e-5, 1e-5));
  auto drawn_output = drawn_hidden.matmul(drawn_w2.t()) + drawn_b2;
  CHECK_THAT(drawn_output, AllClose(expected_output, 1e-5, 1e-4));

  // The mean squared error against a drawn target.
  auto drawn_target = random_tensor({batch, outputs});
  double squared_error = 0;
  for (int64_t i = 0; i < batch; ++i) {
    for (int64_t j = 0; j < outputs; ++j) {
      const double d = double(entry(expected_output, i, j)) - entry(drawn_target, i, j);
      squared_error += d * d;
    }
  }
  auto drawn_difference = drawn_output - drawn_target;
  CHECK((drawn_difference * drawn_difference).mean().item<float>() == Approx(squared_error / double(batch * outputs)));
  CHECK(tinytorch::memory_footprint({drawn_w1, drawn_b1, drawn_w2, drawn_b2, drawn_w1.t()}) ==
        (hidden_units * inputs + hidden_units + outputs * hidden_units + outputs) * 4);
}
