// Module 13's LibTorch API: nn::LayerNorm (options, printing, parameters), F::layer_norm and
// torch::layer_norm with gradients; sort, argsort, topk (values, indices, gradients, errors) and
// torch::multinomial (only properties any generator meets: shapes, dtype, no repeats).
// compat-tolerance: 1e-5
#include <iostream>
#include <set>

#include "compat.h"

namespace nn_layer_norm_topk_program {

COMPAT_PROGRAM(nn_layer_norm_topk) {
  namespace nn = torch::nn;
  namespace F = torch::nn::functional;
  nn::LayerNorm norm(nn::LayerNormOptions({4}).eps(1e-5));
  std::cout << norm << "\n";
  std::cout << nn::LayerNorm(nn::LayerNormOptions({2, 3}).elementwise_affine(false)) << "\n";
  for (const auto& p : norm->named_parameters()) std::cout << p.key() << " " << p.value().sizes() << "\n";
  auto x = (torch::arange(12, torch::kFloat).reshape({3, 4}) * 0.5 - 1).pow(2).requires_grad_();
  auto y = norm(x);
  std::cout << "layer norm\n" << y << "\n";
  std::cout << "grad_fn " << y.grad_fn()->name() << "\n";
  (y * torch::linspace(-1, 1, 12).reshape({3, 4})).sum().backward();
  std::cout << "x.grad\n" << x.grad() << "\nweight.grad\n" << norm->weight.grad() << "\nbias.grad\n"
            << norm->bias.grad() << "\n";
  auto w = torch::linspace(0.5, 2.0, 6).reshape({2, 3});
  auto b = torch::linspace(-1.0, 1.0, 6).reshape({2, 3});
  auto z = (torch::arange(12, torch::kDouble).reshape({2, 2, 3}) * 0.7 - 3).pow(3) * 0.1;
  std::cout << "F::layer_norm over (2, 3)\n"
            << F::layer_norm(z, F::LayerNormFuncOptions({2, 3}).weight(w.to(torch::kDouble)).bias(b.to(torch::kDouble)).eps(1e-3))
            << "\n";
  std::cout << "torch::layer_norm\n" << torch::layer_norm(z, {3}) << "\n";
  try {
    torch::layer_norm(z, {4});
  } catch (const c10::Error& e) {
    std::cout << "error: " << std::string(e.what()).substr(0, 80) << "\n";
  }

  auto s = torch::tensor({3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0}).reshape({2, 4});
  auto [sorted, order] = s.sort();
  std::cout << "sort\n" << sorted << "\n" << order << "\n";
  auto [sorted_desc, order_desc] = torch::sort(s, 0, true);
  std::cout << "sort(0, descending)\n" << sorted_desc << "\n" << order_desc << "\n";
  std::cout << "argsort(1, true)\n" << s.argsort(1, true) << "\n";
  auto [top, top_index] = s.topk(2);
  std::cout << "topk(2)\n" << top << "\n" << top_index << "\n";
  auto [low, low_index] = torch::topk(s, 1, 0, /*largest=*/false);
  std::cout << "topk(1, 0, smallest)\n" << low << "\n" << low_index << "\n";
  auto t = s.clone().requires_grad_();
  auto [picked, picked_index] = t.topk(3, 1);
  std::cout << "topk grad_fn " << picked.grad_fn()->name() << "\n";
  (picked * torch::tensor({1.0, 2.0, 3.0})).sum().backward();
  std::cout << "topk grad\n" << t.grad() << "\n";
  try {
    s.topk(5);
  } catch (const c10::Error& e) {
    std::cout << "error: " << std::string(e.what()).substr(0, 29) << "\n";
  }
  std::cout << "argmax " << torch::argmax(s, 1) << "\n";

  torch::manual_seed(0);
  auto draws = torch::multinomial(torch::tensor({0.0, 1.0, 2.0, 0.0, 3.0}), 3);
  std::set<int64_t> distinct;
  for (int64_t i = 0; i < 3; ++i) distinct.insert(draws[i].item<int64_t>());
  std::cout << "multinomial sizes " << draws.sizes() << " dtype " << draws.dtype() << " distinct " << distinct.size()
            << " has_1 " << distinct.count(1) << " has_2 " << distinct.count(2) << " has_4 " << distinct.count(4) << "\n";
  auto many = torch::multinomial(torch::ones({4, 6}), 10, true);
  std::cout << "with replacement sizes " << many.sizes() << " max below 6 " << (many.max().item<int64_t>() < 6) << "\n";

  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  for (const auto& p : layer->named_parameters()) std::cout << p.key() << " " << p.value().sizes() << "\n";
  auto src = torch::linspace(-1, 1, 80).reshape({5, 2, 8});
  auto mask = torch::arange(5).unsqueeze(0) > torch::arange(5).unsqueeze(1);
  auto encoded = layer(src, mask);
  std::cout << "encoder layer output " << encoded.sizes() << " rows normalised "
            << (encoded.mean(-1).abs().max().item<double>() < 1e-5) << "\n";
  nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(layer, 2));
  std::cout << "encoder layers " << encoder->layers->size() << " output " << encoder(src, mask).sizes() << "\n";
  return 0;
}

}  // namespace nn_layer_norm_topk_program
