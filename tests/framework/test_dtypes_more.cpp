// The narrow dtypes (uint8, int8, int16, int32, Half, BFloat16): storage, rounding, promotion,
// printing, arithmetic through the computation types, and the factories and random fills of
// tensor_factories.cpp / random.cpp. Expected values come from LibTorch 1.13.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "test_helpers.h"

using test_helpers::printed;
using test_helpers::shape;
using test_helpers::values;
using V = std::vector<double>;
using S = std::vector<int64_t>;

TEST_CASE("dtype names, sizes and predicates of the narrow dtypes", "[dtypes_more]") {
  CHECK(std::string(c10::toString(torch::kShort)) == "Short");
  CHECK(std::string(c10::toString(torch::kHalf)) == "Half");
  CHECK(std::string(c10::toString(torch::kBFloat16)) == "BFloat16");
  CHECK(printed(torch::zeros({1}, torch::kShort).dtype()) == "short int");
  CHECK(printed(torch::zeros({1}, torch::kHalf).dtype()) == "c10::Half");
  CHECK(printed(torch::zeros({1}, torch::kBFloat16).dtype()) == "c10::BFloat16");
  CHECK(torch::elementSize(torch::kHalf) == 2);
  CHECK(torch::zeros({3}, torch::kBFloat16).nbytes() == 6);
  CHECK(torch::zeros({1}, torch::kShort).element_size() == 2);
  CHECK(torch::isFloatingType(torch::kHalf));
  CHECK(torch::isFloatingType(torch::kBFloat16));
  CHECK(torch::isIntegralType(torch::kShort, false));
  CHECK_FALSE(torch::isIntegralType(torch::kBool, false));
  CHECK(torch::isIntegralType(torch::kBool, true));
  CHECK(torch::zeros({1}, torch::kHalf).is_floating_point());
  CHECK(torch::zeros({1}, torch::kHalf).toString() == "CPUHalfType");
  CHECK(torch::kInt16 == torch::kShort);
  CHECK(torch::kFloat16 == torch::kHalf);
  CHECK_FALSE(torch::zeros({1}, torch::kByte).is_signed());
  CHECK(torch::zeros({1}, torch::kChar).is_signed());
}

TEST_CASE("promoteTypes follows PyTorch's table", "[dtypes_more]") {
  using torch::promoteTypes;
  CHECK(promoteTypes(torch::kByte, torch::kChar) == torch::kShort);
  CHECK(promoteTypes(torch::kChar, torch::kShort) == torch::kShort);
  CHECK(promoteTypes(torch::kShort, torch::kInt) == torch::kInt);
  CHECK(promoteTypes(torch::kHalf, torch::kBFloat16) == torch::kFloat);
  CHECK(promoteTypes(torch::kBFloat16, torch::kLong) == torch::kBFloat16);
  CHECK(promoteTypes(torch::kHalf, torch::kInt) == torch::kHalf);
  CHECK(promoteTypes(torch::kHalf, torch::kDouble) == torch::kDouble);
  CHECK(promoteTypes(torch::kBool, torch::kByte) == torch::kByte);
  CHECK(promoteTypes(torch::kBool, torch::kHalf) == torch::kHalf);
  CHECK(promoteTypes(torch::kByte, torch::kByte) == torch::kByte);
  // Through the ops: tensors with dims decide, 0-dim tensors and numbers only bring a higher kind.
  auto h = torch::tensor({1.5, 2.25}, torch::kHalf);
  auto c = torch::tensor({1, 2}, torch::kChar);
  auto u = torch::tensor({1, 2}, torch::kByte);
  CHECK((h + 1.5).scalar_type() == torch::kHalf);
  CHECK((h + torch::ones({2})).scalar_type() == torch::kFloat);
  CHECK((c + 1.5).scalar_type() == torch::kFloat);
  CHECK((u + c).scalar_type() == torch::kShort);
  CHECK((u + torch::tensor(5)).scalar_type() == torch::kByte);
  CHECK((c + torch::tensor(5.0, torch::kHalf)).scalar_type() == torch::kHalf);
  CHECK((h + torch::tensor({1.0, 1.0}, torch::kBFloat16)).scalar_type() == torch::kFloat);
}

