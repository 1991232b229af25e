// Reshaping: flatten / unflatten / view / reshape / permute / transpose / squeeze / unsqueeze.
#include <iostream>

#include "compat.h"

namespace shape_flatten_program {

COMPAT_PROGRAM(shape_flatten) {
  auto x = torch::arange(24).reshape({2, 3, 4});
  std::cout << "flatten() " << x.flatten().sizes() << "\n";
  std::cout << "flatten(1) " << x.flatten(1).sizes() << "\n";
  std::cout << "flatten(0, 1) " << x.flatten(0, 1).sizes() << "\n";
  std::cout << "torch::flatten(x, 1)\n" << torch::flatten(x, 1) << "\n";
  std::cout << "unflatten(2, {2, 2}) " << x.unflatten(2, {2, 2}).sizes() << "\n";
  std::cout << "unflatten(-1, {-1, 2}) " << x.unflatten(-1, {-1, 2}).sizes() << "\n";
  std::cout << "view({4, -1}) " << x.view({4, -1}).sizes() << "\n";
  std::cout << "permute({2, 0, 1}) " << x.permute({2, 0, 1}).sizes() << " contiguous "
            << x.permute({2, 0, 1}).is_contiguous() << "\n";
  std::cout << "transpose(0, 2) strides " << x.transpose(0, 2).strides() << "\n";
  std::cout << "reshape of a transpose\n" << x.transpose(1, 2).reshape({2, 12}) << "\n";
  auto column = torch::arange(3).unsqueeze(1);
  std::cout << "unsqueeze(1) " << column.sizes() << " squeeze " << column.squeeze().sizes() << " squeeze(1) "
            << column.squeeze(1).sizes() << "\n";
  std::cout << "nn::Flatten " << torch::nn::Flatten()(x).sizes() << "\n";
  return 0;
}

}  // namespace shape_flatten_program
