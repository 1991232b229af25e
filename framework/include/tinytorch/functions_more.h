#pragma once
// LibTorch's copying forms of the views (torch::diagonal_copy(x) is x.diagonal().clone(), with
// gradients), and the free-function spellings of Tensor methods and dtype queries
// (torch::detach, torch::numel, torch::can_cast, ...). Defined in src/01_tensor/functions_more.cpp.
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "tinytorch/memory_format.h"
#include "tinytorch/reductions_scans.h"
#include "tinytorch/scalar.h"
#include "tinytorch/scalar_type.h"
#include "tinytorch/tensor.h"
#include "tinytorch/tensor_options.h"

namespace tinytorch {

// ---- Views, copied: the view of the same name followed by clone() ----
Tensor alias_copy(const Tensor& self);
Tensor as_strided_copy(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                       std::optional<int64_t> storage_offset = std::nullopt);
Tensor detach_copy(const Tensor& self);
Tensor diagonal_copy(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
Tensor expand_copy(const Tensor& self, IntArrayRef size, bool implicit = false);
Tensor permute_copy(const Tensor& self, IntArrayRef dims);
Tensor select_copy(const Tensor& self, int64_t dim, int64_t index);
Tensor slice_copy(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
                  std::optional<int64_t> end = std::nullopt, int64_t step = 1);
std::vector<Tensor> split_copy(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split_with_sizes_copy(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
Tensor squeeze_copy(const Tensor& self);
Tensor squeeze_copy(const Tensor& self, int64_t dim);
Tensor t_copy(const Tensor& self);
Tensor transpose_copy(const Tensor& self, int64_t dim0, int64_t dim1);
std::vector<Tensor> unbind_copy(const Tensor& self, int64_t dim = 0);
Tensor unfold_copy(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
Tensor unsqueeze_copy(const Tensor& self, int64_t dim);
Tensor view_copy(const Tensor& self, IntArrayRef size);
Tensor narrow_copy(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor lift_fresh_copy(const Tensor& self);

// ---- Free-function spellings of Tensor methods ----
Tensor alias(const Tensor& self);
Tensor detach(const Tensor& self);
inline Tensor& detach_(Tensor& self) { return self.detach_(); }
Tensor adjoint(const Tensor& self);
Tensor lift(const Tensor& self);        // self (LibTorch's functionalization hook)
Tensor lift_fresh(const Tensor& self);  // self
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
int64_t size(const Tensor& self, int64_t dim);
int64_t stride(const Tensor& self, int64_t dim);
int64_t numel(const Tensor& tensor);
bool is_floating_point(const Tensor& tensor);
bool is_complex(const Tensor& tensor);  // false: TinyTorch has no complex dtype
// A new tensor of self's shape and dtype filled with value (the gradient to self is zero).
Tensor fill(const Tensor& self, const Scalar& value);
Tensor fill(const Tensor& self, const Tensor& value);
Tensor& fill_(Tensor& self, const Scalar& value);
Tensor& fill_(Tensor& self, const Tensor& value);
Tensor& zero_(Tensor& self);

// ---- Windows, index helpers and small numerical functions (composed of differentiable ops) ----
// Signal windows of window_length points (periodic: the first window_length of window_length + 1),
// in options' floating dtype (default float).
Tensor hann_window(int64_t window_length, TensorOptions options = {});
Tensor hann_window(int64_t window_length, bool periodic, TensorOptions options = {});
Tensor hamming_window(int64_t window_length, TensorOptions options = {});
Tensor hamming_window(int64_t window_length, bool periodic, TensorOptions options = {});
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, TensorOptions options = {});
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta, TensorOptions options = {});
Tensor blackman_window(int64_t window_length, TensorOptions options = {});
Tensor blackman_window(int64_t window_length, bool periodic, TensorOptions options = {});
Tensor bartlett_window(int64_t window_length, TensorOptions options = {});
Tensor bartlett_window(int64_t window_length, bool periodic, TensorOptions options = {});
Tensor kaiser_window(int64_t window_length, TensorOptions options = {});
Tensor kaiser_window(int64_t window_length, bool periodic, TensorOptions options = {});
Tensor kaiser_window(int64_t window_length, bool periodic, double beta, TensorOptions options = {});
// The (2, count) row and column indices of a row x col matrix's lower / upper triangle, row by row.
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = TensorOptions().dtype(kLong));
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = TensorOptions().dtype(kLong));
// Which bucket of the sorted 1-D boundaries each value falls in (kLong, or kInt with out_int32).
Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);
Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32 = false, bool right = false);
// Insertion points of self into sorted_sequence (1-D, or with self's leading dims); side "left"/"right".
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32 = false, bool right = false,
                    std::optional<std::string_view> side = std::nullopt, const std::optional<Tensor>& sorter = {});
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32 = false, bool right = false,
                    std::optional<std::string_view> side = std::nullopt, const std::optional<Tensor>& sorter = {});
Tensor cartesian_prod(TensorList tensors);
Tensor combinations(const Tensor& self, int64_t r = 2, bool with_replacement = false);
Tensor block_diag(TensorList tensors);
// p-norm distances between the rows of x1 (*, P, M) and x2 (*, R, M): (*, P, R).
Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2, std::optional<int64_t> compute_mode = std::nullopt);
Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);
Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor trapz(const Tensor& y, double dx = 1, int64_t dim = -1);
Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);
// Covariance of the rows (variables) of self over its columns (observations); corrcoef normalises it.
Tensor cov(const Tensor& self, int64_t correction = 1, const std::optional<Tensor>& fweights = {},
           const std::optional<Tensor>& aweights = {});
Tensor corrcoef(const Tensor& self);
Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt, bool increasing = false);

// ---- dtype queries ----
bool can_cast(ScalarType from, ScalarType to);
ScalarType promote_types(ScalarType type1, ScalarType type2);

// ---- out= forms the generated ones (tinytorch/out_variants.h) cannot reach: overloads whose
// argument types differ from the functional form's. LibTorch's dim is an OptionalIntArrayRef; TinyTorch's
// std::optional<IntArrayRef> would keep a dangling pointer for a braced `{1}` (std::optional's converting
// constructor makes the int64_t temporary inside itself), so these take IntArrayRef ({} = every dim). ----
Tensor& mean_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);
Tensor& mean_outf(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                  Tensor& out);
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_outf(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype,
                 Tensor& out);
Tensor& sum_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_outf(const Tensor& self, std::optional<ScalarType> dtype, Tensor& out);
Tensor& clone_out(Tensor& out, const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor& clone_outf(const Tensor& self, std::optional<MemoryFormat> memory_format, Tensor& out);

}  // namespace tinytorch
