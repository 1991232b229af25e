#pragma once
// Module 11 (Embeddings): torch::embedding and torch::embedding_renorm_, as ATen declares them.
//
//   Tensor out = torch::embedding(weight, indices);   // weight (V, d), indices (*) Long -> out (*, d)
//
// out[i...] = weight[indices[i...]]: a lookup (a gather of rows), zero FLOPs; it moves d elements per
// index. Its gradient (EmbeddingBackward0) adds each output row's gradient into the row it was read
// from: a dense (V, d) tensor, V d 4 bytes in float however few rows were used, with nothing added to
// padding_idx's row. scale_grad_by_freq divides row k's gradient by how often k occurs in indices.
// LibTorch's sparse gradients need sparse tensors, which TinyTorch does not have: sparse=true is refused.
#include <cstdint>

#include "tinytorch/tensor.h"

namespace tinytorch {

// padding_idx: a row whose gradient stays zero (-1: none; here, unlike nn::Embedding, it is not
// wrapped, so -1 always means none).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                 bool scale_grad_by_freq = false, bool sparse = false);

// The gradient of embedding with respect to weight, (num_weights, d), for grad (*indices.shape, d).
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq);

// Rescales, in place, every row of self (V, d) that indices picks and whose norm_type-norm exceeds
// max_norm to norm max_norm (scale max_norm / (norm + 1e-7)). What Embedding's max_norm does before
// each lookup; call it under torch::NoGradGuard when self requires grad, as F::embedding does.
Tensor& embedding_renorm_(Tensor& self, const Tensor& indices, double max_norm, double norm_type);

}  // namespace tinytorch
