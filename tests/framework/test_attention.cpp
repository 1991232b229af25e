// Module 12's given code: torch::scaled_dot_product_attention's checks and options, and the parts of
// nn::MultiheadAttention / F::multi_head_attention_forward that the graded tests do not reach
// (options, parameters, bias_kv, add_zero_attn, static keys, dropout in train and eval, errors).
// The numbers against LibTorch 1.13 are in tests/parity; the attention itself in curriculum/12_attention.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "tinytorch/torch.h"

namespace F = torch::nn::functional;
namespace nn = torch::nn;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("scaled_dot_product_attention rejects bad inputs with PyTorch's messages", "[attention]") {
  auto q = torch::randn({2, 3, 4}), k = torch::randn({2, 5, 4}), v = torch::randn({2, 5, 6});
  CHECK(torch::scaled_dot_product_attention(q, k, v).sizes() == std::vector<int64_t>{2, 3, 6});
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k, v, torch::ones({3, 5}, torch::kBool), 0.0, true); }),
             Catch::Contains("Explicit attn_mask should not be set when is_causal=True"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k.to(torch::kDouble), v); }),
             Catch::Contains("Expected query, key, and value to have the same dtype"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q[0][0], k, v); }),
             Catch::Contains("at least 2 dimensional"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, torch::randn({2, 5, 3}), v); }),
             Catch::Contains("same embedding size"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k, torch::randn({2, 4, 6})); }),
             Catch::Contains("same sequence length"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k, v, torch::zeros({4, 5})); }),
             Catch::Contains("does not broadcast"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k, v, torch::zeros({3, 5}, torch::kLong)); }),
             Catch::Contains("Expected attn_mask dtype to be bool or float"));
  CHECK_THAT(error_of([&] { torch::scaled_dot_product_attention(q, k, v, {}, 1.5); }),
             Catch::Contains("dropout probability has to be between 0 and 1"));
}

TEST_CASE("scaled_dot_product_attention's dropout drops weights whenever dropout_p > 0", "[attention]") {
  torch::manual_seed(3);
  auto q = torch::randn({1, 8, 4}), k = torch::randn({1, 8, 4}), v = torch::ones({1, 8, 1});
  // With v = 1 every output is the sum of its row's weights: 1 without dropout, something else with it.
  CHECK(torch::allclose(torch::scaled_dot_product_attention(q, k, v), torch::ones({1, 8, 1}), 1e-5, 1e-6));
  CHECK_FALSE(torch::allclose(torch::scaled_dot_product_attention(q, k, v, {}, 0.5), torch::ones({1, 8, 1})));
  CHECK((torch::scaled_dot_product_attention(q, k, v, {}, 1.0) == 0).all().item<bool>());
}

TEST_CASE("MultiheadAttention has LibTorch's options, parameters and initialisation", "[attention]") {
  nn::MultiheadAttentionOptions options(16, 4);
  CHECK(options.kdim() == 16);
  CHECK(options.vdim() == 16);
  CHECK(options.dropout() == 0.0);
  CHECK(options.bias());
  CHECK_FALSE(options.add_bias_kv());
  CHECK_FALSE(options.add_zero_attn());
  nn::MultiheadAttention attention(options);
  CHECK(attention->head_dim == 4);
  CHECK(attention->parameters().size() == 4);
  int64_t count = 0;
  for (const auto& p : attention->parameters()) count += p.numel();
  CHECK(count == 4 * 16 * 16 + 4 * 16);  // 4 E^2 + 4 E
  CHECK((attention->in_proj_bias == 0).all().item<bool>());
  CHECK((attention->out_proj->bias == 0).all().item<bool>());
  CHECK((attention->in_proj_weight.abs() <= std::sqrt(6.0 / (16 + 48))).all().item<bool>());

  nn::MultiheadAttention no_bias(nn::MultiheadAttentionOptions(16, 4).bias(false).add_bias_kv(true));
  const auto names = no_bias->named_parameters().keys();
  CHECK(names == std::vector<std::string>{"in_proj_weight", "bias_k", "bias_v", "out_proj.weight"});
  CHECK(no_bias->bias_k.sizes() == std::vector<int64_t>{1, 1, 16});

  CHECK_THAT(error_of([] { nn::MultiheadAttention(nn::MultiheadAttentionOptions(10, 4)); }),
             Catch::Contains("embed_dim must be divisible by num_heads"));
  CHECK_THAT(error_of([] { nn::MultiheadAttention(nn::MultiheadAttentionOptions(8, 0)); }),
             Catch::Contains("must be positive, but got embed_dim=8, num_heads=0"));
}

