// Comparisons make kBool masks; masks count, combine with any/all, and select values by multiplication.
// (Indexing with masks, index({mask}) / index_put_({mask}, v), is indexing_masks.)
#include <iostream>

#include "compat.h"

namespace comparison_masks_program {

COMPAT_PROGRAM(comparison_masks) {
  auto x = torch::arange(-4, 8).reshape({3, 4}).to(torch::kFloat);
  auto positive = x > 0;
  std::cout << "mask dtype " << positive.dtype() << "\n" << positive << "\n";
  std::cout << "count positive " << positive.sum().item<int64_t>() << " sum dtype " << positive.sum().dtype() << "\n";
  std::cout << "any > 6 " << (x > 6).any().item<bool>() << " all > -5 " << (x > -5).all().item<bool>() << "\n";
  std::cout << "x.eq(2)\n" << x.eq(2) << "\n";
  std::cout << "x.ge(torch::zeros({4}))\n" << x.ge(torch::zeros({4})) << "\n";
  std::cout << "keep positives\n" << x * positive << "\n";
  std::cout << "mask to float\n" << positive.to(torch::kFloat) << "\n";
  std::cout << "rows with a positive\n" << (x > 0).any() << "\n";
  auto y = torch::tensor({1.0, 2.0, 3.0});
  std::cout << "equal " << torch::equal(y, y.clone()) << " allclose " << torch::allclose(y, y + 1e-9) << "\n";
  return 0;
}

}  // namespace comparison_masks_program
