// mm and bmm on module 17's blocked GEMM (kernels/gemm.h): the numbers of the learner's triple loop
// at BLAS speed. Shapes the product cannot take are declined, so the learner's mm reports them.
#include "kernels/fast_paths.h"
#include "kernels/gemm.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace native {

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

Tensor bmm_fast(const Tensor& self, const Tensor& mat2) {
  if (self.dim() != 3 || mat2.dim() != 3) return Tensor();
  const int64_t batches = self.size(0), n = self.size(1), m = self.size(2), p = mat2.size(2);
  if (mat2.size(0) != batches || mat2.size(1) != m) return Tensor();
  Tensor out = empty({batches, n, p}, self.options());
  TT_DISPATCH_NUMERIC_TYPES(self.scalar_type(), "bmm", [&] {
    const scalar_t* a = static_cast<const scalar_t*>(self.data_ptr());
    const scalar_t* b = static_cast<const scalar_t*>(mat2.data_ptr());
    scalar_t* c = static_cast<scalar_t*>(out.data_ptr());
    for (int64_t s = 0; s < batches; ++s) {
      cpublas::gemm(n, p, m, a + s * self.stride(0), self.stride(1), self.stride(2), b + s * mat2.stride(0),
                    mat2.stride(1), mat2.stride(2), c + s * n * p, p);
    }
  });
  return out;
}

}  // namespace native
}  // namespace tinytorch
