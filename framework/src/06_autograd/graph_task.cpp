// The backward pass around the engine's core (module 06, given): checking and seeding the roots,
// the input buffers, running one node, and torch::autograd::backward / grad. The core itself
// (ordering the graph, routing and summing gradients) is yours: engine.cpp.
#include <typeinfo>

#include "autograd_meta.h"
#include "tinytorch/autograd/engine.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"

namespace tinytorch {
namespace autograd {

GraphTask::Buffer* GraphTask::find_buffer(Node* node) {
  if (buffers_.size() <= kUnindexedBuffers) {
    for (Buffer& buffer : buffers_) {
      if (buffer.node == node) return &buffer;
    }
    return nullptr;
  }
  const auto found = buffer_index_.find(node);
  return found == buffer_index_.end() ? nullptr : &buffers_[found->second];
}

variable_list& GraphTask::buffer_of(Node* node) {
  if (Buffer* buffer = find_buffer(node)) return buffer->gradients;
  if (buffers_.empty()) buffers_.reserve(kUnindexedBuffers);
  buffers_.push_back(Buffer{node, {}});
  if (buffers_.size() == kUnindexedBuffers + 1) {  // from now on searched through the index
    for (size_t i = 0; i + 1 < buffers_.size(); ++i) {
      if (buffers_[i].node != nullptr) buffer_index_.emplace(buffers_[i].node, i);
    }
  }
  if (buffers_.size() > kUnindexedBuffers) buffer_index_.emplace(node, buffers_.size() - 1);
  return buffers_.back().gradients;
}

Tensor& GraphTask::input_slot(const Edge& edge) {
  variable_list& buffer = buffer_of(edge.function.get());
  if (buffer.size() < edge.function->num_inputs()) buffer.resize(edge.function->num_inputs());
  return buffer.at(edge.input_nr);
}

variable_list GraphTask::take_inputs(Node& node) {
  variable_list inputs;
  if (Buffer* buffer = find_buffer(&node)) {
    inputs = std::move(buffer->gradients);
    buffer->node = nullptr;  // taken: a gradient arriving later starts a new buffer
    if (buffers_.size() > kUnindexedBuffers) buffer_index_.erase(&node);
  }
  inputs.resize(node.num_inputs());
  auto captures = captures_.find(&node);
  if (captures != captures_.end()) {
    for (const Capture& capture : captures->second) captured_[capture.output_index] = inputs[capture.input_nr];
  }
  return inputs;
}

namespace {

// True when a tensor of `sizes` broadcasts to `target` (LibTorch's is_expandable_to).
bool is_expandable_to(IntArrayRef sizes, IntArrayRef target) {
  if (sizes.size() > target.size()) return false;
  const size_t leading = target.size() - sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] != target[leading + d] && sizes[d] != 1) return false;
  }
  return true;
}

// LibTorch's validate_outputs: each gradient gets the shape and dtype of the tensor it is for.
void validate_outputs(const Node& node, variable_list& gradients) {
  const edge_list& edges = node.next_edges();
  for (size_t i = 0; i < gradients.size() && i < edges.size(); ++i) {
    Tensor& gradient = gradients[i];
    if (!edges[i].is_valid() || !gradient.defined()) continue;
    const InputMetadata& metadata = edges[i].function->input_metadata(edges[i].input_nr);
    if (!metadata.defined()) continue;
    if (!gradient.sizes().equals(metadata.sizes())) {
      TT_CHECK(is_expandable_to(metadata.sizes(), gradient.sizes()), "Function ", node.name(),
               " returned an invalid gradient at index ", i, " - got ", gradient.sizes(),
               " but expected shape compatible with ", metadata.sizes());
      gradient = sum_to(gradient, metadata.sizes());
    }
    if (gradient.scalar_type() != metadata.scalar_type()) gradient = gradient.to(metadata.scalar_type());
    // A tensor moved to a device (x.to(device)) gets its gradient back on its own device, as LibTorch's
    // ToCopyBackward0 returns it.
    if (gradient.device() != metadata.device()) gradient = gradient.to(metadata.device());
  }
}

}  // namespace

