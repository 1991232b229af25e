// Module 09's conv2d: the im2col + GEMM fast path against the seven-loop reference on ragged
// shapes, the public op's argument handling and LibTorch's error messages, gradients against
// central differences, and nn::Conv2d (options, init, printing, parameters).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "09_convolutions/conv2d_kernels.h"  // internal: module 09's loops
#if __has_include(<tinytorch/acceleration_kernels.h>)  // module 17's im2col path
#include <tinytorch/acceleration_kernels.h>
#define TEST_HAS_FAST_KERNELS 1
#endif
#include "test_helpers.h"

namespace {

using torch::Tensor;
namespace nn = torch::nn;
namespace F = torch::nn::functional;
using tinytorch::native::Conv2dParams;

Conv2dParams params(int64_t stride, int64_t padding, int64_t dilation) {
  Conv2dParams p;
  p.stride[0] = p.stride[1] = stride;
  p.padding[0] = p.padding[1] = padding;
  p.dilation[0] = p.dilation[1] = dilation;
  return p;
}

double max_abs_difference(const Tensor& a, const Tensor& b) {
  REQUIRE(a.sizes() == b.sizes());
  const std::vector<double> x = test_helpers::values(a), y = test_helpers::values(b);
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
  return worst;
}

struct Shape {
  int64_t batch, in_channels, out_channels, height, width, kernel_h, kernel_w, stride, padding, dilation, groups;
};

std::string describe(const Shape& s) {
  std::ostringstream out;
  out << "N=" << s.batch << " C=" << s.in_channels << " O=" << s.out_channels << " H=" << s.height
      << " W=" << s.width << " k=" << s.kernel_h << "x" << s.kernel_w << " stride=" << s.stride
      << " padding=" << s.padding << " dilation=" << s.dilation << " groups=" << s.groups;
  return out.str();
}

// Odd sizes, strides 1-3, padding 0-2, dilation 2, 1x1 kernels, kernel == input, batch 1, groups.
const std::vector<Shape> kRaggedShapes = {
    {1, 1, 1, 5, 7, 3, 3, 1, 0, 1, 1},   {2, 3, 5, 7, 6, 3, 3, 1, 1, 1, 1},   {3, 2, 4, 9, 11, 3, 2, 2, 1, 1, 1},
    {2, 3, 4, 8, 8, 1, 1, 1, 0, 1, 1},   {1, 4, 3, 6, 5, 1, 1, 2, 0, 1, 1},   {2, 2, 3, 5, 5, 5, 5, 1, 0, 1, 1},
    {2, 3, 2, 10, 9, 3, 3, 1, 2, 2, 1},  {4, 1, 8, 8, 8, 3, 3, 1, 1, 1, 1},   {1, 5, 7, 13, 3, 4, 2, 3, 2, 1, 1},
    {2, 4, 6, 7, 7, 3, 3, 2, 1, 1, 2},   {3, 6, 6, 6, 5, 2, 3, 1, 1, 2, 3},   {1, 3, 2, 3, 3, 3, 3, 1, 2, 1, 1},
    {5, 2, 33, 4, 4, 3, 3, 1, 1, 1, 1},  {2, 17, 3, 5, 4, 2, 2, 1, 0, 1, 1},  {9, 4, 16, 9, 9, 3, 3, 1, 1, 1, 1},
};  // the last one goes through in chunks of 2, 2, 2, 2 and 1 images

}  // namespace

