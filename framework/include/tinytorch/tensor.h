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
#include "tinytorch/memory_format.h"
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
  // Devices (tinytorch/device.h): tensors live on the CPU or, from module 22, on an OpenCL device; asking
  // for CUDA fails as a LibTorch without CUDA does. is_opencl() is ours (LibTorch has no OpenCL backend).
  Device device() const;
  bool is_cpu() const { return device_type() == DeviceType::CPU; }
  bool is_cuda() const { return false; }
  bool is_opencl() const { return device_type() == DeviceType::OPENCL; }
  DeviceType device_type() const;
  // LibTorch's: the device index, -1 on the CPU.
  int64_t get_device() const;
  // The other backends' queries, false here as in a LibTorch built without them.
  bool is_hip() const { return false; }
  bool is_xpu() const { return false; }
  bool is_mps() const { return false; }
  bool is_meta() const { return false; }
  bool is_vulkan() const { return false; }
  // Page-locked host memory (module 22): a copy from it to a device can be queued and left to run
  // (to(device, non_blocking=true)). pin_memory() needs a device, as in LibTorch.
  bool is_pinned(std::optional<Device> device = std::nullopt) const;
  Tensor pin_memory(std::optional<Device> device = std::nullopt) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  Tensor cpu() const;  // this tensor where it is on the CPU, else a copy on the CPU
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
  // In place: this tensor leaves the graph that made it and becomes a leaf that needs no gradient.
  Tensor& detach_() const;
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
  // One row per op in pointwise_unary.cpp's table. Integer and bool inputs of the floating ops (exp2,
  // sin, erf, ...) give the default float dtype; abs, neg, sign, square, ceil, floor, round, trunc
  // keep integers; isnan, isinf, ..., signbit give kBool. In-place forms are const, as LibTorch's.
  Tensor& abs_() const;
  Tensor absolute() const;
  Tensor& absolute_() const;
  Tensor& neg_() const;
  Tensor negative() const;
  Tensor& negative_() const;
  Tensor sign() const;
  Tensor& sign_() const;
  Tensor sgn() const;
  Tensor& sgn_() const;
  Tensor signbit() const;
  Tensor& exp_() const;
  Tensor exp2() const;
  Tensor& exp2_() const;
  Tensor expm1() const;
  Tensor& expm1_() const;
  Tensor& log_() const;
  Tensor log2() const;
  Tensor& log2_() const;
  Tensor log10() const;
  Tensor& log10_() const;
  Tensor log1p() const;
  Tensor& log1p_() const;
  Tensor& sqrt_() const;
  Tensor rsqrt() const;
  Tensor& rsqrt_() const;
  Tensor square() const;
  Tensor& square_() const;
  Tensor reciprocal() const;
  Tensor& reciprocal_() const;
  Tensor sin() const;
  Tensor& sin_() const;
  Tensor cos() const;
  Tensor& cos_() const;
  Tensor tan() const;
  Tensor& tan_() const;
  Tensor asin() const;
  Tensor& asin_() const;
  Tensor arcsin() const;
  Tensor& arcsin_() const;
  Tensor acos() const;
  Tensor& acos_() const;
  Tensor arccos() const;
  Tensor& arccos_() const;
  Tensor atan() const;
  Tensor& atan_() const;
  Tensor arctan() const;
  Tensor& arctan_() const;
  Tensor sinh() const;
  Tensor& sinh_() const;
  Tensor cosh() const;
  Tensor& cosh_() const;
  Tensor& tanh_() const;
  Tensor asinh() const;
  Tensor& asinh_() const;
  Tensor arcsinh() const;
  Tensor& arcsinh_() const;
  Tensor acosh() const;
  Tensor& acosh_() const;
  Tensor arccosh() const;
  Tensor& arccosh_() const;
  Tensor atanh() const;
  Tensor& atanh_() const;
  Tensor arctanh() const;
  Tensor& arctanh_() const;
  Tensor& sigmoid_() const;
  Tensor logit(std::optional<double> eps = std::nullopt) const;
  Tensor& logit_(std::optional<double> eps = std::nullopt) const;
  Tensor erf() const;
  Tensor& erf_() const;
  Tensor erfc() const;
  Tensor& erfc_() const;
  Tensor erfinv() const;
  Tensor& erfinv_() const;
  Tensor lgamma() const;
  Tensor& lgamma_() const;
  Tensor digamma() const;
  Tensor& digamma_() const;
  Tensor polygamma(int64_t n) const;
  Tensor& polygamma_(int64_t n) const;
  Tensor mvlgamma(int64_t p) const;
  Tensor& mvlgamma_(int64_t p) const;
  Tensor i0() const;
  Tensor& i0_() const;
  Tensor sinc() const;
  Tensor& sinc_() const;
  Tensor deg2rad() const;
  Tensor& deg2rad_() const;
  Tensor rad2deg() const;
  Tensor& rad2deg_() const;
  Tensor ceil() const;
  Tensor& ceil_() const;
  Tensor floor() const;
  Tensor& floor_() const;
  Tensor round() const;
  Tensor& round_() const;
  Tensor round(int64_t decimals) const;
  Tensor& round_(int64_t decimals) const;
  Tensor trunc() const;
  Tensor& trunc_() const;
  Tensor fix() const;
  Tensor& fix_() const;
  Tensor frac() const;
  Tensor& frac_() const;
  Tensor nan_to_num(std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  Tensor& nan_to_num_(std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt) const;
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isfinite() const;
  Tensor isposinf() const;
  Tensor isneginf() const;
  Tensor isreal() const;
  Tensor positive() const;  // self itself (not a copy), as in LibTorch
  Tensor& relu_() const;
  Tensor hardshrink(const Scalar& lambd = 0.5) const;
  Tensor& clamp_(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor clamp_min(const Scalar& min) const;
  Tensor& clamp_min_(const Scalar& min) const;
  Tensor clamp_max(const Scalar& max) const;
  Tensor& clamp_max_(const Scalar& max) const;
  Tensor clip(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor& clip_(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor& pow_(const Scalar& exponent) const;
  // END POINTWISE UNARY
  // ---- Pointwise ops of two operands: binary math, comparisons, logical and bitwise ops (src/01_tensor/pointwise_binary.cpp) ----
  // BEGIN POINTWISE BINARY
  // Broadcasting with PyTorch's type promotion; `_` forms write into self, keeping its dtype and
  // shape. torch:: spellings, `_out`/`_outf` forms and operators in tinytorch/pointwise_binary.h.
  // max(other)/min(other) are declared with the reductions (they are maximum/minimum).
  Tensor maximum(const Tensor& other) const;  // NaN wins
  Tensor minimum(const Tensor& other) const;
  Tensor fmax(const Tensor& other) const;  // NaN loses
  Tensor fmin(const Tensor& other) const;
  // Division family. fmod: C's remainder (sign of self); remainder: Python's (sign of other);
  // rounding_mode "trunc" or "floor" (floor_divide), nullopt for true division.
  Tensor fmod(const Tensor& other) const;
  Tensor fmod(const Scalar& other) const;
  Tensor& fmod_(const Tensor& other) const;
  Tensor& fmod_(const Scalar& other) const;
  Tensor remainder(const Tensor& other) const;
  Tensor remainder(const Scalar& other) const;
  Tensor& remainder_(const Tensor& other) const;
  Tensor& remainder_(const Scalar& other) const;
  Tensor floor_divide(const Tensor& other) const;
  Tensor floor_divide(const Scalar& other) const;
  Tensor& floor_divide_(const Tensor& other) const;
  Tensor& floor_divide_(const Scalar& other) const;
  Tensor div(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor div(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor divide(const Tensor& other) const;
  Tensor divide(const Scalar& other) const;
  Tensor divide(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor divide(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& divide_(const Tensor& other) const;
  Tensor& divide_(const Scalar& other) const;
  Tensor& divide_(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& divide_(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor true_divide(const Tensor& other) const;
  Tensor true_divide(const Scalar& other) const;
  Tensor& true_divide_(const Tensor& other) const;
  Tensor& true_divide_(const Scalar& other) const;
  Tensor multiply(const Tensor& other) const;
  Tensor multiply(const Scalar& other) const;
  Tensor& multiply_(const Tensor& other) const;
  Tensor& multiply_(const Scalar& other) const;
  Tensor subtract(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor subtract(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& subtract_(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& subtract_(const Scalar& other, const Scalar& alpha = 1) const;
  // Powers and floating functions of two operands (integers give the default float dtype where
  // LibTorch's do; float_power is always kDouble).
  Tensor& pow_(const Tensor& exponent) const;
  Tensor float_power(const Tensor& exponent) const;
  Tensor float_power(const Scalar& exponent) const;
  Tensor& float_power_(const Tensor& exponent) const;
  Tensor& float_power_(const Scalar& exponent) const;
  Tensor atan2(const Tensor& other) const;
  Tensor& atan2_(const Tensor& other) const;
  Tensor arctan2(const Tensor& other) const;
  Tensor& arctan2_(const Tensor& other) const;
  Tensor hypot(const Tensor& other) const;
  Tensor& hypot_(const Tensor& other) const;
  Tensor copysign(const Tensor& other) const;
  Tensor copysign(const Scalar& other) const;
  Tensor& copysign_(const Tensor& other) const;
  Tensor& copysign_(const Scalar& other) const;
  Tensor nextafter(const Tensor& other) const;
  Tensor& nextafter_(const Tensor& other) const;
  Tensor xlogy(const Tensor& other) const;  // self * log(other), 0 where self == 0
  Tensor xlogy(const Scalar& other) const;
  Tensor& xlogy_(const Tensor& other) const;
  Tensor& xlogy_(const Scalar& other) const;
  Tensor logaddexp(const Tensor& other) const;
  Tensor logaddexp2(const Tensor& other) const;
  Tensor ldexp(const Tensor& other) const;  // self * 2^other
  Tensor& ldexp_(const Tensor& other) const;
  Tensor heaviside(const Tensor& values) const;
  Tensor& heaviside_(const Tensor& values) const;
  Tensor gcd(const Tensor& other) const;
  Tensor& gcd_(const Tensor& other) const;
  Tensor lcm(const Tensor& other) const;
  Tensor& lcm_(const Tensor& other) const;
  // Three operands: self + weight * (end - self); self + value * tensor1 * tensor2 (or / tensor2).
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor& lerp_(const Tensor& end, const Scalar& weight) const;
  Tensor& lerp_(const Tensor& end, const Tensor& weight) const;
  Tensor addcmul(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor& addcmul_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor addcdiv(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor& addcdiv_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor dist(const Tensor& other, const Scalar& p = 2) const;  // (self - other).norm(p), 0-dim
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const;
  // Comparisons written into self (1 or 0 in self's dtype), and their other names.
  Tensor& eq_(const Tensor& other) const;
  Tensor& eq_(const Scalar& other) const;
  Tensor& ne_(const Tensor& other) const;
  Tensor& ne_(const Scalar& other) const;
  Tensor& lt_(const Tensor& other) const;
  Tensor& lt_(const Scalar& other) const;
  Tensor& le_(const Tensor& other) const;
  Tensor& le_(const Scalar& other) const;
  Tensor& gt_(const Tensor& other) const;
  Tensor& gt_(const Scalar& other) const;
  Tensor& ge_(const Tensor& other) const;
  Tensor& ge_(const Scalar& other) const;
  Tensor not_equal(const Tensor& other) const;
  Tensor not_equal(const Scalar& other) const;
  Tensor& not_equal_(const Tensor& other) const;
  Tensor& not_equal_(const Scalar& other) const;
  Tensor less(const Tensor& other) const;
  Tensor less(const Scalar& other) const;
  Tensor& less_(const Tensor& other) const;
  Tensor& less_(const Scalar& other) const;
  Tensor less_equal(const Tensor& other) const;
  Tensor less_equal(const Scalar& other) const;
  Tensor& less_equal_(const Tensor& other) const;
  Tensor& less_equal_(const Scalar& other) const;
  Tensor greater(const Tensor& other) const;
  Tensor greater(const Scalar& other) const;
  Tensor& greater_(const Tensor& other) const;
  Tensor& greater_(const Scalar& other) const;
  Tensor greater_equal(const Tensor& other) const;
  Tensor greater_equal(const Scalar& other) const;
  Tensor& greater_equal_(const Tensor& other) const;
  Tensor& greater_equal_(const Scalar& other) const;
  // Logical ops: any dtype in, kBool out (the `_` forms keep self's dtype).
  Tensor logical_and(const Tensor& other) const;
  Tensor& logical_and_(const Tensor& other) const;
  Tensor logical_or(const Tensor& other) const;
  Tensor& logical_or_(const Tensor& other) const;
  Tensor logical_xor(const Tensor& other) const;
  Tensor& logical_xor_(const Tensor& other) const;
  Tensor logical_not() const;
  Tensor& logical_not_() const;
  // Bitwise ops: integer and bool dtypes only. Shifts take the shift count modulo the width.
  Tensor bitwise_and(const Tensor& other) const;
  Tensor bitwise_and(const Scalar& other) const;
  Tensor& bitwise_and_(const Tensor& other) const;
  Tensor& bitwise_and_(const Scalar& other) const;
  Tensor bitwise_or(const Tensor& other) const;
  Tensor bitwise_or(const Scalar& other) const;
  Tensor& bitwise_or_(const Tensor& other) const;
  Tensor& bitwise_or_(const Scalar& other) const;
  Tensor bitwise_xor(const Tensor& other) const;
  Tensor bitwise_xor(const Scalar& other) const;
  Tensor& bitwise_xor_(const Tensor& other) const;
  Tensor& bitwise_xor_(const Scalar& other) const;
  Tensor bitwise_not() const;
  Tensor& bitwise_not_() const;
  Tensor bitwise_left_shift(const Tensor& other) const;
  Tensor bitwise_left_shift(const Scalar& other) const;
  Tensor& bitwise_left_shift_(const Tensor& other) const;
  Tensor& bitwise_left_shift_(const Scalar& other) const;
  Tensor bitwise_right_shift(const Tensor& other) const;
  Tensor bitwise_right_shift(const Scalar& other) const;
  Tensor& bitwise_right_shift_(const Tensor& other) const;
  Tensor& bitwise_right_shift_(const Scalar& other) const;
  Tensor __and__(const Tensor& other) const { return bitwise_and(other); }
  Tensor __and__(const Scalar& other) const { return bitwise_and(other); }
  Tensor& __iand__(const Tensor& other) const { return bitwise_and_(other); }
  Tensor& __iand__(const Scalar& other) const { return bitwise_and_(other); }
  Tensor __or__(const Tensor& other) const { return bitwise_or(other); }
  Tensor __or__(const Scalar& other) const { return bitwise_or(other); }
  Tensor& __ior__(const Tensor& other) const { return bitwise_or_(other); }
  Tensor& __ior__(const Scalar& other) const { return bitwise_or_(other); }
  Tensor __xor__(const Tensor& other) const { return bitwise_xor(other); }
  Tensor __xor__(const Scalar& other) const { return bitwise_xor(other); }
  Tensor& __ixor__(const Tensor& other) const { return bitwise_xor_(other); }
  Tensor& __ixor__(const Scalar& other) const { return bitwise_xor_(other); }
  Tensor __lshift__(const Tensor& other) const { return bitwise_left_shift(other); }
  Tensor __lshift__(const Scalar& other) const { return bitwise_left_shift(other); }
  Tensor& __ilshift__(const Tensor& other) const { return bitwise_left_shift_(other); }
  Tensor& __ilshift__(const Scalar& other) const { return bitwise_left_shift_(other); }
  Tensor __rshift__(const Tensor& other) const { return bitwise_right_shift(other); }
  Tensor __rshift__(const Scalar& other) const { return bitwise_right_shift(other); }
  Tensor& __irshift__(const Tensor& other) const { return bitwise_right_shift_(other); }
  Tensor& __irshift__(const Scalar& other) const { return bitwise_right_shift_(other); }
  Tensor operator~() const { return bitwise_not(); }
  Tensor& operator&=(const Tensor& other) { return bitwise_and_(other); }
  Tensor& operator&=(const Scalar& other) { return bitwise_and_(other); }
  Tensor& operator|=(const Tensor& other) { return bitwise_or_(other); }
  Tensor& operator|=(const Scalar& other) { return bitwise_or_(other); }
  Tensor& operator^=(const Tensor& other) { return bitwise_xor_(other); }
  Tensor& operator^=(const Scalar& other) { return bitwise_xor_(other); }
  // END POINTWISE BINARY
  // ---- Reductions, scans and products (src/01_tensor/reductions_scans.cpp, products.cpp) ----
  // BEGIN REDUCTIONS SCANS
  // Order statistics: values with their indices along dim (median is the lower median of an even
  // count; the nan* forms skip NaNs, the others let NaN win).
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  Tensor nanmedian() const;
  std::tuple<Tensor, Tensor> nanmedian(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> aminmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;  // (min, max)
  Tensor max(const Tensor& other) const;  // element-wise maximum, NaN propagating
  Tensor min(const Tensor& other) const;
  // Sums and means that skip NaNs; no dim (nullopt) or an empty list means every dim. (LibTorch's
  // one OptionalIntArrayRef parameter, as two overloads: a std::optional<IntArrayRef> would dangle.)
  Tensor nansum(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nansum(std::nullopt_t = std::nullopt, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nanmean(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nanmean(std::nullopt_t = std::nullopt, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor count_nonzero(IntArrayRef dim) const;
  Tensor count_nonzero(std::optional<int64_t> dim = std::nullopt) const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor argwhere() const;
  std::vector<Tensor> nonzero_numpy() const;
  Tensor bincount(const std::optional<Tensor>& weights = {}, int64_t minlength = 0) const;
  Tensor histc(int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0) const;
  Tensor diff(int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = {},
              const std::optional<Tensor>& append = {}) const;
  Tensor renorm(const Scalar& p, int64_t dim, const Scalar& maxnorm) const;
  Tensor& renorm_(const Scalar& p, int64_t dim, const Scalar& maxnorm) const;
  bool is_nonzero() const;
  bool is_same_size(const Tensor& other) const;
  // Scans along dim.
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumprod_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumsum_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  std::tuple<Tensor, Tensor> cummax(int64_t dim) const;
  std::tuple<Tensor, Tensor> cummin(int64_t dim) const;
  Tensor logcumsumexp(int64_t dim) const;
  // Products (src/01_tensor/products.cpp).
  Tensor dot(const Tensor& tensor) const;
  Tensor vdot(const Tensor& other) const;
  Tensor inner(const Tensor& other) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor ger(const Tensor& vec2) const;
  Tensor mv(const Tensor& vec) const;
  Tensor addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& addmv_(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor addr(const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& addr_(const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& baddbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor addbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& addbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor matrix_power(int64_t n) const;
  Tensor kron(const Tensor& other) const;
  Tensor trace() const;
  Tensor cross(const Tensor& other, std::optional<int64_t> dim = std::nullopt) const;
  // END REDUCTIONS SCANS
  // ---- Shape and layout; several-tensor indexing (src/01_tensor/shape_layout.cpp) ----
  // BEGIN SHAPE LAYOUT
  // Flips, rolls and moving dims (flip/roll/rot90 copy; movedim, swapaxes, unfold, as_strided are views).
  Tensor flip(IntArrayRef dims) const;
  Tensor fliplr() const;
  Tensor flipud() const;
  Tensor roll(IntArrayRef shifts, IntArrayRef dims = {}) const;
  Tensor rot90(int64_t k = 1, IntArrayRef dims = {0, 1}) const;
  Tensor movedim(IntArrayRef source, IntArrayRef destination) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor moveaxis(IntArrayRef source, IntArrayRef destination) const;
  Tensor moveaxis(int64_t source, int64_t destination) const;
  Tensor swapaxes(int64_t axis0, int64_t axis1) const;
  Tensor& swapaxes_(int64_t axis0, int64_t axis1) const;
  Tensor swapdims(int64_t dim0, int64_t dim1) const;
  Tensor& swapdims_(int64_t dim0, int64_t dim1) const;
  // In-place metadata changes: the tensor itself takes the view's sizes and strides.
  Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  Tensor& t_() const;
  Tensor& squeeze_() const;
  Tensor& squeeze_(int64_t dim) const;
  Tensor& unsqueeze_(int64_t dim) const;
  Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor broadcast_to(IntArrayRef size) const;
  Tensor ravel() const;
  Tensor sum_to_size(IntArrayRef size) const;
  const Tensor& resize_(IntArrayRef size, std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // Triangles and diagonals.
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor& tril_(int64_t diagonal = 0) const;
  Tensor& triu_(int64_t diagonal = 0) const;
  Tensor diag(int64_t diagonal = 0) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor diag_embed(int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) const;
  Tensor diagflat(int64_t offset = 0) const;
  // Repeating and splitting.
  Tensor repeat(IntArrayRef repeats) const;
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor tile(IntArrayRef dims) const;
  std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(IntArrayRef indices, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(const Tensor& tensor_indices_or_sections, int64_t dim = 0) const;
  std::vector<Tensor> hsplit(int64_t sections) const;
  std::vector<Tensor> hsplit(IntArrayRef indices) const;
  std::vector<Tensor> vsplit(int64_t sections) const;
  std::vector<Tensor> vsplit(IntArrayRef indices) const;
  std::vector<Tensor> dsplit(int64_t sections) const;
  std::vector<Tensor> dsplit(IntArrayRef indices) const;
  // Reading and writing at positions (self read as 1-D in row-major order for take/put).
  Tensor take(const Tensor& index) const;
  Tensor take_along_dim(const Tensor& indices, std::optional<int64_t> dim = std::nullopt) const;
  Tensor put(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor& put_(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Tensor& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Tensor& value) const;
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor masked_scatter(const Tensor& mask, const Tensor& source) const;
  Tensor& masked_scatter_(const Tensor& mask, const Tensor& source) const;
  Tensor select_scatter(const Tensor& src, int64_t dim, int64_t index) const;
  Tensor slice_scatter(const Tensor& src, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
                       std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor diagonal_scatter(const Tensor& src, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  // Advanced indexing with one optional index tensor per leading dim (LibTorch's
  // index(const c10::List<c10::optional<Tensor>>&); c10::List is in tinytorch/shape_layout.h).
  Tensor index(const std::vector<std::optional<Tensor>>& indices) const;
  Tensor index_put(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate = false) const;
  Tensor& index_put_(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                     bool accumulate = false) const;
  // Memory formats (tinytorch/memory_format.h): every TinyTorch tensor is row-major.
  Tensor contiguous(MemoryFormat memory_format) const;
  Tensor clone(std::optional<MemoryFormat> memory_format) const;
  bool is_contiguous(MemoryFormat memory_format) const;
  MemoryFormat suggest_memory_format(bool channels_last_strides_exact_match = false) const;
  // END SHAPE LAYOUT
  // ---- Factories from a tensor, conversions and random fills (src/01_tensor/tensor_factories.cpp) ----
  // BEGIN FACTORIES DTYPES
  // Conversions: toType(t) is to(t); to(other) and type_as(other) take other's dtype.
  Tensor toType(ScalarType t) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false) const;
  Tensor type_as(const Tensor& other) const;
  bool is_signed() const;  // every dtype but Byte and Bool
  // New tensors with this tensor's dtype unless options give one (LibTorch's new_* methods).
  Tensor new_empty(IntArrayRef size, TensorOptions options = {}) const;
  Tensor new_empty_strided(IntArrayRef size, IntArrayRef stride, TensorOptions options = {}) const;
  Tensor new_full(IntArrayRef size, const Scalar& fill_value, TensorOptions options = {}) const;
  Tensor new_zeros(IntArrayRef size, TensorOptions options = {}) const;
  Tensor new_ones(IntArrayRef size, TensorOptions options = {}) const;
  // Random fills from TinyTorch's generator (tinytorch/factories.h: manual_seed). LibTorch's
  // optional Generator argument is not offered.
  Tensor bernoulli() const;          // each element 1 with probability self[i], else 0
  Tensor bernoulli(double p) const;  // each element 1 with probability p
  Tensor& bernoulli_(const Tensor& p) const;
  Tensor& bernoulli_(double p = 0.5) const;
  Tensor& random_(int64_t from, std::optional<int64_t> to) const;  // [from, to); to = nullopt: up to the dtype's max
  Tensor& random_(int64_t to) const;                               // [0, to)
  Tensor& random_() const;  // [0, 2^mantissa] for floating dtypes, [0, max] for integers
  Tensor& uniform_(double from = 0, double to = 1) const;
  Tensor& normal_(double mean = 0, double std = 1) const;
  Tensor& cauchy_(double median = 0, double sigma = 1) const;
  Tensor& log_normal_(double mean = 1, double std = 2) const;
  Tensor& exponential_(double lambd = 1) const;
  Tensor& geometric_(double p) const;
  // END FACTORIES DTYPES

  // ---- Linear algebra methods (src/01_tensor/linalg_more.cpp) ----
  // BEGIN LINALG
  // Determinants and inverses by LU with partial pivoting; (*, n, n) float or double, batched.
  Tensor det() const;
  Tensor logdet() const;
  std::tuple<Tensor, Tensor> slogdet() const;  // (sign, log|det|)
  Tensor inverse() const;
  Tensor cholesky(bool upper = false) const;
  Tensor cholesky_solve(const Tensor& input2, bool upper = false) const;
  Tensor cholesky_inverse(bool upper = false) const;
  std::tuple<Tensor, Tensor> qr(bool some = true) const;  // Householder
  std::tuple<Tensor, Tensor, Tensor> svd(bool some = true, bool compute_uv = true) const;
  std::tuple<Tensor, Tensor> triangular_solve(const Tensor& A, bool upper = true, bool transpose = false,
                                              bool unitriangular = false) const;
  Tensor pinverse(double rcond = 1e-15) const;
  Tensor matrix_exp() const;
  // Transposes of the last two dims (views; no complex dtype, so mH and adjoint equal mT).
  Tensor mT() const;
  Tensor mH() const;
  Tensor matrix_H() const;
  Tensor adjoint() const;
  Tensor alias() const;  // a view of the whole tensor
  Tensor narrow_copy(int64_t dim, int64_t start, int64_t length) const;
  // END LINALG
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
