#pragma once
// What a Tensor handle points to. A TensorImpl is a *view description*: sizes, strides (in
// elements) and an offset into a shared StorageImpl. Element (i, j) of a 2-D tensor lives at
//   storage.data + (storage_offset + i * strides[0] + j * strides[1]) * element_size.
// Kernels and the learner's code read these fields; only the framework's own code builds them.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {

// A block of bytes and how to free it. Owned blocks come from allocate(); from_blob() wraps
// caller memory with the caller's deleter (or none). On a device (module 22) `data` is not an address
// the CPU may read but the device allocator's handle of the block (opencl::DeviceBlock*): device
// kernels reach it through opencl::buffer_of(tensor), and a CPU kernel that asks a device tensor for
// its data_ptr() gets an error naming the op and the device instead of a pointer.
class StorageImpl {
 public:
  using Deleter = std::function<void(void*)>;
  StorageImpl(void* data, size_t nbytes, Deleter deleter, Device device = Device(DeviceType::CPU))
      : data_(data), nbytes_(nbytes), deleter_(std::move(deleter)), device_(device) {}
  ~StorageImpl() {
    if (deleter_) deleter_(data_);
  }
  StorageImpl(const StorageImpl&) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;

  // Uninitialised, 64-byte aligned memory from the caching allocator (tinytorch/allocator.h):
  // a block freed earlier is reused, so do not expect zeros.
  static std::shared_ptr<StorageImpl> allocate(size_t nbytes);

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  const Device& device() const { return device_; }

 private:
  void* data_;
  size_t nbytes_;
  Deleter deleter_;
  Device device_;
};

// What makes a quantized tensor's codes numbers again (module 15): the scheme and its parameters.
// Per tensor: scale and zero_point. Per channel: scales (kDouble) and zero_points (kLong), one per
// index along axis. Immutable and shared by a quantized tensor and its views.
struct Quantizer {
  QScheme qscheme = kPerTensorAffine;
  ScalarType dtype = kQInt8;
  double scale = 1.0;
  int64_t zero_point = 0;
  Tensor scales;
  Tensor zero_points;
  int64_t axis = 0;
};

class TensorImpl {
 public:
  TensorImpl(Storage storage, ScalarType dtype, std::vector<int64_t> sizes, std::vector<int64_t> strides,
             int64_t storage_offset);

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  const Storage& storage() const { return storage_; }
  bool is_contiguous() const { return is_contiguous_; }
  // Address of the tensor's first element (storage data + offset * element size). A tensor on a
  // device has none the CPU may use: asking throws LibTorch's "Could not run ... with arguments from
  // the 'OpenCL' backend" for the op that asked (the name its dtype dispatch gave, TT_DISPATCH_*).
  void* data() const;
  DeviceType device_type() const;

  // A number wrapped into a 0-dim tensor for `t + 2`: it takes part in type promotion only as a
  // number (PyTorch's "wrapped number"), so int tensor + 2.5 is float32, not float64.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool wrapped) { is_wrapped_number_ = wrapped; }

  // Set on quantized tensors only (dtype kQInt8, kQUInt8, kQInt32); null otherwise.
  const std::shared_ptr<const Quantizer>& quantizer() const { return quantizer_; }
  void set_quantizer(std::shared_ptr<const Quantizer> quantizer) { quantizer_ = std::move(quantizer); }

  // The opaque slot where module 06 keeps a tensor's gradient, grad_fn and requires_grad flag.
  // Module 01 never touches it; it exists so that TensorImpl's layout never changes.
  const std::shared_ptr<autograd::AutogradMeta>& autograd_meta() const { return autograd_meta_; }
  void set_autograd_meta(std::shared_ptr<autograd::AutogradMeta> meta) { autograd_meta_ = std::move(meta); }

 private:
  Storage storage_;
  ScalarType dtype_;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> strides_;
  int64_t storage_offset_;
  int64_t numel_;
  bool is_contiguous_;
  bool is_wrapped_number_ = false;
  std::shared_ptr<autograd::AutogradMeta> autograd_meta_;
  std::shared_ptr<const Quantizer> quantizer_;
};

}  // namespace tinytorch
