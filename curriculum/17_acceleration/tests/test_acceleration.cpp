// Module 17 (Acceleration): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes
// (gemm.cpp, matmul_fast.cpp, im2col.cpp, conv2d_im2col.cpp, elementwise_fast.cpp), through
// cpublas::gemm / gemm_ikj, torch::acceleration::fast_mm, torch::bmm, torch::im2col / col2im,
// native::conv2d_im2col and the element-wise ops, which a build with module 17 sends to those kernels.
// Expected values come from independent oracles written here: plain loops over the raw data in
// double, read through each tensor's strides, and module 09's seven loops for the convolution.
// Inputs are drawn by random_tensor (multiples of 1/8), so the products and sums of these sizes are
// exact in float whatever order a blocked kernel adds them in.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/acceleration_kernels.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace F = torch::nn::functional;
namespace native = tinytorch::native;

namespace {

// Element (i, j) of a 2-D tensor read through its strides, as double.
double at2(const torch::Tensor& t, int64_t i, int64_t j) {
  const int64_t offset = i * t.stride(0) + j * t.stride(1);
  switch (t.scalar_type()) {
    case torch::kFloat: return t.data_ptr<float>()[offset];
    case torch::kDouble: return t.data_ptr<double>()[offset];
    default: return static_cast<double>(t.data_ptr<int64_t>()[offset]);
  }
}

// A tensor of `dtype` holding `values` (row-major) with the given sizes, built without any op.
torch::Tensor from_values(const std::vector<double>& values, std::vector<int64_t> sizes,
                          torch::ScalarType dtype = torch::kFloat) {
  torch::Tensor t = torch::empty(sizes, dtype);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == torch::kFloat) t.data_ptr<float>()[i] = static_cast<float>(values[i]);
    else if (dtype == torch::kDouble) t.data_ptr<double>()[i] = values[i];
    else t.data_ptr<int64_t>()[i] = static_cast<int64_t>(values[i]);
  }
  return t;
}

// The oracle: the (n x p) product of a (n x m) and b (m x p), any strides, in double.
torch::Tensor product_oracle(const torch::Tensor& a, const torch::Tensor& b) {
  const int64_t n = a.size(0), m = a.size(1), p = b.size(1);
  std::vector<double> out(static_cast<size_t>(n * p), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < p; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < m; ++k) sum += at2(a, i, k) * at2(b, k, j);
      out[static_cast<size_t>(i * p + j)] = sum;
    }
  return from_values(out, {n, p}, a.scalar_type());
}

// cpublas::gemm (or gemm_ikj) of A (m x k) and B (k x n), stored row-major or transposed, into a C
// with ldc = n + 3 whose padding columns hold a sentinel: returns C's n columns, checks the padding.
struct RawResult {
  torch::Tensor c;
  bool padding_untouched;
};
template <typename Gemm>
RawResult raw_gemm(Gemm gemm, const torch::Tensor& a, const torch::Tensor& b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1), ldc = n + 3;
  std::vector<float> c(static_cast<size_t>(std::max<int64_t>(m * ldc, 1)), -777.0f);
  gemm(m, n, k, a.data_ptr<float>(), a.stride(0), a.stride(1), b.data_ptr<float>(), b.stride(0), b.stride(1),
       c.data(), ldc);
  std::vector<double> values;
  bool untouched = true;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      if (j < n) values.push_back(c[static_cast<size_t>(i * ldc + j)]);
      else untouched = untouched && c[static_cast<size_t>(i * ldc + j)] == -777.0f;
    }
  return {from_values(values, {m, n}), untouched};
}

void fast_gemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t a_rs, int64_t a_cs, const float* b,
               int64_t b_rs, int64_t b_cs, float* c, int64_t ldc) {
  torch::cpublas::gemm(m, n, k, a, a_rs, a_cs, b, b_rs, b_cs, c, ldc);
}

// A (rows x cols) float matrix, stored row-major, or as the transpose of a (cols x rows) one.
torch::Tensor matrix(int64_t rows, int64_t cols, bool transposed) {
  return transposed ? random_tensor({cols, rows}).t() : random_tensor({rows, cols});
}

// Restores the thread count a case changed.
struct ThreadCount {
  int saved = torch::get_num_threads();
  explicit ThreadCount(int threads) { torch::set_num_threads(threads); }
  ~ThreadCount() { torch::set_num_threads(saved); }
};

