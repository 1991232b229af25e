// Module 09 (Convolutions), given: the small layers a CNN needs besides convolution, pooling and
// batch normalisation: feature (channel) dropout, F::dropout, and nn::Unflatten.
#include <ostream>

#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/functional/dropout.h"
#include "tinytorch/nn/modules/dropout.h"
#include "tinytorch/nn/modules/flatten.h"

namespace tinytorch {

Tensor feature_dropout(const Tensor& input, double p, bool train) {
  TT_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  TT_CHECK(input.dim() >= 2, "Feature dropout requires at least 2 dimensions in the input");
  if (!train || p == 0.0 || input.numel() == 0) return input;
  if (p == 1.0) return input * 0;
  // One draw per (sample, channel), broadcast over the rest: (N, C, 1, 1, ...).
  std::vector<int64_t> mask_sizes(input.sizes().begin(), input.sizes().end());
  for (size_t d = 2; d < mask_sizes.size(); ++d) mask_sizes[d] = 1;
  const double keep = 1.0 - p;
  const Tensor mask = (rand(mask_sizes, input.options()) < keep).to(input.scalar_type()) / keep;
  return input * mask;
}

namespace nn {
namespace functional {

Tensor dropout(Tensor input, const DropoutFuncOptions& options) {
  Tensor result = ::tinytorch::dropout(input, options.p(), options.training());
  if (!options.inplace() || result.is_same(input)) return result;
  return input.copy_(result);
}

Tensor dropout2d(Tensor input, const Dropout2dFuncOptions& options) {
  TT_CHECK(input.dim() == 3 || input.dim() == 4, "dropout2d: expected a 3-D (C, H, W) or 4-D (N, C, H, W) input, "
           "but got an input of size ", input.sizes());
  // Unbatched (C, H, W): the channels are dimension 0, so drop over a batch of one.
  const Tensor batched = input.dim() == 3 ? input.unsqueeze(0) : input;
  Tensor result = feature_dropout(batched, options.p(), options.training());
  if (input.dim() == 3 && !result.is_same(batched)) result = result.squeeze(0);
  if (result.is_same(batched)) return input;
  if (!options.inplace()) return result;
  return input.copy_(result);
}

}  // namespace functional

Dropout2dImpl::Dropout2dImpl(const Dropout2dOptions& options_) : options(options_) { reset(); }

void Dropout2dImpl::reset() {
  TT_CHECK(options.p() >= 0. && options.p() <= 1., "dropout probability has to be between 0 and 1, but got ",
           options.p());
}

void Dropout2dImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Dropout2d(p=" << options.p() << ", inplace=" << options.inplace() << ")";
}

Tensor Dropout2dImpl::forward(Tensor input) {
  return functional::dropout2d(std::move(input), functional::Dropout2dFuncOptions()
                                                     .p(options.p())
                                                     .training(is_training())
                                                     .inplace(options.inplace()));
}

UnflattenImpl::UnflattenImpl(UnflattenOptions options_) : options(std::move(options_)) {}

void UnflattenImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Unflatten(dim=" << options.dim() << ", unflattened_size={";
  for (size_t i = 0; i < options.sizes().size(); ++i) stream << (i > 0 ? ", " : "") << options.sizes()[i];
  stream << "})";
}

Tensor UnflattenImpl::forward(const Tensor& input) { return input.unflatten(options.dim(), options.sizes()); }

}  // namespace nn
}  // namespace tinytorch
