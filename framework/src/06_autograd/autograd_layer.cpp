// Module 06's side of the dispatch hook (tinytorch/dispatch.h), given: every op that runs while
// grad mode is on reports itself here; if some input requires grad, this builds the op's backward
// node, connects it to the nodes of the inputs and makes it the grad_fn of the outputs. It also
// answers Tensor's autograd surface (requires_grad_(), grad(), backward(), ...).
#include <cstring>
#include <typeinfo>

#include "autograd_meta.h"
#include "tinytorch/autograd.h"
#include "tinytorch/autograd/functions.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace autograd {
namespace {

using namespace generated;

// An op with no backward rule: its outputs still require grad, and backward says which rule is missing.
struct NotImplementedBackward : public Node {
  explicit NotImplementedBackward(std::string op) : op_(std::move(op)) {}
  std::string name() const override { return "NotImplemented"; }

 protected:
  variable_list apply(variable_list&&) override {
    throw Error("the derivative for '" + op_ + "' is not implemented.");
  }

 private:
  std::string op_;
};

enum class Op {
  Add, Sub, Mul, Div, Pow, Neg, Exp, Log, Sqrt, Abs, Clamp, Mm, Bmm, Sum, Mean, Max, Min, View, Squeeze,
  Unsqueeze, Transpose, Permute, Expand, Select, Slice, Clone, Contiguous, To, Copy, Fill, Relu, Sigmoid,
  Tanh, Gelu, Softmax, LogSoftmax, NllLoss, BinaryCrossEntropy, Convolution, Unknown
};

struct OpName {
  const char* name;
  Op op;
};

// One lookup per recorded op; in-place ops end in '_' ("add_") and share the rule.
constexpr OpName kOps[] = {
    {"add", Op::Add}, {"sub", Op::Sub}, {"mul", Op::Mul}, {"div", Op::Div}, {"pow", Op::Pow},
    {"neg", Op::Neg}, {"exp", Op::Exp}, {"log", Op::Log}, {"sqrt", Op::Sqrt}, {"abs", Op::Abs},
    {"clamp", Op::Clamp}, {"mm", Op::Mm}, {"bmm", Op::Bmm}, {"sum", Op::Sum}, {"mean", Op::Mean},
    {"max", Op::Max}, {"min", Op::Min}, {"view", Op::View}, {"squeeze", Op::Squeeze},
    {"unsqueeze", Op::Unsqueeze}, {"transpose", Op::Transpose}, {"permute", Op::Permute},
    {"expand", Op::Expand}, {"select", Op::Select}, {"slice", Op::Slice}, {"clone", Op::Clone},
    {"contiguous", Op::Contiguous}, {"to", Op::To}, {"copy", Op::Copy}, {"fill", Op::Fill},
    {"relu", Op::Relu}, {"sigmoid", Op::Sigmoid}, {"tanh", Op::Tanh}, {"gelu", Op::Gelu},
    {"softmax", Op::Softmax}, {"log_softmax", Op::LogSoftmax}, {"nll_loss", Op::NllLoss},
    {"binary_cross_entropy", Op::BinaryCrossEntropy}, {"convolution", Op::Convolution},
};

Op op_of(const char* name, size_t length) {
  for (const OpName& entry : kOps) {
    if (entry.name[0] == name[0] && std::strncmp(entry.name, name, length) == 0 && entry.name[length] == '\0') {
      return entry.op;
    }
  }
  return Op::Unknown;
}

std::vector<int64_t> sizes_of(const Tensor& t) { return t.defined() ? t.sizes().vec() : std::vector<int64_t>(); }

bool is_number(const Tensor& t) { return t.defined() && t.unsafeGetTensorImpl()->is_wrapped_number(); }

// Connects `node` for `op`: edges to the inputs' nodes, then the outputs' history.
void wire(const OpRecord& op, const std::shared_ptr<Node>& node) {
  edge_list edges;
  edges.reserve(op.inputs.size());
  for (const Tensor& input : op.inputs) edges.push_back(tensor_requires_grad(input) ? gradient_edge(input) : Edge());
  node->set_next_edges(std::move(edges));
  node->set_num_inputs(static_cast<uint32_t>(op.outputs.size()));
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const Tensor& output = op.outputs[i];
    if (output.defined() && output.is_floating_point()) set_history(output, node, static_cast<uint32_t>(i));
  }
}

// Builds node N for `op`, wired first (so that a saved output knows its node), then `fill` saves
// what the rule needs.
template <class N, class Fill>
std::shared_ptr<Node> connect(const OpRecord& op, Fill fill) {
  auto node = std::make_shared<N>();
  wire(op, node);
  fill(*node);
  return node;
}

template <class N>
std::shared_ptr<Node> connect(const OpRecord& op) {
  return connect<N>(op, [](N&) {});
}

