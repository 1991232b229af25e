#pragma once
// Free-function spellings of the Tensor methods, as LibTorch's torch::add(a, b), torch::matmul(a, b).
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {

inline Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha = 1) { return a.add(b, alpha); }
inline Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha = 1) { return a.add(b, alpha); }
inline Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha = 1) { return a.sub(b, alpha); }
inline Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha = 1) { return a.sub(b, alpha); }
inline Tensor mul(const Tensor& a, const Tensor& b) { return a.mul(b); }
inline Tensor mul(const Tensor& a, const Scalar& b) { return a.mul(b); }
inline Tensor div(const Tensor& a, const Tensor& b) { return a.div(b); }
inline Tensor div(const Tensor& a, const Scalar& b) { return a.div(b); }
inline Tensor neg(const Tensor& t) { return t.neg(); }
inline Tensor pow(const Tensor& t, const Tensor& exponent) { return t.pow(exponent); }
inline Tensor pow(const Tensor& t, const Scalar& exponent) { return t.pow(exponent); }
inline Tensor exp(const Tensor& t) { return t.exp(); }
inline Tensor log(const Tensor& t) { return t.log(); }
inline Tensor sqrt(const Tensor& t) { return t.sqrt(); }
inline Tensor abs(const Tensor& t) { return t.abs(); }
inline Tensor clamp(const Tensor& t, const std::optional<Scalar>& min,
                    const std::optional<Scalar>& max = std::nullopt) {
  return t.clamp(min, max);
}

inline Tensor matmul(const Tensor& a, const Tensor& b) { return a.matmul(b); }
inline Tensor mm(const Tensor& a, const Tensor& b) { return a.mm(b); }
inline Tensor bmm(const Tensor& a, const Tensor& b) { return a.bmm(b); }
// beta self + alpha (mat1 @ mat2), self broadcast to the product's shape (AddmmBackward0).
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);

inline Tensor sum(const Tensor& t, std::optional<ScalarType> dtype = std::nullopt) { return t.sum(dtype); }
inline Tensor sum(const Tensor& t, IntArrayRef dim, bool keepdim = false,
                  std::optional<ScalarType> dtype = std::nullopt) {
  return t.sum(dim, keepdim, dtype);
}
inline Tensor mean(const Tensor& t, std::optional<ScalarType> dtype = std::nullopt) { return t.mean(dtype); }
inline Tensor mean(const Tensor& t, IntArrayRef dim, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return t.mean(dim, keepdim, dtype);
}
inline Tensor max(const Tensor& t) { return t.max(); }
inline Tensor min(const Tensor& t) { return t.min(); }
inline std::tuple<Tensor, Tensor> max(const Tensor& t, int64_t dim, bool keepdim = false) {
  return t.max(dim, keepdim);
}
inline std::tuple<Tensor, Tensor> min(const Tensor& t, int64_t dim, bool keepdim = false) {
  return t.min(dim, keepdim);
}
inline Tensor argmax(const Tensor& t, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
  return t.argmax(dim, keepdim);
}
inline Tensor argmin(const Tensor& t, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
  return t.argmin(dim, keepdim);
}
inline std::tuple<Tensor, Tensor> sort(const Tensor& t, int64_t dim = -1, bool descending = false) {
  return t.sort(dim, descending);
}
inline std::tuple<Tensor, Tensor> sort(const Tensor& t, std::optional<bool> stable, int64_t dim = -1,
                                       bool descending = false) {
  return t.sort(stable, dim, descending);
}
inline Tensor argsort(const Tensor& t, int64_t dim = -1, bool descending = false) {
  return t.argsort(dim, descending);
}
inline std::tuple<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim = -1, bool largest = true,
                                       bool sorted = true) {
  return t.topk(k, dim, largest, sorted);
}
// num_samples category indices (kLong) per row of probs (1-D (C) or 2-D (N, C) non-negative weights,
// not necessarily normalised), drawn from TinyTorch's generator (manual_seed). Without replacement a
// category is drawn at most once per row. LibTorch's optional Generator argument is not offered.
inline Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement = false) {
  return self.multinomial(num_samples, replacement);
}

inline Tensor eq(const Tensor& a, const Tensor& b) { return a.eq(b); }
inline Tensor ne(const Tensor& a, const Tensor& b) { return a.ne(b); }
inline Tensor gt(const Tensor& a, const Tensor& b) { return a.gt(b); }
inline Tensor lt(const Tensor& a, const Tensor& b) { return a.lt(b); }
inline Tensor ge(const Tensor& a, const Tensor& b) { return a.ge(b); }
inline Tensor le(const Tensor& a, const Tensor& b) { return a.le(b); }
inline Tensor all(const Tensor& t) { return t.all(); }
inline Tensor any(const Tensor& t) { return t.any(); }
inline bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
                     bool equal_nan = false) {
  return a.allclose(b, rtol, atol, equal_nan);
}
inline bool equal(const Tensor& a, const Tensor& b) { return a.equal(b); }