// The oracle of im2col for one image (C, H, W) (contiguous): (C kh kw, OH OW) values in double.
std::vector<double> im2col_oracle(const torch::Tensor& image, const native::Conv2dGeometry& g) {
  const float* x = image.data_ptr<float>();
  std::vector<double> out;
  for (int64_t c = 0; c < g.channels; ++c)
    for (int64_t i = 0; i < g.kernel_h; ++i)
      for (int64_t j = 0; j < g.kernel_w; ++j)
        for (int64_t y = 0; y < g.out_h; ++y)
          for (int64_t xo = 0; xo < g.out_w; ++xo) {
            const int64_t iy = y * g.stride_h + i * g.dilation_h - g.pad_h;
            const int64_t ix = xo * g.stride_w + j * g.dilation_w - g.pad_w;
            const bool inside = iy >= 0 && iy < g.height && ix >= 0 && ix < g.width;
            out.push_back(inside ? x[(c * g.height + iy) * g.width + ix] : 0.0);
          }
  return out;
}

native::Conv2dParams params_of(int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w, int64_t dil_h,
                               int64_t dil_w) {
  native::Conv2dParams p;
  p.stride[0] = stride_h;
  p.stride[1] = stride_w;
  p.padding[0] = pad_h;
  p.padding[1] = pad_w;
  p.dilation[0] = dil_h;
  p.dilation[1] = dil_w;
  return p;
}

double dot(const std::vector<double>& u, const std::vector<double>& v) {
  double sum = 0;
  for (size_t i = 0; i < u.size(); ++i) sum += u[i] * v[i];
  return sum;
}

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  std::vector<double> out;
  for (int64_t i = 0; i < c.numel(); ++i) {
    out.push_back(c.scalar_type() == torch::kDouble ? c.data_ptr<double>()[i] : c.data_ptr<float>()[i]);
  }
  return out;
}

}  // namespace

// ---- 2. Loop order ----

TEST_CASE("gemm_ikj equals the triple loop and leaves C's padding columns alone", "[points=7][loop_order]") {
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      const int64_t m = random_int(1, 9), k = random_int(1, 40), n = random_int(1, 37);
      const torch::Tensor a = matrix(m, k, ta), b = matrix(k, n, tb);
      INFO("m=" << m << " n=" << n << " k=" << k << " A transposed=" << ta << " B transposed=" << tb);
      const RawResult got = raw_gemm(torch::cpublas::gemm_ikj, a, b);
      CHECK_THAT(got.c, Equals(product_oracle(a, b)));
      CHECK(got.padding_untouched);
    }
  }
  // k = 0: C is all zeros.
  const torch::Tensor a = random_tensor({3, 0}), b = random_tensor({0, 4});
  CHECK_THAT(raw_gemm(torch::cpublas::gemm_ikj, a, b).c, Equals(torch::zeros({3, 4})));
}

// ---- 4. Packing: strided and transposed operands on the packed path ----

TEST_CASE("the packed GEMM reads transposed and strided operands through their strides", "[points=10][packing]") {
  torch::cpublas::set_float_kernel("generic");
  // Above kSmallGemmMaxMultiplyAdds: these take the packed path.
  const int64_t m = random_int(50, 70), k = random_int(60, 90), n = random_int(50, 80);
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      const torch::Tensor a = matrix(m, k, ta), b = matrix(k, n, tb);
      INFO("m=" << m << " n=" << n << " k=" << k << " A transposed=" << ta << " B transposed=" << tb);
      // Contiguous operands fail only when the packed path itself is wrong, not its reading of strides.
      LABEL_CHECKS(ta || tb ? "transposed operands" : "contiguous operands");
      const RawResult got = raw_gemm(fast_gemm, a, b);
      CHECK_THAT(got.c, Equals(product_oracle(a, b)));
      CHECK(got.padding_untouched);
    }
  }
  // Every other row and column of larger matrices (row and column strides of 2).
  const torch::Tensor big_a = random_tensor({2 * m, 2 * k}), big_b = random_tensor({2 * k, 2 * n});
  const torch::Tensor a = big_a.slice(0, 0, 2 * m, 2).slice(1, 0, 2 * k, 2);
  const torch::Tensor b = big_b.slice(0, 0, 2 * k, 2).slice(1, 0, 2 * n, 2);
  {
    LABEL_CHECKS("strided views");
    CHECK_THAT(raw_gemm(fast_gemm, a, b).c, Equals(product_oracle(a, b)));
  }
  torch::cpublas::set_float_kernel("");
}

// ---- 3. Cache blocking: ragged shapes against every block size ----

