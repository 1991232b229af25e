// LibTorch's products beyond mm/bmm/matmul/addmm (given code): dot, vdot, mv and the fused
// "add a product" family (addmv, addr, baddbmm, addbmm and the in-place forms, addmm_ included),
// each a kernel with its LibTorch backward node; and the composites LibTorch also builds from
// other ops (inner, outer, kron, tensordot, einsum, matrix_power, chain_matmul, multi_dot), which
// differentiate through what they are made of. trace and cross have their own nodes.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/functions.h"
#include "tinytorch/kernels.h"
#include "tinytorch/linalg.h"
#include "tinytorch/reductions_scans.h"

namespace tinytorch {
namespace {

bool is_one(const Scalar& s) { return s.isIntegral(true) ? s.toLong() == 1 : s.toDouble() == 1.0; }
bool is_zero(const Scalar& s) { return s.isIntegral(true) ? s.toLong() == 0 : s.toDouble() == 0.0; }

// beta * self + alpha * product (self broadcast to product's shape); beta = 0 ignores self (NaN too).
Tensor scaled_sum(const Tensor& self, Tensor product, const Scalar& beta, const Scalar& alpha) {
  if (!is_one(alpha)) product = product * alpha;
  if (is_zero(beta)) return product;
  const Tensor bias = self.expand(product.sizes());
  return product + (is_one(beta) ? bias : bias * beta);
}

OpAttributes beta_alpha(const Scalar& beta, const Scalar& alpha) {
  OpAttributes attributes;
  attributes.alpha = alpha;
  attributes.exponent = beta;  // these ops have no exponent: the slot carries beta, as addmm's does
  return attributes;
}

Tensor times(const Tensor& t, const Scalar& s) { return is_one(s) ? t : t * s; }

// The in-place form of an op whose out-of-place `result` is ready: checked like LibTorch, written
// into self and recorded under the out-of-place op's name (its declaration serves both).
const Tensor& write_in_place(const Tensor& self, const Tensor& result, const OpHandle& op,
                             std::initializer_list<Tensor> inputs, const OpAttributes& attributes) {
  TT_CHECK(result.sizes().equals(self.sizes()), "Bad in-place call: input tensor size ", self.sizes(),
           " and output tensor size ", result.sizes(), " should match");
  check_in_place(op, inputs);
  detail::check_no_internal_overlap(self);
  detail::copy_into(self, result);
  record_in_place_op(op, inputs, attributes);
  return self;
}

}  // namespace

// ---- dot, vdot ----

namespace {
Tensor dot_kernel(const Tensor& self, const Tensor& other) {
  TT_CHECK(self.scalar_type() == other.scalar_type(), "dot : expected both vectors to have same dtype, but found ",
           toString(self.scalar_type()), " and ", toString(other.scalar_type()));
  TT_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ", other.dim(),
           "D tensors");
  TT_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
           "] and src [", other.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
           other.numel(), " elements respectively");
  TT_CHECK(self.scalar_type() != kBool, "\"dot\" not implemented for 'Bool'");
  NoGradGuard kernel_only;
  return (self * other).sum();
}

tensor_list dot_backward(const BackwardContext& ctx) {
  const Tensor& grad = ctx.grad();
  return {ctx.needs_input_grad(0) ? grad * ctx.saved(1) : Tensor(),
          ctx.needs_input_grad(1) ? grad * ctx.saved(0) : Tensor()};
}
void save_both_inputs(SaveForBackward& save) {
  save.input(0);
  save.input(1);
}
const RegisterDerivative dot_derivative("dot", {"DotBackward0", save_both_inputs, dot_backward});
const RegisterDerivative vdot_derivative("vdot", {"VdotBackward0", save_both_inputs, dot_backward});
}  // namespace

Tensor Tensor::dot(const Tensor& tensor) const {
  Tensor result = dot_kernel(*this, tensor);
  static OpHandle dot_op("dot");
  record_op(dot_op, {*this, tensor}, {result});
  return result;
}

// For real tensors vdot is dot (the conjugate of a real vector is itself).
Tensor Tensor::vdot(const Tensor& other) const {
  Tensor result = dot_kernel(*this, other);
  static OpHandle vdot_op("vdot");
  record_op(vdot_op, {*this, other}, {result});
  return result;
}

// ---- inner, outer, ger ----

Tensor Tensor::inner(const Tensor& other) const {
  if (dim() == 0 || other.dim() == 0) return *this * other;
  TT_CHECK(size(-1) == other.size(-1), "inner() the last dimension must match on both input tensors but got shapes ",
           sizes(), " and ", other.sizes());
  return tensordot(*this, other, {-1}, {-1});
}

