#pragma once
// The declarations of the functions a learner writes in module 11 (Embeddings): the lookup and its
// gradient (embedding_loops.cpp), and the sinusoidal position table (positional_encoding.cpp, which
// also holds the two positional layers' forward). Learner files include this header; public users
// call torch::embedding, nn::Embedding, nn::SinusoidalPositionalEncoding, ... instead.
#include <cstdint>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace native {

// out (n, d) = weight[indices[i]] for i < n: row i of out is a copy of row indices[i] of weight.
// weight (V, d) contiguous, of a floating dtype; indices (n) contiguous kLong, every entry already
// checked to lie in [0, V).   [module 11: yours]
Tensor embedding_lookup(const Tensor& weight, const Tensor& indices);

// The gradient of that lookup: grad_weight (num_weights, d), zero except that row indices[i] receives
// grad_output row i, added (an index picked twice gets both rows), and nothing goes to padding_idx
// (-1 or any value not in [0, num_weights): none). grad_output (n, d) contiguous.   [module 11: yours]
Tensor embedding_backward_scatter(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                  int64_t padding_idx);

// The sinusoidal position table of Vaswani et al. (2017), (max_len, dim) in float:
//   table[pos][2i] = sin(pos / 10000^(2i / dim)),  table[pos][2i + 1] = cos(pos / 10000^(2i / dim)).
// An odd dim ends with a sine column.   [module 11: yours]
Tensor sinusoidal_table(int64_t max_len, int64_t dim);

// Given: checks what a positional layer's forward receives (input (..., T, dim) with T >= 1,
// 0 <= start_pos, start_pos + T <= max_len), with errors naming `layer`.
void check_positional_input(const Tensor& input, int64_t start_pos, int64_t max_len, int64_t dim,
                               const char* layer);

}  // namespace native
}  // namespace tinytorch
