// Module 22, learner file: the matrix product on the device, three ways, and the convolution as
// im2col + GEMM (tinytorch/device_kernels.h).
//
// The naive kernel reads 2k floats from global memory per output: at 1024 x 1024 that is 8 GiB of
// reads for 2 GFLOP, and the memory, not the arithmetic, sets the pace. The tiled kernel has each
// TILE x TILE work-group stage a TILE x TILE block of A and of B in local memory once, and every
// work-item then reads them TILE times from there: global reads fall by TILE. The register-tiled
// kernel goes one level further down: a work-item computes a WPTM x VW block of C, keeps its sums in
// registers (WPTM vectors of VW floats), and each value it reads from local memory serves VW or WPTM
// multiply-adds instead of one.
//
// All three handle any m, n, k: a work-item outside C computes nothing but still loads its share of
// the tiles and reaches every barrier, and a tile that hangs over the edge of A or B is padded with
// zeros, which add nothing to the sums. A and B are read through their strides, so a transposed view
// (a.t()) needs no copy.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tinytorch/device_kernels.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace opencl {
namespace native {
namespace {

constexpr int64_t kTile = 16;         // T: the tile edge of the tiled kernel
constexpr int64_t kRowsPerItem = 8;   // WPTM: rows of C a work-item of the register-tiled kernel computes
constexpr int64_t kDepth = 16;        // TSK: the register-tiled kernel's step along k

int64_t device_index_of(const Tensor& tensor) {
  const Device device = tensor.device();
  return device.has_index() ? device.index() : 0;
}

size_t round_up(int64_t value, int64_t multiple) {
  return static_cast<size_t>((value + multiple - 1) / multiple * multiple);
}

}  // namespace

// TODO: kGemmSource -- three kernels computing C (m x n, row-major from c_offset) = A (m x k) @ B (k x n),
//   A's element (i, p) at a_offset + i * a_rs + p * a_cs and B's (p, j) at b_offset + p * b_rs + j * b_cs.
//   The launch's dim 0 runs along C's columns, dim 1 along its rows (neighbouring work-items then read
//   neighbouring B values and write neighbouring C values).
//   gemm_naive (section 7): work-item (j, i) sums A(i, p) * B(p, j) over p from global memory; items
//   outside C return.
//   gemm_tiled (section 7): a TILE x TILE work-group computes a TILE x TILE block of C. For each step of
//   TILE along k: every work-item loads one element of the A tile and one of the B tile into local
//   memory (0 where the tile passes the edge of A or B), barrier, TILE multiply-adds from local memory,
//   barrier (before the next step overwrites the tiles). No work-item may return early: all must reach
//   every barrier. Write C only inside it.
//   gemm_register_tiled (section 8): a (TSN / VW) x (TSM / WPTM) work-group computes a TSM x TSN block
//   of C, stepping TSK along k. Work-item (tn, tm) owns rows tm * WPTM .. + WPTM - 1 and columns
//   tn * VW .. + VW - 1 of the block: WPTM sums of type floatVW in a private array. Per step the group
//   loads A's TSM x TSK tile transposed (a_tile[q][r]) and B's TSK x TSN tile as floatVW values
//   (vloadVW where the VW columns are inside B and B's columns are contiguous, else one by one with
//   zeros outside), each work-item taking every group_size-th element; barrier; for each q, one
//   floatVW of B from local memory and WPTM multiply-adds of a_tile[q][row] by it; barrier. Write with
//   vstoreVW, or one by one at the right edge. TILE, TSM, TSN, TSK, WPTM and VW come as -D options.
const char* const kGemmSource = R"CLC(
// floatVW, vloadVW, vstoreVW: float16, vload16, vstore16 when VW is 16.
#define GLUE_(x, y) x##y
#define GLUE(x, y) GLUE_(x, y)
#define floatVW GLUE(float, VW)
#define vloadVW GLUE(vload, VW)
#define vstoreVW GLUE(vstore, VW)

__kernel void gemm_naive(__global const float* a, long a_offset, long a_rs, long a_cs,
                         __global const float* b, long b_offset, long b_rs, long b_cs,
                         __global float* c, long c_offset, long m, long n, long k) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kGemmSource (gemm_naive)" lesson="7. Matrix product: tiles in local memory"
  const long j = get_global_id(0), i = get_global_id(1);
  if (i >= m || j >= n) return;
  float sum = 0.0f;
  for (long p = 0; p < k; ++p) sum += a[a_offset + i * a_rs + p * a_cs] * b[b_offset + p * b_rs + j * b_cs];
  c[c_offset + i * n + j] = sum;
  // END SOLUTION
}

