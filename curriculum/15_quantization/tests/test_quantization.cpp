// Module 15 (Quantization): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes
// (quantize_loops.cpp), reached through LibTorch's API (torch::quantize_per_tensor, dequantize(),
// int_repr()) and TinyTorch's observers and nn::QuantizedLinear.
// Expected values are worked by hand in the comments, or computed here in double precision from the
// definitions (round half to even, clamp; the integer product written as real numbers).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <tuple>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace tq = torch::quantization;

namespace {

torch::Tensor floats(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kFloat).reshape(sizes);
}

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// The definition: clamp(zero_point + round_half_even(x / scale), low, high), in double.
int64_t code_of(double x, double scale, int64_t zero_point, int64_t low, int64_t high) {
  const double code = zero_point + std::nearbyint(x / scale);
  return static_cast<int64_t>(std::min<double>(std::max<double>(code, low), high));
}

std::tuple<double, int64_t> observed(const torch::Tensor& x, torch::ScalarType dtype, torch::QScheme scheme,
                                     bool reduce_range = false) {
  tq::MinMaxObserver observer(tq::MinMaxObserverOptions().dtype(dtype).qscheme(scheme).reduce_range(reduce_range));
  observer.forward(x);
  auto [scale, zero_point] = observer.calculate_qparams();
  return {scale.item<double>(), zero_point.item<int64_t>()};
}

}  // namespace

TEST_CASE("observers turn a range into a scale and a zero point", "[points=12][qparams]") {
  // [-1, 2] onto int8, affine: scale 3/255, zero point -128 - round(-1 / (3/255)) = -128 + 85 = -43.
  auto [scale, zero_point] = observed(floats({-1, 0.5, 2}, {3}), torch::kQInt8, torch::kPerTensorAffine);
  CHECK(scale == Approx(3.0 / 255).epsilon(1e-6));
  CHECK(zero_point == -43);
  // [-1.2, 2]: -1.2 / (3.2/255) = -95.625 rounds to -96 (not -95): zero point -32.
  std::tie(scale, zero_point) = observed(floats({-1.2, 2}, {2}), torch::kQInt8, torch::kPerTensorAffine);
  CHECK(scale == Approx(3.2 / 255).epsilon(1e-6));
  CHECK(zero_point == -32);
  // A range that does not contain 0 is widened to: [0.5, 3] onto uint8 -> [0, 3], zero point 0.
  std::tie(scale, zero_point) = observed(floats({0.5, 3}, {2}), torch::kQUInt8, torch::kPerTensorAffine);
  CHECK(scale == Approx(3.0 / 255).epsilon(1e-6));
  CHECK(zero_point == 0);
  // [-4, -1] onto uint8: [-4, 0], every code below the zero point: zero point 255.
  std::tie(scale, zero_point) = observed(floats({-4, -1}, {2}), torch::kQUInt8, torch::kPerTensorAffine);
  CHECK(scale == Approx(4.0 / 255).epsilon(1e-6));
  CHECK(zero_point == 255);
  // Symmetric: max |x| = 2 over half the codes: 2 / 127.5; zero point 0 for int8, 128 for uint8.
  std::tie(scale, zero_point) = observed(floats({-1, 2}, {2}), torch::kQInt8, torch::kPerTensorSymmetric);
  CHECK(scale == Approx(2.0 / 127.5).epsilon(1e-6));
  CHECK(zero_point == 0);
  std::tie(scale, zero_point) = observed(floats({-3, 2}, {2}), torch::kQUInt8, torch::kPerTensorSymmetric);
  CHECK(scale == Approx(3.0 / 127.5).epsilon(1e-6));
  CHECK(zero_point == 128);
  // reduce_range: uint8 codes [0, 127].
  std::tie(scale, zero_point) = observed(floats({-1, 2}, {2}), torch::kQUInt8, torch::kPerTensorAffine, true);
  CHECK(scale == Approx(3.0 / 127).epsilon(1e-6));
  CHECK(zero_point == 42);  // 0 - round(-1 / (3/127)) = round(42.33)
  // An all-zero tensor still gets a usable (positive) scale.
  std::tie(scale, zero_point) = observed(torch::zeros({4}), torch::kQInt8, torch::kPerTensorAffine);
  CHECK(scale > 0);
  // Drawn ranges: 0 is exactly representable, and both ends land within half a step of a code.
  for (int trial = 0; trial < 20; ++trial) {
    const torch::Tensor x = random_tensor({16}, -4, 4);
    std::tie(scale, zero_point) = observed(x, torch::kQInt8, torch::kPerTensorAffine);
    const double low = std::min(0.0, x.min().item<double>()), high = std::max(0.0, x.max().item<double>());
    CHECK(scale == Approx(std::max((high - low) / 255, 1.1920928955078125e-07)).epsilon(1e-6));
    CHECK(zero_point == -128 - static_cast<int64_t>(std::nearbyint(low / scale)));
  }
}

