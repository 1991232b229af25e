// Views share storage: strides, offsets, contiguity, reshape vs view, indexing.
#include <catch2/catch.hpp>

#include "test_helpers.h"

using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;
using namespace torch::indexing;

TEST_CASE("sizes, strides and contiguity of a fresh tensor", "[views]") {
  auto x = torch::zeros({2, 3, 4});
  REQUIRE(x.strides() == S{12, 4, 1});
  REQUIRE(x.stride(-1) == 1);
  REQUIRE(x.size(-3) == 2);
  REQUIRE(x.dim() == 3);
  REQUIRE(x.is_contiguous());
  REQUIRE(x.storage_offset() == 0);
}

TEST_CASE("transpose, t and permute swap strides and share storage", "[views]") {
  auto x = torch::arange(6).reshape({2, 3});
  auto y = x.t();
  REQUIRE(shape(y) == S{3, 2});
  REQUIRE(y.strides() == S{1, 3});
  REQUIRE_FALSE(y.is_contiguous());
  REQUIRE(y.is_alias_of(x));
  REQUIRE(values(y) == V{0, 3, 1, 4, 2, 5});
  y[0][1] = 100;  // writes through the view
  REQUIRE(x[1][0].item<int64_t>() == 100);

  auto z = torch::zeros({2, 3, 4}).permute({2, 0, 1});
  REQUIRE(shape(z) == S{4, 2, 3});
  REQUIRE(z.strides() == S{1, 12, 4});
  REQUIRE(shape(torch::zeros({2, 3, 4}).transpose(-1, 0)) == S{4, 3, 2});
  REQUIRE(shape(torch::ones({3}).t()) == S{3});
}

TEST_CASE("view infers -1 and shares storage; reshape copies only when it must", "[views]") {
  auto x = torch::arange(6);
  auto v = x.view({-1, 3});
  REQUIRE(shape(v) == S{2, 3});
  REQUIRE(v.is_alias_of(x));
  REQUIRE(shape(x.view({2, -1, 1})) == S{2, 3, 1});
  auto t = x.view({2, 3}).t();
  auto r = t.reshape({6});  // not expressible with strides: a copy
  REQUIRE_FALSE(r.is_alias_of(x));
  REQUIRE(values(r) == V{0, 3, 1, 4, 2, 5});
  REQUIRE(x.view({2, 3}).reshape({3, 2}).is_alias_of(x));
  // A transposed tensor can still be viewed when the new dims do not cross its chunks.
  auto w = torch::zeros({4, 6}).t().view({2, 3, 4});
  REQUIRE(w.strides() == S{3, 1, 6});
  REQUIRE(shape(torch::tensor(5).view({1, 1})) == S{1, 1});
  REQUIRE(torch::ones({1}).view({}).dim() == 0);
}

TEST_CASE("flatten, squeeze and unsqueeze", "[views]") {
  auto x = torch::zeros({2, 3, 4});
  REQUIRE(shape(x.flatten()) == S{24});
  REQUIRE(shape(x.flatten(1)) == S{2, 12});
  REQUIRE(shape(x.flatten(0, 1)) == S{6, 4});
  REQUIRE(shape(torch::tensor(3).flatten()) == S{1});
  auto y = torch::zeros({1, 2, 1});
  REQUIRE(shape(y.squeeze()) == S{2});
  REQUIRE(shape(y.squeeze(0)) == S{2, 1});
  REQUIRE(shape(y.squeeze(1)) == S{1, 2, 1});
  REQUIRE(shape(y.unsqueeze(0)) == S{1, 1, 2, 1});
  REQUIRE(shape(y.unsqueeze(-1)) == S{1, 2, 1, 1});
  REQUIRE(y.unsqueeze(1).is_alias_of(y));
}

