// Joining and splitting: stack, chunk, split, split with sizes, narrow, unbind.
#include <iostream>

#include "compat.h"

namespace shape_stack_chunk_program {

COMPAT_PROGRAM(shape_stack_chunk) {
  auto a = torch::arange(6).reshape({2, 3});
  auto b = a * 10;
  std::cout << "stack dim 0\n" << torch::stack({a, b}) << "\n";
  std::cout << "stack dim 1\n" << torch::stack({a, b}, 1) << "\n";
  std::cout << "stack dim -1 sizes " << torch::stack({a, b}, -1).sizes() << "\n";
  auto x = torch::arange(10);
  auto chunks = x.chunk(3);
  std::cout << "chunk(3) of 10:";
  for (const auto& c : chunks) std::cout << " " << c.sizes();
  std::cout << "\n" << chunks.back() << "\n";
  auto pieces = torch::split(x, 4);
  std::cout << "split(4):";
  for (const auto& p : pieces) std::cout << " " << p.sizes();
  std::cout << "\n";
  auto sized = x.split_with_sizes({2, 3, 5});
  std::cout << "split_with_sizes:";
  for (const auto& p : sized) std::cout << " " << p.sizes();
  std::cout << "\n" << sized[1] << "\n";
  auto m = torch::arange(12).reshape({3, 4});
  auto columns = m.chunk(2, 1);
  std::cout << "chunk dim 1\n" << columns[0] << "\n" << columns[1] << "\n";
  std::cout << "narrow(1, 1, 2)\n" << m.narrow(1, 1, 2) << "\n";
  std::cout << "torch::narrow(m, 0, 2, 1)\n" << torch::narrow(m, 0, 2, 1) << "\n";
  auto rows = m.unbind(0);
  std::cout << "unbind: " << rows.size() << " rows, last\n" << rows[2] << "\n";
  return 0;
}

}  // namespace shape_stack_chunk_program
