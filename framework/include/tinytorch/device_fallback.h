#pragma once
// The CPU fallback a program asks for by name (module 22): an op with no kernel for the device its tensors
// are on throws rather than copy them to the CPU behind the caller's back (tinytorch/dispatch.h); where the
// round trip is worth it, say so:
//     Tensor sums = torch::opencl::on_cpu([](const Tensor& x) { return torch::cumsum(x, 1); }, scores);
// runs the op on CPU copies of the device tensors among the arguments and returns its result on their
// device. The copies are ops like any other (to, cpu), so gradients flow back through them. Each call costs
// two transfers per tensor and a wait for the device: measure it (scripts/device-check prints a round trip).
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace opencl {
namespace detail {
inline const Tensor* first_device_tensor() { return nullptr; }
template <typename First, typename... Rest>
const Tensor* first_device_tensor(const First& first, const Rest&... rest) {
  if constexpr (std::is_same_v<std::decay_t<First>, Tensor>) {
    if (first.defined() && !first.is_cpu()) return &first;
  }
  return first_device_tensor(rest...);
}
template <typename T>
decltype(auto) to_cpu(const T& value) {
  if constexpr (std::is_same_v<std::decay_t<T>, Tensor>) {
    return value.defined() ? value.cpu() : value;
  } else {
    return (value);
  }
}
inline Tensor to_device(const Tensor& value, const Device& device) { return value.defined() ? value.to(device) : value; }
inline std::vector<Tensor> to_device(const std::vector<Tensor>& values, const Device& device) {
  std::vector<Tensor> moved;
  moved.reserve(values.size());
  for (const Tensor& v : values) moved.push_back(to_device(v, device));
  return moved;
}
template <typename... Ts>
std::tuple<Ts...> to_device(const std::tuple<Ts...>& values, const Device& device) {
  return std::apply([&](const auto&... v) { return std::tuple<Ts...>(to_device(v, device)...); }, values);
}
}  // namespace detail

// Runs op(args...) with every device Tensor among args copied to the CPU; a Tensor, vector of Tensors or
// tuple of Tensors that op returns comes back on the first device tensor's device (other arguments pass as
// they are). With no device tensor among args it simply runs op(args...).
template <typename Op, typename... Args>
auto on_cpu(Op&& op, const Args&... args) {
  const Tensor* on_device = detail::first_device_tensor(args...);
  if (on_device == nullptr) return std::forward<Op>(op)(args...);
  const Device device = on_device->device();
  return detail::to_device(std::forward<Op>(op)(detail::to_cpu(args)...), device);
}

}  // namespace opencl
}  // namespace tinytorch
