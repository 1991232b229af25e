#pragma once
// Module 16 (Compression): what torch.nn.utils.prune (tinytorch/nn/utils/prune.h) and
// torch::linalg::svd (tinytorch/linalg.h) are used for, as TinyTorch functions under
// torch::compression (LibTorch has no such namespace):
//
//   double s = torch::compression::sparsity(fc1->weight);                 // fraction of zeros
//   for (auto& layer : torch::compression::sparsity_report(*model)) ...    // per layer and in all
//   nn::Sequential low_rank = torch::compression::factorize_linear(fc1, 16);  // Linear(in, 16) -> Linear(16, out)
//   Tensor loss = torch::compression::distillation_loss(student(x), teacher(x), y, /*T=*/4.0, /*alpha=*/0.7);
#include <cstdint>
#include <string>
#include <vector>

#include "tinytorch/nn/module.h"
#include "tinytorch/nn/modules/container/sequential.h"
#include "tinytorch/nn/modules/linear.h"
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace compression {

// The fraction of t's elements that are exactly zero (0 for an empty tensor).
double sparsity(const Tensor& t);

// One weight of a model: the tensor forward() uses (NAME_orig * NAME_mask when pruned).
struct LayerSparsity {
  std::string name;  // "fc1.weight"
  int64_t zeros = 0;
  int64_t numel = 0;
  double sparsity() const { return numel == 0 ? 0.0 : static_cast<double>(zeros) / static_cast<double>(numel); }
};
// Every weight of the model with two or more dims (biases and norm scales are left out, as
// pruning usually leaves them), in named_parameters() order; a pruned NAME counts NAME_mask's zeros.
std::vector<LayerSparsity> sparsity_report(const nn::Module& model);
// All of them together: total zeros / total elements.
double global_sparsity(const nn::Module& model);

// Replaces y = x W^T + b (W: out x in) by two Linears through a rank-`rank` bottleneck, from the
// SVD W = U diag(S) Vh kept to its `rank` largest singular values: first Linear(in, rank, no bias)
// with weight Vh_k, then Linear(rank, out) with weight U_k diag(S_k) and the original bias.
// Parameters: rank (in + out) (+ out) instead of in out (+ out): smaller when rank < in out / (in + out).
// The error ||W - W_k||_F is sqrt(sum of the dropped S^2) (Eckart-Young: no rank-k matrix is closer).
nn::Sequential factorize_linear(const nn::Linear& linear, int64_t rank);

// Hinton's knowledge distillation loss for a batch of logits (N, C) and class labels (N):
//   alpha T^2 KL(softmax(teacher / T) || softmax(student / T)) + (1 - alpha) cross_entropy(student, target),
// KL with reduction batchmean (sum over classes, mean over the batch). T^2 keeps the soft term's
// gradient on the scale of the hard term's as T grows. The teacher gets no gradient.   [module 16: yours]
Tensor distillation_loss(const Tensor& student_logits, const Tensor& teacher_logits, const Tensor& target,
                         double temperature, double alpha);

}  // namespace compression
}  // namespace tinytorch