TEST_CASE("the per-channel observer gives each channel its own range", "[points=8][qparams]") {
  // Rows are channels (ch_axis 0): [-1, 2] and [0, 0.5] (widened to include 0).
  const auto w = floats({-1, 2, 0.5, 0, 0.25, 0.5}, {2, 3});
  tq::PerChannelMinMaxObserver observer(
      tq::PerChannelMinMaxObserverOptions().ch_axis(0).dtype(torch::kQInt8).qscheme(torch::kPerChannelAffine));
  observer.forward(w);
  auto [scales, zero_points] = observer.calculate_qparams();
  CHECK_THAT(scales, AllClose(torch::tensor({3.0 / 255, 0.5 / 255}, torch::kDouble), 1e-12));
  CHECK_THAT(zero_points, Equals(torch::tensor({-43, -128}, torch::kLong)));
  // Symmetric per channel on columns (ch_axis 1): max |x| of columns [-1, 0], [2, 0.25], [0.5, 0.5].
  tq::PerChannelMinMaxObserver columns(
      tq::PerChannelMinMaxObserverOptions().ch_axis(1).dtype(torch::kQInt8).qscheme(torch::kPerChannelSymmetric));
  columns.forward(w);
  std::tie(scales, zero_points) = columns.calculate_qparams();
  CHECK_THAT(scales, AllClose(torch::tensor({1 / 127.5, 2 / 127.5, 0.5 / 127.5}, torch::kDouble), 1e-12));
  CHECK_THAT(zero_points, Equals(torch::tensor({0, 0, 0}, torch::kLong)));
  // A drawn matrix: each row's range (widened to 0) by a loop, then the definitions of section 3 in
  // double (the zero point divides by the scale worked out here, so no rounding differs).
  const int64_t rows = random_int(2, 6), cols = random_int(2, 7);
  const torch::Tensor drawn = random_tensor({rows, cols}, -2, 2);
  const std::vector<double> v = values_of(drawn);
  std::vector<double> row_scales, column_scales;
  std::vector<int64_t> row_zero_points;
  for (int64_t r = 0; r < rows; ++r) {
    double low = 0, high = 0;
    for (int64_t c = 0; c < cols; ++c) {
      low = std::min(low, v[r * cols + c]);
      high = std::max(high, v[r * cols + c]);
    }
    const double scale = std::max((high - low) / 255, 1.1920928955078125e-07);
    row_scales.push_back(scale);
    row_zero_points.push_back(-128 - static_cast<int64_t>(std::nearbyint(low / scale)));
  }
  for (int64_t c = 0; c < cols; ++c) {
    double magnitude = 0;
    for (int64_t r = 0; r < rows; ++r) magnitude = std::max(magnitude, std::fabs(v[r * cols + c]));
    column_scales.push_back(std::max(magnitude / 127.5, 1.1920928955078125e-07));
  }
  tq::PerChannelMinMaxObserver drawn_rows(
      tq::PerChannelMinMaxObserverOptions().ch_axis(0).dtype(torch::kQInt8).qscheme(torch::kPerChannelAffine));
  drawn_rows.forward(drawn);
  std::tie(scales, zero_points) = drawn_rows.calculate_qparams();
  CHECK_THAT(scales, AllClose(torch::tensor(row_scales, torch::kDouble), 1e-12));
  CHECK_THAT(zero_points, Equals(torch::tensor(row_zero_points, torch::kLong)));
  tq::PerChannelMinMaxObserver drawn_columns(
      tq::PerChannelMinMaxObserverOptions().ch_axis(1).dtype(torch::kQInt8).qscheme(torch::kPerChannelSymmetric));
  drawn_columns.forward(drawn);
  std::tie(scales, zero_points) = drawn_columns.calculate_qparams();
  CHECK_THAT(scales, AllClose(torch::tensor(column_scales, torch::kDouble), 1e-12));
  CHECK_THAT(zero_points, Equals(torch::zeros({cols}, torch::kLong)));
}