inline Tensor reshape(const Tensor& t, IntArrayRef shape) { return t.reshape(shape); }
// A view of a tensor nothing else refers to yet, recorded as UnsafeViewBackward0 (LibTorch's matmul
// returns its folded product through it).
Tensor _unsafe_view(const Tensor& self, IntArrayRef size);
inline Tensor flatten(const Tensor& t, int64_t start_dim = 0, int64_t end_dim = -1) {
  return t.flatten(start_dim, end_dim);
}
inline Tensor squeeze(const Tensor& t) { return t.squeeze(); }
inline Tensor squeeze(const Tensor& t, int64_t dim) { return t.squeeze(dim); }
inline Tensor unsqueeze(const Tensor& t, int64_t dim) { return t.unsqueeze(dim); }
inline Tensor transpose(const Tensor& t, int64_t dim0, int64_t dim1) { return t.transpose(dim0, dim1); }
inline Tensor t(const Tensor& self) { return self.t(); }
inline Tensor permute(const Tensor& t, IntArrayRef dims) { return t.permute(dims); }
inline Tensor select(const Tensor& t, int64_t dim, int64_t index) { return t.select(dim, index); }
inline Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  return t.narrow(dim, start, length);
}
inline Tensor clone(const Tensor& t) { return t.clone(); }

// Joins tensors along an existing dim: (2, 3) and (4, 3) at dim 0 give (6, 3). concat and
// concatenate are LibTorch's other names for it.
Tensor cat(TensorList tensors, int64_t dim = 0);
inline Tensor concat(TensorList tensors, int64_t dim = 0) { return cat(tensors, dim); }
inline Tensor concatenate(TensorList tensors, int64_t dim = 0) { return cat(tensors, dim); }

// Masks and index tensors (src/01_tensor/masks.cpp). where and index_select have derivatives;
// masked_fill and masked_select are made of them.
// (n, dim) Long coordinates of the non-zero elements, in row-major order.
Tensor nonzero(const Tensor& self);
// The same coordinates, one 1-D tensor per dim (LibTorch's where(condition), nonzero_numpy).
std::vector<Tensor> where(const Tensor& condition);
// condition ? self : other element-wise, the three broadcast together (condition is kBool).
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);
// The slices self.select(dim, index[i]) stacked along dim (index: 1-D Long).
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
// The elements where mask (broadcast with self) is true, as a 1-D tensor.
Tensor masked_select(const Tensor& self, const Tensor& mask);

// Gather, scatter, index_add and one_hot (src/01_tensor/scatter_gather.cpp), LibTorch's spellings.
// gather (out has index's shape):   out[i][j] = self[i][index[i][j]]        (dim = 1)
// scatter / scatter_add:            out[i][index[i][j]] = (or +=) src[i][j] (dim = 1)
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad = false);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
// (*) Long class ids -> (*, num_classes) Long of 0/1; num_classes -1: the largest id + 1.
Tensor one_hot(const Tensor& self, int64_t num_classes = -1);

// More reductions, LibTorch's free spellings of the Tensor methods (src/01_tensor/statistics.cpp).
inline Tensor prod(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt) { return self.prod(dtype); }
inline Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return self.prod(dim, keepdim, dtype);
}
inline Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false) { return self.amax(dim, keepdim); }
inline Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false) { return self.amin(dim, keepdim); }
inline Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false) {
  return self.logsumexp(dim, keepdim);
}
inline Tensor var(const Tensor& self) { return self.var(); }
template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
Tensor var(const Tensor& self, Bool unbiased) {
  return self.var(unbiased);
}
inline Tensor var(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false) {
  return self.var(dim, unbiased, keepdim);
}
inline Tensor var(const Tensor& self, IntArrayRef dim, std::optional<int64_t> correction, bool keepdim = false) {
  return self.var(dim, correction, keepdim);
}
inline Tensor std(const Tensor& self) { return self.std(); }
template <typename Bool, typename = std::enable_if_t<std::is_same<Bool, bool>::value>>
Tensor std(const Tensor& self, Bool unbiased) {
  return self.std(unbiased);
}
inline Tensor std(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false) {
  return self.std(dim, unbiased, keepdim);
}
inline Tensor std(const Tensor& self, IntArrayRef dim, std::optional<int64_t> correction, bool keepdim = false) {
  return self.std(dim, correction, keepdim);
}
inline Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return self.cumsum(dim, dtype);
}

// The dtype PyTorch's promotion gives an op on a and b (dimensioned tensors outrank 0-dim tensors,
// which outrank wrapped numbers, unless the lower tier brings a higher kind: bool < integer < float).
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);

// Splitting (views) and norms, LibTorch's free spellings of the Tensor methods.
inline std::vector<Tensor> split(const Tensor& t, int64_t split_size, int64_t dim = 0) { return t.split(split_size, dim); }
inline std::vector<Tensor> split_with_sizes(const Tensor& t, IntArrayRef split_sizes, int64_t dim = 0) {
  return t.split_with_sizes(split_sizes, dim);
}
inline std::vector<Tensor> chunk(const Tensor& t, int64_t chunks, int64_t dim = 0) { return t.chunk(chunks, dim); }
inline std::vector<Tensor> unbind(const Tensor& t, int64_t dim = 0) { return t.unbind(dim); }
inline Tensor unflatten(const Tensor& t, int64_t dim, IntArrayRef sizes) { return t.unflatten(dim, sizes); }
inline Tensor norm(const Tensor& t, const Scalar& p = 2) { return t.norm(p); }
inline Tensor norm(const Tensor& t, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim = false) {
  return t.norm(p, dim, keepdim);
}
Tensor frobenius_norm(const Tensor& t);
Tensor frobenius_norm(const Tensor& t, IntArrayRef dim, bool keepdim = false);

// torch::dropout(input, p, train): inverted dropout as a function (nn::Dropout is the module).
Tensor dropout(const Tensor& input, double p, bool train);

}  // namespace tinytorch
