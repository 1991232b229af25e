// Tensor, TensorImpl and Storage: construction, metadata, element access and the shared helpers
// every kernel uses (dim wrapping, contiguous strides, views).
#include <algorithm>
#include <cstdlib>
#include <new>
#include <utility>

#include "tinytorch/allocator.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/kernels.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {

// ---- Storage ----

// Blocks come from the caching allocator (tinytorch/allocator.h): a freed block is reused by the
// next request of its size class instead of going back to the system.
std::shared_ptr<StorageImpl> StorageImpl::allocate(size_t nbytes) {
  void* data = memory::detail::allocate_block(nbytes);
  return std::make_shared<StorageImpl>(data, nbytes, [nbytes](void* p) { memory::detail::release_block(p, nbytes); });
}

size_t Storage::nbytes() const { return impl_ ? impl_->nbytes() : 0; }
void* Storage::data() const { return impl_ ? impl_->data() : nullptr; }

// ---- TensorImpl ----

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, std::vector<int64_t> sizes,
                       std::vector<int64_t> strides, int64_t storage_offset)
    : storage_(std::move(storage)), dtype_(dtype), sizes_(std::move(sizes)), strides_(std::move(strides)),
      storage_offset_(storage_offset) {
  numel_ = product(sizes_);
  // Contiguous = row-major with no gaps; dims of size 1 may have any stride (LibTorch's rule).
  is_contiguous_ = true;
  int64_t expected_stride = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (sizes_[d] == 1) continue;
    if (strides_[d] != expected_stride) is_contiguous_ = false;
    expected_stride *= sizes_[d];
  }
  if (numel_ == 0) is_contiguous_ = true;
}

namespace detail {
thread_local const char* current_kernel_name = nullptr;
}  // namespace detail

DeviceType TensorImpl::device_type() const {
  const StorageImpl* storage = storage_.unsafeGetStorageImpl();
  return storage == nullptr ? DeviceType::CPU : storage->device().type();
}

void* TensorImpl::data() const {
  const StorageImpl* storage = storage_.unsafeGetStorageImpl();
  if (storage != nullptr && !storage->device().is_cpu()) {
    // A CPU kernel met a device tensor: its op has no kernel for the device (tinytorch/dispatch.h).
    const char* op = detail::current_kernel_name;
    throw_no_device_kernel(op != nullptr ? op : "an op without a device kernel", storage->device());
  }
  return static_cast<char*>(storage_.data()) + storage_offset_ * elementSize(dtype_);
}

// ---- Helpers shared by kernels ----

