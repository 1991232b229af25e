#pragma once
// The rest of ATen's losses and distances, as LibTorch declares them (reduction: at::Reduction):
//   torch::nll_loss2d(log_probs, target)      (N, C, H, W) log-probabilities, (N, H, W) class indices
//   torch::nll_loss_nd(log_probs, target)     any (N, C, d1, ..., dk) with (N, d1, ..., dk); F::nll_loss's path
//   torch::l1_loss, huber_loss, soft_margin_loss, margin_ranking_loss, hinge_embedding_loss,
//   cosine_embedding_loss, triplet_margin_loss, poisson_nll_loss, cosine_similarity, pairwise_distance
// Each is composed of differentiable tensor ops (src/04_losses/losses_extra.cpp), so autograd needs no
// declaration of its own. The F:: and nn:: spellings are in nn/functional/loss.h and nn/modules/loss.h.
#include <cstdint>

#include "tinytorch/losses.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                  int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight = {},
                   int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);

// |self - target|
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta): smooth_l1_loss times beta = delta.
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean, double delta = 1.0);
// log(1 + exp(-target * self)), targets +1 / -1: logistic loss of a two-class problem.
Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// max(0, -target * (input1 - input2) + margin): input1 should rank above input2 where target is 1.
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                           int64_t reduction = Reduction::Mean);
// self where target is 1, max(0, margin - self) where it is -1 (self: a distance).
Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                            int64_t reduction = Reduction::Mean);
// 1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1; rows of (N, D)
// inputs with an (N) target, or (D) inputs with a () target.
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                             int64_t reduction = Reduction::Mean);
// x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along dim, the inputs broadcast.
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-08);
// The p-norm of x1 - x2 + eps over the last dimension.
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2, double eps = 1e-06, bool keepdim = false);
// max(0, margin + d(anchor, positive) - d(anchor, negative)), d = pairwise_distance; swap also tries
// d(positive, negative) as the negative distance when it is smaller.
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin = 1.0,
                           double p = 2, double eps = 1e-06, bool swap = false, int64_t reduction = Reduction::Mean);
// Negative log-likelihood of a Poisson target: exp(input) - target * input with log_input, else
// input - target * log(input + eps); full adds Stirling's term for target > 1.
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction);

}  // namespace tinytorch
