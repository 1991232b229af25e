// Module 11 (Embeddings), lesson sections "5. Sinusoidal positions" and "6. Learned positions".
// The given code (embedding.cpp) builds the layers, registers their tables and checks what forward
// receives (check_positional_input: the input's last size, start_pos and the table's length).
#include <cmath>

#include "tinytorch/embedding_kernels.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/modules/positional_encoding.h"

namespace tinytorch {
namespace native {

// TODO: sinusoidal_table -- Vaswani et al.'s table, (max_len, dim) in float (section 5):
//   table[pos][2i] = sin(pos / 10000^(2i / dim)) and table[pos][2i + 1] = cos(pos / 10000^(2i / dim)),
//   the pair (2i, 2i + 1) sharing one frequency; an odd dim ends with a sine column. Work in double
//   and store float. Row 0 is [0, 1, 0, 1, ...]; the first pair turns fastest (one radian per position).
Tensor sinusoidal_table(int64_t max_len, int64_t dim) {
  Tensor table = empty({max_len, dim}, kFloat);
  // BEGIN SOLUTION name="tinytorch::native::sinusoidal_table" lesson="5. Sinusoidal positions"
  float* out = table.data_ptr<float>();
  for (int64_t pos = 0; pos < max_len; ++pos) {
    for (int64_t i = 0; 2 * i < dim; ++i) {
      const double angle = static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(2 * i) / dim);
      out[pos * dim + 2 * i] = static_cast<float>(std::sin(angle));
      if (2 * i + 1 < dim) out[pos * dim + 2 * i + 1] = static_cast<float>(std::cos(angle));
    }
  }
  // END SOLUTION
  return table;
}

}  // namespace native

namespace nn {

// TODO: SinusoidalPositionalEncodingImpl::forward -- input (..., T, d) (T = input.size(-2)) plus the table's rows
//   start_pos, ..., start_pos + T - 1 (section 5): a (T, d) slice that broadcasts over the leading
//   dims. Slice with table.narrow (a view; no copy), so generation at position t reads row t.
Tensor SinusoidalPositionalEncodingImpl::forward(const Tensor& input, int64_t start_pos) {
  native::check_positional_input(input, start_pos, options.max_len(), options.embedding_dim(),
                                 "SinusoidalPositionalEncoding");
  // BEGIN SOLUTION name="tinytorch::nn::SinusoidalPositionalEncodingImpl::forward" lesson="5. Sinusoidal positions"
  const int64_t length = input.size(-2);  // T, the positions along dim -2
  return input + table.narrow(0, start_pos, length);
  // END SOLUTION
}

// TODO: LearnedPositionalEmbeddingImpl::forward -- input (..., T, d) plus the learned vectors of
//   positions start_pos, ..., start_pos + T - 1 (section 6): look them up with `embedding`, an
//   nn::Embedding whose "tokens" are positions (torch::arange makes the Long positions), so that
//   the gradient reaches exactly the rows used.
Tensor LearnedPositionalEmbeddingImpl::forward(const Tensor& input, int64_t start_pos) {
  native::check_positional_input(input, start_pos, options.max_len(), options.embedding_dim(),
                                 "LearnedPositionalEmbedding");
  // BEGIN SOLUTION name="tinytorch::nn::LearnedPositionalEmbeddingImpl::forward" lesson="6. Learned positions"
  const int64_t length = input.size(-2);
  const Tensor positions = arange(start_pos, start_pos + length, kLong);
  return input + embedding(positions);
  // END SOLUTION
}

}  // namespace nn
}  // namespace tinytorch
