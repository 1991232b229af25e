// nn containers: ModuleList, ModuleDict, AnyModule, Functional and Sequential with named children
// (registration, typed access, forward through type erasure, clone, printing, errors).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::printed;
using test_helpers::values;
using V = std::vector<double>;

namespace {
struct AddImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x, double amount) { return x + amount; }
};
TORCH_MODULE(Add);
}  // namespace

TEST_CASE("ModuleList registers its modules as children 0, 1, ... and gives typed access", "[nn][containers]") {
  torch::nn::ModuleList list(torch::nn::Linear(2, 3), torch::nn::ReLU());
  list->push_back(torch::nn::Linear(3, 1));
  CHECK(list->size() == 3);
  CHECK(list->parameters().size() == 4);
  CHECK(list->named_parameters().keys() == std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"});
  CHECK(list->ptr<torch::nn::LinearImpl>(2)->options.in_features() == 3);
  CHECK(list->at<torch::nn::LinearImpl>(0).options.out_features() == 3);
  CHECK(list[1]->name() == "torch::nn::ReLUImpl");
  CHECK_THROWS_WITH(list->ptr(3), Contains("Index out of range"));
  CHECK_THROWS_WITH(list->ptr<torch::nn::LinearImpl>(1), Contains("Attempted to cast module"));
  size_t count = 0;
  for (const auto& module : *list) count += module != nullptr ? 1 : 0;
  CHECK(count == 3);
  list->insert(0, torch::nn::Tanh());
  CHECK(list[0]->name() == "torch::nn::TanhImpl");
  CHECK(list->named_children().keys() == std::vector<std::string>{"0", "1", "2", "3"});
  CHECK(list->named_children()["1"].get() == list[1].get());
  CHECK(printed(*list).rfind("torch::nn::ModuleList(\n  (0): torch::nn::Tanh()", 0) == 0);
  auto copy = std::dynamic_pointer_cast<torch::nn::ModuleListImpl>(list->clone());
  REQUIRE(copy != nullptr);
  CHECK(copy->parameters()[0].data_ptr() != list->parameters()[0].data_ptr());
  CHECK(copy->parameters()[0].equal(list->parameters()[0]));
}

TEST_CASE("clone() keeps the dtype a module was converted to", "[nn][containers]") {
  torch::nn::Linear linear(3, 2);
  linear->to(torch::kDouble);
  auto copy = std::dynamic_pointer_cast<torch::nn::LinearImpl>(linear->clone());
  REQUIRE(copy != nullptr);
  CHECK(copy->weight.scalar_type() == torch::kDouble);
  CHECK(copy->weight.requires_grad());
  CHECK(copy->weight.equal(linear->weight));
  CHECK(copy->weight.data_ptr() != linear->weight.data_ptr());
}

TEST_CASE("ModuleDict keeps modules under keys in insertion order", "[nn][containers]") {
  std::vector<std::pair<std::string, std::shared_ptr<torch::nn::Module>>> named = {
      {"b", torch::nn::Linear(2, 2).ptr()}, {"a", torch::nn::ReLU().ptr()}};
  torch::nn::ModuleDict dict(named);
  CHECK(dict->keys() == std::vector<std::string>{"b", "a"});
  CHECK(dict->contains("a"));
  CHECK(dict->at<torch::nn::LinearImpl>("b").options.in_features() == 2);
  CHECK_THROWS_WITH(dict["missing"], Contains("'missing' is not defined"));
  dict->update({{"a", torch::nn::Tanh().ptr()}});  // replaces in place
  CHECK(dict["a"]->name() == "torch::nn::TanhImpl");
  CHECK(dict->size() == 2);
  auto popped = dict->pop("b");
  CHECK(popped->name() == "torch::nn::LinearImpl");
  CHECK(dict->keys() == std::vector<std::string>{"a"});
  CHECK(printed(*dict).rfind("torch::nn::ModuleDict(", 0) == 0);
}

TEST_CASE("AnyModule calls forward with the module's own argument types", "[nn][containers]") {
  torch::nn::AnyModule add(Add{});
  CHECK(values(add.forward(torch::ones({2}), 1.5)) == V{2.5, 2.5});
  CHECK(add.type_info() == typeid(AddImpl));
  CHECK_THROWS_WITH(add.forward(torch::ones({2})), Contains("forward() method expects 2 argument(s), but received 1"));
  CHECK_THROWS_WITH(add.forward(torch::ones({2}), 1), Contains("Attempted to cast AnyValue to double"));
  CHECK_THROWS_WITH(add.ptr<torch::nn::LinearImpl>(), Contains("Attempted to cast module"));
  torch::nn::AnyModule linear(torch::nn::Linear(3, 2));
  CHECK(linear.get<torch::nn::Linear>()->options.in_features() == 3);
  CHECK(linear.any_forward(torch::ones({1, 3})).get<torch::Tensor>().sizes().vec() == std::vector<int64_t>{1, 2});
  const torch::nn::AnyModule shared = linear;  // copies share the module, clone() copies it
  CHECK(shared.ptr().get() == linear.ptr().get());
  CHECK(linear.clone().ptr().get() != linear.ptr().get());
  CHECK_THROWS_WITH(torch::nn::AnyModule().forward(torch::ones({1})), Contains("empty AnyModule"));
}

TEST_CASE("Functional wraps functions, lambdas and bound arguments", "[nn][containers]") {
  torch::nn::Functional relu(torch::relu);
  torch::nn::Functional shift([](torch::Tensor x) { return x - 1; });
  torch::nn::Functional softmax(torch::softmax, /*dim=*/0, /*dtype=*/std::nullopt);
  const auto x = torch::tensor({-1.0, 2.0});
  CHECK(values(relu(x)) == V{0, 2});
  CHECK(values(shift(x)) == V{-2, 1});
  CHECK(softmax(x).sum().item<double>() == Approx(1.0));
  CHECK(printed(*relu) == "torch::nn::Functional()");
}

TEST_CASE("Sequential takes named children and any module", "[nn][containers]") {
  torch::nn::Sequential net({{"fc1", torch::nn::Linear(2, 3)},
                             {"act", torch::nn::Functional(torch::tanh)},
                             {"fc2", torch::nn::Linear(3, 1)}});
  CHECK(net->named_children().keys() == std::vector<std::string>{"fc1", "act", "fc2"});
  CHECK(net->named_parameters().keys() ==
        std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"});
  CHECK(net->forward(torch::ones({4, 2})).sizes().vec() == std::vector<int64_t>{4, 1});
  net->push_back("out", torch::nn::AnyModule(torch::nn::Sigmoid()));
  CHECK(net->size() == 4);
  CHECK(printed(*net).find("(act): torch::nn::Functional()") != std::string::npos);
  auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(net->clone());
  REQUIRE(copy != nullptr);
  CHECK(copy->named_children().keys() == net->named_children().keys());
  const auto input = torch::linspace(-1, 1, 8).reshape({4, 2});
  CHECK(copy->forward(input).equal(net->forward(input)));
}
