// Given code: LibTorch's packed sequences (tinytorch/nn/utils/rnn.h), what lets a recurrent layer
// skip the padding of a batch of sequences of different lengths.
//
// Packing reads the padded (T, B, *) batch one time step at a time and keeps, of step t, only the
// batch_sizes[t] sequences still running; the batch is sorted longest first, so those are always
// the first rows. Both directions are narrow + cat (padding adds blocks of padding_value), so the
// gradient of the packed data flows back into the padded input and the other way round.
#include <algorithm>
#include <vector>

#include "tinytorch/data/tensor_ops.h"
#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/nn/utils/rnn.h"

namespace tinytorch {

namespace {
std::vector<int64_t> to_int64_vector(const Tensor& values) {
  const Tensor as_long = values.to(kLong).contiguous();
  const int64_t* begin = as_long.data_ptr<int64_t>();
  return std::vector<int64_t>(begin, begin + as_long.numel());
}
}  // namespace

std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input_, const Tensor& lengths, bool batch_first) {
  const Tensor input = batch_first ? input_.transpose(0, 1) : input_;  // (T, B, *)
  TT_CHECK(input.numel() > 0, "Cannot pack empty tensors.");
  TT_CHECK(lengths.is_cpu() && lengths.dim() == 1, "'lengths' argument should be a 1D CPU int64 tensor, but got ",
           lengths.dim(), "D cpu ", lengths.scalar_type(), " tensor");
  const int64_t batch_size = input.size(1);
  const int64_t max_steps = input.size(0);
  const std::vector<int64_t> length_of = to_int64_vector(lengths);
  TT_CHECK(static_cast<int64_t>(length_of.size()) == batch_size,
           "Expected `len(lengths)` to be equal to batch_size, but got ", length_of.size(),
           " (batch_size=", batch_size, ")");
  TT_CHECK(length_of[batch_size - 1] > 0,
           "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
  for (int64_t i = 0; i + 1 < batch_size; ++i) {
    TT_CHECK(length_of[i] >= length_of[i + 1],
             "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
             "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement "
             "if you do not need ONNX exportability.");
  }
  // LibTorch 1.13 reads past the input here; a length beyond the padded steps is refused instead.
  TT_CHECK(length_of[0] <= max_steps, "pack_padded_sequence: a sequence of length ", length_of[0],
           " does not fit in an input of ", max_steps, " time steps");

  // Step t keeps the sequences longer than t: the first batch_sizes[t] rows, as the batch is sorted.
  std::vector<Tensor> steps;
  std::vector<int64_t> batch_sizes;
  for (int64_t t = 0; t < length_of[0]; ++t) {
    const int64_t running = std::count_if(length_of.begin(), length_of.end(), [t](int64_t l) { return l > t; });
    batch_sizes.push_back(running);
    steps.push_back(input.select(0, t).narrow(0, 0, running));
  }
  return std::make_tuple(cat(steps, 0), tensor(batch_sizes));
}

std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data, const Tensor& batch_sizes_tensor,
                                                bool batch_first, const Scalar& padding_value,
                                                int64_t total_length) {
  const std::vector<int64_t> batch_sizes = to_int64_vector(batch_sizes_tensor);
  TT_CHECK(!batch_sizes.empty(), "pad_packed_sequence: the packed sequence has no time steps");
  const int64_t max_batch_size = batch_sizes[0];
  const int64_t real_steps = static_cast<int64_t>(batch_sizes.size());
  int64_t steps = real_steps;
  if (total_length > 0) {
    TT_CHECK(total_length >= real_steps,
             "Expected total_length to be at least the length of the longest sequence in input, but got "
             "total_length=",
             total_length, " and max sequence length being ", real_steps);
    steps = total_length;
  }
  std::vector<int64_t> row_sizes = data.sizes().vec();  // (B, *) of one time step
  row_sizes[0] = max_batch_size;
  auto padding = [&](int64_t rows) {
    std::vector<int64_t> sizes = row_sizes;
    sizes[0] = rows;
    return full(sizes, padding_value, data.options());
  };

  std::vector<Tensor> padded_steps;
  std::vector<int64_t> lengths(max_batch_size, 0);
  int64_t offset = 0;
  for (int64_t t = 0; t < real_steps; ++t) {
    const int64_t running = batch_sizes[t];
    const Tensor rows = data.narrow(0, offset, running);
    padded_steps.push_back(running == max_batch_size ? rows : cat({rows, padding(max_batch_size - running)}, 0));
    for (int64_t b = 0; b < running; ++b) lengths[b] = t + 1;
    offset += running;
  }
  for (int64_t t = real_steps; t < steps; ++t) padded_steps.push_back(padding(max_batch_size));
  Tensor output = stack(padded_steps, 0);  // (T, B, *)
  if (batch_first) output = output.transpose(0, 1);
  return std::make_tuple(output, tensor(lengths));
}

