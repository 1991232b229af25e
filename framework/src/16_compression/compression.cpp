// Module 16 (Compression), given: sparsity measurement and factorize_linear (tinytorch/compression.h).
#include "tinytorch/compression.h"

#include "tinytorch/compression_kernels.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/linalg.h"

namespace tinytorch {
namespace compression {
namespace {

int64_t zeros_in(const Tensor& t) {
  const Tensor values = t.detach().to(kDouble).contiguous();
  const double* data = values.data_ptr<double>();
  int64_t zeros = 0;
  for (int64_t i = 0; i < values.numel(); ++i) zeros += data[i] == 0.0;
  return zeros;
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

double sparsity(const Tensor& t) {
  return t.numel() == 0 ? 0.0 : static_cast<double>(zeros_in(t)) / static_cast<double>(t.numel());
}

std::vector<LayerSparsity> sparsity_report(const nn::Module& model) {
  std::vector<LayerSparsity> report;
  const auto buffers = model.named_buffers();
  for (const auto& parameter : model.named_parameters()) {
    const Tensor& value = parameter.value();
    if (value.dim() < 2) continue;
    LayerSparsity layer;
    layer.name = parameter.key();
    layer.numel = value.numel();
    // A pruned NAME is stored as NAME_orig (old values kept) and NAME_mask: the mask says what forward() sees.
    const std::string mask_name =
        ends_with(layer.name, "_orig") ? layer.name.substr(0, layer.name.size() - 5) + "_mask" : std::string();
    if (const Tensor* mask = mask_name.empty() ? nullptr : buffers.find(mask_name)) {
      layer.name = layer.name.substr(0, layer.name.size() - 5);
      layer.zeros = zeros_in(value * *mask);  // the masked entries, and any kept entry that is zero
    } else {
      layer.zeros = zeros_in(value);
    }
    report.push_back(layer);
  }
  return report;
}

double global_sparsity(const nn::Module& model) {
  int64_t zeros = 0, numel = 0;
  for (const LayerSparsity& layer : sparsity_report(model)) {
    zeros += layer.zeros;
    numel += layer.numel;
  }
  return numel == 0 ? 0.0 : static_cast<double>(zeros) / static_cast<double>(numel);
}

nn::Sequential factorize_linear(const nn::Linear& linear, int64_t rank) {
  TT_CHECK(!linear.is_empty(), "factorize_linear: the Linear is empty: pass a constructed nn::Linear");
  const nn::LinearImpl& layer = *linear;
  const int64_t in = layer.options.in_features(), out = layer.options.out_features();
  TT_CHECK(rank >= 1 && rank <= std::min(in, out), "factorize_linear: rank ", rank, " is outside [1, ", std::min(in, out),
           "] for Linear(in_features=", in, ", out_features=", out, "): a rank above min(in, out) saves nothing");
  NoGradGuard no_grad;
  const Tensor weight = layer.weight.detach();  // what forward() uses: pruned or not
  const auto [U, S, Vh] = linalg::svd(weight, false);
  const auto [up, down] = native::rank_k_factors(U, S, Vh, rank);
  TT_CHECK(up.sizes() == IntArrayRef({out, rank}) && down.sizes() == IntArrayRef({rank, in}),
           "factorize_linear: rank_k_factors returned ", up.sizes(), " and ", down.sizes(), ", expected (", out, ", ",
           rank, ") and (", rank, ", ", in, ")");
  nn::Linear first(nn::LinearOptions(in, rank).bias(false));
  nn::Linear second(nn::LinearOptions(rank, out).bias(layer.bias.defined()));
  first->weight.copy_(down);
  second->weight.copy_(up);
  if (layer.bias.defined()) second->bias.copy_(layer.bias);
  return nn::Sequential(first, second);
}

}  // namespace compression
}  // namespace tinytorch