TEST_CASE("conv2d: the im2col + GEMM path matches the seven-loop reference on ragged shapes", "[conv]") {
  torch::manual_seed(9);
  for (const torch::ScalarType dtype : {torch::kFloat, torch::kDouble}) {
    for (const Shape& s : kRaggedShapes) {
      INFO(describe(s) << " dtype " << dtype);
      const Tensor input = torch::randn({s.batch, s.in_channels, s.height, s.width}, dtype);
      const Tensor weight = torch::randn({s.out_channels, s.in_channels / s.groups, s.kernel_h, s.kernel_w}, dtype);
      const Tensor bias = torch::randn({s.out_channels}, dtype);
      const Conv2dParams p = params(s.stride, s.padding, s.dilation);
      const Tensor expected = tinytorch::native::conv2d_reference(input, weight, bias, p);
      const double tolerance = dtype == torch::kFloat ? 1e-4 : 1e-12;
#ifdef TEST_HAS_FAST_KERNELS
      const Tensor fast = tinytorch::native::conv2d_im2col(input, weight, bias, p);
      CHECK(max_abs_difference(fast, expected) < tolerance);

      // The backward: module 17's GEMMs and col2im against module 09's loops, every output.
      const Tensor grad_output = torch::randn(expected.sizes(), dtype);
      const auto loops = tinytorch::native::conv2d_backward_reference(grad_output, input, weight, p, {true, true, true});
      const auto gemms = tinytorch::native::conv2d_backward_im2col(grad_output, input, weight, p, {true, true, true});
      const auto close = [&](const Tensor& got, const Tensor& want) {  // relative to the gradient's size
        return max_abs_difference(got, want) <= tolerance * (1 + want.abs().max().item<double>());
      };
      CHECK(close(std::get<0>(gemms), std::get<0>(loops)));
      CHECK(close(std::get<1>(gemms), std::get<1>(loops)));
      CHECK(close(std::get<2>(gemms), std::get<2>(loops)));
#endif
      // The public op: the same numbers, bias optional.
      const Tensor public_result = torch::conv2d(input, weight, bias, s.stride, s.padding, s.dilation, s.groups);
      CHECK(max_abs_difference(public_result, expected) < tolerance);
      const Tensor no_bias = torch::conv2d(input, weight, {}, s.stride, s.padding, s.dilation, s.groups);
      CHECK(max_abs_difference(no_bias, tinytorch::native::conv2d_reference(input, weight, Tensor(), p)) < tolerance);
    }
  }
}

TEST_CASE("conv2d: output sizes, two-value arguments, views and unbatched input", "[conv]") {
  torch::manual_seed(1);
  const Tensor x = torch::randn({2, 3, 9, 12});
  const Tensor w = torch::randn({4, 3, 3, 2});
  // OH = (9 + 2*1 - 2*(3-1) - 1) / 2 + 1 = 4, OW = (12 + 2*0 - 1*(2-1) - 1) / 1 + 1 = 11.
  const Tensor y = torch::conv2d(x, w, {}, {2, 1}, {1, 0}, {2, 1});
  CHECK(test_helpers::shape(y) == std::vector<int64_t>{2, 4, 4, 11});
  Conv2dParams p;
  p.stride[0] = 2, p.padding[0] = 1, p.dilation[0] = 2;
  CHECK(max_abs_difference(y, tinytorch::native::conv2d_reference(x, w, Tensor(), p)) < 1e-4);

  // A non-contiguous input (an NHWC buffer seen as NCHW) and a transposed weight.
  const Tensor nhwc = torch::randn({2, 9, 12, 3});
  const Tensor as_nchw = nhwc.permute({0, 3, 1, 2});
  REQUIRE_FALSE(as_nchw.is_contiguous());
  const Tensor w_t = torch::randn({4, 3, 2, 3}).transpose(2, 3);
  CHECK(max_abs_difference(torch::conv2d(as_nchw, w_t, {}, 1, 1),
                           torch::conv2d(as_nchw.contiguous(), w_t.contiguous(), {}, 1, 1)) < 1e-5);

  // Unbatched (C, H, W) in, (O, OH, OW) out: a batch of one.
  const Tensor single = torch::randn({3, 9, 12});
  const Tensor b = torch::randn({4});
  const Tensor unbatched = torch::conv2d(single, w, b, 1, 1);
  CHECK(test_helpers::shape(unbatched) == std::vector<int64_t>{4, 9, 13});
  CHECK(max_abs_difference(unbatched, torch::conv2d(single.unsqueeze(0), w, b, 1, 1).squeeze(0)) == 0);

  // An empty batch gives an empty result of the right shape.
  CHECK(test_helpers::shape(torch::conv2d(torch::randn({0, 3, 9, 12}), w)) == std::vector<int64_t>{0, 4, 7, 11});

  // Hand-computed: a 3x3 box filter of ones over a 3x3 image of 1..9 with padding 1.
  const Tensor image = torch::arange(1, 10, torch::kFloat).reshape({1, 1, 3, 3});
  const Tensor box = torch::ones({1, 1, 3, 3});
  CHECK(test_helpers::values(torch::conv2d(image, box, {}, 1, 1)) ==
        std::vector<double>{12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("conv2d: LibTorch's error messages", "[conv]") {
  const Tensor w = torch::randn({8, 1, 3, 3});
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({32, 3, 8, 8}), w, {}, 1, 1),
                      "Given groups=1, weight of size [8, 1, 3, 3], expected input[32, 3, 8, 8] to have 1 channels, "
                      "but got 3 channels instead");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({8, 8}), w),
                      "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [8, 8]");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 2, 2}), w),
                      "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't "
                      "be greater than actual input size");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, torch::randn({3})),
                      "Given weight of size [8, 1, 3, 3], expected bias to be 1-dimensional with 8 elements, but got "
                      "bias of size [3] instead");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, {}, {1, 1, 1}),
                      "expected stride to be a single integer value or a list of 2 values to match the convolution "
                      "dimensions, but got stride=[1, 1, 1]");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, {}, 1, -1), "negative padding is not supported");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, {}, 0), "non-positive stride is not supported");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, {}, 1, 1, 0),
                      "dilation should be greater than zero");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}, torch::kDouble), w),
                      "expected scalar type Double but found Float");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 1, 8, 8}), w, torch::randn({8}, torch::kDouble)),
                      "Input type (float) and bias type (double) should be the same");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randn({2, 2, 8, 8}), torch::randn({9, 1, 3, 3}), {}, 1, 1, 1, 2),
                      "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size "
                      "[[9, 1, 3, 3]] instead");
  REQUIRE_THROWS_WITH(torch::conv2d(torch::randint(0, 3, {2, 1, 8, 8}), torch::randint(0, 3, {8, 1, 3, 3})),
                      "\"slow_conv2d_cpu\" not implemented for 'Long'");
}

