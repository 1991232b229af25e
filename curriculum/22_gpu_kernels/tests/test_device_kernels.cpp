// Module 22 (GPU kernels): the graded tests of the kernels -- launch geometry and the element-wise
// kernel (elementwise_kernels.cpp), reductions and the softmax (reduction_kernels.cpp), the three
// matrix products and im2col/col2im (gemm_kernels.cpp). 60 points here; test_device_memory.cpp has the
// other 40. Each case is tagged with its points and a topic; hints.json has a hint per case name.
//
// Inputs go to the device and results come back through the copies of transfers.cpp. Expected values
// are worked out on the CPU with plain loops in double (the convolution with torch::conv2d, module 09).
// Sizes are ragged on purpose -- 1, 7, 17, 65, 129 and drawn ones -- because a kernel written for
// multiples of its work-group or tile size is right on those and wrong everywhere else. Sizes and
// values come from random_int / random_tensor: under `tito grade` from a secret seed.
//
// Every case needs an OpenCL device (on a machine without a GPU, pocl runs OpenCL on the CPU: Debian's
// pocl-opencl-icd). Without one a case fails at its first line saying so, never passes.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>
#include <tinytorch/device_kernels.h>
#include <tinytorch/opencl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace cl = tinytorch::opencl;
namespace native = tinytorch::opencl::native;

namespace {

const std::vector<int64_t> kRaggedSizes = {1, 7, 17, 65, 129};

torch::Tensor empty_device(torch::IntArrayRef sizes, torch::ScalarType dtype = torch::kFloat) {
  return cl::empty_on_device(sizes, dtype, torch::Device("opencl"));
}

torch::Tensor to_device(const torch::Tensor& host) {
  torch::Tensor device = empty_device(host.sizes(), host.scalar_type());
  native::copy_host_to_device(host.contiguous(), device, false);
  return device;
}

torch::Tensor to_host(const torch::Tensor& device) {
  torch::Tensor host = torch::empty(device.sizes(), device.scalar_type());
  native::copy_device_to_host(device, host);
  return host;
}

// Reads element `index` (row-major over sizes) of a CPU float tensor through its strides.
double value_at(const torch::Tensor& t, const std::vector<int64_t>& index) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.stride(static_cast<int64_t>(d));
  return static_cast<double>(t.data_ptr<float>()[offset]);
}

// The product of two CPU float matrices (any strides), in double.
torch::Tensor matmul_expected(const torch::Tensor& a, const torch::Tensor& b) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  torch::Tensor c = torch::empty({m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += value_at(a, {i, p}) * value_at(b, {p, j});
      c.data_ptr<float>()[i * n + j] = static_cast<float>(sum);
    }
  return c;
}

// out[i] = rule(a at i, b at i) over out's sizes, broadcasting a and b (plain loops, any strides).
template <typename Rule>
torch::Tensor broadcast_expected(const torch::Tensor& a, const torch::Tensor& b, std::vector<int64_t> out_sizes,
                                 Rule rule) {
  torch::Tensor out = torch::empty(out_sizes);
  const int64_t rank = static_cast<int64_t>(out_sizes.size());
  std::vector<int64_t> index(out_sizes.size(), 0);
  for (int64_t i = 0; i < out.numel(); ++i) {
    int64_t rest = i;
    for (int64_t d = rank - 1; d >= 0; --d) {
      index[static_cast<size_t>(d)] = rest % out_sizes[static_cast<size_t>(d)];
      rest /= out_sizes[static_cast<size_t>(d)];
    }
    auto seen = [&](const torch::Tensor& t) {
      std::vector<int64_t> own;
      for (int64_t d = 0; d < t.dim(); ++d) {
        const int64_t out_dim = rank - t.dim() + d;
        own.push_back(t.size(d) == 1 ? 0 : index[static_cast<size_t>(out_dim)]);
      }
      return value_at(t, own);
    };
    out.data_ptr<float>()[i] = static_cast<float>(rule(seen(a), seen(b)));
  }
  return out;
}

