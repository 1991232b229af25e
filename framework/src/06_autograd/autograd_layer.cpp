// Module 06's side of the dispatch hook (tinytorch/dispatch.h), given: every op that runs while
// grad mode is on reports itself here; if some input requires grad, this builds the op's backward
// node from the op's declaration (tinytorch/derivative.h), connects it to the nodes of the inputs
// and makes it the grad_fn of the outputs. It also answers Tensor's autograd surface
// (requires_grad_(), grad(), backward(), ...).
#include <array>
#include <string>

#include "autograd_meta.h"
#include "tinytorch/autograd.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace autograd {
namespace {

// The backward node of every op: what the op's declaration (tinytorch/derivative.h) chose to save,
// the op's attributes, and which inputs need a gradient; apply() runs the declared rule. An op
// without a declaration still gets a node, so that its outputs require grad; backward then says
// which derivative is missing.
class OpNode final : public Node {
 public:
  OpNode(const Derivative* derivative, const OpRecord& op, uint64_t needs_grad_mask)
      : derivative_(derivative), attributes_(op.attributes), needs_grad_mask_(needs_grad_mask) {
    if (derivative_ == nullptr) op_name_ = op.name();
    // The record's arrays point into the op's locals: keep copies.
    if (!op.attributes.dims.empty()) attributes_.dims = own(op.attributes.dims, dims_);
    if (!op.attributes.sizes.empty()) attributes_.sizes = own(op.attributes.sizes, sizes_);
  }

  std::string name() const override { return derivative_ != nullptr ? derivative_->node_name : "NotImplemented"; }
  bool is_view() const { return derivative_ != nullptr && derivative_->is_view; }

  // Keeps what the declaration's save() chose; a saved output is held without its history (this node).
  void keep(SaveForBackward& save) {
    num_saved_ = save.num_tensors();
    for (size_t i = 0; i < num_saved_; ++i) {
      saved_[i] = SavedVariable(save.entry(i).tensor, save.entry(i).is_output);
    }
    saved_sizes_ = std::move(save.sizes());
  }

  void release_variables() override {
    for (size_t i = 0; i < num_saved_; ++i) saved_[i].reset_data();
  }

  variable_list saved_tensors() const override {
    variable_list all;
    for (size_t i = 0; i < num_saved_; ++i) {
      if (saved_[i].data().defined()) all.push_back(saved_[i].data());
    }
    return all;
  }

 protected:
  variable_list apply(variable_list&& grads) override {
    if (derivative_ == nullptr) throw Error("the derivative for '" + op_name_ + "' is not implemented.");
    std::array<Tensor, SaveForBackward::kMaxTensors> saved;
    for (size_t i = 0; i < num_saved_; ++i) saved[i] = saved_[i].unpack();
    const BackwardContext context{grads, saved.data(), saved_sizes_, attributes_, needs_grad_mask_, num_outputs()};
    return derivative_->backward(context);
  }

 private:
  static IntArrayRef own(IntArrayRef values, std::vector<int64_t>& storage) {
    storage = values.vec();
    return storage;
  }

