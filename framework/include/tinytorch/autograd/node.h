#pragma once
// The computational graph (module 06), after LibTorch's torch/csrc/autograd/function.h.
//
// Every differentiable op that runs while some input requires grad creates one Node: the op's
// backward. Its next_edges point at the nodes that produced its inputs, so the graph runs from
// the loss back to the parameters:
//
//     loss = (x.mm(w) + b).relu().sum()
//     SumBackward0 -> ReluBackward0 -> AddBackward0 -> MmBackward0 -> AccumulateGrad(w)
//                                                   \-> AccumulateGrad(b)
//
// A node receives one gradient per output of its op (num_inputs(): a node's *inputs* are the
// gradients of the op's outputs) and returns one gradient per input of its op (one per next edge).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace autograd {

using variable_list = std::vector<Tensor>;
using tensor_list = std::vector<Tensor>;

// A tensor's gradient hooks (Tensor::register_hook, retain_grad), in registration order. A hook
// returns the new gradient, or an undefined Tensor to leave it; a removed hook stays as an empty
// function so that the other hooks keep their indices.
using TensorHook = std::function<Tensor(const Tensor&)>;
using TensorHookList = std::vector<TensorHook>;

// Runs `hooks` on `gradient` in order and returns the final gradient (LibTorch's CppFunctionTensorPreHook).
Tensor run_tensor_hooks(const TensorHookList& hooks, Tensor gradient);

// Where a gradient goes: input number `input_nr` of node `function`. An edge without a function
// stands for an input that does not require grad: nothing flows there.
struct Edge {
  Edge() = default;
  Edge(std::shared_ptr<Node> function_, uint32_t input_nr_) : function(std::move(function_)), input_nr(input_nr_) {}
  bool is_valid() const { return function != nullptr; }

  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
};
using edge_list = std::vector<Edge>;

// The shape and dtype of one tensor a node receives a gradient for (LibTorch's InputMetadata). The
// engine checks every gradient against it, sums a broadcast gradient down to it and converts its dtype.
// Every node records one per output, so a shape of up to kInlineDims dimensions is kept inline:
// recording it allocates nothing.
class InputMetadata {
 public:
  static constexpr size_t kInlineDims = 5;

  InputMetadata() = default;
  explicit InputMetadata(const Tensor& t);

  IntArrayRef sizes() const {
    return dim_ <= kInlineDims ? IntArrayRef(inline_sizes_.data(), dim_) : IntArrayRef(more_sizes_);
  }
  ScalarType scalar_type() const { return scalar_type_; }
  const Device& device() const { return device_; }
  bool defined() const { return defined_; }  // false for an output that is not a tensor: nothing is checked

 private:
  std::array<int64_t, kInlineDims> inline_sizes_{};
  std::vector<int64_t> more_sizes_;  // the sizes of a tensor of more than kInlineDims dimensions
  size_t dim_ = 0;
  ScalarType scalar_type_ = kFloat;
  Device device_{DeviceType::CPU};
  bool defined_ = false;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  explicit Node(edge_list next_edges);
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // LibTorch's node name: "MulBackward0", "AccumulateGrad", ...
  virtual std::string name() const = 0;

  // Runs the backward rule: gradients of the op's outputs in, gradients of its inputs out.
  // The engine calls this (not apply) so that the outputs' hooks see the incoming gradients first.
  variable_list operator()(variable_list&& grads);

  const edge_list& next_edges() const noexcept { return next_edges_; }
  const Edge& next_edge(size_t index) const { return next_edges_.at(index); }
  void set_next_edges(edge_list next_edges) { next_edges_ = std::move(next_edges); }
  void add_next_edge(Edge edge) { next_edges_.push_back(std::move(edge)); }
  uint32_t num_outputs() const noexcept { return static_cast<uint32_t>(next_edges_.size()); }
  // How many gradients this node receives: the number of outputs of its forward op, each described
  // by its metadata (added in order, one per output).
  uint32_t num_inputs() const noexcept { return num_inputs_; }
  uint32_t add_input_metadata(const Tensor& t);
  const InputMetadata& input_metadata(size_t index) const;

  // False when input `index` of the forward op does not require grad: skip computing its gradient.
  bool should_compute_output(size_t index) const {
    return index < next_edges_.size() && next_edges_[index].is_valid();
  }

  // Order of creation: later ops have larger numbers (LibTorch's sequence_nr).
  uint64_t sequence_nr() const noexcept { return sequence_nr_; }

  // Frees what the forward saved for backward; called after backward unless retain_graph.
  virtual void release_variables() {}
  // The tensors the forward saved for this node (TinyTorch's systems extension: measure the
  // memory a graph keeps alive with memory_footprint(node.saved_tensors())).
  virtual variable_list saved_tensors() const { return {}; }

  // The hooks of output `output_nr` (register_hook, retain_grad on a non-leaf): they run on its
  // gradient before the backward rule does.
  void add_tensor_hooks(uint32_t output_nr, std::shared_ptr<TensorHookList> hooks);

 protected:
  virtual variable_list apply(variable_list&& grads) = 0;

 private:
  edge_list next_edges_;
  // Most ops have one output: its metadata lives in the node, and only later ones in a vector.
  InputMetadata first_input_metadata_;
  std::vector<InputMetadata> more_input_metadata_;
  uint32_t num_inputs_ = 0;
  uint64_t sequence_nr_;
  std::vector<std::pair<uint32_t, std::shared_ptr<TensorHookList>>> tensor_hooks_;
};

// A tensor saved by the forward for the backward (LibTorch's SavedVariable). A saved *output*
// keeps its data but not its grad_fn, which is this very node: a strong reference would be a cycle.
class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& variable, bool is_output);

  // The saved tensor. Throws LibTorch's "Trying to backward through the graph a second time..."
  // once the graph has been freed by a backward without retain_graph.
  Tensor unpack() const;
  void reset_data();  // frees the tensor: the graph is released
  bool defined() const { return was_defined_; }
  const Tensor& data() const { return data_; }  // the raw saved tensor, for memory accounting

 private:
  Tensor data_;
  std::weak_ptr<Node> grad_fn_;  // for a saved output that requires grad
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool requires_grad_ = false;
  bool was_defined_ = false;
  bool released_ = false;
};

// The message LibTorch gives when a freed graph is used again.
extern const char* const ERR_BACKWARD_TWICE;

// The leaf's end of the graph: adds the arriving gradient into tensor.grad().
class AccumulateGrad : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }  // LibTorch prints this
  const Tensor& variable() const { return variable_; }

 protected:
  variable_list apply(variable_list&& grads) override;

 private:
  Tensor variable_;
};

// The edge a gradient for `tensor` enters the graph through: (grad_fn, output_nr) for a computed
// tensor, (its AccumulateGrad, 0) for a leaf that requires grad, an invalid edge otherwise.
Edge gradient_edge(const Tensor& tensor);

}  // namespace autograd
}  // namespace tinytorch
