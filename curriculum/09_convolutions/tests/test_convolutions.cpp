// Module 09 (Convolutions): the graded tests. Each case is tagged with its points ([points=N], 100
// in all) and a topic; hints.json has a hint per case name. Every case runs code the learner
// writes: conv_output_size and the seven loops (conv2d_loops.cpp), the pooling loops
// (pooling_loops.cpp) and the batch-normalisation loops (batch_norm_loops.cpp), reached through
// LibTorch's API (torch::conv2d, nn::MaxPool2d, nn::BatchNorm2d, ...).
// Expected values are worked by hand in the comments, or computed here by an independent oracle in
// double precision: the definition written as plain loops over a zero-padded copy (not the
// learner's bounds checks), central differences, and LibTorch's own gradient formulas.
// Every case ends with inputs drawn by random_tensor / random_int: under `tito grade` from a secret
// seed, so their answers cannot be known in advance (`tito module test` draws with a fixed seed). The
// max-pooling cases draw distinct values in a drawn order: a tie in a window would leave the
// maximum's position, and so its gradient, to a convention. The literal examples before them keep
// torch::randn where they had it.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace F = torch::nn::functional;

namespace {

torch::Tensor doubles(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kDouble).reshape(sizes);
}

torch::Tensor floats(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kFloat).reshape(sizes);
}

// 1, 2, ..., n as a float tensor of the given sizes.
torch::Tensor counting(Sizes sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return (torch::arange(n).to(torch::kFloat) + 1).reshape(sizes);
}

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// The oracle: out[n][o][y][x] = bias[o] + sum over c, i, j of padded[n][g c][y s + i d][x s + j d] w[o][c][i][j],
// on an explicitly zero-padded copy of the input, in double.
torch::Tensor conv2d_oracle(const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias,
                            Sizes stride, Sizes padding, Sizes dilation, int64_t groups) {
  const std::vector<double> x = values_of(input), w = values_of(weight);
  const std::vector<double> b = bias.defined() ? values_of(bias) : std::vector<double>();
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t O = weight.size(0), Cg = weight.size(1), KH = weight.size(2), KW = weight.size(3);
  const int64_t PH = H + 2 * padding[0], PW = W + 2 * padding[1];
  std::vector<double> padded(N * C * PH * PW, 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t y = 0; y < H; ++y)
        for (int64_t xx = 0; xx < W; ++xx)
          padded[((n * C + c) * PH + y + padding[0]) * PW + xx + padding[1]] = x[((n * C + c) * H + y) * W + xx];
  const int64_t OH = (PH - dilation[0] * (KH - 1) - 1) / stride[0] + 1;
  const int64_t OW = (PW - dilation[1] * (KW - 1) - 1) / stride[1] + 1;
  std::vector<double> out(N * O * OH * OW);
  const int64_t per_group = O / groups;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t y = 0; y < OH; ++y)
        for (int64_t xx = 0; xx < OW; ++xx) {
          double sum = b.empty() ? 0.0 : b[o];
          for (int64_t c = 0; c < Cg; ++c)
            for (int64_t i = 0; i < KH; ++i)
              for (int64_t j = 0; j < KW; ++j)
                sum += padded[((n * C + (o / per_group) * Cg + c) * PH + y * stride[0] + i * dilation[0]) * PW +
                              xx * stride[1] + j * dilation[1]] *
                       w[((o * Cg + c) * KH + i) * KW + j];
          out[((n * O + o) * OH + y) * OW + xx] = sum;
        }
  return doubles(out, {N, O, OH, OW});
}

// d f / d t by central differences, element by element (t is changed and restored in place).
torch::Tensor central_differences(const std::function<double()>& f, torch::Tensor t, double eps = 1e-6) {
  torch::NoGradGuard no_grad;
  std::vector<double> grad(t.numel());
  double* data = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double saved = data[i];
    data[i] = saved + eps;
    const double up = f();
    data[i] = saved - eps;
    const double down = f();
    data[i] = saved;
    grad[i] = (up - down) / (2 * eps);
  }
  return doubles(grad, t.sizes().vec());
}

double weighted_sum(const torch::Tensor& out, const torch::Tensor& projection) {
  return (out * projection).sum().item<double>();
}

// A float tensor of the given sizes holding distinct multiples of 1/8 around 0 in a drawn order
// (Fisher-Yates with random_int): every window has one maximum, with no tie.
torch::Tensor distinct_values(Sizes sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<double>(i - n / 2) / 8;
  for (int64_t i = n - 1; i > 0; --i) std::swap(values[i], values[random_int(0, i)]);
  return floats(values, sizes);
}

// One pooling geometry (square kernel, stride and padding) on an (N, C, H, W) input, drawn so that
// LibTorch accepts it: padding at most half the kernel, the kernel no larger than the image.
struct PoolDraw {
  int64_t kernel, stride, padding, N, C, H, W;
  int64_t out_h() const { return (H + 2 * padding - kernel) / stride + 1; }
  int64_t out_w() const { return (W + 2 * padding - kernel) / stride + 1; }
  // Calls visit(plane, y, x, row, col) for every tap of output (y, x) that lies inside the image.
  template <typename Visit>
  void for_each_tap(Visit visit) const {
    for (int64_t plane = 0; plane < N * C; ++plane)
      for (int64_t y = 0; y < out_h(); ++y)
        for (int64_t x = 0; x < out_w(); ++x)
          for (int64_t i = 0; i < kernel; ++i)
            for (int64_t j = 0; j < kernel; ++j) {
              const int64_t row = y * stride - padding + i, col = x * stride - padding + j;
              if (row >= 0 && row < H && col >= 0 && col < W) visit(plane, y, x, row, col);
            }
  }
};

PoolDraw draw_pool(int64_t min_kernel, int64_t max_stride) {
  PoolDraw g{};
  g.kernel = random_int(min_kernel, 3);
  g.stride = random_int(1, max_stride);
  g.padding = random_int(0, g.kernel / 2);
  g.N = random_int(1, 2);
  g.C = random_int(1, 2);
  g.H = random_int(g.kernel, 7);
  g.W = random_int(g.kernel, 7);
  return g;
}

