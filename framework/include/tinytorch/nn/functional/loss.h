#pragma once
// torch::nn::functional's losses (namespace F = torch::nn::functional;) with their option builders,
// and LibTorch's reduction spellings torch::kNone, torch::kMean, torch::kSum:
//   F::mse_loss(pred, y, F::MSELossFuncOptions().reduction(torch::kSum))
//   F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().ignore_index(0).label_smoothing(0.1))
//   F::nll_loss, F::binary_cross_entropy, F::binary_cross_entropy_with_logits, F::smooth_l1_loss
// The options are also those of the loss modules (tinytorch/nn/modules/loss.h): MSELossOptions, ...
#include <cstdint>
#include <iostream>
#include <utility>
#include <variant>
#include <vector>

#include "tinytorch/losses.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

// torch::kNone, torch::kMean, torch::kSum: one empty type per reduction, so that options hold a
// std::variant of them (LibTorch's torch/enum.h).
namespace enumtype {
struct kNone {};
struct kMean {};
struct kSum {};
struct kBatchMean {};
using reduction_t = std::variant<kNone, kMean, kSum>;
// The at::Reduction code of a reduction variant.
inline int64_t reduction_get_enum(const reduction_t& reduction) {
  if (std::holds_alternative<kNone>(reduction)) return Reduction::None;
  if (std::holds_alternative<kSum>(reduction)) return Reduction::Sum;
  return Reduction::Mean;
}
}  // namespace enumtype
inline constexpr enumtype::kNone kNone{};
inline constexpr enumtype::kMean kMean{};
inline constexpr enumtype::kSum kSum{};
inline constexpr enumtype::kBatchMean kBatchMean{};

namespace nn {

struct MSELossOptions {
  using reduction_t = enumtype::reduction_t;
  MSELossOptions() {}
  /* implicit */ MSELossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ MSELossOptions(enumtype::kMean) : reduction_(kMean) {}
  /* implicit */ MSELossOptions(enumtype::kSum) : reduction_(kSum) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct NLLLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct CrossEntropyLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, label_smoothing) = 0.0;
};

struct BCELossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct BCEWithLogitsLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(Tensor, pos_weight) = {};
};

struct SmoothL1LossOptions {
  using reduction_t = enumtype::reduction_t;
  SmoothL1LossOptions() {}
  /* implicit */ SmoothL1LossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ SmoothL1LossOptions(enumtype::kMean) : reduction_(kMean) {}
  /* implicit */ SmoothL1LossOptions(enumtype::kSum) : reduction_(kSum) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, beta) = 1.0;
};

// reduction batchmean (sum / batch size) is the KL divergence of the maths; mean (the default,
// kept for compatibility as in LibTorch) divides by every element and warns.
struct KLDivLossOptions {
  using reduction_t = std::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>;
  KLDivLossOptions() {}
  /* implicit */ KLDivLossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ KLDivLossOptions(enumtype::kBatchMean) : reduction_(kBatchMean) {}
  /* implicit */ KLDivLossOptions(enumtype::kSum) : reduction_(kSum) {}
  /* implicit */ KLDivLossOptions(enumtype::kMean) : reduction_(kMean) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(bool, log_target) = false;
};

