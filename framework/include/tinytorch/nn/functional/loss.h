#pragma once
// torch::nn::functional's losses (namespace F = torch::nn::functional;) with their option builders,
// and LibTorch's reduction spellings torch::kNone, torch::kMean, torch::kSum:
//   F::mse_loss(pred, y, F::MSELossFuncOptions().reduction(torch::kSum))
//   F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().ignore_index(0).label_smoothing(0.1))
//   F::nll_loss, F::binary_cross_entropy, F::binary_cross_entropy_with_logits, F::smooth_l1_loss,
//   F::l1_loss, F::huber_loss, F::soft_margin_loss, F::margin_ranking_loss, F::hinge_embedding_loss,
//   F::cosine_embedding_loss, F::triplet_margin_loss, F::poisson_nll_loss
// The options are also those of the loss modules (tinytorch/nn/modules/loss.h): MSELossOptions, ...
#include <cstdint>
#include <iostream>
#include <utility>
#include <variant>
#include <vector>

#include "tinytorch/losses.h"
#include "tinytorch/losses_extra.h"
#include "tinytorch/nn/arg.h"
#include "tinytorch/shape_layout.h"
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

struct L1LossOptions {
  using reduction_t = enumtype::reduction_t;
  L1LossOptions() {}
  /* implicit */ L1LossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ L1LossOptions(enumtype::kMean) : reduction_(kMean) {}
  /* implicit */ L1LossOptions(enumtype::kSum) : reduction_(kSum) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct HuberLossOptions {
  using reduction_t = enumtype::reduction_t;
  HuberLossOptions() {}
  /* implicit */ HuberLossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ HuberLossOptions(enumtype::kMean) : reduction_(kMean) {}
  /* implicit */ HuberLossOptions(enumtype::kSum) : reduction_(kSum) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, delta) = 1.0;
};

struct SoftMarginLossOptions {
  using reduction_t = enumtype::reduction_t;
  SoftMarginLossOptions() {}
  /* implicit */ SoftMarginLossOptions(enumtype::kNone) : reduction_(kNone) {}
  /* implicit */ SoftMarginLossOptions(enumtype::kMean) : reduction_(kMean) {}
  /* implicit */ SoftMarginLossOptions(enumtype::kSum) : reduction_(kSum) {}
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct MarginRankingLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(double, margin) = 0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct HingeEmbeddingLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct CosineEmbeddingLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(double, margin) = 0.0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct TripletMarginLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(double, eps) = 1e-6;
  TORCH_ARG(bool, swap) = false;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

// log_input: the input is log(rate) (loss exp(input) - target * input); otherwise the rate itself
// (input - target * log(input + eps)). full adds Stirling's term.
struct PoissonNLLLossOptions {
  using reduction_t = enumtype::reduction_t;
  TORCH_ARG(bool, log_input) = true;
  TORCH_ARG(bool, full) = false;
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

namespace functional {

using KLDivFuncOptions = KLDivLossOptions;
using L1LossFuncOptions = L1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using SoftMarginLossFuncOptions = SoftMarginLossOptions;
using MarginRankingLossFuncOptions = MarginRankingLossOptions;
using HingeEmbeddingLossFuncOptions = HingeEmbeddingLossOptions;
using CosineEmbeddingLossFuncOptions = CosineEmbeddingLossOptions;
using TripletMarginLossFuncOptions = TripletMarginLossOptions;
using PoissonNLLLossFuncOptions = PoissonNLLLossOptions;
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
}  // namespace detail

inline Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {}) {
  detail::warn_if_sizes_differ(input, target, "mse_loss");
  return ::tinytorch::mse_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

// (N, C) or (N, C, d1, ..., dk) log-probabilities with (N) or (N, d1, ..., dk) class indices.
inline Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {}) {
  TT_CHECK(input.dim() >= 2, "Expected 2 or more dimensions (got ", input.dim(), ")");
  TT_CHECK(input.size(0) == target.size(0), "Expected input batch_size (", input.size(0),
           ") to match target batch_size (", target.size(0), ").");
  return ::tinytorch::nll_loss_nd(input, target, options.weight(), enumtype::reduction_get_enum(options.reduction()),
                                  options.ignore_index());
}

// Class indices ((N), or (N, d1, ..., dk) for (N, C, d1, ..., dk) logits) or, with the input's shape,
// class probabilities.
inline Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {}) {
  return ::tinytorch::cross_entropy_loss(input, target, options.weight(),
                                         enumtype::reduction_get_enum(options.reduction()), options.ignore_index(),
                                         options.label_smoothing());
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

inline Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {}) {
  return ::tinytorch::l1_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

// LibTorch warns, then broadcasts, when the sizes differ.
inline Tensor huber_loss(const Tensor& input, const Tensor& target, const HuberLossFuncOptions& options = {}) {
  if (target.sizes() != input.sizes()) {
    std::cerr << "Warning: Using a target size (" << target.sizes() << ") that is different to the input size ("
              << input.sizes() << "). This will likely lead to incorrect results due to broadcasting. "
              << "Please ensure they have the same size.\n";
  }
  const std::vector<Tensor> expanded = broadcast_tensors({input, target});
  return ::tinytorch::huber_loss(expanded[0], expanded[1], enumtype::reduction_get_enum(options.reduction()),
                                 options.delta());
}

inline Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                               const SoftMarginLossFuncOptions& options = {}) {
  return ::tinytorch::soft_margin_loss(input, target, enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                  const MarginRankingLossFuncOptions& options = {}) {
  TT_CHECK(input1.dim() == input2.dim() && input1.dim() == target.dim(),
           "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: ",
           input1.sizes(), ", input2: ", input2.sizes(), ", target: ", target.sizes());
  return ::tinytorch::margin_ranking_loss(input1, input2, target, options.margin(),
                                          enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                                   const HingeEmbeddingLossFuncOptions& options = {}) {
  return ::tinytorch::hinge_embedding_loss(input, target, options.margin(),
                                           enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                    const CosineEmbeddingLossFuncOptions& options = {}) {
  return ::tinytorch::cosine_embedding_loss(input1, input2, target, options.margin(),
                                            enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                                  const TripletMarginLossFuncOptions& options = {}) {
  return ::tinytorch::triplet_margin_loss(anchor, positive, negative, options.margin(), options.p(), options.eps(),
                                          options.swap(), enumtype::reduction_get_enum(options.reduction()));
}

inline Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                               const PoissonNLLLossFuncOptions& options = {}) {
  return ::tinytorch::poisson_nll_loss(input, target, options.log_input(), options.full(), options.eps(),
                                       enumtype::reduction_get_enum(options.reduction()));
}

}  // namespace functional
}  // namespace nn
}  // namespace tinytorch
