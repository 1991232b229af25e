#pragma once
// LibTorch's torch::nn::utils::rnn::pad_sequence (1.13): variable-length sequences as one padded
// tensor, e.g. the token ids of encoded texts as a batch (module 10; torch::text::to_tensor does the
// same from std::vector<int64_t> ids).
//
//   std::vector<torch::Tensor> ids = {torch::tensor({5, 6, 7}), torch::tensor({8})};
//   auto batch = torch::nn::utils::rnn::pad_sequence(ids, /*batch_first=*/true, /*padding_value=*/0);
//   // [[5, 6, 7], [8, 0, 0]]: (B, T); batch_first=false (the default) gives (T, B)
//
// Each sequence is (L, *), L its length and * the same trailing sizes for all; the result takes the
// first sequence's dtype. Built from cat and stack, so gradients flow back to the sequences.
#include "tinytorch/tensor.h"

namespace tinytorch {
namespace nn {
namespace utils {
namespace rnn {

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first = false, double padding_value = 0);

}  // namespace rnn
}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
