// Module 11: nn::Embedding (options, padding_idx, max_norm, from_pretrained, printing),
// F::embedding, torch::embedding with its gradient, one_hot, and gather / scatter / scatter_add /
// index_add with their gradients and node names.
// compat-tolerance: 1e-6
#include <iostream>

#include "compat.h"

namespace nn_embedding_program {

namespace nn = torch::nn;
namespace F = torch::nn::functional;

void print_error(const char* what, const std::function<void()>& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::cout << what << ": " << e.what_without_backtrace() << "\n";
  }
}

COMPAT_PROGRAM(nn_embedding) {
  auto table = torch::arange(12, torch::kFloat).reshape({4, 3});
  auto ids = torch::tensor({{0, 2}, {3, 2}});
  std::cout << "torch::embedding\n" << torch::embedding(table, ids) << "\n";
  std::cout << "F::embedding\n" << F::embedding(torch::tensor({1, 1}), table) << "\n";

  nn::Embedding embed(nn::EmbeddingOptions(4, 3).padding_idx(-1)._weight(table.clone()));
  std::cout << embed << "\n";
  std::cout << "padding_idx " << embed->options.padding_idx().value() << "\n";
  auto out = embed(ids);
  std::cout << "grad_fn " << out.grad_fn()->name() << "\n";
  (out * torch::arange(12, torch::kFloat).reshape({2, 2, 3})).sum().backward();
  std::cout << "grad\n" << embed->weight.grad() << "\n";

  nn::Embedding padded(nn::EmbeddingOptions(5, 2).padding_idx(1));
  std::cout << padded << "\npadding row " << padded->weight[1] << "\n";
  std::cout << nn::Embedding(nn::EmbeddingOptions(10, 3).max_norm(1.5).norm_type(1).scale_grad_by_freq(true)) << "\n";

  auto w = torch::zeros({5, 2}, torch::requires_grad());
  torch::embedding(w, torch::tensor({{1, 1}, {3, 0}}), 3, /*scale_grad_by_freq=*/true).sum().backward();
  std::cout << "scale_grad_by_freq\n" << w.grad() << "\n";

  nn::Embedding renorm(nn::EmbeddingOptions(4, 2).max_norm(1.0)._weight(torch::full({4, 2}, 3.0)));
  std::cout << "max_norm out\n" << renorm(torch::tensor({1, 1, 2})) << "\nmax_norm table\n" << renorm->weight << "\n";

  auto frozen = nn::Embedding::from_pretrained(torch::ones({3, 2}));
  std::cout << frozen << " requires_grad " << frozen->weight.requires_grad() << "\n";
  auto tuned = nn::Embedding::from_pretrained(torch::ones({3, 2}), nn::EmbeddingFromPretrainedOptions().freeze(false));
  std::cout << "tuned requires_grad " << tuned->weight.requires_grad() << "\n";

  print_error("out of range", [&] { torch::embedding(table, torch::tensor({0, 4})); });
  print_error("float ids", [&] { torch::embedding(table, torch::tensor({0.0, 1.0})); });
  print_error("1-D weight", [&] { torch::embedding(table.reshape({12}), torch::tensor({0})); });
  print_error("padding_idx", [&] { F::embedding(torch::tensor({0}), table, F::EmbeddingFuncOptions().padding_idx(4)); });
  print_error("negative padding_idx", [&] { F::embedding(torch::tensor({0}), table, F::EmbeddingFuncOptions().padding_idx(-5)); });
  print_error("_weight", [&] { nn::Embedding(nn::EmbeddingOptions(10, 3)._weight(torch::ones({3, 3}))); });
  print_error("from_pretrained", [&] { nn::Embedding::from_pretrained(torch::ones({3})); });

  std::cout << "one_hot\n" << torch::one_hot(torch::tensor({0, 2}), 4) << "\n" << F::one_hot(torch::tensor({1, 0})) << "\n";
  print_error("one_hot too small", [&] { torch::one_hot(torch::tensor({0, 2}), 2); });
  print_error("one_hot negative", [&] { torch::one_hot(torch::tensor({0, -1}), 3); });
  print_error("one_hot float", [&] { torch::one_hot(torch::tensor({0.0}), 3); });
  print_error("one_hot empty", [&] { torch::one_hot(torch::zeros({0}, torch::kLong)); });

  auto x = torch::arange(6, torch::kFloat).reshape({2, 3});
  std::cout << "gather\n" << x.gather(1, torch::tensor({{0, 0}, {2, 1}})) << "\n";
  std::cout << "torch::gather\n" << torch::gather(x, 0, torch::tensor({{1, 0, 1}})) << "\n";
  std::cout << "scatter\n" << torch::zeros({2, 3}).scatter(1, torch::tensor({{0, 2}}), torch::ones({1, 2})) << "\n";
  std::cout << "scatter value\n" << torch::zeros({2, 3}).scatter(1, torch::tensor({{0, 2}, {1, 1}}), 5.0) << "\n";
  std::cout << "scatter_add\n" << torch::zeros({2, 3}).scatter_add(1, torch::tensor({{0, 0}, {2, 2}}), x.narrow(1, 0, 2)) << "\n";
  std::cout << "index_add\n" << torch::zeros({3, 2}).index_add(0, torch::tensor({0, 0, 2}), torch::ones({3, 2}), 2) << "\n";
  auto y = torch::zeros({3, 2});
  y.index_add_(1, torch::tensor({1, 1}), torch::ones({3, 2}));
  y.scatter_add_(0, torch::tensor({{2, 0}}), torch::full({1, 2}, 10.0));
  y.scatter_(1, torch::tensor({{0}, {0}, {0}}), -1.0);
  std::cout << "in place\n" << y << "\n";
  print_error("gather float index", [&] { x.gather(1, torch::tensor({{0.0}})); });
  print_error("gather rank", [&] { x.gather(1, torch::tensor({0, 1})); });
  print_error("gather bounds", [&] { x.gather(1, torch::tensor({{0, 3}})); });
  print_error("gather size", [&] { x.gather(0, torch::tensor({{0, 0, 0, 0}})); });
  print_error("scatter dtype", [&] { torch::zeros({2, 3}).scatter(1, torch::tensor({{0}}), torch::ones({1, 1}, torch::kDouble)); });
  print_error("scatter size", [&] { torch::zeros({2, 3}).scatter(1, torch::tensor({{0, 2, 1}}), torch::ones({1, 2})); });
  print_error("scatter bounds", [&] { torch::zeros({2, 3}).scatter_add(1, torch::tensor({{0, 7}}), torch::ones({1, 2})); });
  print_error("index_add count", [&] { torch::zeros({3, 2}).index_add(0, torch::tensor({0, 1, 2}), torch::ones({2, 2})); });
  print_error("index_add bounds", [&] { torch::zeros({3, 2}).index_add(0, torch::tensor({0, 5}), torch::ones({2, 2})); });
  print_error("index_add dtype", [&] { torch::zeros({3, 2}).index_add(0, torch::tensor({0}), torch::ones({1, 2}, torch::kDouble)); });

  auto s = torch::arange(6, torch::kDouble).reshape({2, 3}).requires_grad_();
  auto src = torch::ones({2, 2}, torch::kDouble).requires_grad_();
  auto index = torch::tensor({{0, 0}, {2, 1}});
  auto g = s.gather(1, index);
  auto sc = s.scatter(1, index, src);
  auto sv = s.scatter(1, index, 1.0);
  auto sa = s.scatter_add(1, index, src);
  auto ia = s.index_add(0, torch::tensor({1, 1}), src.narrow(1, 0, 1).expand({2, 3}), 3);
  std::cout << g.grad_fn()->name() << " " << sc.grad_fn()->name() << " " << sv.grad_fn()->name() << " "
            << sa.grad_fn()->name() << " " << ia.grad_fn()->name() << "\n";
  auto weights = torch::arange(6, torch::kDouble).reshape({2, 3});
  ((g * torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::kDouble)).sum() + (sc * weights).sum() + (sv * weights).sum() +
   (sa * weights).sum() + (ia * weights).sum())
      .backward();
  std::cout << "grad self\n" << s.grad() << "\ngrad src\n" << src.grad() << "\n";
  return 0;
}

}  // namespace nn_embedding_program