__kernel void gemm_tiled(__global const float* a, long a_offset, long a_rs, long a_cs,
                         __global const float* b, long b_offset, long b_rs, long b_cs,
                         __global float* c, long c_offset, long m, long n, long k) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kGemmSource (gemm_tiled)" lesson="7. Matrix product: tiles in local memory"
  __local float a_tile[TILE][TILE];
  __local float b_tile[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const long j = get_group_id(0) * TILE + tx;  // C's column
  const long i = get_group_id(1) * TILE + ty;  // C's row
  float sum = 0.0f;
  for (long p0 = 0; p0 < k; p0 += TILE) {
    const long pa = p0 + tx, pb = p0 + ty;
    a_tile[ty][tx] = (i < m && pa < k) ? a[a_offset + i * a_rs + pa * a_cs] : 0.0f;
    b_tile[ty][tx] = (pb < k && j < n) ? b[b_offset + pb * b_rs + j * b_cs] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < TILE; ++q) sum += a_tile[ty][q] * b_tile[q][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < m && j < n) c[c_offset + i * n + j] = sum;
  // END SOLUTION
}

__kernel void gemm_register_tiled(__global const float* a, long a_offset, long a_rs, long a_cs,
                                  __global const float* b, long b_offset, long b_rs, long b_cs,
                                  __global float* c, long c_offset, long m, long n, long k) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kGemmSource (gemm_register_tiled)" lesson="8. Register tiling"
  __local float a_tile[TSK][TSM];               // A's tile transposed: a_tile[q][r] = A(row0 + r, p0 + q)
  __local floatVW b_tile[TSK][TSN / VW];        // B's tile, VW neighbouring columns to an element
  const int tn = get_local_id(0), tm = get_local_id(1);
  const int group_size = (TSN / VW) * (TSM / WPTM), lid = tm * (TSN / VW) + tn;
  const long row0 = get_group_id(1) * TSM, col0 = get_group_id(0) * TSN;
  floatVW sums[WPTM];                           // rows tm * WPTM + w, columns tn * VW .. + VW - 1
  for (int w = 0; w < WPTM; ++w) sums[w] = (floatVW)(0.0f);
  for (long p0 = 0; p0 < k; p0 += TSK) {
    for (int e = lid; e < TSM * TSK; e += group_size) {  // the group loads A's tile together
      const int r = e / TSK, q = e % TSK;
      const long i = row0 + r, p = p0 + q;
      a_tile[q][r] = (i < m && p < k) ? a[a_offset + i * a_rs + p * a_cs] : 0.0f;
    }
    for (int e = lid; e < TSK * (TSN / VW); e += group_size) {  // and B's, VW values at a time
      const int q = e / (TSN / VW), v = e % (TSN / VW);
      const long p = p0 + q, j = col0 + v * VW;
      if (p < k && j + VW <= n && b_cs == 1) {
        b_tile[q][v] = vloadVW(0, b + b_offset + p * b_rs + j);
      } else {  // the right or bottom edge, or a strided B: one by one, zeros outside
        float values[VW];
        for (int s = 0; s < VW; ++s) values[s] = (p < k && j + s < n) ? b[b_offset + p * b_rs + (j + s) * b_cs] : 0.0f;
        b_tile[q][v] = vloadVW(0, values);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int q = 0; q < TSK; ++q) {
      const floatVW b_values = b_tile[q][tn];  // one local read for WPTM x VW multiply-adds
      for (int w = 0; w < WPTM; ++w) sums[w] += a_tile[q][tm * WPTM + w] * b_values;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < WPTM; ++w) {
    const long i = row0 + tm * WPTM + w, j = col0 + tn * VW;
    if (i >= m) break;
    if (j + VW <= n) {
      vstoreVW(sums[w], 0, c + c_offset + i * n + j);
    } else {  // the right edge: only the columns inside C
      float values[VW];
      vstoreVW(sums[w], 0, values);
      for (int s = 0; s < VW && j + s < n; ++s) c[c_offset + i * n + j + s] = values[s];
    }
  }
  // END SOLUTION
}
)CLC";