TEST_CASE("quantize_per_tensor rounds half to even and clamps to the code range", "[points=14][quantize]") {
  // Scale 1: ties go to the even neighbour; 300 and -300 clamp (they must not wrap around).
  auto q = torch::quantize_per_tensor(floats({0.5, 1.5, 2.5, -0.5, -1.5, 300, -300}, {7}), 1.0, 0, torch::kQInt8);
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({0, 2, 2, 0, -2, 127, -128}).to(torch::kChar)));
  // The worked example: scale 0.0118, zero point -43: -1 -> -43 + round(-84.7) = -128.
  q = torch::quantize_per_tensor(floats({-1, 0, 2, 0.5, 1.5, -0.5}, {2, 3}), 0.0118, -43, torch::kQInt8);
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({-128, -43, 126, -1, 84, -85}).to(torch::kChar).reshape({2, 3})));
  CHECK(q.q_scale() == 0.0118);
  CHECK(q.q_zero_point() == -43);
  // uint8: zero point 100, scale 0.02; 4 -> 300 clamps to 255, -3 -> -50 clamps to 0.
  q = torch::quantize_per_tensor(floats({-1, 0, 2, 4, -3}, {5}), 0.02, 100, torch::kQUInt8);
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({50, 100, 200, 255, 0}).to(torch::kByte)));
  // int32 codes reach far beyond int8.
  q = torch::quantize_per_tensor(floats({-1, 2, 0.5}, {3}), 0.001, 5, torch::kQInt32);
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({-995, 2005, 505}).to(torch::kInt)));
  // Drawn values against the definition.
  const torch::Tensor x = random_tensor({5, 7}, -3, 3);
  const double scale = 0.125 * static_cast<double>(random_int(1, 4)) / 3.0;
  const int64_t zero_point = random_int(-20, 20);
  q = torch::quantize_per_tensor(x, scale, zero_point, torch::kQInt8);
  std::vector<double> expected;
  for (double v : values_of(x)) expected.push_back(static_cast<double>(code_of(v, scale, zero_point, -128, 127)));
  CHECK_THAT(q.int_repr().to(torch::kDouble), AllClose(torch::tensor(expected, torch::kDouble).reshape({5, 7}), 0, 1));
}

