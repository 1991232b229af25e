// dtypes, Scalar, TypeMeta printing and PyTorch's type promotion.
#include <catch2/catch.hpp>

#include <sstream>

#include "test_helpers.h"

using test_helpers::values;
using V = std::vector<double>;

namespace {
}  // namespace

TEST_CASE("dtype names and sizes match LibTorch", "[dtype]") {
  REQUIRE(test_helpers::printed(torch::ones({1}).dtype()) == "float");
  REQUIRE(test_helpers::printed(torch::ones({1}, torch::kLong).dtype()) == "long int");
  REQUIRE(test_helpers::printed(torch::ones({1}, torch::kBool).dtype()) == "bool");
  REQUIRE(test_helpers::printed(torch::ones({1}, torch::kDouble).dtype()) == "double");
  REQUIRE(test_helpers::printed(torch::kFloat) == "Float");
  REQUIRE(std::string(torch::toString(torch::kLong)) == "Long");
  REQUIRE(torch::ones({1}).toString() == "CPUFloatType");
  REQUIRE(torch::ones({3}, torch::kDouble).element_size() == 8);
  REQUIRE(torch::ones({3}, torch::kBool).itemsize() == 1);
  REQUIRE(torch::ones({3}).nbytes() == 12);
  REQUIRE(torch::ones({2}).options().dtype() == torch::kFloat);
  REQUIRE(test_helpers::printed(torch::ones({2, 3}).sizes()) == "[2, 3]");
}

TEST_CASE("tensor-tensor promotion follows bool < long < float < double", "[dtype][promotion]") {
  auto b = torch::ones({2}, torch::kBool), l = torch::ones({2}, torch::kLong);
  auto f = torch::ones({2}), d = torch::ones({2}, torch::kDouble);
  REQUIRE((b + b).dtype() == torch::kBool);
  REQUIRE((b + l).dtype() == torch::kLong);
  REQUIRE((l + f).dtype() == torch::kFloat);
  REQUIRE((f * d).dtype() == torch::kDouble);
  REQUIRE((l * l).dtype() == torch::kLong);
}

TEST_CASE("tensor-scalar promotion: a number only changes the kind", "[dtype][promotion]") {
  auto l = torch::ones({2}, torch::kLong);
  REQUIRE((l + 2.5).dtype() == torch::kFloat);  // default float, not double
  REQUIRE((l + 2).dtype() == torch::kLong);
  REQUIRE((torch::ones({2}, torch::kBool) + 1).dtype() == torch::kLong);
  REQUIRE((torch::ones({2}, torch::kDouble) + 2.5).dtype() == torch::kDouble);
  REQUIRE((torch::ones({2}) * 2).dtype() == torch::kFloat);
  // 0-dim tensors rank below dimensioned ones, above plain numbers.
  REQUIRE((torch::ones({2}) + torch::tensor(1.0, torch::kDouble)).dtype() == torch::kFloat);
  REQUIRE((l + torch::tensor(1.0, torch::kDouble)).dtype() == torch::kDouble);
  REQUIRE(torch::result_type(l, 2.5) == torch::kFloat);
}

TEST_CASE("division is true division; sums of integers are int64; comparisons are bool", "[dtype][promotion]") {
  auto l = torch::tensor({7, -7});
  REQUIRE((l / 2).dtype() == torch::kFloat);
  REQUIRE(values(l / 2) == V{3.5, -3.5});
  REQUIRE(torch::ones({2}, torch::kBool).sum().dtype() == torch::kLong);
  REQUIRE(torch::ones({2, 3}, torch::kLong).sum(0).dtype() == torch::kLong);
  REQUIRE((torch::ones({2}) > 0).dtype() == torch::kBool);
  REQUIRE(torch::ones({2}, torch::kLong).pow(2).dtype() == torch::kLong);
  REQUIRE(torch::ones({2}, torch::kLong).pow(0.5).dtype() == torch::kFloat);
  REQUIRE(torch::ones({2}, torch::kLong).exp().dtype() == torch::kFloat);
  REQUIRE(torch::ones({2}, torch::kLong).abs().dtype() == torch::kLong);
  REQUIRE(torch::ones({2}, torch::kLong).clamp(0.5).dtype() == torch::kFloat);
  REQUIRE(torch::ones({2, 3}).mean(torch::kDouble).dtype() == torch::kDouble);
  REQUIRE(torch::ones({2, 3}, torch::kLong).sum(0, false, torch::kFloat).dtype() == torch::kFloat);
}

TEST_CASE("bool arithmetic is logical", "[dtype]") {
  auto t = torch::tensor({true, true, false, false});
  auto u = torch::tensor({true, false, true, false});
  REQUIRE(values(t + u) == V{1, 1, 1, 0});
  REQUIRE(values(t * u) == V{1, 0, 0, 0});
}

TEST_CASE("to() converts, truncating toward zero, and returns self when nothing changes", "[dtype]") {
  auto x = torch::tensor({2.5, -2.5, 0.5});
  REQUIRE(values(x.to(torch::kLong)) == V{2, -2, 0});
  REQUIRE(values(torch::tensor({0.0, 2.0}).to(torch::kBool)) == V{0, 1});
  REQUIRE(x.to(torch::kFloat).is_same(x));
  REQUIRE_FALSE(x.to(torch::kFloat, false, true).is_same(x));
  REQUIRE(x.to(torch::kDouble).dtype() == torch::kDouble);
}

TEST_CASE("Scalar and item", "[dtype]") {
  REQUIRE(torch::tensor(2.5).item().toDouble() == 2.5);
  REQUIRE(torch::tensor(3).item().isIntegral(false));
  REQUIRE(torch::tensor(true).item().isBoolean());
  REQUIRE(test_helpers::printed(torch::tensor(3).item()) == "3");
  REQUIRE(test_helpers::printed(torch::tensor(true).item()) == "true");
  REQUIRE(torch::tensor({{4}}).item<int64_t>() == 4);
  REQUIRE(torch::tensor(7).item<float>() == 7.0f);
  REQUIRE(torch::Scalar(3).type() == torch::kLong);
  REQUIRE(torch::Scalar(3.0f).isFloatingPoint());
}
