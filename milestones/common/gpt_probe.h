#pragma once
// The probe of a whole models::GPT forward pass, for milestones whose gates only compare YOUR GPT with
// itself. Milestone 06 part 2 checks that cached logits equal recomputed ones: an attention without its
// scale, a causal mask that hides the wrong keys, heads split the wrong way or a LayerNorm with the
// unbiased variance give wrong logits on both paths alike, and the knockout study
// (`tito instructor knockout 06 --part 2`) found each of them passing. This probe computes the GPT of
// lessons 11-13 here, in plain double loops from the model's own parameters, and compares the logits.
#include <tinytorch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

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

// A 1-D parameter is a single row.
inline Matrix values_of(const torch::Tensor& parameter) {
  const torch::Tensor values = parameter.detach().to(torch::kDouble).contiguous();
  const double* data = values.data_ptr<double>();
  const int64_t rows = values.dim() == 2 ? values.size(0) : 1;
  return {rows, values.numel() / rows, std::vector<double>(data, data + values.numel())};
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
  const auto parameter = [&](const std::string& name) { return d::values_of(parameters[name]); };

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

  const torch::Tensor yours = gpt->forward(tokens).detach().to(torch::kDouble).contiguous();
  if (yours.numel() != expected.rows * expected.cols) return std::numeric_limits<double>::infinity();
  const double* got = yours.data_ptr<double>();
  double error = 0;
  for (size_t k = 0; k < expected.values.size(); ++k) {
    if (!std::isfinite(got[k])) return std::numeric_limits<double>::infinity();
    error = std::max(error, std::fabs(got[k] - expected.values[k]) / (1 + std::fabs(expected.values[k])));
  }
  return error;
}

}  // namespace milestone
