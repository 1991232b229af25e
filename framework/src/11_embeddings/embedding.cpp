// Module 11 (Embeddings), the given half: torch::embedding (LibTorch's checks and messages, the
// recorded op and its derivative EmbeddingBackward0), embedding_renorm_ (max_norm), F::embedding,
// nn::Embedding, and the positional layers' construction and printing.
//
// The kernels are the learner's (embedding_loops.cpp): embedding_lookup copies rows,
// embedding_backward_scatter adds each output row's gradient back into the row it came from; the
// sine table and the positional layers' forward are in positional_encoding.cpp.
#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

#include "tinytorch/dispatch.h"
#include "tinytorch/embedding.h"
#include "tinytorch/embedding_kernels.h"
#include "tinytorch/factories.h"
#include "tinytorch/kernels.h"
#include "tinytorch/nn/functional/embedding.h"
#include "tinytorch/nn/init.h"
#include "tinytorch/nn/modules/embedding.h"
#include "tinytorch/nn/modules/positional_encoding.h"

namespace tinytorch {
namespace {

// LibTorch's checkScalarTypes for an index argument (LibTorch also allows kInt; ours takes kLong only).
void check_index_dtype(const Tensor& indices, int argument, const char* name, const char* op) {
  TT_CHECK(indices.scalar_type() == kLong, "Expected tensor for argument #", argument, " '", name,
           "' to have one of the following scalar types: Long, Int; but got ", indices.toString(),
           " instead (while checking arguments for ", op, ")");
}

// Every index in [0, rows): LibTorch's index_select message.
void check_index_range(const Tensor& flat_indices, int64_t rows) {
  const int64_t* index = flat_indices.data_ptr<int64_t>();
  for (int64_t i = 0; i < flat_indices.numel(); ++i) {
    TT_CHECK(index[i] >= 0 && index[i] < rows, "index out of range in self");
  }
}

const char* const kNoSparse =
    "sparse=true asks for a sparse gradient, and TinyTorch has no sparse tensors: use sparse=false (the "
    "default); the gradient is then a dense (num_embeddings, embedding_dim) tensor";

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  TT_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  check_index_dtype(indices, 1, "indices", "embedding");
  TT_CHECK(!sparse, "embedding: ", kNoSparse);
  const Tensor flat_indices = indices.reshape({-1}).contiguous();
  check_index_range(flat_indices, weight.size(0));
  Tensor rows = native::embedding_lookup(weight.contiguous(), flat_indices);
  std::vector<int64_t> out_sizes = indices.sizes().vec();
  out_sizes.push_back(weight.size(1));
  Tensor result = rows.view(out_sizes);
  // For EmbeddingBackward0 (below): index = padding_idx, keepdim = scale_grad_by_freq.
  OpAttributes attributes;
  attributes.index = padding_idx;
  attributes.keepdim = scale_grad_by_freq;
  static OpHandle embedding_op("embedding");
  record_op(embedding_op, {weight, indices}, {result}, attributes);
  return result;
}

Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq) {
  check_index_dtype(indices, 2, "indices", "embedding_backward");
  const Tensor flat_indices = indices.reshape({-1}).contiguous();
  const int64_t d = grad_output.size(-1);
  const Tensor grad_rows = grad_output.contiguous().reshape({flat_indices.numel(), d});
  Tensor grad_weight = native::embedding_backward_scatter(grad_rows, flat_indices, num_weights, padding_idx);
  if (scale_grad_by_freq) {
    // Row k's gradient is divided by how many times k was looked up (rare words' rows are not
    // drowned out by frequent ones). Applied after the scatter: sum / count, the same numbers.
    std::vector<int64_t> counts(static_cast<size_t>(num_weights), 0);
    const int64_t* index = flat_indices.data_ptr<int64_t>();
    for (int64_t i = 0; i < flat_indices.numel(); ++i) ++counts[static_cast<size_t>(index[i])];
    TT_DISPATCH_FLOATING_TYPES(grad_weight.scalar_type(), "embedding_backward", [&] {
      scalar_t* grad = grad_weight.data_ptr<scalar_t>();
      for (int64_t k = 0; k < num_weights; ++k) {
        if (counts[static_cast<size_t>(k)] <= 1) continue;
        for (int64_t c = 0; c < d; ++c) grad[k * d + c] /= static_cast<scalar_t>(counts[static_cast<size_t>(k)]);
      }
    });
  }
  return grad_weight;
}