int64_t maybe_wrap_dim(int64_t dim, int64_t ndim) {
  int64_t range = ndim == 0 ? 1 : ndim;  // a 0-dim tensor behaves as 1-D for dim arguments
  TT_CHECK(dim >= -range && dim < range, "Dimension out of range (expected to be in range of [", -range, ", ",
           range - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + range : dim;
}

std::vector<int64_t> contiguous_strides(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

int64_t product(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

Tensor native::make_view(const Tensor& self, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                         int64_t storage_offset) {
  // A view of a quantized tensor shares its codes' meaning. Per-channel parameters are tied to the
  // channel axis, which a reshaping view may move or drop: those views are refused, not mislabelled.
  const auto& quantizer = self.unsafeGetTensorImpl()->quantizer();
  TT_CHECK(!quantizer || quantizer->qscheme == kPerTensorAffine ||
               (self.sizes().equals(sizes) && self.strides().equals(strides)),
           "views of per-channel quantized tensors are not supported in TinyTorch: call dequantize() first");
  auto impl = std::make_shared<TensorImpl>(self.storage(), self.scalar_type(), std::move(sizes), std::move(strides),
                                           storage_offset);
  impl->set_quantizer(quantizer);
  return Tensor(std::move(impl));
}

void detail::check_data_ptr_type(const Tensor& t, ScalarType expected) {
  TT_CHECK(t.defined(), "data_ptr() called on an undefined Tensor");
  TT_CHECK(t.scalar_type() == expected, "expected scalar type ", toString(expected), " but found ",
           toString(t.scalar_type()));
}

// ---- Tensor metadata ----

namespace {
const TensorImpl& impl_of(const Tensor& t) {
  TT_CHECK(t.defined(), "tensor is undefined: create it with a factory such as torch::zeros({2, 3}) first");
  return *t.unsafeGetTensorImpl();
}
}  // namespace

IntArrayRef Tensor::sizes() const { return impl_of(*this).sizes(); }
IntArrayRef Tensor::strides() const { return impl_of(*this).strides(); }
int64_t Tensor::dim() const { return impl_of(*this).dim(); }
int64_t Tensor::numel() const { return impl_of(*this).numel(); }
int64_t Tensor::storage_offset() const { return impl_of(*this).storage_offset(); }
ScalarType Tensor::scalar_type() const { return impl_of(*this).dtype(); }
TypeMeta Tensor::dtype() const { return TypeMeta(scalar_type()); }
TensorOptions Tensor::options() const {
  const TensorOptions options(scalar_type());
  return is_cpu() ? options : options.device(device());
}
// CPU for an undefined tensor: is_cpu() was always true before devices existed, and callers rely on it.
DeviceType Tensor::device_type() const { return defined() ? impl_of(*this).device_type() : DeviceType::CPU; }
int64_t Tensor::get_device() const { return is_cpu() ? -1 : device().index(); }

// Module 22 declares both (a device's pinned host memory); without it nothing is pinned.
bool Tensor::is_pinned(std::optional<Device> device) const {
  if (!is_cpu() || numel() == 0) return false;
  AnyDeviceKernel found =
      find_device_kernel("is_pinned", DeviceType::OPENCL, typeid(bool(const Tensor&, std::optional<Device>)));
  return found != nullptr && reinterpret_cast<bool (*)(const Tensor&, std::optional<Device>)>(found)(*this, device);
}

Tensor Tensor::pin_memory(std::optional<Device> device) const {
  TT_CHECK(is_cpu(), "cannot pin '", toString(), "' only dense CPU tensors can be pinned");
  AnyDeviceKernel found =
      find_device_kernel("pin_memory", DeviceType::OPENCL, typeid(Tensor(const Tensor&, std::optional<Device>)));
  // LibTorch's message where no accelerator exists.
  TT_CHECK(found != nullptr && opencl::is_available(),
           "Cannot access accelerator device when none is available. (pin_memory needs an OpenCL device and module 22)");
  return reinterpret_cast<Tensor (*)(const Tensor&, std::optional<Device>)>(found)(*this, device);
}

Device Tensor::device() const {
  const StorageImpl* storage = impl_of(*this).storage().unsafeGetStorageImpl();
  return storage == nullptr ? Device(DeviceType::CPU) : storage->device();
}
bool Tensor::is_contiguous() const { return impl_of(*this).is_contiguous(); }
const Storage& Tensor::storage() const { return impl_of(*this).storage(); }
bool Tensor::is_alias_of(const Tensor& other) const { return storage().is_alias_of(other.storage()); }
int64_t Tensor::element_size() const { return elementSize(scalar_type()); }
size_t Tensor::nbytes() const { return static_cast<size_t>(numel() * element_size()); }
void* Tensor::data_ptr() const { return impl_of(*this).data(); }

int64_t Tensor::size(int64_t dim) const {
  int64_t d = maybe_wrap_dim(dim, this->dim());
  return this->dim() == 0 ? 1 : sizes()[d];
}

int64_t Tensor::stride(int64_t dim) const {
  int64_t d = maybe_wrap_dim(dim, this->dim());
  return this->dim() == 0 ? 1 : strides()[d];
}

std::string Tensor::toString() const {
  if (is_opencl()) return "OpenCL" + std::string(tinytorch::toString(scalar_type())) + "Type";
  return std::string(is_quantized() ? "QuantizedCPU" : "CPU") + tinytorch::toString(scalar_type()) + "Type";
}

Scalar Tensor::item() const {
  TT_CHECK(numel() == 1, "a Tensor with ", numel(), " elements cannot be converted to Scalar");
  if (!is_cpu()) return cpu().item();  // LibTorch's item() of a device tensor copies the one element back
  const void* p = data_ptr();
  switch (scalar_type()) {
    case kBool: return Scalar(*static_cast<const bool*>(p));
    case kByte: return Scalar(static_cast<int64_t>(*static_cast<const uint8_t*>(p)));
    case kChar: return Scalar(static_cast<int64_t>(*static_cast<const int8_t*>(p)));
    case kShort: return Scalar(static_cast<int64_t>(*static_cast<const int16_t*>(p)));
    case kInt: return Scalar(static_cast<int64_t>(*static_cast<const int32_t*>(p)));
    case kHalf: return Scalar(*static_cast<const Half*>(p));
    case kBFloat16: return Scalar(*static_cast<const BFloat16*>(p));
    case kLong: return Scalar(*static_cast<const int64_t*>(p));
    case kFloat: return Scalar(static_cast<double>(*static_cast<const float*>(p)));
    case kDouble: return Scalar(*static_cast<const double*>(p));
    default: break;
  }
  throw Error(detail::str("item() is not supported for quantized tensors (dtype ", tinytorch::toString(scalar_type()),
                          "): call dequantize() first"));
}

// ---- Assignment through a temporary view: t[0] = 5; t.select(0, 1) = other ----

Tensor& Tensor::operator=(const Tensor& src) && { return copy_(src); }
Tensor& Tensor::operator=(Tensor&& src) && { return copy_(src); }
Tensor& Tensor::operator=(const Scalar& value) && { return fill_(value); }

// ---- Autograd surface: forwards to the registered layer, or explains that none exists yet ----

namespace {
[[noreturn]] void autograd_unavailable(const char* what) {
  throw Error(std::string("autograd arrives in module 06 (Autograd): ") + what +
              " needs a gradient engine and none is registered yet, so gradients are not available in this "
              "module; compute without them until module 06");
}
}  // namespace

bool Tensor::requires_grad() const {
  AutogradLayer* layer = autograd_layer();
  return layer != nullptr && defined() && layer->requires_grad(*this);
}

Tensor& Tensor::requires_grad_(bool requires_grad) {
  AutogradLayer* layer = autograd_layer();
  if (layer != nullptr) {
    layer->set_requires_grad(*this, requires_grad);
  } else if (requires_grad) {
    autograd_unavailable("requires_grad_(true)");
  }
  return *this;  // requires_grad_(false) without an engine: already true, nothing to do
}

Tensor& Tensor::set_requires_grad(bool requires_grad) { return requires_grad_(requires_grad); }

const Tensor& Tensor::grad() const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("grad()");
  return layer->grad(*this);
}

Tensor& Tensor::mutable_grad() const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("mutable_grad()");
  return layer->mutable_grad(*this);
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("backward()");
  layer->backward(*this, gradient, retain_graph, create_graph);
}

const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("grad_fn()");
  return layer->grad_fn(*this);
}

