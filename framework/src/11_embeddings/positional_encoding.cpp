// Module 11 (Embeddings), lesson sections "5. Sinusoidal positions" and "6. Learned positions".
// The given code (embedding.cpp) builds the layers, registers their tables and checks what forward
// receives (check_positional_input: the input's last size, start_pos and the table's length).
#include <cmath>

#include "tinytorch/embedding_kernels.h"
#include "tinytorch/factories.h"
#include "tinytorch/nn/modules/positional_encoding.h"

namespace tinytorch {
namespace native {

// TODO: sinusoidal_table(max_len, dim) -> Vaswani et al.'s table as section 5 defines it, a
//   (max_len, dim) kFloat tensor: row pos encodes position pos, each pair of columns (sine, cosine)
//   sharing one frequency; an odd dim ends with a sine column. Accurate to float rounding (work in
//   double). Row 0 is [0, 1, 0, 1, ...]; the first pair turns fastest (one radian per position).
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

// TODO: SinusoidalPositionalEncodingImpl::forward(input (..., T, d), start_pos) -> input plus the
//   encodings of positions start_pos, ..., start_pos + T - 1, row t getting position start_pos + t,
//   broadcast over the leading dims (section 5). Copies no part of the table. The given check has
//   already rejected a start_pos + T beyond max_len.
Tensor SinusoidalPositionalEncodingImpl::forward(const Tensor& input, int64_t start_pos) {
  native::check_positional_input(input, start_pos, options.max_len(), options.embedding_dim(),
                                 "SinusoidalPositionalEncoding");
  // BEGIN SOLUTION name="tinytorch::nn::SinusoidalPositionalEncodingImpl::forward" lesson="5. Sinusoidal positions"
  const int64_t length = input.size(-2);  // T, the positions along dim -2
  return input + table.narrow(0, start_pos, length);
  // END SOLUTION
}

// TODO: LearnedPositionalEmbeddingImpl::forward(input (..., T, d), start_pos) -> input plus the
//   learned vectors of positions start_pos, ..., start_pos + T - 1 from the member `embedding` (an
//   nn::Embedding whose "tokens" are positions), broadcast over the leading dims (section 6). The
//   result stays in the graph: the gradient reaches the input and exactly the table rows used.
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
