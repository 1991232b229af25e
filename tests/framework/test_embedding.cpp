// Module 11's given code and API: nn::Embedding's options, printing and refusals, the positional
// layers' checks, one_hot, and gather / scatter / index_add semantics and errors (their gradients
// are checked in test_autograd_gradcheck.cpp; LibTorch's outputs in tests/compat/programs/nn_embedding.cpp).
#include <catch2/catch.hpp>

#include "test_helpers.h"
#include "tinytorch/torch.h"

using Catch::Matchers::Contains;
using test_helpers::printed;
using test_helpers::values;
using V = std::vector<double>;
namespace nn = torch::nn;
namespace F = torch::nn::functional;

TEST_CASE("nn::Embedding prints, wraps padding_idx and refuses sparse gradients", "[nn][embedding]") {
  CHECK(printed(nn::Embedding(10, 3)) == "torch::nn::Embedding(num_embeddings=10, embedding_dim=3)");
  CHECK(printed(nn::Embedding(nn::EmbeddingOptions(10, 3).padding_idx(0))) ==
        "torch::nn::Embedding(num_embeddings=10, embedding_dim=3, padding_idx=0)");
  CHECK(printed(nn::Embedding(nn::EmbeddingOptions(10, 3).padding_idx(-2).max_norm(1.5).norm_type(1).scale_grad_by_freq(
            true))) ==
        "torch::nn::Embedding(num_embeddings=10, embedding_dim=3, padding_idx=8, max_norm=1.5, norm_type=1, "
        "scale_grad_by_freq=true)");
  CHECK_THROWS_WITH(nn::Embedding(nn::EmbeddingOptions(10, 3).padding_idx(-11)), "Padding_idx must be within num_embedding");
  CHECK_THROWS_WITH(nn::Embedding(nn::EmbeddingOptions(10, 3).sparse(true)), Contains("TinyTorch has no sparse tensors"));
  CHECK_THROWS_WITH(torch::embedding(torch::ones({3, 2}), torch::tensor({0}), -1, false, true),
                    Contains("use sparse=false"));
  nn::Embedding e(7, 4);
  CHECK(e->weight.sizes().vec() == std::vector<int64_t>{7, 4});
  CHECK(e->weight.requires_grad());
  CHECK(e->parameters().size() == 1);
  // N(0, 1) start, as LibTorch's reset_parameters.
  nn::Embedding big(1000, 64);
  CHECK(big->weight.mean().item<double>() == Approx(0.0).margin(0.02));
  CHECK(big->weight.std().item<double>() == Approx(1.0).margin(0.02));
}

TEST_CASE("from_pretrained shares the table; max_norm writes into it", "[nn][embedding]") {
  const torch::Tensor vectors = torch::arange(6, torch::kFloat).reshape({3, 2});
  auto frozen = nn::Embedding::from_pretrained(vectors);
  CHECK(frozen->weight.is_same(vectors));
  CHECK_FALSE(frozen->weight.requires_grad());
  auto renorm = nn::Embedding::from_pretrained(torch::full({3, 2}, 4.0), nn::EmbeddingFromPretrainedOptions().max_norm(2));
  renorm(torch::tensor({2}));
  CHECK(renorm->weight.select(0, 2).norm().item<double>() == Approx(2.0).epsilon(1e-6));
  CHECK(values(renorm->weight.select(0, 0)) == V{4, 4});
  // Ids of any rank, and the empty batch.
  CHECK(frozen(torch::zeros({2, 0, 3}, torch::kLong)).sizes().vec() == std::vector<int64_t>{2, 0, 3, 2});
  CHECK(values(frozen(torch::tensor(2))) == V{4, 5});
}