Tensor Tensor::outer(const Tensor& vec2) const {
  TT_CHECK(dim() == 1, "outer: Expected 1-D argument self, but got ", dim(), "-D");
  TT_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return reshape({size(0), 1}) * vec2;
}
Tensor Tensor::ger(const Tensor& vec2) const { return outer(vec2); }

// ---- mv, addmv ----

namespace {
// LibTorch's addmv checks (mv is addmv into an uninitialised vector of mat's rows).
void check_addmv(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  TT_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, "vector + matrix @ vector expected, got ", self.dim(),
           ", ", mat.dim(), ", ", vec.dim());
  const int64_t self_rows = self.dim() == 0 ? mat.size(0) : self.size(0);
  TT_CHECK(mat.size(1) == vec.size(0) && (self_rows == mat.size(0) || self_rows == 1), "size mismatch, got ",
           self_rows, ", ", mat.size(0), "x", mat.size(1), ",", vec.size(0));
}

Tensor mv_kernel(const Tensor& mat, const Tensor& vec) {
  NoGradGuard kernel_only;
  return mat.mm(vec.unsqueeze(1)).squeeze(1);
}

const RegisterDerivative mv_derivative("mv", {
    "MvBackward0", save_both_inputs,
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      return {ctx.needs_input_grad(0) ? grad.outer(ctx.saved(1)) : Tensor(),
              ctx.needs_input_grad(1) ? ctx.saved(0).t().mv(grad) : Tensor()};
    }});

// d self = beta grad, d mat = alpha grad vec^T, d vec = alpha mat^T grad.
const RegisterDerivative addmv_derivative("addmv", {
    "AddmvBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Scalar& alpha = ctx.attributes.alpha;
      return {ctx.needs_input_grad(0) ? times(grad, ctx.attributes.exponent) : Tensor(),
              ctx.needs_input_grad(1) ? times(grad.outer(ctx.saved(1)), alpha) : Tensor(),
              ctx.needs_input_grad(2) ? times(ctx.saved(0).t().mv(grad), alpha) : Tensor()};
    }});

OpHandle addmv_op("addmv");
}  // namespace

Tensor Tensor::mv(const Tensor& vec) const {
  check_addmv(empty({dim() == 2 ? size(0) : 0}), *this, vec);
  Tensor result = mv_kernel(*this, vec);
  static OpHandle mv_op("mv");
  record_op(mv_op, {*this, vec}, {result});
  return result;
}

Tensor Tensor::addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) const {
  check_addmv(*this, mat, vec);
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = scaled_sum(*this, mv_kernel(mat, vec), beta, alpha);
  }
  record_op(addmv_op, {*this, mat, vec}, {result}, beta_alpha(beta, alpha));
  return result;
}

Tensor& Tensor::addmv_(const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) const {
  check_addmv(*this, mat, vec);
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = scaled_sum(*this, mv_kernel(mat, vec), beta, alpha);
  }
  write_in_place(*this, result, addmv_op, {*this, mat, vec}, beta_alpha(beta, alpha));
  return const_cast<Tensor&>(*this);
}

// ---- addr ----

namespace {
void check_addr(const Tensor& vec1, const Tensor& vec2) {
  TT_CHECK(vec1.dim() == 1, "addr: Expected 1-D argument vec1, but got ", vec1.dim(), "-D");
  TT_CHECK(vec2.dim() == 1, "addr: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
}
Tensor addr_kernel(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
                   const Scalar& alpha) {
  check_addr(vec1, vec2);
  NoGradGuard kernel_only;
  const Tensor product = vec1.outer(vec2);
  self.expand(product.sizes());  // LibTorch's message when self does not broadcast
  return scaled_sum(self, product, beta, alpha);
}
// d self = beta grad, d vec1 = alpha grad vec2, d vec2 = alpha grad^T vec1.
const RegisterDerivative addr_derivative("addr", {
    "AddrBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Scalar& alpha = ctx.attributes.alpha;
      return {ctx.needs_input_grad(0) ? times(grad, ctx.attributes.exponent) : Tensor(),
              ctx.needs_input_grad(1) ? times(grad.mv(ctx.saved(1)), alpha) : Tensor(),
              ctx.needs_input_grad(2) ? times(grad.t().mv(ctx.saved(0)), alpha) : Tensor()};
    }});
OpHandle addr_op("addr");
}  // namespace

Tensor Tensor::addr(const Tensor& vec1, const Tensor& vec2, const Scalar& beta, const Scalar& alpha) const {
  Tensor result = addr_kernel(*this, vec1, vec2, beta, alpha);
  record_op(addr_op, {*this, vec1, vec2}, {result}, beta_alpha(beta, alpha));
  return result;
}

Tensor& Tensor::addr_(const Tensor& vec1, const Tensor& vec2, const Scalar& beta, const Scalar& alpha) const {
  const Tensor result = addr_kernel(*this, vec1, vec2, beta, alpha);
  write_in_place(*this, result, addr_op, {*this, vec1, vec2}, beta_alpha(beta, alpha));
  return const_cast<Tensor&>(*this);
}

