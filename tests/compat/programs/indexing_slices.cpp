// The indexing API (LibTorch's "Tensor Indexing API" note): index() with Slice/None/Ellipsis/integers and
// index_put_ with the same index lists.
#include <iostream>

#include "compat.h"

namespace indexing_slices_program {
using namespace torch::indexing;

COMPAT_PROGRAM(indexing_slices) {
  auto x = torch::arange(24).reshape({2, 3, 4});
  std::cout << "x.index({0})\n" << x.index({0}) << "\n";
  std::cout << "x.index({Slice(), 0})\n" << x.index({Slice(), 0}) << "\n";
  std::cout << "x.index({1, 2, 3}) " << x.index({1, 2, 3}).item<int64_t>() << "\n";
  std::cout << "x.index({Slice(None, 1), Slice(1, None), Slice(None, None, 2)})\n"
            << x.index({Slice(None, 1), Slice(1, None), Slice(None, None, 2)}) << "\n";
  std::cout << "x.index({Ellipsis, -1})\n" << x.index({Ellipsis, -1}) << "\n";
  std::cout << "x.index({0, None}).sizes() " << x.index({0, None}).sizes() << "\n";
  std::cout << "x.index({Slice(), Slice(), None, 0}).sizes() " << x.index({Slice(), Slice(), None, 0}).sizes() << "\n";
  std::cout << "x[1][2]\n" << x[1][2] << "\n";

  auto y = torch::zeros({3, 4});
  y.index_put_({0}, 1);
  y.index_put_({Slice(), 1}, torch::tensor({5.0, 6.0, 7.0}));
  y.index_put_({Slice(1, None), Slice(2, None)}, -1.5);
  y.index_put_({Ellipsis, 3}, torch::full({3}, 9.0));
  std::cout << "after index_put_\n" << y << "\n";
  auto view = y.index({Slice(), 0});
  view.fill_(4);
  std::cout << "a slice is a view\n" << y << "\n";
  return 0;
}

}  // namespace indexing_slices_program
