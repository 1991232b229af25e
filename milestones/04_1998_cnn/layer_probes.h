#pragma once
// Probes of YOUR convolution and max pooling that milestone 04's parts gate on besides accuracy.
// Accuracy and the filters' movement alone let real mistakes through (the knockout study,
// `tito instructor knockout 04 --part 1`): a convolution that forgets its bias, a weight gradient taken
// from the weights instead of the input, a max pool that routes its gradient to every position or to the
// last of tied maxima all still train TinyDigits past 90%. Each probe compares forward and backward on a
// small input with the definition, computed here in plain loops.
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace milestone {

namespace probe_detail {
inline double max_difference(const torch::Tensor& yours, const std::vector<double>& expected) {
  const torch::Tensor flat = yours.detach().reshape({-1});
  double error = 0;
  for (int64_t i = 0; i < flat.numel(); ++i) {
    const double got = flat[i].item<double>();
    if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
    error = std::max(error, std::fabs(got - expected[static_cast<size_t>(i)]));
  }
  return flat.numel() == static_cast<int64_t>(expected.size()) ? error : std::numeric_limits<double>::infinity();
}
}  // namespace probe_detail

// conv2d with bias, stride 1, padding 1 on a (2, 2, 5, 5) input and 3 filters of 2x3x3: max difference of
// the output and of the input, weight and bias gradients (for a random output gradient) from the definition.
inline double conv2d_probe_error() {
  torch::manual_seed(9);
  constexpr int64_t N = 2, C = 2, H = 5, W = 5, O = 3, K = 3, P = 1;
  const torch::Tensor x = torch::randn({N, C, H, W}).requires_grad_(true);
  const torch::Tensor w = torch::randn({O, C, K, K}).requires_grad_(true);
  const torch::Tensor b = torch::randn({O}).requires_grad_(true);
  const torch::Tensor y = torch::conv2d(x, w, b, 1, P);
  const torch::Tensor g = torch::randn({N, O, H, W});
  (y * g).sum().backward();
  auto at = [](const torch::Tensor& t, std::vector<int64_t> index) {
    torch::Tensor v = t.detach();
    for (const int64_t i : index) v = v[i];
    return v.item<double>();
  };
  std::vector<double> out(N * O * H * W, 0), grad_x(N * C * H * W, 0), grad_w(O * C * K * K, 0), grad_b(O, 0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          const size_t out_at = static_cast<size_t>(((n * O + o) * H + i) * W + j);
          const double gradient = at(g, {n, o, i, j});
          out[out_at] = at(b, {o});
          grad_b[static_cast<size_t>(o)] += gradient;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t u = 0; u < K; ++u)
              for (int64_t v = 0; v < K; ++v) {
                const int64_t row = i + u - P, column = j + v - P;
                if (row < 0 || row >= H || column < 0 || column >= W) continue;
                const double input = at(x, {n, c, row, column}), weight = at(w, {o, c, u, v});
                out[out_at] += input * weight;
                grad_w[static_cast<size_t>(((o * C + c) * K + u) * K + v)] += gradient * input;
                grad_x[static_cast<size_t>(((n * C + c) * H + row) * W + column)] += gradient * weight;
              }
        }
  return std::max({probe_detail::max_difference(y, out), probe_detail::max_difference(x.grad(), grad_x),
                   probe_detail::max_difference(w.grad(), grad_w), probe_detail::max_difference(b.grad(), grad_b)});
}

// max_pool2d(2) on a (1, 2, 4, 6) input of small integers (many tied maxima): max difference of the output
// and of the input gradient from the definition, where each window's gradient goes to its FIRST maximum
// in row-major order, as LibTorch's does.
inline double max_pool2d_probe_error() {
  torch::manual_seed(9);
  constexpr int64_t C = 2, H = 4, W = 6;
  const torch::Tensor x = torch::randint(0, 3, {1, C, H, W}).to(torch::kFloat).requires_grad_(true);
  const torch::Tensor y = torch::max_pool2d(x, {2, 2});
  const torch::Tensor g = torch::randn({1, C, H / 2, W / 2});
  (y * g).sum().backward();
  std::vector<double> out, grad_x(C * H * W, 0);
  for (int64_t c = 0; c < C; ++c)
    for (int64_t i = 0; i < H / 2; ++i)
      for (int64_t j = 0; j < W / 2; ++j) {
        double best = -std::numeric_limits<double>::infinity();
        size_t best_at = 0;
        for (int64_t u = 0; u < 2; ++u)
          for (int64_t v = 0; v < 2; ++v) {
            const double value = x.detach()[0][c][2 * i + u][2 * j + v].item<double>();
            if (value > best) {
              best = value;
              best_at = static_cast<size_t>((c * H + 2 * i + u) * W + 2 * j + v);
            }
          }
        out.push_back(best);
        grad_x[best_at] += g[0][c][i][j].item<double>();
      }
  return std::max(probe_detail::max_difference(y, out), probe_detail::max_difference(x.grad(), grad_x));
}

}  // namespace milestone
