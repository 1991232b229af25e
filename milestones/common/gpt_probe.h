#pragma once
// The probes of a GPT's pieces: the whole models::GPT forward pass, for milestones whose gates only
// compare YOUR GPT with itself, and nn::Embedding's and nn::LayerNorm's passes, which a model that
// learns its task anyway hides. Milestone 06 part 2 checks that cached logits equal recomputed ones: an
// attention without its scale, a causal mask that hides the wrong keys, heads split the wrong way or a LayerNorm with the
// unbiased variance give wrong logits on both paths alike, and the knockout study
// (`tito instructor knockout 06 --part 2`) found each of them passing. This probe computes the GPT of
// lessons 11-13 here, in plain double loops from the model's own parameters, and compares the logits.
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "forward_probe.h"

namespace milestone {

namespace gpt_probe_detail {

// A row-major matrix of doubles, copied from a parameter (or built here).
struct Matrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;
  double& at(int64_t i, int64_t j) { return values[static_cast<size_t>(i * cols + j)]; }
  double at(int64_t i, int64_t j) const { return values[static_cast<size_t>(i * cols + j)]; }
};

inline Matrix zeros(int64_t rows, int64_t cols) {
  return {rows, cols, std::vector<double>(static_cast<size_t>(rows * cols), 0.0)};
}

// A tensor's values as a matrix of its first dimension's rows (a 1-D one: a single row).
inline Matrix matrix_of(const torch::Tensor& t) {
  const int64_t rows = t.dim() == 2 ? t.size(0) : 1;
  return {rows, t.numel() / rows, values_of(t)};
}

// x W^T + b, as nn::Linear defines it (W is (out, in)); `bias` may be empty.
inline Matrix linear(const Matrix& x, const Matrix& weight, const Matrix* bias) {
  Matrix y = zeros(x.rows, weight.rows);
  for (int64_t i = 0; i < x.rows; ++i)
    for (int64_t o = 0; o < weight.rows; ++o) {
      double sum = bias ? bias->at(0, o) : 0.0;
      for (int64_t k = 0; k < x.cols; ++k) sum += x.at(i, k) * weight.at(o, k);
      y.at(i, o) = sum;
    }
  return y;
}

// Each row normalised by its mean and its biased variance (LibTorch's default eps, 1e-5), then scaled.
inline Matrix layer_norm(const Matrix& x, const Matrix& weight, const Matrix& bias) {
  constexpr double kEps = 1e-5;
  Matrix y = zeros(x.rows, x.cols);
  for (int64_t i = 0; i < x.rows; ++i) {
    double mean = 0, variance = 0;
    for (int64_t j = 0; j < x.cols; ++j) mean += x.at(i, j);
    mean /= static_cast<double>(x.cols);
    for (int64_t j = 0; j < x.cols; ++j) variance += (x.at(i, j) - mean) * (x.at(i, j) - mean);
    variance /= static_cast<double>(x.cols);
    for (int64_t j = 0; j < x.cols; ++j)
      y.at(i, j) = (x.at(i, j) - mean) / std::sqrt(variance + kEps) * weight.at(0, j) + bias.at(0, j);
  }
  return y;
}

// Causal multi-head attention of lesson 12 on (S, 3d) projections: head h uses features h*hd .. (h+1)*hd
// of q, k and v, scores scaled by 1/sqrt(hd), query i sees keys 0..i; the heads' outputs side by side.
inline Matrix causal_attention(const Matrix& qkv, int64_t embed_dim, int64_t heads) {
  const int64_t seq = qkv.rows, head_dim = embed_dim / heads;
  const double scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  Matrix out = zeros(seq, embed_dim);
  std::vector<double> weights(static_cast<size_t>(seq));
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t q0 = h * head_dim, k0 = embed_dim + h * head_dim, v0 = 2 * embed_dim + h * head_dim;
    for (int64_t i = 0; i < seq; ++i) {
      double largest = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j <= i; ++j) {
        double score = 0;
        for (int64_t c = 0; c < head_dim; ++c) score += qkv.at(i, q0 + c) * qkv.at(j, k0 + c);
        weights[static_cast<size_t>(j)] = score * scale;
        largest = std::max(largest, weights[static_cast<size_t>(j)]);
      }
      double total = 0;
      for (int64_t j = 0; j <= i; ++j) total += weights[static_cast<size_t>(j)] = std::exp(weights[static_cast<size_t>(j)] - largest);
      for (int64_t j = 0; j <= i; ++j)
        for (int64_t c = 0; c < head_dim; ++c)
          out.at(i, q0 + c) += weights[static_cast<size_t>(j)] / total * qkv.at(j, v0 + c);
    }
  }
  return out;
}

}  // namespace gpt_probe_detail

