// Printing: every expected string below was produced by LibTorch 1.13 (`std::cout << t` on the
// same expression with <torch/torch.h>), so these tests pin our output to LibTorch's character for character.
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <string>

#include "tinytorch/torch.h"

namespace {
std::string printed(const torch::Tensor& t) {
  std::ostringstream out;
  out << t;
  return out.str();
}
}  // namespace

TEST_CASE("printing matches LibTorch: tensor({1, 2, 3})", "[printing]") {
  REQUIRE(printed(torch::tensor({1, 2, 3})) == R"( 1
 2
 3
[ CPULongType{3} ])");
}

TEST_CASE("printing matches LibTorch: tensor({1.5, 2.25, -3.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({1.5, 2.25, -3.0})) == R"( 1.5000
 2.2500
-3.0000
[ CPUFloatType{3} ])");
}

TEST_CASE("printing matches LibTorch: tensor(3.5)", "[printing]") {
  REQUIRE(printed(torch::tensor(3.5)) == R"(3.5
[ CPUFloatType{} ])");
}

TEST_CASE("printing matches LibTorch: tensor(7)", "[printing]") {
  REQUIRE(printed(torch::tensor(7)) == R"(7
[ CPULongType{} ])");
}

TEST_CASE("printing matches LibTorch: tensor(true)", "[printing]") {
  REQUIRE(printed(torch::tensor(true)) == R"(1
[ CPUBoolType{} ])");
}

TEST_CASE("printing matches LibTorch: tensor({true, false})", "[printing]") {
  REQUIRE(printed(torch::tensor({true, false})) == R"( 1
 0
[ CPUBoolType{2} ])");
}

TEST_CASE("printing matches LibTorch: arange(6).reshape({2, 3})", "[printing]") {
  REQUIRE(printed(torch::arange(6).reshape({2, 3})) == R"( 0  1  2
 3  4  5
[ CPULongType{2,3} ])");
}

TEST_CASE("printing matches LibTorch: arange(6, kFloat).reshape({2, 3}) / 7", "[printing]") {
  REQUIRE(printed(torch::arange(6, torch::kFloat).reshape({2, 3}) / 7) == R"( 0.0000  0.1429  0.2857
 0.4286  0.5714  0.7143
[ CPUFloatType{2,3} ])");
}

TEST_CASE("printing matches LibTorch: tensor({1e-5, 1.0, 1e5})", "[printing]") {
  REQUIRE(printed(torch::tensor({1e-5, 1.0, 1e5})) == R"( 1.0000e-05
 1.0000e+00
 1.0000e+05
[ CPUFloatType{3} ])");
}

