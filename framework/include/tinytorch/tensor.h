#pragma once
// Tensor: LibTorch's at::Tensor for TinyTorch. A Tensor is a cheap handle (one shared pointer) to a
// TensorImpl holding sizes, strides, a storage offset, a dtype and a shared Storage of bytes; copying
// a Tensor shares the data, exactly like LibTorch. Views (transpose, narrow, view...) are new
// TensorImpls over the same Storage.
//
// This header is included by every learner file, so it stays lean (no <iostream>, only <iosfwd>):
// the learner's edit-compile loop must stay fast.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tinytorch/int_array_ref.h"
#include "tinytorch/qscheme.h"
#include "tinytorch/scalar.h"
#include "tinytorch/scalar_type.h"
#include "tinytorch/tensor_options.h"

namespace tinytorch {

class TensorImpl;
class StorageImpl;
class Tensor;
using TensorList = ArrayRef<Tensor>;

namespace autograd {
// Defined by module 06 (Autograd). Module 01 only reserves the slots where they will live.
struct AutogradMeta;
class Node;
}  // namespace autograd

namespace indexing {
class TensorIndex;  // tinytorch/indexing.h: Slice, None, Ellipsis, integers
}  // namespace indexing

// A shared, reference-counted block of bytes (LibTorch's c10::Storage). Several tensors (views)
// may share one Storage; it is freed when the last of them goes away.
class Storage {
 public:
  Storage() = default;
  explicit Storage(std::shared_ptr<StorageImpl> impl) : impl_(std::move(impl)) {}

  size_t nbytes() const;
  void* data() const;
  bool is_alias_of(const Storage& other) const { return impl_ == other.impl_ && impl_ != nullptr; }
  long use_count() const { return impl_.use_count(); }
  StorageImpl* unsafeGetStorageImpl() const { return impl_.get(); }
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  std::shared_ptr<StorageImpl> impl_;
};

class Tensor {
 public:
  Tensor() = default;  // undefined: defined() is false, as in LibTorch
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & noexcept = default;
  // Assigning to a temporary writes through it, as LibTorch: `t[0] = 5;`, `t.select(1, 0) = other;`.
  Tensor& operator=(const Tensor& src) &&;
  Tensor& operator=(Tensor&& src) &&;
  Tensor& operator=(const Scalar& value) &&;

  // ---- Identity ----
  bool defined() const { return impl_ != nullptr; }
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }
  long use_count() const { return impl_.use_count(); }
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& getIntrusivePtr() const { return impl_; }

  // ---- Metadata ----
  IntArrayRef sizes() const;
  int64_t size(int64_t dim) const;  // negative dims count from the end
  IntArrayRef strides() const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const;
  int64_t ndimension() const { return dim(); }
  int64_t numel() const;
  int64_t storage_offset() const;
  TypeMeta dtype() const;
  ScalarType scalar_type() const;
  TensorOptions options() const;
  bool is_contiguous() const;
  bool is_floating_point() const { return isFloatingType(scalar_type()); }
  const Storage& storage() const;
  bool is_alias_of(const Tensor& other) const;
  std::string toString() const;  // "CPUFloatType"

  // ---- Systems numbers ----
  size_t nbytes() const;           // numel() * element_size(): what the elements would occupy
  int64_t element_size() const;    // bytes per element
  size_t itemsize() const { return static_cast<size_t>(element_size()); }
  // TinyTorch's teaching extension: the bytes of storage this tensor keeps alive (its whole
  // storage, even if it is a small view into it). Learner-written in module 01 (memory.cpp).
  int64_t memory_footprint() const;

  // ---- Element access ----
  // Pointer to the first element, checked against the dtype ("expected scalar type Float but found Long").
  template <typename T> T* data_ptr() const;
  void* data_ptr() const;
  Scalar item() const;  // the single element of a one-element tensor
  template <typename T> T item() const { return item().to<T>(); }