// ---- baddbmm, addbmm ----

namespace {
void check_batches(const Tensor& batch1, const Tensor& batch2) {
  // LibTorch reads size(2) first: a 2-D batch gets the dim-range message.
  batch1.size(2);
  batch2.size(2);
  TT_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  TT_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  TT_CHECK(batch1.size(0) == batch2.size(0), "batch1 and batch2 must have same number of batches, got ",
           batch1.size(0), " and ", batch2.size(0));
  TT_CHECK(batch1.size(2) == batch2.size(1), "Incompatible matrix sizes for bmm (", batch1.size(1), "x",
           batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
}

Tensor baddbmm_kernel(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                      const Scalar& alpha) {
  check_batches(batch1, batch2);
  NoGradGuard kernel_only;
  return scaled_sum(self, batch1.bmm(batch2), beta, alpha);
}

Tensor addbmm_kernel(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                     const Scalar& alpha) {
  check_batches(batch1, batch2);
  NoGradGuard kernel_only;
  return scaled_sum(self, batch1.bmm(batch2).sum(IntArrayRef(0)), beta, alpha);
}

// d self = beta grad, d batch1 = alpha grad batch2^T, d batch2 = alpha batch1^T grad (per batch).
const RegisterDerivative baddbmm_derivative("baddbmm", {
    "BaddbmmBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const Scalar& alpha = ctx.attributes.alpha;
      return {ctx.needs_input_grad(0) ? times(grad, ctx.attributes.exponent) : Tensor(),
              ctx.needs_input_grad(1) ? times(grad.bmm(ctx.saved(1).transpose(1, 2)), alpha) : Tensor(),
              ctx.needs_input_grad(2) ? times(ctx.saved(0).transpose(1, 2).bmm(grad), alpha) : Tensor()};
    }});

// The (n, p) gradient is every batch's: expanded over the batches, then baddbmm's rule.
const RegisterDerivative addbmm_derivative("addbmm", {
    "AddbmmBackward0",
    [](SaveForBackward& save) {
      save.input(1);
      save.input(2);
    },
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& batch1 = ctx.saved(0);
      const Tensor& batch2 = ctx.saved(1);
      const Scalar& alpha = ctx.attributes.alpha;
      const Tensor grad = ctx.grad().unsqueeze(0).expand({batch1.size(0), batch1.size(1), batch2.size(2)});
      return {ctx.needs_input_grad(0) ? times(ctx.grad(), ctx.attributes.exponent) : Tensor(),
              ctx.needs_input_grad(1) ? times(grad.bmm(batch2.transpose(1, 2)), alpha) : Tensor(),
              ctx.needs_input_grad(2) ? times(batch1.transpose(1, 2).bmm(grad), alpha) : Tensor()};
    }});

OpHandle baddbmm_op("baddbmm"), addbmm_op("addbmm"), addmm_in_place_op("addmm");
}  // namespace

Tensor Tensor::baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) const {
  Tensor result = baddbmm_kernel(*this, batch1, batch2, beta, alpha);
  record_op(baddbmm_op, {*this, batch1, batch2}, {result}, beta_alpha(beta, alpha));
  return result;
}

Tensor& Tensor::baddbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) const {
  const Tensor result = baddbmm_kernel(*this, batch1, batch2, beta, alpha);
  write_in_place(*this, result, baddbmm_op, {*this, batch1, batch2}, beta_alpha(beta, alpha));
  return const_cast<Tensor&>(*this);
}

Tensor Tensor::addbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) const {
  Tensor result = addbmm_kernel(*this, batch1, batch2, beta, alpha);
  record_op(addbmm_op, {*this, batch1, batch2}, {result}, beta_alpha(beta, alpha));
  return result;
}

Tensor& Tensor::addbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) const {
  const Tensor result = addbmm_kernel(*this, batch1, batch2, beta, alpha);
  write_in_place(*this, result, addbmm_op, {*this, batch1, batch2}, beta_alpha(beta, alpha));
  return const_cast<Tensor&>(*this);
}

// addmm's declaration (linalg.cpp, AddmmBackward0) serves its in-place form too.
Tensor& Tensor::addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) const {
  Tensor result;
  {
    NoGradGuard kernel_only;
    result = tinytorch::addmm(*this, mat1, mat2, beta, alpha);
  }
  write_in_place(*this, result, addmm_in_place_op, {*this, mat1, mat2}, beta_alpha(beta, alpha));
  return const_cast<Tensor&>(*this);
}

// ---- trace ----

