// Factories: empty/zeros/ones/full, ranges, eye, *_like, from_blob and torch::tensor().
#include <cmath>

#include "internal.h"
#include "tinytorch/from_blob.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace {

// Factories accept requires_grad(true) only once a gradient engine exists (module 06).
Tensor finish(Tensor t, const TensorOptions& options) {
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

void check_sizes(IntArrayRef size) {
  for (int64_t s : size) {
    TT_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", size);
  }
}

// The dtype a number gets when it alone decides: bool -> kBool, integer -> kLong, floating -> kFloat.
ScalarType dtype_of(const Scalar& value) {
  if (value.isBoolean()) return kBool;
  if (value.isIntegral(false)) return kLong;
  return default_dtype();
}

// Writes value(i) into element i of a fresh contiguous tensor t.
template <typename Fn>
void fill_contiguous(const Tensor& t, Fn value) {
  TT_DISPATCH_STORAGE_TYPES(t.scalar_type(), "fill", [&] {
    scalar_t* data = static_cast<scalar_t*>(t.data_ptr());
    for (int64_t i = 0; i < t.numel(); ++i) data[i] = static_cast<scalar_t>(value(i));
  });
}

}  // namespace

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options) {
  check_sizes(size);
  TT_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
           ") must match dimensionality of strides (", stride.size(), ")");
  const ScalarType dtype = options.dtype().toScalarType();
  // The storage must reach the farthest element: 1 + sum((size - 1) * stride).
  int64_t extent = product(size) == 0 ? 0 : 1;
  for (size_t d = 0; d < size.size() && extent > 0; ++d) extent += (size[d] - 1) * stride[d];
  if (!options.device().is_cpu()) {  // device memory comes from the device's caching allocator (module 22)
    Tensor block = device_kernel_on<Tensor(int64_t, ScalarType, const Device&)>("empty", options.device())(
        extent, dtype, options.device());
    Tensor t(std::make_shared<TensorImpl>(block.storage(), dtype, size.vec(), stride.vec(), 0));
    return finish(t, options);
  }
  auto storage = Storage(StorageImpl::allocate(static_cast<size_t>(extent * elementSize(dtype))));
  Tensor t(std::make_shared<TensorImpl>(storage, dtype, size.vec(), stride.vec(), 0));
  return finish(t, options);
}

Tensor empty(IntArrayRef size, TensorOptions options) {
  check_sizes(size);
  return empty_strided(size, contiguous_strides(size), options);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, TensorOptions options) {
  if (!options.has_dtype()) options = options.dtype(dtype_of(fill_value));
  Tensor t = empty(size, options.requires_grad(false));
  detail::fill_contiguous_with(t, fill_value);
  return finish(t, options);
}

Tensor zeros(IntArrayRef size, TensorOptions options) {
  return full(size, 0, options.dtype(options.dtype()));
}
Tensor ones(IntArrayRef size, TensorOptions options) {
  return full(size, 1, options.dtype(options.dtype()));
}
Tensor scalar_tensor(const Scalar& value, TensorOptions options) { return full({}, value, options); }

Tensor arange(const Scalar& end, TensorOptions options) { return arange(0, end, 1, options); }
Tensor arange(const Scalar& start, const Scalar& end, TensorOptions options) {
  return arange(start, end, 1, options);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const bool any_floating = start.isFloatingPoint() || end.isFloatingPoint() || step.isFloatingPoint();
  if (!options.has_dtype()) options = options.dtype(any_floating ? default_dtype() : kLong);
  const double xstart = start.toDouble(), xend = end.toDouble(), xstep = step.toDouble();
  TT_CHECK(xstep != 0, "step must be nonzero");
  TT_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
           "upper bound and larger bound inconsistent with step sign");
  const auto length = static_cast<int64_t>(std::ceil((xend - xstart) / xstep));
  Tensor t = empty({length}, options.requires_grad(false));
  if (any_floating) {
    fill_contiguous(t, [&](int64_t i) { return xstart + static_cast<double>(i) * xstep; });
  } else {
    const int64_t istart = start.toLong(), istep = step.toLong();
    fill_contiguous(t, [&](int64_t i) { return istart + i * istep; });
  }
  return finish(t, options);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options) {
  TT_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor t = empty({steps}, options.requires_grad(false));
  const double a = start.toDouble(), b = end.toDouble();
  const double step = steps > 1 ? (b - a) / static_cast<double>(steps - 1) : 0.0;
  // Like LibTorch, the second half is computed from the end so that the last value is exactly `end`;
  // a single step is `start` (LibTorch's linspace(a, b, 1) is [a]).
  fill_contiguous(t, [&](int64_t i) {
    if (steps == 1) return a;
    return i < steps / 2 ? a + step * static_cast<double>(i) : b - step * static_cast<double>(steps - 1 - i);
  });
  return finish(t, options);
}