TEST_CASE("dequantize recovers every value within half a step", "[points=10][quantize]") {
  auto q = torch::quantize_per_tensor(floats({-1, 0, 2, 0.5}, {4}), 0.02, 100, torch::kQUInt8);
  CHECK_THAT(q.dequantize(), AllClose(floats({-1, 0, 2, 0.5}, {4}), 0, 1e-6));
  CHECK(q.dequantize().scalar_type() == torch::kFloat);
  for (auto dtype : {torch::kQInt8, torch::kQUInt8}) {
    const torch::Tensor x = random_tensor({6, 9}, -2, 2);
    auto [scale, zero_point] = observed(x, dtype, torch::kPerTensorAffine);
    const torch::Tensor back = torch::quantize_per_tensor(x, scale, zero_point, dtype).dequantize();
    const std::vector<double> a = values_of(x), b = values_of(back);
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
    CHECK(worst <= scale / 2 * 1.0001);
    CHECK(worst > 0);  // 8 bits cannot hold 54 values on a 1/8 grid over [-2, 2] exactly... unless they are the grid
  }
  // Drawn values, scale and zero point: (code - zero point) * scale. The scale is k / 24 with k odd
  // (1, 3, 5 or 7) and x a multiple of 1/8, so x / scale = 3m / k is never within 1/14 of a tie: the
  // codes are the definition's, clamped, whichever way the quantizer divides.
  for (auto dtype : {torch::kQInt8, torch::kQUInt8}) {
    const torch::Tensor x = random_tensor({4, 7}, -3, 3);
    const double scale = static_cast<double>(2 * random_int(0, 3) + 1) / 24.0;
    const bool is_signed = dtype == torch::kQInt8;
    const int64_t low = is_signed ? -128 : 0, high = is_signed ? 127 : 255;
    const int64_t zero_point = is_signed ? random_int(-30, 30) : random_int(90, 160);
    std::vector<double> expected;
    for (double v : values_of(x))
      expected.push_back(static_cast<double>(code_of(v, scale, zero_point, low, high) - zero_point) * scale);
    const torch::Tensor back = torch::quantize_per_tensor(x, scale, zero_point, dtype).dequantize();
    CHECK_THAT(back, AllClose(torch::tensor(expected, torch::kDouble).to(torch::kFloat).reshape({4, 7}), 1e-6, 1e-6));
  }
}

TEST_CASE("quantize_per_channel applies each channel's parameters along its axis", "[points=14][per_channel]") {
  const auto x = floats({-1, 0, 2, 0.5, 1.5, -0.5}, {2, 3});
  // Axis 0: row 0 with (0.01, 0), row 1 with (0.02, 3); 2 / 0.01 = 200 clamps to 127.
  auto q = torch::quantize_per_channel(x, torch::tensor({0.01, 0.02}), torch::tensor({0, 3}), 0, torch::kQInt8);
  LABEL_CHECKS("the codes");
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({-100, 0, 127, 28, 78, -22}).to(torch::kChar).reshape({2, 3})));
  LABEL_CHECKS("the real values");
  CHECK_THAT(q.dequantize(), AllClose(floats({-1, 0, 1.27, 0.5, 1.5, -0.5}, {2, 3}), 0, 1e-6));
  // Axis 1: column c with scale 0.01 (c + 1) and zero points 0, 3, 2 (uint8: negatives clamp to 0).
  q = torch::quantize_per_channel(x, torch::tensor({0.01, 0.02, 0.03}), torch::tensor({0, 3, 2}), 1, torch::kQUInt8);
  LABEL_CHECKS("the codes");
  CHECK_THAT(q.int_repr(), Equals(torch::tensor({0, 3, 69, 50, 78, 0}).to(torch::kByte).reshape({2, 3})));
  CHECK(q.q_per_channel_axis() == 1);
  // A (2, 3, 4) tensor on its middle axis, drawn values against the definition.
  const torch::Tensor y = random_tensor({2, 3, 4}, -2, 2);
  const std::vector<double> scales = {0.02, 0.05, 0.0125};
  const std::vector<int64_t> zero_points = {random_int(-5, 5), random_int(-5, 5), random_int(-5, 5)};
  q = torch::quantize_per_channel(y, torch::tensor(scales, torch::kDouble), torch::tensor(zero_points), 1,
                                  torch::kQInt8);
  std::vector<double> expected;
  const std::vector<double> v = values_of(y);
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t c = (i / 4) % 3;
    expected.push_back(static_cast<double>(code_of(v[i], scales[c], zero_points[c], -128, 127)));
  }
  CHECK_THAT(q.int_repr().to(torch::kDouble), AllClose(torch::tensor(expected, torch::kDouble).reshape({2, 3, 4}), 0, 1));
  std::vector<double> back;
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t c = (i / 4) % 3;
    back.push_back((expected[i] - static_cast<double>(zero_points[c])) * scales[c]);
  }
  LABEL_CHECKS("the real values");
  CHECK_THAT(q.dequantize(), AllClose(torch::tensor(back).reshape({2, 3, 4}).to(torch::kFloat), 1e-5, 0.0126));
}