TEST_CASE("Half and BFloat16 round to nearest even", "[dtypes_more]") {
  // LibTorch: 0.1 -> half 0.0999755859375, bfloat16 0.10009765625; 65520 -> half inf.
  CHECK(static_cast<float>(c10::Half(0.1f)) == 0.0999755859375f);
  CHECK(static_cast<float>(c10::BFloat16(0.1f)) == 0.10009765625f);
  CHECK(static_cast<float>(c10::Half(65504.0f)) == 65504.0f);
  CHECK(static_cast<float>(c10::Half(65520.0f)) == std::numeric_limits<float>::infinity());
  CHECK(static_cast<float>(c10::BFloat16(65520.0f)) == 65536.0f);
  CHECK(static_cast<float>(c10::Half(6e-8f)) == 5.9604644775390625e-08f);  // the smallest subnormal
  CHECK(static_cast<float>(c10::Half(1e-8f)) == 0.0f);
  CHECK(static_cast<float>(c10::Half(1.00048828125f)) == 1.0f);          // a tie goes to even
  CHECK(static_cast<float>(c10::Half(1.00146484375f)) == 1.001953125f);  // a tie goes to even (up)
  CHECK(c10::BFloat16(1.00390625f).x == 16256);                          // tie, down to even
  CHECK(c10::BFloat16(1.01171875f).x == 16258);                          // tie, up to even
  CHECK(c10::BFloat16(3.14159f).x == 16457);
  CHECK(c10::Half(3.14159f).x == 16968);
  CHECK(c10::Half(1.00390625f).x == 15364);
  CHECK(std::isnan(static_cast<float>(c10::Half(std::numeric_limits<float>::quiet_NaN()))));
  CHECK(c10::BFloat16(std::numeric_limits<float>::quiet_NaN()).x == 0x7FC0);
  CHECK(static_cast<float>(std::numeric_limits<c10::Half>::max()) == 65504.0f);
  CHECK(static_cast<float>(std::numeric_limits<c10::Half>::epsilon()) == 0.0009765625f);
  CHECK(static_cast<float>(c10::Half(2.f) + c10::Half(3.f)) == 5.0f);
  // Tensor conversions from double round the same way.
  CHECK(torch::tensor(1.0 / 3, torch::kDouble).to(torch::kHalf).item<double>() == 0.333251953125);
  CHECK(torch::tensor(1.0 / 3, torch::kDouble).to(torch::kBFloat16).item<double>() == 0.333984375);
}

TEST_CASE("narrow dtypes print like LibTorch", "[dtypes_more]") {
  CHECK(printed(torch::tensor({1.5, 2.25, 3.1}, torch::kHalf)) == " 1.5000\n 2.2500\n 3.0996\n[ CPUHalfType{3} ]");
  CHECK(printed(torch::tensor({1.5, 2.25, 3.1}, torch::kBFloat16)) ==
        " 1.5000\n 2.2500\n 3.0938\n[ CPUBFloat16Type{3} ]");
  CHECK(printed(torch::tensor({1, -2, 300}, torch::kShort)) == "   1\n  -2\n 300\n[ CPUShortType{3} ]");
  CHECK(printed(torch::tensor(0.1, torch::kHalf)) == "0.0999756\n[ CPUHalfType{} ]");
  CHECK(printed(c10::Half(2.5f)) == "2.5");
}

