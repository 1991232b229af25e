#pragma once
// One declaration per differentiable op, next to the op's forward: LibTorch's derivatives.yaml
// written in C++. A declaration names the op's backward node as LibTorch does, says what the node
// keeps from the forward pass, and gives the backward rule:
//
//   // out (n, m) = self (n, k) @ mat2 (k, m)
//   const RegisterDerivative mm_derivative("mm", {
//       "MmBackward0",
//       [](SaveForBackward& save) { save.input(0); save.input(1); },         // self, mat2
//       [](const BackwardContext& ctx) -> tensor_list {
//         const Tensor& self = ctx.saved(0);
//         const Tensor& mat2 = ctx.saved(1);
//         return {ctx.needs_input_grad(0) ? ctx.grad().mm(mat2.t()) : Tensor(),
//                 ctx.needs_input_grad(1) ? self.t().mm(ctx.grad()) : Tensor()};
//       }});
//
// The op's forward calls record_op(mm_op, ...) after its kernel, mm_op being a static
// OpHandle mm_op("mm") (tinytorch/dispatch.h); that is the whole of its wiring. Declarations are
// plain data and functions over Tensors: modules 01-05 carry them but never run them. Module 06's
// one generic node reads them: when some input requires grad it keeps what `save` chose (saved
// tensors become SavedVariables), a copy of the op's attributes and which inputs need a gradient,
// and on backward calls `backward`. Its engine then does what every
// rule would otherwise repeat: it sums each gradient down to its input's shape (undoing
// broadcasting) and converts it to the input's dtype, as LibTorch's engine does (validate_outputs).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

struct OpRecord;
struct OpAttributes;
using tensor_list = std::vector<Tensor>;

// What a declaration's `save` chooses to keep. Every choice costs memory until backward runs (or
// the graph is freed): keep an output rather than an input when the rule can use either, and only
// the sizes when the rule needs no values.
class SaveForBackward {
 public:
  static constexpr size_t kMaxTensors = 4;

  explicit SaveForBackward(const OpRecord& op_record) : op(op_record) {}

  // Input i of the op. For an in-place op, input 0 is self's value from before the op: the op
  // copies it first when a rule may need it (OpRecord::original_self), and it is undefined otherwise.
  void input(size_t i);
  // Output i of the op (kept without its history: the node is that history).
  void output(size_t i);
  // Any tensor computed from the op's tensors.
  void tensor(const Tensor& t, bool is_output = false) {
    TT_CHECK(count_ < kMaxTensors, "a backward node keeps at most ", kMaxTensors, " tensors");
    tensors_[count_++] = Entry{t, is_output};
  }
  // Only the shape of input i (LibTorch's self_sym_sizes): the rule gets it as saved_sizes(n).
  void input_sizes(size_t i);

  const OpRecord& op;

  // ---- Read by module 06's node ----
  struct Entry {
    Tensor tensor;
    bool is_output = false;
  };
  size_t num_tensors() const { return count_; }
  Entry& entry(size_t i) { return tensors_[i]; }
  std::vector<std::vector<int64_t>>& sizes() { return sizes_; }

 private:
  std::array<Entry, kMaxTensors> tensors_;
  size_t count_ = 0;
  std::vector<std::vector<int64_t>> sizes_;
};

// What a backward rule is given. It returns one gradient per op input, in order, each undefined
// where !needs_input_grad(i). A gradient may keep the output's broadcast shape or another dtype:
// the engine sums it down to the input's shape and converts it.
struct BackwardContext {
  const tensor_list& grads;                          // dLoss/dOutput i, shaped like output i
  const Tensor* saved_tensors;                       // what `save` kept, in the order saved
  const std::vector<std::vector<int64_t>>& sizes;    // the saved input sizes, in the order saved
  const OpAttributes& attributes;                    // the op's dims, alpha, ... (tinytorch/dispatch.h)
  uint64_t needs_grad_mask;                          // bit i: input i needs a gradient
  size_t num_inputs;

  const Tensor& grad(size_t output = 0) const { return grads[output]; }
  const Tensor& saved(size_t i) const { return saved_tensors[i]; }
  IntArrayRef saved_sizes(size_t i) const { return sizes[i]; }
  // False when input i does not require grad (the data batch of a Linear, the 3 in x * 3): skip it.
  bool needs_input_grad(size_t i) const { return i >= 64 || ((needs_grad_mask >> i) & 1) != 0; }
};

struct Derivative {
  const char* node_name;                           // LibTorch's: "MmBackward0"
  void (*save)(SaveForBackward& save);             // nullptr: the rule needs nothing saved
  tensor_list (*backward)(const BackwardContext& ctx);
  bool is_view = false;                            // the output shares the input's storage
};

// Makes `derivative` the backward of the op that records itself as `op_name`. Keep one at
// namespace scope next to the op's forward: it registers before main().
struct RegisterDerivative {
  RegisterDerivative(const char* op_name, const Derivative& derivative);
};

// The declaration registered for `op_name`, or nullptr.
const Derivative* find_derivative(const char* op_name);

}  // namespace tinytorch
