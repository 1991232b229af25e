// Logical ops (any dtype in, kBool out), comparisons in place and their other names, bitwise ops and
// the operators & | ^ ~ with tensors and numbers, shifts, and LibTorch's dtype errors.
#include <iostream>
#include <string>

#include "compat.h"

namespace logical_bitwise_program {

std::string first_line(const c10::Error& e) {
  std::string message = e.what();
  return message.substr(0, message.find('\n'));
}

COMPAT_PROGRAM(logical_bitwise) {
  auto x = torch::linspace(-1, 1, 6).reshape({2, 3});
  auto n = torch::arange(-3, 3).reshape({2, 3});
  auto m = torch::tensor({true, false, true});
  std::cout << "logical_and\n" << torch::logical_and(x, n) << "\nlogical_or\n" << x.logical_or(m) << "\n";
  std::cout << "logical_xor\n" << torch::logical_xor(n, m) << "\nlogical_not\n" << x.logical_not() << "\n";
  auto f = x.clone();
  f.logical_or_(n);
  std::cout << "logical_or_ keeps Float\n" << f << "\n";
  auto g = n.clone();
  g.gt_(0);
  std::cout << "gt_ keeps Long\n" << g << "\n";
  auto h = x.clone();
  h.less_equal_(torch::zeros({3}));
  std::cout << "less_equal_\n" << h << "\n";
  std::cout << "greater\n" << x.greater(0) << "\nnot_equal\n" << torch::not_equal(n, 1) << "\n";
  std::cout << "number < tensor\n" << (0 < n) << "\n";
  std::cout << "bitwise_and\n" << (n & 6) << "\nbitwise_or\n" << torch::bitwise_or(n, torch::tensor({1, 2, 4})) << "\n";
  std::cout << "bitwise_xor\n" << (5 ^ n) << "\nbools\n" << (m ^ torch::tensor({true, true, false})) << "\n";
  std::cout << "~\n" << ~n << "\n" << ~m << "\n";
  std::cout << "shifts\n" << n.bitwise_left_shift(2) << "\n" << torch::bitwise_right_shift(n, 1) << "\n";
  std::cout << "__lshift__\n" << n.__lshift__(torch::tensor({0, 1, 2})) << "\n__rshift__ int32\n"
            << n.to(torch::kInt).__rshift__(1) << "\n";
  auto k = n.clone();
  k &= torch::tensor({3, 3, 3});
  k |= torch::tensor({8, 0, 8});
  k ^= torch::tensor({1, 1, 1});
  std::cout << "&= |= ^=\n" << k << "\n";
  auto b = m.clone();
  b.bitwise_not_();
  std::cout << "bitwise_not_\n" << b << "\n";
  auto out = torch::empty({2, 3}, torch::kLong);
  torch::logical_and_out(out, x, n);
  std::cout << "logical_and_out into Long\n" << out << "\n";
  torch::bitwise_xor_out(out, n, 3);
  std::cout << "bitwise_xor_out\n" << out << "\n";
  try {
    torch::bitwise_and(x, x);
  } catch (const c10::Error& e) {
    std::cout << "bitwise_and of floats: " << first_line(e) << "\n";
  }
  try {
    n.bitwise_left_shift(1.5);
  } catch (const c10::Error& e) {
    std::cout << "shift by a float: " << first_line(e) << "\n";
  }
  try {
    m.clone().bitwise_or_(n);
  } catch (const c10::Error& e) {
    std::cout << "bitwise_or_ into Bool: " << first_line(e) << "\n";
  }
  try {
    x.bitwise_not();
  } catch (const c10::Error& e) {
    std::cout << "bitwise_not of floats: " << first_line(e) << "\n";
  }
  try {
    torch::zeros({3}).eq_(torch::zeros({2, 3}));
  } catch (const c10::Error& e) {
    std::cout << "eq_ broadcast: " << first_line(e) << "\n";
  }
  return 0;
}

}  // namespace logical_bitwise_program
