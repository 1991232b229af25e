// torch::Device on a CPU-only framework (tinytorch/device.h).
#include "tinytorch/device.h"

#include <ostream>
#include <string>

#include "tinytorch/errors.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

Device::Device(DeviceType type, DeviceIndex index) : type_(type), index_(index) {
  TT_CHECK(index >= -1, "Device index must be -1 or non-negative, got ", static_cast<int>(index));
  TT_CHECK(!is_cpu() || index <= 0, "CPU device index must be -1 or zero, got ", static_cast<int>(index));
}

namespace {
Device parse_device(const std::string& text) {
  const auto colon = text.find(':');
  const std::string type = text.substr(0, colon);
  DeviceIndex index = -1;
  if (colon != std::string::npos) {
    const std::string digits = text.substr(colon + 1);
    TT_CHECK(!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() <= 2,
             "Invalid device string: '", text, "'");
    index = static_cast<DeviceIndex>(std::stoi(digits));
  }
  if (type == "cpu") return Device(DeviceType::CPU, index);
  if (type == "cuda") return Device(DeviceType::CUDA, index);
  TT_CHECK(false, "Expected one of cpu, cuda device type at start of device string: ", text);
  return Device(DeviceType::CPU);
}
}  // namespace

Device::Device(const std::string& device_string) : Device(parse_device(device_string)) {}

std::string Device::str() const {
  std::string text = is_cpu() ? "cpu" : "cuda";
  if (has_index()) text += ":" + std::to_string(static_cast<int>(index_));
  return text;
}

std::ostream& operator<<(std::ostream& stream, DeviceType type) {
  return stream << (type == DeviceType::CPU ? "cpu" : "cuda");
}

std::ostream& operator<<(std::ostream& stream, const Device& device) { return stream << device.str(); }

void check_device_is_cpu(const Device& device) {
  // The error a LibTorch built without CUDA raises on the first CUDA request (c10's device guard).
  TT_CHECK(device.is_cpu(), "PyTorch is not linked with support for ", device.is_cuda() ? "cuda" : "cpu", " devices");
}

Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy) const {
  check_device_is_cpu(device);
  return to(dtype, non_blocking, copy);
}

Tensor Tensor::to(Device device, bool non_blocking, bool copy) const {
  return to(device, scalar_type(), non_blocking, copy);
}

Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return to(options.dtype_opt().value_or(scalar_type()), non_blocking, copy);
}

Tensor Tensor::cuda() const { return to(Device(DeviceType::CUDA)); }

namespace cuda {
void manual_seed(uint64_t) {}
void manual_seed_all(uint64_t) {}
void synchronize(int64_t) { check_device_is_cpu(Device(DeviceType::CUDA)); }
}  // namespace cuda

}  // namespace tinytorch