// The oracle for batch_norm in double, plain loops: each channel normalised by its batch mean and
// BIASED variance in training, by the running statistics in evaluation; then scaled and shifted.
torch::Tensor batch_norm_oracle(const torch::Tensor& input, const torch::Tensor& weight, const torch::Tensor& bias,
                                const torch::Tensor& running_mean, const torch::Tensor& running_var, bool training,
                                double eps) {
  const std::vector<double> x = values_of(input), w = values_of(weight), b = values_of(bias);
  const std::vector<double> rm = values_of(running_mean), rv = values_of(running_var);
  const int64_t N = input.size(0), C = input.size(1), HW = input.numel() / (N * C);
  std::vector<double> out(x.size());
  for (int64_t c = 0; c < C; ++c) {
    double mean = rm[c], variance = rv[c];
    if (training) {
      mean = 0, variance = 0;
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < HW; ++k) mean += x[(n * C + c) * HW + k] / static_cast<double>(N * HW);
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < HW; ++k) {
          const double d = x[(n * C + c) * HW + k] - mean;
          variance += d * d / static_cast<double>(N * HW);
        }
    }
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < HW; ++k) {
        const int64_t at = (n * C + c) * HW + k;
        out[at] = (x[at] - mean) / std::sqrt(variance + eps) * w[c] + b[c];
      }
  }
  return doubles(out, input.sizes().vec());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: output size (conv2d_loops.cpp, conv_output_size)
// ---------------------------------------------------------------------------------------------