Tensor eye(int64_t n, TensorOptions options) { return eye(n, n, options); }

Tensor eye(int64_t n, int64_t m, TensorOptions options) {
  TT_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TT_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  Tensor t = zeros({n, m}, options.requires_grad(false));
  fill_contiguous(t, [&](int64_t i) { return (i / m == i % m) ? 1 : 0; });
  return finish(t, options);
}

Tensor zeros_like(const Tensor& self, TensorOptions options) { return empty_like(self, options).fill_(0); }
Tensor ones_like(const Tensor& self, TensorOptions options) { return empty_like(self, options).fill_(1); }
Tensor full_like(const Tensor& self, const Scalar& fill_value, TensorOptions options) {
  return empty_like(self, options).fill_(fill_value);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_sizes(sizes);
  TT_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  const ScalarType dtype = options.dtype().toScalarType();
  int64_t extent = product(sizes) == 0 ? 0 : 1;
  for (size_t d = 0; d < sizes.size() && extent > 0; ++d) extent += (sizes[d] - 1) * strides[d];
  // No deleter: the caller owns the memory; the storage only borrows it.
  auto storage = Storage(std::make_shared<StorageImpl>(data, static_cast<size_t>(extent * elementSize(dtype)),
                                                       StorageImpl::Deleter()));
  return finish(Tensor(std::make_shared<TensorImpl>(storage, dtype, sizes.vec(), strides.vec(), 0)), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options) {
  return from_blob(data, sizes, contiguous_strides(sizes), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter, TensorOptions options) {
  check_sizes(sizes);
  const ScalarType dtype = options.dtype().toScalarType();
  auto storage = Storage(
      std::make_shared<StorageImpl>(data, static_cast<size_t>(product(sizes) * elementSize(dtype)), deleter));
  return finish(Tensor(std::make_shared<TensorImpl>(storage, dtype, sizes.vec(), contiguous_strides(sizes), 0)),
                options);
}

// ---- torch::tensor ----

TensorDataContainer::TensorDataContainer(std::initializer_list<TensorDataContainer> nested) {
  if (nested.size() == 0) {  // tensor({}) is an empty 1-D float tensor
    sizes_ = {0};
    type_ = kDouble;
    return;
  }
  const TensorDataContainer& first = *nested.begin();
  type_ = first.type_;
  sizes_.push_back(static_cast<int64_t>(nested.size()));
  sizes_.insert(sizes_.end(), first.sizes_.begin(), first.sizes_.end());
  for (const TensorDataContainer& element : nested) {
    TT_CHECK(element.type_ == type_, "Expected all elements of the tensor to have the same scalar type: ",
             toString(type_), ", but got element of scalar type: ", toString(element.type_));
    TT_CHECK(IntArrayRef(element.sizes_).equals(first.sizes_), "Expected all sub-lists to have sizes: ",
             IntArrayRef(first.sizes_), ", but got sub-list with sizes: ", IntArrayRef(element.sizes_));
    values_.insert(values_.end(), element.values_.begin(), element.values_.end());
  }
}

Tensor TensorDataContainer::convert_to_tensor(TensorOptions options) const {
  if (!options.has_dtype()) options = options.dtype(type_ == kDouble ? default_dtype() : type_);
  Tensor t = empty(sizes_, options.requires_grad(false));
  TT_DISPATCH_STORAGE_TYPES(t.scalar_type(), "tensor", [&] {
    scalar_t* data = static_cast<scalar_t*>(t.data_ptr());
    for (size_t i = 0; i < values_.size(); ++i) {
      data[i] = values_[i].isFloatingPoint() ? static_cast<scalar_t>(values_[i].toDouble())
                                             : static_cast<scalar_t>(values_[i].toLong());
    }
  });
  return finish(t, options);
}

Tensor tensor(const TensorDataContainer& data, TensorOptions options) { return data.convert_to_tensor(options); }

}  // namespace tinytorch