TEST_CASE("MultiheadAttention's extra keys, masks and dropout", "[attention]") {
  torch::manual_seed(5);
  const int64_t L = 3, S = 4, N = 2, E = 8;
  auto query = torch::randn({L, N, E}), memory = torch::randn({S, N, E});
  nn::MultiheadAttention extra(nn::MultiheadAttentionOptions(E, 2).add_bias_kv(true).add_zero_attn(true));
  auto [out, weights] = extra(query, memory, memory);
  CHECK(out.sizes() == std::vector<int64_t>{L, N, E});
  CHECK(weights.sizes() == std::vector<int64_t>{N, L, S + 2});  // bias key and zero key appended
  // Masks are given for the S keys the caller passed; the appended keys stay visible.
  auto padding = torch::zeros({N, S}, torch::kBool);
  padding[1][0] = true;
  auto padded = std::get<1>(extra->forward(query, memory, memory, padding));
  CHECK((padded[1].select(1, 0) == 0).all().item<bool>());
  CHECK((padded[1].select(1, S) > 0).all().item<bool>());
  // A boolean attn_mask is read as PyTorch's nn.MultiheadAttention reads it: true = blocked.
  auto blocked = torch::zeros({L, S}, torch::kBool);
  blocked[0][1] = true;
  auto masked = std::get<1>(extra->forward(query, memory, memory, {}, true, blocked));
  CHECK((masked.select(1, 0).select(1, 1) == 0).all().item<bool>());
  // (N * H, L, S) masks, per head.
  auto per_head_mask = torch::zeros({N * 2, L, S});
  CHECK(std::get<0>(extra->forward(query, memory, memory, {}, true, per_head_mask)).sizes() ==
        std::vector<int64_t>{L, N, E});
  CHECK_THAT(error_of([&] { extra->forward(query, memory, memory, {}, true, torch::zeros({L, S + 1})); }),
             Catch::Contains("The shape of the 2D attn_mask is"));
  CHECK_THAT(error_of([&] { extra->forward(query, memory, memory, torch::zeros({N, S + 1}, torch::kBool)); }),
             Catch::Contains("expecting key_padding_mask shape of"));
  CHECK_THAT(error_of([&] { extra(query[0], memory, memory); }), Catch::Contains("(L, N, E)"));
  CHECK_THAT(error_of([&] { extra(torch::randn({L, N, E + 1}), memory, memory); }),
             Catch::Contains("was expecting embedding dimension of 8, but got 9"));

  // Dropout acts in training mode only.
  nn::MultiheadAttention dropping(nn::MultiheadAttentionOptions(E, 2).dropout(0.5));
  auto eval_a = (dropping->eval(), std::get<0>(dropping(query, query, query)));
  auto eval_b = std::get<0>(dropping(query, query, query));
  CHECK(torch::equal(eval_a, eval_b));
  dropping->train();
  auto train_weights = std::get<1>(dropping(query, query, query));
  CHECK((train_weights == 0).any().item<bool>());
}

TEST_CASE("F::multi_head_attention_forward takes static keys and values", "[attention]") {
  torch::manual_seed(7);
  const int64_t L = 2, N = 1, E = 4, H = 2;
  nn::MultiheadAttention attention(nn::MultiheadAttentionOptions(E, H));
  attention->eval();
  auto query = torch::randn({L, N, E}), memory = torch::randn({3, N, E});
  // static_k/static_v (N * H, S, E / H) replace the projected keys and values.
  auto static_k = torch::randn({N * H, 5, E / H}), static_v = torch::randn({N * H, 5, E / H});
  auto options = F::MultiheadAttentionForwardFuncOptions(E, H, attention->in_proj_weight, attention->in_proj_bias, {},
                                                         {}, false, 0.0, attention->out_proj->weight,
                                                         attention->out_proj->bias)
                     .training(false)
                     .static_k(static_k)
                     .static_v(static_v);
  auto [out, weights] = F::multi_head_attention_forward(query, memory, memory, options);
  CHECK(out.sizes() == std::vector<int64_t>{L, N, E});
  CHECK(weights.sizes() == std::vector<int64_t>{N, L, 5});
}
