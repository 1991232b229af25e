// Type promotion between tensors and scalars, and explicit conversions with to().
#include <iostream>

#include "compat.h"

namespace dtype_promotion_program {

COMPAT_PROGRAM(dtype_promotion) {
  auto ints = torch::tensor({1, 2, 3});
  auto floats = torch::tensor({0.5f, 1.5f, 2.5f});
  auto doubles = torch::tensor({0.25, 0.5, 0.75}, torch::kDouble);
  auto bools = torch::tensor({true, false, true});
  std::cout << "long + float: " << (ints + floats).dtype() << "\n";
  std::cout << "float + double: " << (floats + doubles).dtype() << "\n";
  std::cout << "long + 1.5: " << (ints + 1.5).dtype() << "\n" << ints + 1.5 << "\n";
  std::cout << "long * 2: " << (ints * 2).dtype() << "\n";
  std::cout << "float * 2.0 (double scalar stays float): " << (floats * 2.0).dtype() << "\n";
  std::cout << "bool + long: " << (bools + ints).dtype() << "\n" << bools + ints << "\n";
  std::cout << "long / long (true division): " << (ints / 2).dtype() << "\n" << ints / 2 << "\n";
  std::cout << "0-dim double + float tensor: " << (torch::tensor(2.0, torch::kDouble) + floats).dtype() << "\n";
  std::cout << "result_type(ints, floats): " << torch::result_type(ints, floats) << "\n";
  std::cout << "to(kFloat)\n" << ints.to(torch::kFloat) << "\n";
  std::cout << "to(kLong) truncates\n" << torch::tensor({1.7, -1.7}).to(torch::kLong) << "\n";
  std::cout << "to(kBool)\n" << torch::tensor({0.0, 0.1}).to(torch::kBool) << "\n";
  std::cout << "comparison gives bool: " << (floats > 1).dtype() << "\n";
  std::cout << "is_floating_point " << floats.is_floating_point() << " " << ints.is_floating_point() << "\n";
  return 0;
}

}  // namespace dtype_promotion_program