bool Tensor::is_leaf() const {
  AutogradLayer* layer = autograd_layer();
  return layer == nullptr || layer->is_leaf(*this);  // no graph yet: every tensor is a leaf
}

void Tensor::retain_grad() const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("retain_grad()");
  layer->retain_grad(*this);
}

bool Tensor::retains_grad() const {
  AutogradLayer* layer = autograd_layer();
  return layer != nullptr && layer->retains_grad(*this);
}

unsigned Tensor::_register_hook(std::function<Tensor(const Tensor&)> hook) const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("register_hook()");
  return layer->register_hook(*this, std::move(hook));
}

void Tensor::remove_hook(unsigned pos) const {
  AutogradLayer* layer = autograd_layer();
  if (layer == nullptr) autograd_unavailable("remove_hook()");
  layer->remove_hook(*this, pos);
}

Tensor& Tensor::detach_() const {
  impl_->set_autograd_meta(nullptr);  // no history, no requires_grad: what an engine-less tensor has too
  return const_cast<Tensor&>(*this);
}

Tensor Tensor::detach() const {
  AutogradLayer* layer = autograd_layer();
  if (layer != nullptr) return layer->detach(*this);
  // Without an engine a detached tensor is just another view of the same data, as in LibTorch.
  return native::make_view(*this, sizes().vec(), strides().vec(), storage_offset());
}

}  // namespace tinytorch