TEST_CASE("the blocked GEMM equals the triple loop on ragged shapes, across k and n blocks",
          "[points=10][blocking]") {
  torch::cpublas::set_float_kernel("generic");
  ThreadCount one(1);
  struct Shape {
    int64_t m, n, k;
  };
  // Tiles 6 x 16, KC 256, MC 120, NC 2048; each shape is above the small-product limit and has more
  // than kGemmFewRows rows.
  const std::vector<Shape> shapes = {
      {13, 37, 300},  // ragged tiles both ways, two k blocks
      {121, 23, 70},  // two row blocks, the second of one row
      {5, 300, 513},  // one ragged row of tiles, three k blocks
      {300, 1, 513},  // one column
      {7, 2100, 10},  // two column blocks (NC), the second narrow
      {24, 64, 256},  // whole tiles, one full k block
      {random_int(40, 60), random_int(40, 60), random_int(257, 300)},
  };
  for (const Shape& s : shapes) {
    const torch::Tensor a = random_tensor({s.m, s.k}), b = random_tensor({s.k, s.n});
    INFO("m=" << s.m << " n=" << s.n << " k=" << s.k);
    const RawResult got = raw_gemm(fast_gemm, a, b);
    CHECK_THAT(got.c, Equals(product_oracle(a, b)));
    CHECK(got.padding_untouched);
  }
  torch::cpublas::set_float_kernel("");
}

// ---- 5. The micro-kernel: double and int64 run it too ----

TEST_CASE("the micro-kernel gives exact double and int64 products, whole tiles and ragged",
          "[points=5][micro_kernel]") {
  for (const auto dtype : {torch::kDouble, torch::kLong}) {
    for (const int64_t size : {int64_t{8}, int64_t{24}, random_int(9, 30)}) {
      const torch::Tensor a = random_tensor({size, size + 3}, -8, 8, dtype);
      const torch::Tensor b = random_tensor({size + 3, size + 5}, -8, 8, dtype);
      INFO("dtype=" << a.scalar_type() << " size=" << size);
      CHECK_THAT(torch::acceleration::fast_mm(a, b), Equals(product_oracle(a, b)));
    }
  }
  // Two k blocks (k > 256): the later block adds to what the first wrote.
  const torch::Tensor a = random_tensor({9, 400}, -8, 8, torch::kLong);
  const torch::Tensor b = random_tensor({400, 11}, -8, 8, torch::kLong);
  CHECK_THAT(torch::acceleration::fast_mm(a, b), Equals(product_oracle(a, b)));
}

// ---- mm on views and edge shapes ----

TEST_CASE("fast_mm and torch::mm equal module 01's mm on views, empty and 1xN shapes", "[points=8][views]") {
  REQUIRE(torch::acceleration::fast_kernels_available());
  const torch::Tensor a = random_tensor({random_int(30, 50), random_int(30, 50)});
  const torch::Tensor b = random_tensor({a.size(1), random_int(30, 50)});
  CHECK_THAT(torch::acceleration::fast_mm(a, b), Equals(torch::acceleration::naive_mm(a, b)));
  CHECK_THAT(torch::mm(b.t(), a.t()), Equals(product_oracle(b.t(), a.t())));
  const torch::Tensor row = random_tensor({1, a.size(0)});
  CHECK_THAT(torch::acceleration::fast_mm(row, a), Equals(product_oracle(row, a)));
  const torch::Tensor column = random_tensor({b.size(1), 1});
  CHECK_THAT(torch::mm(b, column), Equals(product_oracle(b, column)));
  CHECK_THAT(torch::acceleration::fast_mm(torch::zeros({0, 5}), random_tensor({5, 3})), Equals(torch::zeros({0, 3})));
  CHECK_THAT(torch::acceleration::fast_mm(random_tensor({4, 0}), random_tensor({0, 3})), Equals(torch::zeros({4, 3})));
  // A shape the product cannot take: module 01's error.
  CHECK_THROWS_WITH(torch::acceleration::fast_mm(random_tensor({2, 3}), random_tensor({4, 5})),
                    Catch::Contains("shapes cannot be multiplied"));
}

// ---- 6. Threads ----

TEST_CASE("two threads give the products one thread gives: a large GEMM and a bmm batch", "[points=8][threads]") {
  ThreadCount two(2);
  torch::cpublas::set_float_kernel("generic");
  // 170^3 > kGemmParallelThreshold: the row blocks run on two threads.
  const int64_t n = random_int(165, 175);
  const torch::Tensor a = random_tensor({n, n}), b = random_tensor({n, n + 7});
  const RawResult got = raw_gemm(fast_gemm, a, b);
  CHECK_THAT(got.c, Equals(product_oracle(a, b)));
  CHECK(got.padding_untouched);
  torch::cpublas::set_float_kernel("");
  // bmm: 6 entries of 96 x 80 x 100 (4.6M multiply-adds): the batch splits between the threads. mat2
  // is a transposed view and self takes every other entry of a larger batch.
  const torch::Tensor big = random_tensor({12, 96, 80});
  const torch::Tensor self = big.slice(0, 0, 12, 2);
  const torch::Tensor mat2 = random_tensor({6, 100, 80}).transpose(1, 2);
  const torch::Tensor out = torch::bmm(self, mat2);
  REQUIRE(out.sizes().vec() == std::vector<int64_t>{6, 96, 100});
  for (int64_t s = 0; s < 6; ++s) {
    INFO("batch entry " << s);
    CHECK_THAT(out.select(0, s).contiguous(), Equals(product_oracle(self.select(0, s), mat2.select(0, s))));
  }
}

