// Module 18's given code: models::KVCache's buffers and bookkeeping (shapes, zero fill, reset,
// advance, the errors that name the fix), GPT::make_kv_cache, the cached forward's checks, and that
// generate(..., use_kv_cache = true) gives module 13's tokens on the reference (prompt longer than
// max_seq_len, sliding window) and keeps training on the uncached forward working.
#include <catch2/catch.hpp>

#include "test_helpers.h"

namespace {

using torch::Tensor;
namespace models = torch::models;
using Sizes = std::vector<int64_t>;

models::GPT small_gpt(int64_t vocab, int64_t max_seq_len) {
  torch::manual_seed(7);
  models::GPT gpt(models::GPTOptions(vocab, max_seq_len).embed_dim(8).num_layers(2).num_heads(2).dropout(0.0));
  gpt->eval();
  return gpt;
}

}  // namespace

TEST_CASE("KVCache preallocates zeroed (B, H, T_max, head_dim) buffers per layer", "[kv_cache][memoization]") {
  models::KVCache cache(3, 2, 4, 16, 8);
  CHECK(cache.num_layers() == 3);
  CHECK(cache.batch_size() == 2);
  CHECK(cache.num_heads() == 4);
  CHECK(cache.max_length() == 16);
  CHECK(cache.head_dim() == 8);
  CHECK(cache.length() == 0);
  for (int64_t layer = 0; layer < 3; ++layer) {
    CHECK(cache.key_buffer(layer).sizes() == Sizes{2, 4, 16, 8});
    CHECK(cache.value_buffer(layer).sizes() == Sizes{2, 4, 16, 8});
    CHECK(cache.key_buffer(layer).abs().sum().item<double>() == 0.0);
  }
  CHECK(cache.memory_bytes() == 2 * 3 * 2 * 4 * 16 * 8 * 4);
  cache.advance(5);
  CHECK(cache.length() == 5);
  CHECK_THROWS_WITH(cache.advance(12), Catch::Contains("cannot advance by 12") && Catch::Contains("reset()"));
  cache.reset();
  CHECK(cache.length() == 0);
  CHECK_THROWS_WITH(cache.key_buffer(3), Catch::Contains("layer 3 is out of range"));
  CHECK_THROWS_WITH(models::KVCache(1, 0, 1, 1, 1), Catch::Contains("make_kv_cache"));
}

TEST_CASE("GPT::make_kv_cache and the cached forward's checks", "[kv_cache][memoization]") {
  models::GPT gpt = small_gpt(11, 6);
  models::KVCache cache = gpt->make_kv_cache(2);
  CHECK(cache.num_layers() == 2);
  CHECK(cache.head_dim() == 4);
  CHECK(cache.max_length() == 6);
  CHECK_THROWS_WITH(gpt->make_kv_cache(0), Catch::Contains("batch_size must be positive"));
  CHECK_THROWS_WITH(gpt->forward(torch::tensor({{1, 2}}), cache), Catch::Contains("made for a batch of 2"));
  CHECK_THROWS_WITH(gpt->forward(torch::tensor({{1, 20}, {1, 2}}), cache), Catch::Contains("token ids must lie in [0, 11)"));
  models::KVCache foreign(3, 2, 2, 6, 4);
  CHECK_THROWS_WITH(gpt->forward(torch::tensor({{1}, {2}}), foreign), Catch::Contains("was not made for this model"));
  const Tensor tokens = torch::tensor({{1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1}});
  CHECK_THROWS_WITH(gpt->forward(tokens, cache), Catch::Contains("the KV cache is full"));
  CHECK(cache.length() == 0);  // refused before anything was written
}

TEST_CASE("generate with the KV cache gives module 13's tokens, past max_seq_len too", "[kv_cache][memoization]") {
  models::GPT gpt = small_gpt(13, 5);
  const Tensor prompt = torch::tensor({{1, 2, 3, 4, 5, 6, 7}, {3, 3, 3, 3, 3, 3, 3}});  // longer than max_seq_len
  CHECK(gpt->generate(prompt, 9, 0.0, 0, true).equal(gpt->generate(prompt, 9, 0.0)));
  torch::manual_seed(3);
  const Tensor sampled = gpt->generate(prompt, 6, 1.0, 4, true);
  torch::manual_seed(3);
  CHECK(sampled.equal(gpt->generate(prompt, 6, 1.0, 4)));
  // The uncached forward still records a graph after cached use.
  gpt->train();
  gpt->forward(prompt.narrow(1, 0, 5)).sum().backward();
  CHECK(gpt->token_embedding->weight.grad().defined());
}
