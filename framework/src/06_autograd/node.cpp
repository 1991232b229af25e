// The graph's building blocks: Node, SavedVariable, AccumulateGrad (module 06, given).
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "autograd_meta.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace autograd {

const char* const ERR_BACKWARD_TWICE =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.";

namespace {
thread_local uint64_t next_sequence_nr = 0;

// Freeing a long chain node by node would recurse once per node (each node holds the next one) and
// overflow the stack on a 10,000-op graph. Instead the first node being destroyed drains a list
// that every node destroyed meanwhile adds its edges to: the recursion depth stays constant.
thread_local bool draining_nodes = false;
thread_local std::vector<std::shared_ptr<Node>> nodes_to_release;
}  // namespace

Node::Node() : sequence_nr_(next_sequence_nr++) {}
Node::Node(edge_list next_edges) : next_edges_(std::move(next_edges)), sequence_nr_(next_sequence_nr++) {}

Node::~Node() {
  for (Edge& edge : next_edges_) {
    if (edge.function) nodes_to_release.push_back(std::move(edge.function));
  }
  if (draining_nodes) return;
  draining_nodes = true;
  while (!nodes_to_release.empty()) {
    std::shared_ptr<Node> node = std::move(nodes_to_release.back());
    nodes_to_release.pop_back();
    node.reset();  // may destroy it, which appends its edges to the list
  }
  draining_nodes = false;
}

variable_list Node::operator()(variable_list&& grads) {
  for (const auto& [output_nr, hooks] : tensor_hooks_) {
    if (output_nr < grads.size() && grads[output_nr].defined()) {
      grads[output_nr] = run_tensor_hooks(*hooks, std::move(grads[output_nr]));
    }
  }
  return apply(std::move(grads));
}

void Node::add_tensor_hooks(uint32_t output_nr, std::shared_ptr<TensorHookList> hooks) {
  tensor_hooks_.emplace_back(output_nr, std::move(hooks));
}

Tensor run_tensor_hooks(const TensorHookList& hooks, Tensor gradient) {
  for (size_t i = 0; i < hooks.size(); ++i) {
    if (!hooks[i]) continue;  // removed
    Tensor result = hooks[i](gradient);
    if (!result.defined()) continue;
    TT_CHECK(result.scalar_type() == gradient.scalar_type(), "hook '", i, "' has changed the type of value (was ",
             gradient.toString(), " got ", result.toString(), ")");
    TT_CHECK(result.sizes().equals(gradient.sizes()), "hook '", i, "' has changed the size of value");
    gradient = std::move(result);
  }
  return gradient;
}

uint32_t Node::add_input_metadata(const Tensor& t) {
  if (num_inputs_ == 0) {
    first_input_metadata_ = InputMetadata(t);
  } else {
    more_input_metadata_.emplace_back(t);
  }
  return num_inputs_++;
}

const InputMetadata& Node::input_metadata(size_t index) const {
  if (index >= num_inputs_) {
    throw std::out_of_range(::tinytorch::detail::str("input_metadata(", index, "): ", name(), " has ", num_inputs_,
                                                     " inputs"));
  }
  return index == 0 ? first_input_metadata_ : more_input_metadata_[index - 1];
}

InputMetadata::InputMetadata(const Tensor& t) {
  if (!t.defined()) return;
  const IntArrayRef sizes = t.sizes();
  dim_ = sizes.size();
  if (dim_ <= kInlineDims) {
    std::copy(sizes.begin(), sizes.end(), inline_sizes_.begin());
  } else {
    more_sizes_ = sizes.vec();
  }
  scalar_type_ = t.scalar_type();
  device_ = t.device();
  defined_ = true;
}

// ---- SavedVariable ----