TEST_CASE("positional layers check their input and print themselves", "[nn][embedding][positions]") {
  nn::SinusoidalPositionalEncoding sinusoid(16, 8);
  nn::LearnedPositionalEmbedding learned(16, 8);
  CHECK(printed(sinusoid) == "torch::nn::SinusoidalPositionalEncoding(max_len=16, embedding_dim=8)");
  CHECK_THAT(printed(learned), Contains("torch::nn::LearnedPositionalEmbedding(max_len=16, embedding_dim=8)"));
  CHECK_THAT(printed(learned), Contains("torch::nn::Embedding(num_embeddings=16, embedding_dim=8)"));
  CHECK(learned->named_parameters().contains("embedding.weight"));
  CHECK(sinusoid->table.sizes().vec() == std::vector<int64_t>{16, 8});
  CHECK_THROWS_WITH(sinusoid(torch::zeros({8})), Contains("expected an input (..., T, 8)"));
  CHECK_THROWS_WITH(learned(torch::zeros({2, 4, 6})), Contains("last size to be embedding_dim=8"));
  CHECK_THROWS_WITH(learned(torch::zeros({2, 4, 8}), 13), Contains("max_len=16"));
  CHECK_THROWS_WITH(sinusoid(torch::zeros({4, 8}), -1), Contains("start_pos must be non-negative"));
  CHECK_THROWS_WITH(nn::SinusoidalPositionalEncoding(0, 8), Contains("must be positive"));
  // (T, d) works without a batch; a double input stays double.
  CHECK(sinusoid(torch::zeros({4, 8}, torch::kDouble)).scalar_type() == torch::kDouble);
}

TEST_CASE("one_hot, gather, scatter and index_add follow LibTorch", "[ops][scatter]") {
  CHECK(values(torch::one_hot(torch::tensor({0, 2}), 4)) == V{1, 0, 0, 0, 0, 0, 1, 0});
  CHECK(torch::one_hot(torch::tensor({{1}, {0}})).sizes().vec() == std::vector<int64_t>{2, 1, 2});
  CHECK(F::one_hot(torch::tensor(2), 3).scalar_type() == torch::kLong);
  CHECK_THROWS_WITH(torch::one_hot(torch::tensor({3}), 3), "Class values must be smaller than num_classes.");
  CHECK_THROWS_WITH(torch::one_hot(torch::zeros({0}, torch::kLong)),
                    "Can not infer total number of classes from empty tensor.");

  const torch::Tensor x = torch::arange(6, torch::kFloat).reshape({2, 3});
  CHECK(values(x.gather(1, torch::tensor({{2, 2}, {0, 1}}))) == V{2, 2, 3, 4});
  CHECK(values(x.gather(-1, torch::tensor({{1}, {2}}))) == V{1, 5});
  CHECK(values(torch::arange(4).gather(0, torch::tensor({3, 3, 0}))) == V{3, 3, 0});
  CHECK_THROWS_WITH(x.gather(1, torch::tensor({{0, -1}})), "index -1 is out of bounds for dimension 1 with size 3");
  CHECK_THROWS_WITH(x.gather(1, torch::tensor({{0}, {0}, {0}})),
                    "Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 3] apart "
                    "from dimension 1");
  // scatter: the last write wins; scatter_add accumulates.
  CHECK(values(torch::zeros({1, 3}).scatter(1, torch::tensor({{1, 1}}), torch::tensor({{5.0f, 7.0f}}))) == V{0, 7, 0});
  CHECK(values(torch::zeros({1, 3}).scatter_add(1, torch::tensor({{1, 1}}), torch::tensor({{5.0f, 7.0f}}))) ==
        V{0, 12, 0});
  CHECK(values(torch::zeros({2, 2}, torch::kLong).scatter(0, torch::tensor({{1, 0}}), 9)) == V{0, 9, 9, 0});
  CHECK_THROWS_WITH(torch::zeros({2, 3}).scatter(1, torch::tensor({0}), torch::ones({1, 1})),
                    "Index tensor must have the same number of dimensions as self tensor");
  // index_add along dim 1 with alpha; the in-place form returns self.
  torch::Tensor y = torch::zeros({2, 3});
  torch::Tensor& same = y.index_add_(1, torch::tensor({2, 0, 2}), torch::ones({2, 3}), 0.5);
  CHECK(&same == &y);
  CHECK(values(y) == V{0.5, 0, 1, 0.5, 0, 1});
  CHECK_THROWS_WITH(y.index_add(0, torch::tensor({{0, 1}}), torch::ones({2, 3})),
                    "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 2]");
  CHECK_THROWS_WITH(y.index_add(0, torch::tensor({0, 1}), torch::ones({2, 2})),
                    "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
}
