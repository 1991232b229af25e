// Module 16 (Compression), given: torch::nn::utils::prune's mechanics (tinytorch/nn/utils/prune.h):
// checks, the NAME_orig / NAME_mask reparametrisation and the forward pre-hook. Choosing which
// entries to prune and applying the mask are the learner's (pruning_masks.cpp).
// Not yet: an integer amount (Python's "prune exactly k"), clone() of a module while it is pruned
// (remove() first; its reset() registers NAME, not NAME_orig), and other pruning methods than L1.
#include "tinytorch/nn/utils/prune.h"

#include <cmath>
#include <sstream>

#include "tinytorch/compression_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/modules/conv.h"
#include "tinytorch/nn/modules/linear.h"

namespace tinytorch {
namespace nn {
namespace detail {

// Python edits a module's _parameters and _buffers dicts directly; LibTorch's Module has no
// unregister_parameter, so pruning is let in as a friend.
struct ReparametrizationAccess {
  static OrderedDict<std::string, Tensor>& parameters(Module& module) { return module.parameters_; }
  static OrderedDict<std::string, Tensor>& buffers(Module& module) { return module.buffers_; }
};

}  // namespace detail

namespace utils {
namespace prune {
namespace {

using Access = detail::ReparametrizationAccess;

std::string describe(const Module& module) {
  std::ostringstream text;
  module.pretty_print(text);
  return text.str();
}

// The member forward() reads for `name`: what Python's setattr(module, name, ...) changes. C++
// modules keep it as a field, so TinyTorch knows the layers that have one.
Tensor& forward_member(Module& module, const std::string& name) {
  auto pick = [&](Tensor& weight, Tensor& bias) -> Tensor& {
    if (name == "weight") return weight;
    if (name == "bias") return bias;
    TT_CHECK(false, "prune: ", describe(module), " has no tensor '", name, "': prune \"weight\" or \"bias\"");
    return weight;
  };
  if (auto* linear = module.as<LinearImpl>()) return pick(linear->weight, linear->bias);
  if (auto* conv = module.as<Conv2dImpl>()) return pick(conv->weight, conv->bias);
  if (auto* conv = module.as<Conv1dImpl>()) return pick(conv->weight, conv->bias);
  if (auto* conv = module.as<ConvTranspose2dImpl>()) return pick(conv->weight, conv->bias);
  TT_CHECK(false, "prune: TinyTorch prunes the weight and bias of Linear, Conv1d, Conv2d and ConvTranspose2d; ",
           describe(module), " is none of them: prune its Linear or Conv submodules instead");
  return forward_member(module, name);  // not reached
}

std::string hook_key(const std::string& name) { return "prune." + name; }

bool pruned(const Module& module, const std::string& name) {
  return module.has_forward_pre_hook(hook_key(name));
}

// NAME_orig and NAME_mask of a pruned tensor.
Tensor& orig_of(Module& module, const std::string& name) { return Access::parameters(module)[name + "_orig"]; }
Tensor& mask_of(Module& module, const std::string& name) { return Access::buffers(module)[name + "_mask"]; }

// The pre-hook: module.NAME = NAME_orig * NAME_mask, before every forward.
void recompute(Module& module, const std::string& name) {
  forward_member(module, name) = compression::native::apply_mask(orig_of(module, name), mask_of(module, name));
}

// The tensor pruning ranks: what forward() uses now (already pruned entries read 0).
Tensor current_value(Module& module, const std::string& name) {
  if (pruned(module, name)) {
    NoGradGuard no_grad;
    return (orig_of(module, name) * mask_of(module, name)).contiguous();
  }
  const Tensor* parameter = Access::parameters(module).find(name);
  TT_CHECK(parameter != nullptr && parameter->defined(), "prune: ", describe(module), " has no parameter '", name,
           "'", name == "bias" ? " (built with bias(false)?)" : "", ": name one of its parameters (\"weight\", \"bias\")");
  forward_member(module, name);  // fails early, with the message, for a module pruning cannot follow
  return parameter->detach().contiguous();
}

Tensor current_mask(Module& module, const std::string& name) {
  if (pruned(module, name)) return mask_of(module, name);
  const Tensor value = current_value(module, name);
  return ones(value.sizes(), value.options());
}

void check_amount(double amount) {
  TT_CHECK(amount >= 0 && amount <= 1, "amount=", amount,
           " should either be a float in the range [0, 1] or a non-negative integer (TinyTorch takes the "
           "fraction to prune: 0.3 prunes 30%)");
}

// Python's round(): halves go to the even neighbour (round(2.5) == 2).
int64_t round_half_even(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

int64_t count_nonzero(const Tensor& mask) {
  const Tensor values = mask.to(kDouble).contiguous();
  const double* data = values.data_ptr<double>();
  int64_t count = 0;
  for (int64_t i = 0; i < values.numel(); ++i) count += data[i] != 0;
  return count;
}

// Installs (or updates) the pruning of module.NAME with `mask`, which already includes any earlier mask.
void install_mask(Module& module, const std::string& name, const Tensor& mask) {
  if (!pruned(module, name)) {
    auto& parameters = Access::parameters(module);
    Tensor orig = parameters[name];
    parameters.erase(name);
    parameters.insert(name + "_orig", orig);  // same tensor: optimizers holding it keep training it
    Access::buffers(module).insert(name + "_mask", mask);
    module.set_forward_pre_hook(hook_key(name), [name](Module& m) { recompute(m, name); });
  } else {
    mask_of(module, name) = mask;
  }
  recompute(module, name);  // the member is current at once, as in Python
}

}  // namespace

void custom_from_mask(Module& module, const std::string& name, const Tensor& mask) {
  const Tensor value = current_value(module, name);
  TT_CHECK(mask.sizes() == value.sizes(), "prune: the mask has shape ", mask.sizes(), " but ", name, " has shape ",
           value.sizes(), ": give one 0 or 1 per entry");
  install_mask(module, name, current_mask(module, name) * mask.to(value.scalar_type()));
}

void l1_unstructured(Module& module, const std::string& name, double amount) {
  check_amount(amount);
  const Tensor value = current_value(module, name);
  const Tensor mask = current_mask(module, name);
  const int64_t count = round_half_even(amount * static_cast<double>(count_nonzero(mask)));
  install_mask(module, name, compression::native::smallest_magnitude_masks({value.abs()}, {mask}, count)[0]);
}

void global_unstructured(const std::vector<std::pair<std::shared_ptr<Module>, std::string>>& parameters,
                         L1Unstructured, double amount) {
  check_amount(amount);
  TT_CHECK(!parameters.empty(), "global_unstructured: no parameters to prune: pass {module, \"weight\"} pairs");
  std::vector<Tensor> importance, masks;
  int64_t kept = 0;
  for (const auto& [module, name] : parameters) {
    TT_CHECK(module != nullptr, "global_unstructured: an empty module pointer (for \"", name, "\")");
    importance.push_back(current_value(*module, name).abs());
    masks.push_back(current_mask(*module, name));
    kept += count_nonzero(masks.back());
  }
  const int64_t count = round_half_even(amount * static_cast<double>(kept));
  const std::vector<Tensor> new_masks = compression::native::smallest_magnitude_masks(importance, masks, count);
  for (size_t i = 0; i < parameters.size(); ++i) install_mask(*parameters[i].first, parameters[i].second, new_masks[i]);
}

void ln_structured(Module& module, const std::string& name, double amount, double n, int64_t dim) {
  check_amount(amount);
  TT_CHECK(n > 0, "ln_structured: n=", n, " must be positive (1 for L1, 2 for L2, INFINITY for the max)");
  const Tensor value = current_value(module, name);
  TT_CHECK(value.dim() >= 1, "ln_structured: ", name, " has no dims to prune along");
  const int64_t dims = value.dim();
  TT_CHECK(dim >= -dims && dim < dims, "Dimension out of range (expected to be in range of [", -dims, ", ", dims - 1,
           "], but got ", dim, ")");
  if (dim < 0) dim += dims;
  const Tensor mask = current_mask(module, name);
  // A channel is still there while any of its entries is kept (Python's PruningContainer).
  const Tensor channel_alive = (compression::native::channel_norms(mask, 1.0, dim) > 0).to(kDouble);
  const int64_t count = round_half_even(amount * static_cast<double>(count_nonzero(channel_alive)));
  const Tensor norms = compression::native::channel_norms(value, n, dim);
  const Tensor keep_channel = compression::native::smallest_magnitude_masks({norms}, {channel_alive}, count)[0];
  // Broadcast the per-channel decision along every other dim.
  std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
  shape[static_cast<size_t>(dim)] = value.size(dim);
  install_mask(module, name, mask * keep_channel.to(mask.scalar_type()).view(shape));
}

void remove(Module& module, const std::string& name) {
  TT_CHECK(pruned(module, name), "Parameter '", name, "' of module ", describe(module),
           " has to be pruned before pruning can be removed");
  Tensor orig = orig_of(module, name);
  {
    NoGradGuard no_grad;
    orig.copy_(orig * mask_of(module, name));  // in place: the parameter keeps its identity
  }
  auto& parameters = Access::parameters(module);
  parameters.erase(name + "_orig");
  parameters.insert(name, orig);
  Access::buffers(module).erase(name + "_mask");
  module.remove_forward_pre_hook(hook_key(name));
  forward_member(module, name) = orig;
}

bool is_pruned(const Module& module) {
  for (const auto& submodule : module.modules()) {
    for (const auto& buffer : submodule->named_buffers(false)) {
      const std::string& key = buffer.key();
      const std::string name = key.size() > 5 ? key.substr(0, key.size() - 5) : std::string();
      if (key.size() > 5 && key.compare(key.size() - 5, 5, "_mask") == 0 && submodule->has_forward_pre_hook(hook_key(name)))
        return true;
    }
  }
  return false;
}

}  // namespace prune
}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