// max over the positions and the vocabulary of |YOUR gpt->forward(tokens) - the definition| / (1 + |the
// definition|), the definition computed here in double from gpt's parameters: token plus learned position
// embeddings; per block x + attn(ln1(x)), then + mlp(ln2(x)) with the exact GELU; final_norm; lm_head.
// Infinity when YOUR logits are not finite. tokens: (1, S) ids below the vocabulary size, S <= max_seq_len;
// gpt in eval mode (no dropout).
inline double gpt_forward_error(torch::models::GPT& gpt, const torch::Tensor& tokens) {
  namespace d = gpt_probe_detail;
  torch::NoGradGuard no_grad;
  const auto& options = gpt->options;
  const int64_t embed_dim = options.embed_dim(), seq = tokens.size(1);
  auto parameters = gpt->named_parameters();
  const auto parameter = [&](const std::string& name) { return d::matrix_of(parameters[name]); };

  const torch::Tensor ids = tokens.to(torch::kLong).contiguous();
  const int64_t* id = ids.data_ptr<int64_t>();
  const d::Matrix token_table = parameter("token_embedding.weight"), position_table = parameter("position_embedding.weight");
  d::Matrix x = d::zeros(seq, embed_dim);
  for (int64_t i = 0; i < seq; ++i)
    for (int64_t j = 0; j < embed_dim; ++j) x.at(i, j) = token_table.at(id[i], j) + position_table.at(i, j);

  for (int64_t layer = 0; layer < options.num_layers(); ++layer) {
    const std::string block = "blocks." + std::to_string(layer) + ".";
    const d::Matrix qkv_bias = parameter(block + "attn.qkv.bias"), proj_bias = parameter(block + "attn.proj.bias");
    const d::Matrix qkv = d::linear(d::layer_norm(x, parameter(block + "ln1.weight"), parameter(block + "ln1.bias")),
                                    parameter(block + "attn.qkv.weight"), &qkv_bias);
    const d::Matrix attended =
        d::linear(d::causal_attention(qkv, embed_dim, options.num_heads()), parameter(block + "attn.proj.weight"), &proj_bias);
    for (size_t k = 0; k < x.values.size(); ++k) x.values[k] += attended.values[k];

    const d::Matrix fc_bias = parameter(block + "mlp.fc.bias"), mlp_proj_bias = parameter(block + "mlp.proj.bias");
    d::Matrix hidden = d::linear(d::layer_norm(x, parameter(block + "ln2.weight"), parameter(block + "ln2.bias")),
                                 parameter(block + "mlp.fc.weight"), &fc_bias);
    for (double& h : hidden.values) h = 0.5 * h * (1 + std::erf(h / std::sqrt(2.0)));
    const d::Matrix mlp = d::linear(hidden, parameter(block + "mlp.proj.weight"), &mlp_proj_bias);
    for (size_t k = 0; k < x.values.size(); ++k) x.values[k] += mlp.values[k];
  }
  const d::Matrix expected = d::linear(d::layer_norm(x, parameter("final_norm.weight"), parameter("final_norm.bias")),
                                       parameter("lm_head.weight"), nullptr);

  const std::vector<double> got = values_of(gpt->forward(tokens));
  if (got.size() != expected.values.size()) return std::numeric_limits<double>::infinity();
  double error = 0;
  for (size_t k = 0; k < expected.values.size(); ++k) {
    if (!std::isfinite(got[k])) return std::numeric_limits<double>::infinity();
    error = std::max(error, std::fabs(got[k] - expected.values[k]) / (1 + std::fabs(expected.values[k])));
  }
  return error;
}

// max over the weight's gradient of |YOUR nn::Embedding's - the definition| for ids that repeat and a
// padding row: the gradient of sum(embed(ids) * g) is, for each row r, the sum of g over the positions
// whose id is r, and zero for padding_idx. A lookup that assigns instead of adding, or lets the padding
// row learn, still trains a model that routes letters (the knockout study found both passing milestone 05).
inline double embedding_backward_error() {
  const std::vector<int64_t> ids = {1, 3, 1, 5, 0, 1};
  constexpr int64_t rows = 6, width = 3, padding = 5;
  std::vector<float> upstream;
  for (int64_t k = 0; k < static_cast<int64_t>(ids.size()) * width; ++k) upstream.push_back(0.25f * static_cast<float>(k % 7) - 0.5f);
  torch::nn::Embedding embed(torch::nn::EmbeddingOptions(rows, width).padding_idx(padding));
  const torch::Tensor g = torch::tensor(upstream).reshape({static_cast<int64_t>(ids.size()), width});
  (embed(torch::tensor(ids)) * g).sum().backward();
  if (!embed->weight.grad().defined()) return std::numeric_limits<double>::infinity();
  const gpt_probe_detail::Matrix got = gpt_probe_detail::matrix_of(embed->weight.grad());
  double error = 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < width; ++c) {
      double expected = 0;
      for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == r && r != padding) expected += upstream[i * width + static_cast<size_t>(c)];
      if (!std::isfinite(got.at(r, c))) return std::numeric_limits<double>::infinity();
      error = std::max(error, std::fabs(got.at(r, c) - expected));
    }
  return error;
}

