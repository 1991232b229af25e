// Copies and conversions: copy_, contiguous, clone, to, fill_, zero_.
// These are given code on purpose: the tests check the learner's results with them, so they must
// not depend on any learner-written function.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "internal.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// dst[i] = src[i] converted to dst's type, for every multi-index i of their (equal) sizes; each
// side is walked with its own strides, so either may be a non-contiguous view.
template <typename Dst, typename Src>
void copy_elements(const Tensor& dst, const Tensor& src) {
  if (dst.is_contiguous() && src.is_contiguous()) {
    // Both row-major without gaps: one straight pass (a memcpy when the types match).
    Dst* dst_data = static_cast<Dst*>(dst.data_ptr());
    const Src* src_data = static_cast<const Src*>(src.data_ptr());
    if constexpr (std::is_same_v<Dst, Src>) {
      std::memcpy(dst_data, src_data, static_cast<size_t>(dst.numel()) * sizeof(Dst));
    } else if constexpr (std::is_same_v<Src, bool>) {
      // A bool tensor's bytes are 0 or 1: read as uint8_t, the loop vectorises (GCC vectorises no
      // load of bool), which matters for ReLU's backward mask, grad * (out > 0).
      const auto* bytes = reinterpret_cast<const uint8_t*>(src_data);
      for (int64_t i = 0, n = dst.numel(); i < n; ++i) dst_data[i] = static_cast<Dst>(bytes[i]);
    } else {
      for (int64_t i = 0, n = dst.numel(); i < n; ++i) dst_data[i] = detail::convert<Dst>(src_data[i]);
    }
    return;
  }
  // Drop size-1 dims and merge neighbours that are one run of memory in both tensors (a (B, H, T, D)
  // view copied to contiguous becomes (B, H, T) rows of D), then copy row by row: the inner loop
  // has no index arithmetic, and is a memcpy where both rows are unit-strided and of one type.
  std::vector<int64_t> sizes, dst_strides, src_strides;
  for (int64_t d = 0; d < dst.dim(); ++d) {
    if (dst.size(d) == 1) continue;
    if (!sizes.empty() && dst_strides.back() == dst.size(d) * dst.stride(d) &&
        src_strides.back() == dst.size(d) * src.stride(d)) {
      sizes.back() *= dst.size(d);
      dst_strides.back() = dst.stride(d);
      src_strides.back() = src.stride(d);
      continue;
    }
    sizes.push_back(dst.size(d));
    dst_strides.push_back(dst.stride(d));
    src_strides.push_back(src.stride(d));
  }
  Dst* dst_data = static_cast<Dst*>(dst.data_ptr());
  const Src* src_data = static_cast<const Src*>(src.data_ptr());
  if (sizes.empty()) {  // one element
    dst_data[0] = detail::convert<Dst>(src_data[0]);
    return;
  }
  const int64_t outer_dims = static_cast<int64_t>(sizes.size()) - 1;
  const int64_t row = sizes.back(), dst_step = dst_strides.back(), src_step = src_strides.back();
  const int64_t rows = dst.numel() / row;
  std::vector<int64_t> index(outer_dims, 0);  // the outer multi-index, advanced like an odometer
  int64_t dst_offset = 0;
  int64_t src_offset = 0;
  for (int64_t r = 0; r < rows; ++r) {
    Dst* out = dst_data + dst_offset;
    const Src* in = src_data + src_offset;
    if (std::is_same_v<Dst, Src> && dst_step == 1 && src_step == 1) {
      std::memcpy(out, in, static_cast<size_t>(row) * sizeof(Dst));
    } else {
      for (int64_t k = 0; k < row; ++k) out[k * dst_step] = detail::convert<Dst>(in[k * src_step]);
    }
    for (int64_t d = outer_dims - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) {
        dst_offset += dst_strides[d];
        src_offset += src_strides[d];
        break;
      }
      // This dim wrapped around: rewind it and carry into the next one.
      dst_offset -= (sizes[d] - 1) * dst_strides[d];
      src_offset -= (sizes[d] - 1) * src_strides[d];
      index[d] = 0;
    }
  }
}