SavedVariable saved_input(const OpRecord& op, size_t i) { return SavedVariable(op.inputs[i], false); }
SavedVariable saved_output(const OpRecord& op, size_t i) { return SavedVariable(op.outputs[i], true); }

// add/sub/mul/div, out of place or in place. An in-place op has overwritten self by the time it is
// recorded; the rules that need self's old value get it back from the result (x * o / o, x / o * o).
template <class N0, class N1>
std::shared_ptr<Node> connect_binary(const OpRecord& op, bool in_place, bool saves_inputs, bool is_division) {
  auto fill = [&](auto& node) {
    node.self_sizes = sizes_of(op.inputs[0]);
    node.other_sizes = sizes_of(op.inputs[1]);
    if constexpr (std::is_same_v<N0, AddBackward0> || std::is_same_v<N0, SubBackward0>) node.alpha = op.attributes.alpha;
    if constexpr (std::is_same_v<N0, MulBackward0> || std::is_same_v<N0, DivBackward0>) {
      if (!saves_inputs) return;
      node.other_ = saved_input(op, 1);
      if (!in_place) {
        node.self_ = saved_input(op, 0);
      } else if (node.should_compute_output(1)) {
        NoGradGuard no_grad;
        node.self_ = SavedVariable(is_division ? op.outputs[0] * op.inputs[1] : op.outputs[0] / op.inputs[1], false);
      }
    }
  };
  if (is_number(op.inputs[1])) return connect<N1>(op, fill);
  return connect<N0>(op, fill);
}