namespace {
// An activation code as section 2's contract defines it: x times the scale's inverse, both in float
// (LibTorch's order), rounded half to even, clamped to [0, 127]. Inputs on the 1/8 grid can land
// exactly on a tie of x / scale, where the order of the float operations decides the code.
int64_t activation_code(double x, double scale, int64_t zero_point) {
  const float inv_scale = 1.0f / static_cast<float>(scale);
  const float scaled = static_cast<float>(x) * inv_scale;
  const int64_t code = zero_point + static_cast<int64_t>(std::nearbyint(scaled));
  return std::min<int64_t>(std::max<int64_t>(code, 0), 127);
}

// What a quantized Linear must compute from its codes: sum_p (a - za)(w - zw) sa sw + b, in double,
// with the activation codes worked out here from the layer's input scale and zero point.
torch::Tensor linear_oracle(const torch::nn::QuantizedLinear& layer, const torch::Tensor& x) {
  const torch::Tensor qw = layer->weight();
  const std::vector<double> w = values_of(qw.int_repr());
  const int64_t n = layer->out_features(), k = layer->in_features(), m = x.size(0);
  std::vector<double> w_scale(n), w_zero(n);
  for (int64_t j = 0; j < n; ++j) {
    const bool per_channel = qw.qscheme() == torch::kPerChannelAffine;
    w_scale[j] = per_channel ? qw.q_per_channel_scales()[j].item<double>() : qw.q_scale();
    w_zero[j] = per_channel ? qw.q_per_channel_zero_points()[j].item<double>() : static_cast<double>(qw.q_zero_point());
  }
  const std::vector<double> xs = values_of(x);
  const std::vector<double> b = layer->bias().defined() ? values_of(layer->bias()) : std::vector<double>(n, 0.0);
  std::vector<double> out(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double a = static_cast<double>(
            activation_code(xs[i * k + p], layer->input_scale(), layer->input_zero_point()));
        sum += (a - layer->input_zero_point()) * (w[j * k + p] - w_zero[j]);
      }
      out[i * n + j] = sum * layer->input_scale() * w_scale[j] + b[j];
    }
  return torch::tensor(out, torch::kFloat).reshape({m, n});
}
}  // namespace

TEST_CASE("the int8 GEMM accumulates in int32", "[points=14][gemm]") {
  // Every weight at the top code (127) and every input at the top activation code (127): each output
  // is 127 * 127 * 96 = 1,548,384 products' worth, far beyond int8 and int16.
  const int64_t k = 96;
  torch::nn::Linear fc(torch::nn::LinearOptions(k, 3).bias(false));
  {
    torch::NoGradGuard no_grad;
    fc->weight.fill_(1.0);
  }
  const torch::Tensor x = torch::full({2, k}, 4.0);
  auto layer = torch::nn::QuantizedLinear::from_float(*fc, {x}, torch::nn::QuantizedLinearOptions().weight_qscheme(
                                                                     torch::kPerTensorSymmetric));
  CHECK(layer->weight().int_repr()[0][0].item<int64_t>() == 127);
  // Symmetric weights: 1.0 / (1 / 127.5) = 127.5 rounds to 128 and clamps to 127, so W = 127 / 127.5.
  CHECK_THAT(layer(x), AllClose(torch::full({2, 3}, 4.0 * k * 127 / 127.5), 1e-5));
  // Drawn weights and inputs against the oracle, odd sizes included.
  const int64_t in = random_int(5, 40), out = random_int(2, 9), batch = random_int(1, 5);
  torch::nn::Linear drawn(in, out);
  const torch::Tensor inputs = random_tensor({batch, in}, 0, 3);
  auto qdrawn = torch::nn::QuantizedLinear::from_float(*drawn, {inputs});
  CHECK_THAT(qdrawn(inputs), AllClose(linear_oracle(qdrawn, inputs), 1e-4, 1e-4));
}

