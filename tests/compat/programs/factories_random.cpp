// Factories from a tensor (new_zeros, new_ones, new_full, new_empty, new_empty_strided), eye,
// linspace, logspace, arange, empty_strided, *_like, TensorOptions from a device and the
// dtype/device builders; and the random fills and functions (bernoulli, normal, uniform_, random_,
// exponential_, geometric_, cauchy_, log_normal_, randint_like, randperm, poisson), of which only
// properties are printed (LibTorch's generator is not reproduced), and their errors.
#include <iostream>

#include "compat.h"

namespace factories_random_program {

template <typename F>
void expect_error(const char* what, F&& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::cout << what << ": " << e.what_without_backtrace() << "\n";
  }
}

bool all_of(const torch::Tensor& mask) { return mask.all().item<bool>(); }

COMPAT_PROGRAM(factories_random) {
  auto z = torch::ones({2, 3}, torch::kInt);
  std::cout << "new_zeros\n" << z.new_zeros({2}) << "\nnew_ones\n" << z.new_ones({1, 2}) << "\nnew_full\n"
            << z.new_full({2}, 5) << "\nnew_full 2.5\n" << z.new_full({2}, 2.5) << "\n";
  std::cout << "new_empty " << z.new_empty({3}).sizes() << " " << z.new_empty({3}).dtype() << " new_empty_strided "
            << z.new_empty_strided({2, 2}, {1, 2}).strides() << " new_zeros(kFloat) "
            << z.new_zeros({2}, torch::kFloat).dtype() << " new_ones(double) "
            << z.new_ones({1}, torch::dtype(torch::kDouble)).dtype() << "\n";
  std::cout << "eye(2, 3)\n" << torch::eye(2, 3) << "\neye(3, kLong)\n" << torch::eye(3, torch::kLong) << "\n";
  std::cout << "linspace\n" << torch::linspace(0, 1, 5) << "\nlinspace kLong\n" << torch::linspace(0, 10, 4, torch::kLong)
            << "\nlinspace 1 step\n" << torch::linspace(-1, 1, 1) << "\n";
  std::cout << "logspace\n" << torch::logspace(0, 2, 3) << "\nlogspace base 2\n" << torch::logspace(0, 3, 4, 2)
            << "\nlogspace kLong\n" << torch::logspace(0, 3, 4, 2, torch::kLong) << "\nlogspace 1 step\n"
            << torch::logspace(0, 1, 1) << "\nlogspace -1..1\n" << torch::logspace(-1, 1, 5) << "\n";
  std::cout << "arange\n" << torch::arange(1, 2.5, 0.5) << "\n" << torch::arange(5).dtype() << " "
            << torch::arange(2, 7).sizes() << " " << torch::arange(0, 10, 3, torch::kInt) << "\n";
  std::cout << "empty_strided " << torch::empty_strided({2, 3}, {1, 2}).strides() << "\nfull_like\n"
            << torch::full_like(z, 3) << "\nzeros_like kHalf " << torch::zeros_like(z, torch::kHalf).dtype() << "\n";
  std::cout << "scalar_tensor " << torch::scalar_tensor(2.5) << "\n" << torch::scalar_tensor(4, torch::kShort) << "\n";
  // TensorOptions from a device, and the free builders.
  torch::TensorOptions on_cpu(torch::kCPU);
  std::cout << "options " << on_cpu.device() << " " << torch::zeros({1}, on_cpu).dtype() << " "
            << torch::zeros({1}, torch::device(torch::kCPU).dtype(torch::kInt)).dtype() << " "
            << torch::zeros({1}, torch::dtype<double>()).dtype() << " "
            << torch::zeros({1}, torch::TensorOptions(torch::Device(torch::kCPU))).dtype() << " "
            << torch::zeros({1}, torch::requires_grad()).requires_grad() << "\n";

  // Random factories: shapes, dtypes and the properties any generator meets.
  torch::manual_seed(0);
  std::cout << "randperm " << torch::randperm(5).dtype() << " sorted " << std::get<0>(torch::randperm(5).sort()) << "\n";
  std::cout << "randint " << torch::randint(3, 9, {2, 2}).dtype() << " in range "
            << all_of(torch::randint(3, 9, {100}).ge(3) & torch::randint(3, 9, {100}).lt(9)) << "\n";
  std::cout << "randint_like " << torch::randint_like(z, 5).dtype() << " " << torch::randint_like(z, 2, 5).sizes() << " "
            << all_of(torch::randint_like(z, 2, 5).ge(2)) << "\n";
  auto p = torch::full({4}, 0.5);
  std::cout << "bernoulli " << torch::bernoulli(p).dtype() << " " << torch::bernoulli(p, 0.3).sizes() << " "
            << torch::ones({2}, torch::kLong).bernoulli(0.5).dtype() << " zeros "
            << torch::zeros({3}).bernoulli().sum().item<double>() << " ones " << torch::ones({3}).bernoulli().sum().item<double>()
            << " p=1 " << torch::zeros({3}).bernoulli_(1.0).sum().item<double>() << " tensor p "
            << torch::zeros({3}).bernoulli_(torch::ones({3})).sum().item<double>() << "\n";
  auto x = torch::empty({1000});
  std::cout << "uniform_ " << all_of(x.uniform_(2, 3).ge(2) & x.lt(3)) << " normal_ std 0 "
            << torch::equal(x.normal_(1.5, 0), torch::full({1000}, 1.5)) << " random_(2, 3) "
            << torch::equal(torch::empty({4}).random_(2, 3), torch::full({4}, 2.0)) << " random_(4) "
            << all_of(torch::empty({100}).random_(4).lt(4)) << " random_() "
            << all_of(torch::empty({100}, torch::kByte).random_().ge(0)) << "\n";
  std::cout << "exponential_ " << all_of(x.exponential_(2).ge(0)) << " geometric_ " << all_of(x.geometric_(0.3).ge(1))
            << " log_normal_ " << all_of(x.log_normal_(0, 1).gt(0)) << " cauchy_ " << x.cauchy_().sizes()
            << " bool random_ " << all_of(torch::empty({50}, torch::kBool).random_().le(1)) << "\n";
  std::cout << "normal " << torch::normal(0, 1, {2, 3}).sizes() << " " << at::normal(torch::ones({2}), 0.0) << "\n"
            << at::normal(2.0, torch::zeros({3})) << "\n" << at::normal(torch::zeros({2}), torch::zeros({2})) << "\n";
  std::cout << "poisson " << torch::poisson(torch::ones({2})).dtype() << " " << torch::poisson(torch::zeros({3})) << "\n";
  std::cout << "rand kHalf " << torch::rand({3}, torch::kHalf).dtype() << " randn kBFloat16 "
            << torch::randn({3}, torch::kBFloat16).dtype() << " randint kShort "
            << torch::randint(0, 5, {2}, torch::kShort).dtype() << "\n";

  expect_error("bernoulli_(2)", [] { torch::ones({2}).bernoulli_(2.0); });
  expect_error("normal_ std -1", [] { torch::ones({2}).normal_(0, -1); });
  expect_error("uniform_(2, 1)", [] { torch::ones({2}).uniform_(2, 1); });
  expect_error("random_(3, 2)", [] { torch::ones({2}).random_(3, 2); });
  expect_error("random_(0)", [] { torch::ones({2}).random_(0); });
  expect_error("exponential_(-1)", [] { torch::ones({2}).exponential_(-1); });
  expect_error("geometric_(2)", [] { torch::ones({2}).geometric_(2); });
  expect_error("log_normal_ std -1", [] { torch::ones({2}).log_normal_(1, -1); });
  expect_error("uniform_ Long", [] { torch::ones({2}, torch::kLong).uniform_(); });
  expect_error("normal_ Int", [] { torch::ones({2}, torch::kInt).normal_(); });
  expect_error("exponential_ Long", [] { torch::ones({2}, torch::kLong).exponential_(); });
  expect_error("cauchy_ Char", [] { torch::ones({2}, torch::kChar).cauchy_(); });
  expect_error("log_normal_ Char", [] { torch::ones({2}, torch::kChar).log_normal_(); });
  expect_error("random_ int8 300", [] { torch::ones({2}, torch::kChar).random_(0, 300); });
  expect_error("random_ uint8 -1", [] { torch::ones({2}, torch::kByte).random_(-1, 5); });
  expect_error("random_ bool 3", [] { torch::ones({2}, torch::kBool).random_(0, 3); });
  expect_error("bernoulli Long p", [] { torch::bernoulli(torch::ones({2}, torch::kLong)); });
  expect_error("bernoulli p 2", [] { torch::bernoulli(torch::full({2}, 2.0)); });
  expect_error("bernoulli_ half", [] { torch::ones({2}, torch::kHalf).bernoulli_(0.5); });
  expect_error("randint 5 2", [] { torch::randint(5, 2, {2}); });
  expect_error("randint_like 5 2", [] { torch::randint_like(torch::ones({2}), 5, 2); });
  expect_error("normal(0, -1, size)", [] { torch::normal(0, -1, {2}); });
  expect_error("normal Long mean", [] { at::normal(torch::ones({2}, torch::kLong), 0.5); });
  expect_error("poisson -1", [] { torch::poisson(torch::full({2}, -1.0)); });
  expect_error("poisson Long", [] { torch::poisson(torch::ones({2}, torch::kLong)); });
  expect_error("rand Int", [] { torch::rand({2}, torch::kInt); });
  expect_error("randn Short", [] { torch::randn({2}, torch::kShort); });
  expect_error("linspace -1", [] { torch::linspace(0, 1, -1); });
  expect_error("logspace -1", [] { torch::logspace(0, 1, -1); });
  expect_error("eye -1", [] { torch::eye(-1); });
  expect_error("eye 2 -1", [] { torch::eye(2, -1); });
  expect_error("empty_strided", [] { torch::empty_strided({2}, {1, 2}); });
  expect_error("new_empty_strided", [] { torch::ones({1}).new_empty_strided({2}, {1, 2}); });
  return 0;
}

}  // namespace factories_random_program
