#pragma once
// TensorOptions: the builder passed to factories, `torch::zeros({2}, torch::dtype(torch::kLong))`.
// TinyTorch is strided-only, so a dtype, a device (the CPU or, from module 22, an OpenCL device) and
// requires_grad are all it carries.
#include <optional>

#include "tinytorch/device.h"
#include "tinytorch/scalar_type.h"

namespace tinytorch {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT: implicit, `zeros({2}, kLong)`
  TensorOptions(TypeMeta dtype) : dtype_(dtype.toScalarType()) {}  // NOLINT
  // A device alone, as LibTorch's TensorOptions(torch::kCPU): checked (CUDA fails as in a LibTorch without it).
  TensorOptions(Device device) : device_(resolve_device(device)) {}      // NOLINT
  TensorOptions(DeviceType type) : TensorOptions(Device(type)) {}         // NOLINT

  // Builders return a modified copy, as LibTorch's do.
  TensorOptions dtype(ScalarType dtype) const {
    TensorOptions copy = *this;
    copy.dtype_ = dtype;
    return copy;
  }
  TensorOptions dtype(TypeMeta dtype) const { return this->dtype(dtype.toScalarType()); }
  template <typename T>
  TensorOptions dtype() const {
    return dtype(CppTypeToScalarType<T>::value);
  }
  TensorOptions requires_grad(bool requires_grad) const {
    TensorOptions copy = *this;
    copy.requires_grad_ = requires_grad;
    return copy;
  }

  // The CPU, or an OpenCL device where one is present; a CUDA one fails as a LibTorch without CUDA does.
  TensorOptions device(Device device) const {
    TensorOptions copy = *this;
    copy.device_ = resolve_device(device);
    return copy;
  }
  TensorOptions device(DeviceType type, DeviceIndex index = -1) const { return device(Device(type, index)); }
  Device device() const { return device_.value_or(Device(DeviceType::CPU)); }
  bool has_device() const { return device_.has_value(); }
  std::optional<Device> device_opt() const { return device_; }

  TypeMeta dtype() const { return TypeMeta(dtype_.value_or(default_dtype())); }
  bool has_dtype() const { return dtype_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  bool requires_grad() const { return requires_grad_; }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  bool requires_grad_ = false;
};

// LibTorch's free builders: torch::dtype(torch::kLong), torch::requires_grad().
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions dtype(TypeMeta dtype) { return TensorOptions().dtype(dtype); }
template <typename T>
inline TensorOptions dtype() {
  return TensorOptions().dtype(CppTypeToScalarType<T>::value);
}
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions requires_grad(bool requires_grad = true) {
  return TensorOptions().requires_grad(requires_grad);
}

}  // namespace tinytorch
