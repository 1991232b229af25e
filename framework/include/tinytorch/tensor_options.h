#pragma once
// TensorOptions: the builder passed to factories, `torch::zeros({2}, torch::dtype(torch::kLong))`.
// TinyTorch is CPU-only and strided-only, so a dtype and requires_grad are all it carries.
#include <optional>

#include "tinytorch/device.h"
#include "tinytorch/scalar_type.h"

namespace tinytorch {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT: implicit, `zeros({2}, kLong)`
  TensorOptions(TypeMeta dtype) : dtype_(dtype.toScalarType()) {}  // NOLINT
  // A device alone, as LibTorch's TensorOptions(torch::kCPU): checked, then nothing to keep.
  TensorOptions(Device device) { check_device_is_cpu(device); }           // NOLINT
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

  // CPU-only: any device is accepted as LibTorch spells it, a CUDA one fails as a CPU-only LibTorch does.
  TensorOptions device(Device device) const {
    check_device_is_cpu(device);
    return *this;
  }
  TensorOptions device(DeviceType type, DeviceIndex index = -1) const { return device(Device(type, index)); }
  Device device() const { return Device(DeviceType::CPU); }

  TypeMeta dtype() const { return TypeMeta(dtype_.value_or(default_dtype())); }
  bool has_dtype() const { return dtype_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  bool requires_grad() const { return requires_grad_; }

 private:
  std::optional<ScalarType> dtype_;
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