TEST_CASE("a convolution's output size follows LibTorch's formula", "[points=6][conv][shape]") {
  auto out_size = [](Sizes input, int64_t k, int64_t s, int64_t p, int64_t d) {
    return torch::conv2d(torch::zeros(input), torch::zeros({1, input[1], k, k}), {}, s, p, d).sizes().vec();
  };
  CHECK(out_size({1, 1, 32, 32}, 3, 1, 1, 1) == Sizes{1, 1, 32, 32});  // "same" padding
  CHECK(out_size({1, 1, 32, 32}, 3, 1, 0, 1) == Sizes{1, 1, 30, 30});  // shrinks by k - 1
  CHECK(out_size({1, 1, 32, 32}, 3, 2, 1, 1) == Sizes{1, 1, 16, 16});  // (32 + 2 - 3) / 2 + 1
  CHECK(out_size({1, 1, 7, 7}, 3, 2, 0, 1) == Sizes{1, 1, 3, 3});      // floor: the last column is left over
  CHECK(out_size({1, 1, 7, 7}, 3, 1, 0, 2) == Sizes{1, 1, 3, 3});      // dilation 2: the kernel spans 5
  CHECK(out_size({2, 3, 28, 28}, 5, 1, 0, 1) == Sizes{2, 1, 24, 24});  // LeNet's first layer
  const auto rectangular =
      torch::conv2d(torch::zeros({1, 1, 28, 14}), torch::zeros({4, 1, 3, 3}), {}, 1, 1).sizes().vec();
  CHECK(rectangular == Sizes{1, 4, 28, 14});
  // Drawn geometries, the expected size worked out here from the formula; the image is at least as
  // large as the dilated kernel's extent once padded.
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t k = random_int(1, 4), s = random_int(1, 3), p = random_int(0, 2), d = random_int(1, 3);
    const int64_t extent = d * (k - 1) + 1;
    const int64_t h = random_int(std::max<int64_t>(1, extent - 2 * p), extent + 12);
    const int64_t w = random_int(std::max<int64_t>(1, extent - 2 * p), extent + 12);
    const int64_t channels = random_int(1, 3), filters = random_int(1, 4);
    const auto drawn = torch::conv2d(torch::zeros({1, channels, h, w}), torch::zeros({filters, channels, k, k}), {}, s, p, d)
                           .sizes()
                           .vec();
    CHECK(drawn == Sizes{1, filters, (h + 2 * p - extent) / s + 1, (w + 2 * p - extent) / s + 1});
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: the seven loops (conv2d_loops.cpp, conv2d_reference)
// ---------------------------------------------------------------------------------------------

TEST_CASE("conv2d computes the hand-worked examples", "[points=10][conv][forward]") {
  // [[1,2,3],[4,5,6],[7,8,9]] with [[1,0],[0,1]]: each output is top-left + bottom-right.
  const torch::Tensor image = counting({1, 1, 3, 3});
  const torch::Tensor diagonal = floats({1, 0, 0, 1}, {1, 1, 2, 2});
  CHECK_THAT(torch::conv2d(image, diagonal), Equals(floats({6, 8, 12, 14}, {1, 1, 2, 2})));
  // Two output channels: all ones (window sums) and all twos.
  const torch::Tensor two_filters = torch::cat({torch::ones({1, 1, 2, 2}), torch::full({1, 1, 2, 2}, 2.0)}, 0);
  CHECK_THAT(torch::conv2d(image, two_filters), Equals(floats({12, 16, 24, 28, 24, 32, 48, 56}, {1, 2, 2, 2})));
  // The lesson's example: [[1,2,3,4],[5,6,7,8],[9,0,1,2]] with the diagonal kernel, then a bias of 10.
  const torch::Tensor lesson = floats({1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2}, {1, 1, 3, 4});
  CHECK_THAT(torch::conv2d(lesson, diagonal), Equals(floats({7, 9, 11, 5, 7, 9}, {1, 1, 2, 3})));
  CHECK_THAT(torch::conv2d(lesson, diagonal, floats({10}, {1})),
             Equals(floats({17, 19, 21, 15, 17, 19}, {1, 1, 2, 3})));
  // Input channels add up: two channels of the same image with the diagonal kernel on each.
  const torch::Tensor two_channels = torch::cat({image, image * 10}, 1);
  const torch::Tensor kernel = torch::cat({diagonal, diagonal}, 1);
  CHECK_THAT(torch::conv2d(two_channels, kernel), Equals(floats({66, 88, 132, 154}, {1, 1, 2, 2})));
  // Drawn images, filters and biases against the oracle: sums of multiples of 1/64, exact in float.
  const torch::Tensor x = random_tensor({random_int(1, 2), random_int(1, 3), random_int(3, 6), random_int(3, 6)});
  const torch::Tensor w = random_tensor({random_int(1, 3), x.size(1), random_int(1, 3), random_int(1, 3)});
  const torch::Tensor b = random_tensor({w.size(0)});
  CHECK_THAT(torch::conv2d(x, w, b), Equals(conv2d_oracle(x, w, b, {1, 1}, {0, 0}, {1, 1}, 1).to(torch::kFloat)));
}

TEST_CASE("conv2d matches the definition with padding, stride, dilation and groups", "[points=12][conv][forward]") {
  struct Case {
    Sizes input, weight, stride, padding, dilation;
    int64_t groups;
    bool bias;
  };
  const Case cases[] = {
      {{2, 3, 7, 6}, {4, 3, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 1, true},   // stride 2, padding 1
      {{1, 2, 8, 8}, {3, 2, 3, 3}, {1, 1}, {2, 2}, {2, 2}, 1, false},  // dilation 2, padding 2
      {{2, 4, 6, 5}, {6, 2, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 2, true},   // two groups
      {{1, 2, 9, 7}, {2, 2, 2, 3}, {2, 1}, {1, 0}, {1, 1}, 1, true},   // rectangular everything
      {{3, 1, 5, 5}, {2, 1, 5, 5}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // the kernel covers the image
  };
  for (const Case& c : cases) {
    const torch::Tensor x = random_tensor(c.input, -2, 2, torch::kDouble);
    const torch::Tensor w = random_tensor(c.weight, -2, 2, torch::kDouble);
    const torch::Tensor b = c.bias ? random_tensor({c.weight[0]}, -2, 2, torch::kDouble) : torch::Tensor();
    const torch::Tensor expected = conv2d_oracle(x, w, b, c.stride, c.padding, c.dilation, c.groups);
    const torch::Tensor actual = torch::conv2d(x, w, c.bias ? std::optional<torch::Tensor>(b) : std::nullopt,
                                               c.stride, c.padding, c.dilation, c.groups);
    CHECK_THAT(actual, AllClose(expected, 1e-10, 1e-10));
    // The same in float through nn::Conv2d with the weights copied in.
    torch::nn::Conv2d layer(torch::nn::Conv2dOptions(c.input[1], c.weight[0], {c.weight[2], c.weight[3]})
                                .stride(c.stride)
                                .padding(c.padding)
                                .dilation(c.dilation)
                                .groups(c.groups)
                                .bias(c.bias));
    {
      torch::NoGradGuard no_grad;
      layer->weight.copy_(w);
      if (c.bias) layer->bias.copy_(b);
    }
    CHECK_THAT(layer(x.to(torch::kFloat)), AllClose(expected.to(torch::kFloat), 1e-4, 1e-4));
  }
}

// ---------------------------------------------------------------------------------------------
// Lesson section 4: backward through the loops (conv2d_loops.cpp, conv2d_backward_reference)
// ---------------------------------------------------------------------------------------------

TEST_CASE("conv2d gradients match central differences", "[points=10][conv][backward]") {
  // Stride 2, padding 1, dilation 1, and a second case with dilation 2 and two groups.
  struct Case {
    Sizes input, weight;
    int64_t stride, padding, dilation, groups;
  };
  for (const Case& c : {Case{{2, 2, 5, 5}, {3, 2, 3, 3}, 2, 1, 1, 1}, Case{{1, 4, 6, 6}, {2, 2, 2, 2}, 1, 1, 2, 2}}) {
    torch::Tensor x = random_tensor(c.input, -2, 2, torch::kDouble).requires_grad_();
    torch::Tensor w = random_tensor(c.weight, -2, 2, torch::kDouble).requires_grad_();
    torch::Tensor b = random_tensor({c.weight[0]}, -2, 2, torch::kDouble).requires_grad_();
    auto forward = [&] { return torch::conv2d(x, w, b, c.stride, c.padding, c.dilation, c.groups); };
    const torch::Tensor projection = random_tensor(forward().sizes(), -2, 2, torch::kDouble);
    (forward() * projection).sum().backward();
    auto loss = [&] { return weighted_sum(forward(), projection); };
    {
      LABEL_CHECKS("grad_input");
      CHECK_THAT(x.grad(), AllClose(central_differences(loss, x.detach()), 1e-6, 1e-6));
    }
    {
      LABEL_CHECKS("grad_weight");
      CHECK_THAT(w.grad(), AllClose(central_differences(loss, w.detach()), 1e-6, 1e-6));
    }
    LABEL_CHECKS("grad_bias");
    CHECK_THAT(b.grad(), AllClose(central_differences(loss, b.detach()), 1e-6, 1e-6));
  }
}

TEST_CASE("conv2d gradients match LibTorch's formulas in double precision", "[points=8][conv][backward]") {
  // LibTorch's formulas for stride 1, padding p, one group and grad_output G:
  //   grad_bias   = G summed over batch, rows and columns;
  //   grad_weight = conv2d(x^T, G^T, padding p)^T      (transpose = swap dims 0 and 1);
  //   grad_input  = conv2d(G, w flipped in both spatial dims and transposed, padding k - 1 - p).
  // The right-hand sides use only the oracle, not the learner's code.
  const int64_t k = 3, p = 1;
  torch::Tensor x = random_tensor({2, 3, 6, 5}, -2, 2, torch::kDouble).requires_grad_();
  torch::Tensor w = random_tensor({4, 3, k, k}, -2, 2, torch::kDouble).requires_grad_();
  torch::Tensor b = random_tensor({4}, -2, 2, torch::kDouble).requires_grad_();
  const torch::Tensor out = torch::conv2d(x, w, b, 1, p);
  const torch::Tensor G = random_tensor(out.sizes(), -2, 2, torch::kDouble);
  out.backward(G);
  const torch::Tensor none;
  {
    LABEL_CHECKS("grad_bias");
    CHECK_THAT(b.grad(), AllClose(G.sum({0, 2, 3}), 1e-10, 1e-10));
  }
  const torch::Tensor grad_weight =
      conv2d_oracle(x.detach().transpose(0, 1), G.transpose(0, 1), none, {1, 1}, {p, p}, {1, 1}, 1).transpose(0, 1);
  {
    LABEL_CHECKS("grad_weight");
    CHECK_THAT(w.grad(), AllClose(grad_weight, 1e-10, 1e-10));
  }
  // w (O, C, k, k) -> (C, O, k, k) with each filter turned by 180 degrees.
  const std::vector<double> wv = values_of(w);
  std::vector<double> turned(wv.size());
  const int64_t O = w.size(0), C = w.size(1);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < k; ++j)
          turned[((c * O + o) * k + (k - 1 - i)) * k + (k - 1 - j)] = wv[((o * C + c) * k + i) * k + j];
  const torch::Tensor flipped = doubles(turned, {C, O, k, k});
  const torch::Tensor grad_input = conv2d_oracle(G, flipped, none, {1, 1}, {k - 1 - p, k - 1 - p}, {1, 1}, 1);
  LABEL_CHECKS("grad_input");
  CHECK_THAT(x.grad(), AllClose(grad_input, 1e-10, 1e-10));
}

TEST_CASE("conv2d backward reads an expanded gradient and skips what is not needed",
          "[points=4][conv][backward]") {
  // out.sum() sends back one number expanded to out's shape (every stride 0).
  torch::Tensor x = torch::ones({2, 1, 4, 4}, torch::kDouble).requires_grad_();
  torch::Tensor w = torch::ones({3, 1, 3, 3}, torch::kDouble).requires_grad_();
  torch::Tensor b = torch::zeros({3}, torch::kDouble).requires_grad_();
  torch::conv2d(x, w, b).sum().backward();
  // Each bias adds to 2 x 2 x 2 outputs; each tap of each filter saw 2 x 2 x 2 ones.
  CHECK_THAT(b.grad(), Equals(torch::full({3}, 8.0, torch::kDouble)));
  CHECK_THAT(w.grad(), Equals(torch::full({3, 1, 3, 3}, 8.0, torch::kDouble)));
  // A corner pixel is in one window per filter (3 in all); a centre pixel in 4 (12 in all).
  CHECK(x.grad()[0][0][0][0].item<double>() == 3);
  CHECK(x.grad()[0][0][1][1].item<double>() == 12);
  // A frozen input (a data batch) gets no gradient.
  torch::Tensor data = torch::ones({1, 1, 4, 4});
  torch::Tensor weight = torch::ones({1, 1, 3, 3}, torch::requires_grad());
  torch::conv2d(data, weight).sum().backward();
  CHECK_FALSE(data.grad().defined());
  CHECK_THAT(weight.grad(), Equals(torch::full({1, 1, 3, 3}, 4.0f)));
  // Drawn values under out.sum(): each bias gets N OH OW, each tap the sum of the pixels it saw,
  // each pixel the sum of the taps that saw it, added up here by plain loops (stride 1, no padding).
  const int64_t N = random_int(1, 2), C = random_int(1, 2), O = random_int(1, 3), K = random_int(1, 3);
  const int64_t H = random_int(K, K + 3), W = random_int(K, K + 3), OH = H - K + 1, OW = W - K + 1;
  torch::Tensor images = random_tensor({N, C, H, W}, -2, 2, torch::kDouble).requires_grad_();
  torch::Tensor filters = random_tensor({O, C, K, K}, -2, 2, torch::kDouble).requires_grad_();
  torch::Tensor biases = random_tensor({O}, -2, 2, torch::kDouble).requires_grad_();
  torch::conv2d(images, filters, biases).sum().backward();
  const std::vector<double> xv = values_of(images.detach()), wv = values_of(filters.detach());
  std::vector<double> grad_images(xv.size(), 0.0), grad_filters(wv.size(), 0.0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t y = 0; y < OH; ++y)
        for (int64_t xx = 0; xx < OW; ++xx)
          for (int64_t c = 0; c < C; ++c)
            for (int64_t i = 0; i < K; ++i)
              for (int64_t j = 0; j < K; ++j) {
                const int64_t pixel = ((n * C + c) * H + y + i) * W + xx + j, tap = ((o * C + c) * K + i) * K + j;
                grad_filters[tap] += xv[pixel];
                grad_images[pixel] += wv[tap];
              }
  CHECK_THAT(biases.grad(), Equals(torch::full({O}, static_cast<double>(N * OH * OW), torch::kDouble)));
  CHECK_THAT(filters.grad(), Equals(doubles(grad_filters, {O, C, K, K})));
  CHECK_THAT(images.grad(), Equals(doubles(grad_images, {N, C, H, W})));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: pooling (pooling_loops.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("max pooling takes each window's maximum and remembers where", "[points=6][pool][forward]") {
  const torch::Tensor x = counting({1, 1, 4, 4});  // [[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]
  CHECK_THAT(torch::max_pool2d(x, 2), Equals(floats({6, 8, 14, 16}, {1, 1, 2, 2})));
  auto [values, indices] = torch::max_pool2d_with_indices(x, 2);
  CHECK_THAT(indices, Equals(torch::tensor({5, 7, 13, 15}, torch::kLong).reshape({1, 1, 2, 2})));
  // Overlapping windows (kernel 3, stride 1) on 5 x 5: (1..25) maxima are the bottom-right corners.
  CHECK_THAT(torch::max_pool2d(counting({1, 1, 5, 5}), 3, 1),
             Equals(floats({13, 14, 15, 18, 19, 20, 23, 24, 25}, {1, 1, 3, 3})));
  // Padding never wins: all negative values, padding 1.
  const torch::Tensor negative = -counting({1, 1, 2, 2});  // [[-1,-2],[-3,-4]]
  CHECK_THAT(torch::max_pool2d(negative, 2, 1, 1), Equals(floats({-1, -1, -2, -1, -1, -2, -3, -3, -4}, {1, 1, 3, 3})));
  // Ties keep the first position; stride and kernel differ per dimension; channels and samples apart.
  auto [tied, tied_at] = torch::max_pool2d_with_indices(torch::ones({1, 1, 2, 2}), 2);
  CHECK(tied_at.item<int64_t>() == 0);
  const torch::Tensor batch = counting({2, 3, 4, 6});
  const torch::Tensor pooled = F::max_pool2d(batch, F::MaxPool2dFuncOptions({2, 3}).stride({2, 3}));
  CHECK(pooled.sizes().vec() == Sizes{2, 3, 2, 2});
  CHECK(pooled[1][2][1][1].item<double>() == 144);  // the last value of the last plane
  CHECK(pooled[1][2][0][0].item<double>() == 129);  // plane 5 starts at 121: row 1, column 2 -> 121 + 6 + 2
  // nn::MaxPool2d runs the same and has no parameters.
  torch::nn::MaxPool2d layer(torch::nn::MaxPool2dOptions(2));
  CHECK_THAT(layer(x), Equals(floats({6, 8, 14, 16}, {1, 1, 2, 2})));
  CHECK(layer->parameters().empty());
  // Drawn geometries on distinct values (about half negative, so padding must never win): each
  // window's maximum and its position y W + x, found here by scanning the taps inside the image.
  for (int trial = 0; trial < 4; ++trial) {
    const PoolDraw g = draw_pool(1, 3);
    const torch::Tensor drawn = distinct_values({g.N, g.C, g.H, g.W});
    const std::vector<double> v = values_of(drawn);
    std::vector<double> maxima(g.N * g.C * g.out_h() * g.out_w(), -std::numeric_limits<double>::infinity());
    std::vector<int64_t> where(maxima.size(), -1);
    g.for_each_tap([&](int64_t plane, int64_t y, int64_t xx, int64_t row, int64_t col) {
      const int64_t out = (plane * g.out_h() + y) * g.out_w() + xx, in = row * g.W + col;
      if (v[plane * g.H * g.W + in] > maxima[out]) maxima[out] = v[plane * g.H * g.W + in], where[out] = in;
    });
    INFO("kernel " << g.kernel << ", stride " << g.stride << ", padding " << g.padding);
    auto [drawn_max, drawn_at] = torch::max_pool2d_with_indices(drawn, g.kernel, g.stride, g.padding);
    const Sizes out_sizes{g.N, g.C, g.out_h(), g.out_w()};
    CHECK_THAT(drawn_max, Equals(floats(maxima, out_sizes)));
    CHECK_THAT(drawn_at, Equals(torch::tensor(where, torch::kLong).reshape(out_sizes)));
  }
}

TEST_CASE("max pooling sends each gradient to the maximum only", "[points=8][pool][backward]") {
  torch::Tensor x = counting({1, 1, 4, 4}).requires_grad_();
  torch::max_pool2d(x, 2).sum().backward();
  CHECK_THAT(x.grad(), Equals(floats({0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1}, {1, 1, 4, 4})));
  // Kernel 3, stride 1 on 4 x 4 (1..16 ascending): window (y, x) peaks at its bottom-right corner,
  // so the four gradients land on 11, 12, 15 and 16.
  torch::Tensor y = counting({1, 1, 4, 4}).requires_grad_();
  torch::max_pool2d(y, 3, 1).backward(floats({1, 2, 3, 4}, {1, 1, 2, 2}));
  CHECK_THAT(y.grad(), Equals(floats({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4}, {1, 1, 4, 4})));
  // Overlapping windows that pick the same element add up: [0, 9, 0, 0] with windows of 2: 9 wins
  // twice (1 + 10); the tie [0, 0] goes to its first element (100).
  torch::Tensor z = floats({0, 9, 0, 0}, {1, 1, 1, 4}).requires_grad_();
  torch::max_pool2d(z, {1, 2}, {1, 1}).backward(floats({1, 10, 100}, {1, 1, 1, 3}));
  CHECK_THAT(z.grad(), Equals(floats({0, 11, 100, 0}, {1, 1, 1, 4})));
  // Drawn: distinct values (no ties), windows that may overlap, padding, a drawn upstream gradient.
  // Each output's gradient lands on its window's maximum, found here by scanning, and adds up where
  // windows share one.
  const PoolDraw g = draw_pool(2, 3);
  torch::Tensor drawn = distinct_values({g.N, g.C, g.H, g.W}).requires_grad_();
  const torch::Tensor upstream = random_tensor({g.N, g.C, g.out_h(), g.out_w()});
  torch::max_pool2d(drawn, g.kernel, g.stride, g.padding).backward(upstream);
  const std::vector<double> v = values_of(drawn.detach()), u = values_of(upstream);
  std::vector<double> best(u.size(), -std::numeric_limits<double>::infinity());
  std::vector<int64_t> best_at(u.size(), -1);
  g.for_each_tap([&](int64_t plane, int64_t y, int64_t xx, int64_t row, int64_t col) {
    const int64_t out = (plane * g.out_h() + y) * g.out_w() + xx, in = (plane * g.H + row) * g.W + col;
    if (v[in] > best[out]) best[out] = v[in], best_at[out] = in;
  });
  std::vector<double> expected(v.size(), 0.0);
  for (size_t out = 0; out < u.size(); ++out) expected[best_at[out]] += u[out];
  INFO("kernel " << g.kernel << ", stride " << g.stride << ", padding " << g.padding);
  CHECK_THAT(drawn.grad(), Equals(floats(expected, {g.N, g.C, g.H, g.W})));
}

TEST_CASE("average pooling averages each window, LibTorch's way at the borders", "[points=6][pool][forward]") {
  const torch::Tensor x = counting({1, 1, 4, 4});
  CHECK_THAT(torch::avg_pool2d(x, 2), Equals(floats({3.5, 5.5, 11.5, 13.5}, {1, 1, 2, 2})));
  // Padding 1, kernel 2, stride 2 on 1..4 as 2 x 2: every window holds one value and three zeros.
  const torch::Tensor small = counting({1, 1, 2, 2});
  CHECK_THAT(torch::avg_pool2d(small, 2, 2, 1), Equals(floats({0.25, 0.5, 0.75, 1.0}, {1, 1, 2, 2})));
  // count_include_pad = false divides by the values inside the image only.
  CHECK_THAT(torch::avg_pool2d(small, 2, 2, 1, false, false), Equals(floats({1, 2, 3, 4}, {1, 1, 2, 2})));
  // divisor_override replaces the divisor altogether.
  CHECK_THAT(torch::avg_pool2d(x, 2, 2, 0, false, true, 1), Equals(floats({14, 22, 46, 54}, {1, 1, 2, 2})));
  // nn::AvgPool2d and the average never exceeds the maximum.
  torch::manual_seed(2);
  const torch::Tensor r = torch::randn({2, 3, 6, 6});
  torch::nn::AvgPool2d layer(torch::nn::AvgPool2dOptions(3).stride(1));
  const torch::Tensor averaged = layer(r);
  CHECK(averaged.sizes().vec() == Sizes{2, 3, 4, 4});
  CHECK((averaged <= torch::max_pool2d(r, 3, 1) + 1e-6).all().item<bool>());
  const double window_mean = r[1][2].narrow(0, 3, 3).narrow(1, 3, 3).mean().item<double>();
  CHECK(averaged[1][2][3][3].item<double>() == Approx(window_mean).margin(1e-5));
  // Drawn geometries and values, with and without count_include_pad: the sum of each window's taps
  // inside the image over k k (ceil_mode off: no window reaches past the padding) or over their count.
  for (int trial = 0; trial < 4; ++trial) {
    const PoolDraw g = draw_pool(1, 3);
    const bool count_include_pad = random_int(0, 1) == 1;
    const torch::Tensor drawn = random_tensor({g.N, g.C, g.H, g.W});
    const std::vector<double> v = values_of(drawn);
    std::vector<double> sums(g.N * g.C * g.out_h() * g.out_w(), 0.0), counts(sums.size(), 0.0);
    g.for_each_tap([&](int64_t plane, int64_t y, int64_t xx, int64_t row, int64_t col) {
      const int64_t out = (plane * g.out_h() + y) * g.out_w() + xx;
      sums[out] += v[(plane * g.H + row) * g.W + col];
      counts[out] += 1;
    });
    std::vector<double> expected(sums.size());
    for (size_t i = 0; i < sums.size(); ++i)
      expected[i] = sums[i] / (count_include_pad ? static_cast<double>(g.kernel * g.kernel) : counts[i]);
    INFO("kernel " << g.kernel << ", stride " << g.stride << ", padding " << g.padding << ", count_include_pad "
                   << count_include_pad);
    CHECK_THAT(torch::avg_pool2d(drawn, g.kernel, g.stride, g.padding, false, count_include_pad),
               AllClose(floats(expected, {g.N, g.C, g.out_h(), g.out_w()}), 1e-5, 1e-6));
  }
}

TEST_CASE("average pooling shares each gradient over its window", "[points=6][pool][backward]") {
  torch::Tensor x = counting({1, 1, 4, 4}).requires_grad_();
  torch::avg_pool2d(x, 2).sum().backward();
  CHECK_THAT(x.grad(), Equals(torch::full({1, 1, 4, 4}, 0.25f)));
  // Overlap: kernel 2, stride 1 on 3 x 3 -> the centre is in 4 windows, edges in 2, corners in 1.
  torch::Tensor y = torch::zeros({1, 1, 3, 3}, torch::requires_grad());
  torch::avg_pool2d(y, 2, 1).sum().backward();
  CHECK_THAT(y.grad(), Equals(floats({0.25, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.25}, {1, 1, 3, 3})));
  // Central differences with padding and count_include_pad = false, in double.
  torch::manual_seed(6);
  torch::Tensor z = torch::randn({2, 2, 5, 5}, torch::kDouble).requires_grad_();
  auto forward = [&] { return torch::avg_pool2d(z, 3, 2, 1, false, false); };
  const torch::Tensor projection = torch::randn(forward().sizes(), torch::kDouble);
  (forward() * projection).sum().backward();
  CHECK_THAT(z.grad(), AllClose(central_differences([&] { return weighted_sum(forward(), projection); }, z.detach()),
                                1e-6, 1e-6));
  // Drawn geometry and upstream gradient, in double: each output's gradient shared out over its
  // window's taps inside the image, divided as the forward divided, added up here by plain loops.
  const PoolDraw g = draw_pool(1, 3);
  const bool count_include_pad = random_int(0, 1) == 1;
  torch::Tensor drawn = random_tensor({g.N, g.C, g.H, g.W}, -2, 2, torch::kDouble).requires_grad_();
  const torch::Tensor upstream = random_tensor({g.N, g.C, g.out_h(), g.out_w()}, -2, 2, torch::kDouble);
  torch::avg_pool2d(drawn, g.kernel, g.stride, g.padding, false, count_include_pad).backward(upstream);
  const std::vector<double> u = values_of(upstream);
  std::vector<double> counts(u.size(), 0.0), expected(g.N * g.C * g.H * g.W, 0.0);
  g.for_each_tap([&](int64_t plane, int64_t y, int64_t xx, int64_t, int64_t) {
    counts[(plane * g.out_h() + y) * g.out_w() + xx] += 1;
  });
  g.for_each_tap([&](int64_t plane, int64_t y, int64_t xx, int64_t row, int64_t col) {
    const int64_t out = (plane * g.out_h() + y) * g.out_w() + xx;
    const double divisor = count_include_pad ? static_cast<double>(g.kernel * g.kernel) : counts[out];
    expected[(plane * g.H + row) * g.W + col] += u[out] / divisor;
  });
  INFO("kernel " << g.kernel << ", stride " << g.stride << ", padding " << g.padding << ", count_include_pad "
                 << count_include_pad);
  CHECK_THAT(drawn.grad(), AllClose(doubles(expected, {g.N, g.C, g.H, g.W}), 1e-10, 1e-12));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 7: batch normalisation (batch_norm_loops.cpp)
// ---------------------------------------------------------------------------------------------

TEST_CASE("BatchNorm2d normalises each channel with the batch's statistics in training",
          "[points=6][batchnorm][forward]") {
  // One channel [1, 2, 3, 4]: mean 2.5, biased variance 1.25.
  torch::nn::BatchNorm2d bn(torch::nn::BatchNorm2dOptions(1).eps(0));
  const torch::Tensor out = bn(floats({1, 2, 3, 4}, {2, 1, 1, 2}));
  const double s = std::sqrt(1.25);
  CHECK_THAT(out, AllClose(floats({-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s}, {2, 1, 1, 2}), 1e-5, 1e-6));
  // LibTorch's running statistics: momentum 0.1 and the UNBIASED variance 1.25 x 4 / 3.
  CHECK(bn->running_mean.item<double>() == Approx(0.25));
  CHECK(bn->running_var.item<double>() == Approx(0.9 + 0.1 * 5.0 / 3.0));
  CHECK(bn->num_batches_tracked.item<int64_t>() == 1);
  // Many channels of shifted, scaled data: each comes out with mean 0 and (biased) std 1, then the
  // learned scale and shift apply per channel.
  torch::manual_seed(7);
  torch::nn::BatchNorm2d layer(3);
  {
    torch::NoGradGuard no_grad;
    layer->weight.copy_(floats({1, 2, 3}, {3}));
    layer->bias.copy_(floats({0, -1, 5}, {3}));
  }
  const torch::Tensor x = torch::randn({16, 3, 4, 4}) * 10 + 5;
  const torch::Tensor y = layer(x);
  const torch::Tensor means = y.mean({0, 2, 3});
  const torch::Tensor stds = ((y - means.reshape({1, 3, 1, 1})).pow(2)).mean({0, 2, 3}).sqrt();
  CHECK_THAT(means, AllClose(floats({0, -1, 5}, {3}), 1e-4, 1e-4));
  CHECK_THAT(stds, AllClose(floats({1, 2, 3}, {3}), 1e-3, 1e-3));
  CHECK_THAT(layer->running_mean, AllClose(x.mean({0, 2, 3}) * 0.1, 1e-4, 1e-4));
  // A drawn batch, scale and shift: the output by the oracle (biased variance), the running mean
  // 0.1 mean and the running variance 0.9 + 0.1 (UNBIASED variance), worked out here per channel.
  const int64_t N = random_int(2, 4), C = random_int(1, 3), H = random_int(1, 3), W = random_int(1, 3);
  torch::nn::BatchNorm2d drawn_bn(C);
  const torch::Tensor scale = random_tensor({C}, 0.5, 2), shift = random_tensor({C});
  {
    torch::NoGradGuard no_grad;
    drawn_bn->weight.copy_(scale);
    drawn_bn->bias.copy_(shift);
  }
  const torch::Tensor batch = random_tensor({N, C, H, W});
  const torch::Tensor normalised = drawn_bn(batch);
  const std::vector<double> v = values_of(batch);
  const double count = static_cast<double>(N * H * W);
  std::vector<double> running_means(C), running_vars(C);
  for (int64_t c = 0; c < C; ++c) {
    double mean = 0, squares = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < H * W; ++k) mean += v[(n * C + c) * H * W + k] / count;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < H * W; ++k) squares += std::pow(v[(n * C + c) * H * W + k] - mean, 2);
    running_means[c] = 0.1 * mean;
    running_vars[c] = 0.9 + 0.1 * squares / (count - 1);
  }
  const torch::Tensor zeros = torch::zeros({C}), ones = torch::ones({C});
  CHECK_THAT(normalised, AllClose(batch_norm_oracle(batch, scale, shift, zeros, ones, true, 1e-5).to(torch::kFloat),
                                  1e-4, 1e-4));
  CHECK_THAT(drawn_bn->running_mean, AllClose(floats(running_means, {C}), 1e-5, 1e-6));
  CHECK_THAT(drawn_bn->running_var, AllClose(floats(running_vars, {C}), 1e-5, 1e-6));
}

TEST_CASE("BatchNorm2d in evaluation uses the running statistics and leaves them alone",
          "[points=5][batchnorm][forward]") {
  torch::nn::BatchNorm2d bn(2);
  {
    torch::NoGradGuard no_grad;
    bn->running_mean.copy_(floats({1, -2}, {2}));
    bn->running_var.copy_(floats({4, 0.25}, {2}));
  }
  bn->eval();
  const torch::Tensor x = floats({3, 5, -2, -1}, {1, 2, 1, 2});
  // (x - mean) / sqrt(var + eps): channel 0 (3 - 1) / 2 = 1, (5 - 1) / 2 = 2; channel 1 0 and 2.
  const double e0 = std::sqrt(4 + 1e-5), e1 = std::sqrt(0.25 + 1e-5);
  CHECK_THAT(bn(x), AllClose(floats({2 / e0, 4 / e0, 0 / e1, 1 / e1}, {1, 2, 1, 2}), 1e-5, 1e-6));
  CHECK_THAT(bn->running_mean, Equals(floats({1, -2}, {2})));
  CHECK_THAT(bn->running_var, Equals(floats({4, 0.25}, {2})));
  // One sample per channel is fine in evaluation (no batch statistics are needed).
  CHECK(bn(torch::ones({1, 2, 1, 1})).sizes().vec() == Sizes{1, 2, 1, 1});
  // BatchNorm1d over (N, C) and over (N, C, L) uses the same loops.
  torch::nn::BatchNorm1d bn1(torch::nn::BatchNorm1dOptions(2).eps(0));
  const torch::Tensor normed = bn1(floats({0, 10, 2, 30}, {2, 2}));
  CHECK_THAT(normed, AllClose(floats({-1, -1, 1, 1}, {2, 2}), 1e-6, 1e-6));
  // Drawn running statistics (variances from 0.25 up), scale, shift and input: the oracle with the
  // running statistics, and the statistics unchanged afterwards.
  const int64_t C = random_int(1, 4);
  torch::nn::BatchNorm2d frozen(C);
  const torch::Tensor mean = random_tensor({C}), variance = random_tensor({C}, 0.25, 4);
  const torch::Tensor scale = random_tensor({C}, 0.5, 2), shift = random_tensor({C});
  {
    torch::NoGradGuard no_grad;
    frozen->running_mean.copy_(mean);
    frozen->running_var.copy_(variance);
    frozen->weight.copy_(scale);
    frozen->bias.copy_(shift);
  }
  frozen->eval();
  const torch::Tensor input = random_tensor({random_int(1, 3), C, random_int(1, 3), random_int(1, 3)});
  CHECK_THAT(frozen(input), AllClose(batch_norm_oracle(input, scale, shift, mean, variance, false, 1e-5).to(torch::kFloat),
                                     1e-5, 1e-5));
  CHECK_THAT(frozen->running_mean, Equals(mean));
  CHECK_THAT(frozen->running_var, Equals(variance));
}

TEST_CASE("BatchNorm gradients match central differences in training and in evaluation",
          "[points=8][batchnorm][backward]") {
  torch::manual_seed(8);
  for (const bool training : {true, false}) {
    torch::Tensor x = torch::randn({3, 2, 2, 3}, torch::kDouble).requires_grad_();
    torch::Tensor w = doubles({1.3, 0.7}, {2}).requires_grad_();
    torch::Tensor b = doubles({0.2, -0.4}, {2}).requires_grad_();
    const torch::Tensor running_mean = doubles({0.5, -0.5}, {2});
    const torch::Tensor running_var = doubles({2.0, 0.5}, {2});
    auto forward = [&] {
      // The running statistics are copies, so that every evaluation sees the same ones.
      return torch::batch_norm(x, w, b, running_mean.clone(), running_var.clone(), training, 0.1, 1e-5);
    };
    const torch::Tensor projection = torch::randn(x.sizes(), torch::kDouble);
    (forward() * projection).sum().backward();
    auto loss = [&] { return weighted_sum(forward(), projection); };
    CAPTURE(training);
    CHECK_THAT(x.grad(), AllClose(central_differences(loss, x.detach()), 1e-5, 1e-6));
    CHECK_THAT(w.grad(), AllClose(central_differences(loss, w.detach()), 1e-5, 1e-6));
    CHECK_THAT(b.grad(), AllClose(central_differences(loss, b.detach()), 1e-5, 1e-6));
  }
  // d sum(out) / d bias = the number of values per channel (N H W = 16).
  torch::nn::BatchNorm2d bn(2);
  bn(torch::randn({4, 2, 2, 2})).sum().backward();
  CHECK_THAT(bn->bias.grad(), AllClose(torch::full({2}, 16.0f), 1e-6, 1e-6));
  // Drawn inputs, scale, shift and running statistics; the expected gradients are central
  // differences of the oracle (plain loops), so they depend on no code under test.
  for (const bool training : {true, false}) {
    const int64_t N = random_int(2, 3), C = random_int(1, 3), H = random_int(1, 3), W = random_int(1, 3);
    torch::Tensor x = random_tensor({N, C, H, W}, -2, 2, torch::kDouble).requires_grad_();
    torch::Tensor w = random_tensor({C}, 0.5, 2, torch::kDouble).requires_grad_();
    torch::Tensor b = random_tensor({C}, -1, 1, torch::kDouble).requires_grad_();
    const torch::Tensor running_mean = random_tensor({C}, -1, 1, torch::kDouble);
    const torch::Tensor running_var = random_tensor({C}, 0.25, 2, torch::kDouble);
    const torch::Tensor projection = random_tensor({N, C, H, W}, -2, 2, torch::kDouble);
    (torch::batch_norm(x, w, b, running_mean.clone(), running_var.clone(), training, 0.1, 1e-5) * projection)
        .sum()
        .backward();
    const std::vector<double> weights = values_of(projection);
    torch::Tensor xd = x.detach(), wd = w.detach(), bd = b.detach();
    auto loss = [&] {
      const std::vector<double> out = values_of(batch_norm_oracle(xd, wd, bd, running_mean, running_var, training, 1e-5));
      double total = 0;
      for (size_t i = 0; i < out.size(); ++i) total += out[i] * weights[i];
      return total;
    };
    CAPTURE(training);
    CHECK_THAT(x.grad(), AllClose(central_differences(loss, xd), 1e-5, 1e-6));
    CHECK_THAT(w.grad(), AllClose(central_differences(loss, wd), 1e-5, 1e-6));
    CHECK_THAT(b.grad(), AllClose(central_differences(loss, bd), 1e-5, 1e-6));
  }
}

// ---------------------------------------------------------------------------------------------
// Everything together
// ---------------------------------------------------------------------------------------------

TEST_CASE("a small CNN learns to tell vertical from horizontal bars", "[points=5][integration]") {
  torch::manual_seed(11);
  // 64 images of 8 x 8: a vertical bar (class 0) or a horizontal one (class 1) at a random place.
  std::vector<double> pixels(64 * 64, 0.0);
  std::vector<int64_t> labels(64);
  for (int64_t n = 0; n < 64; ++n) {
    labels[n] = n % 2;
    const int64_t at = (n * 5) % 8;
    for (int64_t i = 0; i < 8; ++i) pixels[n * 64 + (labels[n] == 0 ? i * 8 + at : at * 8 + i)] = 1.0;
  }
  const torch::Tensor images = floats(pixels, {64, 1, 8, 8});
  const torch::Tensor targets = torch::tensor(labels, torch::kLong);
  torch::nn::Sequential net(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 4, 3).padding(1)),
                            torch::nn::BatchNorm2d(4), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
                            torch::nn::Conv2d(4, 4, 3), torch::nn::ReLU(), torch::nn::AvgPool2d(2),
                            torch::nn::Flatten(), torch::nn::Linear(4, 2));
  torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(0.05));
  const torch::Tensor first_weights = net->parameters()[0].detach().clone();
  double loss_value = 0;
  for (int step = 0; step < 40; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = F::cross_entropy(net->forward(images), targets);
    loss.backward();
    optimizer.step();
    loss_value = loss.item<double>();
  }
  net->eval();
  const double accuracy = (net->forward(images).argmax(1) == targets).to(torch::kDouble).mean().item<double>();
  CHECK(loss_value < 0.2);
  CHECK(accuracy == 1.0);
  // The first convolution learned too (the gradient flowed through pooling and batch norm).
  CHECK((net->parameters()[0] - first_weights).abs().max().item<double>() > 0.05);
  // Drawn training images in a drawn order: the trained network, in evaluation, names each one's bar.
  std::vector<double> drawn_pixels;
  std::vector<int64_t> drawn_labels;
  for (int k = 0; k < 8; ++k) {
    const int64_t n = random_int(0, 63);
    drawn_pixels.insert(drawn_pixels.end(), pixels.begin() + n * 64, pixels.begin() + (n + 1) * 64);
    drawn_labels.push_back(labels[n]);
  }
  CHECK_THAT(net->forward(floats(drawn_pixels, {8, 1, 8, 8})).argmax(1), Equals(torch::tensor(drawn_labels, torch::kLong)));
}
