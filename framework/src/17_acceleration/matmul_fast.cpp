// Module 17 (Acceleration), lesson section "6. Threads": mm and bmm on your GEMM (gemm.cpp). In a
// build with module 17 the given Tensor::mm and Tensor::bmm ask these first; an undefined result
// (a shape they cannot multiply) lets module 01's mm / bmm report the error.
#include <algorithm>

#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/kernels.h"
#include "tinytorch/parallel.h"

namespace tinytorch {
namespace native {

// Given: one product on cpublas::gemm, reading both operands through their strides.
Tensor mm_fast(const Tensor& self, const Tensor& mat2) {
  if (self.dim() != 2 || mat2.dim() != 2 || self.size(1) != mat2.size(0)) return Tensor();
  const int64_t n = self.size(0), m = self.size(1), p = mat2.size(1);
  Tensor out = empty({n, p}, self.options());
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "addmm_impl_cpu_", [&] {
    cpublas::gemm(n, p, m, static_cast<const scalar_t*>(self.data_ptr()), self.stride(0), self.stride(1),
                  static_cast<const scalar_t*>(mat2.data_ptr()), mat2.stride(0), mat2.stride(1),
                  static_cast<scalar_t*>(out.data_ptr()), p);
  });
  return out;
}

// TODO: bmm_fast -- self (B, n, m) bmm mat2 (B, m, p) -> a new contiguous out (B, n, p) with
//   self's options, each batch entry's product computed by cpublas::gemm (section 6, "Threads").
//   self and mat2 may be any views (a slice of a larger batch, a transposed mat2): read them through
//   their strides, never copy them. Shapes bmm cannot take (not both 3-D, batch sizes or inner sizes
//   that differ) return an undefined Tensor(), and module 01's bmm then reports the error.
//   Threads: a batch of small products (attention's heads) is too small for the GEMM's own threads,
//   but the batch as a whole is not: when B > 1 and B * n * p * m >= kGemmParallelThreshold, the
//   batch entries are shared between threads with the given parallel_for, each thread writing only
//   its own entries; below that, everything runs on the calling thread.
//   Element types: TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "bmm", [&] { ... scalar_t ... }).
Tensor bmm_fast(const Tensor& self, const Tensor& mat2) {
  // BEGIN SOLUTION name="tinytorch::native::bmm_fast" lesson="6. Threads"
  if (self.dim() != 3 || mat2.dim() != 3) return Tensor();
  const int64_t batches = self.size(0), n = self.size(1), m = self.size(2), p = mat2.size(2);
  if (mat2.size(0) != batches || mat2.size(1) != m) return Tensor();
  Tensor out = empty({batches, n, p}, self.options());
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "bmm", [&] {
    const scalar_t* a = static_cast<const scalar_t*>(self.data_ptr());
    const scalar_t* b = static_cast<const scalar_t*>(mat2.data_ptr());
    scalar_t* c = static_cast<scalar_t*>(out.data_ptr());
    auto products = [&](int64_t first, int64_t last) {
      for (int64_t s = first; s < last; ++s) {
        cpublas::gemm(n, p, m, a + s * self.stride(0), self.stride(1), self.stride(2), b + s * mat2.stride(0),
                      mat2.stride(1), mat2.stride(2), c + s * n * p, p);
      }
    };
    if (batches > 1 && batches * n * p * m >= cpublas::kGemmParallelThreshold) {
      parallel_for(0, batches, 1, products);
    } else {
      products(0, batches);
    }
  });
  return out;
  // END SOLUTION
}

}  // namespace native
}  // namespace tinytorch
