// The narrow dtypes: uint8, int8, int16, int32 arithmetic (wrap-around, promotion, integer sums
// and products, matmul), Half and BFloat16 (rounding, printing, arithmetic, reductions through
// float), PyTorch's promotion table, the dtype predicates and names, conversions (to, toType,
// type_as), item / data_ptr of at::Half, and LibTorch's errors for what has no kernel.
#include <iomanip>
#include <iostream>
#include <vector>

#include "compat.h"

namespace dtypes_integer_half_program {

template <typename F>
void expect_error(const char* what, F&& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::cout << what << ": " << e.what_without_backtrace() << "\n";
  }
}

COMPAT_PROGRAM(dtypes_integer_half) {
  const std::vector<torch::ScalarType> types = {torch::kByte, torch::kChar,   torch::kShort, torch::kInt,
                                                torch::kLong, torch::kHalf,   torch::kFloat, torch::kDouble,
                                                torch::kBool, torch::kBFloat16};
  std::cout << "promotion table\n";
  for (auto a : types) {
    for (auto b : types) std::cout << c10::toString(c10::promoteTypes(a, b)) << " ";
    std::cout << "\n";
  }
  for (auto t : types) {
    auto z = torch::zeros({2}, t);
    std::cout << c10::toString(t) << " " << z.dtype() << " " << c10::elementSize(t) << " " << z.element_size() << " "
              << c10::isFloatingType(t) << c10::isIntegralType(t, true) << c10::isIntegralType(t, false) << " "
              << z.is_floating_point() << " " << z.toString() << "\n";
  }
  std::cout << "aliases " << (torch::kInt16 == torch::kShort) << (torch::kFloat16 == torch::kHalf)
            << (torch::kUInt8 == torch::kByte) << (torch::kInt8 == torch::kChar) << "\n";

  // int8: wrap-around like C's int8_t.
  auto c = torch::tensor({127, -128, 100}, torch::kChar);
  std::cout << "int8 + 1\n" << c + 1 << "\nint8 * 2\n" << c * 2 << "\nint8 - 1\n" << c - 1 << "\n";
  std::cout << "int8 + int8 dtype " << (c + c).dtype() << "\nadd alpha\n" << c.add(c, 2) << "\n";
  std::cout << "abs\n" << c.abs() << "\nneg\n" << c.neg() << "\n";
  std::cout << "int8 / 3\n" << c / 3 << "\nint8 > 100\n" << (c > 100) << "\nint8 pow 2\n" << c.pow(2) << "\n";
  // uint8.
  auto u = torch::tensor({200, 100, 0}, torch::kByte);
  std::cout << "uint8 + 100\n" << u + 100 << "\nuint8 - 101\n" << u - 101 << "\nuint8 * 3\n" << u * 3 << "\n";
  std::cout << "-uint8\n" << -u << "\nuint8 + int8 (Short)\n" << u + c << "\n";
  std::cout << "uint8 sum " << u.sum().item<int64_t>() << " " << u.sum().dtype() << "\n";
  // int16.
  auto s = torch::tensor({30000, 2, -3}, torch::kShort);
  std::cout << "int16 + int16\n" << s + s << "\nint16 pow 2\n" << s.pow(2) << "\n";
  std::cout << "int16 max " << s.max().item<int64_t>() << " " << s.max().dtype() << " argmax " << s.argmax().item<int64_t>()
            << " min " << s.min().item<int64_t>() << " sum " << s.sum().item<int64_t>() << " " << s.sum().dtype() << "\n";
  auto [values, indices] = s.max(0);
  std::cout << "max(0) " << values.item<int64_t>() << " " << values.dtype() << " " << indices.item<int64_t>() << "\n";
  // int32 products.
  auto m = torch::tensor({{1, 2}, {3, 4}}, torch::kInt);
  std::cout << "int32 matmul\n" << m.matmul(m) << "\nmm\n" << m.mm(m) << "\nvector dot\n"
            << torch::tensor({1, 2}, torch::kInt).matmul(torch::tensor({3, 4}, torch::kInt)) << "\n";
  std::cout << "int32 sum(1)\n" << m.sum({1}) << "\nint32 sum(kInt)\n" << m.sum(torch::kInt) << "\n";
  std::cout << "int32 2^31 wraps\n" << torch::tensor({2147483647}, torch::kInt) + 1 << "\n";
  // Selection ops keep the dtype.
  std::cout << "where\n" << torch::where(c > 0, c, torch::zeros_like(c)) << "\ncat int8 int16\n" << torch::cat({c, s})
            << "\nstack\n" << torch::stack({c, c}) << "\ngather\n" << c.gather(0, torch::tensor({2, 2, 0}))
            << "\nmasked_fill\n" << u.masked_fill(u > 50, 7) << "\nindex_select\n"
            << s.index_select(0, torch::tensor({2, 0})) << "\n";

  // Half and BFloat16: stored rounded to nearest even, computed in float.
  auto h = torch::tensor({1.5, 2.25, 3.1}, torch::kHalf);
  auto b = torch::tensor({1.5, 2.25, 3.1}, torch::kBFloat16);
  std::cout << "half\n" << h << "\nbfloat16\n" << b << "\n" << torch::tensor(0.1, torch::kHalf) << "\n";
  std::cout << std::setprecision(12);
  for (double v : {0.1, 1.0 / 3, 65504.0, 65520.0, 1e-8, 6e-8, 1.00048828125, 1.00146484375, -2.5}) {
    std::cout << v << " half " << torch::tensor(v, torch::kDouble).to(torch::kHalf).item<double>() << " bfloat16 "
              << torch::tensor(v, torch::kDouble).to(torch::kBFloat16).item<double>() << " c10::Half "
              << static_cast<float>(c10::Half(static_cast<float>(v))) << " c10::BFloat16 "
              << static_cast<float>(c10::BFloat16(static_cast<float>(v))) << "\n";
  }
  for (float v : {1.00390625f, 1.01171875f, 1.0078125f, 3.14159f}) {
    std::cout << v << " bits half " << c10::Half(v).x << " bfloat16 " << c10::BFloat16(v).x << "\n";
  }
  std::cout << std::setprecision(6);
  std::cout << "half + half\n" << h + h << "\nhalf * 3\n" << h * 3 << "\nhalf / 7\n" << h / 7 << "\n";
  std::cout << "half sum " << h.sum() << "\nhalf mean " << h.mean() << "\nhalf max " << h.max() << "\n";
  std::cout << "half pow 2\n" << h.pow(2) << "\nhalf abs\n" << (-h).abs() << "\n";
  std::cout << "bfloat16 exp\n" << b.exp() << "\nbfloat16 sum " << b.sum() << "\nbfloat16 matmul\n"
            << torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::kBFloat16).matmul(torch::eye(2, torch::kFloat).to(torch::kBFloat16))
            << "\n";
  std::cout << "half + bfloat16\n" << h + torch::tensor({1.0}, torch::kBFloat16) << "\n";
  std::cout << "dtypes " << (h + 1.5).dtype() << " " << (h + torch::ones({3})).dtype() << " " << (c + 1.5).dtype() << " "
            << (u + torch::tensor(5)).dtype() << " " << (h + torch::tensor(5.0)).dtype() << " "
            << (c + torch::tensor(5.0, torch::kHalf)).dtype() << " " << h.sum().dtype() << "\n";
  std::cout << "item " << h[0].item<at::Half>() << " data_ptr " << h.data_ptr<at::Half>()[1] << " item<float> "
            << h[2].item<float>() << "\n";
  std::cout << "limits " << std::numeric_limits<at::Half>::max() << " "
            << static_cast<float>(std::numeric_limits<at::BFloat16>::max()) << " "
            << std::numeric_limits<at::Half>::epsilon() << " " << at::Half(2.f) + at::Half(3.f) << "\n";

  // Conversions.
  std::cout << "int8 to half\n" << torch::tensor({1, 2}, torch::kChar).to(torch::kHalf) << "\nfloat to uint8\n"
            << torch::tensor({-1.7, 2.5, 300.0}).to(torch::kByte) << "\nfloat to int16\n"
            << torch::tensor({-1.7, 2.5, 3.5}).to(torch::kShort) << "\ntoType\n"
            << torch::tensor({1, 2, 3}, torch::kByte).toType(torch::kFloat) << "\ntype_as\n"
            << torch::ones({2}).type_as(c) << "\nto(other)\n" << torch::ones({2}).to(h) << "\n";
  std::cout << "fill half\n" << torch::zeros({2}, torch::kHalf).fill_(2.5) << "\narange half\n"
            << torch::arange(3, torch::kHalf) << "\n";

  expect_error("half exp", [&] { h.exp(); });
  expect_error("half mm", [&] { torch::ones({2, 2}, torch::kHalf).mm(torch::ones({2, 2}, torch::kHalf)); });
  expect_error("int16 mean", [&] { s.mean(); });
  expect_error("int8 pow -1", [&] { c.pow(-1); });
  expect_error("int8 div_", [&] { c.clone().div_(2); });
  expect_error("int8 add_ 1.5", [&] { c.clone().add_(1.5); });
  expect_error("half data_ptr<float>", [&] { h.data_ptr<float>(); });
  return 0;
}

}  // namespace dtypes_integer_half_program
