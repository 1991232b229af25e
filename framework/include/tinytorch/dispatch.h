#pragma once
// The single registration point between ops and autograd, modelled on PyTorch's Autograd dispatch key.
//
// Every public op (add, mm, sum, view, ...) runs its CPU kernel and then calls
//     static OpHandle mm_op("mm");
//     record_op(mm_op, {self, mat2}, {result}, attributes);
// which returns at once unless an AutogradLayer is registered AND grad mode is on, or an OpObserver
// (module 14's profiler) watches. In module 01 neither exists, so no op records anything and the
// cost is two branches (no heap allocation; callgrind: 4 instructions of the ~3,600 of a 1-element add_).
// What the op's backward keeps and computes is declared once, next to the op, under the same name
// (tinytorch/derivative.h); the handle finds that declaration on its first recorded call and keeps
// it, so a recorded op never searches the table again. An in-place op also calls check_in_place()
// before its kernel writes.
//
// How module 06 (Autograd) hooks in, without changing Tensor or any op:
//   1. Define tinytorch::autograd::AutogradMeta (grad, grad_fn, requires_grad, retains_grad) and
//      keep it in TensorImpl::autograd_meta().
//   2. Implement AutogradLayer:
//        - record(op): if any input requires grad, build the backward node that the op's declaration
//          (op.handle.derivative()) describes, and set it as the grad_fn of every output;
//        - check_in_place(op): refuse an in-place op that autograd cannot follow, before it writes;
//        - the Tensor-surface methods (requires_grad, set_requires_grad, grad, backward, ...),
//          which Tensor forwards here once a layer is registered.
//   3. Register it once: set_autograd_layer(&the_engine). Tensor::requires_grad_(true) and
//      TensorOptions().requires_grad(true) start working from then on.
// Composite ops (matmul, reshape-as-copy, index, ...) record nothing themselves: the primitive ops
// they are made of record, exactly as PyTorch's CompositeImplicitAutograd ops do.
#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "tinytorch/derivative.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// What a backward rule may need besides the inputs and outputs. Each op fills only what it uses:
//   add/sub: alpha            pow: exponent (Scalar exponent)     clamp: min, max
//   sum/mean: dims, keepdim    max/min (dim): dim, keepdim         to: dtype
//   view/reshape/expand: sizes (the input's sizes are on the input)
//   transpose: dim, dim1       permute: dims      select: dim, index      unsqueeze/squeeze: dim
//   narrow: dim, start, length slice: dim, start, end, step       cat: dim
//   convolution: sizes = {stride h, w, padding h, w, dilation h, w}, dim = groups
// The IntArrayRefs point into the caller's locals; a backward node keeps its own copy.
struct OpAttributes {
  IntArrayRef dims;
  IntArrayRef sizes;
  int64_t dim = 0;
  int64_t dim1 = 0;
  int64_t index = 0;
  int64_t start = 0;
  int64_t end = 0;
  int64_t length = 0;
  int64_t step = 1;
  bool keepdim = false;
  Scalar alpha = 1;
  Scalar exponent = 1;
  std::optional<Scalar> min;
  std::optional<Scalar> max;
  std::optional<ScalarType> dtype;
};

// The op a forward records: the name its derivative is registered under, and that declaration once
// found. Keep one per call site with static storage (`static OpHandle mm_op("mm");` in the function
// or at namespace scope): the constructor is constexpr, so it costs nothing at startup, and the
// table is searched by name on the first recorded call only (every call while no declaration
// exists, so that one registered later is still found).
class OpHandle {
 public:
  constexpr explicit OpHandle(const char* name) : name_(name) {}
  OpHandle(const OpHandle&) = delete;
  OpHandle& operator=(const OpHandle&) = delete;

  const char* name() const { return name_; }
  // The op's declaration (tinytorch/derivative.h), or nullptr when none is registered.
  const Derivative* derivative() const {
    const Derivative* found = derivative_.load(std::memory_order_acquire);
    return found != nullptr ? found : look_up();
  }

 private:
  const Derivative* look_up() const;

  const char* name_;
  mutable std::atomic<const Derivative*> derivative_{nullptr};  // ops may record on several threads
};

// One executed op, handed to the layer with the handle its forward recorded. An in-place op lists
// the modified tensor as input 0 and as its one output.
struct OpRecord {
  const OpHandle& handle;
  ArrayRef<Tensor> inputs;
  ArrayRef<Tensor> outputs;
  const OpAttributes& attributes;
  bool in_place = false;
  // An in-place op whose backward needs self's old value copies it before writing (LibTorch saves
  // self.clone() the same way); undefined otherwise.
  Tensor original_self = Tensor();

