#pragma once
// What module 06 keeps per tensor, in the slot TensorImpl reserved for it (autograd_meta()).
// Tensors that never meet autograd have none: the common case costs one null pointer.
#include <cstdint>
#include <memory>

#include "tinytorch/autograd/node.h"
#include "tinytorch/tensor_impl.h"

namespace tinytorch {
namespace autograd {

struct AutogradMeta {
  Tensor grad;                                  // .grad(): accumulated by backward
  std::shared_ptr<Node> grad_fn;                // the node that computed this tensor; null for leaves
  std::weak_ptr<Node> grad_accumulator;         // a leaf's AccumulateGrad, shared by every use of the leaf
  uint32_t output_nr = 0;                       // which output of grad_fn this tensor is
  bool requires_grad = false;                   // set by requires_grad_() on a leaf
  bool retains_grad = false;                    // retain_grad() on a non-leaf
  // register_hook() and retain_grad() in registration order; shared with grad_fn for a non-leaf
  // (a leaf's AccumulateGrad reads them from here). Created by the first hook.
  std::shared_ptr<TensorHookList> hooks;
};

inline AutogradMeta* meta_of(const Tensor& t) {
  return t.defined() ? t.unsafeGetTensorImpl()->autograd_meta().get() : nullptr;
}

// The tensor's meta, created on first use.
inline AutogradMeta& materialized_meta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (!impl->autograd_meta()) impl->set_autograd_meta(std::make_shared<AutogradMeta>());
  return *impl->autograd_meta();
}

// A leaf that asked for gradients, or any tensor computed from one.
inline bool tensor_requires_grad(const Tensor& t) {
  const AutogradMeta* meta = meta_of(t);
  return meta != nullptr && (meta->requires_grad || meta->grad_fn != nullptr);
}

// Makes `t` output number `output_nr` of `node`.
inline void set_history(const Tensor& t, const std::shared_ptr<Node>& node, uint32_t output_nr) {
  AutogradMeta& meta = materialized_meta(t);
  meta.grad_fn = node;
  meta.output_nr = output_nr;
}

// The AccumulateGrad node of a leaf that requires grad (created once, shared while alive).
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

}  // namespace autograd
}  // namespace tinytorch
