#pragma once
// Custom autograd functions, LibTorch's torch::autograd::Function<T> (custom_function.h):
//
//   struct MulConstant : public torch::autograd::Function<MulConstant> {
//     static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor x, double k) {
//       ctx->saved_data["k"] = k;
//       return x * k;                     // runs with grad mode off: nothing here is recorded
//     }
//     static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
//                                                    torch::autograd::variable_list grads) {
//       return {grads[0] * ctx->saved_data["k"].toDouble(), torch::Tensor()};  // one per forward argument
//     }
//   };
//   torch::Tensor y = MulConstant::apply(x, 2.0);   // y.grad_fn()->name(): "tinytorch::autograd::CppNode<MulConstant>"
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tinytorch/autograd/node.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/serialize/ivalue.h"

namespace tinytorch {

namespace autograd {

class CustomNodeBase;

// What forward hands to backward (LibTorch's AutogradContext).
struct AutogradContext {
  // Tensors backward needs; get them back with get_saved_variables(). Save inputs or outputs only.
  void save_for_backward(variable_list to_save);
  variable_list get_saved_variables() const;
  // Outputs that have no gradient (indices, masks): they get no grad_fn.
  void mark_non_differentiable(const variable_list& outputs);
  // Inputs forward modified in place (accepted for LibTorch compatibility).
  void mark_dirty(const variable_list& inputs);
  // With true (the default), undefined output gradients reach backward as zeros.
  void set_materialize_grads(bool value) { materialize_grads_ = value; }
  // Whether forward argument number `index` (counting every argument) needs a gradient.
  bool needs_input_grad(size_t index) const;

  // Anything else backward needs: numbers, strings, lists of ints (tensors go to save_for_backward).
  std::unordered_map<std::string, IValue> saved_data;

 private:
  friend class CustomNodeBase;
  variable_list to_save_;
  std::vector<SavedVariable> saved_variables_;
  std::unordered_set<const TensorImpl*> non_differentiable_;
  std::vector<bool> needs_input_grad_;
  bool materialize_grads_ = true;
  bool has_freed_buffers_ = false;
};

// The node of a custom function: the untyped part of CppNode<T>.
class CustomNodeBase : public Node {
 public:
  std::string name() const override;
  void release_variables() override;
  variable_list saved_tensors() const override;
  AutogradContext ctx_;

  // ---- apply()'s steps, typed code calls them around T::forward / T::backward ----
  // Records the tensor arguments; returns whether the call must be recorded at all.
  bool prepare(const variable_list& tensor_inputs, std::vector<bool> is_tensor_argument);
  // Gives each output its grad_fn and turns ctx->save_for_backward into saved variables.
  void wrap_outputs(variable_list& outputs, const variable_list& tensor_inputs, bool is_executable);

 protected:
  variable_list apply(variable_list&& grads) override;
  virtual variable_list call_backward(variable_list&& grads) = 0;

 private:
  std::vector<bool> is_tensor_argument_;
  std::vector<std::vector<int64_t>> output_sizes_;
  std::vector<TensorOptions> output_options_;
};

template <class T>
class CppNode : public CustomNodeBase {
 protected:
  variable_list call_backward(variable_list&& grads) override { return T::backward(&ctx_, std::move(grads)); }
};

namespace detail {
inline void collect_tensor_argument(const Tensor& t, variable_list& tensors, std::vector<bool>& is_tensor) {
  tensors.push_back(t);
  is_tensor.push_back(true);
}
inline void collect_tensor_argument(const variable_list& list, variable_list& tensors, std::vector<bool>& is_tensor) {
  for (const Tensor& t : list) collect_tensor_argument(t, tensors, is_tensor);
}
template <typename Other>
void collect_tensor_argument(const Other&, variable_list&, std::vector<bool>& is_tensor) {
  is_tensor.push_back(false);
}
inline variable_list as_output_list(Tensor t) { return {std::move(t)}; }
inline variable_list as_output_list(variable_list list) { return list; }
}  // namespace detail

// Derive `struct MyFunction : Function<MyFunction>` with static forward(ctx, args...) and
// static backward(ctx, grad_outputs); call MyFunction::apply(args...).
template <class T>
struct Function {
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args) {
    static_assert(std::is_same<X, T>::value, "call apply() on the Function subclass itself");
    auto node = std::make_shared<CppNode<T>>();
    variable_list tensor_inputs;
    std::vector<bool> is_tensor_argument;
    (detail::collect_tensor_argument(args, tensor_inputs, is_tensor_argument), ...);
    const bool is_executable = node->prepare(tensor_inputs, std::move(is_tensor_argument));
    using Result = decltype(X::forward(&node->ctx_, std::forward<Args>(args)...));
    Result result;
    {
      AutoGradMode no_recording(false);  // forward's ops are the custom op: record none of them
      result = X::forward(&node->ctx_, std::forward<Args>(args)...);
    }
    variable_list outputs = detail::as_output_list(result);
    node->wrap_outputs(outputs, tensor_inputs, is_executable);
    if constexpr (std::is_same<Result, Tensor>::value) {
      return outputs[0];
    } else {
      return outputs;
    }
  }
};

}  // namespace autograd
}  // namespace tinytorch
