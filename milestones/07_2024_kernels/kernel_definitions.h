#pragma once
// Milestone 07's yardsticks: each kernel of module 17 written again as its textbook definition, in
// float64 and plain loops, so that nothing here runs the code under test. The kernels are judged the
// way the original course judged them, numpy's allclose: |got - want| <= atol + rtol |want| for every
// element. tolerance_used() reports the worst element's share of that allowance (allclose holds when
// it is <= 1), so a learner sees how close to the edge a kernel is, not just yes or no.
#include <tinytorch/torch.h>
#include <tinytorch/spatial_kernels.h>  // Conv2dParams

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace milestone::kernels {

struct Tolerance {
  double atol, rtol;
};
constexpr Tolerance kMatmulTolerance{1e-3, 1e-4};  // the original course's allclose for tiled_matmul and im2col_conv2d
constexpr Tolerance kGeluTolerance{1e-5, 1e-5};    // and for fused_gelu against the float64 tanh formula

// max over i of |got[i] - want[i]| / (atol + rtol |want[i]|); infinity for a NaN, an infinity or a
// length that differs (a kernel that wrote nothing, or garbage, must not pass by comparing NaN < x).
template <typename Got>
double tolerance_used(const Got& got, const std::vector<double>& want, Tolerance tolerance) {
  if (static_cast<size_t>(got.size()) != want.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double difference = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!std::isfinite(difference)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, difference / (tolerance.atol + tolerance.rtol * std::fabs(want[i])));
  }
  return worst;
}

// A float tensor's values, in row-major order, whatever its strides.
inline std::vector<double> values_of(const torch::Tensor& tensor) {
  const torch::Tensor flat = tensor.contiguous().to(torch::kFloat);
  const float* data = flat.data_ptr<float>();
  return std::vector<double>(data, data + flat.numel());
}

inline double largest_magnitude(const std::vector<double>& values) {
  double largest = 0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  return largest;
}

// ---- The matrix product ----

// A matrix read through its element strides, as cpublas::gemm reads its operands: element (i, j) is
// data[i * row_stride + j * col_stride]. Row-major: (cols, 1); transposed storage: (1, rows); a
// strided view (every other column of a wider matrix): (2 cols + pad, 2).
struct StridedMatrix {
  std::vector<float> storage;
  int64_t rows = 0, cols = 0, row_stride = 0, col_stride = 0;
  double at(int64_t i, int64_t j) const { return storage[static_cast<size_t>(i * row_stride + j * col_stride)]; }
};

// The textbook definition in float64: C[i][j] = sum over p of A[i][p] B[p][j], one sum at a time.
inline std::vector<double> textbook_product(const StridedMatrix& a, const StridedMatrix& b) {
  std::vector<double> c(static_cast<size_t>(a.rows * b.cols), 0.0);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < a.cols; ++p) sum += a.at(i, p) * b.at(p, j);
      c[static_cast<size_t>(i * b.cols + j)] = sum;
    }
  return c;
}

// ---- The convolution ----

struct ConvShape {
  int64_t batch, channels, height, width, out_channels, kernel_h, kernel_w;
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w, groups;
  bool bias;
  int64_t out_h() const { return (height + 2 * pad_h - dilation_h * (kernel_h - 1) - 1) / stride_h + 1; }
  int64_t out_w() const { return (width + 2 * pad_w - dilation_w * (kernel_w - 1) - 1) / stride_w + 1; }
  torch::native::Conv2dParams params() const {
    torch::native::Conv2dParams p;
    p.stride[0] = stride_h, p.stride[1] = stride_w;
    p.padding[0] = pad_h, p.padding[1] = pad_w;
    p.dilation[0] = dilation_h, p.dilation[1] = dilation_w;
    return p;
  }
};

// Calls visit(n, o, y, x, c, i, j, input_index, weight_index) for every multiply-add of the direct
// definition out[n][o][y][x] = bias[o] + sum over c of group(o), i, j of
// input[n][c][y sh + i dh - ph][x sw + j dw - pw] weight[o][c - first channel of the group][i][j],
// skipping the taps that fall in the padding. Forward and backward definitions share it.
inline void for_each_tap(const ConvShape& s,
                         const std::function<void(int64_t n, int64_t o, int64_t y, int64_t x, size_t input_index,
                                                  size_t weight_index)>& visit) {
  const int64_t group_in = s.channels / s.groups, group_out = s.out_channels / s.groups;
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t o = 0; o < s.out_channels; ++o)
      for (int64_t y = 0; y < s.out_h(); ++y)
        for (int64_t x = 0; x < s.out_w(); ++x)
          for (int64_t c = 0; c < group_in; ++c)
            for (int64_t i = 0; i < s.kernel_h; ++i)
              for (int64_t j = 0; j < s.kernel_w; ++j) {
                const int64_t iy = y * s.stride_h + i * s.dilation_h - s.pad_h;
                const int64_t ix = x * s.stride_w + j * s.dilation_w - s.pad_w;
                if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
                const int64_t channel = (o / group_out) * group_in + c;
                visit(n, o, y, x, static_cast<size_t>(((n * s.channels + channel) * s.height + iy) * s.width + ix),
                      static_cast<size_t>(((o * group_in + c) * s.kernel_h + i) * s.kernel_w + j));
              }
}

