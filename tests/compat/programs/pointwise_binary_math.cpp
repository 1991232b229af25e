// Pointwise math of two or three operands: maximum/minimum/fmax/fmin, the division family (fmod,
// remainder, floor_divide, div's rounding modes), atan2, hypot, copysign, xlogy, logaddexp(2),
// ldexp, float_power, heaviside, gcd/lcm, lerp, addcmul/addcdiv, dist, isclose; broadcasting,
// dtype promotion, the in-place and out= forms, gradients and LibTorch's errors.
// compat-tolerance: 1e-5
#include <iostream>
#include <string>

#include "compat.h"

namespace pointwise_binary_math_program {

std::string first_line(const c10::Error& e) {
  std::string message = e.what();
  return message.substr(0, message.find('\n'));
}

COMPAT_PROGRAM(pointwise_binary_math) {
  auto x = torch::linspace(-3, 3, 8).reshape({2, 4});
  auto y = torch::linspace(2.5, -1.25, 4);
  auto i = torch::arange(-6, 6).reshape({3, 4});
  auto j = torch::tensor({4, -3, 2, 5});
  std::cout << "maximum\n" << torch::maximum(x, y) << "\nminimum\n" << x.minimum(y) << "\n";
  std::cout << "fmax int/float\n" << torch::fmax(j, y) << "\nfmin\n" << torch::fmin(i, j) << "\n";
  std::cout << "fmod\n" << torch::fmod(i, j) << "\nremainder\n" << torch::remainder(i, j) << "\n";
  std::cout << "fmod float\n" << x.fmod(1.5) << "\nremainder float\n" << x.remainder(-1.5) << "\n";
  std::cout << "% \n" << (i % 4) << "\nnumber % tensor\n" << torch::remainder(7, j) << "\n";
  std::cout << "floor_divide\n" << torch::floor_divide(i, j) << "\n";
  std::cout << "div trunc\n" << i.div(j, "trunc") << "\ndiv floor\n" << torch::div(x, y, "floor") << "\n";
  std::cout << "div None\n" << torch::divide(i, j, c10::nullopt) << "\ntrue_divide\n" << i.true_divide(4) << "\n";
  std::cout << "atan2\n" << torch::atan2(x, y) << "\narctan2 of ints\n" << torch::arctan2(i, j) << "\n";
  std::cout << "hypot\n" << torch::hypot(x, y) << "\ncopysign\n" << torch::copysign(i, -1) << "\n";
  std::cout << "xlogy\n" << torch::xlogy(i.abs(), j.abs()) << "\nxlogy number\n" << torch::xlogy(2, y.abs()) << "\n";
  std::cout << "logaddexp\n" << torch::logaddexp(x, y) << "\nlogaddexp2\n" << torch::logaddexp2(x, y) << "\n";
  std::cout << "ldexp\n" << torch::ldexp(x, j) << "\n";
  std::cout << "float_power\n" << torch::float_power(j, 2) << "\n" << torch::float_power(2, j) << "\n";
  std::cout << "pow number base\n" << torch::pow(2, j.abs()) << "\n" << torch::pow(1.5, y) << "\n";
  std::cout << "heaviside\n" << torch::heaviside(i, j) << "\n";
  std::cout << "gcd\n" << torch::gcd(i, j) << "\nlcm\n" << torch::lcm(i, j) << "\n";
  std::cout << "lerp\n" << torch::lerp(x, y, 0.25) << "\n" << x.lerp(y, torch::linspace(0, 1, 4)) << "\n";
  std::cout << "addcmul\n" << torch::addcmul(x, y, y, 0.5) << "\naddcdiv\n" << torch::addcdiv(x, x, y, 2) << "\n";
  std::cout << "addcmul ints\n" << torch::addcmul(i, j, j, 2) << "\n";
  std::cout << "dist " << torch::dist(x, y).item<float>() << " " << x.dist(y, 1).item<float>() << " "
            << x.dist(y, 3).item<float>() << "\n";
  std::cout << "isclose\n" << torch::isclose(x, x + 1e-6) << "\n" << torch::isclose(j, j + 1, 0.3, 0) << "\n";

  // In place and out=.
  auto a = x.clone();
  a.fmod_(2).mul_(2);
  std::cout << "fmod_ then mul_\n" << a << "\n";
  auto b = i.clone();
  b.floor_divide_(3);
  std::cout << "floor_divide_\n" << b << "\n";
  auto c = torch::empty({0});
  torch::maximum_out(c, x, y);
  std::cout << "maximum_out resized to " << c.sizes() << "\n" << c << "\n";
  auto d = torch::zeros({2, 4}, torch::kDouble);
  torch::add_out(d, x, y, 2);
  std::cout << "add_out into double\n" << d << "\n";
  torch::mul_outf(x, 3, d);
  std::cout << "mul_outf\n" << d << "\n";

  // Gradients.
  auto p = torch::linspace(0.5, 2.0, 4).requires_grad_();
  auto q = torch::linspace(-1.0, 1.5, 4).requires_grad_();
  auto loss = torch::atan2(p, q).sum() + torch::hypot(p, q).sum() + torch::maximum(p, q).sum() +
              torch::lerp(p, q, 0.3).sum() + torch::addcmul(p, p, q, 2).sum() + torch::xlogy(p, p).sum() +
              torch::fmod(q, p).sum() + torch::dist(p, q);
  loss.backward();
  std::cout << "grad p\n" << p.grad() << "\ngrad q\n" << q.grad() << "\n";
  std::cout << "grad_fn " << torch::lerp(p, q, 0.5).grad_fn()->name() << " " << torch::fmod(p, q).grad_fn()->name()
            << " " << p.div(q, "floor").grad_fn()->name() << "\n";

  // Errors.
  try {
    torch::maximum(torch::ones({2, 3}), torch::ones({2, 4}));
  } catch (const c10::Error& e) {
    std::cout << "broadcast: " << first_line(e) << "\n";
  }
  try {
    torch::remainder(i, 0);
  } catch (const c10::Error& e) {
    std::cout << "integer remainder by 0: " << first_line(e) << "\n";
  }
  try {
    x.div(y, "round");
  } catch (const c10::Error& e) {
    std::cout << "rounding mode: " << first_line(e) << "\n";
  }
  try {
    torch::gcd(x, y);
  } catch (const c10::Error& e) {
    std::cout << "gcd of floats: " << first_line(e) << "\n";
  }
  try {
    i.clone().atan2_(j);
  } catch (const c10::Error& e) {
    std::cout << "atan2_ into ints: " << first_line(e) << "\n";
  }
  try {
    torch::lerp(x, y.to(torch::kDouble), 0.5);
  } catch (const c10::Error& e) {
    std::cout << "lerp dtypes: " << first_line(e) << "\n";
  }
  try {
    auto out = torch::empty({2, 4}, torch::kLong);
    torch::div_out(out, i, j);
  } catch (const c10::Error& e) {
    std::cout << "div_out into Long: " << first_line(e) << "\n";
  }
  try {
    auto out = torch::empty({4});
    torch::mul_out(out, p, q);
  } catch (const c10::Error& e) {
    std::cout << "out= with grad: " << first_line(e) << "\n";
  }
  return 0;
}

}  // namespace pointwise_binary_math_program