void copy_same_shape(const Tensor& dst, const Tensor& src) {
  if (on_device(dst, src)) {  // to, from or on a device: module 22's copies (tinytorch/dispatch.h)
    const Device device = dst.is_cpu() ? src.device() : dst.device();  // a copy may cross devices
    device_kernel_on<void(const Tensor&, const Tensor&)>("copy_", device)(dst, src);
    return;
  }
  TT_DISPATCH_STORAGE_TYPES(dst.scalar_type(), "copy_", [&] {
    using dst_t = scalar_t;
    TT_DISPATCH_STORAGE_TYPES(src.scalar_type(), "copy_", [&] { copy_elements<dst_t, scalar_t>(dst, src); });
  });
}

// LibTorch's broadcast message for a src that cannot be broadcast to dst's sizes.
void check_broadcastable_to(IntArrayRef src, IntArrayRef dst) {
  const int64_t ndim = std::max(src.size(), dst.size());
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t offset = ndim - 1 - i;
    const int64_t dim_dst = static_cast<int64_t>(dst.size()) - 1 - offset;
    const int64_t dim_src = static_cast<int64_t>(src.size()) - 1 - offset;
    const int64_t size_dst = dim_dst >= 0 ? dst[dim_dst] : 1;
    const int64_t size_src = dim_src >= 0 ? src[dim_src] : 1;
    TT_CHECK(size_dst == size_src || size_src == 1, "The size of tensor a (", size_dst,
             ") must match the size of tensor b (", size_src, ") at non-singleton dimension ", i);
  }
}

// True when the elements fill a block of memory exactly once in some dim order (a permuted
// contiguous tensor), so that a copy may keep the same strides.
bool is_non_overlapping_and_dense(const Tensor& t) {
  std::vector<int64_t> order(t.dim());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return t.stride(a) < t.stride(b); });
  int64_t expected = 1;
  for (int64_t d : order) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

}  // namespace

namespace detail {
void check_no_internal_overlap(const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    TT_CHECK(!(t.size(d) > 1 && t.stride(d) == 0),
             "unsupported operation: more than one element of the written-to tensor refers to a single memory "
             "location. Please clone() the tensor before performing the operation.");
  }
}

ScalarType computation_type(ScalarType dtype) {
  switch (dtype) {
    case kByte:
    case kChar:
    case kShort:
    case kInt:
      return kLong;
    case kHalf:
    case kBFloat16:
      return kFloat;
    default:
      return dtype;
  }
}
}  // namespace detail

void detail::fill_contiguous_with(const Tensor& t, const Scalar& value) {
  if (on_device(t)) {
    device_kernel<void(const Tensor&, const Scalar&)>("fill_", t)(t, value);
    return;
  }
  TT_DISPATCH_STORAGE_TYPES(t.scalar_type(), "fill_", [&] {
    const scalar_t converted = value.isIntegral(true) ? static_cast<scalar_t>(value.toLong())
                                                      : detail::convert<scalar_t>(value.toDouble());
    scalar_t* data = static_cast<scalar_t*>(t.data_ptr());
    std::fill(data, data + t.numel(), converted);
  });
}

void detail::copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() > 0) copy_same_shape(dst, src);
}

Tensor detail::as_dtype(const Tensor& t, ScalarType dtype) {
  if (t.scalar_type() == dtype) return t;
  Tensor result = empty_like(t, TensorOptions(dtype));
  copy_into(result, t);
  return result;
}

Tensor native::to_dtype(const Tensor& self, ScalarType dtype) { return detail::as_dtype(self, dtype); }

Tensor detail::as_contiguous(const Tensor& t, ScalarType dtype) {
  if (t.scalar_type() == dtype && t.is_contiguous()) return t;
  Tensor result = empty(t.sizes(), TensorOptions(dtype).device(t.device()));
  copy_into(result, t);
  return result;
}