inline size_t output_index(const ConvShape& s, int64_t n, int64_t o, int64_t y, int64_t x) {
  return static_cast<size_t>(((n * s.out_channels + o) * s.out_h() + y) * s.out_w() + x);
}

inline std::vector<double> conv2d_definition(const ConvShape& s, const std::vector<double>& input,
                                             const std::vector<double>& weight, const std::vector<double>& bias) {
  std::vector<double> out(static_cast<size_t>(s.batch * s.out_channels * s.out_h() * s.out_w()), 0.0);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t o = 0; o < s.out_channels; ++o)
      for (int64_t y = 0; y < s.out_h(); ++y)
        for (int64_t x = 0; x < s.out_w(); ++x) out[output_index(s, n, o, y, x)] = s.bias ? bias[static_cast<size_t>(o)] : 0.0;
  for_each_tap(s, [&](int64_t n, int64_t o, int64_t y, int64_t x, size_t in, size_t w) {
    out[output_index(s, n, o, y, x)] += input[in] * weight[w];
  });
  return out;
}

// The gradients of sum(out * grad_out): each multiply-add above sends grad_out to its input pixel
// (times the weight) and to its weight (times the pixel); the bias gets every grad_out of its channel.
struct ConvGradients {
  std::vector<double> input, weight, bias;
};
inline ConvGradients conv2d_backward_definition(const ConvShape& s, const std::vector<double>& input,
                                                const std::vector<double>& weight, const std::vector<double>& grad_out) {
  ConvGradients grads{std::vector<double>(input.size(), 0.0), std::vector<double>(weight.size(), 0.0),
                      std::vector<double>(static_cast<size_t>(s.out_channels), 0.0)};
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t o = 0; o < s.out_channels; ++o)
      for (int64_t y = 0; y < s.out_h(); ++y)
        for (int64_t x = 0; x < s.out_w(); ++x) grads.bias[static_cast<size_t>(o)] += grad_out[output_index(s, n, o, y, x)];
  for_each_tap(s, [&](int64_t n, int64_t o, int64_t y, int64_t x, size_t in, size_t w) {
    const double g = grad_out[output_index(s, n, o, y, x)];
    grads.input[in] += g * weight[w];
    grads.weight[w] += g * input[in];
  });
  return grads;
}

// im2col of one image (C, H, W) by its definition: row (c, i, j), column (y, x) holds
// image[c][y sh + i dh - ph][x sw + j dw - pw], 0 in the padding.
inline std::vector<double> im2col_definition(const ConvShape& s, const std::vector<double>& image) {
  std::vector<double> columns;
  for (int64_t c = 0; c < s.channels; ++c)
    for (int64_t i = 0; i < s.kernel_h; ++i)
      for (int64_t j = 0; j < s.kernel_w; ++j)
        for (int64_t y = 0; y < s.out_h(); ++y)
          for (int64_t x = 0; x < s.out_w(); ++x) {
            const int64_t iy = y * s.stride_h + i * s.dilation_h - s.pad_h;
            const int64_t ix = x * s.stride_w + j * s.dilation_w - s.pad_w;
            const bool inside = iy >= 0 && iy < s.height && ix >= 0 && ix < s.width;
            columns.push_back(inside ? image[static_cast<size_t>((c * s.height + iy) * s.width + ix)] : 0.0);
          }
  return columns;
}

// ---- GELU ----

// The tanh form (Hendrycks and Gimpel, 2016), what GPT-2 and torch::gelu(x, "tanh") compute.
inline double gelu_tanh(double x) {
  const double sqrt_2_over_pi = std::sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * x * (1.0 + std::tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
}

// ---- Timing ----

// The median of `runs` timings of fn (seconds), after one warm-up call. Timed in turns by the caller
// when two things are compared, so that a change in the machine's load falls on both alike.
inline double seconds_of(const std::function<void()>& fn) {
  const auto start = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}
// Times `slow` and `fast` in turns, `rounds` times (`fast` `per_round` times a round: it is the quick
// one), and returns {median slow, median fast} in seconds.
inline std::pair<double, double> time_in_turns(const std::function<void()>& slow, const std::function<void()>& fast,
                                               int rounds, int per_round) {
  slow();
  fast();
  std::vector<double> slow_times, fast_times;
  for (int round = 0; round < rounds; ++round) {
    slow_times.push_back(seconds_of(slow));
    for (int i = 0; i < per_round; ++i) fast_times.push_back(seconds_of(fast));
  }
  return {median(slow_times), median(fast_times)};
}

}  // namespace milestone::kernels
