// Module 09 (Convolutions), lesson section "6. Pooling".
// The given code (pooling.cpp) has checked the shapes with LibTorch's messages, made the input a
// contiguous (N, C, H, W) tensor of a floating dtype and worked out the geometry g
// (tinytorch/spatial_kernels.h), output size included. Windows are placed as the convolution's
// (section 3: stride, padding, dilation); rows and columns outside the image are padding, never stored.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "tinytorch/spatial_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

// TODO: max_pool2d_loops(input, g) -> (output, indices), both (N, C, out_h, out_w): the largest
//   value of each window, and its position within its (H, W) plane as a flat row-major index
//   (section 6). LibTorch's rules: padding is never the maximum (it counts as -infinity); on a tie
//   the first position met row by row wins; a NaN wins (it propagates).
//   Example: 1..16 as a 4 x 4 image, kernel 2, stride 2 -> [[6, 8], [14, 16]], indices [[5, 7], [13, 15]].
//   Once module 17 is in your build, large batches reach this function (and the backward below) in
//   blocks of images, from several threads at once: keep every variable local (no `static`).
std::tuple<Tensor, Tensor> max_pool2d_loops(const Tensor& input, const Pool2dGeometry& g) {
  Tensor output = empty({g.batch, g.channels, g.out_h, g.out_w}, input.options());
  Tensor indices = empty({g.batch, g.channels, g.out_h, g.out_w}, input.options().dtype(kLong));
  // BEGIN SOLUTION name="tinytorch::native::max_pool2d_loops" lesson="6. Pooling"
  // A local copy: `where` is an int64_t*, which may point into g's int64_t fields as far as the
  // compiler knows, so with g itself every store would force it to reload the sizes (4x slower).
  const Pool2dGeometry geometry = g;
  // The taps of window (y, x) inside the image, as ranges [first, last) of i (or j): found once per
  // window, so the scan below tests no bounds.
  const auto inside = [](int64_t start, int64_t dilation, int64_t kernel, int64_t size) {
    const int64_t first = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
    const int64_t last = start >= size ? 0 : std::min(kernel, (size - 1 - start) / dilation + 1);
    return std::pair<int64_t, int64_t>{first, std::max(first, last)};
  };
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "max_pool2d", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    int64_t* where = indices.data_ptr<int64_t>();
    for (int64_t plane = 0; plane < geometry.batch * geometry.channels; ++plane) {
      const scalar_t* image = in + plane * geometry.height * geometry.width;
      for (int64_t y = 0; y < geometry.out_h; ++y) {
        const int64_t top = y * geometry.stride_h - geometry.pad_h;
        const auto [i_first, i_last] = inside(top, geometry.dilation_h, geometry.kernel_h, geometry.height);
        for (int64_t x = 0; x < geometry.out_w; ++x) {
          const int64_t left = x * geometry.stride_w - geometry.pad_w;
          const auto [j_first, j_last] = inside(left, geometry.dilation_w, geometry.kernel_w, geometry.width);
          // Two passes over the window: the largest value, then the first tap that holds it (walked
          // backwards, each match overwriting the last). Both are selects, not branches: one pass
          // that tracked the index would branch on a random comparison per tap, and a mispredicted
          // branch costs more than the whole window. A NaN (rare) wins: the first NaN's tap.
          scalar_t best = -std::numeric_limits<scalar_t>::infinity();
          bool nan_seen = false;
          for (int64_t i = i_first; i < i_last; ++i) {
            const scalar_t* row = image + (top + i * geometry.dilation_h) * geometry.width + left;
            for (int64_t j = j_first; j < j_last; ++j) {
              const scalar_t value = row[j * geometry.dilation_w];
              best = value > best ? value : best;
              nan_seen |= value != value;
            }
          }
          if (nan_seen) best = std::numeric_limits<scalar_t>::quiet_NaN();
          int64_t best_index = -1;
          for (int64_t i = i_last - 1; i >= i_first; --i) {
            const int64_t row = (top + i * geometry.dilation_h) * geometry.width + left;
            for (int64_t j = j_last - 1; j >= j_first; --j) {
              const int64_t tap = row + j * geometry.dilation_w;
              const scalar_t value = image[tap];
              best_index = (nan_seen ? value != value : value == best) ? tap : best_index;
            }
          }
          const int64_t at = (plane * geometry.out_h + y) * geometry.out_w + x;
          out[at] = best;
          where[at] = best_index;
        }
      }
    }
  });
  // END SOLUTION
  return {output, indices};
}

// TODO: max_pool2d_backward_loops(grad_output, indices, g) -> grad_input (N, C, H, W), the
//   gradient of max_pool2d_loops (section 6) given the indices it returned. Overlapping windows can
//   pick the same input as their maximum. grad_output is contiguous here.
Tensor max_pool2d_backward_loops(const Tensor& grad_output, const Tensor& indices, const Pool2dGeometry& g) {
  Tensor grad_input = zeros({g.batch, g.channels, g.height, g.width}, grad_output.options());
  // BEGIN SOLUTION name="tinytorch::native::max_pool2d_backward_loops" lesson="6. Pooling"
  TT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "max_pool2d_backward", [&] {
    const scalar_t* gy = grad_output.data_ptr<scalar_t>();
    const int64_t* where = indices.data_ptr<int64_t>();
    scalar_t* gx = grad_input.data_ptr<scalar_t>();
    const int64_t outputs_per_plane = g.out_h * g.out_w;
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      scalar_t* image_grad = gx + plane * g.height * g.width;
      for (int64_t k = 0; k < outputs_per_plane; ++k) {
        const int64_t at = plane * outputs_per_plane + k;
        image_grad[where[at]] += gy[at];
      }
    }
  });
  // END SOLUTION
  return grad_input;
}

