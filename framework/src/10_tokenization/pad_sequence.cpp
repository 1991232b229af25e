// Given code for module 10: torch::nn::utils::rnn::pad_sequence (tinytorch/nn/utils/rnn.h). Each
// shorter sequence is extended with a block of padding_value by cat, then all are stacked along the
// batch dimension: both ops have their gradients, so the padded batch is differentiable.
#include "tinytorch/nn/utils/rnn.h"

#include <algorithm>
#include <vector>

#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"

namespace tinytorch {
namespace nn {
namespace utils {
namespace rnn {

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first, double padding_value) {
  TT_CHECK(!sequences.empty(), "received an empty list of sequences");
  int64_t longest = 0;
  for (const Tensor& sequence : sequences) {
    TT_CHECK(sequence.dim() >= 1, "pad_sequence: every sequence needs a length dimension (L, *), but one is a ",
             "0-dim tensor. Fix: make single values sequences of length 1 (reshape({1}))");
    longest = std::max(longest, sequence.size(0));
  }
  const ScalarType dtype = sequences[0].scalar_type();
  std::vector<Tensor> padded;
  padded.reserve(sequences.size());
  for (const Tensor& sequence : sequences) {
    const Tensor same_dtype = sequence.scalar_type() == dtype ? sequence : sequence.to(dtype);
    if (sequence.size(0) == longest) {
      padded.push_back(same_dtype);
      continue;
    }
    std::vector<int64_t> fill_sizes = sequence.sizes().vec();
    fill_sizes[0] = longest - sequence.size(0);
    padded.push_back(cat({same_dtype, full(fill_sizes, padding_value, TensorOptions().dtype(dtype))}, 0));
  }
  return stack(padded, batch_first ? 0 : 1);
}

}  // namespace rnn
}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