TEST_CASE("item, data_ptr and fill on Half", "[dtypes_more]") {
  auto h = torch::tensor({1.5, 2.25, 3.1}, torch::kHalf);
  CHECK(static_cast<float>(h[0].item<at::Half>()) == 1.5f);
  CHECK(static_cast<float>(h.data_ptr<at::Half>()[1]) == 2.25f);
  CHECK(h[2].item<float>() == 3.099609375f);
  CHECK_THROWS_WITH(h.data_ptr<float>(), "expected scalar type Float but found Half");
  CHECK(values(torch::zeros({2}, torch::kHalf).fill_(2.5)) == V{2.5, 2.5});
  CHECK(values(torch::full({2}, 3, torch::kBFloat16)) == V{3, 3});
  CHECK(values(torch::arange(3, torch::kHalf)) == V{0, 1, 2});
  CHECK(values(torch::tensor({-1.7, 2.5, 300.0}).to(torch::kByte)) == V{255, 2, 44});
  CHECK(values(torch::tensor({-1.7, 2.5, 3.5}).to(torch::kShort)) == V{-1, 2, 3});
  torch::Scalar s = c10::Half(0.5f);
  CHECK(s.isFloatingPoint());
  CHECK(s.toDouble() == 0.5);
}

TEST_CASE("integer arithmetic wraps around like LibTorch", "[dtypes_more]") {
  auto c = torch::tensor({127, -128, 100}, torch::kChar);
  CHECK((c + 1).scalar_type() == torch::kChar);
  CHECK(values(c + 1) == V{-128, -127, 101});
  CHECK(values(c * 2) == V{-2, 0, -56});
  CHECK(values(c - 1) == V{126, 127, 99});
  CHECK(values(c.add(c, 2)) == V{125, -128, 44});
  CHECK(values(c.abs()) == V{127, -128, 100});
  CHECK(values(torch::tensor({-128}, torch::kChar).neg()) == V{-128});
  auto u = torch::tensor({200, 100, 0}, torch::kByte);
  CHECK(values(u + 100) == V{44, 200, 100});
  CHECK(values(u - 101) == V{99, 255, 155});
  CHECK(values(u * 3) == V{88, 44, 0});
  CHECK(values(-u) == V{56, 156, 0});
  CHECK(values(u + c) == V{327, -28, 100});
  auto s = torch::tensor({30000, 2, -3}, torch::kShort);
  CHECK(values(s + s) == V{-5536, 4, -6});
  CHECK(values(s.pow(2)) == V{-5888, 4, 9});
  CHECK(values(torch::tensor({2147483647}, torch::kInt) + 1) == V{-2147483648.0});
  // In-place keeps self's dtype, and refuses a floating result.
  auto d = c.clone();
  d += 1;
  CHECK(values(d) == V{-128, -127, 101});
  CHECK_THROWS_WITH(c.clone().div_(2), "result type Float can't be cast to the desired output type Char");
  CHECK_THROWS_WITH(c.clone().add_(1.5), "result type Float can't be cast to the desired output type Char");
  CHECK_THROWS_WITH(c.pow(-1), "Integers to negative integer powers are not allowed.");
  // True division and comparisons.
  CHECK((u / 3).scalar_type() == torch::kFloat);
  CHECK(values(c > 100) == V{1, 0, 0});
  CHECK(values(c.eq(torch::tensor({127.0, 0.0, 100.0}))) == V{1, 0, 1});
  CHECK(c.equal(c.clone()));
}

