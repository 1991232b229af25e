// Module 16's given parts: torch::linalg::svd / torch::svd (shapes, reconstruction, orthogonality,
// rank-deficient and batched inputs, errors), torch::kl_div / F::kl_div / nn::KLDivLoss (reductions,
// zero targets, gradient), and torch::nn::utils::prune's bookkeeping (hooks through containers,
// optimizers built before pruning, remove, errors), sparsity_report and factorize_linear's checks.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
using test_helpers::shape;
using test_helpers::values;
namespace nn = torch::nn;
namespace F = torch::nn::functional;
namespace prune = torch::nn::utils::prune;

double max_abs(const Tensor& t) { return t.abs().max().item<double>(); }

// U diag(S) Vh for (*, m, k), (*, k), (*, k, n).
Tensor rebuild(const Tensor& U, const Tensor& S, const Tensor& Vh) { return (U * S.unsqueeze(-2)).matmul(Vh); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("svd: reduced factors rebuild tall, wide and square matrices", "[compression][svd]") {
  torch::manual_seed(16);
  for (auto sizes : std::vector<std::vector<int64_t>>{{7, 4}, {4, 7}, {5, 5}, {1, 6}, {6, 1}}) {
    const Tensor A = torch::randn(sizes, torch::kDouble);
    auto [U, S, Vh] = torch::linalg::svd(A, false);
    const int64_t k = std::min(sizes[0], sizes[1]);
    CHECK(shape(U) == std::vector<int64_t>{sizes[0], k});
    CHECK(shape(S) == std::vector<int64_t>{k});
    CHECK(shape(Vh) == std::vector<int64_t>{k, sizes[1]});
    CHECK(max_abs(rebuild(U, S, Vh) - A) < 1e-12);
    CHECK(max_abs(U.t().mm(U) - torch::eye(k, torch::kDouble)) < 1e-12);
    CHECK(max_abs(Vh.mm(Vh.t()) - torch::eye(k, torch::kDouble)) < 1e-12);
    const std::vector<double> s = values(S);
    for (size_t i = 1; i < s.size(); ++i) CHECK(s[i - 1] >= s[i]);
  }
}

TEST_CASE("svd: full matrices, rank deficiency, batches, float and torch::svd", "[compression][svd]") {
  // Rank 1: the second singular value is 0 and U still gets an orthonormal second column.
  const Tensor rank_one = torch::tensor({{1.0, 2.0}, {2.0, 4.0}, {3.0, 6.0}}, torch::kDouble);
  auto [U, S, Vh] = torch::linalg::svd(rank_one, true);
  CHECK(shape(U) == std::vector<int64_t>{3, 3});
  CHECK(shape(Vh) == std::vector<int64_t>{2, 2});
  CHECK(values(S)[0] == Approx(std::sqrt(70.0)));
  CHECK(std::abs(values(S)[1]) < 1e-12);
  CHECK(max_abs(U.t().mm(U) - torch::eye(3, torch::kDouble)) < 1e-12);
  CHECK(max_abs(U.narrow(1, 0, 2).mm(S.unsqueeze(1) * Vh) - rank_one) < 1e-12);
  // Zero matrix: S = 0, U and Vh orthonormal anyway.
  auto zero = torch::linalg::svd(torch::zeros({3, 2}, torch::kDouble), false);
  CHECK(max_abs(std::get<1>(zero)) == 0);
  CHECK(max_abs(std::get<0>(zero).t().mm(std::get<0>(zero)) - torch::eye(2, torch::kDouble)) < 1e-12);
  // Batched: each matrix on its own; float in, float out.
  const Tensor batch = torch::randn({2, 3, 5, 4});
  auto [Ub, Sb, Vhb] = torch::linalg::svd(batch, false);
  CHECK(shape(Sb) == std::vector<int64_t>{2, 3, 4});
  CHECK(Sb.scalar_type() == torch::kFloat);
  CHECK(max_abs(rebuild(Ub, Sb, Vhb) - batch) < 1e-5);
  // torch::svd returns V (Vh transposed); compute_uv false: zero U and V of the full sizes.
  auto [U2, S2, V2] = torch::svd(rank_one);
  CHECK(max_abs(rebuild(U2, S2, V2.t()) - rank_one) < 1e-12);
  auto [U3, S3, V3] = torch::svd(rank_one, true, false);
  CHECK(shape(U3) == std::vector<int64_t>{3, 3});
  CHECK(shape(V3) == std::vector<int64_t>{2, 2});
  CHECK(max_abs(U3) == 0);
  CHECK(values(torch::linalg::svdvals(rank_one))[0] == Approx(std::sqrt(70.0)));
}

TEST_CASE("svd: LibTorch's errors", "[compression][svd]") {
  CHECK(error_of([] { torch::linalg::svd(torch::ones({3})); }) ==
        "linalg.svd: The input tensor A must have at least 2 dimensions.");
  CHECK(error_of([] { torch::linalg::svd(torch::ones({2, 2}, torch::kLong)); }) ==
        "linalg.svd: Expected a floating point or complex tensor as input. Got Long");
  CHECK(error_of([] { torch::linalg::svd(torch::ones({2, 2}), false, "gesvdj"); })
            .find("only supported on CUDA") != std::string::npos);
}

TEST_CASE("kl_div: reductions, zero targets and the gradient", "[compression][kl_div]") {
  const Tensor log_p = torch::log_softmax(torch::tensor({{1.0, 2.0, 0.5}, {0.0, -1.0, 3.0}}, torch::kDouble), 1);
  const Tensor q = torch::tensor({{0.2, 0.5, 0.3}, {0.0, 0.1, 0.9}}, torch::kDouble);
  // Pointwise q (log q - log p), and 0 where q is 0.
  const std::vector<double> lp = values(log_p), qq = values(q);
  double total = 0;
  std::vector<double> pointwise;
  for (size_t i = 0; i < lp.size(); ++i) {
    pointwise.push_back(qq[i] == 0 ? 0.0 : qq[i] * (std::log(qq[i]) - lp[i]));
    total += pointwise.back();
  }
  const std::vector<double> none = values(F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kNone)));
  for (size_t i = 0; i < none.size(); ++i) CHECK(none[i] == Approx(pointwise[i]).margin(1e-15));
  CHECK(F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kSum)).item<double>() == Approx(total));
  CHECK(F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kBatchMean)).item<double>() == Approx(total / 2));
  CHECK(torch::kl_div(log_p, q).item<double>() == Approx(total / 6));  // Reduction::Mean: every element
  CHECK(F::kl_div(log_p, q.clamp(1e-300).log(), F::KLDivFuncOptions(torch::kSum).log_target(true)).item<double>() ==
        Approx(total));
  nn::KLDivLoss module{nn::KLDivLossOptions(torch::kBatchMean)};
  CHECK(module(log_p, q).item<double>() == Approx(total / 2));
  CHECK(test_helpers::printed(*module) == "torch::nn::KLDivLoss()");
  // d/d input = -target / N with batchmean; finite where the target is 0.
  const Tensor input = log_p.detach().clone().requires_grad_();
  F::kl_div(input, q, F::KLDivFuncOptions(torch::kBatchMean)).backward();
  CHECK(max_abs(input.grad() + q / 2) < 1e-15);
}

