// LibTorch frontend operations composed of the module-01 primitives, so they work in every build and
// get gradients from module 06 through the ops they are made of: splits (views made by narrow and
// select), unflatten, vector norms and torch::dropout.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/tensor.h"

namespace tinytorch {

namespace {
int64_t wrap_dim(int64_t dim, int64_t rank, const char* op) {
  const int64_t extent = std::max<int64_t>(rank, 1);
  TT_CHECK(dim >= -extent && dim < extent, "Dimension out of range (expected to be in range of [", -extent, ", ",
           extent - 1, "], but got ", dim, ") in ", op, "()");
  return dim < 0 ? dim + extent : dim;
}
}  // namespace

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  TT_CHECK(this->dim() > 0, "split expects at least a 1-dimensional tensor");
  TT_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  dim = wrap_dim(dim, this->dim(), "split");
  const int64_t length = size(dim);
  TT_CHECK(split_size > 0 || length == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
           length);
  std::vector<Tensor> pieces;
  if (length == 0) return {*this};
  for (int64_t start = 0; start < length; start += split_size)
    pieces.push_back(narrow(dim, start, std::min(split_size, length - start)));
  return pieces;
}

std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef split_sizes, int64_t dim) const {
  TT_CHECK(this->dim() > 0, "split expects at least a 1-dimensional tensor");
  dim = wrap_dim(dim, this->dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t piece : split_sizes) {
    TT_CHECK(piece >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
             split_sizes);
    total += piece;
  }
  TT_CHECK(total == size(dim), "split_with_sizes expects split_sizes to sum exactly to ", size(dim),
           " (input tensor's size at dimension ", dim, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> pieces;
  int64_t start = 0;
  for (int64_t piece : split_sizes) {
    pieces.push_back(narrow(dim, start, piece));
    start += piece;
  }
  return pieces;
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  TT_CHECK(this->dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TT_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  dim = wrap_dim(dim, this->dim(), "chunk");
  const int64_t length = size(dim);
  // LibTorch: pieces of ceil(length / chunks), so there may be fewer than `chunks` pieces.
  const int64_t split_size = (length + chunks - 1) / chunks;
  if (split_size == 0 && length == 0) {
    std::vector<int64_t> sizes(static_cast<size_t>(chunks), 0);
    return split_with_sizes(sizes, dim);
  }
  return split(split_size, dim);
}

std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  TT_CHECK(this->dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  dim = wrap_dim(dim, this->dim(), "unbind");
  std::vector<Tensor> slices;
  for (int64_t i = 0; i < size(dim); ++i) slices.push_back(select(dim, i));
  return slices;
}

Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  dim = wrap_dim(dim, this->dim(), "unflatten");
  TT_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      TT_CHECK(inferred < 0, "only one dimension can be inferred");
      inferred = static_cast<int64_t>(i);
    } else {
      known *= sizes[i];
    }
  }
  std::vector<int64_t> unflattened(sizes.begin(), sizes.end());
  if (inferred >= 0 && known != 0) unflattened[static_cast<size_t>(inferred)] = size(dim) / known;
  int64_t product = 1;
  for (int64_t s : unflattened) product *= s;
  TT_CHECK(product == size(dim), "unflatten: Provided sizes ", sizes, " don't multiply up to the size of dim ", dim,
           " (", size(dim), ") in the input tensor");
  std::vector<int64_t> shape(this->sizes().begin(), this->sizes().begin() + dim);
  shape.insert(shape.end(), unflattened.begin(), unflattened.end());
  shape.insert(shape.end(), this->sizes().begin() + dim + 1, this->sizes().end());
  return view(shape);
}

namespace {
// The dims a norm reduces: all of them when none are given.
std::vector<int64_t> norm_dims(const Tensor& self, IntArrayRef dim) {
  if (!dim.empty()) return std::vector<int64_t>(dim.begin(), dim.end());
  std::vector<int64_t> all(static_cast<size_t>(self.dim()));
  for (int64_t d = 0; d < self.dim(); ++d) all[static_cast<size_t>(d)] = d;
  return all;
}

// max or min of |x| over several dims: the reduced dims are moved last, flattened, then reduced once.
Tensor extreme_abs(const Tensor& magnitude, const std::vector<int64_t>& dims, bool keepdim, bool largest) {
  if (magnitude.dim() == 0) return magnitude.clone();
  std::vector<bool> reduced(static_cast<size_t>(magnitude.dim()), false);
  for (int64_t d : dims) reduced[static_cast<size_t>(wrap_dim(d, magnitude.dim(), "norm"))] = true;
  std::vector<int64_t> order, kept_sizes, keepdim_sizes;
  for (int64_t d = 0; d < magnitude.dim(); ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      order.push_back(d);
      kept_sizes.push_back(magnitude.size(d));
    }
    keepdim_sizes.push_back(reduced[static_cast<size_t>(d)] ? 1 : magnitude.size(d));
  }
  for (int64_t d = 0; d < magnitude.dim(); ++d)
    if (reduced[static_cast<size_t>(d)]) order.push_back(d);
  std::vector<int64_t> flat_shape = kept_sizes;
  flat_shape.push_back(-1);
  Tensor flat = magnitude.permute(order).reshape(flat_shape);
  Tensor result = std::get<0>(largest ? flat.max(-1) : flat.min(-1));
  return result.reshape(keepdim ? keepdim_sizes : kept_sizes);
}
}  // namespace

Tensor Tensor::norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) const {
  TT_CHECK(is_floating_point(), "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ",
           ::tinytorch::toString(scalar_type()));
  const double order = p ? p->toDouble() : 2.0;
  const std::vector<int64_t> dims = norm_dims(*this, dim);
  if (std::isinf(order)) return extreme_abs(abs(), dims, keepdim, order > 0);
  if (order == 0.0) return ne(0).to(scalar_type()).sum(dims, keepdim);
  if (order == 1.0) return abs().sum(dims, keepdim);
  if (order == 2.0) return mul(*this).sum(dims, keepdim).sqrt();
  return abs().pow(order).sum(dims, keepdim).pow(1.0 / order);
}

Tensor Tensor::norm(const Scalar& p) const { return norm(std::optional<Scalar>(p), IntArrayRef{}, false); }

Tensor frobenius_norm(const Tensor& t) { return t.norm(2); }
Tensor frobenius_norm(const Tensor& t, IntArrayRef dim, bool keepdim) { return t.norm(2, dim, keepdim); }

Tensor dropout(const Tensor& input, double p, bool train) {
  TT_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (!train || p == 0.0 || input.numel() == 0) return input;
  if (p == 1.0) return input * 0;
  const double keep = 1.0 - p;
  return input * ((rand_like(input) < keep).to(input.scalar_type()) / keep);
}

}  // namespace tinytorch