// A DeviceInfo with only what geometry_1d reads.
cl::DeviceInfo fake_device(int64_t max_work_group_size, int64_t multiple) {
  cl::DeviceInfo info;
  info.max_work_group_size = max_work_group_size;
  info.max_work_item_sizes = {max_work_group_size, max_work_group_size, max_work_group_size};
  info.preferred_work_group_multiple = multiple;
  return info;
}

void check_gemm(native::GemmKernel kernel) {
  std::vector<int64_t> sizes = kRaggedSizes;
  sizes.push_back(random_int(2, 200));
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t m = sizes[static_cast<size_t>(random_int(0, static_cast<int64_t>(sizes.size()) - 1))];
    const int64_t n = sizes[static_cast<size_t>(random_int(0, static_cast<int64_t>(sizes.size()) - 1))];
    const int64_t k = sizes[static_cast<size_t>(random_int(0, static_cast<int64_t>(sizes.size()) - 1))];
    INFO("m " << m << ", n " << n << ", k " << k);
    const torch::Tensor a = random_tensor({m, k}), b = random_tensor({k, n});
    torch::Tensor c = empty_device({m, n});
    native::gemm(to_device(a), to_device(b), c, kernel);
    CHECK_THAT(to_host(c), AllClose(matmul_expected(a, b), 1e-5, 1e-4));
  }
  // Transposed views of A and B, read through their strides.
  const int64_t m = random_int(20, 70), n = random_int(20, 70), k = random_int(20, 70);
  INFO("transposed: m " << m << ", n " << n << ", k " << k);
  const torch::Tensor a_t = random_tensor({k, m}), b_t = random_tensor({n, k});
  torch::Tensor c = empty_device({m, n});
  native::gemm(to_device(a_t).t(), to_device(b_t).t(), c, kernel);
  CHECK_THAT(to_host(c), AllClose(matmul_expected(a_t.t(), b_t.t()), 1e-5, 1e-4));
  // k == 0: all zeros, whatever the memory held.
  torch::Tensor zeros = to_device(random_tensor({m, n}, 1, 2));
  native::gemm(empty_device({m, 0}), empty_device({0, n}), zeros, kernel);
  CHECK_THAT(to_host(zeros), Equals(torch::zeros({m, n})));
}

