// Module 16 (Compression), lesson sections "2. Magnitude pruning", "3. The mask" and "4. Structured
// pruning". The given code (prune.cpp) has checked the names and the amount, turned the amount into
// a count and made every tensor here contiguous; it stores your masks as the buffers NAME_mask and
// calls apply_mask before every forward.
#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "tinytorch/compression_kernels.h"
#include "tinytorch/errors.h"
#include "tinytorch/dispatch.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"

namespace tinytorch {
namespace compression {
namespace native {

// TODO: smallest_magnitude_masks -- global magnitude pruning (section 2).
//   importance[i] holds |w| of tensor i (float or double, contiguous); masks[i] (same shape, same
//   dtype) holds 1 where the entry is still kept and 0 where it is already pruned. Return new masks:
//   copies of masks[i] in which the `count` kept entries of smallest importance, ranked TOGETHER
//   across all the tensors (one global ranking, not one per tensor), are set to 0. Ties go to the
//   earlier entry: tensor i before tensor i + 1, then flat index order. Entries already pruned are
//   never candidates. 0 <= count <= number of kept entries (the given code checked).
//   Example: importance {[3, 1, 2]}, {[0.5, 4]}, masks all ones, count 2 -> {[1, 0, 1]}, {[0, 1]}.
std::vector<Tensor> smallest_magnitude_masks(const std::vector<Tensor>& importance, const std::vector<Tensor>& masks,
                                             int64_t count) {
  std::vector<Tensor> result;
  for (const Tensor& mask : masks) result.push_back(mask.clone());
  // BEGIN SOLUTION name="tinytorch::compression::native::smallest_magnitude_masks" lesson="2. Magnitude pruning"
  // Every candidate as (importance, tensor, flat index): ordering these tuples is the global ranking
  // with its tie-break built in.
  std::vector<std::tuple<double, size_t, int64_t>> kept;
  for (size_t i = 0; i < importance.size(); ++i) {
    const Tensor scores = importance[i].to(kDouble);
    const Tensor keep = result[i].to(kDouble);
    const double* s = scores.data_ptr<double>();
    const double* k = keep.data_ptr<double>();
    for (int64_t j = 0; j < scores.numel(); ++j) {
      if (k[j] != 0) kept.emplace_back(s[j], i, j);
    }
  }
  // The count-th smallest and everything before it, in linear time (no full sort needed).
  const auto cut = kept.begin() + count;
  std::nth_element(kept.begin(), cut, kept.end());
  for (auto it = kept.begin(); it != cut; ++it) {
    const int64_t tensor = std::get<1>(*it), index = std::get<2>(*it);  // a lambda cannot capture a binding
    TT_DISPATCH_FLOATING_TYPES(result[tensor].scalar_type(), "smallest_magnitude_masks",
                               [&] { result[tensor].data_ptr<scalar_t>()[index] = scalar_t(0); });
  }
  // END SOLUTION
  return result;
}

// TODO: apply_mask -- the pruned weight forward() uses (section 3): orig * mask, computed with tensor
//   ops so that the gradient reaching orig is grad * mask (pruned entries learn nothing). Leave orig
//   itself unchanged: it keeps the pruned entries' old values, which prune::remove overwrites.
//   Example: orig [0.5, -2, 3], mask [1, 0, 1] -> [0.5, 0, 3].
Tensor apply_mask(const Tensor& orig, const Tensor& mask) {
  // BEGIN SOLUTION name="tinytorch::compression::native::apply_mask" lesson="3. The mask"
  return orig * mask;
  // END SOLUTION
}

// TODO: channel_norms -- one importance per channel for structured pruning (section 4): for each c
//   in [0, weight.size(dim)), the Ln norm of the slice weight.select(dim, c), that is
//   (sum of |x|^n)^(1/n) over every element of the slice, or max |x| when n is infinite. Return a
//   (weight.size(dim)) double tensor; accumulate in double. weight is contiguous, float or double;
//   n > 0 and 0 <= dim < weight.dim() (the given code checked).
//   Example: weight [[3, 4], [1, 0]], n 2, dim 0 -> [5, 1]; dim 1 -> [sqrt(10), 4].
Tensor channel_norms(const Tensor& weight, double n, int64_t dim) {
  const int64_t channels = weight.size(dim);
  Tensor norms = zeros({channels}, weight.options().dtype(kDouble));
  // BEGIN SOLUTION name="tinytorch::compression::native::channel_norms" lesson="4. Structured pruning"
  // A contiguous tensor seen as (outer, channels, inner) around dim: element (o, c, i) is at
  // (o channels + c) inner + i.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= weight.size(d);
  for (int64_t d = dim + 1; d < weight.dim(); ++d) inner *= weight.size(d);
  const Tensor values = weight.to(kDouble).contiguous();
  const double* x = values.data_ptr<double>();
  double* out = norms.data_ptr<double>();
  for (int64_t c = 0; c < channels; ++c) {
    double accumulated = 0;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const double magnitude = std::abs(x[(o * channels + c) * inner + i]);
        accumulated = std::isinf(n) ? std::max(accumulated, magnitude) : accumulated + std::pow(magnitude, n);
      }
    }
    out[c] = std::isinf(n) ? accumulated : std::pow(accumulated, 1.0 / n);
  }
  // END SOLUTION
  return norms;
}

}  // namespace native
}  // namespace compression
}  // namespace tinytorch