variable_list GraphTask::call(Node& node, variable_list&& inputs) {
  bool any_gradient = false;
  for (const Tensor& input : inputs) any_gradient = any_gradient || input.defined();
  if (!any_gradient) return variable_list(node.num_outputs());
  // autograd::grad() returns gradients instead of storing them in .grad().
  if (!accumulate_into_leaves_ && typeid(node) == typeid(AccumulateGrad)) return {};
  variable_list outputs = node(std::move(inputs));
  if (!keep_graph_) node.release_variables();
  TT_CHECK(outputs.size() == node.num_outputs(), "Function ", node.name(),
           " returned an invalid number of gradients - expected ", node.num_outputs(), ", but got ", outputs.size());
  validate_outputs(node, outputs);
  return outputs;
}

void GraphTask::add_root(const Edge& edge, Tensor gradient) {
  keep_alive_.push_back(edge.function);  // a leaf's AccumulateGrad may have no other owner
  roots_.push_back(edge.function.get());
  accumulate(input_slot(edge), gradient);
}

void GraphTask::capture(const Edge& edge, size_t output_index) {
  if (captured_.size() <= output_index) captured_.resize(output_index + 1);
  if (!edge.is_valid()) return;
  keep_alive_.push_back(edge.function);
  captures_[edge.function.get()].push_back(Capture{edge.input_nr, output_index});
}

namespace {

// Checks the outputs and their seed gradients (ones for one-element outputs), then seeds the task.
void seed_roots(GraphTask& task, ArrayRef<Tensor> tensors, ArrayRef<Tensor> grad_tensors) {
  TT_CHECK(grad_tensors.empty() || grad_tensors.size() == tensors.size(), "got ", grad_tensors.size(),
           " gradients for ", tensors.size(), " tensors: pass one gradient per tensor (or none)");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& output = tensors[i];
    TT_CHECK(output.defined() && tensor_requires_grad(output), "element ", i,
             " of tensors does not require grad and does not have a grad_fn");
    Tensor gradient = i < grad_tensors.size() ? grad_tensors[i] : Tensor();
    if (!gradient.defined()) {
      TT_CHECK(output.numel() == 1, "grad can be implicitly created only for scalar outputs");
      gradient = ones_like(output);
    } else {
      TT_CHECK(gradient.sizes().equals(output.sizes()), "Mismatch in shape: grad_output[", i, "] has a shape of ",
               gradient.sizes(), " and output[", i, "] has a shape of ", output.sizes(), ".");
    }
    task.add_root(gradient_edge(output), gradient);
  }
}

// The engine runs with grad mode on only for create_graph: then the backward's own ops are
// recorded and the gradients can be differentiated again.
void run(GraphTask& task) {
  AutoGradMode mode(task.create_graph());
  execute_graph(task);
}

}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors, std::optional<bool> retain_graph,
              bool create_graph, const variable_list& inputs) {
  run_backward(tensors, grad_tensors, retain_graph, create_graph, inputs);
}

void run_backward(ArrayRef<Tensor> tensors, ArrayRef<Tensor> grad_tensors, std::optional<bool> retain_graph,
                  bool create_graph, ArrayRef<Tensor> inputs) {
  GraphTask task(retain_graph.value_or(create_graph), create_graph);
  seed_roots(task, tensors, grad_tensors);
  if (!inputs.empty()) {
    task.set_accumulate_into_leaves(false);
    for (size_t i = 0; i < inputs.size(); ++i) {
      TT_CHECK(tensor_requires_grad(inputs[i]), "One of the differentiated Tensors does not require grad");
      task.capture(gradient_edge(inputs[i]), i);
    }
  }
  run(task);
  // backward(inputs=...): only those tensors accumulate, leaves and non-leaves alike.
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& gradient = task.captured()[i];
    if (!gradient.defined()) continue;
    Tensor& grad = materialized_meta(inputs[i]).grad;
    grad = grad.defined() ? grad + gradient : gradient.clone();
  }
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                   std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  GraphTask task(retain_graph.value_or(create_graph), create_graph);
  task.set_accumulate_into_leaves(false);
  seed_roots(task, outputs, grad_outputs);
  for (size_t i = 0; i < inputs.size(); ++i) {
    TT_CHECK(inputs[i].defined() && tensor_requires_grad(inputs[i]),
             "One of the differentiated Tensors does not require grad");
    task.capture(gradient_edge(inputs[i]), i);
  }
  run(task);
  variable_list result = std::move(task.captured());
  result.resize(inputs.size());
  for (const Tensor& gradient : result) {
    TT_CHECK(gradient.defined() || allow_unused,
             "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True "
             "if this is the desired behavior.");
  }
  return result;
}

}  // namespace autograd
}  // namespace tinytorch