// max over the output and the three gradients of |YOUR nn::LayerNorm - the definition| / (1 + |it|), on
// rows of 6 features with a weight and bias that are not 1 and 0: y = x_hat w + b with the biased
// variance (eps 1e-5), and for the loss sum(y * g): dw = sum_rows g x_hat, db = sum_rows g,
// dx = (g w - mean(g w) - x_hat mean(g w x_hat)) / sigma. The unbiased variance, or a backward that
// forgets the weight, still trains (the knockout study found both passing milestone 05's part 1).
inline double layer_norm_error() {
  namespace d = gpt_probe_detail;
  constexpr int64_t rows = 3, features = 6;
  std::vector<float> x_values, g_values, w_values, b_values;
  for (int64_t k = 0; k < rows * features; ++k) {
    x_values.push_back(static_cast<float>((k * 7) % 11) * 0.3f - 1.2f);
    g_values.push_back(static_cast<float>((k * 5) % 9) * 0.2f - 0.7f);
  }
  for (int64_t j = 0; j < features; ++j) {
    w_values.push_back(0.5f + 0.25f * static_cast<float>(j));
    b_values.push_back(0.1f * static_cast<float>(j) - 0.2f);
  }
  torch::nn::LayerNorm norm(torch::nn::LayerNormOptions({features}));
  {
    torch::NoGradGuard no_grad;
    norm->weight.copy_(torch::tensor(w_values));
    norm->bias.copy_(torch::tensor(b_values));
  }
  const torch::Tensor x = torch::tensor(x_values).reshape({rows, features}).requires_grad_();
  const torch::Tensor y = norm(x);
  (y * torch::tensor(g_values).reshape({rows, features})).sum().backward();
  if (!x.grad().defined() || !norm->weight.grad().defined() || !norm->bias.grad().defined())
    return std::numeric_limits<double>::infinity();
  const d::Matrix y_got = d::matrix_of(y), dx_got = d::matrix_of(x.grad());
  const d::Matrix dw_got = d::matrix_of(norm->weight.grad()), db_got = d::matrix_of(norm->bias.grad());
  double error = 0;
  const auto compare = [&error](double got, double expected) {
    error = std::isfinite(got) ? std::max(error, std::fabs(got - expected) / (1 + std::fabs(expected)))
                               : std::numeric_limits<double>::infinity();
  };
  std::vector<double> dw(features, 0.0), db(features, 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    double mean = 0, variance = 0;
    for (int64_t j = 0; j < features; ++j) mean += x_values[static_cast<size_t>(i * features + j)];
    mean /= features;
    for (int64_t j = 0; j < features; ++j) {
      const double centred = x_values[static_cast<size_t>(i * features + j)] - mean;
      variance += centred * centred;
    }
    const double sigma = std::sqrt(variance / features + 1e-5);
    std::vector<double> x_hat(features), gw(features);
    double mean_gw = 0, mean_gw_x_hat = 0;
    for (int64_t j = 0; j < features; ++j) {
      const size_t k = static_cast<size_t>(i * features + j);
      x_hat[static_cast<size_t>(j)] = (x_values[k] - mean) / sigma;
      gw[static_cast<size_t>(j)] = g_values[k] * w_values[static_cast<size_t>(j)];
      mean_gw += gw[static_cast<size_t>(j)] / features;
      mean_gw_x_hat += gw[static_cast<size_t>(j)] * x_hat[static_cast<size_t>(j)] / features;
      dw[static_cast<size_t>(j)] += g_values[k] * x_hat[static_cast<size_t>(j)];
      db[static_cast<size_t>(j)] += g_values[k];
      compare(y_got.at(i, j), x_hat[static_cast<size_t>(j)] * w_values[static_cast<size_t>(j)] + b_values[static_cast<size_t>(j)]);
    }
    for (int64_t j = 0; j < features; ++j)
      compare(dx_got.at(i, j), (gw[static_cast<size_t>(j)] - mean_gw - x_hat[static_cast<size_t>(j)] * mean_gw_x_hat) / sigma);
  }
  for (int64_t j = 0; j < features; ++j) {
    compare(dw_got.at(0, j), dw[static_cast<size_t>(j)]);
    compare(db_got.at(0, j), db[static_cast<size_t>(j)]);
  }
  return error;
}

}  // namespace milestone
