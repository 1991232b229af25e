#pragma once
// im2col / col2im: the data movement that turns a convolution into one matrix product (what Caffe
// and LibTorch's slow_conv2d do; module 17 teaches it).
//
// im2col unfolds one image (C, H, W) into a matrix with C kh kw rows and OH OW columns: row
// (c, i, j) holds, for every output position (y, x), the input pixel that kernel tap (i, j) of
// channel c sees there, input[c][y sh + i dh - ph][x sw + j dw - pw], or 0 in the padding. Then
//   out (O, OH OW) = weight (O, C kh kw) x columns (C kh kw, OH OW).
// col2im is its adjoint: it adds every column entry back onto the pixel it was copied from, which
// turns the gradient of the columns into the gradient of the image.
//
// `columns` has row stride `column_row_stride` (>= OH OW), so the columns of a whole batch can sit
// side by side in one (C kh kw, N OH OW) matrix: image n writes at columns + n OH OW.
#include <cstdint>

#include "09_convolutions/conv2d_kernels.h"  // Conv2dGeometry

namespace tinytorch {
namespace native {

void im2col(const float* image, const Conv2dGeometry& g, float* columns, int64_t column_row_stride);
void im2col(const double* image, const Conv2dGeometry& g, double* columns, int64_t column_row_stride);
// Adds onto `image` (it is not cleared first).
void col2im(const float* columns, int64_t column_row_stride, const Conv2dGeometry& g, float* image);
void col2im(const double* columns, int64_t column_row_stride, const Conv2dGeometry& g, double* image);

}  // namespace native
}  // namespace tinytorch