Tensor Tensor::trace() const {
  TT_CHECK(dim() == 2, "trace: expected a matrix, but got tensor with dim ", dim());
  TT_CHECK(scalar_type() != kBool, "\"trace\" not implemented for 'Bool'");
  Tensor result;
  {
    NoGradGuard kernel_only;
    const int64_t n = std::min(size(0), size(1));
    result = n == 0 ? zeros({}, isIntegralType(scalar_type(), true) ? kLong : scalar_type())
                    : diagonal(0, 0, 1).sum();
  }
  static OpHandle trace_op("trace");
  record_op(trace_op, {*this}, {result});
  return result;
}

namespace {
// The scalar gradient on the diagonal, zero elsewhere.
const RegisterDerivative trace_derivative("trace", {
    "TraceBackward0", [](SaveForBackward& save) { save.input_sizes(0); },
    [](const BackwardContext& ctx) -> tensor_list {
      const IntArrayRef sizes = ctx.saved_sizes(0);
      const Tensor& grad = ctx.grad();
      const Tensor on_diagonal = arange(sizes[0], kLong).unsqueeze(1).eq(arange(sizes[1], kLong).unsqueeze(0));
      return {on_diagonal.to(grad.scalar_type()) * grad};
    }});
}  // namespace

// ---- cross ----

namespace {
// a x b along d: (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0), with differentiable ops.
Tensor cross_components(const Tensor& a, const Tensor& b, int64_t d) {
  const auto part = [d](const Tensor& t, int64_t i) { return t.narrow(d, i, 1); };
  return cat({part(a, 1) * part(b, 2) - part(a, 2) * part(b, 1), part(a, 2) * part(b, 0) - part(a, 0) * part(b, 2),
              part(a, 0) * part(b, 1) - part(a, 1) * part(b, 0)},
             d);
}
const RegisterDerivative cross_derivative("linalg_cross", {
    "LinalgCrossBackward0", save_both_inputs,
    [](const BackwardContext& ctx) -> tensor_list {
      const Tensor& grad = ctx.grad();
      const int64_t d = ctx.attributes.dim;
      return {ctx.needs_input_grad(0) ? cross_components(ctx.saved(1), grad, d) : Tensor(),
              ctx.needs_input_grad(1) ? cross_components(grad, ctx.saved(0), d) : Tensor()};
    }});
}  // namespace

Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  TT_CHECK(self.dim() == other.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  TT_CHECK(self.size(d) == 3 && other.size(d) == 3, "linalg.cross: inputs dimension ", d,
           " must have length 3. Got ", self.size(d), " and ", other.size(d));
  const std::vector<int64_t> shape = infer_size(self.sizes(), other.sizes());
  Tensor result;
  {
    NoGradGuard kernel_only;
    const ScalarType dtype = result_type(self, other);
    result = cross_components(self.to(dtype).expand(shape), other.to(dtype).expand(shape), d).contiguous();
  }
  OpAttributes attributes;
  attributes.dim = d;
  static OpHandle linalg_cross_op("linalg_cross");
  record_op(linalg_cross_op, {self, other}, {result}, attributes);
  return result;
}

// Without a dim, the first dim of size 3 (LibTorch 1.13's deprecated default).
Tensor Tensor::cross(const Tensor& other, std::optional<int64_t> dim) const {
  if (dim) return linalg_cross(*this, other, *dim);
  for (int64_t d = 0; d < this->dim(); ++d) {
    if (size(d) == 3) return linalg_cross(*this, other, d);
  }
  throw Error("no dimension of size 3 in input");
}

// ---- matrix_power (negative powers through linalg_inv, src/01_tensor/linalg_more.cpp) ----
Tensor linalg_matrix_power(const Tensor& self, int64_t n) {
  TT_CHECK(self.dim() >= 2, "linalg.matrix_power: The input tensor A must have at least 2 dimensions.");
  TT_CHECK(self.size(-1) == self.size(-2), "linalg.matrix_power: A must be batches of square matrices, but they are ",
           self.size(-2), " by ", self.size(-1), " matrices");
  if (n == 0) {
    NoGradGuard constant;
    return eye(self.size(-1), self.scalar_type()).expand(self.sizes()).contiguous();
  }
  if (n < 0) return linalg_matrix_power(linalg_inv(self), -n);
  if (n == 1) return self.clone();
  if (n == 2) return self.matmul(self);
  if (n == 3) return self.matmul(self).matmul(self);
  // Binary decomposition of n from its lowest bit, as LibTorch multiplies (same rounding).
  Tensor z, result;
  while (n > 0) {
    const bool bit = n % 2 == 1;
    n /= 2;
    z = z.defined() ? z.matmul(z) : self;
    if (bit) result = result.defined() ? result.matmul(z) : z;
  }
  return result;
}

Tensor Tensor::matrix_power(int64_t n) const { return linalg_matrix_power(*this, n); }

// ---- kron ----

