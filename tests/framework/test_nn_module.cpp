// nn::Module, ModuleHolder, OrderedDict and Cloneable: the given infrastructure of module 03.
// Error messages are LibTorch 1.13's where LibTorch has the same check.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace nn = torch::nn;
using Names = std::vector<std::string>;

namespace {

// A leaf with one parameter and one buffer, so that trees have something to collect.
struct ScaleImpl : nn::Cloneable<ScaleImpl> {
  explicit ScaleImpl(int64_t n) : n(n) { reset(); }
  void reset() override {
    scale = register_parameter("scale", torch::ones({n}));
    calls = register_buffer("calls", torch::zeros({1}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return x * scale; }
  int64_t n;
  torch::Tensor scale, calls;
};
TORCH_MODULE(Scale);

struct TreeImpl : nn::Cloneable<TreeImpl> {
  TreeImpl() { reset(); }
  void reset() override {
    first = register_module("first", Scale(2));
    second = register_module("second", Scale(3));
    offset = register_parameter("offset", torch::zeros({1}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return first(x) + offset; }
  Scale first = nullptr, second = nullptr;
  torch::Tensor offset;
};
TORCH_MODULE(Tree);

struct PlainImpl : nn::Module {
  torch::Tensor forward(const torch::Tensor& x) { return x; }
};
TORCH_MODULE(Plain);

}  // namespace

TEST_CASE("OrderedDict keeps insertion order and names missing keys", "[nn][ordered_dict]") {
  torch::OrderedDict<std::string, int> dict("Thing");
  dict.insert("b", 2);
  dict.insert("a", 1);
  CHECK(dict.keys() == Names{"b", "a"});
  CHECK(dict.values() == std::vector<int>{2, 1});
  CHECK(dict["a"] == 1);
  CHECK(dict[0].key() == "b");
  CHECK(dict.contains("a"));
  CHECK(dict.find("zz") == nullptr);
  std::string joined;
  for (const auto& [key, value] : dict) joined += key + std::to_string(value);
  CHECK(joined == "b2a1");
  REQUIRE_THROWS_WITH(dict.insert("a", 5), "Thing 'a' already defined");
  REQUIRE_THROWS_WITH(dict["zz"], "Thing 'zz' is not defined");
  REQUIRE_THROWS_WITH(dict[7], "Index 7 is out of bounds");
  dict.erase("b");
  CHECK(dict.keys() == Names{"a"});
  CHECK(dict["a"] == 1);
}

TEST_CASE("parameters, buffers and children are collected recursively by path", "[nn][module]") {
  Tree tree;
  CHECK(tree->named_parameters().keys() == Names{"offset", "first.scale", "second.scale"});
  CHECK(tree->named_parameters(/*recurse=*/false).keys() == Names{"offset"});
  CHECK(tree->parameters().size() == 3);
  CHECK(tree->named_buffers().keys() == Names{"first.calls", "second.calls"});
  CHECK(tree->buffers(/*recurse=*/false).empty());
  CHECK(tree->named_children().keys() == Names{"first", "second"});
  CHECK(tree->children().size() == 2);
  CHECK(tree->named_modules().keys() == Names{"", "first", "second"});
  CHECK(tree->modules(/*include_self=*/false).size() == 2);
  CHECK(tree->modules()[0].get() == tree.get());
  // The collected tensors are the members: same storage.
  CHECK(tree->named_parameters()["first.scale"].data_ptr() == tree->first->scale.data_ptr());
}

TEST_CASE("registration checks names like LibTorch", "[nn][module][errors]") {
  Tree tree;
  REQUIRE_THROWS_WITH(tree->register_parameter("", torch::ones({1})), "Parameter name must not be empty");
  REQUIRE_THROWS_WITH(tree->register_parameter("a.b", torch::ones({1})),
                      "Parameter name must not contain a dot (got 'a.b')");
  REQUIRE_THROWS_WITH(tree->register_parameter("offset", torch::ones({1})), "Parameter 'offset' already defined");
  REQUIRE_THROWS_WITH(tree->register_buffer("x.y", torch::ones({1})), "Buffer name must not contain a dot (got 'x.y')");
  REQUIRE_THROWS_WITH(tree->register_module("", Scale(1)), "Submodule name must not be empty");
  REQUIRE_THROWS_WITH(tree->register_module("first", Scale(1)), "Submodule 'first' already defined");
  REQUIRE_THROWS_WITH(tree->named_parameters()["nope"], "Key 'nope' is not defined");
}

TEST_CASE("register_parameter accepts requires_grad before autograd exists", "[nn][module]") {
  // Module 06 turns requires_grad on; until then registering must not throw and must keep the tensor.
  // This binary links module 06, whose engine registered itself: take it away for this test.
  tinytorch::AutogradLayer* const engine = tinytorch::autograd_layer();
  tinytorch::set_autograd_layer(nullptr);
  struct Restore {
    tinytorch::AutogradLayer* layer;
    ~Restore() { tinytorch::set_autograd_layer(layer); }
  } restore{engine};
  PlainImpl plain;
  torch::Tensor w = torch::ones({2});
  torch::Tensor& stored = plain.register_parameter("w", w, /*requires_grad=*/true);
  CHECK(stored.data_ptr() == w.data_ptr());
  CHECK_FALSE(w.requires_grad());
  // An undefined tensor is an absent parameter (Linear without bias): parameters() skips it.
  plain.register_parameter("absent", torch::Tensor(), /*requires_grad=*/false);
  CHECK(plain.named_parameters().keys() == Names{"w"});
}

TEST_CASE("train and eval reach every module of the tree", "[nn][module]") {
  Tree tree;
  CHECK(tree->is_training());
  tree->eval();
  CHECK_FALSE(tree->is_training());
  CHECK_FALSE(tree->first->is_training());
  CHECK_FALSE(tree->second->is_training());
  tree->train();
  CHECK(tree->second->is_training());
  tree->train(false);
  CHECK_FALSE(tree->first->is_training());
}

TEST_CASE("ModuleHolder shares its module, calls forward and has an empty state", "[nn][pimpl]") {
  Scale a(2);
  Scale b = a;  // a copy of the holder shares the module
  CHECK(b.get() == a.get());
  {
    torch::NoGradGuard no_grad;  // a parameter requires grad: edit it outside the graph, as in LibTorch
    a->scale.fill_(3);
  }
  CHECK(test_helpers::values(b(torch::ones({2}))) == std::vector<double>{3, 3});
  CHECK(test_helpers::values(b->forward(torch::ones({2}))) == std::vector<double>{3, 3});
  CHECK((*a).n == 2);
  CHECK(a.ptr().use_count() >= 2);
  CHECK_FALSE(a.is_empty());

  Scale empty = nullptr;
  CHECK(empty.is_empty());
  CHECK_FALSE(static_cast<bool>(empty));
  REQUIRE_THROWS_WITH(empty->scale, "Accessing empty ModuleHolder");
  REQUIRE_THROWS_WITH(empty(torch::ones({2})), "Accessing empty ModuleHolder");

  Scale wrapped(std::make_shared<ScaleImpl>(4));
  CHECK(wrapped->n == 4);
  Plain plain;  // default-constructible modules need no arguments
  CHECK(plain->name() == "(anonymous namespace)::PlainImpl");
}

TEST_CASE("modules print as a tree with LibTorch's layout", "[nn][printing]") {
  Tree tree;
  std::ostringstream text;
  text << tree;
  CHECK(text.str() ==
        "(anonymous namespace)::TreeImpl(\n"
        "  (first): (anonymous namespace)::ScaleImpl\n"
        "  (second): (anonymous namespace)::ScaleImpl\n"
        ")");
  std::ostringstream sequential;
  sequential << nn::Sequential(nn::Flatten(), nn::Dropout(0.25));
  CHECK(sequential.str() ==
        "torch::nn::Sequential(\n"
        "  (0): torch::nn::Flatten(start_dim=1, end_dim=-1)\n"
        "  (1): torch::nn::Dropout(p=0.25, inplace=false)\n"
        ")");
  CHECK(nn::Flatten()->name() == "torch::nn::FlattenImpl");
}

TEST_CASE("clone copies values into fresh storage, through the whole tree", "[nn][cloneable]") {
  Tree tree;
  {
    torch::NoGradGuard no_grad;  // a parameter requires grad: edit it outside the graph, as in LibTorch
    tree->first->scale.fill_(5);
  }
  tree->eval();
  auto copy = std::dynamic_pointer_cast<TreeImpl>(tree->clone());
  REQUIRE(copy != nullptr);
  CHECK(test_helpers::values(copy->first->scale) == std::vector<double>{5, 5});
  CHECK(copy->first->scale.data_ptr() != tree->first->scale.data_ptr());
  CHECK(copy->named_parameters()["first.scale"].data_ptr() == copy->first->scale.data_ptr());
  CHECK_FALSE(copy->first->is_training());
  {
    torch::NoGradGuard no_grad;
    tree->first->scale.fill_(1);
  }
  CHECK(test_helpers::values(copy->first->scale) == std::vector<double>{5, 5});

  PlainImpl plain;
  REQUIRE_THROWS_WITH(plain.clone(), "clone() has not been implemented for (anonymous namespace)::PlainImpl. Subclass "
                                     "torch::nn::Cloneable<(anonymous namespace)::PlainImpl> instead of "
                                     "torch::nn::Module to inherit the ability to clone.");
}

TEST_CASE("modules() needs the top module to be owned by a shared_ptr", "[nn][module][errors]") {
  TreeImpl on_stack;
  CHECK(on_stack.modules(/*include_self=*/false).size() == 2);
  REQUIRE_THROWS_WITH(on_stack.modules(), Catch::Matchers::StartsWith("It looks like you attempted to retrieve your "
                                                                      "top-level module as a shared_ptr"));
}
