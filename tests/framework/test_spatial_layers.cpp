// Module 09's API besides conv2d: pooling (max, average, adaptive; 1d and 2d), batch normalisation,
// LeakyReLU, Dropout2d and Unflatten - options and their defaults, printing as LibTorch prints,
// LibTorch's error messages, backward node names, and the values of the given parts (adaptive
// pooling, 1d forms, ceil_mode) against hand-worked numbers and central differences.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using test_helpers::printed;
using test_helpers::shape;
using test_helpers::values;
namespace nn = torch::nn;
namespace F = torch::nn::functional;
using Values = std::vector<double>;
using Sizes = std::vector<int64_t>;

Tensor counting(Sizes sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return (torch::arange(n).to(torch::kFloat) + 1).reshape(sizes);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const torch::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("pooling options default their stride to the kernel size and print like LibTorch") {
  nn::MaxPool2d max_pool(2);
  CHECK(printed(*max_pool) ==
        "torch::nn::MaxPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=false)");
  nn::AvgPool2d avg_pool(nn::AvgPool2dOptions({3, 2}).stride(1));
  CHECK(printed(*avg_pool) == "torch::nn::AvgPool2d(kernel_size=[3, 2], stride=[1, 1], padding=[0, 0])");
  CHECK(printed(*nn::AdaptiveAvgPool2d(1)) == "torch::nn::AdaptiveAvgPool2d(output_size=[1, 1])");
  CHECK(printed(*nn::MaxPool1d(3)) ==
        "torch::nn::MaxPool1d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=false)");
  CHECK(printed(*nn::AvgPool1d(2)) == "torch::nn::AvgPool1d(kernel_size=2, stride=2, padding=0)");
  const nn::AvgPool2dOptions defaults(2);
  CHECK_FALSE(defaults.ceil_mode());
  CHECK(defaults.count_include_pad());
  CHECK_FALSE(defaults.divisor_override().has_value());
}

TEST_CASE("pooling records LibTorch's backward nodes") {
  Tensor x = torch::randn({1, 2, 4, 4}, torch::requires_grad());
  CHECK(torch::max_pool2d(x, 2).grad_fn()->name() == "MaxPool2DWithIndicesBackward0");
  CHECK(torch::avg_pool2d(x, 2).grad_fn()->name() == "AvgPool2DBackward0");
  CHECK(torch::adaptive_avg_pool2d(x, {1, 1}).grad_fn()->name() == "AdaptiveAvgPool2DBackward0");
  Tensor w = torch::ones({2}, torch::requires_grad());
  CHECK(torch::batch_norm(x, w, Tensor(), Tensor(), Tensor(), true, 0.1, 1e-5).grad_fn()->name() ==
        "NativeBatchNormBackward0");
  CHECK(torch::leaky_relu(x).grad_fn()->name() == "LeakyReluBackward0");
}

TEST_CASE("pooling checks its arguments with LibTorch's messages") {
  const Tensor x = torch::zeros({1, 1, 4, 4});
  CHECK(error_of([&] { torch::max_pool2d(x, {2, 2, 2}); }) ==
        "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  CHECK(error_of([&] { torch::max_pool2d(x, 2, 0); }) == "stride should be greater than zero, but got dH: 0 dW: 0");
  CHECK(error_of([&] { torch::max_pool2d(x, 2, 2, 2); }) ==
        "pad should be at most half of kernel size, but got pad=2 and kernel_size=2");
  CHECK(error_of([&] { torch::avg_pool2d(x, {2, 4}, 2, {1, 3}); }) ==
        "pad should be at most half of kernel size, but got pad=3 and kernel_size=4");
  CHECK(error_of([&] { torch::max_pool2d(torch::zeros({4, 4}), 2); }) ==
        "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[4, 4]");
  CHECK(error_of([&] { torch::max_pool2d(torch::zeros({1, 1, 2, 2}), 3, 1, 1, 2); }) ==
        "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small");
  CHECK(error_of([&] { torch::avg_pool2d(x, 2, 2, 0, false, true, 0); }) == "divisor must be not zero");
}

TEST_CASE("pooling handles unbatched inputs, ceil_mode, dilation and the 1d forms") {
  // (C, H, W) runs as a batch of one.
  CHECK(shape(torch::max_pool2d(counting({3, 4, 4}), 2)) == Sizes{3, 2, 2});
  // ceil_mode keeps the partial window at the end: 5 -> 3 instead of 2.
  CHECK(values(torch::max_pool2d(counting({1, 1, 1, 5}), {1, 2}, {1, 2}, 0, 1, true)) == Values{2, 4, 5});
  CHECK(values(torch::avg_pool2d(counting({1, 1, 1, 5}), {1, 2}, {1, 2}, 0, true)) == Values{1.5, 3.5, 5});
  // Dilation 2: the window of width 2 picks columns x and x + 2.
  const Tensor row = torch::tensor({1.0f, 0.0f, 3.0f, 9.0f, 2.0f}).reshape({1, 1, 1, 5});
  CHECK(values(torch::max_pool2d(row, {1, 2}, 1, 0, {1, 2})) == Values{3, 9, 3});
  // 1d: (N, C, L) and (C, L).
  CHECK(values(torch::max_pool1d(counting({1, 2, 4}), 2)) == Values{2, 4, 6, 8});
  CHECK(values(F::avg_pool1d(counting({2, 4}), F::AvgPool1dFuncOptions(2))) == Values{1.5, 3.5, 5.5, 7.5});
  CHECK(values(nn::AdaptiveAvgPool1d(2)(counting({1, 1, 5}))) == Values{2, 4});  // windows [0, 3) and [2, 5)
}

TEST_CASE("max pooling splits a large batch between threads with the same values, indices and gradients", "[threads]") {
  // Above module 17's threshold (2^16 window taps) the batch is pooled in blocks of images, one
  // block per task; an odd batch makes the blocks uneven. Pooling is exact, so 1 and 2 threads agree
  // bit for bit, and the gradient of a sum of every output lands on each window's maximum.
  const int saved_threads = torch::get_num_threads();
  torch::manual_seed(3);
  for (const Sizes& sizes : {Sizes{7, 16, 32, 32}, Sizes{64, 6, 28, 28}}) {
    const Tensor x = torch::randn(sizes, torch::requires_grad());
    std::vector<std::vector<Tensor>> results;
    for (const int threads : {1, 2}) {
      torch::set_num_threads(threads);
      auto [out, indices] = torch::max_pool2d_with_indices(x, 2);
      const Tensor grad = torch::autograd::grad({(out * out).sum()}, {x})[0];
      results.push_back({out.detach(), indices, grad});
    }
    torch::set_num_threads(saved_threads);
    INFO("sizes " << torch::IntArrayRef(sizes));
    CHECK(torch::equal(results[0][0], results[1][0]));
    CHECK(torch::equal(results[0][1], results[1][1]));
    CHECK(torch::equal(results[0][2], results[1][2]));
    // The last image's maximum is where its indices point (each block wrote its own images).
    const int64_t last = sizes[0] - 1;
    const Tensor plane_values = x.detach()[last].flatten(1).gather(1, results[1][1][last].flatten(1));
    CHECK(torch::equal(plane_values, results[1][0][last].flatten(1)));
  }
}

TEST_CASE("adaptive average pooling uses LibTorch's windows, and its gradient matches central differences") {
  // 5 -> 3: windows [0, 2), [1, 4), [3, 5) (floor(i L / n) to ceil((i + 1) L / n)).
  CHECK(values(torch::adaptive_avg_pool2d(counting({1, 1, 1, 5}), {1, 3})) == Values{1.5, 3, 4.5});
  // Global average pooling.
  CHECK(values(F::adaptive_avg_pool2d(counting({1, 2, 2, 2}), F::AdaptiveAvgPool2dFuncOptions(1))) ==
        Values{2.5, 6.5});
  torch::manual_seed(3);
  Tensor x = torch::randn({2, 2, 5, 4}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  const Tensor projection = torch::randn({2, 2, 3, 3}, torch::kDouble);
  (torch::adaptive_avg_pool2d(x, {3, 3}) * projection).sum().backward();
  const std::vector<double> analytic = values(x.grad());
  torch::NoGradGuard no_grad;
  Tensor probe = x.detach().clone();
  double* data = probe.data_ptr<double>();
  for (int64_t i = 0; i < probe.numel(); i += 7) {
    const double saved = data[i];
    data[i] = saved + 1e-6;
    const double up = (torch::adaptive_avg_pool2d(probe, {3, 3}) * projection).sum().item<double>();
    data[i] = saved - 1e-6;
    const double down = (torch::adaptive_avg_pool2d(probe, {3, 3}) * projection).sum().item<double>();
    data[i] = saved;
    CHECK(analytic[i] == Approx((up - down) / 2e-6).margin(1e-6));
  }
}

TEST_CASE("BatchNorm options, buffers and printing follow LibTorch") {
  nn::BatchNorm2d bn(16);
  CHECK(printed(*bn) == "torch::nn::BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=true, track_running_stats=true)");
  CHECK(bn->named_parameters().keys() == std::vector<std::string>{"weight", "bias"});
  CHECK(bn->named_buffers().keys() == std::vector<std::string>{"running_mean", "running_var", "num_batches_tracked"});
  CHECK(values(bn->weight) == Values(16, 1.0));
  CHECK(values(bn->running_var) == Values(16, 1.0));
  CHECK(bn->num_batches_tracked.scalar_type() == torch::kLong);
  nn::BatchNorm1d plain(nn::BatchNorm1dOptions(4).affine(false).track_running_stats(false).momentum(std::nullopt));
  CHECK(printed(*plain) == "torch::nn::BatchNorm1d(4, eps=1e-05, momentum=None, affine=false, track_running_stats=false)");
  CHECK(plain->parameters().empty());
  // Without running statistics, evaluation still normalises with the batch's.
  plain->eval();
  const std::vector<double> normed = values(plain(torch::tensor({1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0}).reshape({2, 4})));
  for (size_t i = 0; i < normed.size(); ++i) CHECK(normed[i] == Approx(i < 4 ? -1.0 : 1.0).epsilon(1e-4));
}

TEST_CASE("BatchNorm checks its input with LibTorch's messages") {
  nn::BatchNorm2d bn(3);
  CHECK(error_of([&] { bn(torch::zeros({2, 3})); }) == "expected 4D input (got 2D input)");
  nn::BatchNorm1d bn1(3);
  CHECK(error_of([&] { bn1(torch::zeros({1, 3})); }) ==
        "Expected more than 1 value per channel when training, got input size [1, 3]");
  CHECK(error_of([&] { bn1(torch::zeros({2, 4})); }) == "running_mean should contain 4 elements not 3");
}

TEST_CASE("BatchNorm with momentum None keeps a cumulative average") {
  nn::BatchNorm1d bn(nn::BatchNorm1dOptions(1).momentum(std::nullopt));
  bn(torch::tensor({0.0, 2.0}).reshape({2, 1}));   // batch mean 1
  bn(torch::tensor({4.0, 6.0}).reshape({2, 1}));   // batch mean 5
  CHECK(bn->running_mean.item<double>() == Approx(3.0));  // (1 + 5) / 2
  CHECK(bn->num_batches_tracked.item<int64_t>() == 2);
}

TEST_CASE("LeakyReLU, Dropout2d and Unflatten follow LibTorch") {
  nn::LeakyReLU leaky;
  CHECK(printed(*leaky) == "torch::nn::LeakyReLU(negative_slope=0.01)");
  CHECK(printed(*nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true))) ==
        "torch::nn::LeakyReLU(negative_slope=0.2, inplace=true)");
  CHECK(values(leaky(torch::tensor({-2.0, 0.0, 3.0}, torch::kDouble))) == Values{-0.02, 0, 3});
  Tensor x = torch::tensor({-2.0, 3.0}, torch::requires_grad());
  F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.5)).sum().backward();
  CHECK(values(x.grad()) == Values{0.5, 1});

  nn::Dropout2d drop(nn::Dropout2dOptions(0.5));
  CHECK(printed(*drop) == "torch::nn::Dropout2d(p=0.5, inplace=false)");
  torch::manual_seed(1);
  const Tensor dropped = drop(torch::ones({8, 16, 3, 3}));
  // Whole channels: each (sample, channel) plane is all 0 or all 2.
  const std::vector<double> v = values(dropped);
  int zeros = 0;
  for (size_t plane = 0; plane < v.size() / 9; ++plane) {
    for (size_t i = 1; i < 9; ++i) CHECK(v[plane * 9 + i] == v[plane * 9]);
    CHECK((v[plane * 9] == 0 || v[plane * 9] == 2));
    zeros += v[plane * 9] == 0;
  }
  CHECK(zeros > 32);
  CHECK(zeros < 96);
  drop->eval();
  const Tensor same = torch::ones({2, 3, 2, 2});
  CHECK(drop(same).is_same(same));

  nn::Unflatten unflatten(nn::UnflattenOptions(1, {16, 5, 5}));
  CHECK(printed(*unflatten) == "torch::nn::Unflatten(dim=1, unflattened_size={16, 5, 5})");
  CHECK(shape(unflatten(torch::zeros({2, 400}))) == Sizes{2, 16, 5, 5});
}