TEST_CASE("reductions and products of the narrow dtypes", "[dtypes_more]") {
  auto u = torch::tensor({200, 100, 0}, torch::kByte);
  CHECK(u.sum().scalar_type() == torch::kLong);
  CHECK(u.sum().item<int64_t>() == 300);
  CHECK(torch::ones({2}, torch::kChar).sum(torch::kChar).scalar_type() == torch::kChar);
  auto s = torch::tensor({30000, 2, -3}, torch::kShort);
  CHECK(s.max().scalar_type() == torch::kShort);
  CHECK(s.max().item<int64_t>() == 30000);
  CHECK(s.min().item<int64_t>() == -3);
  CHECK(s.argmax().item<int64_t>() == 0);
  CHECK(std::get<0>(s.max(0)).item<int64_t>() == 30000);
  CHECK(s.sum().item<int64_t>() == 29999);
  CHECK_THROWS_WITH(s.mean(), "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                              "complex dtype. Got: Short");
  auto h = torch::tensor({1.5, 2.25, 3.1}, torch::kHalf);
  CHECK(h.sum().scalar_type() == torch::kHalf);
  CHECK(h.sum().item<double>() == 6.8515625);  // the float sum 6.849609375 rounded to half
  CHECK(h.mean().item<double>() == 2.283203125);
  CHECK(h.max().item<double>() == 3.099609375);
  CHECK(h.argmax().item<int64_t>() == 2);
  auto m = torch::tensor({{1, 2}, {3, 4}}, torch::kInt);
  CHECK(m.matmul(m).scalar_type() == torch::kInt);
  CHECK(values(m.matmul(m)) == V{7, 10, 15, 22});
  CHECK(values(m.unsqueeze(0).bmm(m.unsqueeze(0))) == V{7, 10, 15, 22});
  CHECK(torch::tensor({1, 2}, torch::kInt).matmul(torch::tensor({3, 4}, torch::kInt)).item<int64_t>() == 11);
  auto bm = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::kBFloat16);
  CHECK(values(bm.mm(bm)) == V{7, 10, 15, 22});
  CHECK_THROWS_WITH(torch::ones({2, 2}, torch::kHalf).mm(torch::ones({2, 2}, torch::kHalf)),
                    "\"addmm_impl_cpu_\" not implemented for 'Half'");
}

TEST_CASE("unary ops and selections on the narrow dtypes", "[dtypes_more]") {
  auto h = torch::tensor({1.5, 2.25, 3.1}, torch::kHalf);
  CHECK(values(h + h) == V{3, 4.5, 6.19921875});
  CHECK(values(h.pow(2)) == V{2.25, 5.0625, 9.609375});
  CHECK(values((-h).abs()) == values(h));
  CHECK_THROWS_WITH(h.exp(), "\"exp_vml_cpu\" not implemented for 'Half'");
  CHECK_THROWS_WITH(h.clamp(2, 3), "\"clamp_scalar_cpu\" not implemented for 'Half'");
  auto b = torch::tensor({1.5, 2.25, 3.1}, torch::kBFloat16);
  CHECK(b.exp().scalar_type() == torch::kBFloat16);
  CHECK(values(b.exp()) == V{4.46875, 9.5, 22});
  CHECK(values(b.clamp(2, 3)) == V{2, 2.25, 3});
  auto c = torch::tensor({127, -128, 100}, torch::kChar);
  CHECK(c.exp().scalar_type() == torch::kFloat);
  CHECK(values(c.clamp(0, 50)) == V{50, 0, 50});
  CHECK(values(torch::where(c > 0, c, torch::zeros_like(c))) == V{127, 0, 100});
  CHECK(torch::cat({c, torch::tensor({1}, torch::kShort)}).scalar_type() == torch::kShort);
  CHECK(values(c.gather(0, torch::tensor({2, 2, 0}))) == V{100, 100, 127});
  CHECK(values(h.index_select(0, torch::tensor({2, 0}))) == V{3.099609375, 1.5});
  CHECK(values(h.masked_fill(h > 2, 7)) == V{1.5, 7, 7});
  CHECK(values(h.scatter_add(0, torch::tensor({0, 0, 1}), h)) == V{5.25, 5.3515625, 3.099609375});
}

