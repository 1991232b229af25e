#pragma once
// Shape and layout ops as torch:: functions (LibTorch's spellings), the Tensor methods being
// declared in tensor.h's SHAPE LAYOUT region; src/01_tensor/shape_layout.cpp defines both, and
// src/01_tensor/indexing.cpp the advanced indexing (index / index_put_ with several tensors).
//
// Memory formats: TinyTorch keeps every tensor row-major. MemoryFormat::Contiguous and Preserve are
// accepted everywhere LibTorch takes a format; ChannelsLast and ChannelsLast3d are refused with an
// error saying so (contiguous(), clone(), empty()), and is_contiguous(ChannelsLast) answers honestly
// from the strides (a row-major tensor is not channels-last unless its channel dim has size 1).
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tinytorch/memory_format.h"
#include "tinytorch/tensor.h"
#include "tinytorch/tensor_options.h"

namespace tinytorch {

// LibTorch's c10::List<T> as far as index lists need it: a vector you can build from a braced list
// or with push_back, accepted where LibTorch takes c10::List<c10::optional<Tensor>>.
template <typename T>
class List : public std::vector<T> {
 public:
  using std::vector<T>::vector;
  List() = default;
  List(std::initializer_list<T> values) : std::vector<T>(values) {}
  List(const std::vector<T>& values) : std::vector<T>(values) {}  // NOLINT: implicit, as c10::List's
  T get(size_t index) const { return this->at(index); }
  void set(size_t index, T value) { this->at(index) = std::move(value); }
  std::vector<T> vec() const { return *this; }
};

// ---- Flips, rolls, moving dims ----
inline Tensor flip(const Tensor& self, IntArrayRef dims) { return self.flip(dims); }
inline Tensor fliplr(const Tensor& self) { return self.fliplr(); }
inline Tensor flipud(const Tensor& self) { return self.flipud(); }
inline Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {}) { return self.roll(shifts, dims); }
inline Tensor rot90(const Tensor& self, int64_t k = 1, IntArrayRef dims = {0, 1}) { return self.rot90(k, dims); }
inline Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return self.movedim(source, destination);
}
inline Tensor movedim(const Tensor& self, int64_t source, int64_t destination) {
  return self.movedim(source, destination);
}
inline Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination) {
  return self.moveaxis(source, destination);
}
inline Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination) {
  return self.moveaxis(source, destination);
}
inline Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) { return self.swapaxes(axis0, axis1); }
inline Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) { return self.swapdims(dim0, dim1); }
inline Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  return self.unfold(dimension, size, step);
}
inline Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                         std::optional<int64_t> storage_offset = std::nullopt) {
  return self.as_strided(size, stride, storage_offset);
}
inline Tensor broadcast_to(const Tensor& self, IntArrayRef size) { return self.broadcast_to(size); }
// Every tensor expanded to the shape they broadcast to together (views).
std::vector<Tensor> broadcast_tensors(TensorList tensors);
inline Tensor ravel(const Tensor& self) { return self.ravel(); }

// ---- Triangles and diagonals ----
inline Tensor tril(const Tensor& self, int64_t diagonal = 0) { return self.tril(diagonal); }
inline Tensor triu(const Tensor& self, int64_t diagonal = 0) { return self.triu(diagonal); }
inline Tensor diag(const Tensor& self, int64_t diagonal = 0) { return self.diag(diagonal); }
inline Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) {
  return self.diagonal(offset, dim1, dim2);
}
inline Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) {
  return self.diag_embed(offset, dim1, dim2);
}
inline Tensor diagflat(const Tensor& self, int64_t offset = 0) { return self.diagflat(offset); }

// ---- Repeating, splitting, stacking ----
inline Tensor tile(const Tensor& self, IntArrayRef dims) { return self.tile(dims); }
inline Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                                std::optional<int64_t> output_size = std::nullopt) {
  return self.repeat_interleave(repeats, dim, output_size);
}
inline Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                                std::optional<int64_t> output_size = std::nullopt) {
  return self.repeat_interleave(repeats, dim, output_size);
}
// repeats (1-D Long) -> each position i repeated repeats[i] times: {1, 2} -> {0, 1, 1}.
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size = std::nullopt);
inline std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0) {
  return self.tensor_split(sections, dim);
}
inline std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim = 0) {
  return self.tensor_split(indices, dim);
}
inline std::vector<Tensor> tensor_split(const Tensor& self, const Tensor& tensor_indices_or_sections,
                                        int64_t dim = 0) {
  return self.tensor_split(tensor_indices_or_sections, dim);
}
inline std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) { return self.hsplit(sections); }
inline std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices) { return self.hsplit(indices); }
inline std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) { return self.vsplit(sections); }
inline std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices) { return self.vsplit(indices); }
inline std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) { return self.dsplit(sections); }
inline std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices) { return self.dsplit(indices); }
Tensor atleast_1d(const Tensor& self);
Tensor atleast_2d(const Tensor& self);
Tensor atleast_3d(const Tensor& self);
std::vector<Tensor> atleast_1d(TensorList tensors);
std::vector<Tensor> atleast_2d(TensorList tensors);
std::vector<Tensor> atleast_3d(TensorList tensors);
Tensor hstack(TensorList tensors);
Tensor vstack(TensorList tensors);
Tensor row_stack(TensorList tensors);
Tensor dstack(TensorList tensors);
Tensor column_stack(TensorList tensors);
// Coordinate grids: indexing "ij" (matrix, the default) or "xy" (Cartesian: the first two swap roles).
std::vector<Tensor> meshgrid(TensorList tensors);
std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing);

// ---- Reading and writing at positions ----
inline Tensor take(const Tensor& self, const Tensor& index) { return self.take(index); }
inline Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim = std::nullopt) {
  return self.take_along_dim(indices, dim);
}
inline Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false) {
  return self.put(index, source, accumulate);
}
inline Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return self.index_fill(dim, index, value);
}
inline Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  return self.index_fill(dim, index, value);
}
inline Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  return self.index_copy(dim, index, source);
}
inline Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  return self.masked_scatter(mask, source);
}
inline Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  return self.select_scatter(src, dim, index);
}
inline Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim = 0,
                            std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt,
                            int64_t step = 1) {
  return self.slice_scatter(src, dim, start, end, step);
}
inline Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset = 0, int64_t dim1 = 0,
                               int64_t dim2 = 1) {
  return self.diagonal_scatter(src, offset, dim1, dim2);
}
// Advanced indexing (src/01_tensor/indexing.cpp): one optional index tensor per leading dim.
inline Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  return self.index(indices);
}
inline Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                        bool accumulate = false) {
  return self.index_put(indices, values, accumulate);
}
inline Tensor& index_put_(Tensor& self, const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                          bool accumulate = false) {
  return self.index_put_(indices, values, accumulate);
}
inline Tensor sum_to_size(const Tensor& self, IntArrayRef size) { return self.sum_to_size(size); }

// ---- Padding ----
// pad holds (before, after) pairs starting from the last dim; negative pads crop. Gradient:
// ConstantPadNdBackward0.
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
// mode "constant", "reflect", "replicate" or "circular": F::pad (nn/functional/padding.h) by name.
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

// ---- Memory formats ----
inline Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  return self.clone(memory_format);
}
Tensor empty(IntArrayRef size, TensorOptions options, std::optional<MemoryFormat> memory_format);

}  // namespace tinytorch

namespace c10 {
template <typename T>
using List = ::tinytorch::List<T>;
using MemoryFormat = ::tinytorch::MemoryFormat;
}  // namespace c10
#include "tinytorch/nn/functional/padding.h"  // F::pad, next to torch::constant_pad_nd