SavedVariable::SavedVariable(const Tensor& variable, bool is_output) {
  if (!variable.defined()) return;
  was_defined_ = true;
  is_output_ = is_output;
  const AutogradMeta* meta = meta_of(variable);
  if (!is_output || meta == nullptr || meta->grad_fn == nullptr) {
    data_ = variable;  // an input: holding it keeps its own history alive, as it must
    return;
  }
  // An output of the node that saves it: keep the data, and the node only weakly.
  data_ = native::make_view(variable, variable.sizes().vec(), variable.strides().vec(), variable.storage_offset());
  grad_fn_ = meta->grad_fn;
  output_nr_ = meta->output_nr;
  requires_grad_ = true;
}

Tensor SavedVariable::unpack() const {
  TT_CHECK(!released_, ERR_BACKWARD_TWICE);
  if (!requires_grad_ || !GradMode::is_enabled()) return data_;
  // create_graph: the saved output must lead back to its node so that the backward is differentiable.
  std::shared_ptr<Node> node = grad_fn_.lock();
  if (!node) return data_;
  Tensor output = native::make_view(data_, data_.sizes().vec(), data_.strides().vec(), data_.storage_offset());
  set_history(output, node, output_nr_);
  return output;
}

void SavedVariable::reset_data() {
  data_ = Tensor();
  grad_fn_.reset();
  if (was_defined_) released_ = true;
}

// ---- Leaves ----

AccumulateGrad::AccumulateGrad(Tensor variable) : variable_(std::move(variable)) { add_input_metadata(variable_); }

variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor new_grad = std::move(grads[0]);
  if (!new_grad.defined()) return {};
  // The leaf's hooks, read at each backward: they may have been registered after this node was made.
  if (const AutogradMeta* leaf_meta = meta_of(variable_); leaf_meta != nullptr && leaf_meta->hooks) {
    new_grad = run_tensor_hooks(*leaf_meta->hooks, std::move(new_grad));
  }
  TT_CHECK(new_grad.sizes().equals(variable_.sizes()), "Function AccumulateGrad returned an invalid gradient - got ",
           new_grad.sizes(), " but expected shape compatible with ", variable_.sizes());
  if (new_grad.scalar_type() != variable_.scalar_type()) new_grad = new_grad.to(variable_.scalar_type());
  AutogradMeta& meta = materialized_meta(variable_);
  if (GradMode::is_enabled()) {  // create_graph: the gradient keeps its own graph
    meta.grad = meta.grad.defined() ? meta.grad + new_grad : new_grad;
  } else if (!meta.grad.defined()) {
    // Keep the tensor itself when nobody else can see it and it has the parameter's layout;
    // otherwise a private copy laid out like the parameter (LibTorch's gradient layout contract:
    // a transposed weight's gradient arrives transposed, but optimizers and zero_() then see the
    // parameter's own plain memory order), so that later in-place updates touch only this gradient.
    const bool private_buffer = new_grad.use_count() == 1 && new_grad.storage().use_count() == 1 &&
                                new_grad.is_contiguous() && meta_of(new_grad) == nullptr;
    const bool parameter_layout = new_grad.strides().equals(variable_.strides());
    meta.grad = private_buffer && parameter_layout ? new_grad
                                                   : empty_like(variable_, new_grad.options()).copy_(new_grad);
  } else {
    meta.grad.add_(new_grad);
  }
  return {};
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  AutogradMeta& meta = materialized_meta(leaf);
  std::shared_ptr<Node> accumulator = meta.grad_accumulator.lock();
  if (!accumulator) {
    accumulator = std::make_shared<AccumulateGrad>(leaf);
    meta.grad_accumulator = accumulator;
  }
  return accumulator;
}

Edge gradient_edge(const Tensor& tensor) {
  const AutogradMeta* meta = meta_of(tensor);
  if (meta == nullptr) return Edge();
  if (meta->grad_fn) return Edge(meta->grad_fn, meta->output_nr);
  if (meta->requires_grad) return Edge(grad_accumulator(tensor), 0);
  return Edge();
}

}  // namespace autograd
}  // namespace tinytorch
