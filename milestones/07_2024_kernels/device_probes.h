#pragma once
// Milestone 07 part 2's probes of YOUR module 22 kernels: each runs one family on the device, on the
// shapes and views that break kernels, and compares with its float64 definition (kernel_definitions.h,
// shared with part 1) or, for copies, with the exact bytes. Training alone lets real mistakes through
// (`tito instructor knockout 07 --part 2`): a GEMM tile that reads past the edge of A finds zeros there
// as often as not, LeNet never copies into a slice, and a softmax without its max is exact until a
// logit passes ~88, where exp overflows. Each probe returns allclose's "tolerance used" (<= 1 when every element is
// within atol + rtol |want|) or a count that must be 0.
#include <tinytorch/torch.h>
#include <tinytorch/device_kernels.h>  // the functions module 22 has you write, called here directly

#include <cmath>
#include <limits>
#include <vector>

#include "kernel_definitions.h"

namespace milestone::device {

namespace kernels = milestone::kernels;
namespace native = torch::opencl::native;

constexpr kernels::Tolerance kElementwiseTolerance{1e-5, 1e-5};

// NaN and infinities are reported as this (JSON has no NaN); every error gate rejects it.
inline double reportable(double value) { return std::isfinite(value) ? value : 1e30; }

// A float tensor's values, as float64, in row-major order (from the device or the CPU).
inline std::vector<double> values_of(const torch::Tensor& t) { return kernels::values_of(t.cpu()); }

// A rows x cols view on the device whose neighbours in memory are NaN: the middle of a NaN-filled
// (rows + 2, cols + 2) tensor. A kernel that reads past the view's edge (a tile hanging over it)
// gets NaN and its result shows it; one that respects the edge never sees them.
inline torch::Tensor framed_by_nan(const torch::Tensor& values, const torch::Device& device) {
  const int64_t rows = values.size(0), cols = values.size(1);
  torch::Tensor frame = torch::full({rows + 2, cols + 2}, std::numeric_limits<float>::quiet_NaN());
  frame.narrow(0, 1, rows).narrow(1, 1, cols).copy_(values);
  return frame.to(device).narrow(0, 1, rows).narrow(1, 1, cols);
}

// ---- 1. The matrix product: each of your three GEMM kernels, and torch::mm ----
inline double gemm_probe_error(const torch::Device& device) {
  struct Shape {
    int64_t m, k, n;
  };
  const Shape shapes[] = {{1, 1, 1}, {7, 13, 5}, {17, 16, 33}, {65, 33, 129}, {127, 255, 63}};
  const native::GemmKernel variants[] = {native::GemmKernel::Naive, native::GemmKernel::Tiled,
                                         native::GemmKernel::RegisterTiled};
  double worst = 0;
  torch::manual_seed(7);
  for (const Shape& s : shapes) {
    const torch::Tensor a = torch::randn({s.m, s.k}), b = torch::randn({s.k, s.n});
    kernels::StridedMatrix a_matrix{std::vector<float>(a.data_ptr<float>(), a.data_ptr<float>() + a.numel()), s.m, s.k,
                                    s.k, 1};
    kernels::StridedMatrix b_matrix{std::vector<float>(b.data_ptr<float>(), b.data_ptr<float>() + b.numel()), s.k, s.n,
                                    s.n, 1};
    const std::vector<double> want = kernels::textbook_product(a_matrix, b_matrix);
    const torch::Tensor a_device = framed_by_nan(a, device), b_device = framed_by_nan(b, device);
    for (const native::GemmKernel kernel : variants) {
      torch::Tensor c = torch::empty({s.m, s.n}, torch::TensorOptions().device(device));
      native::gemm(a_device, b_device, c, kernel);
      worst = std::max(worst, kernels::tolerance_used(values_of(c), want, kernels::kMatmulTolerance));
    }
    // torch::mm on the device with A stored transposed: the op hands your GEMM a strided view.
    const torch::Tensor a_transposed = a.t().contiguous().to(device).t();
    worst = std::max(worst, kernels::tolerance_used(values_of(torch::mm(a_transposed, b_device)), want,
                                                    kernels::kMatmulTolerance));
  }
  return worst;
}

// ---- 2. Element-wise kernels: broadcasts, views with strides and offsets, sizes that fill no work-group ----
inline double elementwise_probe_error(const torch::Device& device) {
  torch::manual_seed(8);
  double worst = 0;
  auto check = [&](const torch::Tensor& got, const torch::Tensor& want) {
    worst = std::max(worst, kernels::tolerance_used(values_of(got), kernels::values_of(want), kElementwiseTolerance));
  };
  const torch::Tensor x = torch::randn({3, 5, 7, 9});  // 945 elements: no multiple of a work-group
  const torch::Tensor bias = torch::randn({5, 1, 1}), row = torch::randn({9}), y = torch::randn({3, 5, 9, 7});
  const torch::Tensor xd = x.to(device), yd = y.to(device);
  const torch::Tensor xx = x.to(torch::kDouble);
  check(xd + bias.to(device), xx + bias.to(torch::kDouble));                     // a per-channel bias: (5, 1, 1)
  check(xd * row.to(device), xx * row.to(torch::kDouble));                        // missing leading dims
  check(xd - yd.transpose(2, 3), xx - y.to(torch::kDouble).transpose(2, 3));      // a transposed view
  check(xd.narrow(0, 1, 2) / (torch::exp(yd.narrow(0, 1, 2).transpose(2, 3)) + 1),  // slices: storage offsets
        xx.narrow(0, 1, 2) / (torch::exp(y.to(torch::kDouble).narrow(0, 1, 2).transpose(2, 3)) + 1));
  for (const int64_t n : {int64_t{1}, int64_t{1000}, int64_t{4099}}) {
    const torch::Tensor v = torch::randn({n});
    const torch::Tensor vd = v.to(device), vv = v.to(torch::kDouble);
    check(torch::relu(vd), torch::relu(vv));
    check(torch::sigmoid(vd), torch::sigmoid(vv));
    check(torch::exp(vd), torch::exp(vv));
  }
  return worst;
}

// ---- 3. Reductions: rows of every length, and a sum over more elements than one work-group sees ----
inline double reduction_probe_error(const torch::Device& device) {
  torch::manual_seed(9);
  double worst = 0;
  auto check = [&](const torch::Tensor& got, const std::vector<double>& want) {
    worst = std::max(worst, kernels::tolerance_used(values_of(got), want, kernels::kMatmulTolerance));
  };
  for (const int64_t cols : {int64_t{1}, int64_t{3}, int64_t{100}, int64_t{257}, int64_t{1000}}) {
    const torch::Tensor m = torch::randn({13, cols}) - 2;  // mostly negative: a max that starts from 0 is wrong
    std::vector<double> sums(13, 0.0), maxima(13, -std::numeric_limits<double>::infinity());
    const std::vector<double> values = kernels::values_of(m);
    for (size_t r = 0; r < 13; ++r)
      for (size_t c = 0; c < static_cast<size_t>(cols); ++c) {
        const double value = values[r * static_cast<size_t>(cols) + c];
        sums[r] += value;
        maxima[r] = std::max(maxima[r], value);
      }
    const torch::Tensor md = m.to(device);
    check(md.sum(1), sums);
    torch::Tensor out = torch::empty({13}, torch::TensorOptions().device(device));
    native::reduce_rows(native::ReduceOp::Max, md, out);
    check(out, maxima);
  }
  for (const int64_t n : {int64_t{1}, int64_t{999}, int64_t{100003}}) {
    const torch::Tensor v = torch::rand({n});
    double sum = 0;
    for (const double value : kernels::values_of(v)) sum += value;
    check(v.to(device).sum(), {sum});
  }
  return worst;
}

// ---- 4. Softmax and log_softmax of rows with large logits (exp overflows unless the max goes first) ----
inline double softmax_probe_error(const torch::Device& device) {
  torch::manual_seed(10);
  constexpr int64_t rows = 6, cols = 257;
  const torch::Tensor logits = torch::randn({rows, cols}) * 40;  // up to ~150: exp(150) is inf in float
  const std::vector<double> values = kernels::values_of(logits);
  std::vector<double> soft, log_soft;
  for (int64_t r = 0; r < rows; ++r) {
    double top = -std::numeric_limits<double>::infinity(), total = 0;
    for (int64_t c = 0; c < cols; ++c) top = std::max(top, values[static_cast<size_t>(r * cols + c)]);
    for (int64_t c = 0; c < cols; ++c) total += std::exp(values[static_cast<size_t>(r * cols + c)] - top);
    for (int64_t c = 0; c < cols; ++c) {
      const double shifted = values[static_cast<size_t>(r * cols + c)] - top;
      soft.push_back(std::exp(shifted) / total);
      log_soft.push_back(shifted - std::log(total));
    }
  }
  const torch::Tensor ld = logits.to(device);
  return std::max(kernels::tolerance_used(values_of(torch::softmax(ld, 1)), soft, kElementwiseTolerance),
                  kernels::tolerance_used(values_of(torch::log_softmax(ld, 1)), log_soft, kElementwiseTolerance));
}

// ---- 5. The convolution on the device: im2col + GEMM forward, col2im + GEMM backward ----
inline double conv_probe_error(const torch::Device& device) {
  torch::manual_seed(11);
  // (batch, channels, height, width, out channels, kernel, stride, padding): stride 2 with padding and a
  // ragged image, and LeNet's own 3x3 with padding 1; two images, so that a window that runs into the
  // next image shows.
  const kernels::ConvShape shapes[] = {{2, 3, 9, 7, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, true},
                                       {2, 6, 4, 4, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, true}};
  double worst = 0;
  for (const kernels::ConvShape& s : shapes) {
    const torch::Tensor x = torch::randn({s.batch, s.channels, s.height, s.width});
    const torch::Tensor w = torch::randn({s.out_channels, s.channels, s.kernel_h, s.kernel_w});
    const torch::Tensor b = torch::randn({s.out_channels});
    const torch::Tensor g = torch::randn({s.batch, s.out_channels, s.out_h(), s.out_w()});
    const torch::Tensor xd = x.to(device).requires_grad_(true), wd = w.to(device).requires_grad_(true),
                        bd = b.to(device).requires_grad_(true);
    const torch::Tensor y = torch::conv2d(xd, wd, bd, {s.stride_h, s.stride_w}, {s.pad_h, s.pad_w});
    (y * g.to(device)).sum().backward();
    const std::vector<double> xv = kernels::values_of(x), wv = kernels::values_of(w);
    const kernels::ConvGradients want = kernels::conv2d_backward_definition(s, xv, wv, kernels::values_of(g));
    for (const double used :
         {kernels::tolerance_used(values_of(y), kernels::conv2d_definition(s, xv, wv, kernels::values_of(b)),
                                  kernels::kMatmulTolerance),
          kernels::tolerance_used(values_of(xd.grad()), want.input, kernels::kMatmulTolerance),
          kernels::tolerance_used(values_of(wd.grad()), want.weight, kernels::kMatmulTolerance),
          kernels::tolerance_used(values_of(bd.grad()), want.bias, kernels::kMatmulTolerance)})
      worst = std::max(worst, used);
  }
  return worst;
}

// ---- 6. Copies: into and out of slices, and non_blocking from pageable memory ----
// Returns how many elements arrived wrong (exact comparison: a copy changes no bit).
inline int64_t transfer_probe_errors(const torch::Device& device) {
  int64_t wrong = 0;
  auto count = [&](const torch::Tensor& got, const torch::Tensor& want) {
    wrong += got.cpu().ne(want).sum().item<int64_t>();
  };
  // Into a slice: rows 1 and 2 of a (4, 3) device tensor; rows 0 and 3 keep their zeros.
  const torch::Tensor rows = torch::arange(1, 7).to(torch::kFloat).reshape({2, 3});
  torch::Tensor target = torch::zeros({4, 3}).to(device);
  target.narrow(0, 1, 2).copy_(rows);
  torch::Tensor want = torch::zeros({4, 3});
  want.narrow(0, 1, 2).copy_(rows);
  count(target, want);
  count(target.narrow(0, 2, 2), want.narrow(0, 2, 2));  // out of a slice
  // non_blocking from pageable memory must still wait: the caller changes the source the moment the
  // call returns. A long product queued first keeps the write waiting on the queue.
  const torch::Tensor source = torch::randn({1 << 16}), kept = source.clone();
  const torch::Tensor big = torch::randn({384, 384}).to(device);
  torch::Tensor busy = torch::mm(big, big);
  torch::Tensor arrived = torch::empty({1 << 16}, torch::TensorOptions().device(device));
  native::copy_host_to_device(source, arrived, /*non_blocking=*/true);
  torch::Tensor(source).fill_(-1.0f);
  torch::opencl::synchronize();
  count(arrived, kept);
  return wrong;
}

}  // namespace milestone::device
