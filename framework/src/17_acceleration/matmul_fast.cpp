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

// TODO: bmm_fast -- self (B, n, m) bmm mat2 (B, m, p) -> out (B, n, p), one cpublas::gemm per batch
//   entry s, and the batch entries on threads (section 6): a batch of small products (attention's
//   heads) is too small for the GEMM's own threads, but B of them side by side are not.
//   - Return an undefined Tensor() unless both are 3-D with mat2.size(0) == B and mat2.size(1) == m.
//   - out = empty({B, n, p}, self.options()); product s reads self at data + s * self.stride(0)
//     (rows and columns through strides 1 and 2, any layout) and writes out's slice s (contiguous:
//     n * p elements further per entry, row stride p).
//   - Split the batch with parallel_for(0, B, 1, f) when B > 1 and B * n * p * m >= kGemmParallelThreshold
//     (otherwise one loop): f(first, last) handles entries first..last-1 and writes only their own
//     slices. Inside parallel_for the GEMM stays on one thread by itself (in_parallel_region()).
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