// ---- 7. im2col ----

TEST_CASE("im2col unfolds every tap with stride, padding and dilation (torch::im2col, F::unfold)",
          "[points=9][im2col]") {
  struct Case {
    int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  };
  const std::vector<Case> cases = {{3, 3, 1, 1, 1, 1, 1, 1}, {2, 3, 2, 1, 0, 2, 1, 1}, {3, 2, 1, 2, 2, 1, 2, 1},
                                   {1, 1, 3, 3, 0, 0, 1, 1}, {3, 3, 2, 2, 3, 3, 2, 3}};
  for (const Case& c : cases) {
    const int64_t channels = random_int(1, 3), height = random_int(5, 9), width = random_int(5, 9);
    const torch::Tensor x = random_tensor({2, channels, height, width});
    const torch::Tensor w = torch::zeros({1, channels, c.kh, c.kw});
    const native::Conv2dGeometry g = native::geometry_of(x, w, params_of(c.sh, c.sw, c.ph, c.pw, c.dh, c.dw));
    INFO("kernel " << c.kh << "x" << c.kw << " stride " << c.sh << "," << c.sw << " padding " << c.ph << ","
                   << c.pw << " dilation " << c.dh << "," << c.dw << " image " << channels << "x" << height << "x"
                   << width);
    const torch::Tensor cols = torch::im2col(x, {c.kh, c.kw}, {c.dh, c.dw}, {c.ph, c.pw}, {c.sh, c.sw});
    std::vector<double> expected = im2col_oracle(x.select(0, 0).contiguous(), g);
    const std::vector<double> second = im2col_oracle(x.select(0, 1).contiguous(), g);
    expected.insert(expected.end(), second.begin(), second.end());
    const torch::Tensor want = from_values(expected, {2, channels * c.kh * c.kw, g.out_h * g.out_w});
    CHECK_THAT(cols, Equals(want));
    CHECK_THAT(F::unfold(x, F::UnfoldFuncOptions({c.kh, c.kw}).dilation({c.dh, c.dw}).padding({c.ph, c.pw})
                                .stride({c.sh, c.sw})),
               Equals(want));
  }
  // The example of the lesson: a 2 x 2 image, 2 x 2 kernel, padding 1: tap (0, 0) sees [0 0 0; 0 1 2; 0 3 4].
  const torch::Tensor image = from_values({1, 2, 3, 4}, {1, 1, 2, 2});
  const torch::Tensor cols = torch::im2col(image, {2, 2}, {1, 1}, {1, 1}, {1, 1});
  CHECK_THAT(cols.select(1, 0).contiguous(), Equals(from_values({0, 0, 0, 0, 1, 2, 0, 3, 4}, {1, 9})));
}

// ---- 8. col2im, the adjoint ----

