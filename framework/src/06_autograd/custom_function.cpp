// Custom autograd functions (module 06, given): AutogradContext and the untyped half of
// CppNode<T> (tinytorch/autograd/custom_function.h).
#include <cxxabi.h>

#include <cstdlib>
#include <typeinfo>

#include "autograd_meta.h"
#include "tinytorch/autograd/custom_function.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {

namespace autograd {

// ---- AutogradContext ----

void AutogradContext::save_for_backward(variable_list to_save) { to_save_ = std::move(to_save); }

variable_list AutogradContext::get_saved_variables() const {
  TT_CHECK(!has_freed_buffers_, ERR_BACKWARD_TWICE);
  variable_list saved;
  saved.reserve(saved_variables_.size());
  for (const SavedVariable& variable : saved_variables_) saved.push_back(variable.unpack());
  return saved;
}

void AutogradContext::mark_non_differentiable(const variable_list& outputs) {
  for (const Tensor& output : outputs) non_differentiable_.insert(output.unsafeGetTensorImpl());
}

void AutogradContext::mark_dirty(const variable_list& /*inputs*/) {}

bool AutogradContext::needs_input_grad(size_t index) const {
  return index < needs_input_grad_.size() && needs_input_grad_[index];
}

// ---- CustomNodeBase ----

std::string CustomNodeBase::name() const {
  // LibTorch prints the demangled node type, "torch::autograd::CppNode<MyFunction>".
  int status = 0;
  char* demangled = abi::__cxa_demangle(typeid(*this).name(), nullptr, nullptr, &status);
  std::string type = status == 0 && demangled != nullptr ? demangled : typeid(*this).name();
  std::free(demangled);
  const std::string ours = "tinytorch::";
  if (type.compare(0, ours.size(), ours) == 0) type = "torch::" + type.substr(ours.size());
  return type;
}

bool CustomNodeBase::prepare(const variable_list& tensor_inputs, std::vector<bool> is_tensor_argument) {
  is_tensor_argument_ = std::move(is_tensor_argument);
  bool any_requires_grad = false;
  for (const Tensor& input : tensor_inputs) any_requires_grad = any_requires_grad || tensor_requires_grad(input);
  const bool is_executable = GradMode::is_enabled() && any_requires_grad;
  size_t tensor_index = 0;
  for (bool is_tensor : is_tensor_argument_) {
    ctx_.needs_input_grad_.push_back(is_tensor && is_executable && tensor_requires_grad(tensor_inputs[tensor_index]));
    if (is_tensor) ++tensor_index;
  }
  if (is_executable) {
    edge_list edges;
    for (const Tensor& input : tensor_inputs) edges.push_back(tensor_requires_grad(input) ? gradient_edge(input) : Edge());
    set_next_edges(std::move(edges));
  }
  return is_executable;
}

void CustomNodeBase::wrap_outputs(variable_list& outputs, const variable_list& tensor_inputs, bool is_executable) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& output = outputs[i];
    add_input_metadata(output);
    output_sizes_.push_back(output.defined() ? output.sizes().vec() : std::vector<int64_t>());
    output_options_.push_back(output.defined() ? output.options() : TensorOptions());
    if (!is_executable || !output.defined() || !output.is_floating_point() ||
        ctx_.non_differentiable_.count(output.unsafeGetTensorImpl()) > 0) {
      continue;
    }
    for (const Tensor& input : tensor_inputs) {
      if (input.is_same(output)) {  // returned an input: the output is a new alias with its own history
        output = native::make_view(output, output.sizes().vec(), output.strides().vec(), output.storage_offset());
        break;
      }
    }
    set_history(output, shared_from_this(), static_cast<uint32_t>(i));
  }
  if (is_executable) {
    for (const Tensor& tensor : ctx_.to_save_) {
      bool is_output = false;
      for (const Tensor& output : outputs) is_output = is_output || output.is_same(tensor);
      ctx_.saved_variables_.emplace_back(tensor, is_output);
    }
  }
  ctx_.to_save_.clear();
}

variable_list CustomNodeBase::apply(variable_list&& grads) {
  if (ctx_.materialize_grads_) {
    for (size_t i = 0; i < grads.size(); ++i) {
      if (!grads[i].defined() && i < output_sizes_.size()) grads[i] = zeros(output_sizes_[i], output_options_[i]);
    }
  }
  variable_list gradients = call_backward(std::move(grads));
  const size_t arguments = is_tensor_argument_.size();
  if (gradients.size() > arguments) {
    for (size_t i = arguments; i < gradients.size(); ++i) {
      TT_CHECK(!gradients[i].defined(), "function ", name(), " returned an incorrect number of gradients (expected ",
               arguments, ", got ", gradients.size(), ")");
    }
    gradients.resize(arguments);
  }
  TT_CHECK(gradients.size() == arguments, "function ", name(), " returned an incorrect number of gradients (expected ",
           arguments, ", got ", gradients.size(), ")");
  variable_list per_edge;
  for (size_t i = 0; i < arguments; ++i) {
    if (is_tensor_argument_[i]) {
      per_edge.push_back(std::move(gradients[i]));
    } else {
      TT_CHECK(!gradients[i].defined(), "function ", name(), " returned a gradient different than None at position ",
               i + 1, ", but the corresponding forward input was not a Variable");
    }
  }
  return per_edge;
}

void CustomNodeBase::release_variables() {
  ctx_.saved_variables_.clear();
  ctx_.has_freed_buffers_ = true;
}

variable_list CustomNodeBase::saved_tensors() const {
  variable_list saved;
  for (const SavedVariable& variable : ctx_.saved_variables_) {
    if (variable.data().defined()) saved.push_back(variable.data());
  }
  return saved;
}

}  // namespace autograd
}  // namespace tinytorch
