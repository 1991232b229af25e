// Module 16's LibTorch API: F::kl_div / nn::KLDivLoss with every reduction (kBatchMean too) and
// log_target, a distillation loss written with them, and torch::linalg::svd / torch::svd. (Pruning
// is Python's torch.nn.utils.prune: LibTorch has no C++ counterpart to diff against.) Singular
// vectors are unique up to sign: printed as absolute values and reconstructions.
// compat-tolerance: 1e-5
#include <iostream>
#include <tuple>

#include "compat.h"

namespace compression_kl_div_svd_program {
namespace F = torch::nn::functional;

COMPAT_PROGRAM(compression_kl_div_svd) {
  auto student = torch::linspace(-2, 2, 12).reshape({3, 4});
  auto teacher = torch::linspace(1, -1, 12).reshape({3, 4}) * 3;
  auto labels = torch::tensor({0, 3, 1});
  const double T = 4, alpha = 0.7;
  auto log_p = F::log_softmax(student / T, F::LogSoftmaxFuncOptions(1));
  auto q = F::softmax(teacher / T, F::SoftmaxFuncOptions(1));
  std::cout << "kl_div batchmean " << F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kBatchMean)).item<float>() << "\n";
  std::cout << "kl_div sum " << F::kl_div(log_p, q, F::KLDivFuncOptions().reduction(torch::kSum)).item<float>() << "\n";
  std::cout << "kl_div none\n" << F::kl_div(log_p, q, F::KLDivFuncOptions(torch::kNone)) << "\n";
  std::cout << "kl_div log_target "
            << F::kl_div(log_p, q.log(), F::KLDivFuncOptions(torch::kBatchMean).log_target(true)).item<float>() << "\n";
  torch::nn::KLDivLoss criterion(torch::nn::KLDivLossOptions().reduction(torch::kBatchMean));
  std::cout << criterion << " " << criterion(log_p, q).item<float>() << "\n";

  // Hinton's distillation loss, as a LibTorch user writes it.
  auto logits = student.clone().requires_grad_(true);
  auto soft = F::kl_div(F::log_softmax(logits / T, F::LogSoftmaxFuncOptions(1)), q, F::KLDivFuncOptions(torch::kBatchMean));
  auto loss = soft * (alpha * T * T) + F::cross_entropy(logits, labels) * (1 - alpha);
  loss.backward();
  std::cout << "distillation " << loss.item<float>() << "\n" << logits.grad() << "\n";

  auto A = torch::tensor({{3.0, 1.0, 0.0}, {1.0, 2.0, 1.0}, {0.0, 1.0, 4.0}, {1.0, 0.0, 1.0}, {2.0, 2.0, 0.0}});
  torch::Tensor U, S, Vh;
  std::tie(U, S, Vh) = torch::linalg::svd(A, /*full_matrices=*/false, c10::nullopt);
  std::cout << "S " << S << "\n" << U.sizes() << " " << Vh.sizes() << "\n";
  std::cout << "reconstruction " << torch::allclose((U * S).mm(Vh), A, 1e-5, 1e-5) << "\n";
  std::cout << "|Vh|\n" << Vh.abs() << "\n";
  // The best rank-2 approximation and its error, sqrt of the dropped S^2.
  auto A2 = (U.narrow(1, 0, 2) * S.narrow(0, 0, 2)).mm(Vh.narrow(0, 0, 2));
  std::cout << "rank-2 error " << (A - A2).norm().item<float>() << " = " << S[2].item<float>() << "\n";
  torch::Tensor U_full, S_full, Vh_full;
  std::tie(U_full, S_full, Vh_full) = torch::linalg::svd(A, /*full_matrices=*/true, c10::nullopt);
  std::cout << "full " << U_full.sizes() << " " << S_full.sizes() << " " << Vh_full.sizes() << "\n";
  torch::Tensor U_old, S_old, V_old;
  std::tie(U_old, S_old, V_old) = torch::svd(A);
  std::cout << "torch::svd " << S_old << "\n" << V_old.sizes() << "\n" << V_old.abs() << "\n";
  return 0;
}

}  // namespace compression_kl_div_svd_program