TEST_CASE("col2im is im2col's adjoint: <im2col(x), c> == <x, col2im(c)>, and it adds overlapping taps",
          "[points=8][col2im]") {
  for (int trial = 0; trial < 4; ++trial) {
    const int64_t channels = random_int(1, 3), height = random_int(6, 9), width = random_int(6, 9);
    const int64_t kernel = random_int(1, 3), stride = random_int(1, 2), padding = random_int(0, 2);
    const int64_t dilation = random_int(1, 2);
    const torch::Tensor x = random_tensor({channels, height, width});
    const torch::Tensor w = torch::zeros({1, channels, kernel, kernel});
    const native::Conv2dGeometry g =
        native::geometry_of(x.unsqueeze(0), w, params_of(stride, stride, padding, padding, dilation, dilation));
    if (g.out_h <= 0 || g.out_w <= 0) continue;
    INFO("image " << channels << "x" << height << "x" << width << " kernel " << kernel << " stride " << stride
                  << " padding " << padding << " dilation " << dilation);
    const int64_t rows = channels * kernel * kernel, positions = g.out_h * g.out_w;
    // The raw kernels, with a column row stride wider than OH OW (the batched layout).
    const int64_t row_stride = positions + 5;
    const torch::Tensor c = random_tensor({rows, row_stride});
    std::vector<float> columns(static_cast<size_t>(rows * row_stride), 0.0f);
    native::im2col(x.data_ptr<float>(), g, columns.data(), row_stride);
    std::vector<double> unfolded, c_values;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t p = 0; p < positions; ++p) {
        unfolded.push_back(columns[static_cast<size_t>(r * row_stride + p)]);
        c_values.push_back(c.data_ptr<float>()[r * row_stride + p]);
      }
    CHECK(unfolded == im2col_oracle(x, g));
    std::vector<float> folded(static_cast<size_t>(channels * height * width), 0.0f);
    native::col2im(c.data_ptr<float>(), row_stride, g, folded.data());
    const std::vector<double> x_values = values_of(x);
    const std::vector<double> folded_values(folded.begin(), folded.end());
    CHECK(dot(unfolded, c_values) == Approx(dot(x_values, folded_values)).margin(1e-6));
    // And through torch::col2im (batched): the same image.
    const torch::Tensor batched = from_values(c_values, {1, rows, positions});
    const torch::Tensor back = torch::col2im(batched, {height, width}, {kernel, kernel}, {dilation, dilation},
                                             {padding, padding}, {stride, stride});
    CHECK_THAT(back, Equals(from_values(folded_values, {1, channels, height, width})));
  }
  // Overlapping taps add up: a 1 x 3 image, a 1 x 2 kernel, all-ones columns -> [1, 2, 1].
  const torch::Tensor ones = torch::ones({1, 2, 2});
  CHECK_THAT(F::fold(ones, F::FoldFuncOptions({1, 3}, {1, 2})), Equals(from_values({1, 2, 1}, {1, 1, 1, 3})));
  // col2im adds onto what the image holds.
  std::vector<float> image = {10, 10, 10};
  const float cols[4] = {1, 1, 1, 1};
  const torch::Tensor x = torch::zeros({1, 1, 1, 3});
  const native::Conv2dGeometry g = native::geometry_of(x, torch::zeros({1, 1, 1, 2}), params_of(1, 1, 0, 0, 1, 1));
  native::col2im(cols, 2, g, image.data());
  CHECK(image == std::vector<float>{11, 12, 11});
}

// ---- 7. The im2col convolution ----

TEST_CASE("conv2d via im2col equals module 09's loops: stride, padding, dilation, groups, bias",
          "[points=9][conv]") {
  struct Case {
    int64_t batch, channels, out_channels, groups, kh, kw, stride, padding, dilation;
    bool bias;
  };
  const std::vector<Case> cases = {{2, 3, 4, 1, 3, 3, 1, 1, 1, true},  {3, 4, 6, 2, 3, 2, 2, 1, 1, true},
                                   {1, 6, 3, 3, 2, 2, 1, 2, 2, false}, {20, 3, 5, 1, 3, 3, 1, 1, 1, true},
                                   {2, 4, 4, 4, 3, 3, 2, 0, 1, true}};
  for (const Case& c : cases) {
    const int64_t height = random_int(6, 11), width = random_int(6, 11);
    const torch::Tensor input = random_tensor({c.batch, c.channels, height, width});
    const torch::Tensor weight = random_tensor({c.out_channels, c.channels / c.groups, c.kh, c.kw});
    const torch::Tensor bias = c.bias ? random_tensor({c.out_channels}) : torch::Tensor();
    const native::Conv2dParams p = params_of(c.stride, c.stride, c.padding, c.padding, c.dilation, c.dilation);
    INFO("batch " << c.batch << " channels " << c.channels << "->" << c.out_channels << " groups " << c.groups
                  << " kernel " << c.kh << "x" << c.kw << " stride " << c.stride << " padding " << c.padding
                  << " dilation " << c.dilation << " image " << height << "x" << width);
    CHECK_THAT(native::conv2d_im2col(input, weight, bias, p), AllClose(native::conv2d_reference(input, weight, bias, p),
                                                                       1e-5, 1e-5));
  }
  {
    // Above kGemmParallelThreshold multiply-adds (16 x 16 x 72 x 256 = 4.7M) the chunks split between
    // two threads: each writes only its own images.
    ThreadCount two(2);
    const torch::Tensor input = random_tensor({16, 8, 16, 16}), weight = random_tensor({16, 8, 3, 3});
    const torch::Tensor bias = random_tensor({16});
    const native::Conv2dParams p = params_of(1, 1, 1, 1, 1, 1);
    INFO("two threads: batch 16, 8 -> 16 channels, 16 x 16, kernel 3, padding 1");
    CHECK_THAT(native::conv2d_im2col(input, weight, bias, p),
               AllClose(native::conv2d_reference(input, weight, bias, p), 1e-5, 1e-5));
  }
  // And torch::conv2d itself runs it in this build (module 17's path).
  const torch::Tensor x = random_tensor({2, 2, 7, 7}), w = random_tensor({3, 2, 3, 3});
  CHECK_THAT(torch::conv2d(x, w, {}, 1, 1),
             AllClose(native::conv2d_reference(x, w, torch::Tensor(), params_of(1, 1, 1, 1, 1, 1)), 1e-5, 1e-5));
}

