// Matrix products' public face: dtype checks, the autograd record and bmm's derivative (mm's is
// module 06's to write: 06_autograd/gradient_rules.cpp). The loops and the shape logic are the
// learner's (matmul.cpp); module 17's GEMM replaces the loops in builds that have it. matmul is
// composite: it records nothing itself, the mm/bmm/view ops it is built from do.
#include "internal.h"
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
  // LibTorch 1.13's CPU products have no Bool and no Half kernel (BFloat16 and the integers multiply).
  TT_CHECK(a.scalar_type() != kBool && a.scalar_type() != kHalf, "\"", kernel_name, "\" not implemented for '",
           toString(a.scalar_type()), "'");
}

// The learner's loops (and module 17's GEMM) run over int64, float and double: the narrow dtypes
// multiply in their computation type and the product is converted back (integer products wrap as
// in LibTorch).
template <typename Product>
Tensor in_computation_type(const Tensor& a, const Tensor& b, Product product) {
  const ScalarType compute_type = detail::computation_type(a.scalar_type());
  if (compute_type == a.scalar_type()) return product(a, b);
  return detail::as_dtype(product(detail::as_dtype(a, compute_type), detail::as_dtype(b, compute_type)),
                          a.scalar_type());
}

}  // namespace

Tensor Tensor::mm(const Tensor& mat2) const {
  if (dim() == 2 && mat2.dim() == 2) check_same_dtype(*this, mat2, "addmm_impl_cpu_");
  Tensor result = on_device(*this, mat2) ? device_kernel<Tensor(const Tensor&, const Tensor&)>("mm", *this, mat2)(*this, mat2)
                                         : in_computation_type(*this, mat2, [](const Tensor& a, const Tensor& b) {
    const auto fast_mm = detail::fast_kernels().mm;  // module 17's GEMM, in builds that have it
    Tensor product = fast_mm != nullptr ? fast_mm(a, b) : Tensor();
    return product.defined() ? product : native::mm(a, b);
  });
  static OpHandle mm_op("mm");
  record_op(mm_op, {*this, mat2}, {result});
  return result;
}

Tensor Tensor::bmm(const Tensor& mat2) const {
  if (dim() == 3 && mat2.dim() == 3) check_same_dtype(*this, mat2, "bmm");
  Tensor result = on_device(*this, mat2) ? device_kernel<Tensor(const Tensor&, const Tensor&)>("bmm", *this, mat2)(*this, mat2)
                                         : in_computation_type(*this, mat2, [](const Tensor& a, const Tensor& b) {
    const auto fast_bmm = detail::fast_kernels().bmm;
    Tensor product = fast_bmm != nullptr ? fast_bmm(a, b) : Tensor();
    return product.defined() ? product : native::bmm(a, b);
  });
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

// beta self + alpha (mat1 @ mat2), self broadcast to the product's shape: LibTorch's fused
// product-plus-bias (F::linear on a 2-D input). beta = 0 ignores self's values (NaN included).
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  TT_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TT_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  TT_CHECK(self.scalar_type() == mat1.scalar_type(), "expected scalar type ", toString(mat1.scalar_type()),
           " but found ", toString(self.scalar_type()));
  Tensor result;
  {
    NoGradGuard one_record;  // the product and the scaling are this op's kernel
    result = mat1.mm(mat2);
    const std::vector<int64_t> product_sizes = result.sizes().vec();
    if (!(alpha.isIntegral(true) ? alpha.toLong() == 1 : alpha.toDouble() == 1.0)) result.mul_(alpha);
    const bool keeps_self = beta.isIntegral(true) ? beta.toLong() != 0 : beta.toDouble() != 0.0;
    if (keeps_self) result.add_(self.expand(product_sizes), beta);
  }
  OpAttributes attributes;
  attributes.alpha = alpha;
  attributes.exponent = beta;  // addmm has no exponent: the slot carries beta
  static OpHandle addmm_op("addmm");
  record_op(addmm_op, {self, mat1, mat2}, {result}, attributes);
  return result;
}

Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) const {
  return tinytorch::addmm(*this, mat1, mat2, beta, alpha);
}

namespace {
// d self = beta grad (the engine sums it to self's shape), d mat1 = alpha grad mat2^T,
// d mat2 = alpha mat1^T grad.
const RegisterDerivative addmm_derivative("addmm", {
    "AddmmBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      tensor_list result(ctx.num_inputs);
      const Tensor& grad = ctx.grad();
      const Scalar& alpha = ctx.attributes.alpha;
      const Scalar& beta = ctx.attributes.exponent;
      if (ctx.needs_input_grad(0)) result[0] = beta.toDouble() == 1.0 ? grad : grad * beta;
      if (ctx.needs_input_grad(1)) {
        result[1] = grad.mm(ctx.saved(1).t());
        if (alpha.toDouble() != 1.0) result[1] = result[1] * alpha;
      }
      if (ctx.needs_input_grad(2)) {
        // In mat2's own layout when it is stored column by column (see MmBackward0).
        const Tensor& mat2 = ctx.saved(1);
        const bool column_major = mat2.size(0) > 1 && mat2.size(1) > 1 && mat2.stride(0) == 1 &&
                                  mat2.stride(1) == mat2.size(0);
        result[2] = column_major ? grad.t().mm(ctx.saved(0)).t() : ctx.saved(0).t().mm(grad);
        if (alpha.toDouble() != 1.0) result[2] = result[2] * alpha;
      }
      return result;
    }});
}  // namespace

}  // namespace tinytorch