TEST_CASE("expand uses stride 0 and copies nothing", "[views]") {
  auto x = torch::tensor({1, 2, 3});
  auto e = x.expand({2, 3});
  REQUIRE(e.strides() == S{0, 1});
  REQUIRE(values(e) == V{1, 2, 3, 1, 2, 3});
  REQUIRE(e.is_alias_of(x));
  auto col = torch::tensor({{1}, {2}}).expand({-1, 3});
  REQUIRE(values(col) == V{1, 1, 1, 2, 2, 2});
  REQUIRE(shape(x.expand_as(torch::zeros({4, 3}))) == S{4, 3});
}

TEST_CASE("select, narrow, slice and operator[] are offset views", "[views]") {
  auto x = torch::arange(12).reshape({3, 4});
  REQUIRE(values(x.select(0, 1)) == V{4, 5, 6, 7});
  REQUIRE(x.select(0, 1).storage_offset() == 4);
  REQUIRE(values(x.select(1, -1)) == V{3, 7, 11});
  REQUIRE(values(x.narrow(1, 1, 2)) == V{1, 2, 5, 6, 9, 10});
  REQUIRE(values(x.slice(1, 0, 4, 2)) == V{0, 2, 4, 6, 8, 10});
  REQUIRE(shape(x.slice(1, 1, 100)) == S{3, 3});
  REQUIRE(shape(x.slice(0, 5, 10)) == S{0, 4});
  REQUIRE(x[2][3].item<int64_t>() == 11);
  REQUIRE(x[-1].is_alias_of(x));
}

TEST_CASE("index() with integers, Slice, None and Ellipsis", "[views][indexing]") {
  auto x = torch::arange(12).reshape({3, 4});
  REQUIRE(values(x.index({Slice(), Slice(1, None, 2)})) == V{1, 3, 5, 7, 9, 11});
  REQUIRE(shape(x.index({Ellipsis, 1})) == S{3});
  REQUIRE(shape(x.index({None, 1})) == S{1, 4});
  REQUIRE(values(x.index({-1})) == V{8, 9, 10, 11});
  REQUIRE(values(x.index({Slice(None, 2), Slice(-2)})) == V{2, 3, 6, 7});
  REQUIRE(x.index({1, 2}).item<int64_t>() == 6);
  REQUIRE(x.index({1, 2}).dim() == 0);
  REQUIRE(x.index({Slice(1, 3)}).is_alias_of(x));
}

TEST_CASE("index_put_ writes a scalar or a broadcast tensor", "[views][indexing]") {
  auto x = torch::zeros({2, 3});
  x.index_put_({0, Slice()}, 5);
  x.index_put_({1}, torch::tensor({1.0, 2.0, 3.0}));
  x.index_put_({Slice(), 0}, torch::tensor(9.0));
  REQUIRE(values(x) == V{9, 5, 5, 9, 2, 3});
}

TEST_CASE("contiguous, clone and copy_", "[views][copy]") {
  auto x = torch::arange(6).reshape({2, 3});
  REQUIRE(x.contiguous().is_same(x));
  auto t = x.t();
  auto c = t.contiguous();
  REQUIRE(c.is_contiguous());
  REQUIRE_FALSE(c.is_alias_of(x));
  REQUIRE(values(c) == values(t));
  auto k = x.clone();
  REQUIRE_FALSE(k.is_alias_of(x));
  k[0][0] = 42;
  REQUIRE(x[0][0].item<int64_t>() == 0);
  REQUIRE(x.t().clone().strides() == S{1, 3});  // clone keeps a dense layout, like LibTorch

  auto dst = torch::zeros({2, 3});
  dst.copy_(torch::tensor({1, 2, 3}));  // broadcasts and converts
  REQUIRE(values(dst) == V{1, 2, 3, 1, 2, 3});
  dst.t().copy_(torch::ones({3, 2}));
  REQUIRE(values(dst) == V(6, 1.0));
  dst.fill_(2.5).zero_();
  REQUIRE(values(dst) == V(6, 0.0));
  torch::Tensor row = dst[1];
  row.fill_(7);
  REQUIRE(values(dst) == V{0, 0, 0, 7, 7, 7});
}