  const char* name() const { return handle.name(); }
};

inline void SaveForBackward::input(size_t i) {
  tensor(op.in_place && i == 0 ? op.original_self : op.inputs[i]);
}
inline void SaveForBackward::output(size_t i) { tensor(op.outputs[i], /*is_output=*/true); }
inline void SaveForBackward::input_sizes(size_t i) { sizes_.push_back(op.inputs[i].sizes().vec()); }

class AutogradLayer {
 public:
  virtual ~AutogradLayer() = default;

  // Called after every public op while grad mode is on.
  virtual void record(const OpRecord& op) = 0;
  // Called by an in-place op before its kernel writes (outputs still empty): throws if the write
  // would make a gradient wrong, such as an in-place op on a leaf that requires grad.
  virtual void check_in_place(const OpRecord& /*op*/) {}

  // Tensor's autograd surface forwards to these while a layer is registered.
  virtual bool requires_grad(const Tensor& self) const = 0;
  virtual void set_requires_grad(const Tensor& self, bool requires_grad) = 0;
  virtual const Tensor& grad(const Tensor& self) = 0;
  virtual Tensor& mutable_grad(const Tensor& self) = 0;
  virtual void backward(const Tensor& root, const Tensor& gradient, std::optional<bool> retain_graph,
                        bool create_graph) = 0;
  virtual const std::shared_ptr<autograd::Node>& grad_fn(const Tensor& self) = 0;
  virtual bool is_leaf(const Tensor& self) = 0;
  virtual void retain_grad(const Tensor& self) = 0;
  virtual bool retains_grad(const Tensor& self) = 0;
  virtual Tensor detach(const Tensor& self) = 0;
  // Tensor::register_hook / remove_hook: returns the hook's index among the tensor's hooks. Not
  // pure, so that a stand-in layer in a test need not implement them; the default refuses.
  virtual unsigned register_hook(const Tensor& self, std::function<Tensor(const Tensor&)> hook);
  virtual void remove_hook(const Tensor& self, unsigned pos);
};

// Registers (or, with nullptr, removes) the gradient engine. The layer is not owned: it must
// outlive every tensor op that runs while it is registered.
void set_autograd_layer(AutogradLayer* layer);
AutogradLayer* autograd_layer();

// Grad mode, per thread, like LibTorch's: torch::NoGradGuard turns recording off in a scope.
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : previous_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool previous_;
};

struct NoGradGuard : public AutoGradMode {
  NoGradGuard() : AutoGradMode(false) {}
};

// Something that watches every op as it finishes, such as the profiler behind
// torch::autograd::profiler::RecordProfile (module 14). One at a time; not owned.
class OpObserver {
 public:
  virtual ~OpObserver() = default;
  virtual void on_op(const OpHandle& op, ArrayRef<Tensor> inputs, ArrayRef<Tensor> outputs) = 0;
};
void set_op_observer(OpObserver* observer);
OpObserver* op_observer();

namespace detail {
extern AutogradLayer* registered_autograd_layer;
extern OpObserver* registered_op_observer;
}  // namespace detail

// True when ops must report themselves: a layer is registered and grad mode is on.
inline bool is_recording() {
  return detail::registered_autograd_layer != nullptr && GradMode::is_enabled();
}

// The hook every public op calls after its kernel. The common case (no layer, no observer) is two
// branches.
// With no observer (profiler off) that is a second branch, on a global that stays in cache.
inline void record_op(const OpHandle& op, ArrayRef<Tensor> inputs, ArrayRef<Tensor> outputs,
                      const OpAttributes& attributes = OpAttributes()) {
  if (is_recording()) detail::registered_autograd_layer->record(OpRecord{op, inputs, outputs, attributes});
  if (detail::registered_op_observer != nullptr) detail::registered_op_observer->on_op(op, inputs, outputs);
}
inline void record_op(const OpHandle& op, std::initializer_list<Tensor> inputs,
                      std::initializer_list<Tensor> outputs, const OpAttributes& attributes = OpAttributes()) {
  record_op(op, ArrayRef<Tensor>(inputs.begin(), inputs.size()), ArrayRef<Tensor>(outputs.begin(), outputs.size()),
            attributes);
}

