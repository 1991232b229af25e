// The instructor's extra installs itself before main() whenever this object is part of the program:
// only the reference library's links keep it (-Wl,-u,tinytorch_acceleration_extra_registration, added
// to the `tinytorch` target by framework/CMakeLists.txt, never to tito's learner builds). It adds the
// SIMD micro-kernels to the GEMM and the int8 GEMM to the fast-kernel table.
#include "17_acceleration/extra/extras.h"
#include "runtime/fast_kernels.h"

namespace {

int install() {
  tinytorch::cpublas::GemmExtras extras;
  extras.float_kernels = tinytorch::cpublas::simd_float_micro_kernels();
  extras.small_gemm = tinytorch::cpublas::simd_small_gemm();
  tinytorch::cpublas::install_gemm_extras(extras);
  tinytorch::detail::FastKernels kernels;  // every other entry null: left as module 17 installs them
  kernels.int8_gemm = tinytorch::native::int8_gemm_fast;
  tinytorch::detail::install_fast_kernels(kernels);
  return 17;
}

}  // namespace

extern "C" {
extern const int tinytorch_acceleration_extra_registration;
const int tinytorch_acceleration_extra_registration = install();
}