TEST_CASE("conversions and factories from a tensor", "[dtypes_more]") {
  auto c = torch::tensor({1, 2}, torch::kChar);
  CHECK(torch::ones({2}).type_as(c).scalar_type() == torch::kChar);
  CHECK(torch::ones({2}).to(c).scalar_type() == torch::kChar);
  CHECK(c.toType(torch::kHalf).scalar_type() == torch::kHalf);
  auto z = torch::ones({2, 3}, torch::kInt);
  CHECK(z.new_zeros({2}).scalar_type() == torch::kInt);
  CHECK(values(z.new_ones({1, 2})) == V{1, 1});
  CHECK(values(z.new_full({2}, 2.5)) == V{2, 2});  // self's dtype, not the value's
  CHECK(z.new_zeros({2}, torch::kFloat).scalar_type() == torch::kFloat);
  CHECK(shape(z.new_empty({3})) == S{3});
  CHECK(z.new_empty_strided({2, 2}, {1, 2}).strides().vec() == S{1, 2});
  CHECK_THROWS_WITH(torch::empty_strided({2}, {1, 2}),
                    "dimensionality of sizes (1) must match dimensionality of strides (2)");
  CHECK(values(torch::logspace(0, 2, 3)) == V{1, 10, 100});
  CHECK(values(torch::logspace(0, 3, 4, 2, torch::kLong)) == V{1, 2, 4, 8});
  CHECK(values(torch::logspace(0, 1, 1)) == V{1});
  CHECK_THROWS_WITH(torch::logspace(0, 1, -1), "number of steps must be non-negative");
  CHECK(torch::zeros({1}, torch::TensorOptions(torch::kCPU)).scalar_type() == torch::kFloat);
  CHECK(torch::zeros({1}, torch::dtype<double>()).scalar_type() == torch::kDouble);
  CHECK(torch::zeros({1}, torch::device(torch::kCPU).dtype(torch::kShort)).scalar_type() == torch::kShort);
}

