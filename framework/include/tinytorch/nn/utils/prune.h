#pragma once
// Pruning in the shape of Python's torch.nn.utils.prune (LibTorch's C++ API has none), under
// torch::nn::utils::prune (module 16).
//
//   namespace prune = torch::nn::utils::prune;
//   prune::l1_unstructured(*fc1, "weight", 0.3);        // the 30% smallest |w| of fc1 become 0
//   prune::global_unstructured({{fc1.ptr(), "weight"}, {fc2.ptr(), "weight"}}, prune::L1Unstructured{}, 0.8);
//   prune::ln_structured(*conv, "weight", 0.5, 2, 0);   // half of the output channels, by L2 norm
//   prune::remove(*fc1, "weight");                      // make it permanent: weight is a plain parameter again
//
// The mechanics are Python's. Pruning NAME moves the parameter NAME to NAME_orig (the same tensor,
// so an optimizer built earlier still trains it), registers the buffer NAME_mask (1 keeps, 0 prunes),
// and sets the module's member NAME to NAME_orig * NAME_mask, recomputed by a forward pre-hook before
// every call of the module: an optimizer step changes NAME_orig, and the next forward still sees
// the pruned entries at zero. The gradient reaching NAME_orig is masked (d(orig * mask)/d orig =
// mask), so pruned entries get none. NAME_orig keeps the pruned entries' old values; remove()
// writes NAME_orig * NAME_mask into it and makes it the parameter NAME again.
//
// Pruning a pruned tensor again prunes `amount` of what is still unpruned (Python's
// PruningContainer): l1_unstructured(m, "weight", 0.5) twice leaves 25% of the weights.
// amount is a fraction in [0, 1]; the count pruned is round(amount * candidates), rounding halves
// to even as Python's round() does. Ties in magnitude go to the earlier entry (flat index order).
// Supported modules: Linear, Conv1d, Conv2d, ConvTranspose2d (their weight and bias).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tinytorch/nn/module.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace utils {
namespace prune {

// Python passes the class prune.L1Unstructured to global_unstructured; C++ passes this tag.
struct L1Unstructured {};

// Prunes round(amount * n) entries of module.NAME with the smallest absolute value.
void l1_unstructured(Module& module, const std::string& name, double amount);
// Prunes round(amount * N) entries with the smallest absolute value among ALL the listed tensors
// together (N: their total unpruned count), so that a layer of small weights loses more than one of
// large weights. Every listed tensor becomes pruned, even one that loses nothing.
void global_unstructured(const std::vector<std::pair<std::shared_ptr<Module>, std::string>>& parameters,
                         L1Unstructured pruning_method, double amount);
// Prunes whole slices along `dim` (dim 0 of a Linear's or Conv's weight: output channels): the
// round(amount * channels) slices with the smallest Ln norm (n = 1, 2, ... or INFINITY).
void ln_structured(Module& module, const std::string& name, double amount, double n, int64_t dim);
// Prunes with a mask of one's own (1 keeps, 0 prunes), combined with any earlier mask.
void custom_from_mask(Module& module, const std::string& name, const Tensor& mask);
// Makes the pruning permanent: NAME_orig takes the values NAME_orig * NAME_mask and becomes the
// parameter NAME again; the mask and the hook go.
void remove(Module& module, const std::string& name);
// True when the module or any module below it has a pruned tensor.
bool is_pruned(const Module& module);

}  // namespace prune
}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