std::shared_ptr<Node> build_node(Op kind, bool in_place, const OpRecord& op, const char* name) {
  const OpAttributes& a = op.attributes;
  switch (kind) {
    case Op::Add: return connect_binary<AddBackward0, AddBackward1>(op, in_place, false, false);
    case Op::Sub: return connect_binary<SubBackward0, SubBackward1>(op, in_place, false, false);
    case Op::Mul: return connect_binary<MulBackward0, MulBackward1>(op, in_place, true, false);
    case Op::Div: return connect_binary<DivBackward0, DivBackward1>(op, in_place, true, true);
    case Op::Pow:
      if (op.inputs.size() == 1) {
        return connect<PowBackward0>(op, [&](PowBackward0& n) {
          n.self_ = saved_input(op, 0);
          n.exponent = a.exponent;
        });
      }
      return connect<PowBackward1>(op, [&](PowBackward1& n) {
        n.self_ = saved_input(op, 0);
        n.exponent_ = saved_input(op, 1);
        n.result_ = saved_output(op, 0);
        n.self_sizes = sizes_of(op.inputs[0]);
        n.exponent_sizes = sizes_of(op.inputs[1]);
      });
    case Op::Neg: return connect<NegBackward0>(op);
    case Op::Exp: return connect<ExpBackward0>(op, [&](ExpBackward0& n) { n.result_ = saved_output(op, 0); });
    case Op::Log: return connect<LogBackward0>(op, [&](LogBackward0& n) { n.self_ = saved_input(op, 0); });
    case Op::Sqrt: return connect<SqrtBackward0>(op, [&](SqrtBackward0& n) { n.result_ = saved_output(op, 0); });
    case Op::Abs: return connect<AbsBackward0>(op, [&](AbsBackward0& n) { n.self_ = saved_input(op, 0); });
    case Op::Clamp:
      return connect<ClampBackward1>(op, [&](ClampBackward1& n) {
        n.self_ = saved_input(op, 0);
        n.min = a.min;
        n.max = a.max;
      });
    case Op::Mm:
      return connect<MmBackward0>(op, [&](MmBackward0& n) {
        n.self_ = saved_input(op, 0);
        n.mat2_ = saved_input(op, 1);
      });
    case Op::Bmm:
      return connect<BmmBackward0>(op, [&](BmmBackward0& n) {
        n.self_ = saved_input(op, 0);
        n.mat2_ = saved_input(op, 1);
      });
    case Op::Sum:
    case Op::Mean: {
      // sum() and sum(every dim) record alike; LibTorch calls the first SumBackward0.
      const Tensor& self = op.inputs[0];
      const bool everything = !a.keepdim && static_cast<int64_t>(a.dims.size()) == self.dim();
      if (kind == Op::Sum && everything) {
        return connect<SumBackward0>(op, [&](SumBackward0& n) { n.self_sizes = sizes_of(self); });
      }
      if (kind == Op::Mean && everything) {
        return connect<MeanBackward0>(op, [&](MeanBackward0& n) { n.self_sizes = sizes_of(self); });
      }
      auto fill = [&](auto& n) {
        n.self_sizes = sizes_of(self);
        n.dims = a.dims.vec();
        n.keepdim = a.keepdim;
      };
      if (kind == Op::Sum) return connect<SumBackward1>(op, fill);
      return connect<MeanBackward1>(op, fill);
    }
    case Op::Max:
    case Op::Min: {
      if (op.outputs.size() == 2) {
        auto fill = [&](MaxBackward0& n) {
          n.indices_ = SavedVariable(op.outputs[1], false);  // int64: never has a grad_fn
          n.self_sizes = sizes_of(op.inputs[0]);
          n.dim = a.dim;
          n.keepdim = a.keepdim;
        };
        if (kind == Op::Max) return connect<MaxBackward0>(op, fill);
        return connect<MinBackward0>(op, [&](MinBackward0& n) { fill(n); });
      }
      auto fill = [&](MaxBackward1& n) {
        n.self_ = saved_input(op, 0);
        n.result_ = saved_output(op, 0);
      };
      if (kind == Op::Max) return connect<MaxBackward1>(op, fill);
      return connect<MinBackward1>(op, [&](MinBackward1& n) { fill(n); });
    }
    case Op::View: return connect<ViewBackward0>(op, [&](ViewBackward0& n) { n.self_sizes = sizes_of(op.inputs[0]); });
    case Op::Squeeze: {
      // squeeze() and squeeze(dim) record the same sizes; squeeze(dim) also names its dim.
      const int64_t removed = op.inputs[0].dim() - op.outputs[0].dim();
      const bool one_dim = a.dim != 0 || removed == 0;
      auto fill = [&](SqueezeBackward0& n) { n.self_sizes = sizes_of(op.inputs[0]); };
      if (one_dim) return connect<SqueezeBackward1>(op, [&](SqueezeBackward1& n) { fill(n); });
      return connect<SqueezeBackward0>(op, fill);
    }
    case Op::Unsqueeze: return connect<UnsqueezeBackward0>(op, [&](UnsqueezeBackward0& n) { n.dim = a.dim; });
    case Op::Transpose:
      return connect<TransposeBackward0>(op, [&](TransposeBackward0& n) {
        n.dim0 = a.dim;
        n.dim1 = a.dim1;
      });
    case Op::Permute: {
      const int64_t ndim = op.inputs[0].dim();
      return connect<PermuteBackward0>(op, [&](PermuteBackward0& n) {
        for (int64_t d : a.dims) n.dims.push_back(maybe_wrap_dim(d, ndim));
      });
    }
    case Op::Expand: return connect<ExpandBackward0>(op, [&](ExpandBackward0& n) { n.self_sizes = sizes_of(op.inputs[0]); });
    case Op::Select:
      return connect<SelectBackward0>(op, [&](SelectBackward0& n) {
        n.self_sizes = sizes_of(op.inputs[0]);
        n.dim = a.dim;
        n.index = a.index;
      });
    case Op::Slice:
      return connect<SliceBackward0>(op, [&](SliceBackward0& n) {
        n.self_sizes = sizes_of(op.inputs[0]);
        n.dim = a.dim;
        n.start = a.start;
        n.end = a.end;
        n.step = a.step;
      });
    case Op::Clone:
    case Op::Contiguous: return connect<CloneBackward0>(op);
    case Op::To:
      return connect<ToCopyBackward0>(op, [&](ToCopyBackward0& n) { n.self_scalar_type = op.inputs[0].scalar_type(); });
    case Op::Copy:
      return connect<CopyBackwards>(op, [&](CopyBackwards& n) {
        n.src_sizes = sizes_of(op.inputs[1]);
        n.src_scalar_type = op.inputs[1].scalar_type();
      });
    case Op::Fill: return connect<FillBackward2>(op);
    case Op::Relu: return connect<ReluBackward0>(op, [&](ReluBackward0& n) { n.result_ = saved_output(op, 0); });
    case Op::Sigmoid: return connect<SigmoidBackward0>(op, [&](SigmoidBackward0& n) { n.result_ = saved_output(op, 0); });
    case Op::Tanh: return connect<TanhBackward0>(op, [&](TanhBackward0& n) { n.result_ = saved_output(op, 0); });
    case Op::Gelu:
      return connect<GeluBackward0>(op, [&](GeluBackward0& n) {
        n.self_ = saved_input(op, 0);
        n.tanh_approximation = a.index == 1;
      });
    case Op::Softmax:
      return connect<SoftmaxBackward0>(op, [&](SoftmaxBackward0& n) {
        n.result_ = saved_output(op, 0);
        n.dim = a.dim;
        n.self_scalar_type = op.inputs[0].scalar_type();
      });
    case Op::LogSoftmax:
      return connect<LogSoftmaxBackward0>(op, [&](LogSoftmaxBackward0& n) {
        n.result_ = saved_output(op, 0);
        n.dim = a.dim;
        n.self_scalar_type = op.inputs[0].scalar_type();
      });
    case Op::NllLoss:
      TT_CHECK(!tensor_requires_grad(op.inputs[2]), "the derivative for 'weight' is not implemented.");
      return connect<NllLossBackward0>(op, [&](NllLossBackward0& n) {
        n.target_ = saved_input(op, 1);
        n.weight_ = saved_input(op, 2);
        n.self_sizes = sizes_of(op.inputs[0]);
        n.self_scalar_type = op.inputs[0].scalar_type();
        n.reduction = a.dim;
        n.ignore_index = a.index;
      });
    case Op::BinaryCrossEntropy:
      TT_CHECK(!tensor_requires_grad(op.inputs[2]), "the derivative for 'weight' is not implemented.");
      return connect<BinaryCrossEntropyBackward0>(op, [&](BinaryCrossEntropyBackward0& n) {
        n.self_ = saved_input(op, 0);
        n.target_ = saved_input(op, 1);
        n.weight_ = saved_input(op, 2);
        n.reduction = a.dim;
      });
    case Op::Convolution:  // sizes = {stride, padding, dilation}, dim = groups (module 09's conv2d)
      return connect<ConvolutionBackward0>(op, [&](ConvolutionBackward0& n) {
        n.input_ = saved_input(op, 0);
        n.weight_ = saved_input(op, 1);
        n.stride = {a.sizes[0], a.sizes[1]};
        n.padding = {a.sizes[2], a.sizes[3]};
        n.dilation = {a.sizes[4], a.sizes[5]};
        n.groups = a.dim;
      });
    case Op::Unknown: break;
  }
  auto node = std::make_shared<NotImplementedBackward>(name);
  wire(op, node);
  return node;
}