// TODO: gemm -- launch the chosen kernel of kGemmSource over C (section 7, "Launch geometry for 2-D").
//   The tile: kTile (16), halved while TILE * TILE work-items are more than the device's
//   max_work_group_size allows or TILE is more than max_work_item_sizes in dim 0 or 1 allows.
//   The register tile (section 8): VW = 16 halved while above the device's preferred_vector_width,
//   but at least 4; a group of 4 x 4 work-items on a CPU (is_cpu), 16 x 8 on a GPU, the larger side
//   halved while the group does not fit (as above) or its tiles, TSK (TSM + TSN) floats, exceed
//   local_memory_bytes; TSM = kRowsPerItem (8) x rows of work-items, TSN = VW x columns of them,
//   TSK = kDepth (16). Options "-DTILE=... -DTSM=... -DTSN=... -DTSK=... -DWPTM=... -DVW=..." (every
//   kernel of the source sees them). Global and local sizes (dim 0 along n, dim 1 along m): naive and
//   tiled: local (TILE, TILE), global n and m rounded up to multiples of TILE; register-tiled: local
//   (TSN / VW, TSM / WPTM), global (n rounded up to TSN, divided by VW; m rounded up to TSM, divided
//   by WPTM). m or n == 0: nothing to launch (k == 0 still launches: C is all zeros).
//   Example: m = 17, n = 65, k = 7, tiled with TILE 16: local (16, 16), global (80, 32); register-tiled
//   on pocl with AVX-512 (VW 16, TSM 32, TSN 64): local (4, 4), global (8, 4).
void gemm(const Tensor& a, const Tensor& b, const Tensor& c, GemmKernel kernel) {
  for (const Tensor* t : {&a, &b, &c}) {
    TT_CHECK(t->scalar_type() == ScalarType::Float && t->dim() == 2, "gemm takes 2-D float tensors, got ",
             t->scalar_type(), " of sizes ", t->sizes());
  }
  TT_CHECK(a.size(1) == b.size(0) && c.size(0) == a.size(0) && c.size(1) == b.size(1) && c.is_contiguous(),
           "gemm: shapes ", a.sizes(), " @ ", b.sizes(), " -> ", c.sizes(), " do not fit (c must be contiguous)");
  // BEGIN SOLUTION name="tinytorch::opencl::native::gemm" lesson="7. Matrix product: tiles in local memory"
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  if (m == 0 || n == 0) return;
  const int64_t device = device_index_of(c);
  const DeviceInfo& info = device_info(device);
  auto group_fits = [&](int64_t across, int64_t down) {
    if (across * down > info.max_work_group_size) return false;
    return info.max_work_item_sizes.size() < 2 ||
           (across <= info.max_work_item_sizes[0] && down <= info.max_work_item_sizes[1]);
  };
  int64_t tile = kTile;
  while (tile > 1 && !group_fits(tile, tile)) tile /= 2;

  // The register tile (section 8): VW from the device's vector width, a few large work-items on a CPU,
  // many on a GPU; halved until the group and its two tiles fit the device.
  int64_t vector_width = 16;
  while (vector_width > 4 && vector_width > info.preferred_vector_width) vector_width /= 2;
  int64_t across = info.is_cpu ? 4 : 16, down = info.is_cpu ? 4 : 8;
  auto tiles_bytes = [&] { return kDepth * (down * kRowsPerItem + across * vector_width) * 4; };
  while ((!group_fits(across, down) || tiles_bytes() > info.local_memory_bytes) && across * down > 1) {
    if (across >= down) {
      across /= 2;
    } else {
      down /= 2;
    }
  }
  const int64_t rows = down * kRowsPerItem, cols = across * vector_width;  // TSM, TSN
  const std::string options = "-DTILE=" + std::to_string(tile) + " -DTSM=" + std::to_string(rows) +
                              " -DTSN=" + std::to_string(cols) + " -DTSK=" + std::to_string(kDepth) +
                              " -DWPTM=" + std::to_string(kRowsPerItem) + " -DVW=" + std::to_string(vector_width);

  const char* name = "gemm_register_tiled";
  std::vector<size_t> global = {round_up(n, cols) / static_cast<size_t>(vector_width),
                                round_up(m, rows) / static_cast<size_t>(kRowsPerItem)};
  std::vector<size_t> local = {static_cast<size_t>(across), static_cast<size_t>(down)};
  if (kernel != GemmKernel::RegisterTiled) {
    name = kernel == GemmKernel::Naive ? "gemm_naive" : "gemm_tiled";
    global = {round_up(n, tile), round_up(m, tile)};
    local = {static_cast<size_t>(tile), static_cast<size_t>(tile)};
  }
  cl_kernel compiled = opencl::kernel(kGemmSource, name, options, device);
  KernelLaunch(compiled, device)
      .arg(a)
      .arg(a.stride(0))
      .arg(a.stride(1))
      .arg(b)
      .arg(b.stride(0))
      .arg(b.stride(1))
      .arg(c)
      .arg(m)
      .arg(n)
      .arg(k)
      .run(global, local);
  // END SOLUTION
}