TEST_CASE("conv2d: gradients against central differences, in double", "[conv][autograd]") {
  torch::manual_seed(3);
  const std::vector<Shape> shapes = {
      {2, 2, 3, 5, 4, 3, 3, 1, 1, 1, 1}, {1, 3, 2, 6, 7, 2, 3, 2, 0, 1, 1}, {2, 2, 2, 7, 6, 3, 2, 1, 2, 2, 1},
      {3, 1, 2, 4, 4, 1, 1, 1, 0, 1, 1}, {2, 4, 4, 5, 5, 3, 3, 2, 1, 1, 2}, {1, 2, 3, 3, 3, 3, 3, 1, 0, 1, 1},
  };
  for (const Shape& s : shapes) {
    INFO(describe(s));
    std::vector<Tensor> inputs = {
        torch::randn({s.batch, s.in_channels, s.height, s.width}, torch::kDouble).requires_grad_(),
        torch::randn({s.out_channels, s.in_channels / s.groups, s.kernel_h, s.kernel_w}, torch::kDouble).requires_grad_(),
        torch::randn({s.out_channels}, torch::kDouble).requires_grad_()};
    const auto f = [&](const std::vector<Tensor>& in) {
      return torch::conv2d(in[0], in[1], in[2], s.stride, s.padding, s.dilation, s.groups);
    };
    const Tensor output = f(inputs);
    CHECK(output.grad_fn()->name() == "ConvolutionBackward0");
    const Tensor upstream = torch::randn(output.sizes(), torch::kDouble);
    const std::vector<Tensor> analytic = torch::autograd::grad({(output * upstream).sum()}, inputs);
    const double eps = 1e-6;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::vector<double> got = test_helpers::values(analytic[i]);
      double* data = inputs[i].data_ptr<double>();
      for (int64_t j = 0; j < inputs[i].numel(); ++j) {
        const double saved = data[j];
        torch::NoGradGuard no_grad;
        data[j] = saved + eps;
        const double plus = (f(inputs) * upstream).sum().item<double>();
        data[j] = saved - eps;
        const double minus = (f(inputs) * upstream).sum().item<double>();
        data[j] = saved;
        INFO("input " << i << " element " << j);
        CHECK(got[j] == Approx((plus - minus) / (2 * eps)).margin(1e-6).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("conv2d: backward computes only what is needed; its node and LibTorch's unbatched squeeze", "[conv][autograd]") {
  torch::manual_seed(4);
  const Tensor x = torch::randn({2, 3, 6, 6});
  const Tensor w = torch::randn({4, 3, 3, 3}, torch::requires_grad());
  const Tensor y = torch::conv2d(x, w, {}, 1, 1);
  REQUIRE(y.grad_fn() != nullptr);
  CHECK(y.grad_fn()->name() == "ConvolutionBackward0");
  CHECK(y.grad_fn()->next_edges().size() == 3);
  CHECK_FALSE(y.grad_fn()->next_edges()[0].is_valid());  // x does not require grad
  y.sum().backward();
  CHECK_FALSE(x.grad().defined());
  REQUIRE(w.grad().defined());
  // d sum(y) / d w[o][c][i][j] is the sum of the input pixels tap (i, j) sees: the same for every o.
  CHECK(max_abs_difference(w.grad()[0], w.grad()[3]) < 1e-5);

  const Tensor unbatched = torch::conv2d(torch::randn({3, 6, 6}), w);
  // An unbatched input is unsqueezed, convolved and squeezed back: squeeze(0), LibTorch's SqueezeBackward1.
  CHECK(unbatched.grad_fn()->name() == "SqueezeBackward1");

  torch::NoGradGuard no_grad;
  CHECK(torch::conv2d(x, w).grad_fn() == nullptr);
}

TEST_CASE("conv2d: results do not depend on the thread count", "[conv][autograd][threads]") {
  // Big enough (64 x 1024 x 288 multiply-adds per GEMM) that the GEMMs use a second thread.
  torch::manual_seed(6);
  const Tensor x = torch::randn({2, 32, 32, 32}, torch::requires_grad());
  const Tensor w = torch::randn({64, 32, 3, 3}, torch::requires_grad());
  const Tensor b = torch::randn({64}, torch::requires_grad());
  const int saved_threads = torch::get_num_threads();
  std::vector<std::vector<Tensor>> results;
  for (const int threads : {1, 2}) {
    torch::set_num_threads(threads);
    const Tensor y = torch::conv2d(x, w, b, 1, 1);
    const std::vector<Tensor> grads = torch::autograd::grad({(y * y).sum()}, {x, w, b});
    results.push_back({y.detach(), grads[0], grads[1], grads[2]});
  }
  torch::set_num_threads(saved_threads);
  Conv2dParams p = params(1, 1, 1);
  const Tensor expected = tinytorch::native::conv2d_reference(x.detach(), w.detach(), b.detach(), p);
  CHECK(max_abs_difference(results[1][0], expected) < 1e-5 * expected.abs().max().item<double>());
  for (size_t i = 0; i < results[0].size(); ++i) {
    INFO("result " << i);
    const double scale = results[0][i].abs().max().item<double>();
    CHECK(max_abs_difference(results[0][i], results[1][i]) <= 1e-5 * scale);
  }
  // Each image is its own chunk here: the batch's weight and bias gradients are the sums of the
  // per-image ones, and each image's input gradient is its own.
  Tensor weight_sum = torch::zeros_like(w), bias_sum = torch::zeros_like(b);
  for (int64_t n = 0; n < x.size(0); ++n) {
    const Tensor image = x.detach()[n].unsqueeze(0).requires_grad_();
    const Tensor y = torch::conv2d(image, w, b, 1, 1);
    const std::vector<Tensor> grads = torch::autograd::grad({(y * y).sum()}, {image, w, b});
    CHECK(max_abs_difference(grads[0][0], results[0][1][n]) <= 1e-5 * results[0][1].abs().max().item<double>());
    weight_sum = weight_sum + grads[1];
    bias_sum = bias_sum + grads[2];
  }
  CHECK(max_abs_difference(weight_sum, results[0][2]) <= 1e-5 * results[0][2].abs().max().item<double>());
  CHECK(max_abs_difference(bias_sum, results[0][3]) <= 1e-5 * results[0][3].abs().max().item<double>());
}

TEST_CASE("conv2d: double backward is refused with a clear message", "[conv][autograd]") {
  const Tensor x = torch::randn({1, 1, 4, 4}, torch::requires_grad());
  const Tensor w = torch::randn({1, 1, 3, 3}, torch::requires_grad());
  const Tensor y = torch::conv2d(x, w).sum();
  REQUIRE_THROWS_WITH(torch::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true),
                      Catch::Contains("double backward through conv2d"));
}

TEST_CASE("nn::Conv2d: options, LibTorch's initialisation, parameters and printing", "[conv]") {
  torch::manual_seed(5);
  nn::Conv2d conv(nn::Conv2dOptions(3, 16, 5).padding(2));
  CHECK(test_helpers::shape(conv->weight) == std::vector<int64_t>{16, 3, 5, 5});
  CHECK(test_helpers::shape(conv->bias) == std::vector<int64_t>{16});
  // fan_in = 3 * 5 * 5 = 75: weight and bias in [-1/sqrt(75), 1/sqrt(75)], and they use the range.
  const double bound = 1.0 / std::sqrt(75.0);
  CHECK(conv->weight.abs().max().item<double>() <= bound);
  CHECK(conv->weight.abs().max().item<double>() > 0.9 * bound);
  CHECK(conv->bias.abs().max().item<double>() <= bound);
  CHECK(std::abs(conv->weight.mean().item<double>()) < 0.2 * bound);

  const auto named = conv->named_parameters();
  REQUIRE(named.size() == 2);
  CHECK(named.keys() == std::vector<std::string>{"weight", "bias"});
  CHECK(conv->parameters().size() == 2);
  CHECK(conv->weight.requires_grad());

  CHECK(test_helpers::printed(*conv) == "torch::nn::Conv2d(3, 16, kernel_size=[5, 5], stride=[1, 1], padding=[2, 2])");
  CHECK(test_helpers::printed(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).padding(1))) ==
        "torch::nn::Conv2d(1, 8, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])");
  nn::Conv2d plain(nn::Conv2dOptions(1, 8, {3, 2}).stride(2).dilation(2).bias(false));
  CHECK(test_helpers::printed(plain) ==
        "torch::nn::Conv2d(1, 8, kernel_size=[3, 2], stride=[2, 2], dilation=[2, 2], bias=false)");
  CHECK_FALSE(plain->bias.defined());
  CHECK(plain->parameters().size() == 1);
  CHECK(test_helpers::printed(nn::Conv2d(nn::Conv2dOptions(2, 8, 3).groups(2).padding(torch::kSame))) ==
        "torch::nn::Conv2d(2, 8, kernel_size=[3, 3], stride=[1, 1], padding='same', groups=2)");

  // forward is F::conv2d with the module's parameters; 'same' keeps the size.
  const Tensor x = torch::randn({2, 3, 7, 7});
  CHECK(max_abs_difference(conv(x), F::conv2d(x, conv->weight, F::Conv2dFuncOptions().bias(conv->bias).padding(2))) == 0);
  nn::Conv2d same(nn::Conv2dOptions(3, 4, 3).padding(torch::kSame).dilation(2));
  CHECK(test_helpers::shape(same(x)) == std::vector<int64_t>{2, 4, 7, 7});
  CHECK(test_helpers::shape(same(x[0])) == std::vector<int64_t>{4, 7, 7});

  // Builder errors, as LibTorch words them where it has the check.
  REQUIRE_THROWS_WITH(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).groups(3)), "in_channels must be divisible by groups");
  REQUIRE_THROWS_WITH(nn::Conv2d(nn::Conv2dOptions(2, 8, 3).groups(0)),
                      "in_channels, groups and out_channels must be a positive integer.");
  REQUIRE_THROWS_WITH(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).padding(torch::kSame).stride(2)),
                      "padding='same' is not supported for strided convolutions");
  REQUIRE_THROWS_WITH(nn::Conv2d(nn::Conv2dOptions(1, 8, 3).padding_mode(torch::kReflect)),
                      Catch::Contains("padding_mode(torch::kZeros)"));
  REQUIRE_THROWS_WITH(nn::Conv2dOptions(1, 8, {3, 3, 3}), "Expected 2 values, but instead got 3");

  // The holder's module trains: one SGD-like step lowers a loss.
  const Tensor target = torch::randn({2, 16, 7, 7});
  const auto loss_of = [&] { return (conv(x) - target).pow(2).mean(); };
  const Tensor before = loss_of();
  before.backward();
  {
    torch::NoGradGuard no_grad;
    for (Tensor& p : conv->parameters()) p.sub_(p.grad() * 0.5);
  }
  CHECK(loss_of().item<double>() < before.item<double>());

  // Module::zero_grad: LibTorch 1.13 drops the gradients by default; zero_grad(false) zeros them.
  REQUIRE(conv->weight.grad().defined());
  conv->zero_grad(/*set_to_none=*/false);
  CHECK(conv->weight.grad().abs().sum().item<double>() == 0);
  CHECK(test_helpers::shape(conv->bias.grad()) == std::vector<int64_t>{16});
  nn::Sequential model(nn::Conv2d(nn::Conv2dOptions(3, 2, 3)), nn::Flatten());
  model->forward(x).sum().backward();
  model->zero_grad();
  for (const Tensor& p : model->parameters()) CHECK_FALSE(p.grad().defined());
}