TEST_CASE("printing matches LibTorch: tensor({123456.0, 1.5})", "[printing]") {
  REQUIRE(printed(torch::tensor({123456.0, 1.5})) == R"( 1.2346e+05
 1.5000e+00
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({1000000.0, 2.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({1000000.0, 2.0})) == R"(   1e+06
       2
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({10000000000.0, 2.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({10000000000.0, 2.0})) == R"( 1.0000e+10
 2.0000e+00
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({0.001, 0.002})", "[printing]") {
  REQUIRE(printed(torch::tensor({0.001, 0.002})) == R"(0.001 *
 1.0000
 2.0000
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({1e-10, 2e-10})", "[printing]") {
  REQUIRE(printed(torch::tensor({1e-10, 2e-10})) == R"(1e-10 *
 1.0000
 2.0000
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({1e200, 1e-200}, kDouble)", "[printing]") {
  REQUIRE(printed(torch::tensor({1e200, 1e-200}, torch::kDouble)) == R"( 1.0000e+200
 1.0000e-200
[ CPUDoubleType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({-1.0, 2.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({-1.0, 2.0})) == R"(-1
 2
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({0.0, 0.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({0.0, 0.0})) == R"( 0
 0
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({-5, 100000})", "[printing]") {
  REQUIRE(printed(torch::tensor({-5, 100000})) == R"(     -5
 100000
[ CPULongType{2} ])");
}

TEST_CASE("printing matches LibTorch: arange(24).reshape({2, 3, 4})", "[printing]") {
  REQUIRE(printed(torch::arange(24).reshape({2, 3, 4})) == R"((1,.,.) = 
   0   1   2   3
   4   5   6   7
   8   9  10  11

(2,.,.) = 
  12  13  14  15
  16  17  18  19
  20  21  22  23
[ CPULongType{2,3,4} ])");
}

TEST_CASE("printing matches LibTorch: arange(24, kDouble).reshape({2, 1, 3, 4}) / 3", "[printing]") {
  REQUIRE(printed(torch::arange(24, torch::kDouble).reshape({2, 1, 3, 4}) / 3) == R"((1,1,.,.) = 
  0.0000  0.3333  0.6667  1.0000
  1.3333  1.6667  2.0000  2.3333
  2.6667  3.0000  3.3333  3.6667

(2,1,.,.) = 
  4.0000  4.3333  4.6667  5.0000
  5.3333  5.6667  6.0000  6.3333
  6.6667  7.0000  7.3333  7.6667
[ CPUDoubleType{2,1,3,4} ])");
}

TEST_CASE("printing matches LibTorch: arange(30).reshape({2, 15}) * 1000", "[printing]") {
  REQUIRE(printed(torch::arange(30).reshape({2, 15}) * 1000) == R"(Columns 1 to 11     0   1000   2000   3000   4000   5000   6000   7000   8000   9000  10000
 15000  16000  17000  18000  19000  20000  21000  22000  23000  24000  25000

Columns 12 to 15 11000  12000  13000  14000
 26000  27000  28000  29000
[ CPULongType{2,15} ])");
}

TEST_CASE("printing matches LibTorch: arange(40, kFloat).reshape({2, 20}) / 3", "[printing]") {
  REQUIRE(printed(torch::arange(40, torch::kFloat).reshape({2, 20}) / 3) == R"(Columns 1 to 8  0.0000   0.3333   0.6667   1.0000   1.3333   1.6667   2.0000   2.3333
  6.6667   7.0000   7.3333   7.6667   8.0000   8.3333   8.6667   9.0000

Columns 9 to 16  2.6667   3.0000   3.3333   3.6667   4.0000   4.3333   4.6667   5.0000
  9.3333   9.6667  10.0000  10.3333  10.6667  11.0000  11.3333  11.6667

Columns 17 to 20  5.3333   5.6667   6.0000   6.3333
 12.0000  12.3333  12.6667  13.0000
[ CPUFloatType{2,20} ])");
}

TEST_CASE("printing matches LibTorch: arange(40, kFloat).reshape({2, 20}) * 1e6 / 3", "[printing]") {
  REQUIRE(printed(torch::arange(40, torch::kFloat).reshape({2, 20}) * 1e6 / 3) == R"(Columns 1 to 6 0.0000e+00  3.3333e+05  6.6667e+05  1.0000e+06  1.3333e+06  1.6667e+06
 6.6667e+06  7.0000e+06  7.3333e+06  7.6667e+06  8.0000e+06  8.3333e+06

Columns 7 to 12 2.0000e+06  2.3333e+06  2.6667e+06  3.0000e+06  3.3333e+06  3.6667e+06
 8.6667e+06  9.0000e+06  9.3333e+06  9.6667e+06  1.0000e+07  1.0333e+07

Columns 13 to 18 4.0000e+06  4.3333e+06  4.6667e+06  5.0000e+06  5.3333e+06  5.6667e+06
 1.0667e+07  1.1000e+07  1.1333e+07  1.1667e+07  1.2000e+07  1.2333e+07

Columns 19 to 20 6.0000e+06  6.3333e+06
 1.2667e+07  1.3000e+07
[ CPUFloatType{2,20} ])");
}

TEST_CASE("printing matches LibTorch: arange(6, kFloat).reshape({2, 3}) * 1e6 + 0.5", "[printing]") {
  REQUIRE(printed(torch::arange(6, torch::kFloat).reshape({2, 3}) * 1e6 + 0.5) == R"( 5.0000e-01  1.0000e+06  2.0000e+06
 3.0000e+06  4.0000e+06  5.0000e+06
[ CPUFloatType{2,3} ])");
}

TEST_CASE("printing matches LibTorch: arange(60, kFloat).reshape({1, 3, 20}) / 7 * 1000", "[printing]") {
  REQUIRE(printed(torch::arange(60, torch::kFloat).reshape({1, 3, 20}) / 7 * 1000) == R"((1,.,.) = 
 Columns 1 to 7     0.0000   142.8571   285.7143   428.5714   571.4286   714.2857   857.1429
  2857.1428  3000.0000  3142.8572  3285.7144  3428.5715  3571.4285  3714.2856
  5714.2856  5857.1431  6000.0000  6142.8569  6285.7144  6428.5713  6571.4287

Columns 8 to 14  1000.0000  1142.8572  1285.7142  1428.5714  1571.4286  1714.2858  1857.1428
  3857.1428  4000.0000  4142.8569  4285.7144  4428.5713  4571.4287  4714.2856
  6714.2856  6857.1431  7000.0000  7142.8569  7285.7144  7428.5713  7571.4287

Columns 15 to 20  2000.0000  2142.8572  2285.7144  2428.5715  2571.4285  2714.2856
  4857.1431  5000.0000  5142.8569  5285.7144  5428.5713  5571.4287
  7714.2856  7857.1431  8000.0000  8142.8574  8285.7139  8428.5713
[ CPUFloatType{1,3,20} ])");
}

TEST_CASE("printing matches LibTorch: ones({0})", "[printing]") {
  REQUIRE(printed(torch::ones({0})) == R"([ CPUFloatType{0} ])");
}

TEST_CASE("printing matches LibTorch: ones({2, 0})", "[printing]") {
  REQUIRE(printed(torch::ones({2, 0})) == R"([ CPUFloatType{2,0} ])");
}

TEST_CASE("printing matches LibTorch: ones({2, 0, 3})", "[printing]") {
  REQUIRE(printed(torch::ones({2, 0, 3})) == R"([ CPUFloatType{2,0,3} ])");
}

TEST_CASE("printing matches LibTorch: Tensor()", "[printing]") {
  REQUIRE(printed(torch::Tensor()) == R"([ Tensor (undefined) ])");
}

TEST_CASE("printing matches LibTorch: tensor({{123456.0, 1.5}, {-2.0, 3.25}})", "[printing]") {
  REQUIRE(printed(torch::tensor({{123456.0, 1.5}, {-2.0, 3.25}})) == R"( 1.2346e+05  1.5000e+00
-2.0000e+00  3.2500e+00
[ CPUFloatType{2,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({{1e-3, 1.5}, {-2.0, 3.25}})", "[printing]") {
  REQUIRE(printed(torch::tensor({{1e-3, 1.5}, {-2.0, 3.25}})) == R"( 0.0010  1.5000
-2.0000  3.2500
[ CPUFloatType{2,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({{-1e6, 1e-6}})", "[printing]") {
  REQUIRE(printed(torch::tensor({{-1e6, 1e-6}})) == R"(-1.0000e+06  1.0000e-06
[ CPUFloatType{1,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({{1.0, 2.0}}).to(kDouble)", "[printing]") {
  REQUIRE(printed(torch::tensor({{1.0, 2.0}}).to(torch::kDouble)) == R"( 1  2
[ CPUDoubleType{1,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({{true, false}, {false, true}})", "[printing]") {
  REQUIRE(printed(torch::tensor({{true, false}, {false, true}})) == R"( 1  0
 0  1
[ CPUBoolType{2,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor(-0.125, kDouble)", "[printing]") {
  REQUIRE(printed(torch::tensor(-0.125, torch::kDouble)) == R"(-0.125
[ CPUDoubleType{} ])");
}

TEST_CASE("printing matches LibTorch: zeros({2, 2}, kLong)", "[printing]") {
  REQUIRE(printed(torch::zeros({2, 2}, torch::kLong)) == R"( 0  0
 0  0
[ CPULongType{2,2} ])");
}

TEST_CASE("printing matches LibTorch: eye(3)", "[printing]") {
  REQUIRE(printed(torch::eye(3)) == R"( 1  0  0
 0  1  0
 0  0  1
[ CPUFloatType{3,3} ])");
}

TEST_CASE("printing matches LibTorch: arange(8).reshape({2, 2, 2}).permute({2, 0, 1})", "[printing]") {
  REQUIRE(printed(torch::arange(8).reshape({2, 2, 2}).permute({2, 0, 1})) == R"((1,.,.) = 
  0  2
  4  6

(2,.,.) = 
  1  3
  5  7
[ CPULongType{2,2,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({0.5, 0.25}) * infinity()", "[printing]") {
  REQUIRE(printed(torch::tensor({0.5, 0.25}) * std::numeric_limits<double>::infinity()) == R"(inf
inf
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({quiet_NaN(), 1.5, 2.0})", "[printing]") {
  REQUIRE(printed(torch::tensor({std::numeric_limits<double>::quiet_NaN(), 1.5, 2.0})) == R"(    nan
 1.5000
 2.0000
[ CPUFloatType{3} ])");
}

TEST_CASE("printing matches LibTorch: tensor({quiet_NaN(), infinity()})", "[printing]") {
  REQUIRE(printed(torch::tensor({std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()})) == R"(nan
inf
[ CPUFloatType{2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({{infinity(), -2.5}, {1.0, 3.0}})", "[printing]") {
  REQUIRE(printed(torch::tensor({{std::numeric_limits<double>::infinity(), -2.5}, {1.0, 3.0}})) == R"(    inf -2.5000
 1.0000  3.0000
[ CPUFloatType{2,2} ])");
}

TEST_CASE("printing matches LibTorch: tensor({100.5, -0.001})", "[printing]") {
  REQUIRE(printed(torch::tensor({100.5, -0.001})) == R"( 1.0050e+02
-1.0000e-03
[ CPUFloatType{2} ])");
}