TEST_CASE("a LeNet-5 prints its layers and runs forward and backward") {
  nn::Sequential lenet(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(2),
                       nn::Conv2d(6, 16, 5), nn::BatchNorm2d(16), nn::LeakyReLU(), nn::AvgPool2d(2), nn::Flatten(),
                       nn::Dropout(0.1), nn::Linear(400, 120), nn::Linear(120, 10));
  Tensor out = lenet->forward(torch::randn({4, 1, 28, 28}));
  CHECK(shape(out) == Sizes{4, 10});
  out.sum().backward();
  for (const auto& p : lenet->parameters()) CHECK(p.grad().defined());
}

TEST_CASE("conv_transpose2d is the input-gradient of conv2d, and its gradients match central differences") {
  torch::manual_seed(12);
  const auto dbl = torch::TensorOptions().dtype(torch::kDouble);
  const Tensor x = torch::randn({2, 3, 4, 5}, dbl);
  const Tensor w = torch::randn({3, 2, 3, 3}, dbl);  // (in, out, k, k)
  const Tensor transposed = torch::conv_transpose2d(x, w, {}, 2, 1, 1);
  // (4 - 1) 2 - 2 + 2 + 1 + 1 = 8 rows, (5 - 1) 2 - 2 + 2 + 1 + 1 = 10 columns.
  CHECK(shape(transposed) == Sizes{2, 2, 8, 10});
  Tensor z = torch::zeros({2, 2, 8, 10}, dbl.requires_grad(true));
  (torch::conv2d(z, w, {}, 2, 1) * x).sum().backward();
  CHECK(values(transposed) == values(z.grad()));

  Tensor input = x.clone().requires_grad_();
  Tensor weight = w.clone().requires_grad_();
  Tensor bias = torch::randn({2}, dbl).requires_grad_();
  auto forward = [&] { return torch::conv_transpose2d(input, weight, bias, 2, 1, 1); };
  const Tensor projection = torch::randn({2, 2, 8, 10}, dbl);
  const Tensor out = forward();
  CHECK(out.grad_fn()->name() == "ConvolutionBackward0");
  (out * projection).sum().backward();
  torch::NoGradGuard no_grad;
  for (Tensor* t : {&input, &weight, &bias}) {
    const std::vector<double> analytic = values(t->grad());
    Tensor probe = t->detach();
    double* data = probe.data_ptr<double>();
    for (int64_t i = 0; i < probe.numel(); i += 5) {
      const double saved = data[i];
      data[i] = saved + 1e-6;
      const double up = (forward() * projection).sum().item<double>();
      data[i] = saved - 1e-6;
      const double down = (forward() * projection).sum().item<double>();
      data[i] = saved;
      CHECK(analytic[i] == Approx((up - down) / 2e-6).margin(1e-6));
    }
  }
}