namespace {

// The input, weight and bias gradients of one backward, each under its own label (hints.json has a
// hint per gradient); `rtol` is that of the weight and bias gradients, which add up many products.
void check_conv_gradients(const std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>& got,
                          const std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>& want, double rtol) {
  {
    LABEL_CHECKS("grad_input");
    CHECK_THAT(std::get<0>(got), AllClose(std::get<0>(want), 1e-5, 1e-4));
  }
  {
    LABEL_CHECKS("grad_weight");
    CHECK_THAT(std::get<1>(got), AllClose(std::get<1>(want), rtol, 1e-4));
  }
  LABEL_CHECKS("grad_bias");
  CHECK_THAT(std::get<2>(got), AllClose(std::get<2>(want), rtol, 1e-4));
}

}  // namespace

TEST_CASE("conv2d's backward via im2col equals module 09's loops, across batch chunks and groups",
          "[points=10][conv_backward]") {
  struct Case {
    int64_t batch, channels, out_channels, groups, kernel, stride, padding, dilation;
  };
  // Batch 24 of 3 x 16 x 16 images goes through in several chunks (about 256 KiB of columns each).
  const std::vector<Case> cases = {{2, 3, 4, 1, 3, 1, 1, 1}, {3, 4, 6, 2, 2, 2, 1, 1}, {2, 6, 3, 3, 3, 1, 2, 2},
                                   {24, 3, 4, 1, 3, 1, 1, 1}};
  for (const Case& c : cases) {
    const int64_t size = c.batch > 8 ? 16 : random_int(6, 10);
    const torch::Tensor input = random_tensor({c.batch, c.channels, size, size});
    const torch::Tensor weight = random_tensor({c.out_channels, c.channels / c.groups, c.kernel, c.kernel});
    const native::Conv2dParams p = params_of(c.stride, c.stride, c.padding, c.padding, c.dilation, c.dilation);
    const native::Conv2dGeometry g = native::geometry_of(input, weight, p);
    const torch::Tensor grad_output = random_tensor({c.batch, c.out_channels, g.out_h, g.out_w});
    INFO("batch " << c.batch << " channels " << c.channels << "->" << c.out_channels << " groups " << c.groups
                  << " kernel " << c.kernel << " stride " << c.stride << " padding " << c.padding << " dilation "
                  << c.dilation);
    const auto want = native::conv2d_backward_reference(grad_output, input, weight, p, {true, true, true});
    const auto got = native::conv2d_backward_im2col(grad_output, input, weight, p, {true, true, true});
    check_conv_gradients(got, want, 1e-5);
  }
  {
    // Two threads, each with its own chunks: the weight and bias gradients add up over both.
    ThreadCount two(2);
    const torch::Tensor input = random_tensor({16, 8, 16, 16}), weight = random_tensor({16, 8, 3, 3});
    const native::Conv2dParams p = params_of(1, 1, 1, 1, 1, 1);
    const torch::Tensor grad_output = random_tensor({16, 16, 16, 16});
    INFO("two threads: batch 16, 8 -> 16 channels, 16 x 16, kernel 3, padding 1");
    const auto want = native::conv2d_backward_reference(grad_output, input, weight, p, {true, true, true});
    const auto got = native::conv2d_backward_im2col(grad_output, input, weight, p, {true, true, true});
    check_conv_gradients(got, want, 1e-4);
  }
  // A strided grad_output (the gradient of out.sum(): one value expanded) and a partial mask.
  const torch::Tensor input = random_tensor({2, 2, 6, 6}), weight = random_tensor({3, 2, 3, 3});
  const native::Conv2dParams p = params_of(1, 1, 1, 1, 1, 1);
  const torch::Tensor grad_output = torch::ones({1}).expand({2, 3, 6, 6});
  const auto want = native::conv2d_backward_reference(grad_output, input, weight, p, {true, true, false});
  const auto got = native::conv2d_backward_im2col(grad_output, input, weight, p, {true, true, false});
  {
    LABEL_CHECKS("grad_input");
    CHECK_THAT(std::get<0>(got), AllClose(std::get<0>(want), 1e-5, 1e-4));
  }
  {
    LABEL_CHECKS("grad_weight");
    CHECK_THAT(std::get<1>(got), AllClose(std::get<1>(want), 1e-5, 1e-4));
  }
  CHECK_FALSE(std::get<2>(got).defined());
}

