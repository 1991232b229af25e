// Factories and dtype inference: zeros/ones/full/arange/linspace/eye/rand*/tensor/from_blob/*_like.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("zeros, ones, full and empty give the requested shape and dtype", "[factories]") {
  auto z = torch::zeros({2, 3});
  REQUIRE(shape(z) == S{2, 3});
  REQUIRE(z.dtype() == torch::kFloat32);
  REQUIRE(values(z) == V(6, 0.0));
  REQUIRE(values(torch::ones({2}, torch::kLong)) == V{1, 1});
  REQUIRE(torch::ones({2}, torch::kLong).dtype() == torch::kInt64);
  REQUIRE(torch::ones({2}, torch::dtype(torch::kDouble)).scalar_type() == torch::kFloat64);
  REQUIRE(torch::empty({4, 5}).numel() == 20);
  REQUIRE(torch::zeros(5).sizes() == S{5});
  REQUIRE(torch::zeros({}).dim() == 0);
  REQUIRE(torch::zeros({}).numel() == 1);
}

TEST_CASE("full infers its dtype from the fill value like LibTorch", "[factories]") {
  REQUIRE(torch::full({2}, 7).dtype() == torch::kLong);
  REQUIRE(torch::full({2}, 2.5).dtype() == torch::kFloat);
  REQUIRE(torch::full({2}, true).dtype() == torch::kBool);
  REQUIRE(values(torch::full({2, 2}, 7)) == V{7, 7, 7, 7});
  REQUIRE(torch::full({2}, 7, torch::kDouble).dtype() == torch::kDouble);
}

TEST_CASE("arange: integer arguments give kLong, any floating one gives kFloat", "[factories]") {
  REQUIRE(torch::arange(5).dtype() == torch::kLong);
  REQUIRE(values(torch::arange(5)) == V{0, 1, 2, 3, 4});
  REQUIRE(values(torch::arange(2, 5)) == V{2, 3, 4});
  REQUIRE(values(torch::arange(0, 10, 3)) == V{0, 3, 6, 9});
  REQUIRE(values(torch::arange(5, 0, -2)) == V{5, 3, 1});
  auto f = torch::arange(0, 1, 0.25);
  REQUIRE(f.dtype() == torch::kFloat);
  REQUIRE(values(f) == V{0, 0.25, 0.5, 0.75});
  REQUIRE(torch::arange(0, 1, 0.3).numel() == 4);
  REQUIRE(torch::arange(6, torch::kFloat).dtype() == torch::kFloat);
}

TEST_CASE("linspace and eye", "[factories]") {
  REQUIRE(values(torch::linspace(0, 1, 5)) == V{0, 0.25, 0.5, 0.75, 1});
  REQUIRE(torch::linspace(0, 1, 5).dtype() == torch::kFloat);
  REQUIRE(values(torch::linspace(2, 3, 1)) == V{2});  // one step is the start, as in LibTorch
  REQUIRE(values(torch::eye(2)) == V{1, 0, 0, 1});
  REQUIRE(values(torch::eye(2, 3)) == V{1, 0, 0, 0, 1, 0});
  REQUIRE(torch::eye(3, torch::kLong).dtype() == torch::kLong);
}

TEST_CASE("tensor() infers dtype and shape from nested braced lists", "[factories]") {
  auto ints = torch::tensor({1, 2, 3});
  REQUIRE(ints.dtype() == torch::kLong);
  REQUIRE(shape(ints) == S{3});
  auto floats = torch::tensor({{1.5, 2.0}, {3.0, 4.0}});
  REQUIRE(floats.dtype() == torch::kFloat);
  REQUIRE(shape(floats) == S{2, 2});
  REQUIRE(values(floats) == V{1.5, 2, 3, 4});
  REQUIRE(torch::tensor({true, false}).dtype() == torch::kBool);
  auto deep = torch::tensor({{{{1, 2}}, {{3, 4}}}});
  REQUIRE(shape(deep) == S{1, 2, 1, 2});
  REQUIRE(values(deep) == V{1, 2, 3, 4});
  REQUIRE(torch::tensor(3.5).dim() == 0);
  REQUIRE(torch::tensor(3.5).item<double>() == 3.5);
  REQUIRE(torch::tensor({1.0, 2.0}, torch::kDouble).dtype() == torch::kDouble);
  REQUIRE(torch::tensor(std::vector<double>{1.0, 2.0}).dtype() == torch::kFloat);
  REQUIRE(torch::tensor(std::vector<int64_t>{4, 5}).dtype() == torch::kLong);
  REQUIRE(torch::tensor({1, 2}, torch::kFloat).dtype() == torch::kFloat);
}

