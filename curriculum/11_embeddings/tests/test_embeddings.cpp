// Module 11 (Embeddings): the graded tests. Each case is tagged with its points ([points=N], 100 in
// all) and a topic; hints.json has a hint per case name. Every case runs code the learner writes:
// the lookup and its scatter-add gradient (embedding_loops.cpp), the sinusoidal table and the two
// positional layers' forward (positional_encoding.cpp), reached through LibTorch's API
// (torch::embedding, nn::Embedding, F::embedding) and TinyTorch's positional layers.
// Expected values are worked by hand in the comments, or computed here by an independent oracle in
// double precision from the raw data: rows copied by hand, central differences, the sine formula.
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>
#include <tinytorch/testing.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using Sizes = std::vector<int64_t>;
using tinytorch::testing::AllClose;
using tinytorch::testing::Equals;
using tinytorch::testing::random_int;
using tinytorch::testing::random_tensor;
namespace F = torch::nn::functional;
namespace nn = torch::nn;

namespace {

torch::Tensor floats(const std::vector<double>& values, Sizes sizes) {
  return torch::tensor(values, torch::kFloat).reshape(sizes);
}

std::vector<double> values_of(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

std::vector<int64_t> ids_of(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

// n random token ids in [0, vocab), with at least one id drawn twice (what real text always has).
torch::Tensor random_ids(Sizes sizes, int64_t vocab) {
  torch::Tensor ids = random_tensor(sizes, 0, static_cast<double>(vocab - 1), torch::kLong);
  int64_t* data = ids.data_ptr<int64_t>();
  if (ids.numel() >= 2) data[ids.numel() - 1] = data[0];
  return ids;
}

// The oracle: row i of the result is row ids[i] of the table, copied value by value.
torch::Tensor lookup_oracle(const torch::Tensor& weight, const torch::Tensor& ids) {
  const std::vector<double> w = values_of(weight);
  const std::vector<int64_t> picked = ids_of(ids);
  const int64_t d = weight.size(1);
  std::vector<double> out;
  for (int64_t id : picked)
    for (int64_t c = 0; c < d; ++c) out.push_back(w[id * d + c]);
  Sizes sizes = ids.sizes().vec();
  sizes.push_back(d);
  return torch::tensor(out, weight.scalar_type()).reshape(sizes);
}

// d f / d t by central differences, element by element (t is changed and restored in place).
torch::Tensor central_differences(const std::function<double()>& f, torch::Tensor t, double eps = 1e-6) {
  torch::NoGradGuard no_grad;
  std::vector<double> grad(t.numel());
  double* data = t.data_ptr<double>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double saved = data[i];
    data[i] = saved + eps;
    const double up = f();
    data[i] = saved - eps;
    const double down = f();
    data[i] = saved;
    grad[i] = (up - down) / (2 * eps);
  }
  return torch::tensor(grad, torch::kDouble).reshape(t.sizes());
}

// Vaswani et al.'s table in double: even columns sin(pos / 10000^(2i/d)), odd ones cos of the same.
torch::Tensor sinusoid_oracle(int64_t max_len, int64_t dim) {
  std::vector<double> table;
  for (int64_t pos = 0; pos < max_len; ++pos)
    for (int64_t col = 0; col < dim; ++col) {
      const int64_t pair = col / 2;
      const double angle = pos / std::pow(10000.0, 2.0 * pair / dim);
      table.push_back(col % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  return torch::tensor(table, torch::kFloat).reshape({max_len, dim});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lesson section 2: the lookup (embedding_loops.cpp, embedding_lookup)
// ---------------------------------------------------------------------------------------------

TEST_CASE("an embedding looks up one row per index", "[points=10][embedding][forward]") {
  // The lesson's table: row r is [2r, 2r + 1]. Indices [2, 0, 2] read rows 2, 0 and 2 again.
  const torch::Tensor table = torch::arange(6, torch::kFloat).reshape({3, 2});
  CHECK_THAT(torch::embedding(table, torch::tensor({2, 0, 2})), Equals(floats({4, 5, 0, 1, 4, 5}, {3, 2})));
  // Indices of any shape: (2, 2) ids -> (2, 2, 2) vectors.
  CHECK_THAT(torch::embedding(table, torch::tensor({1, 2, 0, 1}).reshape({2, 2})),
             Equals(floats({2, 3, 4, 5, 0, 1, 2, 3}, {2, 2, 2})));
  // Drawn tables and ids, float and double, against the oracle.
  const int64_t vocab = random_int(5, 30), dim = random_int(1, 9);
  const torch::Tensor weight = random_tensor({vocab, dim});
  const torch::Tensor ids = random_ids({random_int(1, 4), random_int(2, 7)}, vocab);
  CHECK_THAT(torch::embedding(weight, ids), Equals(lookup_oracle(weight, ids)));
  const torch::Tensor weight64 = random_tensor({vocab, dim}, -2, 2, torch::kDouble);
  CHECK_THAT(torch::embedding(weight64, ids), Equals(lookup_oracle(weight64, ids)));
  // The layer and the functional form read the same rows.
  nn::Embedding embed(nn::EmbeddingOptions(vocab, dim)._weight(weight));
  CHECK_THAT(embed(ids), Equals(lookup_oracle(weight, ids)));
  CHECK_THAT(F::embedding(ids, weight), Equals(lookup_oracle(weight, ids)));
  CHECK(embed(ids.reshape({-1})).sizes().vec() == Sizes{ids.numel(), dim});
}

TEST_CASE("bad indices get LibTorch's errors and nothing is read", "[points=5][embedding][errors]") {
  const torch::Tensor table = random_tensor({4, 3});
  // A valid lookup first: the errors below must come from the checks, not from an unwritten lookup.
  CHECK_THAT(torch::embedding(table, torch::tensor({3})), Equals(lookup_oracle(table, torch::tensor({3}))));
  CHECK_THROWS_WITH(torch::embedding(table, torch::tensor({0, 4})), "index out of range in self");
  CHECK_THROWS_WITH(torch::embedding(table, torch::tensor({-1})), "index out of range in self");
  CHECK_THROWS_WITH(torch::embedding(table, torch::tensor({0.0, 1.0})),
                    "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                    "but got CPUFloatType instead (while checking arguments for embedding)");
  CHECK_THROWS_WITH(torch::embedding(table.reshape({12}), torch::tensor({0})), "'weight' must be 2-D");
  CHECK_THROWS_WITH(nn::Embedding(nn::EmbeddingOptions(4, 3).padding_idx(4)), "Padding_idx must be within num_embeddings");
}

// ---------------------------------------------------------------------------------------------
// Lesson section 3: the gradient is a scatter-add (embedding_loops.cpp, embedding_backward_scatter)
// ---------------------------------------------------------------------------------------------

TEST_CASE("the gradient adds a row for every time an index was used", "[points=12][embedding][backward]") {
  // V = 4, d = 2, tokens [0, 2, 0]: out.sum() has gradient 1 everywhere, so row 0 (used twice) gets
  // [2, 2], row 2 gets [1, 1], rows 1 and 3 (unused) stay 0.
  torch::Tensor weight = torch::zeros({4, 2}).requires_grad_();
  torch::embedding(weight, torch::tensor({0, 2, 0})).sum().backward();
  CHECK_THAT(weight.grad(), Equals(floats({2, 2, 0, 0, 1, 1, 0, 0}, {4, 2})));
  CHECK(torch::embedding(weight, torch::tensor({1})).grad_fn()->name() == "EmbeddingBackward0");
  // With a drawn upstream gradient g: row k's gradient is the sum of g's rows i with ids[i] == k.
  const int64_t vocab = random_int(3, 8), dim = random_int(1, 5);
  torch::Tensor table = random_tensor({vocab, dim}).requires_grad_();
  const torch::Tensor ids = random_ids({random_int(4, 12)}, vocab);
  const torch::Tensor g = random_tensor({ids.numel(), dim});
  torch::embedding(table, ids).backward(g);
  const std::vector<double> gv = values_of(g);
  const std::vector<int64_t> picked = ids_of(ids);
  std::vector<double> expected(vocab * dim, 0.0);
  for (size_t i = 0; i < picked.size(); ++i)
    for (int64_t c = 0; c < dim; ++c) expected[picked[i] * dim + c] += gv[i * dim + c];
  CHECK_THAT(table.grad(), Equals(floats(expected, {vocab, dim})));
}

TEST_CASE("the gradient with repeated indices matches central differences", "[points=12][embedding][backward]") {
  const int64_t vocab = random_int(3, 6), dim = random_int(2, 4);
  torch::Tensor weight = random_tensor({vocab, dim}, -2, 2, torch::kDouble).requires_grad_();
  const torch::Tensor ids = random_ids({2, random_int(3, 6)}, vocab);  // (B, T) ids with a repeat
  const torch::Tensor projection = random_tensor({2, ids.size(1), dim}, -2, 2, torch::kDouble);
  // loss = sum(embedding(ids) * projection): linear in the weight, so differences are exact.
  auto loss = [&] { return (torch::embedding(weight, ids) * projection).sum().item<double>(); };
  (torch::embedding(weight, ids) * projection).sum().backward();
  CHECK_THAT(weight.grad(), AllClose(central_differences(loss, weight.detach()), 1e-6, 1e-6));
  // Through nn::Embedding and an optimizer step: only the used rows move.
  nn::Embedding embed(nn::EmbeddingOptions(vocab, dim)._weight(random_tensor({vocab, dim})));
  const torch::Tensor before = embed->weight.detach().clone();
  torch::optim::SGD sgd(embed->parameters(), torch::optim::SGDOptions(0.5));
  embed(torch::tensor({1, 1})).sum().backward();
  sgd.step();
  CHECK_THAT(embed->weight.detach()[1], AllClose(before[1] - 1.0, 1e-6, 1e-6));  // used twice: 0.5 * 2
  CHECK_THAT(embed->weight.detach()[0], Equals(before[0]));
}

TEST_CASE("padding_idx's row starts at zero and never learns", "[points=8][embedding][padding]") {
  const int64_t vocab = random_int(4, 9), dim = random_int(2, 5);
  nn::Embedding embed(nn::EmbeddingOptions(vocab, dim).padding_idx(0));
  CHECK_THAT(embed->weight.detach()[0], Equals(torch::zeros({dim})));
  // Ids padded with 0 at the end, as a batch of sentences of different lengths is.
  const torch::Tensor ids = torch::tensor({2, 3, 2, 0, 0});
  const torch::Tensor out = embed(ids);
  CHECK_THAT(out.select(0, 4), Equals(torch::zeros({dim})));
  out.sum().backward();
  CHECK_THAT(embed->weight.grad()[0], Equals(torch::zeros({dim})));   // used twice, still no gradient
  CHECK_THAT(embed->weight.grad()[2], Equals(torch::full({dim}, 2.0)));
  // A negative padding_idx counts from the end, and the table given with _weight keeps its values.
  const torch::Tensor table = random_tensor({vocab, dim});
  nn::Embedding last(nn::EmbeddingOptions(vocab, dim).padding_idx(-1)._weight(table));
  CHECK(last->options.padding_idx().value() == vocab - 1);
  CHECK(tinytorch::testing::printed(last) == "torch::nn::Embedding(num_embeddings=" + std::to_string(vocab) +
                                                 ", embedding_dim=" + std::to_string(dim) +
                                                 ", padding_idx=" + std::to_string(vocab - 1) + ")");
  last(torch::tensor({vocab - 1, 1, vocab - 1})).sum().backward();
  CHECK_THAT(last->weight.grad()[vocab - 1], Equals(torch::zeros({dim})));
  CHECK_THAT(last->weight.grad()[1], Equals(torch::ones({dim})));
  // torch::embedding spells "no padding" -1.
  torch::Tensor plain = torch::zeros({3, 2}).requires_grad_();
  torch::embedding(plain, torch::tensor({2, 2}), /*padding_idx=*/-1).sum().backward();
  CHECK_THAT(plain.grad(), Equals(floats({0, 0, 0, 0, 2, 2}, {3, 2})));
}

TEST_CASE("scale_grad_by_freq divides each row's gradient by its count", "[points=5][embedding][backward]") {
  // Ids [[1, 1], [3, 0]] with padding 3: row 1 is used twice (2 / 2 = 1), row 0 once, row 3 is padding.
  torch::Tensor weight = torch::zeros({5, 2}).requires_grad_();
  torch::embedding(weight, torch::tensor({1, 1, 3, 0}).reshape({2, 2}), 3, /*scale_grad_by_freq=*/true)
      .sum()
      .backward();
  CHECK_THAT(weight.grad(), Equals(floats({1, 1, 1, 1, 0, 0, 0, 0, 0, 0}, {5, 2})));
  // Through the options, with a drawn upstream gradient: row k gets the mean of its rows of g.
  const torch::Tensor g = random_tensor({3, 2});
  torch::Tensor table = torch::zeros({4, 2}).requires_grad_();
  F::embedding(torch::tensor({2, 2, 1}), table, F::EmbeddingFuncOptions().scale_grad_by_freq(true)).backward(g);
  const std::vector<double> gv = values_of(g);
  CHECK_THAT(table.grad(), Equals(floats({0, 0, gv[4], gv[5], (gv[0] + gv[2]) / 2, (gv[1] + gv[3]) / 2, 0, 0}, {4, 2})));
}

TEST_CASE("max_norm rescales the rows it looks up, in place and outside the graph", "[points=5][embedding][max_norm]") {
  // Rows of norm 5 ([3, 4]) looked up with max_norm 1 come out with norm 1; the unused row keeps 5.
  const torch::Tensor table = floats({3, 4, 3, 4, 3, 4}, {3, 2});
  nn::Embedding embed(nn::EmbeddingOptions(3, 2).max_norm(1.0)._weight(table));
  const torch::Tensor out = embed(torch::tensor({0, 2, 0}));
  CHECK_THAT(out, AllClose(floats({0.6, 0.8, 0.6, 0.8, 0.6, 0.8}, {3, 2}), 1e-5, 1e-6));
  CHECK_THAT(embed->weight.detach()[1], Equals(floats({3, 4}, {2})));
  CHECK_THAT(embed->weight.detach()[0], AllClose(floats({0.6, 0.8}, {2}), 1e-5, 1e-6));
  // The rescaling is not recorded: the gradient is still the plain scatter-add.
  out.sum().backward();
  CHECK_THAT(embed->weight.grad(), Equals(floats({2, 2, 0, 0, 1, 1}, {3, 2})));
  // norm_type 1: [3, 4] has 1-norm 7; max_norm 3.5 halves it.
  const torch::Tensor halved = F::embedding(torch::tensor({1}), floats({3, 4, 3, 4}, {2, 2}),
                                            F::EmbeddingFuncOptions().max_norm(3.5).norm_type(1));
  CHECK_THAT(halved, AllClose(floats({1.5, 2}, {1, 2}), 1e-5, 1e-6));
  // A drawn table, ids and max_norm: every row looked up whose 2-norm exceeds max_norm is scaled by
  // max_norm / (norm + 1e-7) in the table, the others keep their values; the output reads the
  // rescaled rows. Worked out here row by row.
  const int64_t vocab = random_int(4, 9), dim = random_int(2, 5);
  const torch::Tensor drawn_table = random_tensor({vocab, dim});
  const torch::Tensor drawn_ids = random_ids({random_int(2, 6)}, vocab);
  const double max_norm = static_cast<double>(random_int(4, 16)) / 8;
  nn::Embedding bounded(nn::EmbeddingOptions(vocab, dim).max_norm(max_norm)._weight(drawn_table.clone()));
  const torch::Tensor bounded_out = bounded(drawn_ids);
  std::vector<double> rows = values_of(drawn_table);
  std::vector<bool> looked_up(vocab, false);
  for (const int64_t id : ids_of(drawn_ids)) looked_up[id] = true;
  for (int64_t r = 0; r < vocab; ++r) {
    double squares = 0;
    for (int64_t c = 0; c < dim; ++c) squares += rows[r * dim + c] * rows[r * dim + c];
    const double norm = std::sqrt(squares);
    if (looked_up[r] && norm > max_norm)
      for (int64_t c = 0; c < dim; ++c) rows[r * dim + c] *= max_norm / (norm + 1e-7);
  }
  const torch::Tensor rescaled = floats(rows, {vocab, dim});
  CHECK_THAT(bounded->weight.detach(), AllClose(rescaled, 1e-5, 1e-6));
  CHECK_THAT(bounded_out, AllClose(lookup_oracle(rescaled, drawn_ids), 1e-5, 1e-6));
}

TEST_CASE("from_pretrained looks up the given table and freezes it by default", "[points=5][embedding][pretrained]") {
  const torch::Tensor vectors = random_tensor({random_int(3, 7), random_int(2, 5)});
  const torch::Tensor ids = random_ids({4}, vectors.size(0));
  auto frozen = nn::Embedding::from_pretrained(vectors);
  CHECK_FALSE(frozen->weight.requires_grad());
  CHECK_THAT(frozen(ids), Equals(lookup_oracle(vectors, ids)));
  CHECK_FALSE(frozen(ids).requires_grad());
  auto tuned = nn::Embedding::from_pretrained(vectors.clone(), nn::EmbeddingFromPretrainedOptions().freeze(false));
  CHECK(tuned->weight.requires_grad());
  tuned(ids).sum().backward();
  CHECK(tuned->weight.grad().sum().item<double>() == Approx(static_cast<double>(ids.numel() * vectors.size(1))));
  CHECK_THROWS_WITH(nn::Embedding::from_pretrained(torch::ones({3})),
                    "Embeddings parameter is expected to be 2-dimensional");
}

// ---------------------------------------------------------------------------------------------
// Lesson section 5: sinusoidal positions (positional_encoding.cpp, sinusoidal_table and forward)
// ---------------------------------------------------------------------------------------------

TEST_CASE("the sinusoidal table follows Vaswani et al.", "[points=12][positions][sinusoidal]") {
  nn::SinusoidalPositionalEncoding small(10, 8);
  const torch::Tensor table = small(torch::zeros({10, 8}));  // zeros + table = the table
  CHECK(table.scalar_type() == torch::kFloat);
  // Position 0: every sine is 0 and every cosine 1.
  CHECK_THAT(table[0], Equals(floats({0, 1, 0, 1, 0, 1, 0, 1}, {8})));
  // The first pair turns one radian per position: row 1 starts [sin 1, cos 1].
  CHECK_THAT(table[1].narrow(0, 0, 2), AllClose(floats({std::sin(1.0), std::cos(1.0)}, {2}), 1e-6, 1e-6));
  CHECK_THAT(table, AllClose(sinusoid_oracle(10, 8), 1e-5, 1e-5));
  // Other sizes, an odd width (ends with a sine column) and a drawn one.
  CHECK_THAT(nn::SinusoidalPositionalEncoding(5, 7)(torch::zeros({5, 7})), AllClose(sinusoid_oracle(5, 7), 1e-5, 1e-5));
  const int64_t len = random_int(20, 60), dim = 2 * random_int(4, 12);
  CHECK_THAT(nn::SinusoidalPositionalEncoding(len, dim)(torch::zeros({len, dim})),
             AllClose(sinusoid_oracle(len, dim), 1e-5, 1e-5));
  // It is a buffer, not a parameter: saved with the model, never trained.
  CHECK(small->parameters().empty());
  CHECK(small->named_buffers().contains("table"));
}

TEST_CASE("positional encodings add position start_pos + t to row t", "[points=10][positions][start_pos]") {
  const int64_t len = random_int(12, 20), dim = 2 * random_int(2, 5), steps = random_int(3, 6);
  const torch::Tensor x = random_tensor({2, steps, dim});
  nn::SinusoidalPositionalEncoding sinusoid(len, dim);
  nn::LearnedPositionalEmbedding learned(len, dim);
  const torch::Tensor learned_table = learned->embedding->weight.detach();
  const torch::Tensor table = sinusoid_oracle(len, dim);
  for (int64_t start : {int64_t(0), int64_t(2), len - steps}) {
    CHECK_THAT(sinusoid(x, start), AllClose(x + table.narrow(0, start, steps), 1e-5, 1e-5));
    CHECK_THAT(learned(x, start), AllClose(x + learned_table.narrow(0, start, steps), 1e-6, 1e-6));
  }
  // Generation feeds one token at a time: token t must get position t, as in the full sequence.
  const torch::Tensor whole = learned(x);
  for (int64_t t = 0; t < steps; ++t) {
    CHECK_THAT(learned(x.narrow(1, t, 1), t), AllClose(whole.narrow(1, t, 1), 1e-6, 1e-6));
    CHECK_THAT(sinusoid(x.narrow(1, t, 1), t), AllClose(sinusoid(x).narrow(1, t, 1), 1e-6, 1e-6));
  }
  CHECK_THROWS_WITH(learned(x, len - steps + 1), Catch::Contains("max_len=" + std::to_string(len)));
  CHECK_THROWS_WITH(sinusoid(x, -1), Catch::Contains("start_pos must be non-negative"));
}

// ---------------------------------------------------------------------------------------------
// Lesson section 6: learned positions (positional_encoding.cpp, LearnedPositionalEmbeddingImpl::forward)
// ---------------------------------------------------------------------------------------------

TEST_CASE("learned positions are an embedding of positions trained by the scatter-add", "[points=8][positions][learned]") {
  const int64_t len = random_int(8, 16), dim = random_int(2, 6), steps = random_int(2, 5), batch = 3;
  nn::LearnedPositionalEmbedding learned(len, dim);
  CHECK(learned->parameters().size() == 1);
  CHECK(learned->parameters()[0].sizes().vec() == Sizes{len, dim});
  const torch::Tensor x = random_tensor({batch, steps, dim});
  const int64_t start = random_int(0, len - steps);
  learned(x, start).sum().backward();
  // Every used position's row gets one gradient per sequence in the batch; the others none.
  const torch::Tensor grad = learned->embedding->weight.grad();
  for (int64_t p = 0; p < len; ++p) {
    const bool used = p >= start && p < start + steps;
    CHECK_THAT(grad[p], Equals(torch::full({dim}, used ? double(batch) : 0.0)));
  }
  CHECK(tinytorch::testing::printed(*learned).find("LearnedPositionalEmbedding(max_len=" + std::to_string(len)) !=
        std::string::npos);
}

TEST_CASE("token and position embeddings train together on a copy task", "[points=8][integration]") {
  // Predict each token back from its embedding (a linear read-out): a few SGD steps lower the loss,
  // and only the scatter-add gradient moves the table.
  torch::manual_seed(random_int(0, 1000));
  const int64_t vocab = 12, dim = 16, steps = 6;
  nn::Embedding tokens(vocab, dim);
  nn::LearnedPositionalEmbedding positions(steps, dim);
  nn::Linear readout(dim, vocab);
  std::vector<torch::Tensor> params = tokens->parameters();
  for (const auto& p : positions->parameters()) params.push_back(p);
  for (const auto& p : readout->parameters()) params.push_back(p);
  torch::optim::Adam adam(params, torch::optim::AdamOptions(0.05));
  const torch::Tensor ids = random_ids({4, steps}, vocab);
  auto loss_now = [&] {
    const torch::Tensor logits = readout(positions(tokens(ids)));
    return F::cross_entropy(logits.reshape({-1, vocab}), ids.reshape({-1}));
  };
  const double first = loss_now().item<double>();
  // The starting tables (drawn by the seeded initialisation), for the check at the end.
  const std::vector<double> token_rows = values_of(tokens->weight.detach()),
                            position_rows = values_of(positions->embedding->weight.detach()),
                            readout_weight = values_of(readout->weight.detach()),
                            readout_bias = values_of(readout->bias.detach());
  for (int step = 0; step < 60; ++step) {
    adam.zero_grad();
    loss_now().backward();
    adam.step();
  }
  const double last = loss_now().item<double>();
  CHECK(last < 0.2 * first);
  // The first loss is the definition's on the drawn ids and the starting tables: token row + position
  // row, read out, cross-entropy against the token itself, averaged, worked out here in double.
  double expected_first = 0;
  const std::vector<int64_t> picked = ids_of(ids);
  for (size_t i = 0; i < picked.size(); ++i) {
    const int64_t t = static_cast<int64_t>(i) % steps;
    std::vector<double> logits(vocab);
    for (int64_t v = 0; v < vocab; ++v) {
      logits[v] = readout_bias[v];
      for (int64_t c = 0; c < dim; ++c)
        logits[v] += readout_weight[v * dim + c] * (token_rows[picked[i] * dim + c] + position_rows[t * dim + c]);
    }
    double top = logits[0];
    for (const double z : logits) top = std::max(top, z);
    double total = 0;
    for (const double z : logits) total += std::exp(z - top);
    expected_first += (top + std::log(total) - logits[picked[i]]) / static_cast<double>(picked.size());
  }
  CHECK(first == Approx(expected_first));
}