// Nodes of ops whose output shares its input's storage.
bool is_view_node(const Node& node) {
  const std::type_info& type = typeid(node);
  return type == typeid(ViewBackward0) || type == typeid(SqueezeBackward0) || type == typeid(SqueezeBackward1) ||
         type == typeid(UnsqueezeBackward0) || type == typeid(TransposeBackward0) ||
         type == typeid(PermuteBackward0) || type == typeid(ExpandBackward0) || type == typeid(SelectBackward0) ||
         type == typeid(SliceBackward0);
}

// An in-place op on a view changes its base too, and this engine does not follow a view back to
// its base (LibTorch's CopySlices): refuse rather than compute a wrong gradient for the base.
// A view is recognised by its storage being shared and its history being a view op (or absent).
void check_in_place_on_view(const OpRecord& op) {
  const Tensor& self = op.outputs[0];
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
      "in-place ", op.name, "() on a view of another tensor while gradients are recorded: TinyTorch's autograd "
      "does not follow a view back to its base, so the base's gradient would be wrong. Compute the result out "
      "of place, or run the update under torch::NoGradGuard"));
}

class GradientEngine final : public AutogradLayer {
 public:
  void record(const OpRecord& op) override {
    bool any_requires_grad = false;
    for (const Tensor& input : op.inputs) any_requires_grad = any_requires_grad || tensor_requires_grad(input);
    if (!any_requires_grad) return;
    const size_t length = std::strlen(op.name);
    const bool in_place = length > 1 && op.name[length - 1] == '_';
    if (in_place) {
      const AutogradMeta* meta = meta_of(op.outputs[0]);
      TT_CHECK(meta == nullptr || !meta->requires_grad || meta->grad_fn != nullptr,
               "a leaf Variable that requires grad is being used in an in-place operation.");
      check_in_place_on_view(op);
    }
    const Op kind = op_of(op.name, in_place ? length - 1 : length);
    build_node(kind, in_place, op, op.name);
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
    variable_list gradients;
    if (gradient.defined()) gradients.push_back(gradient);
    autograd::backward({root}, gradients, retain_graph, create_graph);
  }

  const std::shared_ptr<Node>& grad_fn(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta != nullptr ? meta->grad_fn : no_node_;
  }

  bool is_leaf(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta == nullptr || meta->grad_fn == nullptr;
  }

  void retain_grad(const Tensor& self) override {
    TT_CHECK(tensor_requires_grad(self), "can't retain_grad on Tensor that has requires_grad=False");
    AutogradMeta& meta = materialized_meta(self);
    if (meta.grad_fn == nullptr || meta.retains_grad) return;  // a leaf keeps its grad anyway
    meta.retains_grad = true;
    meta.grad_fn->retain_grad_of(meta.output_nr, self.unsafeGetTensorImpl()->autograd_meta());
  }

  bool retains_grad(const Tensor& self) override {
    const AutogradMeta* meta = meta_of(self);
    return meta != nullptr && meta->retains_grad;
  }

  Tensor detach(const Tensor& self) override {
    return native::make_view(self, self.sizes().vec(), self.strides().vec(), self.storage_offset());
  }

 private:
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