  // ---- Copies and conversions (never learner code: the tests' checks rely on them) ----
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(TypeMeta dtype, bool non_blocking = false, bool copy = false) const {
    return to(dtype.toScalarType(), non_blocking, copy);
  }
  // Devices (tinytorch/device.h): tensors live on the CPU; asking for CUDA fails as a CPU-only LibTorch does.
  Device device() const { return Device(DeviceType::CPU); }
  bool is_cpu() const { return true; }
  bool is_cuda() const { return false; }
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  Tensor cpu() const { return *this; }
  Tensor cuda() const;
  Tensor clone() const;
  Tensor contiguous() const;
  Tensor& copy_(const Tensor& src, bool non_blocking = false);
  Tensor& zero_();
  Tensor& fill_(const Scalar& value);
  // LibTorch's in-place methods are const (a Tensor is a handle): `x.grad().zero_()` compiles.
  const Tensor& zero_() const { return const_cast<Tensor&>(*this).zero_(); }
  const Tensor& fill_(const Scalar& value) const { return const_cast<Tensor&>(*this).fill_(value); }

  // ---- Views: new sizes/strides over the same storage ----
  Tensor view(IntArrayRef size) const;
  Tensor view_as(const Tensor& other) const { return view(other.sizes()); }
  Tensor reshape(IntArrayRef shape) const;  // a view when the strides allow it, else a copy
  Tensor reshape_as(const Tensor& other) const { return reshape(other.sizes()); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor& other) const { return expand(other.sizes()); }
  Tensor select(int64_t dim, int64_t index) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  // Splitting into views (src/01_tensor/splits_and_norms.cpp), composed of narrow/select/view.
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  // t.index({Slice(0, 2), 1, None, Ellipsis}) with tinytorch/indexing.h (included by torch.h); a
  // kBool mask or a Long tensor may stand for dims too: t.index({mask}), t.index_put_({mask}, 0).
  Tensor index(ArrayRef<indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Tensor& value);
  Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Scalar& value);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& value);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar& value);

  // Masks and index tensors (src/01_tensor/masks.cpp; torch::where and friends in functions.h).
  Tensor nonzero() const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  // Gather / scatter by an index tensor (src/01_tensor/scatter_gather.cpp): index (Long) has self's
  // rank; along dim its values say which element, elsewhere its position does.
  Tensor gather(int64_t dim, const Tensor& index, bool sparse_grad = false) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src);
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value);
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src);
  // self.select(dim, index[k]) += alpha * source.select(dim, k); index is 1-D Long.
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
  Tensor masked_select(const Tensor& mask) const;
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value);
  Tensor& masked_fill_(const Tensor& mask, const Tensor& value);
  Tensor where(const Tensor& condition, const Tensor& other) const;  // condition ? *this : other

  // ---- Element-wise arithmetic (broadcasting, PyTorch's type promotion) ----
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor mul(const Tensor& other) const;
  Tensor mul(const Scalar& other) const;
  Tensor div(const Tensor& other) const;
  Tensor div(const Scalar& other) const;
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& add_(const Scalar& other, const Scalar& alpha = 1);
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& sub_(const Scalar& other, const Scalar& alpha = 1);
  Tensor& mul_(const Tensor& other);
  Tensor& mul_(const Scalar& other);
  Tensor& div_(const Tensor& other);
  Tensor& div_(const Scalar& other);
  Tensor neg() const;
  Tensor pow(const Tensor& exponent) const;
  Tensor pow(const Scalar& exponent) const;
  Tensor exp() const;
  Tensor log() const;
  Tensor sqrt() const;
  Tensor abs() const;
  Tensor clamp(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;

  // ---- Activations: defined with the free functions of module 02 (tinytorch/activations.h) ----
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

  Tensor operator-() const { return neg(); }
  Tensor& operator+=(const Tensor& other) { return add_(other); }
  Tensor& operator+=(const Scalar& other) { return add_(other); }
  Tensor& operator-=(const Tensor& other) { return sub_(other); }
  Tensor& operator-=(const Scalar& other) { return sub_(other); }
  Tensor& operator*=(const Tensor& other) { return mul_(other); }
  Tensor& operator*=(const Scalar& other) { return mul_(other); }
  Tensor& operator/=(const Tensor& other) { return div_(other); }
  Tensor& operator/=(const Scalar& other) { return div_(other); }

  // ---- Matrix products ----
  Tensor matmul(const Tensor& other) const;
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1) const;

  // ---- Reductions ----
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor max() const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;  // (values, indices)
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  // Ordering (sort.cpp): (values, indices) along dim; NaN counts as the largest value. topk's k
  // largest (or smallest) come out in order; equal values keep their original order.
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim = -1, bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true) const;
  Tensor multinomial(int64_t num_samples, bool replacement = false) const;  // torch::multinomial (random.cpp)
  // More reductions (src/01_tensor/statistics.cpp), composed of the ones above where they can be,
  // so they differentiate. An empty dim list means every dim, as in LibTorch 1.13.
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  // var/std of all elements take exactly a bool (a template), so that x.var({1}) means dim 1 as
  // it does in LibTorch rather than converting {1} to unbiased = true.
  Tensor var() const { return var(IntArrayRef(), true, false); }
  template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
  Tensor var(Bool unbiased) const {
    return var(IntArrayRef(), unbiased, false);
  }
  Tensor var(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  // correction: the divisor is N - correction (default 1, Bessel's).
  Tensor var(IntArrayRef dim, std::optional<int64_t> correction, bool keepdim = false) const;
  Tensor std() const { return std(IntArrayRef(), true, false); }
  template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
  Tensor std(Bool unbiased) const {
    return std(IntArrayRef(), unbiased, false);
  }
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(IntArrayRef dim, std::optional<int64_t> correction, bool keepdim = false) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  // Vector p-norms (p = 2, 1, inf, -inf, 0 or any real) over all elements or over dims.
  Tensor norm(const Scalar& p = 2) const;
  Tensor norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim = false) const;

  // ---- Comparisons (results are kBool) ----
  Tensor eq(const Tensor& other) const;
  Tensor eq(const Scalar& other) const;
  Tensor ne(const Tensor& other) const;
  Tensor ne(const Scalar& other) const;
  Tensor gt(const Tensor& other) const;
  Tensor gt(const Scalar& other) const;
  Tensor lt(const Tensor& other) const;
  Tensor lt(const Scalar& other) const;
  Tensor ge(const Tensor& other) const;
  Tensor ge(const Scalar& other) const;
  Tensor le(const Tensor& other) const;
  Tensor le(const Scalar& other) const;
  Tensor all() const;  // 0-dim kBool
  Tensor any() const;
  bool allclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const;
  bool equal(const Tensor& other) const;  // same sizes and same values

  // ---- Quantized tensors (module 15; src/15_quantization/quantized_tensor.cpp) ----
  // A quantized tensor (dtype kQInt8, kQUInt8 or kQInt32) stores integer codes and how they map
  // back to real numbers (tinytorch/qscheme.h). Made by torch::quantize_per_tensor/_per_channel.
  bool is_quantized() const;
  QScheme qscheme() const;
  double q_scale() const;        // per-tensor only
  int64_t q_zero_point() const;  // per-tensor only
  Tensor q_per_channel_scales() const;       // kDouble, one per channel
  Tensor q_per_channel_zero_points() const;  // kLong, one per channel
  int64_t q_per_channel_axis() const;
  Tensor int_repr() const;    // the codes as a plain kChar / kByte / kInt tensor (a copy)
  Tensor dequantize() const;  // (code - zero_point) * scale, as kFloat

  // ---- Autograd surface (LibTorch's spellings; the engine arrives in module 06) ----
  // Until module 06 registers a gradient engine (tinytorch/dispatch.h), queries with an honest answer
  // answer it (requires_grad() is false, is_leaf() is true, detach() returns an alias, and
  // requires_grad_(false) is a no-op); everything that needs gradients throws tinytorch::Error
  // saying that autograd arrives in module 06.
  bool requires_grad() const;
  Tensor& requires_grad_(bool requires_grad = true);
  Tensor& set_requires_grad(bool requires_grad);
  const Tensor& grad() const;
  Tensor& mutable_grad() const;
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  bool is_leaf() const;
  void retain_grad() const;
  bool retains_grad() const;
  Tensor detach() const;
  Tensor data() const { return detach(); }  // LibTorch's .data(): the values, outside the graph

  // Gradient hooks: hook(grad) runs every time the gradient with respect to this tensor is
  // computed, before it is stored (a leaf's .grad()) or passed on (a non-leaf). A hook returning a
  // Tensor replaces the gradient; one returning void only observes it. Hooks run in registration
  // order (retain_grad() counts as one); the index returned is the hook's handle for remove_hook.
  template <typename T>
  using hook_return_void_t = std::enable_if_t<std::is_void<std::invoke_result_t<T&, Tensor>>::value, unsigned>;
  template <typename T>
  using hook_return_var_t = std::enable_if_t<std::is_same<std::invoke_result_t<T&, Tensor>, Tensor>::value, unsigned>;
  template <typename T>
  hook_return_void_t<T> register_hook(T&& hook) const;
  template <typename T>
  hook_return_var_t<T> register_hook(T&& hook) const;
  unsigned _register_hook(std::function<Tensor(const Tensor&)> hook) const;
  void remove_hook(unsigned pos) const;

  // ==== LibTorch's wider op families: each region below is declared by one family's source file. ====
  // ---- Pointwise math of one tensor, with in-place `_` forms (src/01_tensor/pointwise_unary.cpp) ----
  // BEGIN POINTWISE UNARY
  // END POINTWISE UNARY
  // ---- Pointwise ops of two operands: binary math, comparisons, logical and bitwise ops (src/01_tensor/pointwise_binary.cpp) ----
  // BEGIN POINTWISE BINARY
  // END POINTWISE BINARY
  // ---- Reductions, scans and products (src/01_tensor/reductions_scans.cpp, products.cpp) ----
  // BEGIN REDUCTIONS SCANS
  // END REDUCTIONS SCANS
  // ---- Shape and layout; several-tensor indexing (src/01_tensor/shape_layout.cpp) ----
  // BEGIN SHAPE LAYOUT
  // END SHAPE LAYOUT
  // ---- Factories from a tensor, conversions and random fills (src/01_tensor/tensor_factories.cpp) ----
  // BEGIN FACTORIES DTYPES
  // END FACTORIES DTYPES

 private:
  std::shared_ptr<TensorImpl> impl_;
};

