// Module 17 (Acceleration), lesson sections "7. im2col: a convolution as one GEMM" and "8. col2im,
// the adjoint, and the backward pass": unfolding images into the columns a GEMM multiplies, and
// folding gradients back (contracts in tinytorch/acceleration_kernels.h). The given valid_outputs
// below finds, for one kernel tap, the output columns that land inside the image, so that your loops
// need no bounds test per element.
#include <algorithm>
#include <cstring>

#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace native {
namespace {

// Output columns x in [first, last) whose input column x stride + offset lies in [0, width).
struct ValidRange {
  int64_t first, last;
};

[[maybe_unused]] ValidRange valid_outputs(int64_t offset, int64_t stride, int64_t width, int64_t out_size) {
  // x stride + offset >= 0  <=>  x >= ceil(-offset / stride); and < width <=> x <= (width - 1 - offset) / stride.
  int64_t first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t last = width - 1 - offset < 0 ? 0 : (width - 1 - offset) / stride + 1;
  first = std::min(first, out_size);
  last = std::clamp(last, first, out_size);
  return {first, last};
}

// TODO: im2col_impl -- unfold one contiguous image (C, H, W) into the C kh kw x OH OW matrix
//   `columns` of section 7 ("im2col: a convolution as one GEMM"), sizes and parameters in g. Rows
//   are the kernel taps (c, i, j) in that order, each starting column_row_stride elements after the
//   previous one (it may exceed OH OW: several images side by side); positions are (y, x) in row-major
//   order. Each entry is the input pixel that tap (i, j) of channel c meets at output (y, x), with
//   stride, padding and dilation as section 7 defines them, or 0 where that pixel lies in the
//   padding. Every one of the OH OW positions of every row is written; nothing else is.
//   Example: a 1 x 2 x 2 image [[1, 2], [3, 4]], kernel 2 x 2, stride 1, padding 0 -> 4 rows of one
//   column: [1], [2], [3], [4]. With padding 1 (OH = OW = 3) row 0 (tap (0, 0)) is
//   [0, 0, 0, 0, 1, 2, 0, 3, 4].
template <typename scalar_t>
void im2col_impl(const scalar_t* image, const Conv2dGeometry& g, scalar_t* columns, int64_t column_row_stride) {
  // BEGIN SOLUTION name="tinytorch::native::im2col" lesson="7. im2col: a convolution as one GEMM"
  int64_t row = 0;  // (c, i, j) flattened: the row of `columns` being written
  for (int64_t c = 0; c < g.channels; ++c) {
    const scalar_t* channel = image + c * g.height * g.width;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      for (int64_t j = 0; j < g.kernel_w; ++j, ++row) {
        scalar_t* out_row = columns + row * column_row_stride;
        const int64_t x_offset = j * g.dilation_w - g.pad_w;
        const ValidRange xs = valid_outputs(x_offset, g.stride_w, g.width, g.out_w);
        if (g.stride_h == 1 && g.stride_w == 1 && g.out_w == g.width) {
          // A "same" convolution (3 x 3 with padding 1, stride 1, ...): output rows are as long as
          // image rows, so the valid rows of this tap are one block of the image, shifted. Copy the
          // block in one loop, then zero what fell in the padding: whole rows above and below the
          // image, and the columns before xs.first and from xs.last on, which the long copy filled
          // from the neighbouring image row. Short rows copied one by one cost more in loop set-up
          // than in copying (a TinyDigits row is 8 pixels).
          const ValidRange ys = valid_outputs(i * g.dilation_h - g.pad_h, 1, g.height, g.out_h);
          const int64_t shift = (i * g.dilation_h - g.pad_h) * g.width + x_offset;
          std::fill(out_row, out_row + ys.first * g.out_w, scalar_t(0));
          if (ys.first < ys.last) {
            const int64_t begin = ys.first * g.out_w + xs.first, end = (ys.last - 1) * g.out_w + xs.last;
            for (int64_t k = begin; k < end; ++k) out_row[k] = channel[k + shift];
            for (int64_t y = ys.first; y < ys.last; ++y) {
              scalar_t* out = out_row + y * g.out_w;
              for (int64_t x = 0; x < xs.first; ++x) out[x] = scalar_t(0);
              for (int64_t x = xs.last; x < g.out_w; ++x) out[x] = scalar_t(0);
            }
          }
          std::fill(out_row + ys.last * g.out_w, out_row + g.out_h * g.out_w, scalar_t(0));
          continue;
        }
        for (int64_t y = 0; y < g.out_h; ++y) {
          scalar_t* out = out_row + y * g.out_w;
          const int64_t input_y = y * g.stride_h + i * g.dilation_h - g.pad_h;
          if (input_y < 0 || input_y >= g.height) {  // the whole row falls in the padding
            std::fill(out, out + g.out_w, scalar_t(0));
            continue;
          }
          const scalar_t* in = channel + input_y * g.width;  // column x sees in[x stride + x_offset]
          // Padding zeros with plain loops (a few pixels at most); the valid run with memcpy, which
          // costs less than a vectorised loop's set-up on rows of 10 to 28 pixels (LeNet-5).
          for (int64_t x = 0; x < xs.first; ++x) out[x] = scalar_t(0);
          if (g.stride_w == 1) {
            std::memcpy(out + xs.first, in + xs.first + x_offset, (xs.last - xs.first) * sizeof(scalar_t));
          } else {
            for (int64_t x = xs.first; x < xs.last; ++x) out[x] = in[x * g.stride_w + x_offset];
          }
          for (int64_t x = xs.last; x < g.out_w; ++x) out[x] = scalar_t(0);
        }
      }
    }
  }
  // END SOLUTION
}

