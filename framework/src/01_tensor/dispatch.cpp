// The autograd registration point (see tinytorch/dispatch.h): empty until module 06 fills it. The
// table of derivative declarations (tinytorch/derivative.h) lives here too: plain data, filled
// before main() by the files that define the ops, and read only by module 06.
#include "tinytorch/dispatch.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tinytorch {

namespace detail {
AutogradLayer* registered_autograd_layer = nullptr;
OpObserver* registered_op_observer = nullptr;
}  // namespace detail

namespace {
thread_local bool grad_mode_enabled = true;

// Created on first use: registrations run from static initializers in any order.
std::unordered_map<std::string_view, Derivative>& derivatives() {
  static auto* const table = new std::unordered_map<std::string_view, Derivative>();
  return *table;
}
}  // namespace

void set_autograd_layer(AutogradLayer* layer) { detail::registered_autograd_layer = layer; }
AutogradLayer* autograd_layer() { return detail::registered_autograd_layer; }
void set_op_observer(OpObserver* observer) { detail::registered_op_observer = observer; }
OpObserver* op_observer() { return detail::registered_op_observer; }

unsigned AutogradLayer::register_hook(const Tensor& /*self*/, std::function<Tensor(const Tensor&)> /*hook*/) {
  throw Error("this autograd layer does not support tensor hooks: register module 06's engine (enable_autograd())");
}
void AutogradLayer::remove_hook(const Tensor& /*self*/, unsigned /*pos*/) {
  throw Error("this autograd layer does not support tensor hooks: register module 06's engine (enable_autograd())");
}

bool GradMode::is_enabled() { return grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) { grad_mode_enabled = enabled; }

RegisterDerivative::RegisterDerivative(const char* op_name, const Derivative& derivative) {
  const bool added = derivatives().emplace(op_name, derivative).second;
  TT_CHECK(added, "two derivatives are registered for the op '", op_name, "': keep one declaration per op");
}

const Derivative* find_derivative(const char* op_name) {
  const auto& table = derivatives();
  const auto found = table.find(op_name);
  return found == table.end() ? nullptr : &found->second;
}

const Derivative* OpHandle::look_up() const {
  const Derivative* found = find_derivative(name_);
  // Entries never move (the table only grows, and unordered_map keeps its elements in place).
  if (found != nullptr) derivative_.store(found, std::memory_order_release);
  return found;
}

}  // namespace tinytorch

// ---- Device kernels (module 22; see tinytorch/dispatch.h) ----

namespace tinytorch {
namespace {
struct DeviceKernelEntry {
  AnyDeviceKernel kernel;
  const std::type_info* signature;
};
// Keyed by "op_name/type". Created on first use: registrations run from static initializers.
std::unordered_map<std::string, DeviceKernelEntry>& device_kernels() {
  static auto* const table = new std::unordered_map<std::string, DeviceKernelEntry>();
  return *table;
}
std::string device_key(const char* op_name, DeviceType type) {
  return std::string(op_name) + '/' + std::to_string(static_cast<int>(type));
}
}  // namespace

void register_device_kernel(const char* op_name, DeviceType type, AnyDeviceKernel kernel,
                            const std::type_info& signature) {
  device_kernels()[device_key(op_name, type)] = DeviceKernelEntry{kernel, &signature};
}

AnyDeviceKernel find_device_kernel(const char* op_name, DeviceType type, const std::type_info& signature) {
  const auto found = device_kernels().find(device_key(op_name, type));
  if (found == device_kernels().end()) return nullptr;
  TT_CHECK(*found->second.signature == signature, "the ", DeviceTypeName(type), " kernel of '", op_name,
           "' was registered with another signature than its op calls it with");
  return found->second.kernel;
}

std::vector<std::string> ops_with_device_kernels(DeviceType type) {
  const std::string suffix = '/' + std::to_string(static_cast<int>(type));
  std::vector<std::string> names;
  for (const auto& [key, entry] : device_kernels()) {
    if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(key.substr(0, key.size() - suffix.size()));
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

void throw_no_device_kernel(const char* op_name, const Device& device) {
  const std::string backend = device.is_opencl() ? "OpenCL" : DeviceTypeName(device.type());
  std::string available;
  for (const std::string& name : ops_with_device_kernels(device.type())) {
    available += (available.empty() ? "" : ", ") + name;
  }
  throw Error(detail::str(
      "Could not run 'aten::", op_name, "' with arguments from the '", backend, "' backend. tinytorch has no ",
      backend, " kernel for '", op_name, "' (tensors on ", device.str(), "), and does not copy to the CPU ",
      "behind your back: call .cpu() on the tensors first, ask for the round trip by name with "
      "torch::opencl::on_cpu(op, tensors...), or use an op that has one",
      available.empty() ? std::string(" (none is registered: the device kernels arrive with module 22)")
                        : " (" + available + ")",
      "."));
}

Device common_device(const char* op_name, std::initializer_list<const Tensor*> tensors) {
  const Tensor* first_device = nullptr;
  const Tensor* first_cpu = nullptr;  // a CPU tensor with dims: cannot go with a device tensor
  for (const Tensor* t : tensors) {
    if (!t->defined()) continue;
    if (t->is_cpu()) {
      if (t->dim() > 0 && first_cpu == nullptr) first_cpu = t;
      continue;
    }
    if (first_device == nullptr) {
      first_device = t;
    } else {
      TT_CHECK(first_device->device() == t->device(), "Expected all tensors to be on the same device, but found at ",
               "least two devices, ", first_device->device().str(), " and ", t->device().str(), "! (in ", op_name, ")");
    }
  }
  if (first_device == nullptr) return Device(DeviceType::CPU);
  TT_CHECK(first_cpu == nullptr, "Expected all tensors to be on the same device, but found at least two devices, ",
           first_device->device().str(), " and cpu! (in ", op_name, ": move the CPU tensor with .to(",
           first_device->device().str(), "))");
  return first_device->device();
}

}  // namespace tinytorch
