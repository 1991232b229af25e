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
void convert_in_place(const Tensor& tensor, const Device& device, ScalarType dtype) {
  if (!tensor.defined() || (tensor.scalar_type() == dtype && tensor.device() == device)) return;
  Tensor converted = tensor.detach().to(device, dtype);
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
  const Device target = resolve_device(device);
  for (const Tensor& parameter : parameters()) {
    convert_in_place(parameter, target, dtype);
    // LibTorch moves a parameter's gradient with it.
    if (parameter.grad().defined()) convert_in_place(parameter.grad(), target, dtype);
  }
  for (const Tensor& buffer : buffers()) convert_in_place(buffer, target, dtype);
}

void Module::to(ScalarType dtype, bool /*non_blocking*/) {
  for (const Tensor& parameter : parameters()) convert_in_place(parameter, parameter.device(), dtype);
  for (const Tensor& buffer : buffers()) convert_in_place(buffer, buffer.device(), dtype);
}

// Each tensor keeps its dtype: Module::to(device) moves, it does not convert.
void Module::to(Device device, bool /*non_blocking*/) {
  const Device target = resolve_device(device);
  for (const Tensor& parameter : parameters()) {
    convert_in_place(parameter, target, parameter.scalar_type());
    if (parameter.grad().defined()) convert_in_place(parameter.grad(), target, parameter.grad().scalar_type());
  }
  for (const Tensor& buffer : buffers()) convert_in_place(buffer, target, buffer.scalar_type());
}

}  // namespace nn
}  // namespace tinytorch
