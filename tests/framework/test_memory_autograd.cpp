// memory_footprint vs nbytes, the autograd surface before module 06, and the dispatch hook.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_helpers.h"

TEST_CASE("nbytes counts elements, memory_footprint counts the storage kept alive", "[memory]") {
  auto x = torch::zeros({1000});  // 4000 bytes
  REQUIRE(x.nbytes() == 4000);
  REQUIRE(x.memory_footprint() == 4000);
  auto small = x.narrow(0, 0, 10);
  REQUIRE(small.nbytes() == 40);
  REQUIRE(small.memory_footprint() == 4000);  // the view pins all of x's storage
  REQUIRE(small.clone().memory_footprint() == 40);
  REQUIRE(torch::ones({3}).expand({1000, 3}).nbytes() == 12000);
  REQUIRE(torch::ones({3}).expand({1000, 3}).memory_footprint() == 12);
  REQUIRE(torch::Tensor().memory_footprint() == 0);
}

TEST_CASE("memory_footprint of a group counts each storage once", "[memory]") {
  auto x = torch::zeros({1000});
  auto y = torch::zeros({100, 2}, torch::kDouble);  // 1600 bytes
  REQUIRE(torch::memory_footprint({x, y}) == 5600);
  REQUIRE(torch::memory_footprint({x, x.view({10, 100}), x.narrow(0, 5, 5), y, y.t()}) == 5600);
  REQUIRE(torch::memory_footprint({}) == 0);
  REQUIRE(torch::memory_footprint({torch::Tensor(), x}) == 4000);
}

TEST_CASE("undefined tensors", "[tensor]") {
  torch::Tensor t;
  REQUIRE_FALSE(t.defined());
  REQUIRE_THROWS_AS(t.sizes(), c10::Error);
  auto a = torch::ones({2});
  torch::Tensor b = a;  // a shallow copy: same impl
  REQUIRE(b.is_same(a));
  REQUIRE(a.use_count() == 2);
}

namespace {
// A stand-in for module 06's engine: remembers what the ops report.
struct RecordingLayer : tinytorch::AutogradLayer {
  std::vector<std::string> names;
  std::vector<int64_t> input_counts, output_counts;
  std::vector<std::vector<int64_t>> dims;
  std::vector<bool> keepdims;
  std::vector<double> alphas;
  tinytorch::Tensor none;
  std::shared_ptr<tinytorch::autograd::Node> no_node;

  void record(const tinytorch::OpRecord& op) override {
    names.emplace_back(op.name());
    input_counts.push_back(static_cast<int64_t>(op.inputs.size()));
    output_counts.push_back(static_cast<int64_t>(op.outputs.size()));
    dims.push_back(op.attributes.dims.vec());
    keepdims.push_back(op.attributes.keepdim);
    alphas.push_back(op.attributes.alpha.toDouble());
  }
  bool requires_grad(const tinytorch::Tensor&) const override { return true; }
  void set_requires_grad(const tinytorch::Tensor&, bool) override {}
  const tinytorch::Tensor& grad(const tinytorch::Tensor&) override { return none; }
  tinytorch::Tensor& mutable_grad(const tinytorch::Tensor&) override { return none; }
  void backward(const tinytorch::Tensor&, const tinytorch::Tensor&, std::optional<bool>, bool) override {}
  const std::shared_ptr<tinytorch::autograd::Node>& grad_fn(const tinytorch::Tensor&) override { return no_node; }
  bool is_leaf(const tinytorch::Tensor&) override { return false; }
  void retain_grad(const tinytorch::Tensor&) override {}
  bool retains_grad(const tinytorch::Tensor&) override { return true; }
  tinytorch::Tensor detach(const tinytorch::Tensor& t) override { return t; }
};

// Registers a layer (or none) for one test and always restores the one before: module 06's engine,
// which registers itself whenever it is linked, as it is into this binary.
struct ScopedLayer {
  explicit ScopedLayer(tinytorch::AutogradLayer* layer) : previous_(tinytorch::autograd_layer()) {
    tinytorch::set_autograd_layer(layer);
  }
  ~ScopedLayer() { tinytorch::set_autograd_layer(previous_); }
  ScopedLayer(const ScopedLayer&) = delete;
  ScopedLayer& operator=(const ScopedLayer&) = delete;

