// Boolean masks and index tensors: index({mask}), index({Slice(), positions}), index_put_ with
// masks and positions, masked_select / masked_fill / nonzero / where / index_select, and their
// gradients.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace indexing_masks_program {

using torch::indexing::Slice;

COMPAT_PROGRAM(indexing_masks) {
  auto x = torch::arange(12, torch::kFloat).reshape({3, 4});
  auto mask = x > 6;
  std::cout << "x.index({mask})\n" << x.index({mask}) << "\n";
  std::cout << "rows whose first column > 3\n" << x.index({x.select(1, 0) > 3}) << "\n";
  std::cout << "columns 0 and 2\n" << x.index({Slice(), torch::tensor({0, 2})}) << "\n";
  std::cout << "rows 2 and 0\n" << x.index({torch::tensor({2, 0})}) << "\n";
  std::cout << "row 1 where > 5\n" << x.index({1, x.select(0, 1) > 5}) << "\n";

  auto y = x.clone();
  y.index_put_({y > 8}, 0);
  std::cout << "index_put_ scalar through a mask\n" << y << "\n";
  y.index_put_({y < 2}, torch::tensor({-1.0f, -2.0f, -3.0f, -4.0f, -5.0f}));
  std::cout << "index_put_ tensor through a mask\n" << y << "\n";
  y.index_put_({Slice(), torch::tensor({1, 3})}, 7);
  std::cout << "index_put_ columns\n" << y << "\n";
  y.index_put_({torch::tensor({0}), Slice()}, torch::tensor({9.0f, 8.0f, 7.0f, 6.0f}));
  std::cout << "index_put_ a row\n" << y << "\n";

  std::cout << "masked_select\n" << torch::masked_select(x, x.lt(3)) << "\n";
  std::cout << "masked_select broadcast\n" << x.masked_select(torch::tensor({true, false, false, true})) << "\n";
  std::cout << "masked_fill\n" << x.masked_fill(x < 3, -1) << "\n";
  auto z = x.clone();
  z.masked_fill_(z.gt(9), torch::tensor(100.0));
  std::cout << "masked_fill_\n" << z << "\n";
  std::cout << "nonzero\n" << torch::nonzero(x > 8) << "\n" << (x.select(0, 0) > 1).nonzero() << "\n";
  std::cout << "where\n" << torch::where(x > 5, x, torch::zeros_like(x)) << "\n";
  std::cout << "where with a scalar\n" << torch::where(x > 5, x, 0.5) << "\n";
  std::cout << "index_select\n" << x.index_select(1, torch::tensor({3, 1})) << "\n"
            << torch::index_select(x, 0, torch::tensor({2, 2})) << "\n";

  // Gradients flow to the selected elements only.
  auto w = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  (w.index({w > 2}) * 2).sum().backward();
  std::cout << "grad of index({mask})\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  (w.masked_fill(w < 2, 0) * w).sum().backward();
  std::cout << "grad of masked_fill\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  torch::where(w > 3, w * w, -w).sum().backward();
  std::cout << "grad of where\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.masked_select(w.ne(1)).pow(2).sum().backward();
  std::cout << "grad of masked_select\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.index_select(1, torch::tensor({0, 0, 2})).sum().backward();
  std::cout << "grad of index_select (a column picked twice)\n" << w.grad() << "\n";

  try {
    x.index({torch::tensor({true, false})});
  } catch (const c10::Error&) {
    std::cout << "a mask of the wrong shape fails\n";
  }
  return 0;
}

}  // namespace indexing_masks_program