// (a0 b0, a1 b1, ...): self's dims interleaved with other's (size-1 dims pad the shorter), multiplied
// by broadcasting, then merged pairwise.
Tensor Tensor::kron(const Tensor& other) const {
  const int64_t rank = std::max(dim(), other.dim());
  std::vector<int64_t> a_sizes(rank, 1), b_sizes(rank, 1);
  for (int64_t k = 0; k < dim(); ++k) a_sizes[rank - dim() + k] = size(k);
  for (int64_t k = 0; k < other.dim(); ++k) b_sizes[rank - other.dim() + k] = other.size(k);
  std::vector<int64_t> a_view, b_view, result_sizes;
  for (int64_t k = 0; k < rank; ++k) {
    a_view.insert(a_view.end(), {a_sizes[k], 1});
    b_view.insert(b_view.end(), {1, b_sizes[k]});
    result_sizes.push_back(a_sizes[k] * b_sizes[k]);
  }
  return _unsafe_view(reshape(a_view) * other.reshape(b_view), result_sizes);
}

// ---- tensordot ----

Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self, IntArrayRef dims_other) {
  TT_CHECK(dims_self.size() == dims_other.size(), "both dimension lists should have same length");
  std::vector<bool> contracted_self(self.dim(), false), contracted_other(other.dim(), false);
  std::vector<int64_t> order_self, order_other;  // contracted dims, in pairing order
  int64_t contracted_size = 1;
  for (size_t i = 0; i < dims_self.size(); ++i) {
    const int64_t a = maybe_wrap_dim(dims_self[i], self.dim());
    const int64_t b = maybe_wrap_dim(dims_other[i], other.dim());
    TT_CHECK(self.size(a) == other.size(b), "contracted dimensions need to match, but first has size ", self.size(a),
             " in dim ", a, " and second has size ", other.size(b), " in dim ", b);
    contracted_self[a] = contracted_other[b] = true;
    order_self.push_back(a);
    order_other.push_back(b);
    contracted_size *= self.size(a);
  }
  std::vector<int64_t> permutation_self, permutation_other, result_sizes;
  int64_t free_self = 1, free_other = 1;
  for (int64_t k = 0; k < self.dim(); ++k) {
    if (contracted_self[k]) continue;
    permutation_self.push_back(k);
    result_sizes.push_back(self.size(k));
    free_self *= self.size(k);
  }
  permutation_self.insert(permutation_self.end(), order_self.begin(), order_self.end());
  permutation_other = order_other;
  for (int64_t k = 0; k < other.dim(); ++k) {
    if (contracted_other[k]) continue;
    permutation_other.push_back(k);
    result_sizes.push_back(other.size(k));
    free_other *= other.size(k);
  }
  const Tensor a = self.permute(permutation_self).reshape({free_self, contracted_size});
  const Tensor b = other.permute(permutation_other).reshape({contracted_size, free_other});
  return a.mm(b).reshape(result_sizes);
}

// ---- einsum ----

