// The given parts of module 03's layers: options, registration, printing, Flatten, Sequential and
// nn::init. (What Linear and Dropout compute is graded in curriculum/03_layers.)
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace nn = torch::nn;
using Names = std::vector<std::string>;

namespace {
std::string printed(const nn::Module& module) {
  std::ostringstream text;
  text << module;
  return text.str();
}
}  // namespace

TEST_CASE("Linear options, registration and printing", "[nn][linear]") {
  nn::Linear fc(nn::LinearOptions(3, 2).bias(false));
  CHECK(fc->options.in_features() == 3);
  CHECK_FALSE(fc->options.bias());
  CHECK(fc->named_parameters().keys() == Names{"weight"});
  CHECK(printed(*fc) == "torch::nn::Linear(in_features=3, out_features=2, bias=false)");
  CHECK(fc->weight.sizes().vec() == std::vector<int64_t>{2, 3});
  REQUIRE_THROWS_WITH(nn::Linear(-1, 2), "Trying to create tensor with negative dimension -1: [2, -1]");
}

TEST_CASE("Dropout options and their checks", "[nn][dropout]") {
  nn::Dropout drop;
  CHECK(drop->options.p() == 0.5);
  CHECK_FALSE(drop->options.inplace());
  CHECK(drop->parameters().empty());
  CHECK(printed(*nn::Dropout(nn::DropoutOptions().p(0.2).inplace(true))) == "torch::nn::Dropout(p=0.2, inplace=true)");
  REQUIRE_THROWS_WITH(nn::Dropout(1.5), "dropout probability has to be between 0 and 1, but got 1.5");
  REQUIRE_THROWS_WITH(nn::Dropout(-0.5), "dropout probability has to be between 0 and 1, but got -0.5");
}

TEST_CASE("Flatten merges start_dim..end_dim", "[nn][flatten]") {
  auto x = torch::arange(0, 24).reshape({2, 3, 4});
  CHECK(nn::Flatten()(x).sizes().vec() == std::vector<int64_t>{2, 12});
  CHECK(nn::Flatten(nn::FlattenOptions().start_dim(0).end_dim(1))(x).sizes().vec() == std::vector<int64_t>{6, 4});
  CHECK(test_helpers::values(nn::Flatten()(x)) == test_helpers::values(x));
  CHECK(printed(*nn::Flatten(nn::FlattenOptions().start_dim(2))) == "torch::nn::Flatten(start_dim=2, end_dim=-1)");
}

TEST_CASE("Sequential appends, indexes, chains and clones", "[nn][sequential]") {
  nn::Sequential seq;
  CHECK(seq->is_empty());
  REQUIRE_THROWS_WITH(seq(torch::ones({1})), "Cannot call forward() on an empty Sequential");
  seq->push_back(nn::Flatten());
  seq->push_back(std::make_shared<nn::FlattenImpl>(nn::FlattenOptions().start_dim(0)));
  seq->push_back("last", nn::FlattenImpl(nn::FlattenOptions().start_dim(0)));
  CHECK(seq->size() == 3);
  CHECK(seq->named_children().keys() == Names{"0", "1", "last"});
  CHECK(seq(torch::ones({2, 3, 4})).sizes().vec() == std::vector<int64_t>{24});
  CHECK(seq[1]->name() == "torch::nn::FlattenImpl");
  CHECK(seq->ptr<nn::FlattenImpl>(1)->options.start_dim() == 0);
  CHECK(seq->at<nn::FlattenImpl>(0).options.start_dim() == 1);
  REQUIRE_THROWS_WITH(seq->ptr(3), "Index out of range");
  REQUIRE_THROWS_WITH(seq->ptr<nn::DropoutImpl>(0),
                      "Attempted to cast module of type torch::nn::FlattenImpl to type torch::nn::DropoutImpl");

  auto copy = std::dynamic_pointer_cast<nn::SequentialImpl>(seq->clone());
  REQUIRE(copy != nullptr);
  CHECK(copy->size() == 3);
  CHECK(copy->ptr(0).get() != seq->ptr(0).get());
  CHECK(copy->forward(torch::ones({2, 3, 4})).sizes().vec() == std::vector<int64_t>{24});
}

TEST_CASE("nn::init fills in place from the seeded generator", "[nn][init]") {
  auto w = torch::empty({20, 50});
  const void* storage = w.data_ptr();
  torch::manual_seed(0);
  nn::init::uniform_(w, -0.25, 0.25);
  CHECK(w.data_ptr() == storage);
  for (double v : test_helpers::values(w)) CHECK((v >= -0.25 && v < 0.25));
  auto again = torch::empty({20, 50});
  torch::manual_seed(0);
  nn::init::uniform_(again, -0.25, 0.25);
  CHECK(test_helpers::values(again) == test_helpers::values(w));

  // kaiming_uniform_ with a = sqrt(5) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)): fan_in = 50 here.
  nn::init::kaiming_uniform_(w, std::sqrt(5.0));
  double largest = 0;
  for (double v : test_helpers::values(w)) largest = std::max(largest, std::abs(v));
  CHECK(largest <= 1.0 / std::sqrt(50.0) + 1e-7);
  CHECK(largest > 0.9 / std::sqrt(50.0));
  CHECK(nn::init::_calculate_fan_in_and_fan_out(torch::empty({4, 3, 5, 5})) == std::pair<int64_t, int64_t>{75, 100});
  REQUIRE_THROWS_WITH(nn::init::_calculate_fan_in_and_fan_out(torch::empty({4})),
                      "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  nn::init::constant_(w, 0.5);
  CHECK(test_helpers::values(w)[999] == 0.5);
}
