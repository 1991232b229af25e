// Module 17's kernels (the learner's files in this folder) install themselves before main() whenever
// this object is part of the program. Nothing refers to it by name: the link flag
// -Wl,-u,tinytorch_fast_kernels_registration (added to every link of the reference library by
// framework/CMakeLists.txt, and to tito's learner builds only once module 17 is in them) makes the
// linker keep it, and with it every fast kernel it names. In a learner's build before module 17 it is
// not linked, and every op runs the learner's own loops (modules 01 and 09).
#include <cstring>
#include <tuple>
#include <vector>

#include "runtime/fast_kernels.h"
#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/kernels.h"
#include "tinytorch/parallel.h"

namespace {

using tinytorch::Tensor;
using tinytorch::native::Conv2dGeometry;
using tinytorch::native::Pool2dGeometry;

// torch::im2col's kernel: the learner's im2col, image by image.
Tensor unfold_images(const Tensor& images, const Conv2dGeometry& g) {
  const int64_t rows = g.channels * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const int64_t image_size = g.channels * g.height * g.width;
  Tensor columns = tinytorch::empty({g.batch, rows, positions}, images.options());
  if (columns.numel() == 0) return columns;
  TT_DISPATCH_FLOATING_TYPES(images.scalar_type(), "im2col", [&] {
    const scalar_t* x = images.data_ptr<scalar_t>();
    scalar_t* cols = columns.data_ptr<scalar_t>();
    for (int64_t n = 0; n < g.batch; ++n) {
      tinytorch::native::im2col(x + n * image_size, g, cols + n * rows * positions, positions);
    }
  });
  return columns;
}

// torch::col2im's kernel: the learner's col2im onto zeroed images.
Tensor fold_columns(const Tensor& columns, const Conv2dGeometry& g) {
  const int64_t rows = g.channels * g.kernel_h * g.kernel_w, positions = g.out_h * g.out_w;
  const int64_t image_size = g.channels * g.height * g.width;
  Tensor images = tinytorch::zeros({g.batch, g.channels, g.height, g.width}, columns.options());
  if (images.numel() == 0 || positions == 0) return images;
  TT_DISPATCH_FLOATING_TYPES(columns.scalar_type(), "col2im", [&] {
    const scalar_t* cols = columns.data_ptr<scalar_t>();
    scalar_t* x = images.data_ptr<scalar_t>();
    for (int64_t n = 0; n < g.batch; ++n) {
      tinytorch::native::col2im(cols + n * rows * positions, positions, g, x + n * image_size);
    }
  });
  return images;
}

// Max pooling's images are independent, and left on one thread its loop is a serial stretch of a
// training step (12% of LeNet-5's on two threads). Above this many window taps the learner's module
// 09 loops run on blocks of whole images (parallel_for's few per thread), as LibTorch splits its
// pooling over planes; each block's result is copied into place.
constexpr int64_t kPoolParallelThreshold = int64_t{1} << 16;

bool pool_in_threads(const Pool2dGeometry& g) {
  return g.batch * g.channels * g.out_h * g.out_w * g.kernel_h * g.kernel_w >= kPoolParallelThreshold &&
         tinytorch::parallel_task_count(g.batch, 1) > 1;
}

// Images [first, first + count) of a contiguous batch, as a view that records nothing.
Tensor images_of(const Tensor& batch, int64_t first, int64_t count) {
  std::vector<int64_t> sizes(batch.sizes().begin(), batch.sizes().end());
  sizes[0] = count;
  return tinytorch::native::make_view(batch, sizes, std::vector<int64_t>(batch.strides().begin(), batch.strides().end()),
                                      batch.storage_offset() + first * batch.stride(0));
}

// Copies a block of images, contiguous, to images [first, ...) of the contiguous `batch`.
void place_images(const Tensor& block, const Tensor& batch, int64_t first) {
  std::memcpy(static_cast<char*>(batch.data_ptr()) + first * batch.stride(0) * batch.element_size(), block.data_ptr(),
              block.nbytes());
}

std::tuple<Tensor, Tensor> max_pool2d_by_images(const Tensor& input, const Pool2dGeometry& g) {
  if (!pool_in_threads(g)) return tinytorch::native::max_pool2d_loops(input, g);
  Tensor output = tinytorch::empty({g.batch, g.channels, g.out_h, g.out_w}, input.options());
  Tensor indices = tinytorch::empty({g.batch, g.channels, g.out_h, g.out_w}, input.options().dtype(tinytorch::kLong));
  tinytorch::parallel_for(0, g.batch, 1, [&](int64_t first, int64_t last) {
    Pool2dGeometry part = g;
    part.batch = last - first;
    const auto [part_output, part_indices] = tinytorch::native::max_pool2d_loops(images_of(input, first, part.batch), part);
    place_images(part_output.contiguous(), output, first);
    place_images(part_indices.contiguous(), indices, first);
  });
  return {output, indices};
}

Tensor max_pool2d_backward_by_images(const Tensor& grad_output, const Tensor& indices, const Pool2dGeometry& g) {
  if (!pool_in_threads(g)) return tinytorch::native::max_pool2d_backward_loops(grad_output, indices, g);
  Tensor grad_input = tinytorch::empty({g.batch, g.channels, g.height, g.width}, grad_output.options());
  const Tensor contiguous_indices = indices.contiguous();
  tinytorch::parallel_for(0, g.batch, 1, [&](int64_t first, int64_t last) {
    Pool2dGeometry part = g;
    part.batch = last - first;
    const Tensor part_grad = tinytorch::native::max_pool2d_backward_loops(
        images_of(grad_output, first, part.batch), images_of(contiguous_indices, first, part.batch), part);
    place_images(part_grad.contiguous(), grad_input, first);
  });
  return grad_input;
}

int install() {
  tinytorch::detail::FastKernels kernels;
  kernels.binary = tinytorch::native::binary_fast;
  kernels.binary_in_place = tinytorch::native::binary_in_place_fast;
  kernels.compare = tinytorch::native::compare_fast;
  kernels.sum = tinytorch::native::sum_fast;
  kernels.mm = tinytorch::native::mm_fast;
  kernels.bmm = tinytorch::native::bmm_fast;
  kernels.conv2d = tinytorch::native::conv2d_im2col;
  kernels.conv2d_backward = tinytorch::native::conv2d_backward_im2col;
  kernels.max_pool2d = max_pool2d_by_images;
  kernels.max_pool2d_backward = max_pool2d_backward_by_images;
  kernels.im2col = unfold_images;
  kernels.col2im = fold_columns;
  tinytorch::detail::install_fast_kernels(kernels);
  return 17;
}

}  // namespace

extern "C" {
extern const int tinytorch_fast_kernels_registration;
const int tinytorch_fast_kernels_registration = install();
}