TEST_CASE("prune: the hook runs through containers and an earlier optimizer still trains", "[compression][prune]") {
  torch::manual_seed(3);
  nn::Sequential model(nn::Linear(4, 6), nn::Functional(torch::relu), nn::Linear(6, 2));
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));  // built BEFORE pruning
  prune::l1_unstructured(*model[0], "weight", 0.5);
  CHECK(prune::is_pruned(*model));
  CHECK_FALSE(prune::is_pruned(*model[2]));
  auto first = std::dynamic_pointer_cast<nn::LinearImpl>(model[0]);
  const Tensor mask = first->named_buffers()["weight_mask"].clone();
  const Tensor before = first->named_parameters()["weight_orig"].detach().clone();
  const Tensor x = torch::randn({8, 4});
  for (int step = 0; step < 3; ++step) {
    sgd.zero_grad();
    model->forward(x).pow(2).sum().backward();
    sgd.step();
  }
  model->forward(x);  // the hook refreshes weight from the stepped weight_orig
  const Tensor orig = first->named_parameters()["weight_orig"].detach();
  CHECK(max_abs((orig - before) * (1 - mask)) == 0);  // pruned entries of orig never moved
  CHECK(max_abs((orig - before) * mask) > 0);         // the kept ones did
  CHECK(max_abs(first->weight.detach() - orig * mask) == 0);
  auto report = torch::compression::sparsity_report(*model);
  REQUIRE(report.size() == 2);
  CHECK(report[0].name == "0.weight");
  CHECK(report[0].zeros == 12);
  CHECK(report[1].name == "2.weight");
  CHECK(torch::compression::global_sparsity(*model) == Approx(12.0 / 36.0));
  CHECK(torch::compression::sparsity(torch::tensor({0.0, 1.0, 0.0, 2.0})) == 0.5);
}

TEST_CASE("prune: bias, custom masks, remove and the errors", "[compression][prune]") {
  nn::Linear layer(3, 2);
  {
    torch::NoGradGuard no_grad;
    layer->bias.copy_(torch::tensor({0.5, -0.1}));
  }
  prune::l1_unstructured(*layer, "bias", 0.5);
  CHECK(values(layer->bias) == std::vector<double>{0.5f, 0.0});
  CHECK(layer->named_parameters().keys() == std::vector<std::string>{"weight", "bias_orig"});
  prune::custom_from_mask(*layer, "weight", torch::tensor({{1.0, 0.0, 1.0}, {0.0, 1.0, 1.0}}));
  CHECK(torch::compression::sparsity(layer->weight) >= 2.0 / 6.0);
  prune::remove(*layer, "weight");
  prune::remove(*layer, "bias");
  CHECK_FALSE(prune::is_pruned(*layer));
  CHECK(layer->named_buffers().size() == 0);
  CHECK(error_of([&] { prune::remove(*layer, "weight"); }) ==
        "Parameter 'weight' of module torch::nn::Linear(in_features=3, out_features=2, bias=true) has to be pruned "
        "before pruning can be removed");
  CHECK(error_of([&] { prune::l1_unstructured(*layer, "weight", 1.5); }).find("amount=1.5 should either be a float in "
                                                                               "the range [0, 1]") == 0);
  CHECK(error_of([&] { prune::l1_unstructured(*layer, "weights", 0.5); }).find("has no parameter 'weights'") !=
        std::string::npos);
  nn::BatchNorm1d norm(3);
  CHECK(error_of([&] { prune::l1_unstructured(*norm, "weight", 0.5); }).find("prune its Linear or Conv submodules") !=
        std::string::npos);
  CHECK(error_of([&] { prune::ln_structured(*layer, "weight", 0.5, 2, 2); }).find("Dimension out of range") == 0);
  CHECK(error_of([&] { torch::compression::factorize_linear(layer, 3); }).find("rank 3 is outside [1, 2]") !=
        std::string::npos);
  CHECK(error_of([] { torch::compression::distillation_loss(torch::ones({2, 3}), torch::ones({2, 4}),
                                                            torch::tensor({0, 1}), 2, 0.5); })
            .find("differ") != std::string::npos);
}