 private:
  tinytorch::AutogradLayer* previous_;
};
}  // namespace

TEST_CASE("no op records anything in module 01: no layer is registered", "[autograd][dispatch]") {
  ScopedLayer no_engine(nullptr);
  REQUIRE(tinytorch::autograd_layer() == nullptr);
  REQUIRE_FALSE(tinytorch::is_recording());
  auto x = torch::ones({2, 3});
  auto y = (x + 1).sum(0, true).mm(torch::ones({3, 1}));  // runs, and nothing anywhere is recorded
  REQUIRE(y.dim() == 2);
  REQUIRE_FALSE(y.requires_grad());
}

TEST_CASE("every public op reports itself through the one registration point", "[autograd][dispatch]") {
  RecordingLayer layer;
  ScopedLayer scope(&layer);
  auto a = torch::ones({2, 3});
  auto b = torch::ones({3});
  layer.names.clear();  // ones() fills through the given code, which may record fill_

  auto c = a.add(b, 2);
  auto s = c.sum({1}, true);
  auto m = a.mm(a.t());
  // Each op reports under the name its derivative is registered with: LibTorch's overload names.
  REQUIRE(layer.names == std::vector<std::string>{"add", "sum.dim_IntList", "transpose", "mm"});
  REQUIRE(layer.alphas[0] == 2);
  REQUIRE(layer.input_counts[0] == 2);
  REQUIRE(layer.dims[1] == std::vector<int64_t>{1});
  REQUIRE(layer.keepdims[1]);
  REQUIRE(a.requires_grad());  // the Tensor surface forwards to the layer
  REQUIRE_FALSE(a.is_leaf());
  REQUIRE_NOTHROW(a.backward());

  layer.names.clear();
  {
    torch::NoGradGuard no_grad;
    auto ignored = a * 2;
    REQUIRE_FALSE(tinytorch::is_recording());
  }
  REQUIRE(layer.names.empty());
  REQUIRE(tinytorch::GradMode::is_enabled());

  // matmul is composite: its pieces record, not matmul itself.
  layer.names.clear();
  auto v = a.matmul(torch::ones({3}));
  REQUIRE(layer.names == std::vector<std::string>{"unsqueeze", "mm", "squeeze.dim"});
  (void)s;
  (void)m;
  (void)v;
}

TEST_CASE("the autograd surface answers honestly or explains that autograd is module 06", "[autograd]") {
  ScopedLayer no_engine(nullptr);  // as in modules 01-05, before module 06 exists
  auto x = torch::ones({2});
  REQUIRE_FALSE(x.requires_grad());
  REQUIRE(x.is_leaf());
  REQUIRE_FALSE(x.retains_grad());
  REQUIRE(x.requires_grad_(false).is_same(x));  // a no-op, accepted
  auto d = x.detach();
  REQUIRE(d.is_alias_of(x));
  REQUIRE_FALSE(d.is_same(x));
  using Catch::Matchers::Contains;
  REQUIRE_THROWS_WITH(x.requires_grad_(), Contains("autograd arrives in module 06 (Autograd)"));
  REQUIRE_THROWS_WITH(x.set_requires_grad(true), Contains("requires_grad_(true)"));
  REQUIRE_THROWS_WITH(x.grad(), Contains("module 06"));
  REQUIRE_THROWS_WITH(x.mutable_grad(), Contains("module 06"));
  REQUIRE_THROWS_WITH(x.backward(), Contains("backward()"));
  REQUIRE_THROWS_WITH(x.grad_fn(), Contains("module 06"));
  REQUIRE_THROWS_WITH(x.retain_grad(), Contains("module 06"));
  REQUIRE_THROWS_WITH(torch::ones({2}, torch::requires_grad()), Contains("module 06"));
  REQUIRE_THROWS_WITH(torch::zeros({2}, torch::TensorOptions().requires_grad(true)), Contains("module 06"));
  REQUIRE_NOTHROW(torch::zeros({2}, torch::TensorOptions().requires_grad(false)));
  REQUIRE_THROWS_AS(x.backward(), tinytorch::Error);
}
