// torch::Device, device strings and moving tensors between devices (tinytorch/device.h).
#include "tinytorch/device.h"

#include <ostream>
#include <string>

#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

Device::Device(DeviceType type, DeviceIndex index) : type_(type), index_(index) {
  TT_CHECK(index >= -1, "Device index must be -1 or non-negative, got ", static_cast<int>(index));
  // LibTorch checks "CPU device index must be -1 or zero" only in its debug builds: a release LibTorch, the one
  // programs link, accepts Device("cpu:1") (tests/compat/programs/devices.cpp), and so does tinytorch.
}

namespace {
// LibTorch's device-type names, lower case as device strings spell them (c10/core/Device.cpp).
constexpr struct {
  const char* name;
  DeviceType type;
} kDeviceTypeNames[] = {
    {"cpu", DeviceType::CPU},       {"cuda", DeviceType::CUDA},     {"ipu", DeviceType::IPU},
    {"xpu", DeviceType::XPU},       {"mkldnn", DeviceType::MKLDNN}, {"opengl", DeviceType::OPENGL},
    {"opencl", DeviceType::OPENCL}, {"ideep", DeviceType::IDEEP},   {"hip", DeviceType::HIP},
    {"ve", DeviceType::VE},         {"fpga", DeviceType::FPGA},     {"ort", DeviceType::ORT},
    {"xla", DeviceType::XLA},       {"lazy", DeviceType::Lazy},     {"vulkan", DeviceType::Vulkan},
    {"mps", DeviceType::MPS},       {"meta", DeviceType::Meta},     {"hpu", DeviceType::HPU},
    {"metal", DeviceType::Metal},   {"privateuseone", DeviceType::PrivateUse1},
};

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
  for (const auto& entry : kDeviceTypeNames) {
    if (type == entry.name) return Device(entry.type, index);
  }
  TT_CHECK(false, "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, ",
           "vulkan, mps, meta, hpu, privateuseone device type at start of device string: ", text);
  return Device(DeviceType::CPU);
}
}  // namespace

Device::Device(const std::string& device_string) : Device(parse_device(device_string)) {}

std::string DeviceTypeName(DeviceType type, bool lower_case) {
  for (const auto& entry : kDeviceTypeNames) {
    if (entry.type != type) continue;
    if (lower_case) return entry.name;
    switch (type) {  // LibTorch's upper-case spellings
      case DeviceType::Lazy: return "LAZY";
      case DeviceType::Vulkan: return "VULKAN";
      case DeviceType::Metal: return "METAL";
      case DeviceType::Meta: return "META";
      case DeviceType::PrivateUse1: return "PRIVATEUSEONE";
      default: break;
    }
    std::string upper = entry.name;
    for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
    return upper;
  }
  return "UNKNOWN";
}

std::string Device::str() const {
  std::string text = DeviceTypeName(type_, /*lower_case=*/true);
  if (has_index()) text += ":" + std::to_string(static_cast<int>(index_));
  return text;
}

std::ostream& operator<<(std::ostream& stream, DeviceType type) { return stream << DeviceTypeName(type, true); }

std::ostream& operator<<(std::ostream& stream, const Device& device) { return stream << device.str(); }

void check_device_available(const Device& device) {
  if (device.is_cpu()) return;
  if (device.is_opencl()) {
    TT_CHECK(opencl::is_available(),
             "no OpenCL device is present for ", device.str(), ": install an OpenCL driver (on Debian: ",
             "pocl-opencl-icd, which runs OpenCL kernels on the CPU, or your GPU vendor's), check with `clinfo -l`, ",
             "or keep the tensors on the CPU");
    TT_CHECK(!device.has_index() || device.index() < opencl::device_count(), "OpenCL device index ",
             static_cast<int>(device.index()), " is out of range: ", opencl::device_count(),
             " OpenCL device(s) present");
    return;
  }
  // The error a LibTorch built without the device's backend raises on the first request (c10's device guard).
  TT_CHECK(false, "PyTorch is not linked with support for ", DeviceTypeName(device.type(), true), " devices");
}

Device resolve_device(const Device& device) {
  check_device_available(device);
  if (device.is_opencl() && !device.has_index()) return Device(DeviceType::OPENCL, 0);
  return device;
}

Tensor Tensor::to(Device device, ScalarType dtype, bool non_blocking, bool copy) const {
  const Device target = resolve_device(device);
  if (target == this->device()) return to(dtype, non_blocking, copy);
  // Across devices: a copy in the target dtype on the target device, recorded as LibTorch's _to_copy
  // so that the gradient goes back to this tensor's device.
  Tensor result = empty(sizes(), TensorOptions(dtype).device(target));
  // From pinned memory a copy may be queued and left to run (CUDA's cudaMemcpyAsync from pinned pages):
  // the caller keeps the source alive, and later commands on the device's in-order queue wait for it.
  // Nothing to record for autograd: a tensor that requires grad takes the recorded path below.
  if (non_blocking && is_cpu() && dtype == scalar_type() && is_contiguous() && !requires_grad() && is_pinned()) {
    device_kernel_on<void(const Tensor&, const Tensor&)>("copy_non_blocking", target)(result, *this);
    return result;
  }
  result.copy_(*this, non_blocking);
  return result;
}

Tensor Tensor::to(Device device, bool non_blocking, bool copy) const {
  return to(device, scalar_type(), non_blocking, copy);
}

Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return to(options.device_opt().value_or(device()), options.dtype_opt().value_or(scalar_type()), non_blocking, copy);
}

Tensor Tensor::cpu() const { return is_cpu() ? *this : to(Device(DeviceType::CPU)); }

Tensor Tensor::cuda() const { return to(Device(DeviceType::CUDA)); }

namespace cuda {
void manual_seed(uint64_t) {}
void manual_seed_all(uint64_t) {}
void synchronize(int64_t) { check_device_available(Device(DeviceType::CUDA)); }
}  // namespace cuda

}  // namespace tinytorch