TEST_CASE("random factories are seeded, shaped and in range", "[factories]") {
  torch::manual_seed(42);
  auto a = torch::rand({100});
  torch::manual_seed(42);
  auto b = torch::rand({100});
  REQUIRE(a.equal(b));
  for (double v : values(a)) REQUIRE((v >= 0.0 && v < 1.0));
  auto n = torch::randn({2000}, torch::kDouble);
  REQUIRE(std::abs(n.mean().item<double>()) < 0.1);
  auto r = torch::randint(3, 7, {500});
  REQUIRE(r.dtype() == torch::kLong);
  REQUIRE(r.min().item<int64_t>() >= 3);
  REQUIRE(r.max().item<int64_t>() <= 6);
  REQUIRE(torch::randint(5, {3}).dtype() == torch::kLong);
  REQUIRE(shape(torch::rand_like(torch::zeros({2, 3}))) == S{2, 3});
  REQUIRE(torch::randn_like(torch::zeros({2}, torch::kDouble)).dtype() == torch::kDouble);
}

TEST_CASE("*_like factories copy shape and dtype", "[factories]") {
  auto x = torch::arange(6).reshape({2, 3});
  REQUIRE(values(torch::zeros_like(x)) == V(6, 0.0));
  REQUIRE(torch::zeros_like(x).dtype() == torch::kLong);
  REQUIRE(values(torch::ones_like(x, torch::kFloat)) == V(6, 1.0));
  REQUIRE(torch::ones_like(x, torch::kFloat).dtype() == torch::kFloat);
  REQUIRE(values(torch::full_like(x, 9)) == V(6, 9.0));
  REQUIRE(shape(torch::empty_like(x)) == S{2, 3});
  // Like LibTorch, a dense transposed input keeps its strides.
  REQUIRE(torch::empty_like(torch::ones({2, 3}).t()).strides() == S{1, 3});
}

TEST_CASE("from_blob views caller memory without copying", "[factories][from_blob]") {
  float data[6] = {1, 2, 3, 4, 5, 6};
  auto t = torch::from_blob(data, {2, 3});
  REQUIRE(t.dtype() == torch::kFloat);
  REQUIRE(t.data_ptr<float>() == data);
  REQUIRE(values(t) == V{1, 2, 3, 4, 5, 6});
  t[0][1] = 20;  // writes go to the caller's array
  REQUIRE(data[1] == 20);
  data[5] = 60;  // and the caller's writes are visible
  REQUIRE(t[1][2].item<float>() == 60);

  int64_t longs[4] = {1, 2, 3, 4};
  auto strided = torch::from_blob(longs, {2}, {2}, torch::kLong);
  REQUIRE(values(strided) == V{1, 3});

  bool deleted = false;
  {
    auto owned = torch::from_blob(data, {6}, [&](void* p) { deleted = p == data; });
    auto view = owned.narrow(0, 1, 2);
    owned = torch::Tensor();
    REQUIRE_FALSE(deleted);  // the view still uses the memory
  }
  REQUIRE(deleted);
}

TEST_CASE("the shared generator serves threads at once: each kernel draws a whole stretch of one stream", "[factories][threads]") {
  // LibTorch's kernels hold the default generator's lock while they draw, so draws from several
  // threads interleave kernel by kernel, never number by number. With a seed, the calls made on two
  // threads get exactly the stretches one thread's calls would get, in some order.
  constexpr int kCalls = 200;
  constexpr int64_t kDraws = 1000;
  auto draw = [] { return torch::randint(0, int64_t{1} << 40, {kDraws}); };
  auto as_vector = [](const torch::Tensor& t) {
    const int64_t* data = t.data_ptr<int64_t>();
    return std::vector<int64_t>(data, data + t.numel());
  };
  torch::manual_seed(33);
  std::vector<std::vector<int64_t>> one_thread;
  for (int c = 0; c < 2 * kCalls; ++c) one_thread.push_back(as_vector(draw()));

  torch::manual_seed(33);
  std::vector<std::vector<int64_t>> first, second;
  auto work = [&](std::vector<std::vector<int64_t>>& out) {
    for (int c = 0; c < kCalls; ++c) out.push_back(as_vector(draw()));
  };
  std::thread other(work, std::ref(second));
  work(first);
  other.join();
  std::vector<std::vector<int64_t>> two_threads = first;
  two_threads.insert(two_threads.end(), second.begin(), second.end());
  std::sort(one_thread.begin(), one_thread.end());
  std::sort(two_threads.begin(), two_threads.end());
  REQUIRE(two_threads == one_thread);
}
