// Module 17's public face (tinytorch/acceleration.h, nn/functional/fold.h) on the reference library:
// torch::im2col / col2im and F::unfold / F::fold (shapes, unbatched input, LibTorch's errors, each
// one's gradient being the other), and the measuring helpers naive_mm / fast_mm.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_helpers.h"

namespace F = torch::nn::functional;

TEST_CASE("im2col and col2im have LibTorch's shapes, batched and unbatched", "[fold]") {
  const torch::Tensor x = torch::randn({2, 3, 6, 5});
  const torch::Tensor cols = torch::im2col(x, {3, 2}, {1, 1}, {1, 0}, {2, 1});
  // OH = (6 + 2 - 3) / 2 + 1 = 3, OW = (5 - 2) / 1 + 1 = 4.
  REQUIRE(cols.sizes().vec() == std::vector<int64_t>{2, 3 * 3 * 2, 12});
  const torch::Tensor single = torch::im2col(x[1], {3, 2}, {1, 1}, {1, 0}, {2, 1});
  REQUIRE(single.sizes().vec() == std::vector<int64_t>{18, 12});
  CHECK(torch::equal(single, cols[1]));
  const torch::Tensor back = torch::col2im(cols, {6, 5}, {3, 2}, {1, 1}, {1, 0}, {2, 1});
  REQUIRE(back.sizes().vec() == std::vector<int64_t>{2, 3, 6, 5});
  CHECK(torch::equal(torch::col2im(single, {6, 5}, {3, 2}, {1, 1}, {1, 0}, {2, 1}), back[1]));
  CHECK(torch::equal(F::unfold(x, F::UnfoldFuncOptions({3, 2}).padding({1, 0}).stride({2, 1})), cols));
  CHECK(torch::equal(F::fold(cols, F::FoldFuncOptions({6, 5}, {3, 2}).padding({1, 0}).stride({2, 1})), back));
  // fold(unfold(ones)) counts, per pixel, the taps that see it: 9 inside a 3 x 3 kernel's reach.
  const torch::Tensor counts = F::fold(F::unfold(torch::ones({1, 1, 5, 5}), F::UnfoldFuncOptions(3).padding(1)),
                                       F::FoldFuncOptions(5, 3).padding(1));
  CHECK(counts[0][0][2][2].item<float>() == 9.0f);
  CHECK(counts[0][0][0][0].item<float>() == 4.0f);
}

TEST_CASE("im2col's gradient is col2im and col2im's is im2col", "[fold]") {
  const torch::Tensor x = torch::randn({2, 2, 5, 5}, torch::requires_grad());
  const torch::Tensor cols = torch::im2col(x, {3, 3}, {1, 1}, {1, 1}, {1, 1});
  const torch::Tensor weight = torch::randn(cols.sizes());
  (cols * weight).sum().backward();
  CHECK(torch::allclose(x.grad(), torch::col2im(weight, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1})));
  CHECK(cols.grad_fn()->name() == "Im2ColBackward0");

  const torch::Tensor c = torch::randn({1, 8, 6}, torch::requires_grad());
  const torch::Tensor image = torch::col2im(c, {3, 4}, {2, 2}, {1, 1}, {0, 0}, {1, 1});
  const torch::Tensor g = torch::randn(image.sizes());
  (image * g).sum().backward();
  CHECK(torch::allclose(c.grad(), torch::im2col(g, {2, 2}, {1, 1}, {0, 0}, {1, 1})));
  CHECK(image.grad_fn()->name() == "Col2ImBackward0");
}

TEST_CASE("im2col and col2im refuse what LibTorch refuses, saying why", "[fold]") {
  CHECK_THROWS_WITH(torch::im2col(torch::randn({5, 5}), {3, 3}, {1, 1}, {0, 0}, {1, 1}),
                    Catch::Contains("Expected 3D or 4D (batch mode) tensor"));
  CHECK_THROWS_WITH(torch::im2col(torch::randn({1, 1, 2, 2}), {3, 3}, {1, 1}, {0, 0}, {1, 1}),
                    Catch::Contains("but its components must be at least one"));
  CHECK_THROWS_WITH(torch::im2col(torch::randn({1, 1, 4, 4}), {3, 3}, {1, 1}, {0, 0}, {0, 1}),
                    Catch::Contains("stride should be greater than zero"));
  CHECK_THROWS_WITH(torch::col2im(torch::randn({1, 9, 5}), {4, 4}, {3, 3}, {1, 1}, {0, 0}, {1, 1}),
                    Catch::Contains("calculated number of sliding blocks 2 * 2 = 4, but got input.size(2)=5"));
  CHECK_THROWS_WITH(torch::col2im(torch::randn({1, 8, 4}), {4, 4}, {3, 3}, {1, 1}, {0, 0}, {1, 1}),
                    Catch::Contains("divisible by the product of kernel_size"));
}

TEST_CASE("naive_mm runs module 01's loops and fast_mm module 17's GEMM, with equal results", "[fold][gemm]") {
  REQUIRE(torch::acceleration::fast_kernels_available());
  const torch::Tensor a = torch::randint(-4, 4, {70, 90}).to(torch::kFloat);
  const torch::Tensor b = torch::randint(-4, 4, {90, 50}).to(torch::kFloat);
  CHECK(torch::equal(torch::acceleration::naive_mm(a, b), torch::acceleration::fast_mm(a, b)));
  CHECK(torch::equal(torch::acceleration::fast_mm(a, b), torch::mm(a, b)));
  CHECK_THROWS_WITH(torch::acceleration::fast_mm(a, a), Catch::Contains("shapes cannot be multiplied (70x90 and 70x90)"));
  CHECK_THROWS_WITH(torch::acceleration::naive_mm(a, b.to(torch::kDouble)), Catch::Contains("expected scalar type"));
}
