// Reductions over dims with keepdim, and the (values, indices) pairs of max/min along a dim.
#include <iostream>
#include <tuple>

#include "compat.h"

namespace reductions_dims_program {

COMPAT_PROGRAM(reductions_dims) {
  auto x = torch::tensor({{1.0, 5.0, 3.0}, {4.0, 2.0, 6.0}});
  std::cout << "sum " << x.sum() << "\n";
  std::cout << "sum(0)\n" << x.sum(0) << "\n";
  std::cout << "sum(1, true)\n" << x.sum(1, true) << "\n";
  std::cout << "sum({0, 1})\n" << x.sum(torch::IntArrayRef{0, 1}) << "\n";
  std::cout << "mean(1)\n" << x.mean(1) << "\n";
  std::cout << "mean({-1}, true)\n" << x.mean({-1}, true) << "\n";
  auto [values, indices] = x.max(1);
  std::cout << "max(1) values\n" << values << "\nindices\n" << indices << "\n";
  auto min_keep = x.min(0, true);
  std::cout << "min(0, true) values\n" << std::get<0>(min_keep) << "\nindices\n" << std::get<1>(min_keep) << "\n";
  std::cout << "argmax() " << x.argmax().item<int64_t>() << " argmax(0)\n" << x.argmax(0) << "\n";
  std::cout << "argmin(1, true)\n" << x.argmin(1, true) << "\n";
  std::cout << "max() " << x.max().item<double>() << " min() " << x.min().item<double>() << "\n";
  auto ints = torch::arange(6).reshape({2, 3});
  std::cout << "sum of ints dtype " << ints.sum().dtype() << ", mean needs float: " << ints.to(torch::kFloat).mean() << "\n";
  return 0;
}

}  // namespace reductions_dims_program
