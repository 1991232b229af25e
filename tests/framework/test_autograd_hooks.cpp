// Tensor::register_hook / remove_hook / retain_grad: hooks on leaves and non-leaves, in
// registration order (retain_grad among them, as in LibTorch 1.13), replacing or observing the
// gradient, and LibTorch's errors.
#include <catch2/catch.hpp>

#include <vector>

#include "test_helpers.h"

using Catch::Matchers::Contains;
using test_helpers::values;
using V = std::vector<double>;

TEST_CASE("a hook on a leaf changes what accumulates into .grad()", "[autograd][hooks]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  x.register_hook([](torch::Tensor grad) { return grad * 10; });
  (x * 3).sum().backward();
  CHECK(values(x.grad()) == V{30, 30});
  (x * 3).sum().backward();  // hooks stay registered; accumulation happens after the hook
  CHECK(values(x.grad()) == V{60, 60});
}

TEST_CASE("a hook on a non-leaf changes the gradient flowing on to the leaves", "[autograd][hooks]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = x * x;
  std::vector<double> seen;
  y.register_hook([&seen](const torch::Tensor& grad) { seen = values(grad); });
  y.register_hook([](torch::Tensor grad) { return grad + 1; });
  y.sum().backward();
  CHECK(seen == V{1, 1});                 // a void hook observes without changing
  CHECK(values(x.grad()) == V{4, 8});     // (1 + 1) * 2x
}

TEST_CASE("hooks run in registration order and retain_grad is one of them", "[autograd][hooks]") {
  auto x = torch::tensor({1.0}, torch::requires_grad());
  auto y = x * 2;
  std::vector<int> order;
  y.register_hook([&order](torch::Tensor grad) {
    order.push_back(1);
    return grad * 3;
  });
  y.retain_grad();
  y.register_hook([&order](torch::Tensor grad) {
    order.push_back(2);
    return grad * 5;
  });
  y.sum().backward();
  CHECK(order == std::vector<int>{1, 2});
  CHECK(values(y.grad()) == V{3});       // retained after the first hook only
  CHECK(values(x.grad()) == V{30});      // 15 * 2
  CHECK(y.retains_grad());
}

TEST_CASE("remove_hook disables one hook and keeps the others' handles", "[autograd][hooks]") {
  auto x = torch::tensor({1.0}, torch::requires_grad());
  const unsigned add = x.register_hook([](torch::Tensor grad) { return grad + 100; });
  const unsigned twice = x.register_hook([](torch::Tensor grad) { return grad * 2; });
  CHECK(add == 0);
  CHECK(twice == 1);
  x.remove_hook(add);
  (x * 1).sum().backward();
  CHECK(values(x.grad()) == V{2});
  CHECK_THROWS_WITH(x.remove_hook(5), Contains("Invalid index, no hook at position 5"));
}

TEST_CASE("hooks refuse tensors without gradients and gradients of another shape", "[autograd][hooks]") {
  CHECK_THROWS_WITH(torch::ones({2}).register_hook([](torch::Tensor grad) { return grad; }),
                    Contains("cannot register a hook on a variable that doesn't require gradient"));
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  x.register_hook([](torch::Tensor grad) { return grad.sum(); });
  CHECK_THROWS_WITH((x * 2).sum().backward(), Contains("hook '0' has changed the size of value"));
}

TEST_CASE("autograd::grad returns the gradient before the input's own hooks", "[autograd][hooks]") {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  auto y = x * 3;
  y.register_hook([](torch::Tensor grad) { return grad * 7; });
  const auto grads = torch::autograd::grad({(y * y).sum()}, {y});
  CHECK(values(grads[0]) == V{6, 12});
}