// An in-place op calls check_in_place before its kernel and record_in_place_op after it; `inputs`
// starts with self, the tensor written.
inline void check_in_place(const OpHandle& op, std::initializer_list<Tensor> inputs) {
  if (!is_recording()) return;
  const OpAttributes attributes;
  const OpRecord record{op, ArrayRef<Tensor>(inputs.begin(), inputs.size()), ArrayRef<Tensor>(), attributes, true};
  detail::registered_autograd_layer->check_in_place(record);
}
inline void record_in_place_op(const OpHandle& op, std::initializer_list<Tensor> inputs,
                               const OpAttributes& attributes = OpAttributes(), const Tensor& original_self = Tensor()) {
  const Tensor& self = *inputs.begin();
  if (is_recording()) {
    detail::registered_autograd_layer->record(OpRecord{op, ArrayRef<Tensor>(inputs.begin(), inputs.size()),
                                                       ArrayRef<Tensor>(&self, 1), attributes, true, original_self});
  }
  if (detail::registered_op_observer != nullptr) {
    detail::registered_op_observer->on_op(op, ArrayRef<Tensor>(inputs.begin(), inputs.size()), ArrayRef<Tensor>(&self, 1));
  }
}

// ---- Device kernels (module 22) ----
//
// An op's CPU kernel is the code at its kernel point (binary_kernel for + - * /, copy_same_shape for
// copies, the matrix product's, the convolution's, ...). Where the op also has a kernel for a device,
// that kernel is declared under the op's LibTorch name and the device type:
//     const RegisterDeviceKernel<Tensor(const Tensor&, const Tensor&)> mm_opencl("mm", DeviceType::OPENCL, &mm_on_device);
// (22_gpu_kernels/device_ops.cpp declares OpenCL's, made of the learner's kernels), and the kernel
// point asks for it when a tensor is on a device:
//     if (on_device(self, mat2)) return device_kernel<Tensor(const Tensor&, const Tensor&)>("mm", self, mat2)(self, mat2);
// The op records itself for autograd after either kernel, the same way, so a backward made of ops
// runs on the device too. An op without a kernel for the device throws LibTorch's "Could not run
// 'aten::mm' with arguments from the 'OpenCL' backend" naming the op and the device: nothing is
// copied to the CPU behind the caller's back (tensor.cpu() does that when asked).
using AnyDeviceKernel = void (*)();
void register_device_kernel(const char* op_name, DeviceType type, AnyDeviceKernel kernel,
                            const std::type_info& signature);
// The kernel registered for (op_name, type), or nullptr; a kernel registered with another signature throws.
AnyDeviceKernel find_device_kernel(const char* op_name, DeviceType type, const std::type_info& signature);
[[noreturn]] void throw_no_device_kernel(const char* op_name, const Device& device);
// The names of the ops with a kernel for `type`, sorted (what the error and the lesson list).
std::vector<std::string> ops_with_device_kernels(DeviceType type);

template <typename Signature>
struct RegisterDeviceKernel {
  RegisterDeviceKernel(const char* op_name, DeviceType type, Signature* kernel) {
    register_device_kernel(op_name, type, reinterpret_cast<AnyDeviceKernel>(kernel), typeid(Signature));
  }
};

// True when a defined tensor among `tensors` is not on the CPU.
template <typename... Tensors>
bool on_device(const Tensors&... tensors) {
  return (... || (tensors.defined() && !tensors.is_cpu()));
}

// The device an op on `tensors` runs on: the one device they share, where a CPU tensor of 0 dims (a
// number, such as the 2 of x * 2) goes with any device, as in LibTorch; two devices throw LibTorch's
// "Expected all tensors to be on the same device, but found at least two devices, opencl:0 and cpu!".
Device common_device(const char* op_name, std::initializer_list<const Tensor*> tensors);

// The kernel of `op_name` for `device` (a factory's: empty(..., device)), or LibTorch's error.
template <typename Signature>
Signature* device_kernel_on(const char* op_name, const Device& device) {
  AnyDeviceKernel kernel = find_device_kernel(op_name, device.type(), typeid(Signature));
  if (kernel == nullptr) throw_no_device_kernel(op_name, device);
  return reinterpret_cast<Signature*>(kernel);
}

// The kernel of `op_name` for the device `tensors` are on.
template <typename Signature, typename... Tensors>
Signature* device_kernel(const char* op_name, const Tensors&... tensors) {
  return device_kernel_on<Signature>(op_name, common_device(op_name, {&tensors...}));
}

}  // namespace tinytorch