// TODO: kIm2colSource -- "im2col" and "col2im" (section 9), 1-D launches with one work-item per element
//   written (items past `total` return). dims = (N, C, H, W, OH, OW, KH, KW), window = (stride_h,
//   stride_w, pad_h, pad_w, dilation_h, dilation_w, 0, 0).
//   im2col: element `index` of columns (C KH KW rows, N OH OW columns): row (c, i, j), column
//   (n, oy, ox); it reads pixel y = oy * stride_h - pad_h + i * dilation_h (x likewise) of image n,
//   channel c, or writes 0 when (y, x) is outside the image (the padding).
//   col2im: element `index` of the images (n, c, y, x): the sum of every column entry that im2col
//   copied from this pixel -- for each tap (i, j), the window (oy, ox) with oy * stride_h = y + pad_h -
//   i * dilation_h exactly (divisible, 0 <= oy < OH; ox likewise) -- added to images[index]. Each
//   work-item writes only its own pixel, so no two write the same element and no atomics are needed.
const char* const kIm2colSource = R"CLC(
__kernel void im2col(__global const float* images, long images_offset, __global float* columns, long columns_offset,
                     long8 dims, long8 window, long total) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kIm2colSource (im2col)" lesson="9. Convolution as im2col and GEMM"
  const long index = get_global_id(0);
  if (index >= total) return;
  const long C = dims.s1, H = dims.s2, W = dims.s3, OH = dims.s4, OW = dims.s5, KH = dims.s6, KW = dims.s7;
  const long cols = dims.s0 * OH * OW;
  const long column = index % cols, row = index / cols;
  const long ox = column % OW, oy = (column / OW) % OH, n = column / (OW * OH);
  const long j = row % KW, i = (row / KW) % KH, c = row / (KW * KH);
  const long y = oy * window.s0 - window.s2 + i * window.s4;
  const long x = ox * window.s1 - window.s3 + j * window.s5;
  const bool inside = y >= 0 && y < H && x >= 0 && x < W;
  columns[columns_offset + index] = inside ? images[images_offset + ((n * C + c) * H + y) * W + x] : 0.0f;
  // END SOLUTION
}

__kernel void col2im(__global const float* columns, long columns_offset, __global float* images, long images_offset,
                     long8 dims, long8 window, long total) {
  // BEGIN SOLUTION name="tinytorch::opencl::native::kIm2colSource (col2im)" lesson="9. Convolution as im2col and GEMM"
  const long index = get_global_id(0);
  if (index >= total) return;
  const long C = dims.s1, H = dims.s2, W = dims.s3, OH = dims.s4, OW = dims.s5, KH = dims.s6, KW = dims.s7;
  const long cols = dims.s0 * OH * OW;
  const long x = index % W, y = (index / W) % H, c = (index / (W * H)) % C, n = index / (W * H * C);
  float sum = 0.0f;
  for (long i = 0; i < KH; ++i) {
    const long oy_stride = y + window.s2 - i * window.s4;  // oy * stride_h, if this tap reaches the pixel
    if (oy_stride < 0 || oy_stride % window.s0 != 0) continue;
    const long oy = oy_stride / window.s0;
    if (oy >= OH) continue;
    for (long j = 0; j < KW; ++j) {
      const long ox_stride = x + window.s3 - j * window.s5;
      if (ox_stride < 0 || ox_stride % window.s1 != 0) continue;
      const long ox = ox_stride / window.s1;
      if (ox >= OW) continue;
      sum += columns[columns_offset + ((c * KH + i) * KW + j) * cols + (n * OH + oy) * OW + ox];
    }
  }
  images[images_offset + index] += sum;
  // END SOLUTION
}
)CLC";

