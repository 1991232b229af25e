// Module 04's given code: smooth_l1_loss, binary_cross_entropy_with_logits, the reduction helper,
// option builders and the loss modules. Expected numbers are LibTorch 1.13's outputs.
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;
namespace F = torch::nn::functional;
namespace nn = torch::nn;

namespace {
void require_close(const V& actual, const V& expected, double tolerance) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == Approx(expected[i]).epsilon(1e-5).margin(tolerance));
}
}  // namespace

TEST_CASE("smooth_l1_loss: quadratic below beta, linear above, L1 at beta 0", "[losses][smooth_l1]") {
  auto input = torch::zeros({3});
  auto target = torch::tensor({0.5, 3.0, -10.0});
  require_close(values(torch::smooth_l1_loss(input, target, at::Reduction::None)), V{0.125, 2.5, 9.5}, 1e-7);
  require_close(values(torch::smooth_l1_loss(input, target, at::Reduction::None, 0.0)), V{0.5, 3.0, 10.0}, 1e-7);
  // beta 2: 0.5^2 / 4 = 0.0625 and 3 - 1 = 2 -> mean 1.03125 (LibTorch's torch::smooth_l1_loss)
  CHECK(values(torch::smooth_l1_loss(torch::zeros({2}), torch::tensor({0.5, 3.0}), at::Reduction::Mean, 2.0))[0] ==
        Approx(1.03125));
  CHECK(values(F::smooth_l1_loss(input, target, F::SmoothL1LossFuncOptions().reduction(torch::kSum)))[0] ==
        Approx(12.125));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(values(torch::smooth_l1_loss(torch::tensor({inf}), torch::tensor({0.0f}), at::Reduction::None))[0] == inf);
  CHECK_THROWS_WITH(torch::smooth_l1_loss(input, target, at::Reduction::Mean, -1.0),
                    "smooth_l1_loss does not support negative values for beta.");
  CHECK_THROWS_WITH(torch::smooth_l1_loss(torch::tensor({1}), torch::tensor({2})),
                    "\"smooth_l1_cpu\" not implemented for 'Long'");
  nn::SmoothL1Loss module(nn::SmoothL1LossOptions().beta(2.0));
  CHECK(test_helpers::printed(module) == "torch::nn::SmoothL1Loss");
  CHECK(values(module(torch::zeros({2}), torch::tensor({0.5, 3.0})))[0] == Approx(1.03125));
}

TEST_CASE("binary_cross_entropy_with_logits is stable at +-1000 and supports pos_weight", "[losses][bce_logits]") {
  auto z = torch::tensor({-1000.0, -2.0, 0.0, 3.0, 1000.0});
  auto y = torch::tensor({1.0, 0.0, 1.0, 1.0, 0.0});
  require_close(values(torch::binary_cross_entropy_with_logits(z, y, {}, {}, at::Reduction::None)),
                V{1000.0, 0.1269280, 0.6931472, 0.0485874, 1000.0}, 1e-6);
  auto options = F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(torch::tensor({2.0})).reduction(torch::kNone);
  require_close(values(F::binary_cross_entropy_with_logits(z, y, options)),
                V{2000.0, 0.1269280, 1.3862944, 0.0971749, 1000.0}, 1e-6);
  // Same loss as binary_cross_entropy(sigmoid(z)) where the sigmoid does not saturate.
  auto moderate = torch::tensor({-2.0, 0.5, 3.0});
  auto labels = torch::tensor({0.0, 1.0, 1.0});
  CHECK(values(F::binary_cross_entropy_with_logits(moderate, labels))[0] ==
        Approx(values(F::binary_cross_entropy(torch::sigmoid(moderate), labels))[0]).epsilon(1e-5));
  CHECK_THROWS_WITH(F::binary_cross_entropy_with_logits(z, torch::tensor({1.0})),
                    "Target size ([1]) must be the same as input size ([5])");
  nn::BCEWithLogitsLoss module(nn::BCEWithLogitsLossOptions().pos_weight(torch::tensor({2.0})).reduction(torch::kSum));
  CHECK(values(module(z, y))[0] == Approx(2000.0 + 0.1269280 + 1.3862944 + 0.0971749 + 1000.0));
  CHECK(module->named_buffers().contains("pos_weight"));
}

TEST_CASE("loss reductions and option builders", "[losses][options]") {
  auto loss = torch::tensor({1.0, 2.0, 6.0});
  CHECK(values(torch::native::apply_loss_reduction(loss, at::Reduction::Mean)) == V{3.0});
  CHECK(values(torch::native::apply_loss_reduction(loss, at::Reduction::Sum)) == V{9.0});
  CHECK(torch::native::apply_loss_reduction(loss, at::Reduction::None).is_same(loss));
  CHECK_THROWS_WITH(torch::mse_loss(loss, loss, 7), "Unknown reduction: 7 (use at::Reduction::None, Mean or Sum)");
  CHECK(torch::enumtype::reduction_get_enum(nn::MSELossOptions().reduction()) == at::Reduction::Mean);
  CHECK(torch::enumtype::reduction_get_enum(nn::MSELossOptions(torch::kNone).reduction()) == at::Reduction::None);
  auto ce = nn::CrossEntropyLossOptions().ignore_index(3).label_smoothing(0.2).reduction(torch::kSum);
  CHECK(ce.ignore_index() == 3);
  CHECK(ce.label_smoothing() == 0.2);
  CHECK(torch::enumtype::reduction_get_enum(ce.reduction()) == at::Reduction::Sum);
  CHECK(nn::NLLLossOptions().ignore_index() == -100);
  CHECK(nn::SmoothL1LossOptions().beta() == 1.0);
}

TEST_CASE("loss modules keep class weights as buffers and clone them", "[losses][modules]") {
  nn::CrossEntropyLoss ce(nn::CrossEntropyLossOptions().weight(torch::tensor({1.0, 2.0, 3.0})));
  REQUIRE(ce->named_buffers().contains("weight"));
  auto copy = std::dynamic_pointer_cast<nn::CrossEntropyLossImpl>(ce->clone());
  REQUIRE(copy != nullptr);
  CHECK(values(copy->weight) == V{1.0, 2.0, 3.0});
  CHECK_FALSE(copy->weight.is_same(ce->weight));
  auto logits = torch::tensor({{1.0, 2.0, 3.0}, {1.0, 1.0, 1.0}});
  CHECK(values(ce(logits, torch::tensor({2, 0})))[0] == Approx(0.5803575).epsilon(1e-5));
  CHECK(values((*copy).forward(logits, torch::tensor({2, 0})))[0] == Approx(0.5803575).epsilon(1e-5));
}