// TODO: col2im_impl -- the adjoint of im2col (section 8, "col2im, the adjoint, and the backward
//   pass"): every entry of `columns` (same layout as im2col's, row stride column_row_stride) that
//   im2col would have filled from a pixel is ADDED onto that pixel of `image` (C, H, W, contiguous).
//   image keeps what it held (the caller zeroes it when it wants a plain fold); a pixel met by several
//   taps receives each of their entries; entries that im2col filled from the padding go nowhere.
//   Example: with the 2 x 2 kernel, padding 0 on a 1 x 2 x 2 image, columns [1], [2], [3], [4] add
//   [[1, 2], [3, 4]] to image; on a 1 x 1 x 3 image with a 1 x 2 kernel (2 columns per row),
//   columns [[1, 1], [1, 1]] add [1, 2, 1].
template <typename scalar_t>
void col2im_impl(const scalar_t* columns, int64_t column_row_stride, const Conv2dGeometry& g, scalar_t* image) {
  // BEGIN SOLUTION name="tinytorch::native::col2im" lesson="8. col2im, the adjoint, and the backward pass"
  int64_t row = 0;
  for (int64_t c = 0; c < g.channels; ++c) {
    scalar_t* channel = image + c * g.height * g.width;
    for (int64_t i = 0; i < g.kernel_h; ++i) {
      for (int64_t j = 0; j < g.kernel_w; ++j, ++row) {
        const scalar_t* in_row = columns + row * column_row_stride;
        const int64_t x_offset = j * g.dilation_w - g.pad_w;
        const ValidRange xs = valid_outputs(x_offset, g.stride_w, g.width, g.out_w);
        for (int64_t y = 0; y < g.out_h; ++y) {
          const int64_t input_y = y * g.stride_h + i * g.dilation_h - g.pad_h;
          if (input_y < 0 || input_y >= g.height) continue;  // padding: its gradient goes nowhere
          const scalar_t* in = in_row + y * g.out_w;
          scalar_t* out = channel + input_y * g.width;
          for (int64_t x = xs.first; x < xs.last; ++x) out[x * g.stride_w + x_offset] += in[x];
        }
      }
    }
  }
  // END SOLUTION
}

}  // namespace

void im2col(const float* image, const Conv2dGeometry& g, float* columns, int64_t column_row_stride) {
  im2col_impl(image, g, columns, column_row_stride);
}
void im2col(const double* image, const Conv2dGeometry& g, double* columns, int64_t column_row_stride) {
  im2col_impl(image, g, columns, column_row_stride);
}
void col2im(const float* columns, int64_t column_row_stride, const Conv2dGeometry& g, float* image) {
  col2im_impl(columns, column_row_stride, g, image);
}
void col2im(const double* columns, int64_t column_row_stride, const Conv2dGeometry& g, double* image) {
  col2im_impl(columns, column_row_stride, g, image);
}

}  // namespace native
}  // namespace tinytorch