namespace {

// out = weight[indices]: the gradient of weight row k is the sum of the output rows that read row k
// (none for padding_idx), each divided by k's count when scale_grad_by_freq. Indices get none.
const RegisterDerivative embedding_derivative("embedding", {
    "EmbeddingBackward0",
    [](SaveForBackward& save) {
      save.input(1);        // indices
      save.input_sizes(0);  // weight: only its number of rows is needed
    },
    [](const BackwardContext& ctx) -> tensor_list {
      if (!ctx.needs_input_grad(0)) return {Tensor(), Tensor()};
      const Tensor& indices = ctx.saved(0);
      // The learner's scatter is not itself recorded, so a graph of the gradient cannot be built.
      TT_CHECK(!GradMode::is_enabled() || !ctx.grad().requires_grad(),
               "double backward through embedding (create_graph=true) is not supported by TinyTorch yet");
      return {embedding_dense_backward(ctx.grad(), indices, ctx.saved_sizes(0)[0], ctx.attributes.index,
                                       ctx.attributes.keepdim),
              Tensor()};
    }});

}  // namespace

Tensor& embedding_renorm_(Tensor& self, const Tensor& indices, double max_norm, double norm_type) {
  TT_CHECK(self.dim() == 2, "Expected 2-dimensional tensor, but got ", self.dim(),
           "-dimensional tensor for argument #1 'self' (while checking arguments for embedding_renorm_)");
  check_index_dtype(indices, 2, "indices", "embedding_renorm_");
  const Tensor flat = indices.reshape({-1}).contiguous();
  check_index_range(flat, self.size(0));
  std::vector<int64_t> rows(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());  // each row once, however often used
  for (const int64_t r : rows) {
    Tensor row = self.select(0, r);
    const double norm = row.norm(norm_type).item<double>();
    if (norm > max_norm) row.mul_(max_norm / (norm + 1e-7));
  }
  return self;
}

namespace nn {
namespace functional {
namespace detail {

Tensor embedding(const Tensor& input, const Tensor& weight, std::optional<int64_t> padding_idx,
                 std::optional<double> max_norm, double norm_type, bool scale_grad_by_freq, bool sparse) {
  int64_t padding_row = -1;
  if (padding_idx.has_value()) {
    if (*padding_idx > 0) {
      TT_CHECK(*padding_idx < weight.size(0), "Padding_idx must be within num_embeddings");
      padding_row = *padding_idx;
    } else if (*padding_idx < 0) {
      TT_CHECK(*padding_idx >= -weight.size(0), "Padding_idx must be within num_embedding");
      padding_row = weight.size(0) + *padding_idx;
    } else {
      padding_row = 0;
    }
  }
  if (max_norm.has_value()) {
    // Rows are rescaled in place before the lookup, and the rescaling is not part of the graph.
    NoGradGuard no_grad;
    Tensor table = weight;
    ::tinytorch::embedding_renorm_(table, input.contiguous(), *max_norm, norm_type);
  }
  return ::tinytorch::embedding(weight, input, padding_row, scale_grad_by_freq, sparse);
}

}  // namespace detail
}  // namespace functional

// ---- Embedding ----

EmbeddingOptions::EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim)
    : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}

EmbeddingImpl::EmbeddingImpl(const EmbeddingOptions& options_) : options(options_) { reset(); }

void EmbeddingImpl::reset() {
  TT_CHECK(options.num_embeddings() >= 0 && options.embedding_dim() >= 0,
           "Embedding: num_embeddings and embedding_dim must be non-negative, but got num_embeddings=",
           options.num_embeddings(), ", embedding_dim=", options.embedding_dim());
  TT_CHECK(!options.sparse(), "Embedding: ", kNoSparse);
  if (options.padding_idx().has_value()) {
    if (*options.padding_idx() > 0) {
      TT_CHECK(*options.padding_idx() < options.num_embeddings(), "Padding_idx must be within num_embeddings");
    } else if (*options.padding_idx() < 0) {
      TT_CHECK(*options.padding_idx() >= -options.num_embeddings(), "Padding_idx must be within num_embedding");
      options.padding_idx(options.num_embeddings() + *options.padding_idx());
    }
  }
  if (!options._weight().defined()) {
    weight = register_parameter("weight", empty({options.num_embeddings(), options.embedding_dim()}));
    reset_parameters();
  } else {
    TT_CHECK(options._weight().sizes() == IntArrayRef({options.num_embeddings(), options.embedding_dim()}),
             "Shape of _weight does not match num_embeddings and embedding_dim");
    weight = register_parameter("weight", options._weight());
  }
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx().has_value()) {
    NoGradGuard no_grad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Embedding(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  if (options.padding_idx().has_value()) stream << ", padding_idx=" << *options.padding_idx();
  if (options.max_norm().has_value()) stream << ", max_norm=" << *options.max_norm();
  if (options.norm_type() != 2) stream << ", norm_type=" << options.norm_type();
  if (options.scale_grad_by_freq()) stream << ", scale_grad_by_freq=" << std::boolalpha << options.scale_grad_by_freq();
  if (options.sparse()) stream << ", sparse=" << std::boolalpha << options.sparse();
  stream << ")";
}

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return functional::detail::embedding(indices, weight, options.padding_idx(), options.max_norm(),
                                       options.norm_type(), options.scale_grad_by_freq(), options.sparse());
}

