// nn::MultiheadAttention as LibTorch's documentation uses it: options, parameter names and sizes,
// default initialisation (by its properties: the values depend on the RNG), the (L, N, E) layout,
// need_weights and average_attn_weights, a causal float mask, key_padding_mask, train/eval, clone,
// and the error for a num_heads that does not divide embed_dim.
#include <cmath>
#include <iostream>
#include <limits>

#include "compat.h"

namespace nn_multihead_attention_program {

COMPAT_PROGRAM(nn_multihead_attention) {
  torch::manual_seed(0);
  torch::nn::MultiheadAttention attention(torch::nn::MultiheadAttentionOptions(8, 2).dropout(0.1));
  std::cout << attention << "\n";
  std::cout << "head_dim " << attention->head_dim << " same embed dim " << attention->_qkv_same_embed_dim << "\n";
  for (const auto& parameter : attention->named_parameters()) {
    std::cout << parameter.key() << " " << parameter.value().sizes() << " requires_grad "
              << parameter.value().requires_grad() << "\n";
  }
  const double xavier_bound = std::sqrt(6.0 / (8 + 24));
  std::cout << "in_proj_weight within xavier bound " << (attention->in_proj_weight.abs() <= xavier_bound).all().item<bool>()
            << ", biases zero " << (attention->in_proj_bias == 0).all().item<bool>() << " "
            << (attention->out_proj->bias == 0).all().item<bool>() << "\n";

  attention->eval();
  auto x = torch::linspace(-1, 1, 5 * 3 * 8).reshape({5, 3, 8});
  auto [output, weights] = attention(x, x, x);
  std::cout << "output " << output.sizes() << " weights " << weights.sizes() << "\n";
  std::cout << "weights rows sum to 1 " << torch::allclose(weights.sum(-1), torch::ones({3, 5})) << "\n";
  auto per_head = attention->forward(x, x, x, {}, true, {}, /*average_attn_weights=*/false);
  std::cout << "per-head weights " << std::get<1>(per_head).sizes() << ", their mean is the average "
            << torch::allclose(std::get<1>(per_head).mean(1), weights, 1e-5, 1e-6) << "\n";
  std::cout << "need_weights=false gives an undefined tensor "
            << !std::get<1>(attention->forward(x, x, x, {}, false)).defined() << "\n";

  auto causal = torch::zeros({5, 5});
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t j = i + 1; j < 5; ++j) causal[i][j] = -std::numeric_limits<float>::infinity();
  }
  auto masked = std::get<1>(attention->forward(x, x, x, {}, true, causal));
  std::cout << "causal: no weight above the diagonal " << (masked.masked_fill(torch::arange(5).unsqueeze(0) <= torch::arange(5).unsqueeze(1), 0) == 0).all().item<bool>()
            << ", first query attends only to itself " << torch::allclose(masked.select(1, 0).select(1, 0), torch::ones({3}))
            << "\n";
  auto padding = torch::zeros({3, 5}, torch::kBool);
  padding[1][4] = true;
  auto padded = std::get<1>(attention->forward(x, x, x, padding));
  std::cout << "padded key gets no weight " << (padded[1].select(1, 4) == 0).all().item<bool>()
            << ", other batches keep theirs " << (padded[0].select(1, 4) > 0).all().item<bool>() << "\n";

  torch::nn::MultiheadAttention cross(torch::nn::MultiheadAttentionOptions(8, 4).kdim(6).vdim(6).bias(false));
  for (const auto& parameter : cross->named_parameters()) std::cout << parameter.key() << " " << parameter.value().sizes() << "\n";
  auto memory = torch::linspace(0, 1, 7 * 3 * 6).reshape({7, 3, 6});
  auto cross_result = cross(x, memory, memory);
  std::cout << "cross output " << std::get<0>(cross_result).sizes() << " weights " << std::get<1>(cross_result).sizes() << "\n";

  auto copy = std::dynamic_pointer_cast<torch::nn::MultiheadAttentionImpl>(attention->clone());
  std::cout << "clone has its own in_proj_weight "
            << (copy->in_proj_weight.data_ptr() != attention->in_proj_weight.data_ptr()) << ", same values "
            << torch::equal(copy->in_proj_weight, attention->in_proj_weight) << "\n";
  try {
    torch::nn::MultiheadAttention bad(torch::nn::MultiheadAttentionOptions(10, 3));
  } catch (const std::exception& e) {
    const std::string message = e.what();
    std::cout << "error: " << message.substr(0, message.find('\n')) << "\n";
  }
  return 0;
}

}  // namespace nn_multihead_attention_program