// ---- 9. Fusion and memory traffic: the element-wise loops ----

TEST_CASE("the element-wise loops cover every layout: same shape, scalar, row and column broadcasts",
          "[points=6][elementwise]") {
  const int64_t rows = random_int(20, 40), cols = random_int(20, 40);  // above the fast paths' 256 elements
  const torch::Tensor a = random_tensor({rows, cols});
  const torch::Tensor same = random_tensor({rows, cols}, 0.5, 2);
  const torch::Tensor scalar = random_tensor({1}, 0.5, 2);
  const torch::Tensor row = random_tensor({cols}, 0.5, 2);
  const torch::Tensor column = random_tensor({rows, 1}, 0.5, 2);
  const float* pa = a.data_ptr<float>();
  // The operand's value for element (i, j) in each layout.
  auto expect = [&](const torch::Tensor& other, int layout, bool left, char op) {
    std::vector<double> out;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        const float* po = other.data_ptr<float>();
        const double o = layout == 0 ? po[i * cols + j] : layout == 1 ? po[0] : layout == 2 ? po[j] : po[i];
        const double x = pa[i * cols + j];
        const double l = left ? o : x, r = left ? x : o;
        const float value = op == '+'   ? static_cast<float>(l) + static_cast<float>(r)
                            : op == '-' ? static_cast<float>(l) - static_cast<float>(r)
                            : op == '*' ? static_cast<float>(l) * static_cast<float>(r)
                                        : static_cast<float>(l) / static_cast<float>(r);
        out.push_back(value);
      }
    return from_values(out, {rows, cols});
  };
  const std::vector<torch::Tensor> others = {same, scalar, row, column};
  for (int layout = 0; layout < 4; ++layout) {
    const torch::Tensor& o = others[static_cast<size_t>(layout)];
    INFO("layout " << (layout == 0 ? "same shape" : layout == 1 ? "scalar" : layout == 2 ? "row" : "column"));
    CHECK_THAT(a + o, Equals(expect(o, layout, false, '+')));
    CHECK_THAT(a - o, Equals(expect(o, layout, false, '-')));
    CHECK_THAT(o * a, Equals(expect(o, layout, true, '*')));
    CHECK_THAT(a / o, Equals(expect(o, layout, false, '/')));
    CHECK_THAT(o - a, Equals(expect(o, layout, true, '-')));
  }
  // A trailing block repeated over a leading dim: a (rows, cols) mask under (depth, rows, cols) scores.
  const int64_t depth = random_int(2, 4);
  const torch::Tensor scores = random_tensor({depth, rows, cols});
  const float* ps = scores.data_ptr<float>();
  const float* pr = same.data_ptr<float>();
  std::vector<double> masked, masked_left;
  for (int64_t i = 0; i < depth * rows * cols; ++i) {
    masked.push_back(ps[i] + pr[i % (rows * cols)]);
    masked_left.push_back(pr[i % (rows * cols)] / ps[i]);
  }
  INFO("layout: a (rows, cols) block under (depth, rows, cols)");
  CHECK_THAT(scores + same, Equals(from_values(masked, {depth, rows, cols})));
  CHECK_THAT(same.unsqueeze(0) / scores, Equals(from_values(masked_left, {depth, rows, cols})));
}