// The shape of a convolution with its output size worked out.
native::ConvShape conv_shape(int64_t n, int64_t c, int64_t h, int64_t w, int64_t kh, int64_t kw, int64_t stride,
                             int64_t pad, int64_t dilation) {
  native::ConvShape s;
  s.batch = n, s.channels = c, s.height = h, s.width = w, s.kernel_h = kh, s.kernel_w = kw;
  s.stride_h = s.stride_w = stride;
  s.pad_h = s.pad_w = pad;
  s.dilation_h = s.dilation_w = dilation;
  s.out_h = (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1;
  s.out_w = (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1;
  return s;
}

native::ConvShape random_conv_shape() {
  const int64_t kh = random_int(1, 4), kw = random_int(1, 4), stride = random_int(1, 3), pad = random_int(0, 2),
                dilation = random_int(1, 2);
  const int64_t h = random_int(dilation * (kh - 1) + 1, 13), w = random_int(dilation * (kw - 1) + 1, 13);
  return conv_shape(random_int(1, 3), random_int(1, 4), h, w, kh, kw, stride, pad, dilation);
}

torch::Tensor im2col_expected(const torch::Tensor& images, const native::ConvShape& s) {
  const int64_t cols = s.batch * s.out_h * s.out_w;
  torch::Tensor columns = torch::empty({s.channels * s.kernel_h * s.kernel_w, cols});
  float* out = columns.data_ptr<float>();
  for (int64_t c = 0; c < s.channels; ++c)
    for (int64_t i = 0; i < s.kernel_h; ++i)
      for (int64_t j = 0; j < s.kernel_w; ++j)
        for (int64_t n = 0; n < s.batch; ++n)
          for (int64_t oy = 0; oy < s.out_h; ++oy)
            for (int64_t ox = 0; ox < s.out_w; ++ox) {
              const int64_t y = oy * s.stride_h - s.pad_h + i * s.dilation_h;
              const int64_t x = ox * s.stride_w - s.pad_w + j * s.dilation_w;
              const bool inside = y >= 0 && y < s.height && x >= 0 && x < s.width;
              out[((c * s.kernel_h + i) * s.kernel_w + j) * cols + (n * s.out_h + oy) * s.out_w + ox] =
                  inside ? static_cast<float>(value_at(images, {n, c, y, x})) : 0.0f;
            }
  return columns;
}

double dot_product(const torch::Tensor& x, const torch::Tensor& y) {
  double sum = 0;
  for (int64_t i = 0; i < x.numel(); ++i)
    sum += double(x.data_ptr<float>()[i]) * double(y.data_ptr<float>()[i]);
  return sum;
}

}  // namespace

// ---- Launch geometry and element-wise kernels ----

TEST_CASE("geometry_1d covers every item with whole work-groups within the device's limits",
          "[points=3][geometry]") {
  auto geometry = native::geometry_1d(1000, fake_device(1024, 32));
  CHECK(geometry.local == 256);
  CHECK(geometry.global == 1024);
  geometry = native::geometry_1d(1000, fake_device(100, 32));  // at most 100, a multiple of 32
  CHECK(geometry.local == 96);
  CHECK(geometry.global == 1056);
  geometry = native::geometry_1d(0, fake_device(1024, 32));
  CHECK(geometry.global == 0);
  CHECK(geometry.local > 0);
  const int64_t items = random_int(1, 10000000);
  for (const auto& device : {fake_device(1024, 32), fake_device(64, 16), fake_device(200, 1), fake_device(8192, 64)}) {
    INFO("items " << items << ", max work-group " << device.max_work_group_size << ", multiple "
                  << device.preferred_work_group_multiple);
    geometry = native::geometry_1d(items, device);
    CHECK(int64_t(geometry.global) == (items + int64_t(geometry.local) - 1) / int64_t(geometry.local) * int64_t(geometry.local));
    CHECK(geometry.local >= 1);
    CHECK(geometry.local <= 256);
    CHECK(int64_t(geometry.local) <= device.max_work_group_size);
    CHECK(geometry.local % size_t(device.preferred_work_group_multiple) == 0);
    CHECK(geometry.global % geometry.local == 0);
    CHECK(int64_t(geometry.global) >= items);
    CHECK(int64_t(geometry.global) < items + int64_t(geometry.local));
  }
}

TEST_CASE("the element-wise kernel computes a + alpha * b for every element of ragged sizes",
          "[points=4][elementwise]") {
  REQUIRE_OPENCL_DEVICE();
  std::vector<std::vector<int64_t>> shapes;
  for (int64_t n : kRaggedSizes) shapes.push_back({n});
  shapes.push_back({random_int(1000, 300000)});
  shapes.push_back({random_int(1, 9), random_int(1, 9), random_int(1, 40)});
  const float alpha = static_cast<float>(random_int(-8, 8)) / 4.0f;
  for (const auto& shape : shapes) {
    INFO("sizes " << torch::IntArrayRef(shape) << ", alpha " << alpha);
    const torch::Tensor a = random_tensor(shape), b = random_tensor(shape);
    torch::Tensor out = empty_device(shape);
    native::launch_elementwise("a + alpha * b", to_device(a), to_device(b), out, alpha);
    CHECK_THAT(to_host(out), AllClose(broadcast_expected(a, b, shape, [&](double x, double y) { return x + alpha * y; })));
  }
  // 0 elements: nothing to do, and no error.
  torch::Tensor none = empty_device({0, 5});
  CHECK_NOTHROW(native::launch_elementwise("a + b", empty_device({0, 5}), empty_device({0, 5}), none));
}

TEST_CASE("the element-wise kernel broadcasts dims of size 1 and missing leading dims", "[points=5][broadcast]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t m = random_int(2, 20), n = random_int(2, 20), k = random_int(2, 20);
  struct Case {
    std::vector<int64_t> a, b, out;
  };
  const std::vector<Case> cases = {
      {{m, 1}, {n}, {m, n}},           // a column and a row
      {{m, n, k}, {n, 1}, {m, n, k}},  // a missing leading dim and a size-1 dim
      {{1, n, 1}, {m, 1, k}, {m, n, k}},
      {{m, n}, {1}, {m, n}},           // one value for all
      {{m, n}, {}, {m, n}},            // a 0-dim tensor
      {{1, 1}, {1, 1}, {1, 1}},
  };
  for (const Case& c : cases) {
    INFO("a " << torch::IntArrayRef(c.a) << ", b " << torch::IntArrayRef(c.b) << " -> " << torch::IntArrayRef(c.out));
    const torch::Tensor a = random_tensor(c.a), b = random_tensor(c.b);
    torch::Tensor out = empty_device(c.out);
    native::launch_elementwise("a * b - alpha", to_device(a), to_device(b), out, 0.5f);
    CHECK_THAT(to_host(out), AllClose(broadcast_expected(a, b, c.out, [](double x, double y) { return x * y - 0.5; })));
  }
}

TEST_CASE("the element-wise kernel reads transposed views and slices through their strides and offsets",
          "[points=4][views]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t m = random_int(2, 70), n = random_int(2, 70);
  const torch::Tensor a_t = random_tensor({n, m});                        // a = a_t.t(): strides (1, m)
  const torch::Tensor b_big = random_tensor({m + 3, n + 5});               // b = a window of it
  const int64_t row0 = random_int(0, 3), col0 = random_int(0, 5);
  torch::Tensor a = to_device(a_t).t();
  torch::Tensor b = to_device(b_big).narrow(0, row0, m).narrow(1, col0, n);
  REQUIRE(b.storage_offset() == row0 * (n + 5) + col0);
  torch::Tensor out = empty_device({m, n});
  native::launch_elementwise("a - b", a, b, out);
  const torch::Tensor b_view = b_big.narrow(0, row0, m).narrow(1, col0, n);
  CHECK_THAT(to_host(out), AllClose(broadcast_expected(a_t.t(), b_view, {m, n}, [](double x, double y) { return x - y; })));
  // A row of a transposed view broadcast against the whole.
  const int64_t picked = random_int(0, m - 1);
  torch::Tensor row = to_device(a_t).t().narrow(0, picked, 1);
  torch::Tensor out2 = empty_device({m, n});
  native::launch_elementwise("a + b", a, row, out2);
  const torch::Tensor row_host = a_t.t().narrow(0, picked, 1);
  CHECK_THAT(to_host(out2),
             AllClose(broadcast_expected(a_t.t(), row_host, {m, n}, [](double x, double y) { return x + y; })));
}

TEST_CASE("the element-wise kernel computes in long and writes bool", "[points=3][dtypes]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t n = random_int(1, 5000);
  // Beyond float's 24 bits: only a long computation is exact.
  const torch::Tensor a = random_tensor({n}, 1e12, 2e12, torch::kLong), b = random_tensor({n}, -1000, 1000, torch::kLong);
  torch::Tensor sum = empty_device({n}, torch::kLong);
  native::launch_elementwise("a + alpha * b", to_device(a), to_device(b), sum, 1.0f, "long");
  torch::Tensor expected = torch::empty({n}, torch::kLong);
  for (int64_t i = 0; i < n; ++i)
    expected.data_ptr<int64_t>()[i] = a.data_ptr<int64_t>()[i] + b.data_ptr<int64_t>()[i];
  CHECK_THAT(to_host(sum), Equals(expected));

  const torch::Tensor x = random_tensor({n}), y = random_tensor({n});
  torch::Tensor greater = empty_device({n}, torch::kBool);
  native::launch_elementwise("a > b", to_device(x), to_device(y), greater);
  torch::Tensor expected_bool = torch::empty({n}, torch::kBool);
  for (int64_t i = 0; i < n; ++i) expected_bool.data_ptr<bool>()[i] = x.data_ptr<float>()[i] > y.data_ptr<float>()[i];
  CHECK_THAT(to_host(greater), Equals(expected_bool));
}

// ---- Reductions and the softmax ----

TEST_CASE("reduce_rows sums and maxes every row, whatever its length", "[points=4][reductions]") {
  REQUIRE_OPENCL_DEVICE();
  std::vector<int64_t> widths = kRaggedSizes;
  widths.push_back(random_int(257, 5000));
  for (int64_t cols : widths) {
    const int64_t rows = random_int(1, 40);
    INFO("rows " << rows << ", cols " << cols);
    const torch::Tensor x = random_tensor({rows, cols}, -5, -1);  // all negative: a max must not start at 0
    torch::Tensor sums = empty_device({rows}), maxes = empty_device({rows});
    const torch::Tensor device_x = to_device(x);
    native::reduce_rows(native::ReduceOp::Sum, device_x, sums);
    native::reduce_rows(native::ReduceOp::Max, device_x, maxes);
    torch::Tensor expected_sum = torch::empty({rows}), expected_max = torch::empty({rows});
    for (int64_t r = 0; r < rows; ++r) {
      double sum = 0, best = -std::numeric_limits<double>::infinity();
      for (int64_t c = 0; c < cols; ++c) {
        sum += value_at(x, {r, c});
        best = std::max(best, value_at(x, {r, c}));
      }
      expected_sum.data_ptr<float>()[r] = float(sum);
      expected_max.data_ptr<float>()[r] = float(best);
    }
    CHECK_THAT(to_host(sums), AllClose(expected_sum, 1e-5, 1e-4));
    CHECK_THAT(to_host(maxes), Equals(expected_max));
  }
}

TEST_CASE("reduce_all reduces inputs of any size to one value, in two stages", "[points=5][reductions]") {
  REQUIRE_OPENCL_DEVICE();
  std::vector<int64_t> sizes = kRaggedSizes;
  sizes.push_back(257);
  sizes.push_back(random_int(70000, 1000000));
  for (int64_t n : sizes) {
    INFO("numel " << n);
    torch::Tensor x = random_tensor({n}, -2, 2);
    // The max is far into the input, where only a later work-group sees it.
    const int64_t where = random_int(n / 2, n - 1);
    x.data_ptr<float>()[where] = 3.5f;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += x.data_ptr<float>()[i];
    const torch::Tensor device_x = to_device(x);
    torch::Tensor total = empty_device({1}), best = empty_device({1});
    native::reduce_all(native::ReduceOp::Sum, device_x, total);
    native::reduce_all(native::ReduceOp::Max, device_x, best);
    CHECK_THAT(to_host(total), AllClose(torch::full({1}, float(sum)), 1e-5, 1e-3));
    CHECK_THAT(to_host(best), Equals(torch::full({1}, 3.5f)));
  }
}

TEST_CASE("softmax_rows and its log variant match the definition on rows of any length", "[points=4][softmax]") {
  REQUIRE_OPENCL_DEVICE();
  std::vector<int64_t> widths = kRaggedSizes;
  widths.push_back(random_int(300, 3000));
  for (int64_t cols : widths) {
    const int64_t rows = random_int(1, 20);
    INFO("rows " << rows << ", cols " << cols);
    const torch::Tensor x = random_tensor({rows, cols}, -4, 4);
    torch::Tensor expected = torch::empty({rows, cols}), expected_log = torch::empty({rows, cols});
    for (int64_t r = 0; r < rows; ++r) {
      double total = 0;
      for (int64_t c = 0; c < cols; ++c) total += std::exp(value_at(x, {r, c}));
      for (int64_t c = 0; c < cols; ++c) {
        expected.data_ptr<float>()[r * cols + c] = float(std::exp(value_at(x, {r, c})) / total);
        expected_log.data_ptr<float>()[r * cols + c] = float(value_at(x, {r, c}) - std::log(total));
      }
    }
    const torch::Tensor device_x = to_device(x);
    torch::Tensor out = empty_device({rows, cols}), out_log = empty_device({rows, cols});
    native::softmax_rows(device_x, out, false);
    native::softmax_rows(device_x, out_log, true);
    CHECK_THAT(to_host(out), AllClose(expected, 1e-4, 1e-6));
    CHECK_THAT(to_host(out_log), AllClose(expected_log, 1e-4, 1e-4));
  }
}

TEST_CASE("softmax_rows stays finite for large logits: it subtracts the row's max", "[points=3][softmax]") {
  REQUIRE_OPENCL_DEVICE();
  const int64_t rows = random_int(1, 10), cols = random_int(2, 300);
  const torch::Tensor small = random_tensor({rows, cols}, -4, 4);
  torch::Tensor large = small.clone();
  const float shift = float(random_int(200, 2000));
  for (int64_t i = 0; i < large.numel(); ++i) large.data_ptr<float>()[i] += (i % 2 == 0 ? shift : -shift);
  torch::Tensor expected = torch::empty({rows, cols}), expected_log = torch::empty({rows, cols});
  for (int64_t r = 0; r < rows; ++r) {
    double best = -std::numeric_limits<double>::infinity(), total = 0;
    for (int64_t c = 0; c < cols; ++c) best = std::max(best, value_at(large, {r, c}));
    for (int64_t c = 0; c < cols; ++c) total += std::exp(value_at(large, {r, c}) - best);
    for (int64_t c = 0; c < cols; ++c) {
      expected.data_ptr<float>()[r * cols + c] = float(std::exp(value_at(large, {r, c}) - best) / total);
      expected_log.data_ptr<float>()[r * cols + c] = float(value_at(large, {r, c}) - best - std::log(total));
    }
  }
  INFO("logits shifted by +-" << shift);
  const torch::Tensor device_x = to_device(large);
  torch::Tensor out = empty_device({rows, cols}), out_log = empty_device({rows, cols});
  native::softmax_rows(device_x, out, false);
  native::softmax_rows(device_x, out_log, true);
  CHECK_THAT(to_host(out), AllClose(expected, 1e-4, 1e-6));
  CHECK_THAT(to_host(out_log), AllClose(expected_log, 1e-4, 1e-3));
}

// ---- Matrix products ----

TEST_CASE("the naive GEMM kernel multiplies matrices of any size and strides", "[points=3][gemm]") {
  REQUIRE_OPENCL_DEVICE();
  check_gemm(native::GemmKernel::Naive);
}

TEST_CASE("the tiled GEMM kernel multiplies matrices of any size, not only multiples of the tile",
          "[points=5][gemm]") {
  REQUIRE_OPENCL_DEVICE();
  check_gemm(native::GemmKernel::Tiled);
}

TEST_CASE("the register-tiled GEMM kernel multiplies matrices of any size, not only multiples of the tile",
          "[points=5][gemm]") {
  REQUIRE_OPENCL_DEVICE();
  check_gemm(native::GemmKernel::RegisterTiled);
}

// ---- The convolution ----

TEST_CASE("im2col lays out every window as a column, with zeros in the padding", "[points=4][conv]") {
  REQUIRE_OPENCL_DEVICE();
  for (int trial = 0; trial < 4; ++trial) {
    const native::ConvShape s = trial == 0 ? conv_shape(1, 1, 3, 3, 2, 2, 1, 0, 1) : random_conv_shape();
    INFO("N " << s.batch << " C " << s.channels << " H " << s.height << " W " << s.width << " kernel " << s.kernel_h
              << "x" << s.kernel_w << " stride " << s.stride_h << " pad " << s.pad_h << " dilation " << s.dilation_h);
    const torch::Tensor images = random_tensor({s.batch, s.channels, s.height, s.width});
    torch::Tensor columns = empty_device({s.channels * s.kernel_h * s.kernel_w, s.batch * s.out_h * s.out_w});
    native::im2col(to_device(images), s, columns);
    CHECK_THAT(to_host(columns), Equals(im2col_expected(images, s)));
  }
}

TEST_CASE("col2im is the adjoint of im2col: every column entry goes back to its pixel", "[points=4][conv]") {
  REQUIRE_OPENCL_DEVICE();
  for (int trial = 0; trial < 4; ++trial) {
    const native::ConvShape s = random_conv_shape();
    INFO("N " << s.batch << " C " << s.channels << " H " << s.height << " W " << s.width << " kernel " << s.kernel_h
              << "x" << s.kernel_w << " stride " << s.stride_h << " pad " << s.pad_h << " dilation " << s.dilation_h);
    const torch::Tensor x = random_tensor({s.batch, s.channels, s.height, s.width});
    const torch::Tensor y = random_tensor({s.channels * s.kernel_h * s.kernel_w, s.batch * s.out_h * s.out_w});
    // <im2col(x), y> == <x, col2im(y)> for every x and y: what makes col2im the gradient of im2col.
    torch::Tensor images = to_device(torch::zeros({s.batch, s.channels, s.height, s.width}));
    native::col2im(to_device(y), s, images);
    const torch::Tensor back = to_host(images);
    CHECK(dot_product(x, back) == Approx(dot_product(im2col_expected(x, s), y)).epsilon(1e-5).margin(1e-3));
    // It adds to what the images held.
    torch::Tensor twice = to_device(back);
    native::col2im(to_device(y), s, twice);
    CHECK_THAT(to_host(twice), AllClose(back * 2.0));
  }
}

TEST_CASE("a convolution is im2col then one GEMM, as conv2d computes it", "[points=4][conv]") {
  REQUIRE_OPENCL_DEVICE();
  const native::ConvShape s = random_conv_shape();
  const int64_t out_channels = random_int(1, 8);
  INFO("N " << s.batch << " C " << s.channels << " H " << s.height << " W " << s.width << " kernel " << s.kernel_h
            << "x" << s.kernel_w << " stride " << s.stride_h << " pad " << s.pad_h << " dilation " << s.dilation_h
            << " out channels " << out_channels);
  const torch::Tensor images = random_tensor({s.batch, s.channels, s.height, s.width});
  const torch::Tensor weight = random_tensor({out_channels, s.channels, s.kernel_h, s.kernel_w});
  const int64_t patch = s.channels * s.kernel_h * s.kernel_w, cols = s.batch * s.out_h * s.out_w;
  torch::Tensor columns = empty_device({patch, cols});
  native::im2col(to_device(images), s, columns);
  torch::Tensor product = empty_device({out_channels, cols});
  native::gemm(to_device(weight.reshape({out_channels, patch})), columns, product);
  // (OC, N OH OW) -> (N, OC, OH, OW)
  const torch::Tensor got =
      to_host(product).reshape({out_channels, s.batch, s.out_h, s.out_w}).permute({1, 0, 2, 3}).contiguous();
  const torch::Tensor expected = torch::conv2d(images, weight, {}, {s.stride_h, s.stride_w}, {s.pad_h, s.pad_w},
                                               {s.dilation_h, s.dilation_w});
  CHECK_THAT(got, AllClose(expected, 1e-5, 1e-4));
}