Embedding Embedding::from_pretrained(const Tensor& embeddings, const EmbeddingFromPretrainedOptions& options) {
  TT_CHECK(embeddings.dim() == 2, "Embeddings parameter is expected to be 2-dimensional");
  Embedding embedding(EmbeddingOptions(embeddings.size(0), embeddings.size(1))
                          ._weight(embeddings)
                          .padding_idx(options.padding_idx())
                          .max_norm(options.max_norm())
                          .norm_type(options.norm_type())
                          .scale_grad_by_freq(options.scale_grad_by_freq())
                          .sparse(options.sparse()));
  embedding->weight.set_requires_grad(!options.freeze());
  return embedding;
}

// ---- Positional encodings ----

PositionalEncodingOptions::PositionalEncodingOptions(int64_t max_len, int64_t embedding_dim)
    : max_len_(max_len), embedding_dim_(embedding_dim) {}

namespace {
void check_positional_options(const PositionalEncodingOptions& options, const char* layer) {
  TT_CHECK(options.max_len() > 0 && options.embedding_dim() > 0, layer,
           ": max_len and embedding_dim must be positive, but got max_len=", options.max_len(),
           ", embedding_dim=", options.embedding_dim());
}
}  // namespace

SinusoidalPositionalEncodingImpl::SinusoidalPositionalEncodingImpl(const PositionalEncodingOptions& options_)
    : options(options_) {
  reset();
}

void SinusoidalPositionalEncodingImpl::reset() {
  check_positional_options(options, "SinusoidalPositionalEncoding");
  table = register_buffer("table", native::sinusoidal_table(options.max_len(), options.embedding_dim()));
}

void SinusoidalPositionalEncodingImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::SinusoidalPositionalEncoding(max_len=" << options.max_len()
         << ", embedding_dim=" << options.embedding_dim() << ")";
}

LearnedPositionalEmbeddingImpl::LearnedPositionalEmbeddingImpl(const PositionalEncodingOptions& options_)
    : options(options_) {
  reset();
}

void LearnedPositionalEmbeddingImpl::reset() {
  check_positional_options(options, "LearnedPositionalEmbedding");
  embedding = register_module("embedding", Embedding(options.max_len(), options.embedding_dim()));
}

void LearnedPositionalEmbeddingImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::LearnedPositionalEmbedding(max_len=" << options.max_len()
         << ", embedding_dim=" << options.embedding_dim() << ")";
}

}  // namespace nn

void native::check_positional_input(const Tensor& input, int64_t start_pos, int64_t max_len, int64_t dim,
                                       const char* layer) {
  TT_CHECK(input.dim() >= 2, layer, ": expected an input (..., T, ", dim,
           ") with the positions along dimension -2, but got an input of size ", input.sizes(),
           ": a single sequence of vectors is (T, ", dim, "); add a batch with unsqueeze(0) if you need one");
  TT_CHECK(input.size(-1) == dim, layer, ": expected the input's last size to be embedding_dim=", dim,
           ", but got an input of size ", input.sizes());
  TT_CHECK(start_pos >= 0, layer, ": start_pos must be non-negative, but got start_pos=", start_pos);
  const int64_t length = input.size(-2);
  TT_CHECK(start_pos + length <= max_len, layer, ": positions ", start_pos, " to ", start_pos + length - 1,
           " were asked for (start_pos=", start_pos, ", ", length, " positions), but the table has max_len=",
           max_len, " (positions 0 to ", max_len - 1, "): build the layer with a larger max_len or feed a shorter "
           "sequence");
}

}  // namespace tinytorch