// TODO: avg_pool2d_loops(input, g) -> output (N, C, out_h, out_w): the mean of each window
//   (section 6), LibTorch's way at the borders: g.divisor_override (when not 0), g.count_include_pad
//   and a window that reaches past the padded image each change the divisor, as section 6 explains.
//   Example: 1..16 as 4 x 4, kernel 2 -> [[3.5, 5.5], [11.5, 13.5]].
Tensor avg_pool2d_loops(const Tensor& input, const Pool2dGeometry& g) {
  Tensor output = empty({g.batch, g.channels, g.out_h, g.out_w}, input.options());
  // BEGIN SOLUTION name="tinytorch::native::avg_pool2d_loops" lesson="6. Pooling"
  TT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "avg_pool2d", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      const scalar_t* image = in + plane * g.height * g.width;
      for (int64_t y = 0; y < g.out_h; ++y) {
        for (int64_t x = 0; x < g.out_w; ++x) {
          int64_t y0 = y * g.stride_h - g.pad_h, x0 = x * g.stride_w - g.pad_w;
          int64_t y1 = std::min(y0 + g.kernel_h, g.height + g.pad_h);
          int64_t x1 = std::min(x0 + g.kernel_w, g.width + g.pad_w);
          const int64_t pool_size = (y1 - y0) * (x1 - x0);
          y0 = std::max<int64_t>(y0, 0);
          x0 = std::max<int64_t>(x0, 0);
          y1 = std::min(y1, g.height);
          x1 = std::min(x1, g.width);
          scalar_t sum = 0;
          for (int64_t in_y = y0; in_y < y1; ++in_y) {
            for (int64_t in_x = x0; in_x < x1; ++in_x) sum += image[in_y * g.width + in_x];
          }
          const int64_t divisor = g.divisor_override != 0 ? g.divisor_override
                                  : g.count_include_pad   ? pool_size
                                                          : (y1 - y0) * (x1 - x0);
          out[(plane * g.out_h + y) * g.out_w + x] = y0 < y1 && x0 < x1 ? sum / scalar_t(divisor) : scalar_t(0);
        }
      }
    }
  });
  // END SOLUTION
  return output;
}

// TODO: avg_pool2d_backward_loops(grad_output, g) -> grad_input (N, C, H, W), the gradient of
//   avg_pool2d_loops with the same windows and divisors (section 6). Windows overlap when the stride
//   is smaller than the kernel. grad_output is contiguous here.
Tensor avg_pool2d_backward_loops(const Tensor& grad_output, const Pool2dGeometry& g) {
  Tensor grad_input = zeros({g.batch, g.channels, g.height, g.width}, grad_output.options());
  // BEGIN SOLUTION name="tinytorch::native::avg_pool2d_backward_loops" lesson="6. Pooling"
  TT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "avg_pool2d_backward", [&] {
    const scalar_t* gy = grad_output.data_ptr<scalar_t>();
    scalar_t* gx = grad_input.data_ptr<scalar_t>();
    for (int64_t plane = 0; plane < g.batch * g.channels; ++plane) {
      scalar_t* image_grad = gx + plane * g.height * g.width;
      for (int64_t y = 0; y < g.out_h; ++y) {
        for (int64_t x = 0; x < g.out_w; ++x) {
          int64_t y0 = y * g.stride_h - g.pad_h, x0 = x * g.stride_w - g.pad_w;
          int64_t y1 = std::min(y0 + g.kernel_h, g.height + g.pad_h);
          int64_t x1 = std::min(x0 + g.kernel_w, g.width + g.pad_w);
          const int64_t pool_size = (y1 - y0) * (x1 - x0);
          y0 = std::max<int64_t>(y0, 0);
          x0 = std::max<int64_t>(x0, 0);
          y1 = std::min(y1, g.height);
          x1 = std::min(x1, g.width);
          if (y0 >= y1 || x0 >= x1) continue;
          const int64_t divisor = g.divisor_override != 0 ? g.divisor_override
                                  : g.count_include_pad   ? pool_size
                                                          : (y1 - y0) * (x1 - x0);
          const scalar_t share = gy[(plane * g.out_h + y) * g.out_w + x] / scalar_t(divisor);
          for (int64_t in_y = y0; in_y < y1; ++in_y) {
            for (int64_t in_x = x0; in_x < x1; ++in_x) image_grad[in_y * g.width + in_x] += share;
          }
        }
      }
    }
  });
  // END SOLUTION
  return grad_input;
}

}  // namespace native
}  // namespace tinytorch
