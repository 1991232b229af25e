// Module 17's kernels install themselves before main() whenever this object is part of the program.
// Nothing refers to it by name: the link flag -Wl,-u,tinytorch_fast_kernels_registration (added to
// every link of the reference library by framework/CMakeLists.txt, and to tito's learner builds only
// once module 17 is in them) makes the linker keep it, and with it every fast kernel.
#include "kernels/fast_paths.h"

namespace {

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
  kernels.int8_gemm = tinytorch::native::int8_gemm_fast;
  tinytorch::detail::install_fast_kernels(kernels);
  return 17;
}

}  // namespace

extern "C" {
extern const int tinytorch_fast_kernels_registration;
const int tinytorch_fast_kernels_registration = install();
}