  const Derivative* derivative_;
  std::string op_name_;
  OpAttributes attributes_;
  std::vector<int64_t> dims_, sizes_;  // what attributes_.dims and .sizes point at
  uint64_t needs_grad_mask_;
  std::array<SavedVariable, SaveForBackward::kMaxTensors> saved_;
  size_t num_saved_ = 0;
  std::vector<std::vector<int64_t>> saved_sizes_;
};

bool is_view_node(const Node& node) {
  const auto* op_node = dynamic_cast<const OpNode*>(&node);
  return op_node != nullptr && op_node->is_view();
}

// "add.Scalar" -> "add_()": how the user called the op.
std::string in_place_call(const char* name) {
  const std::string op(name);
  return op.substr(0, op.find('.')) + "_()";
}

// An in-place op on a view changes its base too, and this engine does not follow a view back to
// its base (LibTorch's CopySlices): refuse rather than compute a wrong gradient for the base.
// A view is recognised by its storage being shared and its history being a view op (or absent).
void check_in_place_on_view(const OpRecord& op) {
  const Tensor& self = op.inputs[0];
  if (self.storage().use_count() <= 1) return;  // no other tensor sees this memory
  const AutogradMeta* meta = meta_of(self);
  const bool has_history = meta != nullptr && meta->grad_fn != nullptr;
  if (has_history && !is_view_node(*meta->grad_fn)) return;
  if (has_history) {
    const auto* leaf = dynamic_cast<const AccumulateGrad*>(meta->grad_fn->next_edges()[0].function.get());
    TT_CHECK(leaf == nullptr || !leaf->variable().is_alias_of(self),
             "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
  throw Error(::tinytorch::detail::str(
      "in-place ", in_place_call(op.name()), " on a view of another tensor while gradients are recorded: TinyTorch's "
      "autograd does not follow a view back to its base, so the base's gradient would be wrong. Compute the result "
      "out of place, or run the update under torch::NoGradGuard"));
}

class GradientEngine final : public AutogradLayer {
 public:
  // Builds the op's node when some input requires grad: edges to the inputs' nodes, one metadata
  // entry per output, the outputs' history, then what the declaration saves (a saved output must
  // already know its node).
  void record(const OpRecord& op) override {
    bool any_requires_grad = false;
    uint64_t needs_grad_mask = 0;  // inputs past 64 (a long torch::cat) count as needing one
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (!tensor_requires_grad(op.inputs[i])) continue;
      any_requires_grad = true;
      if (i < 64) needs_grad_mask |= uint64_t{1} << i;
    }
    if (!any_requires_grad) return;
    if (op.in_place) check_leaf(op.inputs[0]);
    const Derivative* derivative = op.handle.derivative();
    auto node = std::make_shared<OpNode>(derivative, op, needs_grad_mask);
    edge_list edges;
    edges.reserve(op.inputs.size());
    for (const Tensor& input : op.inputs) edges.push_back(tensor_requires_grad(input) ? gradient_edge(input) : Edge());
    node->set_next_edges(std::move(edges));
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const Tensor& output = op.outputs[i];
      node->add_input_metadata(output);
      if (output.defined() && output.is_floating_point()) set_history(output, node, static_cast<uint32_t>(i));
    }
    if (derivative != nullptr && derivative->save != nullptr) {
      SaveForBackward save(op);
      derivative->save(save);
      node->keep(save);
    }
  }

  void check_in_place(const OpRecord& op) override {
    bool any_requires_grad = false;
    for (const Tensor& input : op.inputs) any_requires_grad = any_requires_grad || tensor_requires_grad(input);
    if (!any_requires_grad) return;
    check_leaf(op.inputs[0]);
    check_in_place_on_view(op);
  }

  bool requires_grad(const Tensor& self) const override { return tensor_requires_grad(self); }

  void set_requires_grad(const Tensor& self, bool requires_grad) override {
    TT_CHECK(self.defined(), "requires_grad_() called on an undefined Tensor");
    AutogradMeta* meta = meta_of(self);
    if (meta != nullptr && meta->grad_fn != nullptr) {
      TT_CHECK(requires_grad,
               "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
               "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
      return;
    }
    if (!requires_grad && meta == nullptr) return;
    TT_CHECK(!requires_grad || self.is_floating_point(),
             "Only Tensors of floating point and complex dtype can require gradients");
    materialized_meta(self).requires_grad = requires_grad;
  }

  const Tensor& grad(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta != nullptr ? meta->grad : undefined_;
  }

  Tensor& mutable_grad(const Tensor& self) override { return materialized_meta(self).grad; }

  void backward(const Tensor& root, const Tensor& gradient, std::optional<bool> retain_graph,
                bool create_graph) override {
    const ArrayRef<Tensor> gradients = gradient.defined() ? ArrayRef<Tensor>(gradient) : ArrayRef<Tensor>();
    run_backward(root, gradients, retain_graph, create_graph, {});
  }

  const std::shared_ptr<Node>& grad_fn(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta != nullptr ? meta->grad_fn : no_node_;
  }

  bool is_leaf(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta == nullptr || meta->grad_fn == nullptr;
  }

  // A hook among the tensor's others (LibTorch 1.13): hooks registered before it change what it keeps.
  void retain_grad(const Tensor& self) override {
    TT_CHECK(tensor_requires_grad(self), "can't retain_grad on Tensor that has requires_grad=False");
    AutogradMeta& meta = materialized_meta(self);
    if (meta.grad_fn == nullptr || meta.retains_grad) return;  // a leaf keeps its grad anyway
    meta.retains_grad = true;
    std::weak_ptr<AutogradMeta> weak_meta = self.unsafeGetTensorImpl()->autograd_meta();
    hooks_of(self).push_back([weak_meta](const Tensor& grad) {
      std::shared_ptr<AutogradMeta> retained = weak_meta.lock();
      if (!retained) return Tensor();
      // Its own copy, accumulated across backward calls like a leaf's.
      if (!retained->grad.defined()) {
        retained->grad = GradMode::is_enabled() ? grad : grad.clone();
      } else {
        retained->grad = retained->grad + grad;
      }
      return Tensor();
    });
  }

  unsigned register_hook(const Tensor& self, std::function<Tensor(const Tensor&)> hook) override {
    TT_CHECK(tensor_requires_grad(self), "cannot register a hook on a variable that doesn't require gradient");
    TensorHookList& hooks = hooks_of(self);
    hooks.push_back(std::move(hook));
    return static_cast<unsigned>(hooks.size() - 1);
  }

  void remove_hook(const Tensor& self, unsigned pos) override {
    const AutogradMeta* meta = meta_of(self);
    TT_CHECK(meta != nullptr && meta->hooks && pos < meta->hooks->size(), "Invalid index, no hook at position ", pos);
    (*meta->hooks)[pos] = nullptr;  // the others keep their positions
  }

  bool retains_grad(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta != nullptr && meta->retains_grad;
  }

  Tensor detach(const Tensor& self) override {
    return native::make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset());
  }

 private:
  static void check_leaf(const Tensor& self) {
    const AutogradMeta* meta = meta_of(self);
    TT_CHECK(meta == nullptr || !meta->requires_grad || meta->grad_fn != nullptr,
             "a leaf Variable that requires grad is being used in an in-place operation.");
  }

  // The tensor's hook list, created on first use; a non-leaf's grad_fn runs it on the gradient of
  // this output, a leaf's AccumulateGrad finds it in the tensor's meta.
  static TensorHookList& hooks_of(const Tensor& self) {
    AutogradMeta& meta = materialized_meta(self);
    if (!meta.hooks) {
      meta.hooks = std::make_shared<TensorHookList>();
      if (meta.grad_fn) meta.grad_fn->add_tensor_hooks(meta.output_nr, meta.hooks);
    }
    return *meta.hooks;
  }

  Tensor undefined_;
  std::shared_ptr<Node> no_node_;
};

}  // namespace
}  // namespace autograd

void enable_autograd() {
  // Never destroyed: static tensors may still run ops while the program exits.
  static autograd::GradientEngine* const engine = new autograd::GradientEngine();
  if (autograd_layer() != engine) set_autograd_layer(engine);
}

}  // namespace tinytorch