namespace {

void check_conv_shape(const ConvShape& s, const Tensor& images, const Tensor& columns, const char* what) {
  TT_CHECK(images.scalar_type() == ScalarType::Float && columns.scalar_type() == ScalarType::Float &&
               images.is_contiguous() && columns.is_contiguous(),
           what, " takes contiguous float tensors");
  TT_CHECK(images.dim() == 4 && images.size(0) == s.batch && images.size(1) == s.channels &&
               images.size(2) == s.height && images.size(3) == s.width,
           what, ": images of sizes ", images.sizes(), " do not match the shape");
  TT_CHECK(columns.dim() == 2 && columns.size(0) == s.channels * s.kernel_h * s.kernel_w &&
               columns.size(1) == s.batch * s.out_h * s.out_w,
           what, ": columns of sizes ", columns.sizes(), " do not match the shape");
  TT_CHECK(s.stride_h > 0 && s.stride_w > 0 && s.dilation_h > 0 && s.dilation_w > 0, what,
           ": strides and dilations must be positive");
}

// The two long8 arguments of both kernels.
std::vector<int64_t> dims_of(const ConvShape& s) {
  return {s.batch, s.channels, s.height, s.width, s.out_h, s.out_w, s.kernel_h, s.kernel_w};
}
std::vector<int64_t> window_of(const ConvShape& s) {
  return {s.stride_h, s.stride_w, s.pad_h, s.pad_w, s.dilation_h, s.dilation_w, 0, 0};
}

}  // namespace

// TODO: im2col -- launch "im2col" over every element of `columns` (geometry_1d), arguments images,
//   columns, dims, window, total (section 9). 0 elements: nothing to launch.
//   Example: one 1-channel 3x3 image, 2x2 kernel, stride 1, no padding: columns is 4 x 4, row (0, 0, 0)
//   = the top-left pixel of each of the 4 windows.
void im2col(const Tensor& images, const ConvShape& shape, const Tensor& columns) {
  check_conv_shape(shape, images, columns, "im2col");
  // BEGIN SOLUTION name="tinytorch::opencl::native::im2col" lesson="9. Convolution as im2col and GEMM"
  const int64_t total = columns.numel();
  if (total == 0) return;
  const int64_t device = device_index_of(columns);
  cl_kernel kernel = opencl::kernel(kIm2colSource, "im2col", "", device);
  const Geometry1d geometry = geometry_1d(total, device_info(device));
  KernelLaunch(kernel, device)
      .arg(images)
      .arg(columns)
      .arg(dims_of(shape))
      .arg(window_of(shape))
      .arg(total)
      .run({geometry.global}, {geometry.local});
  // END SOLUTION
}

// TODO: col2im -- launch "col2im" over every element of `images` (geometry_1d), arguments columns,
//   images, dims, window, total. 0 elements: nothing to launch.
void col2im(const Tensor& columns, const ConvShape& shape, const Tensor& images) {
  check_conv_shape(shape, images, columns, "col2im");
  // BEGIN SOLUTION name="tinytorch::opencl::native::col2im" lesson="9. Convolution as im2col and GEMM"
  const int64_t total = images.numel();
  if (total == 0) return;
  const int64_t device = device_index_of(images);
  cl_kernel kernel = opencl::kernel(kIm2colSource, "col2im", "", device);
  const Geometry1d geometry = geometry_1d(total, device_info(device));
  KernelLaunch(kernel, device)
      .arg(columns)
      .arg(images)
      .arg(dims_of(shape))
      .arg(window_of(shape))
      .arg(total)
      .run({geometry.global}, {geometry.local});
  // END SOLUTION
}

}  // namespace native
}  // namespace opencl
}  // namespace tinytorch