TEST_CASE("random fills: ranges, dtypes and errors", "[dtypes_more]") {
  torch::manual_seed(7);
  auto x = torch::empty({2000});
  x.uniform_(2, 3);
  CHECK((x.ge(2) & x.lt(3)).all().item<bool>());
  CHECK(std::abs(x.mean().item<double>() - 2.5) < 0.05);
  x.normal_(1, 2);
  CHECK(std::abs(x.mean().item<double>() - 1) < 0.2);
  CHECK(std::abs(x.std().item<double>() - 2) < 0.2);
  x.exponential_(2);
  CHECK(x.ge(0).all().item<bool>());
  CHECK(std::abs(x.mean().item<double>() - 0.5) < 0.05);
  x.geometric_(0.5);
  CHECK(x.ge(1).all().item<bool>());
  CHECK(std::abs(x.mean().item<double>() - 2) < 0.2);
  x.log_normal_(0, 1);
  CHECK(x.gt(0).all().item<bool>());
  x.random_(3, 6);
  CHECK(torch::equal(x, x.to(torch::kLong).to(torch::kFloat)));
  CHECK((x.ge(3) & x.lt(6)).all().item<bool>());
  x.bernoulli_(0.25);
  CHECK(std::abs(x.mean().item<double>() - 0.25) < 0.05);
  CHECK(values(torch::zeros({3}).bernoulli_(torch::ones({3}))) == V{1, 1, 1});
  CHECK(torch::ones({2}, torch::kLong).bernoulli(0.5).scalar_type() == torch::kLong);
  auto b = torch::empty({100}, torch::kByte).random_();
  CHECK(b.scalar_type() == torch::kByte);
  CHECK(values(torch::poisson(torch::zeros({3}))) == V{0, 0, 0});
  CHECK(values(torch::normal(2.0, torch::zeros({2}))) == V{2, 2});
  CHECK(shape(torch::normal(0, 1, {2, 3})) == S{2, 3});
  CHECK(torch::randint_like(torch::ones({2}, torch::kInt), 5).scalar_type() == torch::kInt);
  CHECK(torch::rand({3}, torch::kHalf).scalar_type() == torch::kHalf);
  CHECK(torch::randn({3}, torch::kBFloat16).scalar_type() == torch::kBFloat16);

  CHECK_THROWS_WITH(torch::ones({2}).bernoulli_(2.0), "bernoulli_ expects p to be in [0, 1], but got p=2");
  CHECK_THROWS_WITH(torch::ones({2}).normal_(0, -1), "normal expects std >= 0.0, but found std -1");
  CHECK_THROWS_WITH(torch::ones({2}).uniform_(2, 1),
                    "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
  CHECK_THROWS_WITH(torch::ones({2}).random_(3, 2), "random_ expects 'from' to be less than 'to', but got from=3 >= to=2");
  CHECK_THROWS_WITH(torch::ones({2}).exponential_(-1), "exponential_ expects lambda >= 0.0, but found lambda=-1");
  CHECK_THROWS_WITH(torch::ones({2}).geometric_(2), "geometric_ expects p to be in (0, 1), but got p=2");
  CHECK_THROWS_WITH(torch::ones({2}).log_normal_(1, -1), "log_normal_ expects std > 0.0, but found std=-1");
  CHECK_THROWS_WITH(torch::ones({2}, torch::kLong).uniform_(), "\"check_uniform_bounds\" not implemented for 'Long'");
  CHECK_THROWS_WITH(torch::ones({2}, torch::kChar).random_(0, 300), "to - 1 is out of bounds for signed char");
  CHECK_THROWS_WITH(torch::ones({2}, torch::kByte).random_(-1, 5), "from is out of bounds for unsigned char");
  CHECK_THROWS_WITH(torch::ones({2}, torch::kHalf).bernoulli_(0.5), "\"bernoulli_scalar_cpu_\" not implemented for 'Half'");
  CHECK_THROWS_WITH(torch::poisson(torch::full({2}, -1.0)), "invalid Poisson rate, expected rate to be non-negative");
  CHECK_THROWS_WITH(torch::rand({2}, torch::kInt), "\"check_uniform_bounds\" not implemented for 'Int'");
}

TEST_CASE("the narrow dtypes survive torch::save and torch::load", "[dtypes_more]") {
  for (auto dtype : {torch::kShort, torch::kHalf, torch::kBFloat16}) {
    auto t = torch::tensor({1.5, -2.0, 3.0}).to(dtype);
    std::stringstream buffer;
    torch::save(t, buffer);
    torch::Tensor loaded;
    torch::load(loaded, buffer);
    CHECK(loaded.scalar_type() == dtype);
    CHECK(loaded.equal(t));
  }
}

TEST_CASE("floating values an integer dtype cannot hold convert as LibTorch converts them on x86-64",
          "[dtypes_more][conversion]") {
  // C++ leaves these conversions undefined (UBSan reports them); LibTorch 1.13 printed these values.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const V inputs = {-1.7, 300.5, nan, -129.0, 3e9, -3e10, 1e30};
  const double int32_min = std::numeric_limits<int32_t>::min();
  const double int64_min = static_cast<double>(std::numeric_limits<int64_t>::min());
  const std::vector<std::pair<torch::ScalarType, V>> expected = {
      {torch::kByte, {255, 44, 0, 127, 0, 0, 0}},
      {torch::kChar, {-1, 44, 0, 127, 0, 0, 0}},
      {torch::kShort, {-1, 300, 0, -129, 0, 0, 0}},
      {torch::kInt, {-1, 300, int32_min, -129, int32_min, int32_min, int32_min}},
      {torch::kLong, {-1, 300, int64_min, -129, 3e9, -3e10, int64_min}}};
  for (const auto source : {torch::kDouble, torch::kFloat}) {
    const torch::Tensor x = torch::tensor(inputs, torch::kDouble).to(source);
    for (auto [dtype, values_expected] : expected) {
      INFO(c10::toString(source) << " -> " << c10::toString(dtype));
      // -3e10 is -30000001024 in float, and int64 holds it exactly.
      if (dtype == torch::kLong && source == torch::kFloat) values_expected[5] = static_cast<float>(-3e10);
      CHECK(values(x.to(dtype).to(torch::kDouble)) == values_expected);
      // The strided path (a transposed view) converts element by element too.
      const torch::Tensor column = x.reshape({7, 1}).expand({7, 2}).t();
      CHECK(values(column.to(dtype)[1].to(torch::kDouble)) == values_expected);
    }
  }
}
