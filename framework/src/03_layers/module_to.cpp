// Module::to(device / dtype): LibTorch's in-place conversion of a module's parameters and buffers.
#include "tinytorch/nn/cloneable.h"
#include "tinytorch/nn/module.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {
namespace nn {
namespace {
// LibTorch's `tensor.set_data(tensor.to(dtype))`: the same Tensor (and every handle to it: an
// optimizer's, a member's) now holds the converted values; its autograd state (requires_grad,
// grad) stays as it was.
void convert_in_place(const Tensor& tensor, ScalarType dtype) {
  if (!tensor.defined() || tensor.scalar_type() == dtype) return;
  Tensor converted = tensor.detach().to(dtype);
  TensorImpl* impl = tensor.unsafeGetTensorImpl();
  auto autograd_meta = impl->autograd_meta();
  *impl = *converted.unsafeGetTensorImpl();
  impl->set_autograd_meta(std::move(autograd_meta));
}
}  // namespace

namespace detail {
void assign_data(const Tensor& target, const Tensor& source) {
  if (target.scalar_type() == source.scalar_type()) {
    Tensor values = target;
    values.copy_(source);
    return;
  }
  Tensor copy = source.detach().clone();
  TensorImpl* impl = target.unsafeGetTensorImpl();
  auto autograd_meta = impl->autograd_meta();
  *impl = *copy.unsafeGetTensorImpl();
  impl->set_autograd_meta(std::move(autograd_meta));
}
}  // namespace detail

void Module::to(Device device, ScalarType dtype, bool /*non_blocking*/) {
  check_device_is_cpu(device);
  for (const Tensor& parameter : parameters()) convert_in_place(parameter, dtype);
  for (const Tensor& buffer : buffers()) convert_in_place(buffer, dtype);
}

void Module::to(ScalarType dtype, bool non_blocking) { to(Device(DeviceType::CPU), dtype, non_blocking); }

void Module::to(Device device, bool /*non_blocking*/) { check_device_is_cpu(device); }

}  // namespace nn
}  // namespace tinytorch
