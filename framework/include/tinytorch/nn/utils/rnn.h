#pragma once
// LibTorch's torch::nn::utils::rnn (1.13): variable-length sequences as one padded tensor
// (pad_sequence), and as one packed tensor for the recurrent layers (PackedSequence,
// pack_padded_sequence, pad_packed_sequence, pack_sequence).
//
// pad_sequence: e.g. the token ids of encoded texts as a batch (module 10; torch::text::to_tensor
// does the same from std::vector<int64_t> ids).
//
//   std::vector<torch::Tensor> ids = {torch::tensor({5, 6, 7}), torch::tensor({8})};
//   auto batch = torch::nn::utils::rnn::pad_sequence(ids, /*batch_first=*/true, /*padding_value=*/0);
//   // [[5, 6, 7], [8, 0, 0]]: (B, T); batch_first=false (the default) gives (T, B)
//
// Each sequence is (L, *), L its length and * the same trailing sizes for all; the result takes the
// first sequence's dtype. Built from cat and stack, so gradients flow back to the sequences.
#include <cstdint>
#include <optional>
#include <tuple>

#include "tinytorch/tensor.h"
#include "tinytorch/tensor_options.h"

namespace tinytorch {
namespace nn {
namespace utils {
namespace rnn {

Tensor pad_sequence(ArrayRef<Tensor> sequences, bool batch_first = false, double padding_value = 0);

// ---- Packed sequences (src/10_tokenization/pack_sequence.cpp) ----
//
// A packed batch stores the sequences time step by time step, each step holding only the sequences
// still running, longest first. For "abc" and "x": data = [a, x, b, c], batch_sizes = [2, 1, 1].
// A recurrent layer then runs step t on the first batch_sizes[t] rows of its state, never on padding.
//
//   Tensor padded = ...;                                   // (T, B, *), lengths (B) in any order
//   auto packed = pack_padded_sequence(padded, lengths, /*batch_first=*/false, /*enforce_sorted=*/false);
//   auto [output, h_n] = gru->forward_with_packed_input(packed);
//   auto [unpacked, lengths_again] = pad_packed_sequence(output);   // (T, B, *), original order
//
// sorted_indices (kLong) is the order by decreasing length the batch was packed in (undefined when
// the caller's batch was already sorted), unsorted_indices its inverse. batch_sizes is a kLong
// tensor. Packing and padding are built from narrow, cat and index_select, so gradients flow
// through them.

// The inverse of a permutation: output[permutation[i]] = i. Undefined for an undefined input.
Tensor invert_permutation(const Tensor& permutation);

class PackedSequence {
 public:
  explicit PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices = {}, Tensor unsorted_indices = {});

  const Tensor& data() const { return data_; }
  const Tensor& batch_sizes() const { return batch_sizes_; }
  const Tensor& sorted_indices() const { return sorted_indices_; }
  const Tensor& unsorted_indices() const { return unsorted_indices_; }

  // data converted (dtype and/or device); *this when data already has them. batch_sizes stays.
  PackedSequence to(TensorOptions options) const;
  PackedSequence cuda() const;
  PackedSequence cpu() const;
  bool is_cuda() const { return data_.is_cuda(); }

 private:
  Tensor data_;
  Tensor batch_sizes_;
  Tensor sorted_indices_;
  Tensor unsorted_indices_;
};

// input (T, B, *) (or (B, T, *) with batch_first), lengths (B) of kLong or any number type.
// enforce_sorted=true requires lengths in decreasing order; false sorts the batch first and records
// the permutation in sorted_indices.
PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first = false,
                                    bool enforce_sorted = true);

// The inverse: (padded (T, B, *) or (B, T, *), lengths (B) kLong), in the order the batch had before
// packing. total_length pads to that many steps (at least the longest sequence).
std::tuple<Tensor, Tensor> pad_packed_sequence(PackedSequence sequence, bool batch_first = false,
                                               double padding_value = 0.0,
                                               std::optional<int64_t> total_length = std::nullopt);

// Packs sequences (L, *) of decreasing length (any order with enforce_sorted=false).
PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted = true);

}  // namespace rnn
}  // namespace utils
}  // namespace nn

// ATen's kernels behind pack_padded_sequence and pad_packed_sequence (at::_pack_padded_sequence,
// at::_pad_packed_sequence): lengths sorted in decreasing order, kLong on the CPU.
// Returns (data (sum(lengths), *), batch_sizes (T) kLong).
std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input, const Tensor& lengths, bool batch_first);
// Returns (padded (total_length, B, *) or (B, total_length, *), lengths (B) kLong).
std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data, const Tensor& batch_sizes, bool batch_first,
                                                const Scalar& padding_value, int64_t total_length);

}  // namespace tinytorch
