// The fast-kernel table (runtime/fast_kernels.h): empty until the kernels part installs itself.
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

void install_fast_kernels(const FastKernels& kernels) { table() = kernels; }

}  // namespace detail
}  // namespace tinytorch