TEST_CASE("QuantizedLinear corrects for both zero points", "[points=14][gemm]") {
  // Affine weights and inputs that go negative: both zero points are non-zero, every correction
  // term counts. Per tensor and per channel.
  for (auto scheme : {torch::kPerTensorAffine, torch::kPerChannelAffine}) {
    const int64_t in = random_int(8, 32), out = random_int(3, 8), batch = random_int(2, 6);
    torch::nn::Linear fc(in, out);
    {
      torch::NoGradGuard no_grad;
      fc->weight.copy_(random_tensor({out, in}, -0.5, 1.5));
    }
    const torch::Tensor x = random_tensor({batch, in}, -2, 1);
    auto layer = torch::nn::QuantizedLinear::from_float(*fc, {x}, torch::nn::QuantizedLinearOptions().weight_qscheme(scheme));
    CHECK(layer->input_zero_point() != 0);
    const torch::Tensor y = layer(x);
    CHECK_THAT(y, AllClose(linear_oracle(layer, x), 1e-4, 1e-4));
    // And close to the float layer: the error of 8-bit codes, not of a wrong formula.
    CHECK_THAT(y, AllClose(fc(x).detach(), 0.05, 0.1));
  }
}

TEST_CASE("a quantized MLP keeps its accuracy within a point of float", "[points=14][integration]") {
  // Four Gaussian blobs in 16 dimensions, an MLP 16 -> 32 -> 4 trained in float, then both Linears
  // quantized (weights per channel, inputs calibrated on the training set).
  torch::manual_seed(15);
  const int64_t per_class = 100, dims = 16, classes = 4;
  const torch::Tensor centres = torch::randn({classes, dims}) * 0.6;
  std::vector<int64_t> label_values;
  for (int64_t c = 0; c < classes; ++c) label_values.insert(label_values.end(), per_class, c);
  const torch::Tensor labels = torch::tensor(label_values);
  const torch::Tensor data = centres.index_select(0, labels) + torch::randn({classes * per_class, dims});
  torch::nn::Linear fc1(dims, 32), fc2(32, classes);
  torch::optim::Adam optimizer({fc1->weight, fc1->bias, fc2->weight, fc2->bias}, torch::optim::AdamOptions(0.01));
  for (int epoch = 0; epoch < 60; ++epoch) {
    optimizer.zero_grad();
    torch::nn::functional::cross_entropy(fc2(torch::relu(fc1(data))), labels).backward();
    optimizer.step();
  }
  torch::NoGradGuard no_grad;
  const torch::Tensor hidden = torch::relu(fc1(data));
  auto accuracy = [&](const torch::Tensor& logits) {
    return logits.argmax(1).eq(labels).to(torch::kFloat).mean().item<double>() * 100;
  };
  const double float_accuracy = accuracy(fc2(hidden));
  auto q1 = torch::nn::QuantizedLinear::from_float(*fc1, {data});
  auto q2 = torch::nn::QuantizedLinear::from_float(*fc2, {hidden});
  const double int8_accuracy = accuracy(q2(torch::relu(q1(data))));
  std::cout << "float32: " << float_accuracy << "% (" << (fc1->weight.numel() + fc2->weight.numel()) * 4
            << " weight bytes), int8: " << int8_accuracy << "% ("
            << fc1->weight.numel() + fc2->weight.numel() << " weight bytes)\n";
  CHECK(float_accuracy > 80);
  CHECK(int8_accuracy >= float_accuracy - 1);
  CHECK(q1->memory_bytes() < fc1->weight.numel() * 4);
  // Drawn images through the quantized MLP: each quantized layer computes what its codes say.
  const torch::Tensor images = random_tensor({random_int(1, 6), dims}, -2, 2);
  const torch::Tensor q_hidden = torch::relu(q1(images));
  CHECK_THAT(q1(images), AllClose(linear_oracle(q1, images), 1e-4, 1e-4));
  CHECK_THAT(q2(q_hidden), AllClose(linear_oracle(q2, q_hidden), 1e-4, 1e-4));
}
