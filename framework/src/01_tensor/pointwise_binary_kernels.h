#pragma once
// What the pointwise_binary*.cpp files share. An element-wise op of two tensors is one row (a
// BinaryOp): its kernel for each computation type, how its result dtype follows from the operands'
// (PyTorch's promotion), and the ops it records for autograd. apply / apply_in_place / apply_out
// then give it LibTorch's three spellings; the learner's broadcast_binary_loop (elementwise.cpp)
// runs the kernel.
#include <cstdint>
#include <initializer_list>

#include "internal.h"
#include "tinytorch/dispatch.h"

namespace tinytorch {
namespace pointwise {

template <typename T>
using ElementFn = T (*)(T, T);

// The op's element function for each computation type (internal.h's detail::computation_type:
// narrow integers compute in int64, Half/BFloat16 in float); nullptr where the op refuses the
// type, with LibTorch's error ("gcd_cpu" not implemented for 'Float').
struct ElementKernels {
  ElementFn<bool> on_bool = nullptr;
  ElementFn<int64_t> on_long = nullptr;
  ElementFn<float> on_float = nullptr;
  ElementFn<double> on_double = nullptr;
};

// Which of the computation types an op has a kernel for.
enum Kinds : unsigned { kBools = 1, kIntegers = 2, kFloats = 4, kAllKinds = 7 };

// The element functions of `Op::apply<T>` for the kinds in `kKinds` (Op::apply is instantiated
// only for those, so an integer-only op need not compile for float).
template <typename Op, unsigned kKinds>
constexpr ElementKernels kernels_of() {
  ElementKernels k;
  if constexpr ((kKinds & kBools) != 0) k.on_bool = &Op::template apply<bool>;
  if constexpr ((kKinds & kIntegers) != 0) k.on_long = &Op::template apply<int64_t>;
  if constexpr ((kKinds & kFloats) != 0) {
    k.on_float = &Op::template apply<float>;
    k.on_double = &Op::template apply<double>;
  }
  return k;
}

// How the result dtype follows from the operands'.
enum class ResultDtype {
  Promoted,         // result_type(self, other)
  IntegerToFloat,   // the same, but integers and bool give the default float dtype (atan2, xlogy)
};

struct BinaryOp {
  const char* kernel_name;  // LibTorch's kernel, named in its dtype error: "fmod_cpu"
  ResultDtype result_dtype;
  ElementKernels kernels;
  bool divides;             // integer division by zero throws "ZeroDivisionError"
  const OpHandle& tensor_op;  // recorded when `other` is a tensor (FmodBackward1)
  const OpHandle& number_op;  // recorded when it is a number (FmodBackward0)
  bool has_half_kernel = true;  // LibTorch 1.13's CPU kernel takes kHalf (atan2's, hypot's... do not)
};

ScalarType result_dtype(const BinaryOp& op, const Tensor& self, const Tensor& other);

// op(self, other) broadcast, in the result dtype; records nothing.
Tensor compute(const BinaryOp& op, const Tensor& self, const Tensor& other);
// The same, recorded as the op (tensor_op, or number_op when other is a wrapped number).
Tensor apply(const BinaryOp& op, const Tensor& self, const Tensor& other);
// self = op(self, other): the result must keep self's shape and be castable to its dtype.
Tensor& apply_in_place(const BinaryOp& op, const Tensor& self, const Tensor& other);
// out = op(self, other).
Tensor& apply_out(const char* name, const BinaryOp& op, Tensor& out, const Tensor& self, const Tensor& other);

// out(n) = fn(x(n), y(n)) over the broadcast of x and y, both already in In; out is allocated.
template <typename In, typename Out>
Tensor broadcast_map(const Tensor& x, const Tensor& y, ScalarType out_dtype, Out (*fn)(In, In)) {
  Tensor out = empty(infer_size(x.sizes(), y.sizes()), TensorOptions(out_dtype));
  native::broadcast_binary_loop<In, Out>(x, y, out, fn);
  return out;
}

// ---- Writing results ----

// Copies `result` into self after LibTorch's in-place checks ("result type Float can't be cast to
// the desired output type Long", "output with shape [3] doesn't match the broadcast shape [2, 3]").
// Records nothing.
const Tensor& write_in_place(const Tensor& self, const Tensor& result);

// Refuses an out= call while an argument requires grad, as LibTorch: "add(): functions with
// out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
void check_out_without_grad(const char* name, std::initializer_list<Tensor> arguments);
// Copies `result` into out: cast check, out resized when its shape differs. Records nothing.
Tensor& write_out(Tensor& out, const Tensor& result);

// self's value before an in-place op writes it, when autograd is recording and some input
// requires grad (the rule may need it; LibTorch saves self.clone() the same way); undefined otherwise.
Tensor original_for_backward(const Tensor& self, std::initializer_list<Tensor> inputs);

// Tensors made of kBool masks and zeros for backward rules, in `like`'s dtype.
Tensor as_weight(const Tensor& mask, const Tensor& like);

}  // namespace pointwise
}  // namespace tinytorch