namespace {
constexpr int kLabels = 52;  // A-Z then a-z: LibTorch's order for the implicit output
int label_index(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c - 'a' + 26; }
bool is_label(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
constexpr int kEllipsis = -1;

// The subscripts of one side: per operand, its labels in order (kEllipsis where "..." is).
struct Subscripts {
  std::vector<std::vector<int>> operands;
};

// left and right of the same rank: their product summed over sum_dims (kept as size 1), through bmm
// (LibTorch's sumproduct_pair). Dims where only one side is > 1 are summed on that side first.
Tensor sumproduct_pair(Tensor left, Tensor right, const std::vector<bool>& is_sum_dim) {
  const int64_t rank = left.dim();
  std::vector<int64_t> batch, left_only, right_only, summed;
  int64_t batch_size = 1, left_size = 1, right_size = 1, sum_size = 1;
  for (int64_t k = 0; k < rank; ++k) {
    const bool in_left = left.size(k) > 1, in_right = right.size(k) > 1;
    if (is_sum_dim[k]) {
      if (in_left && in_right) {
        sum_size *= left.size(k);
      } else if (in_left) {
        left = left.sum(IntArrayRef(k), true);
      } else if (in_right) {
        right = right.sum(IntArrayRef(k), true);
      }
      summed.push_back(k);
    } else if (in_left && in_right) {
      batch.push_back(k);
      batch_size *= left.size(k);
    } else if (in_left) {
      left_only.push_back(k);
      left_size *= left.size(k);
    } else {
      right_only.push_back(k);
      right_size *= right.size(k);
    }
  }
  if (summed.empty() || sum_size == 1) return left * right;  // nothing to contract: a broadcast product
  // Every dim goes into both permutations: the other side's own dims have size 1 there.
  std::vector<int64_t> left_order = batch, right_order = batch, out_sizes, out_order;
  left_order.insert(left_order.end(), left_only.begin(), left_only.end());
  left_order.insert(left_order.end(), summed.begin(), summed.end());
  left_order.insert(left_order.end(), right_only.begin(), right_only.end());
  right_order.insert(right_order.end(), summed.begin(), summed.end());
  right_order.insert(right_order.end(), right_only.begin(), right_only.end());
  right_order.insert(right_order.end(), left_only.begin(), left_only.end());
  for (int64_t k : batch) out_sizes.push_back(left.size(k));
  for (int64_t k : left_only) out_sizes.push_back(left.size(k));
  for (size_t k = 0; k < summed.size(); ++k) out_sizes.push_back(1);
  for (int64_t k : right_only) out_sizes.push_back(right.size(k));
  out_order = batch;
  out_order.insert(out_order.end(), left_only.begin(), left_only.end());
  out_order.insert(out_order.end(), summed.begin(), summed.end());
  out_order.insert(out_order.end(), right_only.begin(), right_only.end());
  const ScalarType dtype = promoteTypes(left.scalar_type(), right.scalar_type());
  const Tensor a = left.to(dtype).permute(left_order).reshape({batch_size, left_size, sum_size});
  const Tensor b = right.to(dtype).permute(right_order).reshape({batch_size, sum_size, right_size});
  const Tensor product = a.bmm(b).view(out_sizes);
  std::vector<int64_t> inverse(rank);
  for (int64_t k = 0; k < rank; ++k) inverse[out_order[k]] = k;
  return product.permute(inverse);
}
}  // namespace

Tensor einsum(std::string_view equation, TensorList tensors, OptionalIntArrayRef /*path*/) {
  TT_CHECK(!tensors.empty(), "einsum(): must provide at least one operand");
  const size_t arrow = equation.find("->");
  const size_t lhs_end = arrow == std::string_view::npos ? equation.size() : arrow;
  const auto invalid = [](size_t i) {
    return Error(detail::str("einsum(): invalid subscript given at index ", i,
                             " in the equation string, subscripts must be in [a-zA-Z]"));
  };

  // ---- parse the operands' subscripts ----
  std::vector<std::vector<int>> operands(1);
  for (size_t i = 0; i < lhs_end; ++i) {
    const char c = equation[i];
    const size_t op = operands.size() - 1;
    if (c == ' ') continue;
    if (c == ',') {
      TT_CHECK(operands.size() < tensors.size(), "einsum(): fewer operands were provided than specified in the equation");
      operands.emplace_back();
    } else if (c == '.') {
      const bool has_ellipsis = std::find(operands[op].begin(), operands[op].end(), kEllipsis) != operands[op].end();
      TT_CHECK(!has_ellipsis, "einsum(): found '.' for operand ", op, " for which an ellipsis was already found");
      TT_CHECK(i + 2 < lhs_end && equation[i + 1] == '.' && equation[i + 2] == '.', "einsum(): found '.' for operand ",
               op, " that is not part of any ellipsis");
      operands[op].push_back(kEllipsis);
      i += 2;
    } else if (is_label(c)) {
      operands[op].push_back(label_index(c));
    } else {
      throw invalid(i);
    }
  }
  TT_CHECK(operands.size() == tensors.size(), operands.size() < tensors.size()
                                                   ? "einsum(): more operands were provided than specified in the equation"
                                                   : "einsum(): fewer operands were provided than specified in the equation");

  // ---- check ranks; how many dims "..." stands for ----
  int64_t ellipsis_dims = 0;
  std::array<int64_t, kLabels> label_count{};
  for (size_t op = 0; op < operands.size(); ++op) {
    const bool has_ellipsis = std::find(operands[op].begin(), operands[op].end(), kEllipsis) != operands[op].end();
    const int64_t labels = static_cast<int64_t>(operands[op].size()) - (has_ellipsis ? 1 : 0);
    if (has_ellipsis) {
      TT_CHECK(labels <= tensors[op].dim(), "einsum(): the number of subscripts in the equation (", labels,
               ") is more than the number of dimensions (", tensors[op].dim(), ") for operand ", op);
      ellipsis_dims = std::max(ellipsis_dims, tensors[op].dim() - labels);
    } else {
      TT_CHECK(labels == tensors[op].dim(), "einsum(): the number of subscripts in the equation (", labels,
               ") does not match the number of dimensions (", tensors[op].dim(), ") for operand ", op,
               " and no ellipsis was given");
    }
    for (int label : operands[op]) {
      if (label != kEllipsis) ++label_count[label];
    }
  }

  // ---- the output: its dims first (global ids: labels 0..51, ellipsis dims 52 + k), then the summed ----
  std::vector<int> output;  // global ids
  const auto ellipsis_id = [](int64_t k) { return kLabels + static_cast<int>(k); };
  bool output_has_ellipsis = false;
  if (arrow != std::string_view::npos) {
    for (size_t i = arrow + 2; i < equation.size(); ++i) {
      const char c = equation[i];
      if (c == ' ') continue;
      if (c == '.') {
        TT_CHECK(!output_has_ellipsis, "einsum(): found '.' for output but an ellipsis (...) was already found");
        TT_CHECK(i + 2 < equation.size() && equation[i + 1] == '.' && equation[i + 2] == '.',
                 "einsum(): found '.' for output that is not part of any ellipsis (...)");
        for (int64_t k = 0; k < ellipsis_dims; ++k) output.push_back(ellipsis_id(k));
        output_has_ellipsis = true;
        i += 2;
      } else if (is_label(c)) {
        const int label = label_index(c);
        TT_CHECK(label_count[label] > 0, "einsum(): output subscript ", c,
                 " does not appear in the equation for any input operand");
        TT_CHECK(std::find(output.begin(), output.end(), label) == output.end(), "einsum(): output subscript ", c,
                 " appears more than once in the output");
        output.push_back(label);
      } else {
        throw invalid(i);
      }
    }
  } else {
    for (int64_t k = 0; k < ellipsis_dims; ++k) output.push_back(ellipsis_id(k));
    for (int label = 0; label < kLabels; ++label) {
      if (label_count[label] == 1) output.push_back(label);
    }
  }
  std::vector<int> all_ids = output;
  const size_t output_rank = output.size();
  for (int64_t k = 0; k < ellipsis_dims; ++k) {
    if (std::find(output.begin(), output.end(), ellipsis_id(k)) == output.end()) all_ids.push_back(ellipsis_id(k));
  }
  for (int label = 0; label < kLabels; ++label) {
    if (label_count[label] > 0 && std::find(output.begin(), output.end(), label) == output.end()) {
      all_ids.push_back(label);
    }
  }
  const int64_t rank = static_cast<int64_t>(all_ids.size());

  // ---- each operand: diagonals of repeated labels, then permuted to all_ids with size-1 dims ----
  std::vector<Tensor> aligned;
  std::vector<std::vector<bool>> present(operands.size(), std::vector<bool>(rank, false));
  std::vector<int64_t> seen_sizes(rank, 1);
  for (size_t op = 0; op < operands.size(); ++op) {
    Tensor t = tensors[op];
    std::vector<int> ids;  // global id of each dim of t
    for (int label : operands[op]) {
      if (label != kEllipsis) {
        ids.push_back(label);
        continue;
      }
      const int64_t covered = t.dim() - (static_cast<int64_t>(operands[op].size()) - 1);
      for (int64_t k = 0; k < covered; ++k) ids.push_back(ellipsis_id(ellipsis_dims - covered + k));
    }
    for (bool merged = true; merged;) {  // a repeated label takes the diagonal of its two dims
      merged = false;
      for (size_t p = 0; p < ids.size() && !merged; ++p) {
        for (size_t q = p + 1; q < ids.size() && !merged; ++q) {
          if (ids[p] != ids[q]) continue;
          TT_CHECK(t.size(p) == t.size(q), "einsum(): subscript ", static_cast<char>(ids[p] < 26 ? 'A' + ids[p] : 'a' + ids[p] - 26),
                   " is repeated for operand ", op, " but the sizes don't match, ", t.size(p), " != ", t.size(q));
          t = t.diagonal(0, static_cast<int64_t>(p), static_cast<int64_t>(q));
          const int id = ids[p];
          ids.erase(ids.begin() + q);
          ids.erase(ids.begin() + p);
          ids.push_back(id);
          merged = true;
        }
      }
    }
    std::vector<int64_t> order;
    for (int id : all_ids) {
      const auto found = std::find(ids.begin(), ids.end(), id);
      if (found != ids.end()) order.push_back(found - ids.begin());
    }
    t = t.permute(order);
    for (int64_t g = 0; g < rank; ++g) {
      const auto found = std::find(ids.begin(), ids.end(), all_ids[g]);
      if (found == ids.end()) {
        t = t.unsqueeze(g);
        continue;
      }
      present[op][g] = true;
      const int64_t size = t.size(g);
      if (size != 1 && seen_sizes[g] != 1) {
        if (all_ids[g] < kLabels) {
          TT_CHECK(size == seen_sizes[g], "einsum(): subscript ",
                   static_cast<char>(all_ids[g] < 26 ? 'A' + all_ids[g] : 'a' + all_ids[g] - 26), " has size ", size,
                   " for operand ", op, " which does not broadcast with previously seen size ", seen_sizes[g]);
        } else {
          TT_CHECK(size == seen_sizes[g], "einsum(): operands do not broadcast with remapped shapes");
        }
      }
      if (size != 1) seen_sizes[g] = size;
    }
    aligned.push_back(t);
  }

  // ---- contract left to right; a summed dim goes once no later operand has it ----
  const auto is_summed = [&](int64_t g) { return g >= static_cast<int64_t>(output_rank); };
  Tensor result = aligned[0];
  std::vector<bool> result_present = present[0];
  if (aligned.size() == 1) {
    std::vector<int64_t> summed;
    for (int64_t g = 0; g < rank; ++g) {
      if (is_summed(g)) summed.push_back(g);
    }
    if (!summed.empty()) result = result.sum(summed, true);
  }
  for (size_t op = 1; op < aligned.size(); ++op) {
    std::vector<bool> sum_now(rank, false);
    for (int64_t g = 0; g < rank; ++g) {
      if (!is_summed(g) || !(result_present[g] || present[op][g])) continue;
      bool later = false;
      for (size_t next = op + 1; next < aligned.size(); ++next) later = later || present[next][g];
      sum_now[g] = !later;
    }
    result = sumproduct_pair(result, aligned[op], sum_now);
    for (int64_t g = 0; g < rank; ++g) {
      result_present[g] = (result_present[g] || present[op][g]) && !sum_now[g];
    }
  }
  // Output dims a broadcast left at size 1 keep their full size, as LibTorch's result does.
  std::vector<int64_t> out_sizes;
  for (size_t g = 0; g < output_rank; ++g) out_sizes.push_back(seen_sizes[g]);
  for (int64_t g = rank - 1; g >= static_cast<int64_t>(output_rank); --g) result = result.squeeze(g);
  if (!result.sizes().equals(out_sizes)) result = result.expand(out_sizes);
  return result;
}

// ---- chain_matmul, multi_dot ----

Tensor linalg_multi_dot(TensorList tensors) {
  const size_t n = tensors.size();
  TT_CHECK(n >= 2, "multi_dot(): expected at least 2 tensors but got ", n);
  const int64_t first_dim = tensors[0].dim(), last_dim = tensors[n - 1].dim();
  TT_CHECK(first_dim == 1 || first_dim == 2, "multi_dot(): the first tensor must be 1D or 2D but got ", first_dim, "D");
  TT_CHECK(last_dim == 1 || last_dim == 2, "multi_dot(): the last tensor must be 1D or 2D but got ", last_dim, "D");
  for (size_t i = 1; i + 1 < n; ++i) {
    TT_CHECK(tensors[i].dim() == 2, "multi_dot(): tensor ", i, " must be 2D but got ", tensors[i].dim(), "D");
  }
  std::vector<Tensor> matrices(tensors.begin(), tensors.end());
  if (first_dim == 1) matrices[0] = matrices[0].unsqueeze(0);
  if (last_dim == 1) matrices[n - 1] = matrices[n - 1].unsqueeze(1);
  for (size_t i = 1; i < n; ++i) {
    TT_CHECK(matrices[i].scalar_type() == matrices[0].scalar_type(),
             "multi_dot(): all tensors must have be the same dtype but tensor 0 is ",
             toString(matrices[0].scalar_type()), " and tensor ", i, " is ", toString(matrices[i].scalar_type()));
    TT_CHECK(matrices[i - 1].size(1) == matrices[i].size(0), "multi_dot(): tensors ", i - 1, " and ", i,
             " with shapes ", tensors[i - 1].sizes(), " and ", tensors[i].sizes(), " cannot be multiplied");
  }
  // The cheapest parenthesisation (the matrix-chain dynamic programme over the dims p0..pn).
  std::vector<int64_t> p{matrices[0].size(0)};
  for (const Tensor& m : matrices) p.push_back(m.size(1));
  std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0));
  std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
  for (size_t length = 1; length < n; ++length) {
    for (size_t i = 0; i + length < n; ++i) {
      const size_t j = i + length;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (size_t k = i; k < j; ++k) {
        const double c = cost[i][k] + cost[k + 1][j] + static_cast<double>(p[i]) * p[k + 1] * p[j + 1];
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = k;
        }
      }
    }
  }
  const std::function<Tensor(size_t, size_t)> product = [&](size_t i, size_t j) -> Tensor {
    if (i == j) return matrices[i];
    return product(i, split[i][j]).mm(product(split[i][j] + 1, j));
  };
  Tensor result = product(0, n - 1);
  if (first_dim == 1 && last_dim == 1) return result.view({});
  if (first_dim == 1) return result.view({result.size(1)});
  if (last_dim == 1) return result.view({result.size(0)});
  return result;
}

Tensor chain_matmul(TensorList matrices) {
  TT_CHECK(!matrices.empty(), "chain_matmul(): Expected one or more matrices");
  for (const Tensor& m : matrices) {
    TT_CHECK(m.dim() == 2, "Tensor dimension is ", m.dim(), ", expected 2 instead.");
  }
  if (matrices.size() == 1) return matrices[0].clone();
  return linalg_multi_dot(matrices);
}

}  // namespace tinytorch
