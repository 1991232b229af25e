// LibTorch's order statistics (median, nanmedian, kthvalue, mode, aminmax), NaN-skipping sums,
// counting (count_nonzero, all/any along a dim, bincount, histc), diff, renorm, the scans cumprod,
// cummax/cummin, logcumsumexp, std_mean/var_mean, unique_consecutive, with their gradients.
// compat-tolerance: 1e-5
#include <cmath>
#include <iostream>
#include <tuple>
#include <vector>

#include "compat.h"

namespace reductions_scans_program {

void print_pair(const char* name, const std::tuple<torch::Tensor, torch::Tensor>& pair) {
  std::cout << name << "\n" << std::get<0>(pair) << "\n" << std::get<1>(pair) << "\n";
}

COMPAT_PROGRAM(reductions_scans) {
  auto x = torch::tensor({3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0, -1.0, 7.0, 0.5, 8.0}).reshape({3, 4});
  std::cout << "median " << x.median() << "\n";
  print_pair("median(1)", x.median(1));
  print_pair("median(0, keepdim)", torch::median(x, 0, true));
  auto with_nan = x.clone();
  with_nan.index_put_({0, 1}, std::nan(""));
  std::cout << "nanmedian " << with_nan.nanmedian() << "\nnansum(1)\n" << with_nan.nansum(1) << "\n";
  std::cout << "nanmean(0)\n" << torch::nanmean(with_nan, 0) << "\n";
  print_pair("nanmedian(1)", with_nan.nanmedian(1));
  print_pair("kthvalue(2)", x.kthvalue(2));
  print_pair("kthvalue(3, 0, keepdim)", torch::kthvalue(x, 3, 0, true));
  auto counts = torch::tensor({1, 2, 2, 3, 3, 1, 1, 0, 5, 5, 4, 4}).reshape({2, 6});
  print_pair("mode", counts.mode());
  print_pair("mode(0)", torch::mode(counts, 0));
  print_pair("aminmax", x.aminmax());
  print_pair("aminmax(1)", torch::aminmax(x, 1));
  std::cout << "max(other)\n" << x.max(torch::full({4}, 3.5)) << "\n";
  std::cout << "min(a, b)\n" << torch::min(x, torch::full({3, 1}, 2.0)) << "\n";
  auto sparse = torch::tensor({0.0, 1.0, 0.0, 2.0, 3.0, 0.0}).reshape({2, 3});
  std::cout << "count_nonzero " << sparse.count_nonzero() << "\n" << torch::count_nonzero(sparse, std::vector<int64_t>{0}) << "\n";
  std::cout << "all(1)\n" << sparse.all(1) << "\nany(0, keepdim)\n" << torch::any(sparse, 0, true) << "\n";
  std::cout << "argwhere\n" << sparse.argwhere() << "\n";
  auto ids = torch::tensor({1, 1, 3, 0, 5, 3});
  std::cout << "bincount\n" << ids.bincount() << "\n" << torch::bincount(ids, torch::linspace(0, 1, 6, torch::kDouble), 8)
            << "\n";
  std::cout << "histc\n" << torch::linspace(0, 3, 10).histc(4) << "\n" << torch::linspace(0, 3, 10).histc(3, 0.5, 2.5)
            << "\n";
  auto d = torch::tensor({1.0, 3.0, 6.0, 10.0, 15.0, 21.0}).reshape({2, 3});
  std::cout << "diff\n" << d.diff() << "\n" << torch::diff(d, 2, 1, torch::zeros({2, 1})) << "\n" << d.diff(1, 0) << "\n";
  std::cout << "renorm\n" << torch::arange(1, 10, torch::kFloat).reshape({3, 3}).renorm(2, 0, 5) << "\n";
  std::cout << "is_nonzero " << torch::tensor({2.0}).is_nonzero() << " is_same_size " << x.is_same_size(d) << "\n";
  std::cout << "cumprod\n" << d.cumprod(1) << "\n" << torch::cumprod(torch::arange(1, 7).reshape({2, 3}), 0) << "\n";
  auto inplace = d.clone();
  inplace.cumprod_(0);
  std::cout << "cumprod_\n" << inplace << "\n";
  inplace.cumsum_(1);
  std::cout << "cumsum_\n" << inplace << "\n";
  auto running = torch::tensor({1.0, 3.0, 2.0, 3.0, 0.0, 5.0, 4.0, 1.0});
  print_pair("cummax", running.cummax(0));
  print_pair("cummin", torch::cummin(running, 0));
  std::cout << "logcumsumexp\n" << d.logcumsumexp(1) << "\n";
  print_pair("std_mean", torch::std_mean(x, {1}));
  print_pair("var_mean", torch::var_mean(x, {0}, false, true));
  auto [values, inverse, group_counts] = torch::unique_consecutive(torch::tensor({2, 2, 1, 1, 3, 2, 2}), true, true);
  std::cout << "unique_consecutive\n" << values << "\n" << inverse << "\n" << group_counts << "\n";

  auto w = torch::tensor({{2.0, 0.5, 3.0}, {1.0, 4.0, -1.0}}, torch::requires_grad());
  w.cumprod(1).sum().backward();
  std::cout << "grad of cumprod\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  std::get<0>(w.median(1)).sum().backward();
  std::cout << "grad of median(1)\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  std::get<0>(w.cummax(1)).pow(2).sum().backward();
  std::cout << "grad of cummax\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.logcumsumexp(0).sum().backward();
  std::cout << "grad of logcumsumexp\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  std::get<0>(w.kthvalue(2, 1)).sum().backward();
  std::cout << "grad of kthvalue\n" << w.grad() << "\n";
  w.mutable_grad() = torch::Tensor();
  w.nansum().backward();
  std::cout << "grad of nansum\n" << w.grad() << "\n";
  std::cout << "nodes " << w.cumprod(1).grad_fn()->name() << " " << std::get<0>(w.cummin(1)).grad_fn()->name() << " "
            << w.median().grad_fn()->name() << " " << w.nansum().grad_fn()->name() << "\n";
  return 0;
}

}  // namespace reductions_scans_program
