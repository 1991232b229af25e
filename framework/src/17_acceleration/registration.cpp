// Module 17's kernels (the learner's files in this folder) install themselves before main() whenever
// this object is part of the program. Nothing refers to it by name: the link flag
// -Wl,-u,tinytorch_fast_kernels_registration (added to every link of the reference library by
// framework/CMakeLists.txt, and to tito's learner builds only once module 17 is in them) makes the
// linker keep it, and with it every fast kernel it names. In a learner's build before module 17 it is
// not linked, and every op runs the learner's own loops (modules 01 and 09).
#include "runtime/fast_kernels.h"
#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/kernels.h"

namespace {

using tinytorch::Tensor;
using tinytorch::native::Conv2dGeometry;

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
