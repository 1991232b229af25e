// Matrix products' public face: dtype checks, the autograd record and bmm's derivative (mm's is
// module 06's to write: 06_autograd/gradient_rules.cpp). The loops and the shape logic are the
// learner's (matmul.cpp); module 17's GEMM replaces the loops in builds that have it. matmul is
// composite: it records nothing itself, the mm/bmm/view ops it is built from do.
#include "runtime/fast_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// LibTorch checks ranks first (inside the kernel), then dtypes: check dtypes only for the
// ranks the kernel accepts, so a wrong rank still gets the rank message.
void check_same_dtype(const Tensor& a, const Tensor& b, const char* kernel_name) {
  TT_CHECK(a.scalar_type() == b.scalar_type(), "expected scalar type ", toString(a.scalar_type()), " but found ",
           toString(b.scalar_type()));
  TT_CHECK(a.scalar_type() != kBool, "\"", kernel_name, "\" not implemented for 'Bool'");
}

}  // namespace

Tensor Tensor::mm(const Tensor& mat2) const {
  if (dim() == 2 && mat2.dim() == 2) check_same_dtype(*this, mat2, "addmm_impl_cpu_");
  const auto fast_mm = detail::fast_kernels().mm;  // module 17's GEMM, in builds that have it
  Tensor result = fast_mm != nullptr ? fast_mm(*this, mat2) : Tensor();
  if (!result.defined()) result = native::mm(*this, mat2);
  static OpHandle mm_op("mm");
  record_op(mm_op, {*this, mat2}, {result});
  return result;
}

Tensor Tensor::bmm(const Tensor& mat2) const {
  if (dim() == 3 && mat2.dim() == 3) check_same_dtype(*this, mat2, "bmm");
  const auto fast_bmm = detail::fast_kernels().bmm;
  Tensor result = fast_bmm != nullptr ? fast_bmm(*this, mat2) : Tensor();
  if (!result.defined()) result = native::bmm(*this, mat2);
  static OpHandle bmm_op("bmm");
  record_op(bmm_op, {*this, mat2}, {result});
  return result;
}

namespace {
// out (b, n, m) = self (b, n, k) @ mat2 (b, k, m): mm's rule, one matrix per batch.
const RegisterDerivative bmm_derivative("bmm", {
    "BmmBackward0",
    [](SaveForBackward& save) {
      save.input(0);  // self
      save.input(1);  // mat2
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      return {ctx.needs_input_grad(0) ? grad.bmm(ctx.saved(1).transpose(1, 2)) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.saved(0).transpose(1, 2).bmm(grad) : Tensor()};
    }});
}  // namespace

Tensor Tensor::matmul(const Tensor& other) const { return native::matmul(*this, other); }

}  // namespace tinytorch
