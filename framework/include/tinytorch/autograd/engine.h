#pragma once
// The backward pass (module 06): LibTorch's torch::autograd::backward / grad and the engine behind
// Tensor::backward. One call builds a GraphTask (where the gradients start, where they are
// collected), orders the graph, and runs every node once, after all gradients for it have arrived.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "tinytorch/autograd/node.h"

namespace tinytorch {
namespace autograd {

// Computes the gradients of `tensors` (seeded with grad_tensors, default 1 for one-element
// tensors) and accumulates them into the .grad() of every leaf that requires grad. With `inputs`,
// only those tensors accumulate. retain_graph defaults to create_graph.
void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
              const variable_list& inputs = {});

// backward() on arrays the caller already has: Tensor::backward's path, which builds no vector.
void run_backward(ArrayRef<Tensor> tensors, ArrayRef<Tensor> grad_tensors, std::optional<bool> retain_graph,
                  bool create_graph, ArrayRef<Tensor> inputs);

// Returns d(outputs)/d(inputs) instead of accumulating into .grad(). create_graph=true records the
// backward pass itself, so the result can be differentiated again (second derivatives).
variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                   bool allow_unused = false);

// One run of the backward pass. Gradients for a node are summed in its input buffer (one slot per
// gradient the node receives) until the node runs.
class GraphTask {
 public:
  GraphTask(bool keep_graph, bool create_graph) : keep_graph_(keep_graph), create_graph_(create_graph) {}

  // The nodes the pass starts from (the roots' grad_fns), in the order given.
  const std::vector<Node*>& roots() const { return roots_; }
  // Slot `edge.input_nr` of the buffer of node `edge.function`: add a gradient to it.
  Tensor& input_slot(const Edge& edge);
  // The summed gradients that arrived for `node` (its buffer, moved out).
  variable_list take_inputs(Node& node);
  // Runs `node` on its gradients (a node that receives none is skipped: every result undefined),
  // then frees its saved tensors unless the graph is kept. Returns one gradient per next edge, each
  // checked against the tensor it is for: a broadcast gradient is summed down to that tensor's
  // shape (sum_to) and converted to its dtype; any other shape is an error naming the node.
  variable_list call(Node& node, variable_list&& inputs);

  // ---- Set-up (graph_task.cpp) ----
  void add_root(const Edge& edge, Tensor gradient);
  void capture(const Edge& edge, size_t output_index);  // autograd::grad: keep this gradient
  void set_accumulate_into_leaves(bool accumulate) { accumulate_into_leaves_ = accumulate; }
  variable_list& captured() { return captured_; }
  bool create_graph() const { return create_graph_; }

 private:
  struct Capture {
    uint32_t input_nr;
    size_t output_index;
  };
  // A node's input buffer. Most graphs have few nodes: the buffers are searched in order, and only
  // a graph with more than kUnindexedBuffers of them gets an index (a hash map costs an allocation
  // per node, a measurable part of a small op's backward).
  struct Buffer {
    Node* node;  // nullptr once the node took its inputs
    variable_list gradients;
  };
  static constexpr size_t kUnindexedBuffers = 16;
  Buffer* find_buffer(Node* node);
  variable_list& buffer_of(Node* node);  // created empty on first use

  std::vector<Node*> roots_;
  std::vector<std::shared_ptr<Node>> keep_alive_;  // roots and captured nodes, for the task's lifetime
  std::vector<Buffer> buffers_;
  std::unordered_map<Node*, size_t> buffer_index_;  // node -> its entry in buffers_, once indexed
  std::unordered_map<Node*, std::vector<Capture>> captures_;
  variable_list captured_;
  bool keep_graph_;
  bool create_graph_;
  bool accumulate_into_leaves_ = true;
};

// ---- Learner-written (gradient_rules.cpp and engine.cpp) ----

// Sums `grad` down to `sizes`: undoes broadcasting. A (4, 3) gradient for a (3) input is summed
// over dim 0; for a (4, 1) input over dim 1 with keepdim. The engine calls it for every gradient
// whose shape differs from its input's (LibTorch's InputMetadata::reduce_grad).
Tensor sum_to(const Tensor& grad, IntArrayRef sizes);

// Every node reachable from `roots` through next edges, each listed before all the nodes its
// gradients flow to (a topological order of the graph). Iterative: a 10,000-op chain is fine.
std::vector<Node*> topological_order(const std::vector<Node*>& roots);

// slot += gradient, where an undefined slot means "nothing yet".
void accumulate(Tensor& slot, const Tensor& gradient);

// Runs every node of the task once, in topological order, routing each result along its edge.
void execute_graph(GraphTask& task);

}  // namespace autograd
}  // namespace tinytorch