Tensor detail::wrapped_scalar(const Scalar& value) {
  Tensor t = scalar_tensor(value, TensorOptions(value.type()));
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

Tensor& Tensor::copy_(const Tensor& src, bool /*non_blocking*/) {
  TT_CHECK(defined() && src.defined(), "copy_(): both tensors must be defined");
  check_broadcastable_to(src.sizes(), sizes());
  detail::check_no_internal_overlap(*this);
  static OpHandle copy_op("copy_");
  check_in_place(copy_op, {*this, src});
  if (numel() > 0) {
    // Broadcasting src to our sizes is a stride-0 view: no memory is copied to expand it.
    copy_same_shape(*this, detail::broadcast_view(src, sizes()));
  }
  record_in_place_op(copy_op, {*this, src});
  return *this;
}

namespace {
// self.copy_(src): self's old values no longer reach the output; src's do (the engine sums a
// broadcast src's gradient down and converts its dtype). LibTorch spells this node's name in full.
const RegisterDerivative copy_derivative("copy_", {
    "torch::autograd::CopyBackwards", nullptr,
    [](const BackwardContext& ctx) -> tensor_list {
      return {ctx.needs_input_grad(0) ? zeros_like(ctx.grad()) : Tensor(), ctx.grad()};
    }});
}  // namespace

Tensor empty_like(const Tensor& self, TensorOptions options) {
  ScalarType dtype = options.dtype_opt().value_or(self.scalar_type());
  if (!options.has_device() && !self.is_cpu()) options = options.device(self.device());
  if (self.dim() > 0 && is_non_overlapping_and_dense(self) && !self.is_contiguous()) {
    return empty_strided(self.sizes(), self.strides(), options.dtype(dtype));
  }
  return empty(self.sizes(), options.dtype(dtype));
}

Tensor Tensor::clone() const {
  Tensor result = empty_like(*this);
  if (numel() > 0) copy_same_shape(result, *this);
  static OpHandle clone_op("clone");
  record_op(clone_op, {*this}, {result});
  return result;
}

namespace {
tensor_list pass_gradient(const BackwardContext& ctx) { return {ctx.grad()}; }

const RegisterDerivative clone_derivative("clone", {"CloneBackward0", nullptr, pass_gradient});
}  // namespace

Tensor Tensor::contiguous() const {
  if (is_contiguous()) return *this;
  Tensor result = empty(sizes(), options());
  copy_same_shape(result, *this);
  static OpHandle contiguous_op("contiguous");
  record_op(contiguous_op, {*this}, {result});
  return result;
}

namespace {
// LibTorch's contiguous() is a clone() when it copies.
const RegisterDerivative contiguous_derivative("contiguous", {"CloneBackward0", nullptr, pass_gradient});
}  // namespace

Tensor Tensor::to(ScalarType dtype, bool /*non_blocking*/, bool copy) const {
  if (dtype == scalar_type() && !copy) return *this;  // LibTorch returns the same tensor
  Tensor result = empty_like(*this, TensorOptions(dtype));
  if (numel() > 0) copy_same_shape(result, *this);
  OpAttributes attributes;
  attributes.dtype = dtype;
  static OpHandle to_op("to");
  record_op(to_op, {*this}, {result}, attributes);
  return result;
}

namespace {
// The engine converts the gradient back to self's dtype.
const RegisterDerivative to_derivative("to", {"ToCopyBackward0", nullptr, pass_gradient});
}  // namespace

Tensor& Tensor::fill_(const Scalar& value) {
  detail::check_no_internal_overlap(*this);
  static OpHandle fill_op("fill_");
  check_in_place(fill_op, {*this});
  if (is_contiguous()) {
    detail::fill_contiguous_with(*this, value);
  } else if (numel() > 0) {
    copy_same_shape(*this, detail::broadcast_view(scalar_tensor(value, options()), sizes()));
  }
  OpAttributes attributes;
  attributes.alpha = value;
  record_in_place_op(fill_op, {*this}, attributes);
  return *this;
}

namespace {
// self.fill_(value): the old values are gone.
const RegisterDerivative fill_derivative("fill_", {
    "FillBackward2", nullptr,
    [](const BackwardContext& ctx) -> tensor_list { return {zeros_like(ctx.grad())}; }});
}  // namespace

Tensor& Tensor::zero_() { return fill_(0); }

}  // namespace tinytorch
