// Token ids into tensors, as a tokenizer's user does it (module 10): std::vector<int64_t> ids as a
// kLong tensor (torch::tensor, from_blob) and variable-length sequences batched with
// torch::nn::utils::rnn::pad_sequence (batch_first, padding_value, trailing dims, gradients).
#include <iostream>
#include <vector>

#include "compat.h"

namespace text_pad_sequence_program {

COMPAT_PROGRAM(text_pad_sequence) {
  namespace rnn = torch::nn::utils::rnn;
  std::vector<int64_t> first = {5, 6, 7, 8}, second = {9}, third = {10, 11};
  auto a = torch::tensor(first);
  auto b = torch::from_blob(second.data(), {1}, torch::kLong).clone();
  auto c = torch::tensor(third, torch::kLong);
  std::cout << "ids dtype " << a.dtype() << " sizes " << a.sizes() << "\n" << a << "\n" << b << "\n";

  std::cout << "time first (default)\n" << rnn::pad_sequence({a, b, c}) << "\n";
  std::cout << "batch first, padding -1\n" << rnn::pad_sequence({a, b, c}, true, -1) << "\n";
  std::cout << "one sequence\n" << rnn::pad_sequence({c}, true) << "\n";

  auto x = torch::arange(6, torch::kFloat).reshape({3, 2}).requires_grad_();
  auto y = (torch::arange(2, torch::kFloat) + 10).reshape({1, 2}).requires_grad_();
  auto padded = rnn::pad_sequence({x, y}, true, 0.5);
  std::cout << "trailing dims sizes " << padded.sizes() << "\n" << padded << "\n";
  (padded * torch::arange(12, torch::kFloat).reshape({2, 3, 2})).sum().backward();
  std::cout << "grad x\n" << x.grad() << "\ngrad y\n" << y.grad() << "\n";
  return 0;
}

}  // namespace text_pad_sequence_program