namespace nn {
namespace utils {
namespace rnn {

Tensor invert_permutation(const Tensor& permutation) {
  if (!permutation.defined()) return Tensor();
  Tensor output = empty_like(permutation);
  output.scatter_(0, permutation, arange(0, permutation.numel(), TensorOptions().dtype(kLong).device(permutation.device())));
  return output;
}

PackedSequence::PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices, Tensor unsorted_indices) {
  // unsorted_indices, when given, is the inverse of sorted_indices; only this library builds both.
  if (!unsorted_indices.defined()) unsorted_indices = invert_permutation(sorted_indices);
  TT_CHECK(batch_sizes.device().type() == kCPU,
           "batch_sizes should always be on CPU. Instances of PackedSequence should never be created manually. "
           "They should be instantiated by functions like pack_sequence and pack_padded_sequences in "
           "nn::utils::rnn. https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence");
  data_ = std::move(data);
  batch_sizes_ = std::move(batch_sizes);
  sorted_indices_ = std::move(sorted_indices);
  unsorted_indices_ = std::move(unsorted_indices);
}

PackedSequence PackedSequence::to(TensorOptions options) const {
  Tensor data = data_.to(options);
  if (data.is_same(data_)) return *this;
  // The indices move with the data but keep their dtype; batch_sizes stays on the CPU.
  const TensorOptions index_options = TensorOptions().dtype(kLong).device(data.device());
  Tensor sorted_indices = sorted_indices_.defined() ? sorted_indices_.to(index_options) : Tensor();
  Tensor unsorted_indices = unsorted_indices_.defined() ? unsorted_indices_.to(index_options) : Tensor();
  return PackedSequence(data, batch_sizes_, sorted_indices, unsorted_indices);
}

PackedSequence PackedSequence::cuda() const { return to(TensorOptions().device(kCUDA)); }

PackedSequence PackedSequence::cpu() const { return to(TensorOptions().device(kCPU)); }

PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first, bool enforce_sorted) {
  lengths = lengths.to(kLong);
  Tensor sorted_indices;
  if (!enforce_sorted) {
    std::tie(lengths, sorted_indices) = sort(lengths, /*dim=*/-1, /*descending=*/true);
    input = input.index_select(batch_first ? 0 : 1, sorted_indices);
  }
  auto [data, batch_sizes] = _pack_padded_sequence(input, lengths, batch_first);
  return PackedSequence(data, batch_sizes, sorted_indices, {});
}

std::tuple<Tensor, Tensor> pad_packed_sequence(PackedSequence sequence, bool batch_first, double padding_value,
                                               std::optional<int64_t> total_length) {
  int64_t max_seq_length = sequence.batch_sizes().size(0);
  if (total_length.has_value()) {
    TT_CHECK(*total_length >= max_seq_length,
             "Expected total_length to be at least the length of the longest sequence in input, but got "
             "total_length=",
             *total_length, " and max sequence length being ", max_seq_length);
    max_seq_length = *total_length;
  }
  auto [padded, lengths] =
      _pad_packed_sequence(sequence.data(), sequence.batch_sizes(), batch_first, padding_value, max_seq_length);
  const Tensor& unsorted_indices = sequence.unsorted_indices();
  if (!unsorted_indices.defined()) return std::make_tuple(padded, lengths);
  // Back to the order the caller's batch had before pack_padded_sequence sorted it.
  return std::make_tuple(padded.index_select(batch_first ? 0 : 1, unsorted_indices),
                         lengths.index_select(0, unsorted_indices));
}

PackedSequence pack_sequence(ArrayRef<Tensor> sequences, bool enforce_sorted) {
  std::vector<int64_t> lengths;
  lengths.reserve(sequences.size());
  for (const Tensor& sequence : sequences) lengths.push_back(sequence.dim() > 0 ? sequence.size(0) : 0);
  return pack_padded_sequence(pad_sequence(sequences), tensor(lengths), /*batch_first=*/false, enforce_sorted);
}

}  // namespace rnn
}  // namespace utils
}  // namespace nn
}  // namespace tinytorch
