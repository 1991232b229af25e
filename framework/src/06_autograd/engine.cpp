// Module 06 (Autograd), lesson sections "5. Topological order" and "6. The backward pass": the core
// of the gradient engine. The given code (graph_task.cpp) has already checked the outputs, put
// their seed gradients (ones for a scalar loss) into the buffers of the root nodes, and turned
// grad mode off (or on, for create_graph). You order the graph and push the gradients through it.
#include <algorithm>
#include <unordered_set>
#include <utility>
#include <vector>

#include "tinytorch/autograd/engine.h"
#include "tinytorch/errors.h"

namespace tinytorch {
namespace autograd {

// TODO: topological_order(roots) -- every node reachable from the roots, each before the nodes it
// sends gradients to, so that a node runs only once all of its gradients have arrived.
//   Depth-first search along next edges (node->next_edges()[i].function, skip invalid edges), with
//   a visited set so that a node shared by two paths is listed once. A node is finished when all its
//   next nodes are finished: append it then ("post-order"); the reversed post-order is the answer.
//   Iterative, never recursive: keep an explicit stack of (node, index of the next edge to visit);
//   a 10,000-op chain must not overflow the call stack.
//   Example: loss = (a * b) + a, a and b leaves:
//     AddBackward0 -> MulBackward0 -> AccumulateGrad(a), AccumulateGrad(b); AddBackward0 -> AccumulateGrad(a)
//     one valid order: AddBackward0, MulBackward0, AccumulateGrad(b), AccumulateGrad(a)
//     (AccumulateGrad(a) after MulBackward0: both of a's gradients must be summed first).
std::vector<Node*> topological_order(const std::vector<Node*>& roots) {
  // BEGIN SOLUTION name="tinytorch::autograd::topological_order" lesson="5. Topological order"
  std::vector<Node*> post_order;
  std::unordered_set<Node*> visited;
  std::vector<std::pair<Node*, size_t>> stack;  // a node and the next of its edges to follow
  for (Node* root : roots) {
    if (root == nullptr || !visited.insert(root).second) continue;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      Node* node = stack.back().first;
      const size_t edge = stack.back().second++;
      if (edge < node->num_outputs()) {
        Node* next = node->next_edge(edge).function.get();
        if (next != nullptr && visited.insert(next).second) stack.emplace_back(next, 0);
      } else {
        post_order.push_back(node);  // everything after it is finished
        stack.pop_back();
      }
    }
  }
  std::reverse(post_order.begin(), post_order.end());
  return post_order;
  // END SOLUTION
}

// TODO: accumulate(slot, gradient) -- a tensor used twice receives two gradients: their sum
// (the multivariable chain rule). An undefined slot holds nothing yet: store the gradient.
// Out of place (slot + gradient), never slot.add_(...): the gradient may be shared with another path.
void accumulate(Tensor& slot, const Tensor& gradient) {
  // BEGIN SOLUTION name="tinytorch::autograd::accumulate" lesson="6. The backward pass"
  slot = slot.defined() ? slot + gradient : gradient;
  // END SOLUTION
}

// TODO: execute_graph(task) -- the backward pass itself.
//   For each node of topological_order(task.roots()):
//     1. inputs = task.take_inputs(*node): the gradients that arrived for the node's outputs;
//     2. gradients = task.call(*node, std::move(inputs)): runs the node's rule (and frees its saved
//        tensors unless retain_graph) and returns one gradient per next edge;
//     3. for each next edge i that is valid and whose gradients[i] is defined, accumulate
//        gradients[i] into task.input_slot(edge): the buffer of the node it flows to.
//   AccumulateGrad nodes (the leaves) are nodes like any other: calling them stores .grad().
void execute_graph(GraphTask& task) {
  // BEGIN SOLUTION name="tinytorch::autograd::execute_graph" lesson="6. The backward pass"
  for (Node* node : topological_order(task.roots())) {
    variable_list gradients = task.call(*node, task.take_inputs(*node));
    const edge_list& edges = node->next_edges();
    for (size_t i = 0; i < gradients.size() && i < edges.size(); ++i) {
      if (edges[i].is_valid() && gradients[i].defined()) accumulate(task.input_slot(edges[i]), gradients[i]);
    }
  }
  // END SOLUTION
}

}  // namespace autograd
}  // namespace tinytorch