TEST_CASE("ConvTranspose2d and Conv1d follow LibTorch's options, shapes and printing") {
  nn::ConvTranspose2d up(nn::ConvTranspose2dOptions(16, 8, 2).stride(2));
  CHECK(printed(*up) == "torch::nn::ConvTranspose2d(16, 8, kernel_size=[2, 2], stride=[2, 2])");
  CHECK(shape(up->weight) == Sizes{16, 8, 2, 2});
  CHECK(shape(up(torch::zeros({1, 16, 5, 5}))) == Sizes{1, 8, 10, 10});
  CHECK(shape(F::conv_transpose2d(torch::zeros({4, 3, 3}), torch::zeros({4, 2, 3, 3}),
                                  F::ConvTranspose2dFuncOptions().padding(1))) == Sizes{2, 3, 3});
  CHECK(error_of([&] { torch::conv_transpose2d(torch::zeros({1, 3, 4, 4}), torch::zeros({4, 2, 3, 3})); }) ==
        "Given transposed=1, weight of size [4, 2, 3, 3], expected input[1, 3, 4, 4] to have 4 channels, but got 3 "
        "channels instead");

  nn::Conv1d conv(nn::Conv1dOptions(4, 8, 3).padding(1).bias(false));
  CHECK(printed(*conv) == "torch::nn::Conv1d(4, 8, kernel_size=3, stride=1, padding=1, bias=false)");
  CHECK(shape(conv->weight) == Sizes{8, 4, 3});
  torch::manual_seed(13);
  const Tensor signal = torch::randn({2, 4, 10});
  const Tensor expected = torch::conv2d(signal.unsqueeze(2), conv->weight.unsqueeze(2), {}, 1, {0, 1}).squeeze(2);
  CHECK(values(conv(signal)) == values(expected));
  CHECK(shape(conv(signal[0])) == Sizes{8, 10});  // unbatched (C, L)
  CHECK(shape(F::conv1d(signal, conv->weight, F::Conv1dFuncOptions().stride(2))) == Sizes{2, 8, 4});
}