TEST_CASE("the fused in-place update, comparisons and sums equal their definitions", "[points=6][fused]") {
  const int64_t rows = random_int(20, 40), cols = random_int(20, 40);
  const torch::Tensor p0 = random_tensor({rows, cols});
  const torch::Tensor grad = random_tensor({rows, cols});
  const torch::Tensor grad_t = random_tensor({cols, rows}).t();  // same sizes, transposed strides
  std::vector<double> expected, expected_t;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const float p = p0.data_ptr<float>()[i * cols + j];
      expected.push_back(p - 0.5f * grad.data_ptr<float>()[i * cols + j]);
      expected_t.push_back(p + 2.0f * static_cast<float>(at2(grad_t, i, j)));
    }
  torch::Tensor p = p0.clone();
  p.sub_(grad, 0.5);
  CHECK_THAT(p, Equals(from_values(expected, {rows, cols})));
  torch::Tensor q = p0.clone();
  q.add_(grad_t, 2.0);
  CHECK_THAT(q, Equals(from_values(expected_t, {rows, cols})));
  torch::Tensor r = p0.clone();
  r.mul_(torch::full({1}, 4.0));
  CHECK_THAT(r, Equals(from_values([&] {
                          std::vector<double> v;
                          for (int64_t i = 0; i < rows * cols; ++i) v.push_back(4.0f * p0.data_ptr<float>()[i]);
                          return v;
                        }(),
                                   {rows, cols})));
  // Comparisons: same shape and against one element.
  const torch::Tensor b = random_tensor({rows, cols});
  const torch::Tensor greater = p0 > b, at_least = p0 >= torch::full({1}, 0.25);
  for (int64_t i = 0; i < rows * cols; ++i) {
    REQUIRE(greater.data_ptr<bool>()[i] == (p0.data_ptr<float>()[i] > b.data_ptr<float>()[i]));
    REQUIRE(at_least.data_ptr<bool>()[i] == (p0.data_ptr<float>()[i] >= 0.25f));
  }
  // Sums over the leading dim (a bias gradient) and the trailing one (row sums).
  std::vector<double> column_sums(static_cast<size_t>(cols), 0.0), row_sums(static_cast<size_t>(rows), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      column_sums[static_cast<size_t>(j)] += p0.data_ptr<float>()[i * cols + j];
      row_sums[static_cast<size_t>(i)] += p0.data_ptr<float>()[i * cols + j];
    }
  CHECK_THAT(p0.sum(0), Equals(from_values(column_sums, {cols})));
  CHECK_THAT(p0.sum(1), Equals(from_values(row_sums, {rows})));
}

// ---- 10. Measure it: the numbers the lesson asks for (printed; nothing here is timed for points) ----

namespace {
template <typename Body>
double best_ms(int repeats, Body body) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}
}  // namespace

TEST_CASE("measured: your GEMM against your module 01 loops at 512 x 512, and the convolution both ways",
          "[points=4][measure]") {
  const int64_t n = 512;
  const torch::Tensor a = random_tensor({n, n}), b = random_tensor({n, n});
  torch::Tensor naive, fast;
  const double naive_ms = best_ms(2, [&] { naive = torch::acceleration::naive_mm(a, b); });
  const double fast_1 = [&] {
    ThreadCount one(1);
    return best_ms(3, [&] { fast = torch::acceleration::fast_mm(a, b); });
  }();
  CHECK_THAT(fast, Equals(naive));
  const double fast_2 = [&] {
    ThreadCount two(2);
    return best_ms(3, [&] { fast = torch::acceleration::fast_mm(a, b); });
  }();
  CHECK_THAT(fast, Equals(naive));
  const double flops = 2.0 * n * n * n;
  std::printf("\n512 x 512 matmul (%s micro-kernel):\n", torch::cpublas::float_kernel().c_str());
  std::printf("  module 01 loops (naive_mm)  %8.2f ms  %6.2f GFLOP/s\n", naive_ms, flops / naive_ms / 1e6);
  std::printf("  your GEMM, 1 thread          %8.2f ms  %6.2f GFLOP/s  (%.1fx)\n", fast_1, flops / fast_1 / 1e6,
              naive_ms / fast_1);
  std::printf("  your GEMM, 2 threads         %8.2f ms  %6.2f GFLOP/s  (%.1fx)\n", fast_2, flops / fast_2 / 1e6,
              naive_ms / fast_2);
  // A TinyDigits-sized convolution: batch 32 of 1 x 8 x 8, 8 filters of 3 x 3, padding 1.
  const torch::Tensor x = random_tensor({32, 1, 8, 8}), w = random_tensor({8, 1, 3, 3}), bias = random_tensor({8});
  const native::Conv2dParams p = params_of(1, 1, 1, 1, 1, 1);
  torch::Tensor loops, gemm;
  const double loops_ms = best_ms(5, [&] { loops = native::conv2d_reference(x, w, bias, p); });
  const double im2col_ms = best_ms(5, [&] { gemm = native::conv2d_im2col(x, w, bias, p); });
  CHECK_THAT(gemm, AllClose(loops, 1e-5, 1e-5));
  const native::Conv2dGeometry g = native::geometry_of(x, w, p);
  const double image_bytes = 4.0 * g.channels * g.height * g.width;
  const double column_bytes = 4.0 * g.channels * g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  std::printf("conv2d 32 x 1 x 8 x 8, 8 filters 3 x 3: module 09 loops %.3f ms, im2col + GEMM %.3f ms (%.1fx)\n",
              loops_ms, im2col_ms, loops_ms / im2col_ms);
  std::printf("im2col columns per image: %.0f bytes for a %.0f-byte image (%.1fx = kh kw at stride 1)\n",
              column_bytes, image_bytes, column_bytes / image_bytes);
}