namespace functional {

using KLDivFuncOptions = KLDivLossOptions;
using MSELossFuncOptions = MSELossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;

namespace detail {
// LibTorch's F::mse_loss and F::smooth_l1_loss warn, then broadcast, when the sizes differ.
inline void warn_if_sizes_differ(const Tensor& input, const Tensor& target, const char* function) {
  if (input.sizes() == target.sizes()) return;
  std::cerr << "Warning: Using a target size (" << target.sizes() << ") that is different to the input size ("
            << input.sizes() << "). This will likely lead to incorrect results due to broadcasting. "
            << "Please ensure they have the same size. (function " << function << ")\n";
}
// Class-index losses on (N, C, d1, ..., dk) inputs with (N, d1, ..., dk) targets, as LibTorch takes
// them: the classes are moved last and every position becomes a row of an (N * d1 * ... * dk, C)
// problem; reduction 'none' gives the per-position losses back in the target's shape. The mean
// (weighted or not) over all positions is the same mean the flattened problem takes.
template <typename LossOf2d>
Tensor over_spatial_dims(const Tensor& input, const Tensor& target, LossOf2d loss_of_2d, bool reduction_none) {
  if (input.dim() <= 2) return loss_of_2d(input, target);
  std::vector<int64_t> expected{input.size(0)};
  for (int64_t d = 2; d < input.dim(); ++d) expected.push_back(input.size(d));
  TT_CHECK(target.sizes() == IntArrayRef(expected), "Expected target size ", IntArrayRef(expected), ", got ",
           target.sizes());
  std::vector<int64_t> classes_last{0};
  for (int64_t d = 2; d < input.dim(); ++d) classes_last.push_back(d);
  classes_last.push_back(1);
  Tensor loss = loss_of_2d(input.permute(classes_last).reshape({-1, input.size(1)}), target.reshape({-1}));
  return reduction_none ? loss.view(target.sizes()) : loss;
}
}  // namespace detail

inline Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {}) {
  detail::warn_if_sizes_differ(input, target, "mse_loss");
  return ::tinytorch::mse_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {}) {
  TT_CHECK(input.dim() >= 2, "Expected 2 or more dimensions (got ", input.dim(), ")");
  TT_CHECK(input.size(0) == target.size(0), "Expected input batch_size (", input.size(0),
           ") to match target batch_size (", target.size(0), ").");
  const auto reduction = enumtype::reduction_get_enum(options.reduction());
  return detail::over_spatial_dims(
      input, target,
      [&](const Tensor& rows, const Tensor& labels) {
        return ::tinytorch::nll_loss(rows, labels, options.weight(), reduction, options.ignore_index());
      },
      reduction == Reduction::None);
}

inline Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {}) {
  const auto reduction = enumtype::reduction_get_enum(options.reduction());
  return detail::over_spatial_dims(
      input, target,
      [&](const Tensor& rows, const Tensor& labels) {
        return ::tinytorch::cross_entropy_loss(rows, labels, options.weight(), reduction, options.ignore_index(),
                                               options.label_smoothing());
      },
      reduction == Reduction::None);
}

inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                   const BinaryCrossEntropyFuncOptions& options = {}) {
  return ::tinytorch::binary_cross_entropy(input, target, options.weight(),
                                           enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                               const BinaryCrossEntropyWithLogitsFuncOptions& options = {}) {
  return ::tinytorch::binary_cross_entropy_with_logits(input, target, options.weight(), options.pos_weight(),
                                                       enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const SmoothL1LossFuncOptions& options = {}) {
  detail::warn_if_sizes_differ(input, target, "smooth_l1_loss");
  return ::tinytorch::smooth_l1_loss(input, target, enumtype::reduction_get_enum(options.reduction()),
                                     options.beta());
}

// KL(target || exp(input)): input holds log-probabilities (F::log_softmax), target probabilities.
//   F::kl_div(F::log_softmax(student, 1), F::softmax(teacher, 1), F::KLDivFuncOptions(torch::kBatchMean))
inline Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options = {}) {
  const auto& reduction = options.reduction();
  if (std::holds_alternative<enumtype::kMean>(reduction)) {
    std::cerr << "Warning: reduction: 'mean' divides the total loss by both the batch size and the support size."
                 "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                 "'mean' will be changed to behave the same as 'batchmean' in the next major release.\n";
  }
  const bool batchmean = std::holds_alternative<enumtype::kBatchMean>(reduction);
  int64_t reduction_enum = Reduction::Sum;
  if (std::holds_alternative<enumtype::kNone>(reduction)) reduction_enum = Reduction::None;
  if (std::holds_alternative<enumtype::kMean>(reduction)) reduction_enum = Reduction::Mean;
  Tensor reduced = ::tinytorch::kl_div(input, target, reduction_enum, options.log_target());
  if (batchmean && input.dim() != 0) reduced = reduced / input.size(0);
  return reduced;
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
