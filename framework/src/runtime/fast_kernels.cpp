// The fast-kernel table (runtime/fast_kernels.h): empty until module 17's registration installs it;
// and the GEMM's instructor extras (tinytorch/acceleration_kernels.h), empty unless the reference
// library's extra installs them.
#include "runtime/fast_kernels.h"

namespace tinytorch {
namespace detail {
namespace {

// A function-local static: the kernels part installs itself from another translation unit's
// static initializer, which may run before this file's.
FastKernels& table() {
  static FastKernels kernels;
  return kernels;
}

}  // namespace

const FastKernels& fast_kernels() { return table(); }

void install_fast_kernels(const FastKernels& kernels) {
  FastKernels& t = table();
  if (kernels.binary) t.binary = kernels.binary;
  if (kernels.binary_in_place) t.binary_in_place = kernels.binary_in_place;
  if (kernels.compare) t.compare = kernels.compare;
  if (kernels.sum) t.sum = kernels.sum;
  if (kernels.mm) t.mm = kernels.mm;
  if (kernels.bmm) t.bmm = kernels.bmm;
  if (kernels.conv2d) t.conv2d = kernels.conv2d;
  if (kernels.conv2d_backward) t.conv2d_backward = kernels.conv2d_backward;
  if (kernels.max_pool2d) t.max_pool2d = kernels.max_pool2d;
  if (kernels.max_pool2d_backward) t.max_pool2d_backward = kernels.max_pool2d_backward;
  if (kernels.im2col) t.im2col = kernels.im2col;
  if (kernels.col2im) t.col2im = kernels.col2im;
  if (kernels.int8_gemm) t.int8_gemm = kernels.int8_gemm;
}

WithoutFastKernels::WithoutFastKernels() : saved_(table()) { table() = FastKernels{}; }
WithoutFastKernels::~WithoutFastKernels() { table() = saved_; }

}  // namespace detail

namespace cpublas {
namespace {
GemmExtras& extras_table() {
  static GemmExtras extras;
  return extras;
}
}  // namespace

// Module 17's GEMM (the learner's gemm.cpp) asks for these; only the reference library's instructor
// extra (17_acceleration/extra/) installs any.
const GemmExtras& gemm_extras() { return extras_table(); }
void install_gemm_extras(const GemmExtras& extras) { extras_table() = extras; }

}  // namespace cpublas
}  // namespace tinytorch