namespace detail {
// Throws LibTorch's "expected scalar type Float but found Long" unless t has dtype `expected`.
void check_data_ptr_type(const Tensor& t, ScalarType expected);
}  // namespace detail

template <typename T>
T* Tensor::data_ptr() const {
  detail::check_data_ptr_type(*this, CppTypeToScalarType<T>::value);
  return static_cast<T*>(data_ptr());
}

template <typename T>
Tensor::hook_return_void_t<T> Tensor::register_hook(T&& hook) const {
  return _register_hook([fn = std::forward<T>(hook)](const Tensor& grad) mutable {
    fn(grad);
    return Tensor();  // undefined: the gradient passes on unchanged
  });
}

template <typename T>
Tensor::hook_return_var_t<T> Tensor::register_hook(T&& hook) const {
  return _register_hook([fn = std::forward<T>(hook)](const Tensor& grad) mutable { return fn(grad); });
}

// ---- Operators, with a Tensor or a Scalar on either side ----
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator+(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator-(const Scalar& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor operator/(const Scalar& a, const Tensor& b);
Tensor operator==(const Tensor& a, const Tensor& b);
Tensor operator==(const Tensor& a, const Scalar& b);
Tensor operator!=(const Tensor& a, const Tensor& b);
Tensor operator!=(const Tensor& a, const Scalar& b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, const Scalar& b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, const Scalar& b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, const Scalar& b);
Tensor operator>=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, const Scalar& b);

// Prints exactly like LibTorch (ATen's Formatting.cpp), e.g.
//  1  2
//  3  4
// [ CPULongType{2,2} ]
std::ostream& operator<<(std::ostream& out, const Tensor& t);
// The printing with an explicit line width (LibTorch's at::print; operator<< uses 80).
std::ostream& print(std::ostream& out, const Tensor& t, int64_t linesize);

// Bytes of storage held by a set of tensors, each distinct storage counted once (views of one
// tensor are not double counted). Learner-written in module 01 (memory.cpp).
int64_t memory_footprint(const std::vector<Tensor>& tensors);

}  // namespace tinytorch
